"""Fused (flash) attention: one pass over K and V, the score matrix never stored.

Prefill.  One program owns BLOCK_M query rows of one (batch, head) and walks
the keys in BLOCK_N blocks, keeping per row a running max ``m``, a running sum
``l`` of ``exp(logit - m)`` and an fp32 accumulator of ``exp(logit - m) @ V``.
When a new block raises the max, ``l`` and the accumulator are rescaled by
``exp(m_old - m_new)``, so the result is exact softmax attention whatever the
order or number of blocks.  Exponentials are ``exp2`` with ``log2(e)`` folded
into the scale (``exp(x) = exp2(x * log2 e)``), so the max is tracked in base-2
units and converted back to a natural log only for the returned LSE.

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
block runs only if some row sees a key of it (``_key_ranges``).  The flags
HAS_LEFT and HAS_RIGHT are compile-time, the sizes runtime: launches without
a window compile as they did before windows existed.

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
program sums over), which costs nothing (it joins the max in the exponent's
subtraction) and keeps ``sum p <= 1`` and ``|acc| <= max|v|``; the factor
cancels in ``acc / l`` and is added back to the LSE.  fp16 values cannot
overflow this way, and their weights, rounded to fp16's 5-bit exponent, would
lose precision to the shift, so they get none.  The decode merge does the same
over its splits.

Decode (small Sq, long Sk).  Few query rows give few programs, far fewer
than SMs, while the work is streaming K and V from memory.  ``flash_decode``
splits the keys into ``num_splits`` contiguous ranges, one program per
(range, KV head, row tile); each writes its normalised partial output and its
LSE to fp32 scratch, and the last program of a tile to finish merges the
tile's partials with weights ``exp(lse_s - lse)`` (flash-decoding in one
launch: a second merge launch costs more host time than the merge costs the
GPU).  The row tile packs the GQA group: all
Sq rows of the ``Hq // Hkv`` query heads that share a KV head sit in one tile,
so each K/V byte is read once per KV head instead of once per query head.

Strides.  Every tensor is addressed through all four of its strides, with the
(batch, head) program index split into a batch and a head index, so
transposed, sliced, expanded (stride 0) and non-unit-last-stride views work
without a copy.  Offsets that grow with the tensor are int64.  Head dims are
padded to a power of two (at least 16, the smallest ``tl.dot`` operand) and the
padding is masked on load, so no byte outside a tensor is read.

Hopper.  On an sm_90 GPU a prefill of fp16 or bf16 at D = Dv = 128 without a
window, with the work to cover its launch (``uses_hopper_path``), runs
``hopper_prefill.py``'s warp-specialised kernel instead, with the same
arithmetic in another order (``flash_hopper`` forces it, ``flash_prefill``
the portable kernel).

Backward.  When q, k or v requires grad, the forward runs through an
autograd Function that also keeps the LSE, from which ``flash_backward.py``
recomputes P (FlashAttention-2's backward).  Its forward launches the same
kernels with the same tiles, the LSE stored too, so its output is bit for bit
that of a call without autograd.
"""

from __future__ import annotations

import functools
import math
import os
import zlib
from collections.abc import Callable
from typing import NamedTuple

import torch
import triton
import triton.language as tl

from ._checks import (
    AttentionDims,
    Window,
    check_attention_inputs,
    check_computable,
    check_differentiable_out,
    check_flag,
    check_window,
    dot_precision,
    interpreting,
    needs_grad,
    prepare_out,
)
from ._launch import LaunchCache, TuningFile, num_sms, tuning_path
from ._tiles import (
    _LN2,
    _LOG2E,
    LOG2E,
    Config,
    _band,
    _band_diagonals,
    _cdiv,
    _head_meta,
    _key_ranges,
    _load_2d,
    _next_pow2,
    _on_device_of,
    _tile_kind,
    launch_window,
    window_args,
)
from .flash_backward import launch_backward
from .hopper_prefill import launch_hopper
from .hopper_prefill import refusal as hopper_refusal

# Speculative decoding verifies a handful of drafted tokens at once; up to this
# many query rows the decode kernel's small packed tiles beat BLOCK_M-row tiles.
DECODE_MAX_SQ = 16
# From this many (query, key) pairs over all heads on, flash_attention runs the
# Hopper kernel where it can: 1.10-1.27x the portable kernel from Sq = Sk = 1k
# at B * Hq = 64 (2**26 pairs) up, but below it a call is bound by host time,
# of which the Hopper launch takes more (benchmarks/NOTES.md, g4).
HOPPER_MIN_PAIRS = 2**26


