"""The row tile: attention of BLOCK_M query rows over the keys they see.

Every fused forward kernel runs it: the prefill (``flash.py``) on one
(batch, head), the serving kernels (``serving.py``) on one packed sequence or
paged cache, and the split-K decode (``split_decode.py``) on one key range of
a packed GQA tile.  Read top-down: the step that folds one key block into the
running state (``attend_block``), the loop over a range of blocks
(``attend_range``), the normalisation (``finish_rows``), and the whole tile
(``attend_rows``), which splits the keys into ranges that do and do not need
a mask.

Online softmax.  A row tile walks its keys in BLOCK_N blocks, keeping per row
a running max ``m``, a running sum ``l`` of ``exp(logit - m)`` and an fp32
accumulator of ``exp(logit - m) @ V``.  When a new block raises the max,
``l`` and the accumulator are rescaled by ``exp(m_old - m_new)``, so the
result is exact softmax attention whatever the order or number of blocks.
Exponentials are ``exp2`` with ``log2(e)`` folded into the scale (``exp(x) =
exp2(x * log2 e)``), so the max is tracked in base-2 units and converted back
to a natural log only for the returned LSE.

Causal masking costs nothing where it is not needed.  Visibility is a prefix
(key j is visible to query i iff ``j <= i + diagonal``), so for one query block
the keys split into three ranges: visible to every row (processed unmasked),
a band crossing the diagonal (masked), and keys no row sees (never loaded: the
loop stops before them).  Non-causal attention uses the same two loops, the
second one only masking the ragged tail past Sk.

Sliding windows (``window=(left, right)``) bound each row's keys to a band
``i + diagonal - left <= j <= i + diagonal + right``.  A right side works as
the causal prefix does (and causal launches drop it: the prefix is
narrower); a left side adds, per query block, a masked range before the
unmasked one and skips every block before the first row's first key, so a
block runs only if some row sees a key of it (``_tiles._key_ranges``).  The
flags HAS_LEFT and HAS_RIGHT are compile-time, the sizes runtime: launches
without a window compile as they did before windows existed.

A row can see no key at all (causal with ``diagonal < 0``, or a window).  Its max stays
``-inf``, and ``-inf - -inf`` is NaN, so the masked loop shifts by 0 instead of
an infinite max; such a row ends with ``l = 0`` and is written as zeros with
LSE ``-inf``.  The unmasked loop cannot meet an all-masked row and skips that
guard.

P is rounded to V's dtype before ``P @ V``, as FlashAttention does, so 16-bit
inputs use the tensor cores for both products.

Overflow.  The accumulator holds ``sum_j p_j v_j`` with every ``p_j <= 1``
until the final division by ``l``, so it can reach ``n * max|v|`` over ``n``
keys and overflow fp32 for bf16 or fp32 values within a factor ``n`` of their
maximum, although the normalised output is finite.  For bf16 and fp32 V every
weight is therefore scaled by ``2**-ceil(log2 n)`` (``n``: the keys one
program sums over; ``weight_shift``), which costs nothing (it joins the max
in the exponent's subtraction) and keeps ``sum p <= 1`` and ``|acc| <=
max|v|``; the factor cancels in ``acc / l`` and is added back to the LSE.
fp16 values cannot overflow this way, and their weights, rounded to fp16's
5-bit exponent, would lose precision to the shift, so they get none.  The
decode merge does the same over its splits.

Paged keys.  With ``PAGED``, key ``j`` is slot ``j % PAGE`` of page
``table[j // PAGE]`` of a paged cache instead of row ``j`` of a dense K/V.
"""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

from ._tiles import _LN2, _band, _band_diagonals, _key_ranges, _load_2d


def weight_shift(v_dtype: torch.dtype, terms: int) -> float:
    """log2 of the factor that keeps ``terms`` softmax weights summing to <= 1.

    Zero for fp16 values, which cannot overflow an fp32 sum of ``terms`` < 2**31
    of them and whose weights, rounded to fp16, would lose bits to the shift.
    """
    if v_dtype == torch.float16 or terms <= 1:
        return 0.0
    return float(math.ceil(math.log2(terms)))


