"""Split-K decode: few query rows over many keys, in one launch.

Few query rows give few programs, far fewer than SMs, while the work is
streaming K and V from memory.  ``launch_decode`` splits the keys into
``num_splits`` contiguous ranges, one program per (range, KV head, row
tile); each runs the row tile's key loop (``_row_tile.attend_range``) over
its range and writes its normalised partial output and its LSE to fp32
scratch, and the last program of a tile to finish merges the tile's partials
with weights ``exp(lse_s - lse)`` (flash-decoding in one launch: a second
merge launch costs more host time than the merge costs the GPU).  The row
tile packs the GQA group: all Sq rows of the ``Hq // Hkv`` query heads that
share a KV head sit in one tile, so each K/V byte is read once per KV head
instead of once per query head.  The merge scales its weights as the row
tile does (``_row_tile``'s "Overflow").

Read top-down: the merge and the store of a tile, the kernel, its tile table,
the launch plan, and the launcher.  ``flash.flash_decode`` is the public
entry; serving's paged path launches this kernel over a paged cache
(``PagedKeys``).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import torch
import triton
import triton.language as tl

from ._checks import AttentionDims, Window, interpreting
from ._launch import LaunchCache, num_sms
from ._row_tile import attend_range, finish_rows, weight_shift
from ._tiles import (
    _LOG2E,
    LOG2E,
    Config,
    _band_diagonals,
    _cdiv,
    _head_meta,
    _load_2d,
    _next_pow2,
    _tile_kind,
    launch_window,
    window_args,
)


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
    ``_row_tile``'s "Overflow").  The partials were written by other programs: ``.cg``
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
    return finish_rows(acc, l_i, m_i, w_shift)


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

    ``PAGED``: the keys are a paged cache's (see ``_row_tile.attend_range``), with
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
        # Slot 0 of page 0 of this KV head: ``attend_range`` adds each key's page and slot.
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
    acc, l_i, m_i = attend_range(
        acc, l_i, m_i, q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn,
        table=table, s_kpage=s_kb, s_vpage=s_vb, PAGE=PAGE,
        q_idx=q_idx, lo=kv_lo, hi=kv_hi, kv_end=kv_end, diagonal=up_diag, lo_diag=lo_diag,
        qk_scale=qk_scale, p_shift=p_shift, head_d=HEAD_D, head_dv=HEAD_DV,
        BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D, PAD_DV=PAD_DV,
        MASKED=True, CAUSAL=CAUSAL or HAS_RIGHT, HAS_LEFT=HAS_LEFT, NEG_SCALE=False,
        PRECISION=PRECISION, PAGED=PAGED,
    )

    out, lse = finish_rows(acc, l_i, m_i, p_shift)
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
# Launcher
# --------------------------------------------------------------------------

class DecodePlan(NamedTuple):
    """How ``launch_decode`` runs one shape: tiles, key ranges, constants."""

    config: Config
    splits: int  # key ranges actually used (0: no row sees a key)
    split_len: int  # keys per range, whole blocks
    tiles: int  # packed row tiles
    head_meta: tuple[tuple[str, int | bool], ...]
    p_shift: float  # weight shift within a range (``_row_tile``'s "Overflow")
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