@triton.jit
def _attend_block(
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
def _attend_range(
    acc, l_i, m_i, q,
    k_tile, v_tile, s_kn, s_vn, table, s_kpage, s_vpage, PAGE,
    q_idx, lo, hi, kv_end, diagonal, lo_diag, qk_scale, p_shift,
    head_d, head_dv,
    BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, NEG_SCALE: tl.constexpr,
    PRECISION: tl.constexpr, PAGED: tl.constexpr,
):
    """Fold keys [lo, hi) into (acc, l, m), one ``_attend_block`` per BLOCK_N keys.

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
        acc, l_i, m_i = _attend_block(
            acc, l_i, m_i, q, k_ptrs, v_ptrs, q_idx, kv_idx, kv_end,
            diagonal, lo_diag, qk_scale, p_shift, head_d, head_dv,
            BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, MASKED, CAUSAL, HAS_LEFT, NEG_SCALE, PRECISION,
        )
    return acc, l_i, m_i


@triton.jit
def _finish(acc, l_i, m_i, p_shift):
    """(acc / l, natural-log LSE); rows that saw no key give (0, -inf)."""
    seen = l_i > 0.0
    safe_l = tl.where(seen, l_i, 1.0)
    out = acc * tl.where(seen, 1.0 / safe_l, 0.0)[:, None]
    lse = tl.where(seen, (m_i + tl.math.log2(safe_l) + p_shift) * _LN2, float("-inf"))
    return out, lse


@triton.jit
def _attend_rows(
    q, k_tile, v_tile, s_kn, s_vn, rows, first, Sq, Sk, DIAGONAL, WIN_LEFT, WIN_RIGHT,
    qk_scale, p_shift, HEAD_D, HEAD_DV, table, s_kpage, s_vpage, PAGE,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr,
    HAS_RIGHT: tl.constexpr, NEG_SCALE: tl.constexpr, PRECISION: tl.constexpr,
    PAGED: tl.constexpr,
):
    """Attention of the row tile ``rows`` (from ``first``) over every key its
    rows see: (out, natural-log LSE).  ``PAGED``: see ``_attend_range``."""
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
            acc, l_i, m_i = _attend_range(
                acc, l_i, m_i, q, k_tile, v_tile, s_kn, s_vn, table, s_kpage, s_vpage, PAGE,
                rows, kv_lo, full_lo, Sk,
                up_diag, lo_diag, qk_scale, p_shift, HEAD_D, HEAD_DV,
                BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True, CAUSAL or HAS_RIGHT, HAS_LEFT,
                NEG_SCALE, PRECISION, PAGED,
            )
        acc, l_i, m_i = _attend_range(
            acc, l_i, m_i, q, k_tile, v_tile, s_kn, s_vn, table, s_kpage, s_vpage, PAGE,
            rows, full_lo, full_end, Sk,
            up_diag, lo_diag, qk_scale, p_shift, HEAD_D, HEAD_DV,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, False, CAUSAL or HAS_RIGHT, HAS_LEFT,
            NEG_SCALE, PRECISION, PAGED,
        )
    else:
        acc, l_i, m_i = _attend_range(
            acc, l_i, m_i, q, k_tile, v_tile, s_kn, s_vn, table, s_kpage, s_vpage, PAGE,
            rows, 0, full_end, Sk,
            up_diag, lo_diag, qk_scale, p_shift, HEAD_D, HEAD_DV,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, False, CAUSAL or HAS_RIGHT, HAS_LEFT,
            NEG_SCALE, PRECISION, PAGED,
        )
    if full_end < kv_hi:
        acc, l_i, m_i = _attend_range(
            acc, l_i, m_i, q, k_tile, v_tile, s_kn, s_vn, table, s_kpage, s_vpage, PAGE,
            rows, full_end, kv_hi, Sk,
            up_diag, lo_diag, qk_scale, p_shift, HEAD_D, HEAD_DV,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True, CAUSAL or HAS_RIGHT, HAS_LEFT,
            NEG_SCALE, PRECISION, PAGED,
        )

    return _finish(acc, l_i, m_i, p_shift)


# Sizes vary from case to case and are not specialised on (== 1, % 16), or
# fuzzing would compile a binary per case; the head dims are runtime values for
# the same reason, only their padding is compile-time.  Strides stay
# specialised: their divisibility by 16 is what proves rows 16-byte aligned,
# which vectorised (cp.async) K/V loads need.
_SIZES = ["Sq", "Sk", "H", "GROUP", "DIAGONAL", "HEAD_D", "HEAD_DV", "WIN_LEFT", "WIN_RIGHT"]


@triton.jit(do_not_specialize=[*_SIZES, "TUNE_SQ", "TUNE_SK"])
def _flash_fwd_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr,
    Sq, Sk, H, GROUP, DIAGONAL, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT,
    s_qb, s_qh, s_qm, s_qd,
    s_kb, s_kh, s_kn, s_kd,
    s_vb, s_vh, s_vn, s_vd,
    s_ob, s_oh, s_om, s_od,
    qk_scale, p_shift,
    TUNE_SQ, TUNE_SK,  # autotuning key only (length buckets)
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, NEG_SCALE: tl.constexpr, STORE_LSE: tl.constexpr,
    PRECISION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
):
    # One flat grid axis: B * Hq can exceed the 65535 limit of axes 1 and 2.
    # Query blocks of one head are adjacent so they share K/V in L2; causal
    # runs each head's heaviest (last) query block first to even out the tail.
    pid = tl.program_id(0)
    num_m = tl.cdiv(Sq, BLOCK_M)
    m_blk = pid % num_m
    if CAUSAL:
        m_blk = num_m - 1 - m_blk
    pid_bh = pid // num_m
    batch = (pid_bh // H).to(tl.int64)
    head = pid_bh % H
    kv_head = (head // GROUP).to(tl.int64)
    head = head.to(tl.int64)

    rows = m_blk * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    offs_dv = tl.arange(0, BLOCK_DV)
    q_ptrs = (
        q_ptr + batch * s_qb + head * s_qh
        + rows[:, None].to(tl.int64) * s_qm + offs_d[None, :].to(tl.int64) * s_qd
    )
    q = _load_2d(q_ptrs, rows, Sq, offs_d, HEAD_D, True, PAD_D)
    k_tile = (
        k_ptr + batch * s_kb + kv_head * s_kh
        + offs_n[:, None].to(tl.int64) * s_kn + offs_d[None, :].to(tl.int64) * s_kd
    )
    v_tile = (
        v_ptr + batch * s_vb + kv_head * s_vh
        + offs_n[:, None].to(tl.int64) * s_vn + offs_dv[None, :].to(tl.int64) * s_vd
    )

    out, lse = _attend_rows(
        q, k_tile, v_tile, s_kn, s_vn, rows, m_blk * BLOCK_M, Sq, Sk, DIAGONAL,
        WIN_LEFT, WIN_RIGHT, qk_scale, p_shift, HEAD_D, HEAD_DV, k_tile, 0, 0, 0,
        BLOCK_M, BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, CAUSAL, HAS_LEFT, HAS_RIGHT,
        NEG_SCALE, PRECISION, False,
    )
    o_ptrs = (
        o_ptr + batch * s_ob + head * s_oh
        + rows[:, None].to(tl.int64) * s_om + offs_dv[None, :].to(tl.int64) * s_od
    )
    # A mask on the head dim compares against a runtime value (HEAD_DV is not
    # specialised), which turns the store into one scalar store per element;
    # only padded heads need it.
    if PAD_DV:
        o_mask = (rows[:, None] < Sq) & (offs_dv[None, :] < HEAD_DV)
    else:
        o_mask = rows[:, None] < Sq
    tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=o_mask)
    if STORE_LSE:
        # lse is allocated here, contiguous (B, Hq, Sq).
        tl.store(lse_ptr + pid_bh.to(tl.int64) * Sq + rows, lse, mask=rows < Sq)


@triton.jit
def _merge_splits(
    part_ptrs, part_lse_ptrs, NUM_SPLITS, split_stride, split_lse_stride, row_ok, tile_mask,
    w_shift, BLOCK_M: tl.constexpr, BLOCK_DV: tl.constexpr,
):
    """Merge one tile's per-split (output, LSE) partials, online over the splits.

    Split s carries weight ``exp(lse_s)``; relative to the running max it is
    ``exp2(lse2_s - m)`` with ``lse2 = lse * log2(e)``.  Empty splits have
    ``lse = -inf`` (weight 0) and all-empty rows end as (0, -inf).  Weights
    are scaled by ``2**-w_shift`` so that they sum to at most 1 (see
    "Overflow" above).  The partials were written by other programs: ``.cg``
    loads read them from L2, where their stores landed, never from a stale L1.
    """
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_DV), dtype=tl.float32)
    for s in tl.range(0, NUM_SPLITS):
        s64 = tl.cast(s, tl.int64)
        lse_s = tl.load(part_lse_ptrs + s64 * split_lse_stride, mask=row_ok,
                        other=float("-inf"), cache_modifier=".cg") * _LOG2E
        part = tl.load(part_ptrs + s64 * split_stride, mask=tile_mask, other=0.0,
                       cache_modifier=".cg")
        m_new = tl.maximum(m_i, lse_s)
        shift = tl.where(m_new == float("-inf"), 0.0, m_new)
        alpha = tl.math.exp2(m_i - shift)
        w = tl.math.exp2(lse_s - (shift + w_shift))
        # A zero-weight split's partial is 0, so 0 * part never makes NaN.
        acc = acc * alpha[:, None] + w[:, None] * part
        l_i = l_i * alpha + w
        m_i = m_new
    return _finish(acc, l_i, m_i, w_shift)


@triton.jit
def _store_rows(
    o_ptr, lse_ptr, out, lse, batch, head, q_idx, Sq, H,
    s_ob, s_oh, s_om, s_od, offs_dv, row_ok, tile_mask, STORE_LSE: tl.constexpr,
):
    """Write a packed tile's rows: output through its strides, LSE contiguous (B, H, Sq)."""
    q_idx64 = q_idx.to(tl.int64)
    o_ptrs = (
        o_ptr + batch * s_ob + head[:, None] * s_oh
        + q_idx64[:, None] * s_om + offs_dv[None, :].to(tl.int64) * s_od
    )
    tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=tile_mask)
    if STORE_LSE:
        tl.store(lse_ptr + (batch * H + head) * Sq + q_idx64, lse, mask=row_ok)


