"""A Hopper prefill in Gluon, warp specialised as FlashAttention-3 is: a probe.

Probes a1-a2 (``NOTES.md``) found the Triton kernel's softmax beside its
GEMMs, not under them: its one program of two warpgroups moves in lock step.
Here each program has three partitions: a producer warp that issues TMA
loads of Q once and of K and V into a ring of shared-memory stages, and two
consumer warpgroups of 64 query rows each, which run their GEMMs and
softmax independently, so the warp scheduler can put one's softmax under the
other's wgmma.  Registers move from the producer to the consumers
(``setmaxnreg`` through ``warp_specialize``'s register counts).

The probe computes what ``flash_attention`` computes for D = Dv = 128 in
16-bit dtypes: any Sq and Sk (TMA zero-fills rows past a tensor's end and
drops them on the store; the keys past Sk are masked), GQA by head mapping,
causal with either diagonal alignment, and any strides TMA can read (unit
last stride, the others 16-byte multiples), and the LSE if asked.  It has
no backward and is not wired into ``flash_attention``.  Its versions
(``VERSIONS``; ``benchmarks/NOTES.md``, g1-g3) are options of one kernel:
causal masking, and a consumer loop that overlaps each block's softmax with
the previous block's P @ V.

    python benchmarks/gluon_prefill.py              # on an H100/H200: check, then time
    python benchmarks/gluon_prefill.py --compile [--version V]   # sm_90 code, no GPU
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (
    fence_async_shared,
    mbarrier,
    tma,
    warpgroup_mma,
    warpgroup_mma_wait,
)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

ROOT = Path(__file__).resolve().parents[1]
# Kernel constants (globals a Gluon kernel reads must be constexpr).
BLOCK_M = gl.constexpr(128)  # two consumers of 64 rows
HALF_M = gl.constexpr(64)
BLOCK_N = gl.constexpr(128)
LOG2E = 1.4426950408889634
LN2 = gl.constexpr(0.6931471805599453)


@gluon.jit
def _producer(q_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, tile, soft, lse_out,
              HALF: gl.constexpr, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr,
              NEG: gl.constexpr, STORE_LSE: gl.constexpr):
    """One warp: Q's two halves once, then K and V block by block into the ring
    (TMA fills rows past the tensor's end with zeros)."""
    q_bar, k_ready, v_ready, kv_empty = bars
    batch, head, kv_head, m0, row0, n_blocks, n_full, sk, off = tile
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    mbarrier.expect(q_bar, 2 * q_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(q_desc, [batch, head, m0, 0], q_bar, q_smem.index(0))
    tma.async_copy_global_to_shared(q_desc, [batch, head, m0 + HALF_M, 0], q_bar,
                                    q_smem.index(1))
    for j in range(n_blocks):
        s = j % STAGES
        phase = (j // STAGES) & 1
        # A fresh mbarrier counts as having completed phase 1: the first
        # STAGES waits pass at once.
        mbarrier.wait(kv_empty.index(s), phase ^ 1)
        mbarrier.expect(k_ready.index(s), k_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(k_desc, [batch, kv_head, j * BLOCK_N, 0],
                                        k_ready.index(s), k_bufs.index(s))
        mbarrier.expect(v_ready.index(s), v_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(v_desc, [batch, kv_head, j * BLOCK_N, 0],
                                        v_ready.index(s), v_bufs.index(s))


@gluon.jit
def _masked(qk, j, tile, CAUSAL: gl.constexpr, NEG: gl.constexpr):
    """Blocks from ``n_full`` on hold keys past Sk or, causal, past some row's
    diagonal (key c visible to row r iff c <= r + off): those keys' scores
    become what the scale turns into -inf (+inf for a negative scale)."""
    batch, head, kv_head, m0, row0, n_blocks, n_full, sk, off = tile
    if j >= n_full:
        layout: gl.constexpr = qk.type.layout
        rows = row0 + gl.arange(0, HALF_M, gl.SliceLayout(1, layout))
        cols = j * BLOCK_N + gl.arange(0, BLOCK_N, gl.SliceLayout(0, layout))
        visible = gl.expand_dims(cols < sk, 0)
        if CAUSAL:
            visible = visible & (gl.expand_dims(cols, 0) <= gl.expand_dims(rows + off, 1))
        qk = gl.where(visible, qk, float("inf") if NEG else float("-inf"))
    return qk


@gluon.jit
def _softmax(qk, m_i, l_i, soft, NEG: gl.constexpr):
    """(P, alpha, m, l) after one block; rows that have seen no key keep m =
    -inf and l = 0 (the max is taken as 0 for them, so no -inf - -inf).
    The largest scaled score is the scale times the smallest for NEG.  Weights
    are 2**-p_shift too small, so that Sk of them times bf16's largest V
    cannot overflow the fp32 sum (``attnfuzz.kernels.flash.weight_shift``)."""
    qk_scale, p_shift = soft
    if NEG:
        m_new = gl.maximum(m_i, gl.min(qk, axis=1) * qk_scale)
    else:
        m_new = gl.maximum(m_i, gl.max(qk, axis=1) * qk_scale)
    shift = gl.where(m_new == float("-inf"), 0.0, m_new)
    p = gl.exp2(qk * qk_scale - gl.expand_dims(shift + p_shift, 1))
    alpha = gl.exp2(m_i - shift)
    l_i = l_i * alpha + gl.sum(p, axis=1)
    return p, alpha, m_new, l_i


@gluon.jit
def _consume(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, tile, soft, m_i, l_i, acc,
             zero_s, p_layout: gl.constexpr, CAUSAL: gl.constexpr, NEG: gl.constexpr):
    """Each block in turn: scores, wait, softmax, P @ V, wait."""
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    BLOCK_SHAPE: gl.constexpr = [BLOCK_N, k_bufs.type.shape[-1]]
    o_rows: gl.constexpr = gl.SliceLayout(1, acc.type.layout)
    n_blocks = tile[5]
    for j in range(n_blocks):
        s = j % STAGES
        phase = (j // STAGES) & 1
        mbarrier.wait(k_ready.index(s), phase)
        k = k_bufs.index(s).reshape(BLOCK_SHAPE)
        qk = warpgroup_mma(q, k.permute((1, 0)), zero_s, use_acc=False, is_async=True)
        qk = warpgroup_mma_wait(num_outstanding=0, deps=(qk,))
        qk = _masked(qk, j, tile, CAUSAL, NEG)
        p, alpha, m_i, l_i = _softmax(qk, m_i, l_i, soft, NEG)
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
        mbarrier.wait(v_ready.index(s), phase)
        acc = warpgroup_mma(p16, v_bufs.index(s).reshape(BLOCK_SHAPE), acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(s), count=1)
    return acc, l_i, m_i


@gluon.jit
def _consume_pipelined(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, tile, soft, m_i,
                       l_i, acc, zero_s, p_layout: gl.constexpr, CAUSAL: gl.constexpr,
                       NEG: gl.constexpr):
    """Block j's scores are issued before block j-1's P @ V, and block j's
    softmax runs while that P @ V is in flight (FlashAttention-3's overlap
    within a warpgroup); wgmma groups complete in order, so waiting for all
    but one leaves exactly the P @ V running.  Needs at least one block."""
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    BLOCK_SHAPE: gl.constexpr = [BLOCK_N, k_bufs.type.shape[-1]]
    o_rows: gl.constexpr = gl.SliceLayout(1, acc.type.layout)
    n_blocks = tile[5]
    mbarrier.wait(k_ready.index(0), 0)
    k = k_bufs.index(0).reshape(BLOCK_SHAPE)
    qk = warpgroup_mma(q, k.permute((1, 0)), zero_s, use_acc=False, is_async=True)
    qk = warpgroup_mma_wait(num_outstanding=0, deps=(qk,))
    qk = _masked(qk, 0, tile, CAUSAL, NEG)
    p, alpha, m_i, l_i = _softmax(qk, m_i, l_i, soft, NEG)
    p16 = gl.convert_layout(p.to(q.dtype), p_layout)
    for j in range(1, n_blocks):
        s = j % STAGES
        prev = (j - 1) % STAGES
        mbarrier.wait(k_ready.index(s), (j // STAGES) & 1)
        k = k_bufs.index(s).reshape(BLOCK_SHAPE)
        qk = warpgroup_mma(q, k.permute((1, 0)), zero_s, use_acc=False, is_async=True)
        mbarrier.wait(v_ready.index(prev), ((j - 1) // STAGES) & 1)
        acc = warpgroup_mma(p16, v_bufs.index(prev).reshape(BLOCK_SHAPE), acc, is_async=True)
        qk = warpgroup_mma_wait(num_outstanding=1, deps=(qk,))
        qk = _masked(qk, j, tile, CAUSAL, NEG)
        p, alpha, m_i, l_i = _softmax(qk, m_i, l_i, soft, NEG)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(prev), count=1)
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        # Only now: the P @ V just waited for read the previous P's registers.
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
    last = (n_blocks - 1) % STAGES
    mbarrier.wait(v_ready.index(last), ((n_blocks - 1) // STAGES) & 1)
    acc = warpgroup_mma(p16, v_bufs.index(last).reshape(BLOCK_SHAPE), acc, is_async=True)
    acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    mbarrier.arrive(kv_empty.index(last), count=1)
    return acc, l_i, m_i


@gluon.jit
def _consumer(q_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, tile, soft, lse_out,
              HALF: gl.constexpr, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr,
              NEG: gl.constexpr, STORE_LSE: gl.constexpr):
    """One warpgroup: 64 query rows over every key block they see, then their
    output tile, through ``q_desc`` (which has the output's block shape; TMA
    drops rows past the tensor's end)."""
    q_bar, k_ready, v_ready, kv_empty = bars
    batch, head, kv_head, m0, row0, n_blocks, n_full, sk, off = tile
    HEAD_D: gl.constexpr = q_desc.block_type.shape[3]
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BLOCK_N, 16])
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, HEAD_D, 16])
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)
    o_rows: gl.constexpr = gl.SliceLayout(1, o_layout)

    m_i = gl.full([HALF_M], float("-inf"), gl.float32, gl.SliceLayout(1, s_layout))
    l_i = gl.zeros([HALF_M], gl.float32, gl.SliceLayout(1, s_layout))
    acc = gl.zeros([HALF_M, HEAD_D], gl.float32, o_layout)
    zero_s = gl.zeros([HALF_M, BLOCK_N], gl.float32, s_layout)
    q_tile = q_smem.index(HALF)
    q = q_tile.reshape([HALF_M, HEAD_D])
    mbarrier.wait(q_bar, 0)
    row_tile = (batch, head, kv_head, m0, m0 + HALF * HALF_M, n_blocks, n_full, sk, off)
    if PIPELINE:
        if n_blocks > 0:
            acc, l_i, m_i = _consume_pipelined(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty,
                                               row_tile, soft, m_i, l_i, acc, zero_s,
                                               p_layout, CAUSAL, NEG)
    else:
        acc, l_i, m_i = _consume(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, row_tile,
                                 soft, m_i, l_i, acc, zero_s, p_layout, CAUSAL, NEG)
    seen = l_i > 0.0
    if STORE_LSE:  # natural log, -inf for rows that saw no key; (B, H, Sq) contiguous
        lse_ptr, lse_base, sq = lse_out
        rows = m0 + HALF * HALF_M + gl.arange(0, HALF_M, l_i.type.layout)
        lse = gl.where(seen, (m_i + gl.log2(gl.where(seen, l_i, 1.0)) + soft[1]) * LN2,
                       float("-inf"))
        gl.store(lse_ptr + lse_base + rows, lse, mask=rows < sq)
    inv = gl.where(seen, 1.0 / gl.where(seen, l_i, 1.0), 0.0)
    out = acc * gl.expand_dims(gl.convert_layout(inv, o_rows), 1)
    # Q's tile is done with: the output leaves through it.
    q.store(out.to(q_desc.dtype))
    fence_async_shared()
    tma.async_copy_shared_to_global(q_desc, [batch, head, m0 + HALF * HALF_M, 0], q_tile)
    tma.store_wait(pendings=0)


@gluon.jit
def _attention_kernel(q_desc, k_desc, v_desc, o_desc, lse_ptr, Sq, Sk, H, GROUP, OFF, qk_scale,
                      p_shift, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr,
                      STAGES: gl.constexpr, NEG: gl.constexpr, STORE_LSE: gl.constexpr):
    pid_m = gl.program_id(0)
    if CAUSAL:  # the heaviest row tiles first, to even out the tail
        pid_m = gl.num_programs(0) - 1 - pid_m
    pid_bh = gl.program_id(1)
    batch = pid_bh // H
    head = pid_bh % H
    kv_head = head // GROUP
    m0 = pid_m * BLOCK_M
    # Keys [0, kv_hi) are seen by some row of the tile; [0, n_full blocks)
    # by every row.
    kv_hi = Sk
    n_full = Sk // BLOCK_N
    if CAUSAL:
        kv_hi = gl.maximum(gl.minimum(Sk, gl.minimum(m0 + BLOCK_M, Sq) + OFF), 0)
        n_full = gl.minimum(n_full, gl.maximum(m0 + OFF + 1, 0) // BLOCK_N)
    n_blocks = gl.cdiv(kv_hi, BLOCK_N)
    tile = (batch, head, kv_head, m0, m0, n_blocks, n_full, Sk, OFF)
    soft = (qk_scale, p_shift)
    lse_out = (lse_ptr, pid_bh.to(gl.int64) * Sq, Sq)

    q_smem = gl.allocate_shared_memory(q_desc.dtype, [2] + q_desc.block_type.shape, q_desc.layout)
    k_bufs = gl.allocate_shared_memory(k_desc.dtype, [STAGES] + k_desc.block_type.shape,
                                       k_desc.layout)
    v_bufs = gl.allocate_shared_memory(v_desc.dtype, [STAGES] + v_desc.block_type.shape,
                                       v_desc.layout)
    q_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    k_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    kv_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    mbarrier.init(q_bar, count=1)
    for i in gl.static_range(STAGES):
        mbarrier.init(k_ready.index(i), count=1)
        mbarrier.init(v_ready.index(i), count=1)
        mbarrier.init(kv_empty.index(i), count=2)  # both consumers release a stage
    bars = (q_bar, k_ready, v_ready, kv_empty)
    # Consumers take the output's descriptor in Q's place (the same block
    # shape and layout): only the producer loads Q.
    gl.warp_specialize([
        (_consumer, (o_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, tile, soft, lse_out,
                     0, CAUSAL, PIPELINE, NEG, STORE_LSE)),
        (_consumer, (o_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, tile, soft, lse_out,
                     1, CAUSAL, PIPELINE, NEG, STORE_LSE)),
        (_producer, (q_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, tile, soft, lse_out,
                     0, CAUSAL, PIPELINE, NEG, STORE_LSE)),
    ], [4, 1], [240, 24])


def descriptors(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor):
    """4-D TMA descriptors over (B, H, S, D) with the tensors' own strides."""
    gdt = {torch.bfloat16: gl.bfloat16, torch.float16: gl.float16}[q.dtype]
    d = q.shape[-1]
    q_block, kv_block = [1, 1, HALF_M.value, d], [1, 1, BLOCK_N.value, d]
    q_layout = gl.NVMMASharedLayout.get_default_for(q_block, gdt)
    kv_layout = gl.NVMMASharedLayout.get_default_for(kv_block, gdt)

    def desc(t: torch.Tensor, block: list[int], layout) -> TensorDescriptor:
        return TensorDescriptor(t, list(t.shape), list(t.stride()), block, layout)

    return (desc(q, q_block, q_layout), desc(k, kv_block, kv_layout),
            desc(v, kv_block, kv_layout), desc(o, q_block, q_layout))


def _check(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, alignment: str,
           scale: float | None = None) -> None:
    # A zero scale would turn masked scores (infinite) into NaN.
    if scale is not None and (isinstance(scale, bool) or not isinstance(scale, int | float)
                              or not math.isfinite(scale) or scale == 0):
        raise ValueError(f"scale: expected a finite non-zero number or None, got {scale!r}")
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor) or t.dim() != 4:
            raise TypeError(f"{name}: expected a 4-D (B, H, S, D) tensor")
        if t.dtype not in (torch.bfloat16, torch.float16) or t.dtype != q.dtype:
            raise ValueError(f"{name}: expected bfloat16 or float16, as q is; got {t.dtype}")
        # TMA: unit last stride, the others whole 16-byte multiples (so no
        # broadcast dims), a 16-byte aligned base.
        outer = t.stride()[:-1]
        if (t.stride(-1) != 1 or any(st == 0 or st * t.element_size() % 16 for st in outer)
                or t.data_ptr() % 16):
            raise ValueError(f"{name}: strides {tuple(t.stride())} do not suit TMA "
                             "(last stride 1, others non-zero multiples of 16 bytes, base "
                             "16-byte aligned)")
    b, h, _, d = q.shape
    if (d != 128 or k.shape[0] != b or k.shape[-1] != d or v.shape != k.shape or k.shape[1] < 1
            or h % k.shape[1]):
        raise ValueError(f"q, k, v: expected D = Dv = 128, one batch, Hq a multiple of Hkv; got "
                         f"q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}")
    if b * h > 65535:
        raise ValueError(f"q: B * Hq = {b * h} exceeds the grid's 65535 (batch, head) programs")
    if alignment not in ("bottom_right", "top_left"):
        raise ValueError(f"alignment: expected 'bottom_right' or 'top_left', got {alignment!r}")


def launch_args(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor,
                lse: torch.Tensor, *, alignment: str = "bottom_right",
                scale: float | None = None, p_shift: float = 0.0):
    """(grid, arguments) up to the constexprs, and whether the scale is negative."""
    _check(q, k, v, alignment, scale)
    b, h, sq, d = q.shape
    sk = k.shape[2]
    off = sk - sq if alignment == "bottom_right" else 0
    scale = d**-0.5 if scale is None else float(scale)
    grid = (triton.cdiv(sq, BLOCK_M.value), b * h)
    args = (*descriptors(q, k, v, o), lse, sq, sk, h, h // k.shape[1], off, scale * LOG2E,
            p_shift)
    return grid, args, scale < 0


# (CAUSAL, PIPELINE, STAGES) of each version timed (NOTES, g3).
VERSIONS = {"plain": (False, False, 2), "causal": (True, False, 2),
            "pipelined": (False, True, 3), "pipelined causal": (True, True, 3)}


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool = False,
              scale: float | None = None, alignment: str = "bottom_right",
              return_lse: bool = False, pipeline: bool = False,
              stages: int = 2) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(scale * Q K^T) V per (batch, head) (scale 1/sqrt(D) by default),
    GQA by head mapping; ``causal`` with the diagonal at ``alignment``; rows
    that see no key get 0 (and an LSE of -inf).  The harness's ``attnfuzz``
    convention."""
    from attnfuzz.kernels.flash import weight_shift

    for name, flag in (("causal", causal), ("return_lse", return_lse), ("pipeline", pipeline)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name}: expected a bool, got {flag!r}")
    if type(stages) is not int or stages not in (2, 3):  # 4 stages exceed shared memory
        raise ValueError(f"stages: expected 2 or 3, got {stages!r}")
    _check(q, k, v, alignment, scale)
    if not (q.is_cuda and q.device == k.device == v.device):
        raise ValueError(f"q, k, v: expected one CUDA device, got {q.device}, {k.device}, "
                         f"{v.device}")
    b, h, sq, _ = q.shape
    o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    lse = torch.full((b, h, sq), float("-inf"), dtype=torch.float32, device=q.device)
    if o.numel() and k.shape[2] == 0:
        o.zero_()
    elif o.numel():
        grid, args, neg = launch_args(q, k, v, o, lse, alignment=alignment, scale=scale,
                                      p_shift=weight_shift(v.dtype, k.shape[2]))
        _attention_kernel[grid](*args, causal, pipeline, stages, neg, return_lse,
                                num_warps=4, maxnreg=168)
    return (o, lse) if return_lse else o


def attention_pipelined(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, **options: object):
    """``attention`` with the pipelined consumer loop and 3 stages, to fuzz by name."""
    return attention(q, k, v, pipeline=True, stages=3, **options)


def compile_sm90(version: str = "plain", scale: float | None = None) -> dict:
    """Compile ``version`` for sm_90 without a GPU: registers, shared memory
    and a census of the SASS instructions that make it warp specialised."""
    import collections
    import re

    from triton.backends.compiler import GPUTarget
    from triton.compiler import make_backend
    from triton.experimental.gluon._runtime import GluonASTSource
    from triton.runtime.jit import create_function_from_signature

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from sm90_codegen import SM90, read_cubin

    target = GPUTarget(*SM90)
    backend = make_backend(target)
    q = torch.empty(1, 2, 256, 128, dtype=torch.bfloat16)
    k = torch.empty(1, 1, 256, 128, dtype=torch.bfloat16)
    lse = torch.empty(1, 2, 256, dtype=torch.float32)
    _, args, neg = launch_args(q, k, k, torch.empty_like(q), lse, scale=scale)
    kernel = _attention_kernel
    kwargs = {"num_warps": 4, "maxnreg": 168}
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*args, *VERSIONS[version], neg, True, **kwargs)
    options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound,
                                                              specialization, options)
    compiled = triton.compile(GluonASTSource(kernel, signature, constexprs, attrs), target=target,
                              options=options.__dict__)
    usage, sass = read_cubin(compiled)
    ops = collections.Counter(re.findall(r"\b([A-Z][A-Z0-9]+)(?:\.[A-Z0-9.]+)?\b", sass))
    return {**usage,
            **{op: ops[op] for op in ("HGMMA", "UTMALDG", "USETMAXREG", "SYNCS", "BAR", "MUFU")}}


def _time_ms(fn) -> float:
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def _visible_pairs(sq: int, sk: int, causal: bool) -> int:
    if not causal:
        return sq * sk
    rows = torch.arange(sq, dtype=torch.int64) + (sk - sq)  # bottom-right diagonal
    return int((rows + 1).clamp(0, sk).sum())


def _max_err(got: torch.Tensor, ref: torch.Tensor) -> float:
    """max |got - ref|, equal infinities (an LSE of -inf) counting as 0."""
    got, ref = got.float(), ref.float()
    same = (got == ref) | (torch.isnan(got) & torch.isnan(ref))
    return float(torch.where(same, 0.0, (got - ref).abs().nan_to_num(float("inf"))).max())


def _point(dtype: torch.dtype, sq: int, sk: int, causal: bool, flash_attention) -> bool:
    """Each version of this causality at one point: its error (output and
    LSE) against the fp32 answer and its time against the Triton kernel's and
    cuDNN's."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(4, 16, sq, 128, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(4, 8, sk, 128, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(4, 8, sk, 128, device="cuda", dtype=dtype, generator=g)
    ref, ref_lse = flash_attention(q.float(), k.float(), v.float(), causal=causal,
                                   return_lse=True)
    ours, ours_lse = flash_attention(q, k, v, causal=causal, return_lse=True)
    err_triton, lse_err_triton = _max_err(ours, ref), _max_err(ours_lse, ref_lse)

    def cudnn():
        # SDPA's causal diagonal is top-left: the same as ours only when Sq == Sk.
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)

    t_triton = _time_ms(lambda: flash_attention(q, k, v, causal=causal))
    t_cudnn = _time_ms(cudnn) if sq == sk else float("nan")
    flops = 4 * 128 * 4 * 16 * _visible_pairs(sq, sk, causal)
    all_ok = True
    for name, (c, pipeline, stages) in VERSIONS.items():
        if c != causal:
            continue

        def run(pipeline=pipeline, stages=stages, return_lse=False):
            return attention(q, k, v, causal=causal, pipeline=pipeline, stages=stages,
                             return_lse=return_lse)

        got, got_lse = run(return_lse=True)
        err, lse_err = _max_err(got, ref), _max_err(got_lse, ref_lse)
        # The same arithmetic as the Triton kernel (fp32 scores and sums,
        # 16-bit P), in another order: its errors should be of the same size.
        ok = err <= 2 * err_triton + 1e-3 and lse_err <= 2 * lse_err_triton + 1e-4
        all_ok &= ok
        ms = _time_ms(run)
        print(f"{name:<17} {str(dtype)[6:]:<9} Sq={sq:<6} Sk={sk:<6} max|err| {err:.2e} "
              f"(triton {err_triton:.2e}) lse {lse_err:.1e} ({lse_err_triton:.1e}) "
              f"{'ok' if ok else 'WRONG'}  {ms:.3f} ms {flops / ms / 1e9:.0f} TFLOP/s"
              f"  vs triton {t_triton / ms:.2f}x  vs cuDNN {t_cudnn / ms:.2f}x", flush=True)
    return all_ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compile", action="store_true", help="compile for sm_90 only (no GPU)")
    p.add_argument("--version", default="plain", choices=list(VERSIONS),
                   help="with --compile: which version (default plain)")
    p.add_argument("--scale", type=float, default=None,
                   help="with --compile: the scale (a negative one compiles the NEG path)")
    args = p.parse_args(argv)
    if args.compile:
        print(json.dumps(compile_sm90(args.version, args.scale)))
        return 0
    if not torch.cuda.is_available():
        print("no CUDA device: run with --compile, or on a Hopper GPU")
        return 2
    sys.path.insert(0, str(ROOT))
    from attnfuzz.kernels import flash_attention

    # Sq = Sk points against cuDNN; the ragged, unequal ones check the edges.
    points = [(torch.bfloat16, 1024, 1024), (torch.bfloat16, 4096, 4096),
              (torch.bfloat16, 16384, 16384), (torch.float16, 4096, 4096),
              (torch.bfloat16, 1000, 1531), (torch.float16, 1531, 1000), (torch.bfloat16, 1, 77)]
    ok = True
    for dtype, sq, sk in points:
        for causal in (False, True):
            ok &= _point(dtype, sq, sk, causal, flash_attention)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
