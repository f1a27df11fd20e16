"""A Hopper prefill in Gluon, warp specialised as FlashAttention-3 is: a probe.

Probes a1-a2 (``NOTES.md``) found the Triton kernel's softmax beside its
GEMMs, not under them: its one program of two warpgroups moves in lock step.
Here each program has three partitions: a producer warp that issues TMA
loads of Q once and of K and V into a ring of shared-memory stages, and two
consumer warpgroups of 64 query rows each, which run their GEMMs and
softmax independently, so the warp scheduler can put one's softmax under the
other's wgmma.  Registers move from the producer to the consumers
(``setmaxnreg`` through ``warp_specialize``'s register counts).

The probe's contract is narrow on purpose: contiguous (B, H, S, D) tensors
in 16-bit dtypes, Sq = Sk = S a multiple of 128, D = Dv = 128, GQA by head
mapping, causal or not.  It is not wired into ``flash_attention``.  Its
versions (``VERSIONS``; ``benchmarks/NOTES.md``, g1-g2) are options of one
kernel: causal masking, and a consumer loop that overlaps each block's
softmax with the previous block's P @ V.

    python benchmarks/gluon_prefill.py              # on an H100/H200: check, then time
    python benchmarks/gluon_prefill.py --compile [--version V]   # sm_90 code, no GPU
"""

from __future__ import annotations

import argparse
import json
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