@triton.jit(do_not_specialize=["Sq", "Sk", "HKV", "GROUP", "DIAGONAL", "HEAD_D", "HEAD_DV",
                               "WIN_LEFT", "WIN_RIGHT", "NUM_SPLITS", "SPLIT_LEN", "PAGE"])
def _flash_decode_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, part_ptr, part_lse_ptr, count_ptr,
    table_ptr, seqlens_ptr,
    Sq, Sk, HKV, GROUP, DIAGONAL, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT, NUM_SPLITS, SPLIT_LEN,
    PAGE,
    s_qb, s_qh, s_qm, s_qd,
    s_kb, s_kh, s_kn, s_kd,
    s_vb, s_vh, s_vn, s_vd,
    s_ob, s_oh, s_om, s_od,
    s_tb,
    qk_scale, p_shift, w_shift,
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, STORE_LSE: tl.constexpr, PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, MERGE: tl.constexpr,
    HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr, PAGED: tl.constexpr,
):
    """One key range of one packed row tile, and the tile's merge if it finishes last.

    ``PAGED``: the keys are a paged cache's (see ``_attend_range``), with
    ``s_kb``/``s_vb`` the page strides and ``table_ptr`` the (B, pages) table
    of ``s_tb`` entries a row; batch element b has ``seqlens_ptr[b]`` keys,
    its last Sq the queries (bottom-right), and ``Sk``/``DIAGONAL`` are unused.

    Tile row ``r`` is query row ``r % Sq`` of query head ``kv_head * GROUP +
    r // Sq``.  The output (B, Hq, Sq, Dv) is written through its strides, the
    LSE into a contiguous (B, Hq, Sq).  With one split (no MERGE) the range's
    result is final.  With several, each program writes its fp32 partial to
    scratch laid out (tile, split, row, Dv), then counts itself done on the
    tile's counter; the program that counts last merges the tile's partials
    and resets the counter to 0 for the next launch.  The counting atomic is
    acq_rel at GPU scope, after a barrier of the program's warps: every
    partial store happens before the count that the last program reads.
    """
    pid = tl.program_id(0)
    split = pid % NUM_SPLITS
    tile = pid // NUM_SPLITS
    rows_per_kv = GROUP * Sq
    num_r = tl.cdiv(rows_per_kv, BLOCK_M)
    r_blk = tile % num_r
    bkv = tile // num_r
    batch = (bkv // HKV).to(tl.int64)
    kv_head = (bkv % HKV).to(tl.int64)

    r = r_blk * BLOCK_M + tl.arange(0, BLOCK_M)
    q_idx = r % Sq
    head = kv_head * GROUP + (r // Sq).to(tl.int64)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    offs_dv = tl.arange(0, BLOCK_DV)
    q_ptrs = (
        q_ptr + batch * s_qb + head[:, None] * s_qh
        + q_idx[:, None].to(tl.int64) * s_qm + offs_d[None, :].to(tl.int64) * s_qd
    )
    q = _load_2d(q_ptrs, r, rows_per_kv, offs_d, HEAD_D, True, PAD_D)
    if PAGED:
        Sk = tl.load(seqlens_ptr + batch)
        DIAGONAL = Sk - Sq
        table = table_ptr + batch * s_tb
        # Slot 0 of page 0 of this KV head: ``_attend_range`` adds each key's page and slot.
        k_tile = k_ptr + kv_head * s_kh + offs_d[None, :].to(tl.int64) * s_kd
        v_tile = v_ptr + kv_head * s_vh + offs_dv[None, :].to(tl.int64) * s_vd
    else:
        k_tile = (
            k_ptr + batch * s_kb + kv_head * s_kh
            + offs_n[:, None].to(tl.int64) * s_kn + offs_d[None, :].to(tl.int64) * s_kd
        )
        v_tile = (
            v_ptr + batch * s_vb + kv_head * s_vh
            + offs_n[:, None].to(tl.int64) * s_vn + offs_dv[None, :].to(tl.int64) * s_vd
        )
        table = table_ptr

    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_DV), dtype=tl.float32)

    # The loop is memory bound, so every block takes the masked path; the
    # mask keeps the range's keys from leaking into its neighbour's split.
    # The ranges tile the keys some row sees: from the block of row 0's
    # first key (a left window) to past the last row's last key.
    up_diag, lo_diag = _band_diagonals(DIAGONAL, WIN_LEFT, WIN_RIGHT, HAS_LEFT, HAS_RIGHT)
    kv_lo = split * SPLIT_LEN
    if HAS_LEFT:
        kv_lo += tl.maximum(lo_diag, 0) // BLOCK_N * BLOCK_N
    kv_end = tl.minimum(kv_lo + SPLIT_LEN, Sk)
    kv_hi = kv_end
    if CAUSAL or HAS_RIGHT:
        kv_hi = tl.minimum(kv_hi, Sq + up_diag)  # past the last row's last key
    acc, l_i, m_i = _attend_range(
        acc, l_i, m_i, q, k_tile, v_tile, s_kn, s_vn, table, s_kb, s_vb, PAGE,
        q_idx, kv_lo, kv_hi, kv_end, up_diag, lo_diag, qk_scale, p_shift, HEAD_D, HEAD_DV,
        BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True, CAUSAL or HAS_RIGHT, HAS_LEFT, False,
        PRECISION, PAGED,
    )

    out, lse = _finish(acc, l_i, m_i, p_shift)
    row_ok = r < rows_per_kv
    if PAD_DV:
        tile_mask = row_ok[:, None] & (offs_dv[None, :] < HEAD_DV)
    else:  # uniform along the head dim, so loads and stores stay vectorised
        tile_mask = tl.broadcast_to(row_ok[:, None], (BLOCK_M, BLOCK_DV))
    if MERGE:
        rows_local = tl.arange(0, BLOCK_M)
        split_stride = BLOCK_M * BLOCK_DV
        part_ptrs = (
            part_ptr + tile.to(tl.int64) * NUM_SPLITS * split_stride
            + rows_local[:, None] * BLOCK_DV + offs_dv[None, :]
        )
        part_lse_ptrs = part_lse_ptr + tile.to(tl.int64) * NUM_SPLITS * BLOCK_M + rows_local
        split64 = split.to(tl.int64)
        tl.store(part_ptrs + split64 * split_stride, out, mask=tile_mask)
        tl.store(part_lse_ptrs + split64 * BLOCK_M, lse, mask=row_ok)
        tl.debug_barrier()
        done = tl.atomic_add(count_ptr + tile, 1, sem="acq_rel", scope="gpu")
        if done == NUM_SPLITS - 1:
            out, lse = _merge_splits(
                part_ptrs, part_lse_ptrs, NUM_SPLITS, split_stride, BLOCK_M, row_ok, tile_mask,
                w_shift, BLOCK_M, BLOCK_DV,
            )
            _store_rows(o_ptr, lse_ptr, out, lse, batch, head, q_idx, Sq, HKV * GROUP,
                        s_ob, s_oh, s_om, s_od, offs_dv, row_ok, tile_mask, STORE_LSE)
            tl.atomic_xchg(count_ptr + tile, 0, sem="relaxed", scope="gpu")
    else:
        _store_rows(o_ptr, lse_ptr, out, lse, batch, head, q_idx, Sq, HKV * GROUP,
                    s_ob, s_oh, s_om, s_od, offs_dv, row_ok, tile_mask, STORE_LSE)