@triton.jit
def attend_block(
    acc, l_i, m_i, q,
    k_ptrs, v_ptrs, q_idx, kv_idx, kv_end, diagonal, lo_diag, qk_scale, p_shift,
    head_d, head_dv,
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, NEG_SCALE: tl.constexpr,
    PRECISION: tl.constexpr,
):
    """Fold one key block into the running (acc, l, m) of a row tile.

    ``kv_idx`` are the block's key indices; with MASKED, keys at or past
    ``kv_end``, (CAUSAL: causal or a right window) keys past ``q_idx +
    diagonal`` and (HAS_LEFT) keys before ``q_idx + lo_diag`` get weight 0.
    Weights are ``exp2(logit - m - p_shift)`` (see "Overflow" above).
    """
    offs_d = tl.arange(0, BLOCK_D)
    offs_dv = tl.arange(0, BLOCK_DV)
    k = _load_2d(k_ptrs, kv_idx, kv_end, offs_d, head_d, MASKED, PAD_D)
    qk = tl.dot(q, tl.trans(k), input_precision=PRECISION)
    if MASKED:
        logits = qk * qk_scale
        visible = _band(kv_idx[None, :] < kv_end, kv_idx[None, :], q_idx[:, None],
                        diagonal, lo_diag, CAUSAL, HAS_LEFT)
        logits = tl.where(visible, logits, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(logits, 1))
        shift = tl.where(m_new == float("-inf"), 0.0, m_new)
        p = tl.math.exp2(logits - (shift + p_shift)[:, None])
        alpha = tl.math.exp2(m_i - shift)
    else:
        # Every key is visible to every row here, so the new max is finite and
        # the scale folds into one multiply-add.  max(c * x) is c * min(x) for
        # a negative c.
        if NEG_SCALE:
            m_new = tl.maximum(m_i, tl.min(qk, 1) * qk_scale)
        else:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - (m_new + p_shift)[:, None])
        alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    v = _load_2d(v_ptrs, kv_idx, kv_end, offs_dv, head_dv, MASKED, PAD_DV)
    acc = tl.dot(p.to(v.dtype), v, acc, input_precision=PRECISION)
    return acc, l_i, m_new