@gluon.jit
def _producer(q_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, q_row, kv_row, n_blocks,
              qk_scale, HALF: gl.constexpr, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr):
    """One warp: Q's two halves once, then K and V block by block into the ring."""
    q_bar, k_ready, v_ready, kv_empty = bars
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    mbarrier.expect(q_bar, 2 * q_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(q_desc, [q_row, 0], q_bar, q_smem.index(0))
    tma.async_copy_global_to_shared(q_desc, [q_row + HALF_M, 0], q_bar, q_smem.index(1))
    for j in range(n_blocks):
        s = j % STAGES
        phase = (j // STAGES) & 1
        # A fresh mbarrier counts as having completed phase 1: the first
        # STAGES waits pass at once.
        mbarrier.wait(kv_empty.index(s), phase ^ 1)
        mbarrier.expect(k_ready.index(s), k_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(k_desc, [kv_row + j * BLOCK_N, 0], k_ready.index(s),
                                        k_bufs.index(s))
        mbarrier.expect(v_ready.index(s), v_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(v_desc, [kv_row + j * BLOCK_N, 0], v_ready.index(s),
                                        v_bufs.index(s))


@gluon.jit
def _scores_masked(qk, j, n_blocks, HALF: gl.constexpr, CAUSAL: gl.constexpr):
    """Causal: the last key block is the diagonal one (BLOCK_N == BLOCK_M and
    Sq == Sk), where key c of the block is visible to local row r iff c <= r."""
    if CAUSAL:
        if j == n_blocks - 1:
            layout: gl.constexpr = qk.type.layout
            rows = gl.arange(0, HALF_M, gl.SliceLayout(1, layout)) + HALF * HALF_M
            cols = gl.arange(0, BLOCK_N, gl.SliceLayout(0, layout))
            visible = gl.expand_dims(cols, 0) <= gl.expand_dims(rows, 1)
            qk = gl.where(visible, qk, float("-inf"))
    return qk


@gluon.jit
def _consume(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, n_blocks, qk_scale, m_i, l_i, acc,
             zero_s, p_layout: gl.constexpr, HALF: gl.constexpr, CAUSAL: gl.constexpr):
    """Each block in turn: scores, wait, softmax, P @ V, wait."""
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    o_rows: gl.constexpr = gl.SliceLayout(1, acc.type.layout)
    for j in range(n_blocks):
        s = j % STAGES
        phase = (j // STAGES) & 1
        mbarrier.wait(k_ready.index(s), phase)
        qk = warpgroup_mma(q, k_bufs.index(s).permute((1, 0)), zero_s, use_acc=False,
                           is_async=True)
        qk = warpgroup_mma_wait(num_outstanding=0, deps=(qk,))
        qk = _scores_masked(qk, j, n_blocks, HALF, CAUSAL)
        m_new = gl.maximum(m_i, gl.max(qk, axis=1) * qk_scale)
        p = gl.exp2(qk * qk_scale - gl.expand_dims(m_new, 1))
        alpha = gl.exp2(m_i - m_new)
        l_i = l_i * alpha + gl.sum(p, axis=1)
        m_i = m_new
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
        mbarrier.wait(v_ready.index(s), phase)
        acc = warpgroup_mma(p16, v_bufs.index(s), acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(s), count=1)
    return acc, l_i


@gluon.jit
def _consume_pipelined(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, n_blocks, qk_scale, m_i,
                       l_i, acc, zero_s, p_layout: gl.constexpr, HALF: gl.constexpr,
                       CAUSAL: gl.constexpr):
    """Block j's scores are issued before block j-1's P @ V, and block j's
    softmax runs while that P @ V is in flight (FlashAttention-3's overlap
    within a warpgroup); wgmma groups complete in order, so waiting for all
    but one leaves exactly the P @ V running."""
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    o_rows: gl.constexpr = gl.SliceLayout(1, acc.type.layout)
    mbarrier.wait(k_ready.index(0), 0)
    qk = warpgroup_mma(q, k_bufs.index(0).permute((1, 0)), zero_s, use_acc=False, is_async=True)
    qk = warpgroup_mma_wait(num_outstanding=0, deps=(qk,))
    qk = _scores_masked(qk, 0, n_blocks, HALF, CAUSAL)
    m_i = gl.max(qk, axis=1) * qk_scale
    p = gl.exp2(qk * qk_scale - gl.expand_dims(m_i, 1))
    l_i = gl.sum(p, axis=1)
    p16 = gl.convert_layout(p.to(q.dtype), p_layout)
    for j in range(1, n_blocks):
        s = j % STAGES
        phase = (j // STAGES) & 1
        prev = (j - 1) % STAGES
        mbarrier.wait(k_ready.index(s), phase)
        qk = warpgroup_mma(q, k_bufs.index(s).permute((1, 0)), zero_s, use_acc=False,
                           is_async=True)
        mbarrier.wait(v_ready.index(prev), ((j - 1) // STAGES) & 1)
        acc = warpgroup_mma(p16, v_bufs.index(prev), acc, is_async=True)
        qk = warpgroup_mma_wait(num_outstanding=1, deps=(qk,))
        qk = _scores_masked(qk, j, n_blocks, HALF, CAUSAL)
        m_new = gl.maximum(m_i, gl.max(qk, axis=1) * qk_scale)
        p = gl.exp2(qk * qk_scale - gl.expand_dims(m_new, 1))
        alpha = gl.exp2(m_i - m_new)
        l_i = l_i * alpha + gl.sum(p, axis=1)
        m_i = m_new
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(prev), count=1)
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        # Only now: the P @ V just waited for read the previous P's registers.
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
    last = (n_blocks - 1) % STAGES
    mbarrier.wait(v_ready.index(last), ((n_blocks - 1) // STAGES) & 1)
    acc = warpgroup_mma(p16, v_bufs.index(last), acc, is_async=True)
    acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    mbarrier.arrive(kv_empty.index(last), count=1)
    return acc, l_i


@gluon.jit
def _consumer(q_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, q_row, kv_row, n_blocks,
              qk_scale, HALF: gl.constexpr, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr):
    """One warpgroup: 64 query rows over every key block they see, then their
    output tile (through ``q_desc``, which has the output's block shape)."""
    q_bar, k_ready, v_ready, kv_empty = bars
    HEAD_D: gl.constexpr = q_desc.block_type.shape[1]
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
    q = q_smem.index(HALF)
    mbarrier.wait(q_bar, 0)
    if PIPELINE:
        acc, l_i = _consume_pipelined(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, n_blocks,
                                      qk_scale, m_i, l_i, acc, zero_s, p_layout, HALF, CAUSAL)
    else:
        acc, l_i = _consume(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, n_blocks, qk_scale,
                            m_i, l_i, acc, zero_s, p_layout, HALF, CAUSAL)
    out = acc / gl.expand_dims(gl.convert_layout(l_i, o_rows), 1)
    # Q's tile is done with: the output leaves through it.
    q.store(out.to(q_desc.dtype))
    fence_async_shared()
    tma.async_copy_shared_to_global(q_desc, [q_row + HALF * HALF_M, 0], q)
    tma.store_wait(pendings=0)


@gluon.jit
def _attention_kernel(q_desc, k_desc, v_desc, o_desc, S, H, GROUP, HKV, qk_scale,
                      CAUSAL: gl.constexpr, PIPELINE: gl.constexpr, STAGES: gl.constexpr):
    pid_m = gl.program_id(0)
    if CAUSAL:  # the heaviest row tiles first, to even out the tail
        pid_m = gl.num_programs(0) - 1 - pid_m
    pid_bh = gl.program_id(1)
    batch = pid_bh // H
    kv_head = (pid_bh % H) // GROUP
    q_row = pid_bh * S + pid_m * BLOCK_M
    kv_row = (batch * HKV + kv_head) * S
    n_blocks = S // BLOCK_N
    if CAUSAL:
        n_blocks = pid_m + 1  # BLOCK_N == BLOCK_M: the diagonal block is the last

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
        (_consumer, (o_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, q_row, kv_row,
                     n_blocks, qk_scale, 0, CAUSAL, PIPELINE)),
        (_consumer, (o_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, q_row, kv_row,
                     n_blocks, qk_scale, 1, CAUSAL, PIPELINE)),
        (_producer, (q_desc, k_desc, v_desc, q_smem, k_bufs, v_bufs, bars, q_row, kv_row,
                     n_blocks, qk_scale, 0, CAUSAL, PIPELINE)),
    ], [4, 1], [240, 24])


def descriptors(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor):
    gdt = {torch.bfloat16: gl.bfloat16, torch.float16: gl.float16}[q.dtype]
    d = q.shape[-1]
    half, block_n = HALF_M.value, BLOCK_N.value
    q_layout = gl.NVMMASharedLayout.get_default_for([half, d], gdt)
    kv_layout = gl.NVMMASharedLayout.get_default_for([block_n, d], gdt)

    def desc(t: torch.Tensor, block: list[int], layout) -> TensorDescriptor:
        flat = t.view(-1, d)
        return TensorDescriptor(flat, list(flat.shape), list(flat.stride()), block, layout)

    return (desc(q, [half, d], q_layout), desc(k, [block_n, d], kv_layout),
            desc(v, [block_n, d], kv_layout), desc(o, [half, d], q_layout))


def launch_args(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor):
    b, h, s, d = q.shape
    hkv = k.shape[1]
    block_m = BLOCK_M.value
    # TMA reads each tensor as rows of D through a flat (B * H * S, D) view,
    # which only means (batch, head, position) for contiguous tensors.
    if not all(t.is_contiguous() for t in (q, k, v, o)):
        raise ValueError("q, k, v: expected contiguous (B, H, S, D) tensors")
    if (d != 128 or s % block_m or k.shape != (b, hkv, s, d) or v.shape != k.shape
            or h % hkv or q.dtype not in (torch.bfloat16, torch.float16)
            or k.dtype != q.dtype or v.dtype != q.dtype):
        raise ValueError(f"q, k, v: expected D = 128, Sq = Sk a multiple of {block_m}, Hq a "
                         f"multiple of Hkv, one 16-bit dtype; got q {tuple(q.shape)} {q.dtype}, "
                         f"k {tuple(k.shape)} {k.dtype}, v {tuple(v.shape)} {v.dtype}")
    grid = (s // block_m, b * h)
    return grid, (*descriptors(q, k, v, o), s, h, h // hkv, hkv, d**-0.5 * LOG2E)


# (CAUSAL, PIPELINE, STAGES) of each measured or planned version (NOTES, g1-g2).
VERSIONS = {"g1": (False, False, 2), "g1 causal": (True, False, 2),
            "g2": (False, True, 3), "g2 causal": (True, True, 3)}


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool = False,
              pipeline: bool = False, stages: int = 2) -> torch.Tensor:
    o = torch.empty_like(q)
    grid, args = launch_args(q, k, v, o)
    _attention_kernel[grid](*args, causal, pipeline, stages, num_warps=4, maxnreg=168)
    return o


def compile_sm90(version: str = "g1") -> dict:
    """Compile ``version`` for sm_90 without a GPU: registers, shared memory
    and a census of the SASS instructions that make it warp specialised."""
    import collections
    import re
    import subprocess
    import tempfile

    from triton.backends.compiler import GPUTarget
    from triton.compiler import make_backend
    from triton.experimental.gluon._runtime import GluonASTSource
    from triton.runtime.jit import create_function_from_signature

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from sm90_codegen import SM90, _tool

    target = GPUTarget(*SM90)
    backend = make_backend(target)
    q = torch.empty(1, 2, 256, 128, dtype=torch.bfloat16)
    k = torch.empty(1, 1, 256, 128, dtype=torch.bfloat16)
    _, args = launch_args(q, k, k, torch.empty_like(q))
    kernel = _attention_kernel
    kwargs = {"num_warps": 4, "maxnreg": 168}
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*args, *VERSIONS[version], **kwargs)
    options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound,
                                                              specialization, options)
    compiled = triton.compile(GluonASTSource(kernel, signature, constexprs, attrs), target=target,
                              options=options.__dict__)
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "kernel.cubin"
        cubin.write_bytes(compiled.asm["cubin"])
        usage = subprocess.run([_tool("cuobjdump"), "-res-usage", str(cubin)],
                               capture_output=True, text=True, check=True).stdout
        sass = subprocess.run([_tool("nvdisasm"), "-c", str(cubin)],
                              capture_output=True, text=True, check=True).stdout
    words = re.findall(r"\b([A-Z][A-Z0-9]+)(?:\.[A-Z0-9.]+)?\b", sass)
    ops = collections.Counter(words)
    found = re.search(r"REG:(\d+)\s+STACK:(\d+)", usage)
    if found is None:
        raise RuntimeError(f"cannot read cuobjdump's resource usage:\n{usage}")
    return {"registers": int(found[1]), "stack_bytes": int(found[2]),
            "shared_bytes": compiled.metadata.shared,
            **{op: ops[op] for op in ("HGMMA", "UTMALDG", "USETMAXREG", "SYNCS", "BAR", "MUFU")}}


def _time_ms(fn) -> float:
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def _point(dtype: torch.dtype, s: int, causal: bool, flash_attention) -> bool:
    """Each version of this causality at one point: its error against the
    fp32 answer and its time against the Triton kernel's and cuDNN's."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(4, 16, s, 128, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(4, 8, s, 128, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(4, 8, s, 128, device="cuda", dtype=dtype, generator=g)
    ref = flash_attention(q.float(), k.float(), v.float(), causal=causal)
    err_triton = (flash_attention(q, k, v, causal=causal).float() - ref).abs().max().item()

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)

    t_triton = _time_ms(lambda: flash_attention(q, k, v, causal=causal))
    t_cudnn = _time_ms(cudnn)
    flops = 4 * 128 * s * s * 4 * 16 / (2 if causal else 1)
    all_ok = True
    for name, (c, pipeline, stages) in VERSIONS.items():
        if c != causal:
            continue

        def run(pipeline=pipeline, stages=stages):
            return attention(q, k, v, causal=causal, pipeline=pipeline, stages=stages)

        err = (run().float() - ref).abs().max().item()
        # The same arithmetic as the Triton kernel (fp32 scores and sums,
        # 16-bit P), in another order: its error should be of the same size.
        ok = err <= 2 * err_triton + 1e-3
        all_ok &= ok
        ms = _time_ms(run)
        print(f"{name:<10} {str(dtype)[6:]:<9} S={s:<6} max|err| {err:.2e} (triton "
              f"{err_triton:.2e}) {'ok' if ok else 'WRONG'}  {ms:.3f} ms "
              f"{flops / ms / 1e9:.0f} TFLOP/s  vs triton {t_triton / ms:.2f}x"
              f"  vs cuDNN {t_cudnn / ms:.2f}x", flush=True)
    return all_ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compile", action="store_true", help="compile for sm_90 only (no GPU)")
    p.add_argument("--version", default="g1", choices=list(VERSIONS),
                   help="with --compile: which version (default g1)")
    args = p.parse_args(argv)
    if args.compile:
        print(json.dumps(compile_sm90(args.version)))
        return 0
    if not torch.cuda.is_available():
        print("no CUDA device: run with --compile, or on a Hopper GPU")
        return 2
    sys.path.insert(0, str(ROOT))
    from attnfuzz.kernels import flash_attention

    points = [(torch.bfloat16, 1024), (torch.bfloat16, 4096), (torch.bfloat16, 16384),
              (torch.float16, 4096)]
    ok = True
    for dtype, s in points:
        for causal in (False, True):
            ok &= _point(dtype, s, causal, flash_attention)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