# --------------------------------------------------------------------------
# Launch configuration
# --------------------------------------------------------------------------


# Prefill configs for the H200 (sm_90: 227 KB shared memory per block, 255
# registers per thread), as Config(BLOCK_M, BLOCK_N, num_warps, num_stages).
# The first entry of each list is the untuned default; the autotuner picks
# among all of them.  Every entry compiles for sm_90 within shared memory at
# H = 16, D = Dv = the key's width, and without register spills but for
# tf32 16/32 w8 s2 at width 256 (8 bytes; ``benchmarks/sm90_codegen.py``
# reads this, and tests/test_sm90_codegen.py holds the 16-bit D = 128
# entries to it).  The fp32 score and accumulator tiles live in registers
# (128 x 128 fp32 over 8 warps is 64 registers per thread apiece), so wide
# heads get shorter tiles.  fp32 'ieee' dots run on the FMA units with
# operands in registers and need far smaller tiles than 'tf32' (tensor
# cores) to avoid spilling.
_CONFIGS: dict[tuple[str, int], list[Config]] = {
    ("16bit", 64): [
        Config(128, 64, 4, 3), Config(128, 128, 8, 3), Config(128, 64, 8, 4),
        Config(64, 64, 4, 3), Config(128, 32, 4, 4),
    ],
    ("16bit", 128): [
        Config(64, 64, 4, 3), Config(128, 64, 8, 3), Config(128, 128, 8, 3),
        Config(128, 128, 8, 2), Config(128, 64, 8, 4), Config(64, 32, 4, 3),
    ],
    ("16bit", 256): [
        Config(64, 64, 8, 2), Config(128, 64, 8, 2), Config(64, 32, 8, 3), Config(128, 32, 8, 2),
    ],
    ("tf32", 64): [Config(64, 64, 8, 2), Config(64, 32, 8, 2), Config(128, 32, 8, 2)],
    ("tf32", 128): [Config(64, 32, 8, 2), Config(64, 64, 8, 2), Config(128, 32, 8, 2)],
    ("tf32", 256): [Config(32, 32, 8, 2), Config(64, 32, 8, 2), Config(16, 32, 8, 2)],
    ("ieee", 64): [Config(32, 32, 8, 2), Config(64, 32, 8, 3), Config(32, 32, 4, 2)],
    ("ieee", 128): [Config(32, 32, 8, 2), Config(32, 16, 8, 2), Config(32, 16, 4, 2)],
    ("ieee", 256): [Config(32, 16, 8, 2), Config(16, 32, 8, 2), Config(16, 16, 8, 2)],
}
# Shorter sequences run the default: tuning costs about a second per new key,
# which a fuzzer trying many small shapes must not pay.
TUNE_MIN_SEQ = 512


def prefill_config(dtype: torch.dtype, precision: str, d: int, dv: int) -> Config:
    """The untuned prefill config.

    The interpreter pays per operation per program, not per element, so it
    gets one large tile shape (few programs, few loop trips).
    """
    if interpreting():
        return Config(64, 64, 4, 1)
    return _CONFIGS[_tile_kind(dtype, precision, d, dv)][0]


def _prune(configs: list[triton.Config], named_args: dict, **kwargs: object) -> list[triton.Config]:
    """Keep the candidates of this launch's table entry."""
    args = {**named_args, **kwargs}
    key = _tile_kind(args["q_ptr"].dtype, args["PRECISION"], args["HEAD_D"], args["HEAD_DV"])
    wanted = set(_CONFIGS[key])
    return [c for c in configs if _config_of(c) in wanted]


def _config_of(c: triton.Config) -> Config:
    return Config(c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.num_warps, c.num_stages)


def prefill_tuner(kernel: triton.JITFunction, key: list[str]) -> triton.runtime.Autotuner:
    """``kernel`` autotuned over the prefill tile table, keyed on ``key``.

    A kernel of the prefill's row tile: its arguments include ``q_ptr``,
    ``PRECISION``, ``HEAD_D`` and ``HEAD_DV`` (which pick the table entry) and
    the length buckets ``TUNE_SQ``/``TUNE_SK``.
    """
    configs = [
        triton.Config({"BLOCK_M": c.block_m, "BLOCK_N": c.block_n},
                      num_warps=c.num_warps, num_stages=c.num_stages)
        for c in dict.fromkeys(c for group in _CONFIGS.values() for c in group)
    ]
    return triton.autotune(configs=configs, key=["TUNE_SQ", "TUNE_SK", *key],
                           prune_configs_by={"early_config_prune": _prune})(kernel)


