"""The fused attention backward (FlashAttention-2): gradients without storing P.

The forward saved its output O and the natural-log LSE of every query row, so
the backward recomputes each tile of ``P = softmax(S)`` from the scores,
``p_ij = exp2(s_ij * log2 e - lse_i * log2 e)``, instead of reading a stored
(Sq, Sk) matrix.  With ``dO`` the gradient of O:

    dV_j = sum_i p_ij dO_i
    dP_ij = dO_i . v_j,   delta_i = rowsum(dO_i * O_i) = sum_j p_ij dP_ij
    dS_ij = p_ij (dP_ij - delta_i)
    dK_j = scale * sum_i dS_ij q_i,   dQ_i = scale * sum_j dS_ij k_j

(under GQA the sums over i run over the query rows of every head of KV head
j's group).  A small preprocessing kernel writes ``delta`` and the base-2 LSE
to fp32 scratch, so the main loops never touch O.

Two kernels share the work, because dK/dV sum over query rows and dQ over
keys.  The dK/dV kernel runs one program per (batch, KV head, BLOCK_N keys):
it keeps its keys' dK and dV in registers while it walks the query heads of
the group and their query blocks.  The dQ kernel runs one program per
(batch, query head, BLOCK_M rows) and walks the key blocks, as the forward
does.  Each gradient element is summed by one program in a fixed order, with
no atomics, so the backward is deterministic: reruns are bit-identical.  The
price is recomputing every P and dS tile twice, once per kernel.

Masks.  Causal visibility (key j visible to row i iff ``j <= i + diagonal``)
is a prefix, so as in the forward each program splits its loop into blocks
needing a mask (the diagonal band, the ragged key tail) and blocks that need
none; blocks no row of the program can see are never visited.  A sliding
window's band is bounded on both sides: the dQ kernel takes the forward's
key ranges, and a dK/dV program's query rows end where its last key leaves
their window, with a masked range after the unmasked one.  A row that
sees no key has LSE ``-inf``; the preprocessing kernel turns that into a
base-2 shift of ``+inf``, so its p is ``exp2(s - inf) = 0`` (not
``exp2(+inf)``), its dQ row is exactly 0 and it adds nothing to dK and dV.
Query rows past Sq get the same ``+inf`` shift, so they add nothing either.

Precision.  P and dS are rounded to the inputs' dtype before their dots, as
FlashAttention does, so 16-bit inputs run every product on tensor cores; all
dots accumulate in fp32 and the scale is applied once, in fp32, at the end.
A recomputed p is off by the LSE's absolute error, which grows with the
logits: the forward's fp32 LSE is a few ulps of its size (about 5e-6 at
|lse| ~ 35), and every p of the row, so dV, has that relative error.
Strides, int64 offsets and padded head dims follow the forward
(``flash.py``): every tensor is addressed through its four strides, dO
included, which autograd often hands over expanded or transposed.

Loads.  A tile loaded through pointers needs a 64-bit address per element
in registers, and the dK/dV program, which already holds K, V and two fp32
accumulators, then spills.  Where TMA can address the 16-bit inputs as
they are (``uses_tma``: an sm_90 GPU, last dim contiguous, 16-byte aligned
start and strides), both kernels can take Q, K, V and dO as (B, H, S, D)
TMA descriptors instead: the copy engine moves each tile to shared memory,
reading rows past S and columns past a padded head dim as zeros, which is
what the masked pointer loads give.  The arithmetic is the same on both
paths, tile for tile.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
import triton
import triton.language as tl

from ._checks import AttentionDims, Window, interpreting
from ._launch import HostDescriptor, LaunchCache, capability, fresh_layout, tma_addressable
from ._tiles import (
    _LOG2E,
    LOG2E,
    Config,
    _band,
    _band_diagonals,
    _cdiv,
    _head_meta,
    _key_ranges,
    _load_2d,
    _on_device_of,
    _tile_kind,
    launch_window,
    window_args,
)
from .hopper_backward import fuses, launch_hopper_backward


@triton.jit(do_not_specialize=["Sq", "H", "HEAD_DV"])
def _bwd_preprocess_kernel(
    o_ptr, do_ptr, lse_ptr, delta_ptr, lse2_ptr,
    Sq, H, HEAD_DV,
    s_ob, s_oh, s_om, s_od,
    s_gb, s_gh, s_gm, s_gd,
    BLOCK_M: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_DV: tl.constexpr,
):
    """delta = rowsum(dO * O) and the base-2 LSE (+inf: no key seen) of BLOCK_M rows."""
    pid = tl.program_id(0)
    num_m = tl.cdiv(Sq, BLOCK_M)
    pid_bh = pid // num_m
    batch = (pid_bh // H).to(tl.int64)
    head = (pid_bh % H).to(tl.int64)
    rows = (pid % num_m) * BLOCK_M + tl.arange(0, BLOCK_M)
    rows64 = rows.to(tl.int64)
    offs_dv = tl.arange(0, BLOCK_DV).to(tl.int64)
    o = _load_2d(
        o_ptr + batch * s_ob + head * s_oh + rows64[:, None] * s_om + offs_dv[None, :] * s_od,
        rows, Sq, offs_dv, HEAD_DV, True, PAD_DV,
    )
    do = _load_2d(
        do_ptr + batch * s_gb + head * s_gh + rows64[:, None] * s_gm + offs_dv[None, :] * s_gd,
        rows, Sq, offs_dv, HEAD_DV, True, PAD_DV,
    )
    delta = tl.sum(o.to(tl.float32) * do.to(tl.float32), 1)
    row_ok = rows < Sq
    stats = pid_bh.to(tl.int64) * Sq + rows64  # scratch and LSE: contiguous (B, H, Sq)
    lse = tl.load(lse_ptr + stats, mask=row_ok, other=0.0)
    lse2 = tl.where(lse == float("-inf"), float("inf"), lse * _LOG2E)
    tl.store(delta_ptr + stats, delta, mask=row_ok)
    tl.store(lse2_ptr + stats, lse2, mask=row_ok)


# --------------------------------------------------------------------------
# dK and dV: one program per key block, looping over query rows
# --------------------------------------------------------------------------


@triton.jit
def _load_pair(
    a_src, b_src, batch, head, start, s_a, s_b, idx, n, width_a, width_b,
    BLOCK: tl.constexpr, BLOCK_A: tl.constexpr, BLOCK_B: tl.constexpr,
    CHECK: tl.constexpr, PAD_A: tl.constexpr, PAD_B: tl.constexpr, TMA: tl.constexpr,
):
    """Rows [start, start + BLOCK) of two tensors of one head (Q and dO, or K
    and V), BLOCK_A and BLOCK_B wide: through TMA descriptors, which read rows
    past ``n`` and columns past a padded width as zeros, or from the head's
    row-0 pointer tiles, masked where CHECK (rows ``idx`` past ``n``) or PAD."""
    if TMA:
        a = a_src.load([batch, head, start, 0]).reshape(BLOCK, BLOCK_A)
        b = b_src.load([batch, head, start, 0]).reshape(BLOCK, BLOCK_B)
    else:
        at = tl.cast(start, tl.int64)
        a = _load_2d(a_src + at * s_a, idx, n, tl.arange(0, BLOCK_A), width_a, CHECK, PAD_A)
        b = _load_2d(b_src + at * s_b, idx, n, tl.arange(0, BLOCK_B), width_b, CHECK, PAD_B)
    return a, b


@triton.jit
def _dkdv_block(
    dk, dv, k, v,
    q_src, do_src, start_m, s_qm, s_gm, batch, head, stats, delta_ptr, lse2_ptr, rows, kv_idx,
    Sq, Sk, diagonal, lo_diag, qk_scale, head_d, head_dv,
    BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, PRECISION: tl.constexpr,
    TMA: tl.constexpr,
):
    """Add one query block's terms to the (BLOCK_N, ...) dK and dV accumulators.

    Tiles are transposed (keys along the rows) so that both sums over the
    query rows are plain dots.  With MASKED, keys past Sk and keys a row
    cannot see get p = 0.  (Keys past Sk only reach their own dK and dV rows,
    which are never stored, but their p, exp2(-lse2), can overflow.)
    The rows' Q and dO come as ``_load_pair`` gives them.
    """
    q, do = _load_pair(q_src, do_src, batch, head, start_m, s_qm, s_gm, rows, Sq, head_d, head_dv,
                       BLOCK_M, BLOCK_D, BLOCK_DV, True, PAD_D, PAD_DV, TMA)
    row_ok = rows < Sq
    # Rows past Sq: +inf like a row that sees no key, so p = 0 there.
    lse2 = tl.load(lse2_ptr + stats, mask=row_ok, other=float("inf"))
    delta = tl.load(delta_ptr + stats, mask=row_ok, other=0.0)
    qk_t = tl.dot(k, tl.trans(q), input_precision=PRECISION)
    # One rounding, after the subtraction: the exponent is near 0 where p
    # matters, while the logit and the LSE can be large.
    shifted_t = tl.fma(qk_t, qk_scale, -lse2[None, :])
    if MASKED:
        visible = _band(kv_idx[:, None] < Sk, kv_idx[:, None], rows[None, :], diagonal, lo_diag,
                        CAUSAL, HAS_LEFT)
        shifted_t = tl.where(visible, shifted_t, float("-inf"))
    p_t = tl.math.exp2(shifted_t)
    dv = tl.dot(p_t.to(do.dtype), do, dv, input_precision=PRECISION)
    dp_t = tl.dot(v, tl.trans(do), input_precision=PRECISION)
    ds_t = p_t * (dp_t - delta[None, :])
    dk = tl.dot(ds_t.to(q.dtype), q, dk, input_precision=PRECISION)
    return dk, dv


@triton.jit
def _dkdv_range(
    dk, dv, k, v,
    q_tile, do_tile, batch, head, stats_row, delta_ptr, lse2_ptr, s_qm, s_gm, lo, hi, kv_idx,
    Sq, Sk, diagonal, lo_diag, qk_scale, head_d, head_dv,
    BLOCK_M: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, PRECISION: tl.constexpr,
    TMA: tl.constexpr,
):
    """Query rows [lo, hi) of one head, BLOCK_M at a time; ``lo`` a whole number of blocks."""
    offs_m = tl.arange(0, BLOCK_M)
    for start_m in tl.range(lo, hi, BLOCK_M):
        dk, dv = _dkdv_block(
            dk, dv, k, v, q_tile, do_tile, start_m, s_qm, s_gm, batch, head,
            stats_row + tl.cast(start_m, tl.int64) + offs_m, delta_ptr, lse2_ptr,
            start_m + offs_m, kv_idx, Sq, Sk, diagonal, lo_diag, qk_scale, head_d, head_dv,
            BLOCK_M, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, MASKED, CAUSAL, HAS_LEFT, PRECISION, TMA,
        )
    return dk, dv


_SIZES = ["Sq", "Sk", "HKV", "GROUP", "DIAGONAL", "HEAD_D", "HEAD_DV", "WIN_LEFT", "WIN_RIGHT"]


@triton.jit(do_not_specialize=_SIZES)
def _bwd_dkdv_kernel(
    q_ptr, k_ptr, v_ptr, do_ptr, dk_ptr, dv_ptr, delta_ptr, lse2_ptr,
    Sq, Sk, HKV, GROUP, DIAGONAL, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT,
    s_qb, s_qh, s_qm, s_qd,
    s_kb, s_kh, s_kn, s_kd,
    s_vb, s_vh, s_vn, s_vd,
    s_gb, s_gh, s_gm, s_gd,
    s_dkb, s_dkh, s_dkn, s_dkd,
    s_dvb, s_dvh, s_dvn, s_dvd,
    qk_scale, scale,
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr, TMA: tl.constexpr,
):
    # With TMA, q_ptr, k_ptr, v_ptr and do_ptr are (B, H, S, D) TMA
    # descriptors of blocks BLOCK_D or BLOCK_DV wide, which read the
    # columns past a padded head dim as zeros, as the masked loads do.
    # Key blocks of one KV head are adjacent so they share Q and dO in L2;
    # under causal masking the first key block sees the most rows, so the
    # heaviest programs start first.
    pid = tl.program_id(0)
    num_n = tl.cdiv(Sk, BLOCK_N)
    start_n = (pid % num_n) * BLOCK_N
    pid_bkv = pid // num_n
    batch32 = pid_bkv // HKV  # a descriptor's coordinates are 32-bit
    batch = batch32.to(tl.int64)
    kv_head = pid_bkv % HKV

    kv_idx = start_n + tl.arange(0, BLOCK_N)
    kv_idx64 = kv_idx.to(tl.int64)
    offs_m = tl.arange(0, BLOCK_M).to(tl.int64)
    offs_d = tl.arange(0, BLOCK_D).to(tl.int64)
    offs_dv = tl.arange(0, BLOCK_DV).to(tl.int64)
    if TMA:
        # Keys past Sk read as zeros, as the masked loads give them.
        k = k_ptr.load([batch32, kv_head, start_n, 0]).reshape(BLOCK_N, BLOCK_D)
        v = v_ptr.load([batch32, kv_head, start_n, 0]).reshape(BLOCK_N, BLOCK_DV)
    else:
        k = _load_2d(
            k_ptr + batch * s_kb + kv_head.to(tl.int64) * s_kh
            + kv_idx64[:, None] * s_kn + offs_d[None, :] * s_kd,
            kv_idx, Sk, offs_d, HEAD_D, True, PAD_D,
        )
        v = _load_2d(
            v_ptr + batch * s_vb + kv_head.to(tl.int64) * s_vh
            + kv_idx64[:, None] * s_vn + offs_dv[None, :] * s_vd,
            kv_idx, Sk, offs_dv, HEAD_DV, True, PAD_DV,
        )
    dk = tl.zeros((BLOCK_N, BLOCK_D), dtype=tl.float32)
    dv = tl.zeros((BLOCK_N, BLOCK_DV), dtype=tl.float32)

    # Rows [0, m_lo) see none of these keys and are skipped; rows from
    # full_lo on see all of them and need no mask, unless the block runs past
    # Sk.  Both are whole blocks.  A left window also ends the rows: rows
    # from m_hi on see none of the keys, rows from full_hi on miss the
    # block's first key (row i sees key j iff j >= i + lo_diag), so
    # [full_lo, full_hi) run unmasked and [full_hi, m_hi) masked.
    up_diag, lo_diag = _band_diagonals(DIAGONAL, WIN_LEFT, WIN_RIGHT, HAS_LEFT, HAS_RIGHT)
    m_end = tl.cdiv(Sq, BLOCK_M) * BLOCK_M
    if CAUSAL or HAS_RIGHT:
        first = tl.maximum(start_n - up_diag, 0)  # row i sees key j iff i >= j - up_diag
        m_lo = tl.where(first < Sq, first // BLOCK_M * BLOCK_M, m_end)
        last_n = tl.minimum(start_n + BLOCK_N, Sk) - 1
        full_lo = tl.cdiv(tl.minimum(tl.maximum(last_n - up_diag, 0), Sq), BLOCK_M) * BLOCK_M
    else:
        m_lo = 0
        full_lo = 0
    full_lo = tl.where(start_n + BLOCK_N > Sk, m_end, full_lo)
    if HAS_LEFT:
        last_k = tl.minimum(start_n + BLOCK_N, Sk) - 1
        m_hi = tl.cdiv(tl.minimum(tl.maximum(last_k - lo_diag + 1, 0), Sq), BLOCK_M) * BLOCK_M
        # Rows past Sq add nothing (their LSE is +inf), so past Sq any row counts.
        full_hi = start_n - lo_diag + 1
        full_hi = tl.where(full_hi >= Sq, m_end, tl.maximum(full_hi, 0) // BLOCK_M * BLOCK_M)
        full_lo = tl.minimum(tl.maximum(full_lo, m_lo), m_hi)
        full_hi = tl.minimum(tl.maximum(full_hi, full_lo), m_hi)
    else:
        m_hi = m_end
        full_hi = m_end

    for g in tl.range(0, GROUP):
        head32 = kv_head * GROUP + g
        head = head32.to(tl.int64)
        if TMA:
            q_tile, do_tile = q_ptr, do_ptr
        else:
            q_tile = (q_ptr + batch * s_qb + head * s_qh
                      + offs_m[:, None] * s_qm + offs_d[None, :] * s_qd)
            do_tile = (do_ptr + batch * s_gb + head * s_gh
                       + offs_m[:, None] * s_gm + offs_dv[None, :] * s_gd)
        stats_row = (batch * HKV * GROUP + head) * Sq
        # Entered only when it has work (see the forward's loops).
        if m_lo < full_lo:
            dk, dv = _dkdv_range(
                dk, dv, k, v, q_tile, do_tile, batch32, head32, stats_row, delta_ptr, lse2_ptr,
                s_qm, s_gm, m_lo, full_lo, kv_idx, Sq, Sk, up_diag, lo_diag, qk_scale,
                HEAD_D, HEAD_DV, BLOCK_M, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True,
                CAUSAL or HAS_RIGHT, HAS_LEFT, PRECISION, TMA,
            )
        dk, dv = _dkdv_range(
            dk, dv, k, v, q_tile, do_tile, batch32, head32, stats_row, delta_ptr, lse2_ptr,
            s_qm, s_gm, full_lo, full_hi, kv_idx, Sq, Sk, up_diag, lo_diag, qk_scale,
            HEAD_D, HEAD_DV, BLOCK_M, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, False,
            CAUSAL or HAS_RIGHT, HAS_LEFT, PRECISION, TMA,
        )
        if HAS_LEFT:
            if full_hi < m_hi:
                dk, dv = _dkdv_range(
                    dk, dv, k, v, q_tile, do_tile, batch32, head32, stats_row, delta_ptr,
                    lse2_ptr, s_qm, s_gm, full_hi, m_hi, kv_idx, Sq, Sk, up_diag, lo_diag,
                    qk_scale, HEAD_D, HEAD_DV, BLOCK_M, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True,
                    CAUSAL or HAS_RIGHT, HAS_LEFT, PRECISION, TMA,
                )

    n_ok = kv_idx64[:, None] < Sk
    if PAD_D:
        dk_mask = n_ok & (offs_d[None, :] < HEAD_D)
    else:
        dk_mask = n_ok
    if PAD_DV:
        dv_mask = n_ok & (offs_dv[None, :] < HEAD_DV)
    else:
        dv_mask = n_ok
    kv_head64 = kv_head.to(tl.int64)
    tl.store(
        dk_ptr + batch * s_dkb + kv_head64 * s_dkh + kv_idx64[:, None] * s_dkn
        + offs_d[None, :] * s_dkd,
        (dk * scale).to(dk_ptr.dtype.element_ty), mask=dk_mask,
    )
    tl.store(
        dv_ptr + batch * s_dvb + kv_head64 * s_dvh + kv_idx64[:, None] * s_dvn
        + offs_dv[None, :] * s_dvd,
        dv.to(dv_ptr.dtype.element_ty), mask=dv_mask,
    )


# --------------------------------------------------------------------------
# dQ: one program per query block, looping over keys
# --------------------------------------------------------------------------


@triton.jit
def _dq_block(
    dq, q, do, lse2, delta,
    k_src, v_src, start_n, s_kn, s_vn, batch, kv_head, rows, kv_idx, Sk, diagonal, lo_diag,
    qk_scale, head_d, head_dv,
    BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, PRECISION: tl.constexpr,
    TMA: tl.constexpr,
):
    """Add one key block's terms to the (BLOCK_M, BLOCK_D) dQ accumulator.

    Unlike in the dK/dV kernel, keys past Sk are masked: dQ sums over keys
    (K and V come as ``_load_pair`` gives them, masked where MASKED).
    """
    k, v = _load_pair(k_src, v_src, batch, kv_head, start_n, s_kn, s_vn, kv_idx, Sk, head_d,
                      head_dv, BLOCK_N, BLOCK_D, BLOCK_DV, MASKED, PAD_D, PAD_DV, TMA)
    shifted = tl.fma(tl.dot(q, tl.trans(k), input_precision=PRECISION), qk_scale, -lse2[:, None])
    if MASKED:
        visible = _band(kv_idx[None, :] < Sk, kv_idx[None, :], rows[:, None], diagonal, lo_diag,
                        CAUSAL, HAS_LEFT)
        shifted = tl.where(visible, shifted, float("-inf"))
    p = tl.math.exp2(shifted)
    dp = tl.dot(do, tl.trans(v), input_precision=PRECISION)
    ds = p * (dp - delta[:, None])
    return tl.dot(ds.to(k.dtype), k, dq, input_precision=PRECISION)


@triton.jit
def _dq_range(
    dq, q, do, lse2, delta,
    k_tile, v_tile, s_kn, s_vn, batch, kv_head, rows, lo, hi, Sk, diagonal, lo_diag, qk_scale,
    head_d, head_dv,
    BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr,
    PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    MASKED: tl.constexpr, CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, PRECISION: tl.constexpr,
    TMA: tl.constexpr,
):
    """Keys [lo, hi), BLOCK_N at a time; ``lo`` a whole number of blocks."""
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in tl.range(lo, hi, BLOCK_N):
        dq = _dq_block(
            dq, q, do, lse2, delta, k_tile, v_tile, start_n, s_kn, s_vn, batch, kv_head, rows,
            start_n + offs_n, Sk, diagonal, lo_diag, qk_scale, head_d, head_dv,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, MASKED, CAUSAL, HAS_LEFT, PRECISION, TMA,
        )
    return dq


@triton.jit(do_not_specialize=_SIZES)
def _bwd_dq_kernel(
    q_ptr, k_ptr, v_ptr, do_ptr, dq_ptr, delta_ptr, lse2_ptr,
    Sq, Sk, HKV, GROUP, DIAGONAL, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT,
    s_qb, s_qh, s_qm, s_qd,
    s_kb, s_kh, s_kn, s_kd,
    s_vb, s_vh, s_vn, s_vd,
    s_gb, s_gh, s_gm, s_gd,
    s_dqb, s_dqh, s_dqm, s_dqd,
    qk_scale, scale,
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr, TMA: tl.constexpr,
):
    # The forward's grid and key ranges (see _flash_fwd_kernel).  With TMA,
    # q_ptr, k_ptr, v_ptr and do_ptr are descriptors, as in the dK/dV kernel.
    pid = tl.program_id(0)
    num_m = tl.cdiv(Sq, BLOCK_M)
    m_blk = pid % num_m
    if CAUSAL:
        m_blk = num_m - 1 - m_blk
    pid_bh = pid // num_m
    batch32 = pid_bh // (HKV * GROUP)  # a descriptor's coordinates are 32-bit
    head32 = pid_bh % (HKV * GROUP)
    kv_head32 = head32 // GROUP
    batch = batch32.to(tl.int64)
    kv_head = kv_head32.to(tl.int64)
    head = head32.to(tl.int64)

    rows = m_blk * BLOCK_M + tl.arange(0, BLOCK_M)
    rows64 = rows.to(tl.int64)
    offs_n = tl.arange(0, BLOCK_N).to(tl.int64)
    offs_d = tl.arange(0, BLOCK_D).to(tl.int64)
    offs_dv = tl.arange(0, BLOCK_DV).to(tl.int64)
    if TMA:
        q = q_ptr.load([batch32, head32, m_blk * BLOCK_M, 0]).reshape(BLOCK_M, BLOCK_D)
        do = do_ptr.load([batch32, head32, m_blk * BLOCK_M, 0]).reshape(BLOCK_M, BLOCK_DV)
        k_tile, v_tile = k_ptr, v_ptr
    else:
        q = _load_2d(
            q_ptr + batch * s_qb + head * s_qh + rows64[:, None] * s_qm + offs_d[None, :] * s_qd,
            rows, Sq, offs_d, HEAD_D, True, PAD_D,
        )
        do = _load_2d(
            do_ptr + batch * s_gb + head * s_gh + rows64[:, None] * s_gm
            + offs_dv[None, :] * s_gd,
            rows, Sq, offs_dv, HEAD_DV, True, PAD_DV,
        )
        k_tile = (k_ptr + batch * s_kb + kv_head * s_kh
                  + offs_n[:, None] * s_kn + offs_d[None, :] * s_kd)
        v_tile = (v_ptr + batch * s_vb + kv_head * s_vh
                  + offs_n[:, None] * s_vn + offs_dv[None, :] * s_vd)
    row_ok = rows < Sq
    stats = pid_bh.to(tl.int64) * Sq + rows64
    lse2 = tl.load(lse2_ptr + stats, mask=row_ok, other=float("inf"))
    delta = tl.load(delta_ptr + stats, mask=row_ok, other=0.0)
    dq = tl.zeros((BLOCK_M, BLOCK_D), dtype=tl.float32)

    up_diag, lo_diag = _band_diagonals(DIAGONAL, WIN_LEFT, WIN_RIGHT, HAS_LEFT, HAS_RIGHT)
    first = m_blk * BLOCK_M
    last = tl.minimum(first + BLOCK_M, Sq) - 1
    kv_lo, full_lo, full_end, kv_hi = _key_ranges(
        first, last, Sk, up_diag, lo_diag, BLOCK_N, CAUSAL or HAS_RIGHT, HAS_LEFT
    )
    if HAS_LEFT:
        if kv_lo < full_lo:
            dq = _dq_range(
                dq, q, do, lse2, delta, k_tile, v_tile, s_kn, s_vn, batch32, kv_head32, rows,
                kv_lo, full_lo, Sk, up_diag, lo_diag, qk_scale, HEAD_D, HEAD_DV,
                BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True, CAUSAL or HAS_RIGHT, HAS_LEFT,
                PRECISION, TMA,
            )
        dq = _dq_range(
            dq, q, do, lse2, delta, k_tile, v_tile, s_kn, s_vn, batch32, kv_head32, rows,
            full_lo, full_end, Sk, up_diag, lo_diag, qk_scale, HEAD_D, HEAD_DV,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, False, CAUSAL or HAS_RIGHT, HAS_LEFT,
            PRECISION, TMA,
        )
    else:
        dq = _dq_range(
            dq, q, do, lse2, delta, k_tile, v_tile, s_kn, s_vn, batch32, kv_head32, rows,
            0, full_end, Sk, up_diag, lo_diag, qk_scale, HEAD_D, HEAD_DV,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, False, CAUSAL or HAS_RIGHT, HAS_LEFT,
            PRECISION, TMA,
        )
    if full_end < kv_hi:
        dq = _dq_range(
            dq, q, do, lse2, delta, k_tile, v_tile, s_kn, s_vn, batch32, kv_head32, rows,
            full_end, kv_hi, Sk, up_diag, lo_diag, qk_scale, HEAD_D, HEAD_DV,
            BLOCK_N, BLOCK_D, BLOCK_DV, PAD_D, PAD_DV, True, CAUSAL or HAS_RIGHT, HAS_LEFT,
            PRECISION, TMA,
        )

    if PAD_D:
        dq_mask = row_ok[:, None] & (offs_d[None, :] < HEAD_D)
    else:
        dq_mask = row_ok[:, None]
    tl.store(
        dq_ptr + batch * s_dqb + head * s_dqh + rows64[:, None] * s_dqm + offs_d[None, :] * s_dqd,
        (dq * scale).to(dq_ptr.dtype.element_ty), mask=dq_mask,
    )


# --------------------------------------------------------------------------
# Launch configuration and launcher
# --------------------------------------------------------------------------

class BackwardConfig(NamedTuple):
    """Tiles of the two main kernels (each a ``Config``; the preprocessing kernel
    takes the dQ kernel's rows and warps).  In ``dkdv``, BLOCK_N keys are one
    program's and BLOCK_M query rows one loop step; in ``dq`` the reverse."""

    dkdv: Config
    dq: Config


# H200 tiles by the forward's table key (operand kind, widest padded head
# dim).  16-bit D = 128, the Qwen3 shape, is timed (``benchmarks/
# tune_backward.py``, best of each kernel's sweep at S = 1k and 4k, causal
# or not); the others are the largest tiles that compile for sm_90 without
# register spills (``benchmarks/sm90_codegen.py``'s compiler, by hand).  A
# dK/dV program keeps its K and V tiles and two fp32 accumulators of
# BLOCK_N x width in registers, so it gets few query rows a step; fp32
# 'ieee' dots run on the FMA units and need the smallest tiles.
_CONFIGS: dict[tuple[str, int], BackwardConfig] = {
    ("16bit", 64): BackwardConfig(Config(32, 128, 8, 1), Config(128, 64, 8, 2)),
    ("16bit", 128): BackwardConfig(Config(32, 64, 4, 3), Config(128, 64, 8, 3)),
    ("16bit", 256): BackwardConfig(Config(16, 32, 8, 2), Config(64, 32, 8, 2)),
    ("tf32", 64): BackwardConfig(Config(16, 64, 8, 2), Config(64, 64, 8, 2)),
    ("tf32", 128): BackwardConfig(Config(32, 32, 8, 2), Config(32, 32, 8, 2)),
    ("tf32", 256): BackwardConfig(Config(16, 16, 8, 2), Config(32, 32, 8, 2)),
    ("ieee", 64): BackwardConfig(Config(16, 32, 4, 2), Config(64, 32, 8, 2)),
    ("ieee", 128): BackwardConfig(Config(32, 16, 8, 2), Config(32, 32, 8, 2)),
    ("ieee", 256): BackwardConfig(Config(16, 16, 8, 2), Config(32, 16, 8, 2)),
}


def backward_config(dtype: torch.dtype, precision: str, d: int, dv: int) -> BackwardConfig:
    """The backward's tiles.  The interpreter pays per operation per program,
    so it gets one large tile shape: few programs, few loop trips."""
    if interpreting():
        return BackwardConfig(Config(64, 64, 4, 1), Config(64, 64, 4, 1))
    return _CONFIGS[_tile_kind(dtype, precision, d, dv)]


# TMA's box is at most 256 elements a dim; wider heads were not timed.
TMA_MAX_WIDTH = 128


# Whether a GPU takes the TMA path unasked.  On an H100 it passed the
# gradient tests and memcheck, and the backward alone ran 1.02-1.12x the
# pointer loads' speed, but the forward + backward step at S = 1k causal ran
# slower in five of six runs (benchmarks/NOTES.md, b4): until that is
# understood a GPU keeps the pointer loads unless ``tma=True`` asks.
TMA_ON_GPU = False


def uses_tma(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, do: torch.Tensor,
             head: dict[str, int | bool], want: bool | None = None) -> bool:
    """Whether the two main kernels take q, k, v and do through TMA descriptors.
    Where ``want`` is None: for 16-bit inputs that TMA addresses as they are
    (``tma_addressable``) with head dims of at most ``TMA_MAX_WIDTH``
    (padded to a block or not), on the interpreter (which runs descriptors
    too, so that fuzzing on a CPU reaches both paths, the pointer one with
    every other input) and, with ``TMA_ON_GPU``, an sm_90 or later GPU.
    ``want=True`` forces it where it can be done, and ``False`` keeps the
    pointers."""
    able = (max(head["BLOCK_D"], head["BLOCK_DV"]) <= TMA_MAX_WIDTH
            and all(map(tma_addressable, (q, k, v, do))))
    if want is None:
        return able and q.dtype in (torch.float16, torch.bfloat16) and (
            interpreting() or TMA_ON_GPU and capability(
                q.device.index if q.device.index is not None else torch.cuda.current_device())[0]
            >= 9)
    if want and not able:
        raise ValueError("tma=True: q, k, v and do must each be TMA-addressable (last dim "
                         "contiguous, 16-byte aligned start and strides) with head dims of "
                         f"at most {TMA_MAX_WIDTH}")
    return want


def _descriptors(blocks: tuple[tuple[int, int], ...]):
    """A ``LaunchCache`` ``leading``: the first tensors as (B, H, S, D) TMA
    descriptors of ``blocks`` (rows, width) each, the rest as they are."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    def leading(tensors: tuple[torch.Tensor, ...], again: bool) -> tuple:
        n = len(blocks)
        if again:  # the compiled launcher knows the block shapes
            descs = [HostDescriptor(t, t.shape, t.stride()) for t in tensors[:n]]
        else:
            descs = [TensorDescriptor(t, list(t.shape), list(t.stride()), [1, 1, rows, width])
                     for t, (rows, width) in zip(tensors, blocks, strict=False)]
        return (*descs, *tensors[n:])

    return leading


_PREPROCESS = LaunchCache(_bwd_preprocess_kernel)
_DKDV = LaunchCache(_bwd_dkdv_kernel)
_DQ = LaunchCache(_bwd_dq_kernel)
_THROUGH_TMA: dict[tuple, LaunchCache] = {}  # by (kernel, BLOCK_M, BLOCK_N, D width, Dv width)


def _through_tma(kernel: triton.JITFunction, block_m: int, block_n: int, width_d: int,
                 width_dv: int) -> LaunchCache:
    """The launches of ``kernel`` (either main kernel: both take q, k, v and
    do first) with those four as TMA descriptors of BLOCK_M query rows and
    BLOCK_N keys."""
    key = (kernel, block_m, block_n, width_d, width_dv)
    if key not in _THROUGH_TMA:
        blocks = ((block_m, width_d), (block_n, width_d), (block_n, width_dv),
                  (block_m, width_dv))
        _THROUGH_TMA[key] = LaunchCache(kernel, leading=_descriptors(blocks))
    return _THROUGH_TMA[key]


def backward_stats(do: torch.Tensor, out: torch.Tensor, lse: torch.Tensor, dims: AttentionDims,
                   tile: Config) -> tuple[torch.Tensor, torch.Tensor]:
    """(delta, the base-2 LSE), each fp32 contiguous (B, Hq, Sq), from the
    forward's ``out`` and ``lse`` and ``do`` (both of fresh layout: delta
    sums loaded tiles), ``tile.block_m`` rows a program; on q's device made
    current."""
    bh = dims.batch * dims.hq
    head = _head_meta(dims)
    stats = torch.empty((2, bh * dims.sq), dtype=torch.float32, device=out.device)
    delta, lse2 = stats[0], stats[1]
    _PREPROCESS.launch(
        (dims, out.stride(), do.stride(), tile.block_m, tile.num_warps),
        (out, do, lse, delta, lse2),
        lambda: ((_cdiv(dims.sq, tile.block_m) * bh,),
                 (dims.sq, dims.hq, dims.dv, *out.stride(), *do.stride()),
                 dict(BLOCK_M=tile.block_m, BLOCK_DV=head["BLOCK_DV"], PAD_DV=head["PAD_DV"],
                      num_warps=tile.num_warps)),
    )
    return delta, lse2


def launch_backward(
    do: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
    out: torch.Tensor, lse: torch.Tensor, dims: AttentionDims, *,
    causal: bool, precision: str, needs: tuple[bool, bool, bool] = (True, True, True),
    config: BackwardConfig | None = None, window: Window | None = None,
    tma: bool | None = None, hopper: bool = False, fused: bool | None = None,
) -> tuple[torch.Tensor | None, torch.Tensor | None, torch.Tensor | None]:
    """(dq, dk, dv) of flash attention, each new, contiguous, in q's dtype.

    ``do`` and ``out`` (the forward's output) are (B, Hq, Sq, Dv), q, k, v as
    the forward took them, all with any strides; ``lse`` is the forward's
    contiguous fp32 (B, Hq, Sq) natural-log LSE.  ``needs`` says which of
    (dq, dk, dv) to compute; one not needed is None (dk and dv are computed
    together).  ``config`` forces a tile shape (tests sweep it).  ``window``
    is the forward's sliding window (``check_window``).  ``tma``: whether
    the main kernels load through TMA descriptors (``uses_tma``; None
    chooses).  ``hopper``: the gradients from the warp-specialised Hopper
    kernels (``hopper_backward.py``), for a call the Hopper forward computes;
    ``fused`` there: dQ summed in the dK/dV kernel wherever it ``fuses``
    (True), never (False), or where the launcher chooses (None).
    """
    want_q, want_k, want_v = needs
    new = lambda t: torch.empty(t.shape, dtype=t.dtype, device=t.device)  # noqa: E731
    dq = new(q) if want_q else None
    dk, dv = (new(k), new(v)) if want_k or want_v else (None, None)
    if q.numel() == 0 or dims.sk == 0:  # every gradient is an empty sum
        for t in (dq, dk, dv):
            if t is not None:
                t.zero_()
        return dq, dk if want_k else None, dv if want_v else None
    if do.dtype != q.dtype:
        do = do.to(q.dtype)
    # delta = rowsum(dO * O) sums loaded tiles: its order must not follow their layouts.
    do, out = fresh_layout(do), fresh_layout(out)
    if hopper:  # the Hopper kernels form delta and the base-2 LSE themselves
        with _on_device_of(q):
            if fused:
                fused = fuses(dims, q.device.index)
            launch_hopper_backward(q, k, v, do, out, lse, dq, dk, dv, dims, causal=causal,
                                   fused=fused)
        return dq, dk if want_k else None, dv if want_v else None

    # Both paths take the same tiles: the same arithmetic, so the same bits
    # whatever the inputs' layouts (which decide the path).
    c = config or backward_config(q.dtype, precision, dims.d, dims.dv)
    head = _head_meta(dims)
    through_tma = uses_tma(q, k, v, do, head, tma)
    bh = dims.batch * dims.hq
    win = launch_window(window, causal, dims.sq + dims.sk)
    window_sizes, flags = window_args(win)
    sizes = (dims.sq, dims.sk, dims.hkv, dims.group, dims.diagonal, dims.d, dims.dv,
             *window_sizes)
    common = (*q.stride(), *k.stride(), *v.stride(), *do.stride())
    scales = (dims.scale * LOG2E, dims.scale)
    meta = dict(**head, CAUSAL=causal, PRECISION=precision, **flags)
    # Each plan holds everything its launch's arguments follow from, but the
    # tensors (``LaunchCache``): short backwards are bound by host time.
    with _on_device_of(q):
        delta, lse2 = backward_stats(do, out, lse, dims, c.dq)
        plan = (dims, common, causal, precision, win)
        kv, qt = c.dkdv, c.dq
        if dk is not None:
            dkdv = (_through_tma(_bwd_dkdv_kernel, kv.block_m, kv.block_n, head["BLOCK_D"],
                                 head["BLOCK_DV"]) if through_tma else _DKDV)
            dkdv.launch(
                (*plan, kv, dk.stride(), dv.stride()), (q, k, v, do, dk, dv, delta, lse2),
                lambda: ((_cdiv(dims.sk, kv.block_n) * dims.batch * dims.hkv,),
                         (*sizes, *common, *dk.stride(), *dv.stride(), *scales),
                         dict(**meta, BLOCK_M=kv.block_m, BLOCK_N=kv.block_n, TMA=through_tma,
                              num_warps=kv.num_warps, num_stages=kv.num_stages)),
            )
        if dq is not None:
            dq_launch = (_through_tma(_bwd_dq_kernel, qt.block_m, qt.block_n, head["BLOCK_D"],
                                      head["BLOCK_DV"]) if through_tma else _DQ)
            dq_launch.launch(
                (*plan, qt, dq.stride()), (q, k, v, do, dq, delta, lse2),
                lambda: ((_cdiv(dims.sq, qt.block_m) * bh,),
                         (*sizes, *common, *dq.stride(), *scales),
                         dict(**meta, BLOCK_M=qt.block_m, BLOCK_N=qt.block_n, TMA=through_tma,
                              num_warps=qt.num_warps, num_stages=qt.num_stages)),
            )
    return dq, dk if want_k else None, dv if want_v else None