@triton.jit
def attend_range(
    acc, l_i, m_i, q,
    k_tile, v_tile, s_kn, s_vn, table, s_kpage, s_vpage, PAGE,
    q_idx, lo, hi, kv_end, diagonal, lo_diag, qk_scale, p_shift,
    head_d, head_dv,
    BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, NEG_SCALE: tl.constexpr,
    PRECISION: tl.constexpr, PAGED: tl.constexpr,
):
    """Fold keys [lo, hi) into (acc, l, m), one ``attend_block`` per BLOCK_N keys.

    ``k_tile``/``v_tile`` point at the first BLOCK_N keys of the (batch, KV
    head); ``lo`` is a whole number of blocks.  ``PAGED``: key ``j`` is slot
    ``j % PAGE`` of page ``table[j // PAGE]`` instead, ``k_tile``/``v_tile``
    point at slot 0 of page 0 (one row, no key offset), and pages are
    ``s_kpage``/``s_vpage`` apart.  Table entries past ``kv_end`` are never read.
    """
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in tl.range(lo, hi, BLOCK_N):
        kv_idx = start_n + offs_n
        if PAGED:
            page = tl.load(table + kv_idx // PAGE, mask=kv_idx < kv_end, other=0).to(tl.int64)
            slot = (kv_idx % PAGE).to(tl.int64)
            k_ptrs = k_tile + (page * s_kpage + slot * s_kn)[:, None]
            v_ptrs = v_tile + (page * s_vpage + slot * s_vn)[:, None]
        else:
            start = tl.cast(start_n, tl.int64)
            k_ptrs = k_tile + start * s_kn
            v_ptrs = v_tile + start * s_vn
        acc, l_i, m_i = attend_block(
            acc, l_i, m_i, q, k_ptrs=k_ptrs, v_ptrs=v_ptrs, q_idx=q_idx, kv_idx=kv_idx,
            kv_end=kv_end, diagonal=diagonal, lo_diag=lo_diag, qk_scale=qk_scale,
            p_shift=p_shift, head_d=head_d, head_dv=head_dv,
            BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D, PAD_DV=PAD_DV, MASKED=MASKED,
            CAUSAL=CAUSAL, HAS_LEFT=HAS_LEFT, NEG_SCALE=NEG_SCALE, PRECISION=PRECISION,
        )
    return acc, l_i, m_i


@triton.jit
def finish_rows(acc, l_i, m_i, p_shift):
    """(acc / l, natural-log LSE); rows that saw no key give (0, -inf)."""
    seen = l_i > 0.0
    safe_l = tl.where(seen, l_i, 1.0)
    out = acc * tl.where(seen, 1.0 / safe_l, 0.0)[:, None]
    lse = tl.where(seen, (m_i + tl.math.log2(safe_l) + p_shift) * _LN2, float("-inf"))
    return out, lse


@triton.jit
def attend_rows(
    q, k_tile, v_tile, s_kn, s_vn, rows, first, Sq, Sk, DIAGONAL, WIN_LEFT, WIN_RIGHT,
    qk_scale, p_shift, HEAD_D, HEAD_DV, table, s_kpage, s_vpage, PAGE,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr,
    HAS_RIGHT: tl.constexpr, NEG_SCALE: tl.constexpr, PRECISION: tl.constexpr,
    PAGED: tl.constexpr,
):
    """Attention of the row tile ``rows`` (from ``first``) over every key its
    rows see: (out, natural-log LSE).  ``PAGED``: see ``attend_range``."""
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_DV), dtype=tl.float32)

    # Keys [0, full_end) are visible to every row of the block, in whole
    # blocks; [full_end, kv_hi) need a mask; keys past kv_hi are seen by no
    # row (row `last` sees keys <= last + up_diag) and are never loaded.  A
    # left window adds a masked range [kv_lo, full_lo) in front of the
    # unmasked one and skips the keys before kv_lo (see _key_ranges).
    up_diag, lo_diag = _band_diagonals(DIAGONAL, WIN_LEFT, WIN_RIGHT, HAS_LEFT, HAS_RIGHT)
    last = tl.minimum(first + BLOCK_M, Sq) - 1
    kv_lo, full_lo, full_end, kv_hi = _key_ranges(
        first, last, Sk, up_diag, lo_diag, BLOCK_N, CAUSAL or HAS_RIGHT, HAS_LEFT
    )
    # Entered only when it has work: its software pipeline's prologue and
    # drain cost a program time even for zero trips.
    if HAS_LEFT:
        if kv_lo < full_lo:
            acc, l_i, m_i = attend_range(
                acc, l_i, m_i, q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn,
                table=table, s_kpage=s_kpage, s_vpage=s_vpage, PAGE=PAGE,
                q_idx=rows, lo=kv_lo, hi=full_lo, kv_end=Sk, diagonal=up_diag, lo_diag=lo_diag,
                qk_scale=qk_scale, p_shift=p_shift, head_d=HEAD_D, head_dv=HEAD_DV,
                BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D, PAD_DV=PAD_DV,
                MASKED=True, CAUSAL=CAUSAL or HAS_RIGHT, HAS_LEFT=HAS_LEFT,
                NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=PAGED,
            )
        acc, l_i, m_i = attend_range(
            acc, l_i, m_i, q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn,
            table=table, s_kpage=s_kpage, s_vpage=s_vpage, PAGE=PAGE,
            q_idx=rows, lo=full_lo, hi=full_end, kv_end=Sk, diagonal=up_diag, lo_diag=lo_diag,
            qk_scale=qk_scale, p_shift=p_shift, head_d=HEAD_D, head_dv=HEAD_DV,
            BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D, PAD_DV=PAD_DV,
            MASKED=False, CAUSAL=CAUSAL or HAS_RIGHT, HAS_LEFT=HAS_LEFT,
            NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=PAGED,
        )
    else:
        acc, l_i, m_i = attend_range(
            acc, l_i, m_i, q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn,
            table=table, s_kpage=s_kpage, s_vpage=s_vpage, PAGE=PAGE,
            q_idx=rows, lo=0, hi=full_end, kv_end=Sk, diagonal=up_diag, lo_diag=lo_diag,
            qk_scale=qk_scale, p_shift=p_shift, head_d=HEAD_D, head_dv=HEAD_DV,
            BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D, PAD_DV=PAD_DV,
            MASKED=False, CAUSAL=CAUSAL or HAS_RIGHT, HAS_LEFT=HAS_LEFT,
            NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=PAGED,
        )
    if full_end < kv_hi:
        acc, l_i, m_i = attend_range(
            acc, l_i, m_i, q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn,
            table=table, s_kpage=s_kpage, s_vpage=s_vpage, PAGE=PAGE,
            q_idx=rows, lo=full_end, hi=kv_hi, kv_end=Sk, diagonal=up_diag, lo_diag=lo_diag,
            qk_scale=qk_scale, p_shift=p_shift, head_d=HEAD_D, head_dv=HEAD_DV,
            BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D, PAD_DV=PAD_DV,
            MASKED=True, CAUSAL=CAUSAL or HAS_RIGHT, HAS_LEFT=HAS_LEFT,
            NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=PAGED,
        )

    return finish_rows(acc, l_i, m_i, p_shift)