_flash_fwd_tuned = prefill_tuner(
    _flash_fwd_kernel, ["HEAD_D", "HEAD_DV", "CAUSAL", "PRECISION", "HAS_LEFT", "HAS_RIGHT"])


# ATTNFUZZ_AUTOTUNE=0 turns autotuning off.  Read once, like TRITON_INTERPRET:
# launches remember their config (``LaunchCache``), so a later change of the
# variable could not take effect for shapes already launched.
_AUTOTUNE = os.environ.get("ATTNFUZZ_AUTOTUNE", "1") != "0"


def _autotuning(sq: int, sk: int) -> bool:
    """Tune only compiled, long launches, unless ATTNFUZZ_AUTOTUNE=0."""
    if interpreting() or not _AUTOTUNE:
        return False
    return min(sq, sk) >= TUNE_MIN_SEQ


def _length_bucket(n: int) -> int:
    return _next_pow2(n)


# Decode configs (BLOCK_N, num_warps, num_stages) by (operand kind, padded
# width, BLOCK_M), from compiling candidates for sm_90: the 16-bit ones
# without register spills and at most ~110 KB of shared memory where possible,
# so that two programs share an SM and keep enough K/V loads in flight.  The
# fp32 ones are not tuned; some spill a few hundred bytes.
_DECODE_CONFIGS: dict[tuple[str, int, int], tuple[int, int, int]] = {
    ("16bit", 64, 16): (64, 4, 3), ("16bit", 64, 32): (64, 4, 3), ("16bit", 64, 64): (64, 4, 3),
    ("16bit", 128, 16): (64, 4, 3), ("16bit", 128, 32): (64, 4, 3), ("16bit", 128, 64): (64, 8, 2),
    ("16bit", 256, 16): (64, 4, 2), ("16bit", 256, 32): (64, 4, 2), ("16bit", 256, 64): (32, 8, 2),
    ("tf32", 64, 16): (64, 4, 3), ("tf32", 64, 32): (64, 4, 3), ("tf32", 64, 64): (64, 8, 3),
    ("tf32", 128, 16): (64, 4, 2), ("tf32", 128, 32): (64, 4, 3), ("tf32", 128, 64): (64, 8, 2),
    ("tf32", 256, 16): (32, 4, 2), ("tf32", 256, 32): (32, 8, 2), ("tf32", 256, 64): (32, 8, 2),
    ("ieee", 64, 16): (64, 4, 3), ("ieee", 64, 32): (32, 8, 3), ("ieee", 64, 64): (32, 8, 3),
    ("ieee", 128, 16): (64, 8, 3), ("ieee", 128, 32): (32, 8, 3), ("ieee", 128, 64): (16, 8, 2),
    ("ieee", 256, 16): (32, 8, 2), ("ieee", 256, 32): (16, 8, 2), ("ieee", 256, 64): (16, 8, 2),
}
# Up to this many keys flash_attention keeps the prefill kernel for any Sq.
DECODE_MIN_SK = 64


def decode_config(dtype: torch.dtype, precision: str, d: int, dv: int, group: int,
                  sq: int, paged: bool = False) -> Config:
    """Decode tiles: BLOCK_M holds the packed GQA rows (group * Sq), 16 to 64.

    ``paged``: over a paged cache.  There the table load that gives a block's
    addresses takes two stages of the software pipeline for itself (in the
    sm_90 code, ``benchmarks/sm90_codegen.py``: at 3 stages a paged loop
    buffers one block of K and V ahead where a dense loop buffers two, at 5
    it buffers two), so a paged loop of 3 stages or more gets two more, and
    8 warps: on the H200 (bf16, D = 128, 16-row tiles, pages of 16 to 256)
    the kernel alone ran at 0.70x ``flash_decode`` with the dense tiles,
    0.85x with 5 stages and 0.91x with 5 stages and 8 warps.
    """
    block_m = min(max(16, _next_pow2(group * sq)), 64)
    if interpreting():
        return Config(block_m, 64, 4, 1)
    kind, wide = _tile_kind(dtype, precision, d, dv)
    block_n, warps, stages = _DECODE_CONFIGS[kind, wide, block_m]
    if paged and stages >= 3:
        stages, warps = stages + 2, max(warps, 8)
    return Config(block_m, block_n, warps, stages)


def uses_decode_path(sq: int, sk: int) -> bool:
    """Whether ``flash_attention`` runs the split-K decode kernels for these lengths.

    Few query rows over more than one key block.  On the GPU this holds
    whether or not ``B * Hq`` programs would fill the SMs: the decode kernel
    also packs the GQA group into one tile and reads each K/V byte once per KV
    head, and when the tiles already fill the GPU it uses one split and skips
    the merge.  Under the interpreter the rule is the same; its decode blocks
    are 64 keys, so Sk > 64 gives at least two blocks to split and CPU tests
    reach the path on small shapes.
    """
    return 0 < sq <= DECODE_MAX_SQ and sk > DECODE_MIN_SK


def uses_hopper_path(q: torch.Tensor, dims: AttentionDims, window: Window | None) -> bool:
    """Whether ``flash_attention`` runs a prefill on the Hopper kernel: one it
    can compute, with enough work to cover its launch's host time."""
    pairs = dims.batch * dims.hq * dims.sq * dims.sk
    return pairs >= HOPPER_MIN_PAIRS and hopper_refusal(q, dims, window=window) is None


def plan_splits(dims: AttentionDims, sk_visible: int, block_m: int, block_n: int,
                device: torch.device) -> int:
    """Default number of key ranges for ``flash_decode``.

    GPU: enough programs to give every SM two (the decode tile's occupancy),
    at least 256 keys per range, one range if the tiles alone fill the GPU.
    Interpreter: a few ranges, so the merge is exercised.
    """
    blocks = _cdiv(sk_visible, block_n)
    if interpreting():
        return max(1, min(blocks, 4))
    tiles = dims.batch * dims.hkv * _cdiv(dims.group * dims.sq, block_m)
    index = device.index if device.index is not None else torch.cuda.current_device()
    slots = 2 * num_sms(index)
    want = max(1, slots // tiles)
    return max(1, min(want, _cdiv(sk_visible, 256), blocks))


# --------------------------------------------------------------------------
# Launchers
# --------------------------------------------------------------------------


def weight_shift(v_dtype: torch.dtype, terms: int) -> float:
    """log2 of the factor that keeps ``terms`` softmax weights summing to <= 1.

    Zero for fp16 values, which cannot overflow an fp32 sum of ``terms`` < 2**31
    of them and whose weights, rounded to fp16, would lose bits to the shift.
    """
    if v_dtype == torch.float16 or terms <= 1:
        return 0.0
    return float(math.ceil(math.log2(terms)))


# The tuned config of each autotuning key, as the tuner chose it: later
# launches with that key go straight to the kernel, without the tuner's
# per-call argument dictionaries (host time that short launches are bound by).
# Every config computes the same result, so a coarser key than the tuner's
# could only cost speed, never correctness.  The key leaves out whether the
# LSE is stored: a call under autograd stores it, and must get the tiles, so
# the bits, of the same call without autograd.  The serving launchers' keys
# (``serving._tuning_key``) start with their kernel's name.
_TUNED: dict[tuple, Config] = {}
# And across processes: the first launch of a key in a new process reads the
# choice of an earlier one (ATTNFUZZ_TUNING_CACHE; see ``_launch.TuningFile``).
_TUNING_FILE = TuningFile(tuning_path())


@functools.cache
def _tuning_scope(device: torch.device) -> str:
    """What a stored choice holds for: the GPU, the versions, the candidates."""
    gpu = device.type
    if device.type == "cuda":
        major, minor = torch.cuda.get_device_capability(device)
        gpu = f"{torch.cuda.get_device_name(device)} sm{major}{minor}"
    table = zlib.crc32(repr(sorted(_CONFIGS.items())).encode())
    return f"{gpu}, torch {torch.__version__}, triton {triton.__version__}, tiles {table:08x}"


def tuned_config(tuner: triton.runtime.Autotuner, key: tuple, grid: Callable[[int], tuple[int]],
                 args: tuple, meta: dict) -> Config | None:
    """The config tuned for ``key``, or None on the key's first launch: then the
    tuner times each candidate on this launch (``args``, ``meta``, the grid of
    ``grid(BLOCK_M)``; ``args[0]`` a tensor on the launch's device) and runs it
    with the fastest, which is remembered, in this process and on disk."""
    c = _TUNED.get(key)
    if c is None:
        scope = _tuning_scope(args[0].device)
        stored = _TUNING_FILE.get(scope, key)
        if stored is not None and len(stored) == len(Config._fields):
            c = _TUNED[key] = Config(*stored)
            return c
        tuner[lambda m: grid(m["BLOCK_M"])](*args, **meta)
        _TUNED[key] = _config_of(tuner.best_config)
        _TUNING_FILE.put(scope, key, tuple(_TUNED[key]))
    return c


_PREFILL = LaunchCache(_flash_fwd_kernel)


def launch_prefill(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
    lse: torch.Tensor | None, dims: AttentionDims, *,
    causal: bool, precision: str, config: Config | None = None, window: Window | None = None,
) -> None:
    """Run the fused forward kernel into ``out`` (and contiguous fp32 ``lse``).

    ``config`` forces a tile shape (tests sweep it); by default long launches
    are autotuned on the GPU and everything else takes ``prefill_config``.
    ``window`` is ``check_window``'s sliding window.
    """
    window = launch_window(window, causal, dims.sq + dims.sk)
    sizes, flags = window_args(window)
    strides = (*q.stride(), *k.stride(), *v.stride(), *out.stride())
    tensors = (q, k, v, out, lse if lse is not None else out)

    def build() -> tuple[tuple[int, ...], tuple, dict] | None:
        qk_scale = dims.scale * LOG2E
        bucket_sq, bucket_sk = _length_bucket(dims.sq), _length_bucket(dims.sk)
        args = (
            dims.sq, dims.sk, dims.hq, dims.group, dims.diagonal, dims.d, dims.dv, *sizes,
            *strides, qk_scale, weight_shift(v.dtype, dims.sk), bucket_sq, bucket_sk,
        )
        meta = dict(
            **_head_meta(dims),
            CAUSAL=causal, NEG_SCALE=qk_scale < 0, STORE_LSE=lse is not None,
            PRECISION=precision, **flags,
        )
        bh = dims.batch * dims.hq
        c = config
        if c is None and _autotuning(dims.sq, dims.sk):
            key = (bucket_sq, bucket_sk, dims.d, dims.dv, causal, precision, q.dtype, out.dtype,
                   flags["HAS_LEFT"], flags["HAS_RIGHT"])
            c = tuned_config(_flash_fwd_tuned, key, lambda block_m: (_cdiv(dims.sq, block_m) * bh,),
                             (*tensors, *args), meta)
            if c is None:
                return None
        c = c or prefill_config(q.dtype, precision, dims.d, dims.dv)
        meta.update(BLOCK_M=c.block_m, BLOCK_N=c.block_n,
                    num_warps=c.num_warps, num_stages=c.num_stages)
        return (_cdiv(dims.sq, c.block_m) * bh,), args, meta

    # Everything build() computes follows from this plan and the tensors'
    # dtypes (the tuner's choice too: once made, it stays).
    _PREFILL.launch((dims, strides, causal, precision, config, lse is not None, window),
                    tensors, build)


class DecodePlan(NamedTuple):
    """How ``launch_decode`` runs one shape: tiles, key ranges, constants."""

    config: Config
    splits: int  # key ranges actually used (0: no row sees a key)
    split_len: int  # keys per range, whole blocks
    tiles: int  # packed row tiles
    head_meta: tuple[tuple[str, int | bool], ...]
    p_shift: float  # weight shift within a range (see "Overflow")
    w_shift: float  # weight shift of the merge over the ranges


class PagedKeys(NamedTuple):
    """A paged cache's addressing for ``launch_decode``: the int32 (B, pages)
    table (unit stride along a row), the int32 (B,) key counts, and those
    counts on the host."""

    table: torch.Tensor
    seqlens: torch.Tensor
    lengths: tuple[int, ...]


@functools.lru_cache(maxsize=1024)
def decode_plan(dims: AttentionDims, dtype: torch.dtype, precision: str, causal: bool,
                device: torch.device, num_splits: int | None = None,
                config: Config | None = None, window: Window | None = None,
                lengths: tuple[int, ...] | None = None) -> DecodePlan:
    """The launch plan of ``launch_decode``, cached: a decode step repeats its shape.

    The key ranges are whole blocks of ``split_len`` keys, so the requested
    ``num_splits`` becomes the fewest ranges of that many blocks covering the
    keys any row can see: causal rows see at most ``Sq + diagonal`` keys; a
    window's rows see a band, keys from ``diagonal - left`` (row 0) to
    ``Sq - 1 + diagonal + right``, and the ranges start at the block of its
    first key (the kernel finds that block as this does).  ``window`` is
    ``launch_window``'s.  ``lengths``: a paged cache's key count per batch
    element (each bottom-right); the ranges cover the most keys any of them sees.
    """
    c = config or decode_config(dtype, precision, dims.d, dims.dv, dims.group, dims.sq,
                                paged=lengths is not None)
    left, right = window or (None, None)

    def visible(sk: int, diagonal: int) -> int:
        if causal:
            n = max(0, min(sk, dims.sq + diagonal))
        elif right is not None:
            n = max(0, min(sk, dims.sq + diagonal + right))
        else:
            n = sk
        if left is not None:  # from the block of row 0's first key on
            n = max(0, n - max(diagonal - left, 0) // c.block_n * c.block_n)
        return n

    if lengths is None:
        sk_visible = visible(dims.sk, dims.diagonal)
    else:
        sk_visible = max((visible(n, n - dims.sq) for n in lengths), default=0)
    tiles = dims.batch * dims.hkv * _cdiv(dims.group * dims.sq, c.block_m)
    meta = tuple(_head_meta(dims).items())
    if sk_visible == 0:
        return DecodePlan(c, 0, 0, tiles, meta, 0.0, 0.0)
    if num_splits is None:
        num_splits = plan_splits(dims, sk_visible, c.block_m, c.block_n, device)
    split_len = _cdiv(_cdiv(sk_visible, num_splits), c.block_n) * c.block_n
    splits = _cdiv(sk_visible, split_len)
    return DecodePlan(c, splits, split_len, tiles, meta, weight_shift(dtype, split_len),
                      weight_shift(torch.float32, splits))


# Per (device, stream): one int32 counter per decode tile, 0 between launches
# (the merging program resets its tile's).  Launches on one stream run one
# after another, so they can share counters; launches on different streams
# may overlap and get their own.
_COUNTERS: dict[tuple[int, int], torch.Tensor] = {}


def _tile_counters(device: torch.device, tiles: int) -> torch.Tensor:
    if interpreting():
        key = (-1, 0)
    else:
        index = device.index if device.index is not None else torch.cuda.current_device()
        key = (index, torch._C._cuda_getCurrentRawStream(index))
    counters = _COUNTERS.get(key)
    if counters is None or counters.numel() < tiles:
        counters = torch.zeros(max(tiles, 1024), dtype=torch.int32, device=device)
        _COUNTERS[key] = counters
    return counters


_DECODE = LaunchCache(_flash_decode_kernel)


def launch_decode(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
    lse: torch.Tensor | None, dims: AttentionDims, *,
    causal: bool, precision: str, num_splits: int | None = None, config: Config | None = None,
    window: Window | None = None, paged: PagedKeys | None = None,
) -> int:
    """Run split-K decode into ``out`` (any strides) and contiguous ``lse``; returns the splits.

    One launch: with several key ranges, the last program of each tile to
    finish merges its ranges (see ``_flash_decode_kernel``).  ``window`` is
    ``check_window``'s sliding window.  With ``paged``, k and v are a paged
    cache's (num_pages, page_size, Hkv, D) and ``dims.sk`` its longest sequence.
    """
    window = launch_window(window, causal, dims.sq + dims.sk)
    lengths = tuple(paged.lengths) if paged is not None else None
    plan = decode_plan(dims, v.dtype, precision, causal, q.device, num_splits, config, window,
                       lengths)
    if plan.splits == 0:
        out.zero_()
        if lse is not None:
            lse.fill_(float("-inf"))
        return 0
    c, splits = plan.config, plan.splits
    merge = splits > 1
    if merge:
        # One allocation for both scratch buffers: (tile, split, row, Dv)
        # partial outputs, then (tile, split, row) partial LSEs.
        # Under the interpreter it starts as NaN, so that a merge reading a
        # range nobody wrote shows in the output instead of reading stale
        # partials of an earlier launch that reused the memory.
        n_part = plan.tiles * splits * c.block_m * dict(plan.head_meta)["BLOCK_DV"]
        n_all = n_part + plan.tiles * splits * c.block_m
        if interpreting():
            scratch = torch.full((n_all,), float("nan"), device=q.device)
        else:
            scratch = torch.empty(n_all, dtype=torch.float32, device=q.device)
        part, part_lse = scratch[:n_part], scratch[n_part:]
        counters = _tile_counters(q.device, plan.tiles)
    else:
        part = part_lse = counters = out
    if paged is None:
        kv_strides = (*k.stride(), *v.stride())
        table = seqlens = out
        page = s_tb = 0
    else:  # (page, slot, head, dim) as the kernel's (page, head, slot, dim)
        kv_strides = tuple(t.stride(i) for t in (k, v) for i in (0, 2, 1, 3))
        table, seqlens, page, s_tb = paged.table, paged.seqlens, k.shape[1], paged.table.stride(0)
    strides = (*q.stride(), *kv_strides, *out.stride(), s_tb)
    tensors = (q, k, v, out, lse if lse is not None else out, part, part_lse, counters,
               table, seqlens)
    sizes, flags = window_args(window)

    def build() -> tuple[tuple[int, ...], tuple, dict]:
        args = (
            dims.sq, dims.sk, dims.hkv, dims.group, dims.diagonal, dims.d, dims.dv, *sizes,
            splits, plan.split_len, page, *strides, dims.scale * LOG2E, plan.p_shift,
            plan.w_shift,
        )
        meta = dict(
            plan.head_meta, CAUSAL=causal, STORE_LSE=lse is not None, PRECISION=precision,
            BLOCK_M=c.block_m, BLOCK_N=c.block_n, MERGE=merge, **flags, PAGED=paged is not None,
            num_warps=c.num_warps, num_stages=c.num_stages,
        )
        return (plan.tiles * splits,), args, meta

    _DECODE.launch((plan, dims, strides, causal, precision, lse is not None, window, page),
                   tensors, build)
    return splits


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def _check_count(value: object, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def _v_for_pv_dot(v: torch.Tensor) -> torch.Tensor:
    """V as the P @ V dot can take it on this backend.

    On the GPU, causal 16-bit launches intermittently faulted with an illegal
    address on sm_90, and the first faulting cases the fuzzer found on the H200
    all had a V whose head dim is not its contiguous dim (last-dim stride != 1);
    a replay of one under memcheck ran clean, so the fault depends on more than
    the inputs and its cause is not established (see also ``_head_meta``).
    Such a V is copied to a dense layout first (one copy of V, only then).
    """
    if interpreting() or v.dtype == torch.float32 or v.stride(-1) == 1 or v.shape[-1] == 1:
        return v
    return v.contiguous()


def _forward(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
    lse: torch.Tensor | None, dims: AttentionDims, *,
    causal: bool, precision: str, path: str, splits: int | None, programs: int | None = None,
    window: Window | None = None,
) -> None:
    """Attention into ``out`` (and ``lse`` if given) on the chosen path."""
    if out.numel() == 0 or dims.sk == 0:  # no row sees a key
        out.zero_()
        if lse is not None:
            lse.fill_(float("-inf"))
        return
    v = _v_for_pv_dot(v)
    if path == "auto":
        path = ("decode" if uses_decode_path(dims.sq, dims.sk)
                else "hopper" if uses_hopper_path(q, dims, window) else "prefill")
    with _on_device_of(q):
        if path == "decode":
            launch_decode(
                q, k, v, out, lse, dims, causal=causal, precision=precision, num_splits=splits,
                window=window,
            )
        elif path == "hopper":
            launch_hopper(q, k, v, out, lse, dims, causal=causal,
                          p_shift=weight_shift(v.dtype, dims.sk), programs=programs)
        else:
            launch_prefill(q, k, v, out, lse, dims, causal=causal, precision=precision,
                           window=window)


class _FlashAttention(torch.autograd.Function):
    """The forward's kernels, with the LSE the backward recomputes P from.

    q, k, v and the output are saved with ``save_for_backward``, so autograd's
    version counters catch an in-place change to any of them before the
    backward reads it.  The LSE is returned (the caller drops it unless asked
    for) but is not differentiable.
    """

    @staticmethod
    def forward(ctx, q, k, v, dims, causal, precision, path, splits, programs, window):
        rows = (dims.batch, dims.hq, dims.sq)
        out = torch.empty((*rows, dims.dv), dtype=q.dtype, device=q.device)
        lse = torch.empty(rows, dtype=torch.float32, device=q.device)
        _forward(q, k, v, out, lse, dims, causal=causal, precision=precision, path=path,
                 splits=splits, programs=programs, window=window)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.mark_non_differentiable(lse)
        ctx.dims, ctx.causal, ctx.precision, ctx.window = dims, causal, precision, window
        return out, lse

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, d_out, _d_lse):
        q, k, v, out, lse = ctx.saved_tensors
        grads = launch_backward(
            d_out, q, k, v, out, lse, ctx.dims, causal=ctx.causal, precision=ctx.precision,
            needs=tuple(ctx.needs_input_grad[:3]), window=ctx.window,
        )
        return (*grads, None, None, None, None, None, None, None)


def _attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *,
    causal: bool, scale: float | None, alignment: str, input_precision: str,
    return_lse: bool, out: torch.Tensor | None, path: str, num_splits: object = None,
    programs: object = None, window: object = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    dims = check_attention_inputs(
        q, k, v, causal=causal, scale=scale, alignment=alignment, input_precision=input_precision
    )
    inputs = (("q", q), ("k", k), ("v", v))
    check_computable(inputs, differentiable=True)
    check_flag(return_lse, "return_lse")
    splits = _check_count(num_splits, "num_splits")
    programs = _check_count(programs, "programs")
    win = launch_window(check_window(window), causal, dims.sq + dims.sk)
    precision = dot_precision(q.dtype, input_precision)
    if path == "hopper" and (why := hopper_refusal(q, dims, window=win)) is not None:
        raise ValueError(f"flash_hopper cannot compute this call: {why}")
    if needs_grad((q, k, v)):
        check_differentiable_out(out, inputs)
        out, lse = _FlashAttention.apply(q, k, v, dims, causal, precision, path, splits, programs,
                                         win)
        return (out, lse) if return_lse else out
    rows = (dims.batch, dims.hq, dims.sq)
    out = prepare_out(out, (*rows, dims.dv), q, inputs=inputs)
    lse = torch.empty(rows, dtype=torch.float32, device=q.device) if return_lse else None
    _forward(q, k, v, out, lse, dims, causal=causal, precision=precision, path=path,
             splits=splits, programs=programs, window=win)
    return (out, lse) if return_lse else out


def flash_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(scale * q k^T [+ causal mask]) v, fused, in one pass over K and V.

    q (B, Hq, Sq, D), k (B, Hkv, Sk, D), v (B, Hkv, Sk, Dv) with Hq % Hkv == 0
    (query head h reads KV head h // (Hq // Hkv)), any strides; returns
    (B, Hq, Sq, Dv) in q's dtype.  ``scale`` defaults to D**-0.5.  Causal:
    key j is visible to query i iff j <= i + (Sk - Sq) (``bottom_right``) or
    j <= i (``top_left``).  ``window=(left, right)`` (``check_window``) also
    limits query i to keys ``i + off - left <= j <= i + off + right`` (``off``
    the same alignment offset, Sk - Sq or 0; None on a side: no limit), with
    or without causal.  A query that sees no key outputs zeros.

    With ``return_lse`` also returns the fp32 (B, Hq, Sq) natural-log
    log-sum-exp of the scaled visible logits (``-inf`` where none is visible).
    ``out`` (any strides) receives the result if given.

    Few query rows (``uses_decode_path``) run ``flash_decode``; the rest run
    the Hopper kernel (``flash_hopper``) where it computes the call (an sm_90
    GPU, fp16 or bf16, D = Dv = 128, no window) and the call is long enough
    (``uses_hopper_path``), else the portable prefill kernel (``flash_prefill``).
    Differentiable in q, k and v (then without ``out``); the LSE is not
    differentiable.
    """
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="auto",
        window=window,
    )


def flash_prefill(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``flash_attention`` forced onto the prefill kernel, whatever the shape."""
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="prefill",
        window=window,
    )


def flash_hopper(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
    programs: int | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``flash_attention`` forced onto the Hopper kernel (``hopper_prefill.py``),
    whatever the shape; raises ``ValueError`` for a call it cannot compute (not
    on an sm_90 GPU, not fp16 or bf16, D or Dv not 128, a window).

    ``programs`` caps a non-causal call's persistent grid (default: one
    program per SM), so that each program takes several row tiles in turn;
    any cap gives the same bits.  Causal calls run a program per tile."""
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="hopper",
        programs=programs, window=window,
    )


def flash_decode(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
    num_splits: int | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``flash_attention`` forced onto the split-K decode kernels, whatever the shape.

    ``num_splits`` asks for that many key ranges (default: ``plan_splits``);
    ranges are whole key blocks, so fewer may be used when the visible keys
    span fewer blocks.  One range writes the output directly, with no merge.
    Any Sq works (rows are tiled), but the kernel is built for Sq <= 16.
    """
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="decode",
        num_splits=num_splits, window=window,
    )
