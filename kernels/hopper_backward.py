"""The backward on Hopper (sm_90), in Gluon: warp specialised as the Hopper forward is.

The portable backward (``flash_backward.py``) runs each program as one group
of warps in lock step: a block's score GEMMs, its exponentials and its
gradient GEMMs follow one another, and the tensor cores wait while the
program computes P and dS.  Here each of the two kernels has three
partitions, as ``hopper_prefill.py`` has: a producer warp that loads tiles
with TMA into a ring of shared-memory stages guarded by mbarriers (ready:
the bytes landed; empty: both consumers are done with the stage), and two
consumer warpgroups whose GEMMs (``wgmma``) are asynchronous, so that while
one computes P and dS the other's GEMMs keep the tensor cores busy.

- dQ, first: a program holds 128 query rows of one (batch, head), 64 per
  consumer, with their dQ in fp32 registers; the producer loads Q and dO
  once, then K and V block by block (64 keys).  A consumer first forms its
  rows' delta = rowsum(dO * O) and base-2 LSE and stores them for the dK/dV
  kernel (so no preprocessing kernel runs), then per key block
  S = Q K^T, dP = dO V^T, P, dS = P (dP - delta), dQ += dS K, with block
  j's S and dP issued before block j-1's dS K: that GEMM runs under block
  j's exponentials (FlashAttention-3's overlap within a warpgroup).

- dK and dV: a program holds 128 keys of one (batch, KV head), 64 per
  consumer, with their dK and dV in fp32 registers; the producer loads K
  and V once, then Q, dO and the rows' lse2 and delta of each query block
  (64 rows) of each query head of the GQA group.  Per query block a
  consumer runs

      S^T  = K Q^T                                   (64 keys x 64 rows)
      dP^T = V dO^T
      P^T  = exp2(S^T * scale * log2 e - lse2)       (0 where masked)
      dV  += P^T dO                                  (P^T from registers)
      dS^T = P^T (dP^T - delta)
      dK  += dS^T Q

Two kernels, because dK and dV sum over query rows and dQ over keys: each
gradient element is summed by one program in a fixed order, with no
atomics, so reruns are bit-identical (the price: P and dS computed twice).

The arithmetic is the portable kernel's (``flash_backward``'s docstring):
delta in fp32 from the output the forward returned, the base-2 LSE (+inf
for a row that sees no key), one rounding for the exponent (an fma), P and
dS rounded to the inputs' dtype before their GEMMs, fp32 sums, the scale
applied to dK and dQ once at the end.  The sums run in another order, so
the bits differ from the portable kernel's, but not with the layout: TMA
puts every layout into shared memory the same way.  Rows past Sq read as
zeros with an LSE of +inf (p = 0); keys past Sk read as zeros, reach only
dK and dV rows that are never stored, and are masked out of dQ.

Fused (``launch_hopper_backward``'s choice from 2k keys where all its
programs fit at once: ``FUSED_MIN_KEYS``, ``fuses``), the dK/dV kernel also
forms dQ: each consumer stores its dS^T in shared memory, forms dQ's 64 columns
of its half of D over both halves' keys (dQ += dS K), and stores them into
a shared fp32 tile of the step's 64 rows, and goes on.  A fourth
partition, a writer warp, adds the tile into dQ's fp32 sums in global
memory with TMA's reduce-add, which runs in L2 and takes neither the
consumers' registers nor their time.  The key blocks add into a query
block one after another in a fixed order (``_visit``'s rank), each waiting
for the block's semaphore to count its rank, so the bits are again the same
on every run; a last pass scales the sums and casts them to dQ.  Five
GEMMs a step instead of seven.

It computes what the Hopper forward computes (``hopper_prefill.refusal``):
D = Dv = 128 in fp16 and bf16, any Sq and Sk, GQA, causal at either
alignment, any scale, no window.
"""

from __future__ import annotations

import functools

import torch
from triton._C.libtriton import ir
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._core import builtin
from triton.experimental.gluon.language.nvidia.hopper import (
    fence_async_shared,
    mbarrier,
    tma,
    warpgroup_mma,
    warpgroup_mma_wait,
)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

from ._checks import AttentionDims
from ._launch import HostDescriptor, LaunchCache, num_sms
from ._tiles import LOG2E
from .hopper_prefill import HEAD_DIM, _layout, _tma_ready

BLOCK_N = gl.constexpr(128)  # a program's keys: two consumers of 64
HALF_N = gl.constexpr(64)
BLOCK_M = gl.constexpr(64)  # query rows a step
_LOG2E = gl.constexpr(LOG2E)
_D = gl.constexpr(HEAD_DIM)  # D = Dv


# --------------------------------------------------------------------------
# dK and dV (and, fused, dQ): a program per 128 keys, walking the query
# blocks that see them
# --------------------------------------------------------------------------


@gluon.jit
def _visit(it, n, N, P, GROUP, Sq, DIAG, m_lo, n_m, CAUSAL: gl.constexpr, FUSED: gl.constexpr):
    """Step ``it`` of key block ``n``: (head of the group, query block,
    rank).  Fused, the rank orders the key blocks that add into a
    query block's dQ, each after the one before it.

    Causal, or not fused: the query blocks from the first that sees the keys
    upward, head by head.  A query block's adders run from the last key
    block it sees down to block 0: block n's predecessor, n + 1, reached the
    query block two steps earlier.  Fused and not causal: block n walks the
    pairs of query blocks (128 rows) down from pair n, wrapping, so that the
    programs of a KV head start each on its own pair; pair p's adders are
    p, p + 1, ... wrapping within the N key blocks (p < N), or 0, 1, ...
    (p >= N), each one pair of steps before its successor.  A pair's second
    block past Sq is a step with no rows."""
    if CAUSAL or not FUSED:
        g = it // n_m
        m = m_lo + it % n_m
        last_row = gl.minimum(m * BLOCK_M + BLOCK_M - 1, Sq - 1)
        rank = gl.minimum(N - 1, (last_row + DIAG) // BLOCK_N) - n
    else:
        pair = it // (2 * GROUP)
        g = (it // 2) % GROUP
        p = (n - pair + P) % P
        m = 2 * p + it % 2
        rank = n
        if p < N:
            rank = (n - p + N) % N
    return g, m, rank


@gluon.jit
def _dkdv_producer(q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs, stat_bufs,
                   bars, sched, lse2_ptr, delta_ptr, CAUSAL: gl.constexpr, FUSED: gl.constexpr):
    """One warp: the program's K and V (two halves of 64 keys), then Q, dO
    and the rows' lse2 and delta of every step into the ring (a fresh
    mbarrier counts as having completed phase 1: the first wait for a free
    stage passes at once).  A step's Q is ready once its TMA bytes landed and
    the warp stored the statistics: two arrivals."""
    kv_ready, q_ready, do_ready, empty = bars[0], bars[1], bars[2], bars[3]
    batch, kv_head, n, N, P, m_lo, n_m, GROUP, Sq, Sk, HKV, DIAG = sched
    STAGES: gl.constexpr = q_bufs.type.shape[0]
    row_layout: gl.constexpr = gl.BlockedLayout([2], [32], [1], [0])
    stats0 = (batch * HKV + kv_head).to(gl.int64) * GROUP * Sq
    mbarrier.expect(kv_ready, 2 * k_desc.block_type.nbytes + 2 * v_desc.block_type.nbytes)
    for h in gl.static_range(2):
        tma.async_copy_global_to_shared(k_desc, [batch, kv_head, n * BLOCK_N + h * HALF_N, 0],
                                        kv_ready, k_smem.index(h))
        tma.async_copy_global_to_shared(v_desc, [batch, kv_head, n * BLOCK_N + h * HALF_N, 0],
                                        kv_ready, v_smem.index(h))
    for it in range(GROUP * n_m):
        g, m, rank = _visit(it, n, N, P, GROUP, Sq, DIAG, m_lo, n_m, CAUSAL, FUSED)
        head = kv_head * GROUP + g
        m0 = m * BLOCK_M
        s = it % STAGES
        mbarrier.wait(empty.index(s), ((it // STAGES) & 1) ^ 1)
        mbarrier.expect(q_ready.index(s), q_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(q_desc, [batch, head, m0, 0], q_ready.index(s),
                                        q_bufs.index(s))
        mbarrier.expect(do_ready.index(s), do_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(do_desc, [batch, head, m0, 0], do_ready.index(s),
                                        do_bufs.index(s))
        # Rows past Sq: +inf like a row that sees no key, so p = 0 there.
        rows = m0 + gl.arange(0, BLOCK_M, row_layout)
        stats = stats0 + g * Sq + rows
        stat_bufs.index(2 * s).store(
            gl.load(lse2_ptr + stats, mask=rows < Sq, other=float("inf")))
        stat_bufs.index(2 * s + 1).store(gl.load(delta_ptr + stats, mask=rows < Sq, other=0.0))
        mbarrier.arrive(q_ready.index(s), count=1)


@gluon.jit
def _store_rows(acc, ptr, bh, row0, n, col0):
    """64 rows from ``row0`` of head ``bh`` (batch * heads + head) from
    registers into the dense (B, H, n, 128) ``ptr``, at columns ``col0``..;
    rows past ``n`` are dropped."""
    layout: gl.constexpr = acc.type.layout
    rows = gl.expand_dims(row0 + gl.arange(0, 64, gl.SliceLayout(1, layout)), 1)
    cols = gl.expand_dims(col0 + gl.arange(0, acc.type.shape[1], gl.SliceLayout(0, layout)), 0)
    base = ptr + bh.to(gl.int64) * n * _D
    gl.store(base + rows * _D + cols, acc.to(ptr.dtype.element_ty),
             mask=(rows < n) & (cols < _D))


@gluon.jit
def _proxy_fence(x):
    """Orders this thread's global accesses through the generic proxy (the
    semaphores) and through the async proxy (TMA); returns ``x``."""
    return gl.inline_asm_elementwise("fence.proxy.async.global; mov.u32 $0, $1;", "=r,r", [x],
                                     dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _bulk_written(x):
    """Waits until this thread's TMA stores are written, not only read from
    shared memory (``tma.store_wait``); returns ``x``."""
    return gl.inline_asm_elementwise("cp.async.bulk.wait_group 0; mov.u32 $0, $1;", "=r,r", [x],
                                     dtype=gl.int32, is_pure=False, pack=1)


@gluon.jit
def _semaphore(sem_ptr, sched, head, m):
    """The semaphore of query block ``m`` of query head ``head``: after the
    ticket counter, one per query block of a pair-padded (B, Hq, 2 P)."""
    batch, kv_head, n, N, P, m_lo, n_m, GROUP, Sq, Sk, HKV, DIAG = sched
    return sem_ptr + 1 + ((batch * HKV * GROUP + head) * 2 * P + m)


@builtin
def _tma_reduce_add(tensor_desc, coord, src, _semantic=None):
    """TMA's reduce-add of the shared ``src`` into the block of
    ``tensor_desc`` at ``coord`` (``cp.reduce.async.bulk.tensor``): the
    Gluon builder makes it, Triton 3.6's hopper module does not name it."""
    coord = _semantic._convert_to_ir_values(coord, require_i64=False)
    _semantic.builder.create_async_tma_reduce(ir.DESCRIPTOR_REDUCE_KIND.ADD, tensor_desc.handle,
                                              coord, src.handle)


@gluon.jit
def _dq_out(it, acc_desc, acc_smem, bars, sched, sem_ptr, CAUSAL: gl.constexpr):
    """Step ``it``'s fp32 tile, once both consumers stored their halves,
    into dQ's sums in global memory: stored by the first adder, added by
    each after it once the block's semaphore counts the step's rank; then,
    the sum written, the semaphore counted on."""
    acc_free, acc_done = bars[5], bars[6]
    batch, kv_head, n, N, P, m_lo, n_m, GROUP, Sq, Sk, HKV, DIAG = sched
    SLOTS: gl.constexpr = acc_smem.type.shape[0]
    g, m, rank = _visit(it, n, N, P, GROUP, Sq, DIAG, m_lo, n_m, CAUSAL, True)
    slot = it % SLOTS
    head = kv_head * GROUP + g
    sem = _semaphore(sem_ptr, sched, head, m)
    mbarrier.wait(acc_done.index(slot), (it // SLOTS) & 1)
    if rank == 0:
        tma.async_copy_shared_to_global(acc_desc, [batch, head, m * BLOCK_M, 0],
                                        acc_smem.index(slot))
    else:
        seen = gl.atomic_add(sem, 0, sem="acquire", scope="gpu")
        while seen != rank:
            seen = gl.atomic_add(sem, 0, sem="acquire", scope="gpu")
        _proxy_fence(seen)
        _tma_reduce_add(acc_desc, [batch, head, m * BLOCK_M, 0], acc_smem.index(slot))
    tma.store_wait(0)  # read: the slot is free
    mbarrier.arrive(acc_free.index(slot), count=1)
    _proxy_fence(_bulk_written(rank))
    gl.atomic_add(sem, 1, sem="release", scope="gpu")


@gluon.jit
def _dq_writer(acc_desc, acc_smem, bars, sched, sem_ptr, CAUSAL: gl.constexpr):
    """One warp, fused: each step's fp32 dQ tile out (``_dq_out``)."""
    batch, kv_head, n, N, P, m_lo, n_m, GROUP, Sq, Sk, HKV, DIAG = sched
    for it in range(GROUP * n_m):
        _dq_out(it, acc_desc, acc_smem, bars, sched, sem_ptr, CAUSAL)


@gluon.jit
def _dkdv_consumer(q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs, stat_bufs,
                   ds_bufs, acc_smem, bars, sched, dk_ptr, dv_ptr, soft,
                   HALF: gl.constexpr, CAUSAL: gl.constexpr, FUSED: gl.constexpr):
    """One warpgroup: dK and dV of keys ``128 n + 64 * HALF``.. over every step.
    A step's lse2 and delta come from shared memory when they are used: as
    row vectors of S^T they take 16 registers a thread each, which held
    across the step made the consumer spill.  Fused, once both consumers put
    their dS^T in shared memory, it forms dQ's columns ``64 * HALF``.. of
    the step's rows over all 128 keys and stores them into the step's fp32
    tile, which the writer adds into dQ's sums."""
    kv_ready, q_ready, do_ready, empty = bars[0], bars[1], bars[2], bars[3]
    batch, kv_head, n, N, P, m_lo, n_m, GROUP, Sq, Sk, HKV, DIAG = sched
    qk_scale, scale = soft
    STAGES: gl.constexpr = q_bufs.type.shape[0]
    D: gl.constexpr = q_desc.block_type.shape[3]
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BLOCK_M, 16])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, D, 16])
    dq_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, D // 2, 16])
    op_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=acc_layout, k_width=2)
    rows_of: gl.constexpr = gl.SliceLayout(0, s_layout)  # query rows run along S^T's columns
    keys_of: gl.constexpr = gl.SliceLayout(1, s_layout)

    dk = gl.zeros([HALF_N, D], gl.float32, acc_layout)
    dv = gl.zeros([HALF_N, D], gl.float32, acc_layout)
    zero_s = gl.zeros([HALF_N, BLOCK_M], gl.float32, s_layout)
    k0 = n * BLOCK_N + HALF * HALF_N
    keys = k0 + gl.arange(0, HALF_N, keys_of)
    # Row i sees key j iff j <= i + DIAG: a block whose first row sees this
    # half's last key needs no mask.
    full_from = k0 + HALF_N - 1 - DIAG
    mbarrier.wait(kv_ready, 0)
    k = k_smem.index(HALF).reshape([HALF_N, D])
    v = v_smem.index(HALF).reshape([HALF_N, D])
    for it in range(GROUP * n_m):
        g, m, rank = _visit(it, n, N, P, GROUP, Sq, DIAG, m_lo, n_m, CAUSAL, FUSED)
        m0 = m * BLOCK_M
        s = it % STAGES
        phase = (it // STAGES) & 1
        mbarrier.wait(q_ready.index(s), phase)
        q = q_bufs.index(s).reshape([BLOCK_M, D])
        st = warpgroup_mma(k, q.permute((1, 0)), zero_s, use_acc=False, is_async=True)
        mbarrier.wait(do_ready.index(s), phase)
        do = do_bufs.index(s).reshape([BLOCK_M, D])
        dpt = warpgroup_mma(v, do.permute((1, 0)), zero_s, use_acc=False, is_async=True)
        st = warpgroup_mma_wait(num_outstanding=1, deps=(st,))
        # One rounding, after the subtraction, as the portable kernel does.
        shifted = gl.fma(st, qk_scale, -gl.expand_dims(stat_bufs.index(2 * s).load(rows_of), 0))
        if CAUSAL:
            if m0 < full_from:
                rows = m0 + gl.arange(0, BLOCK_M, rows_of)
                visible = gl.expand_dims(keys, 1) <= gl.expand_dims(rows + DIAG, 0)
                shifted = gl.where(visible, shifted, float("-inf"))
        p = gl.exp2(shifted)
        p16 = gl.convert_layout(p.to(q_desc.dtype), op_layout)
        dv = warpgroup_mma(p16, do, dv, is_async=True)
        dpt = warpgroup_mma_wait(num_outstanding=1, deps=(dpt,))
        delta = stat_bufs.index(2 * s + 1).load(rows_of)
        ds = (p * (dpt - gl.expand_dims(delta, 0))).to(q_desc.dtype)
        if FUSED:  # both halves of dS^T into shared memory, for dQ
            ds_bufs.index(2 * (it % 2) + HALF).store(ds)
            fence_async_shared()
            mbarrier.arrive(bars[4].index(s), count=1)
        dk = warpgroup_mma(gl.convert_layout(ds, op_layout), q, dk, is_async=True)
        if FUSED:
            dq = _dq_share(ds_bufs, k_smem, bars[4].index(s), phase, 2 * (it % 2), HALF,
                           dq_layout)
            dk, dv, dq = warpgroup_mma_wait(num_outstanding=0, deps=(dk, dv, dq))
            mbarrier.arrive(empty.index(s), count=1)
            _dq_stage(dq, acc_smem, bars, it, HALF)
        else:
            dk, dv = warpgroup_mma_wait(num_outstanding=0, deps=(dk, dv))
            mbarrier.arrive(empty.index(s), count=1)
    _store_rows(dk * scale, dk_ptr, batch * HKV + kv_head, k0, Sk, 0)
    _store_rows(dv, dv_ptr, batch * HKV + kv_head, k0, Sk, 0)


@gluon.jit
def _dq_share(ds_bufs, k_smem, ds_ready, phase, at, HALF: gl.constexpr, layout: gl.constexpr):
    """Issues dQ's columns ``64 * HALF``.. of a step's 64 rows over the
    program's 128 keys, dS (both consumers' dS^T, transposed) times K's
    columns, once both consumers stored their dS^T at ``at`` and ``at + 1``."""
    mbarrier.wait(ds_ready, phase)
    cols: gl.constexpr = HALF * (_D // 2)
    dq = warpgroup_mma(ds_bufs.index(at).permute((1, 0)),
                       k_smem.index(0).reshape([HALF_N, _D]).slice(cols, _D // 2, 1),
                       gl.zeros([BLOCK_M, _D // 2], gl.float32, layout), use_acc=False,
                       is_async=True)
    return warpgroup_mma(ds_bufs.index(at + 1).permute((1, 0)),
                         k_smem.index(1).reshape([HALF_N, _D]).slice(cols, _D // 2, 1),
                         dq, is_async=True)


@gluon.jit
def _dq_stage(dq, acc_smem, bars, it, HALF: gl.constexpr):
    """A consumer's share of step ``it``'s dQ (its 64 columns) into the
    step's fp32 tile, once the writer has read the slot's last tile out."""
    acc_free, acc_done = bars[5], bars[6]
    SLOTS: gl.constexpr = acc_smem.type.shape[0]
    slot = it % SLOTS
    mbarrier.wait(acc_free.index(slot), ((it // SLOTS) & 1) ^ 1)
    cols: gl.constexpr = HALF * (_D // 2)
    acc_smem.index(slot).reshape([BLOCK_M, _D]).slice(cols, _D // 2, 1).store(dq)
    fence_async_shared()
    mbarrier.arrive(acc_done.index(slot), count=1)


@gluon.jit
def _shared(held_a, held_b, streamed_a, streamed_b, STAGES: gl.constexpr,
            A_ARRIVALS: gl.constexpr):
    """A program's shared memory, from the TMA descriptors of its tensors:
    two blocks (one a consumer) of each of the two it holds, STAGES of each
    of the two it streams through the ring, and the barriers (held ready,
    streamed a ready after ``A_ARRIVALS`` arrivals, streamed b ready, empty)."""
    held_a_smem = gl.allocate_shared_memory(held_a.dtype, [2] + held_a.block_type.shape,
                                            held_a.layout)
    held_b_smem = gl.allocate_shared_memory(held_b.dtype, [2] + held_b.block_type.shape,
                                            held_b.layout)
    a_bufs = gl.allocate_shared_memory(streamed_a.dtype, [STAGES] + streamed_a.block_type.shape,
                                       streamed_a.layout)
    b_bufs = gl.allocate_shared_memory(streamed_b.dtype, [STAGES] + streamed_b.block_type.shape,
                                       streamed_b.layout)
    held_ready = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(held_ready, count=1)
    # Both consumers release a stage.
    bars = (held_ready, _barriers(STAGES, A_ARRIVALS), _barriers(STAGES, 1), _barriers(STAGES, 2))
    return held_a_smem, held_b_smem, a_bufs, b_bufs, bars


@gluon.jit
def _barriers(count: gl.constexpr, arrivals: gl.constexpr):
    """``count`` mbarriers, each complete after ``arrivals`` arrivals."""
    bars = gl.allocate_shared_memory(gl.int64, [count, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(count):
        mbarrier.init(bars.index(i), count=arrivals)
    return bars


@gluon.jit
def _dkdv_kernel(q_desc, k_desc, v_desc, do_desc, acc_desc, dk_ptr, dv_ptr, lse2_ptr,
                 delta_ptr, sem_ptr, Sq, Sk, HKV, GROUP, DIAG, qk_scale, scale,
                 CAUSAL: gl.constexpr, STAGES: gl.constexpr, FUSED: gl.constexpr,
                 SLOTS: gl.constexpr):
    # Key blocks of one KV head are adjacent so they share Q and dO in L2.
    # Not fused, causal: the first key block sees the most rows, so it
    # starts first.  Fused: a program's block comes from a ticket, so every
    # program it waits for has started.  Causal, block n waits only for
    # n + 1, which takes the ticket before it; not causal, the N programs of
    # a KV head wait in a ring, which the launcher allows only where N
    # programs fit on the GPU at once (``fuses``).
    N = gl.cdiv(Sk, BLOCK_N)
    M = gl.cdiv(Sq, BLOCK_M)
    P = gl.cdiv(M, 2)
    if FUSED:
        t = gl.atomic_add(sem_ptr, 1)
    else:
        t = gl.program_id(0)
    n = t % N
    if FUSED and CAUSAL:
        n = N - 1 - n
    batch = t // N // HKV
    kv_head = t // N % HKV
    m_lo = 0
    n_m = M
    if CAUSAL:  # rows before n * BLOCK_N - DIAG see none of the keys
        m_lo = gl.minimum(gl.maximum(n * BLOCK_N - DIAG, 0) // BLOCK_M, M)
        n_m = M - m_lo
        if n * BLOCK_N - DIAG > Sq - 1:
            n_m = 0
    elif FUSED:
        n_m = 2 * P
    sched = (batch, kv_head, n, N, P, m_lo, n_m, GROUP, Sq, Sk, HKV, DIAG)
    soft = (qk_scale, scale)

    k_smem, v_smem, q_bufs, do_bufs, bars = _shared(k_desc, v_desc, q_desc, do_desc, STAGES, 2)
    stat_bufs = gl.allocate_shared_memory(gl.float32, [2 * STAGES, BLOCK_M],
                                          gl.SwizzledSharedLayout(1, 1, 1, [0]))
    if FUSED:
        # dS^T of two steps: a consumer stores step it + 2's once both passed
        # step it + 1's barrier, so both GEMMs that read step it's are done.
        ds_bufs = gl.allocate_shared_memory(q_desc.dtype, [4, HALF_N, BLOCK_M],
                                            gl.NVMMASharedLayout(128, 16, 2))
        acc_smem = gl.allocate_shared_memory(gl.float32, [SLOTS] + acc_desc.block_type.shape,
                                             acc_desc.layout)
        # (ds ready: both consumers, acc free: the writer, acc done: both consumers)
        bars = (bars[0], bars[1], bars[2], bars[3], _barriers(STAGES, 2), _barriers(SLOTS, 1),
                _barriers(SLOTS, 2))
        gl.warp_specialize([
            (_dkdv_consumer, (q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs,
                              stat_bufs, ds_bufs, acc_smem, bars, sched, dk_ptr, dv_ptr,
                              soft, 0, CAUSAL, FUSED)),
            (_dkdv_consumer, (q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs,
                              stat_bufs, ds_bufs, acc_smem, bars, sched, dk_ptr, dv_ptr,
                              soft, 1, CAUSAL, FUSED)),
            (_dkdv_producer, (q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs,
                              stat_bufs, bars, sched, lse2_ptr, delta_ptr, CAUSAL, FUSED)),
            (_dq_writer, (acc_desc, acc_smem, bars, sched, sem_ptr, CAUSAL)),
        ], [4, 1, 1], [240, 24, 24])
    else:
        gl.warp_specialize([
            (_dkdv_consumer, (q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs,
                              stat_bufs, None, None, bars, sched, dk_ptr, dv_ptr, soft, 0,
                              CAUSAL, FUSED)),
            (_dkdv_consumer, (q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs,
                              stat_bufs, None, None, bars, sched, dk_ptr, dv_ptr, soft, 1,
                              CAUSAL, FUSED)),
            (_dkdv_producer, (q_desc, k_desc, v_desc, do_desc, k_smem, v_smem, q_bufs, do_bufs,
                              stat_bufs, bars, sched, lse2_ptr, delta_ptr, CAUSAL, FUSED)),
        ], [4, 1], [240, 24])


# --------------------------------------------------------------------------
# dQ: a program per 128 query rows, walking the key blocks they see
# --------------------------------------------------------------------------


@gluon.jit
def _dq_producer(q_desc, k_desc, v_desc, do_desc, q_smem, do_smem, k_bufs, v_bufs, bars, sched):
    """One warp: the program's Q and dO (two halves of 64 rows), then K and
    V block by block into the ring."""
    qdo_ready, k_ready, v_ready, empty = bars
    batch, head, kv_head, m0, n_blocks = sched[:5]
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    BLOCK_KV: gl.constexpr = k_desc.block_type.shape[2]
    mbarrier.expect(qdo_ready, 2 * q_desc.block_type.nbytes + 2 * do_desc.block_type.nbytes)
    for h in gl.static_range(2):
        tma.async_copy_global_to_shared(q_desc, [batch, head, m0 + h * BLOCK_M, 0], qdo_ready,
                                        q_smem.index(h))
        tma.async_copy_global_to_shared(do_desc, [batch, head, m0 + h * BLOCK_M, 0], qdo_ready,
                                        do_smem.index(h))
    for j in range(n_blocks):
        s = j % STAGES
        mbarrier.wait(empty.index(s), ((j // STAGES) & 1) ^ 1)
        mbarrier.expect(k_ready.index(s), k_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(k_desc, [batch, kv_head, j * BLOCK_KV, 0],
                                        k_ready.index(s), k_bufs.index(s))
        mbarrier.expect(v_ready.index(s), v_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(v_desc, [batch, kv_head, j * BLOCK_KV, 0],
                                        v_ready.index(s), v_bufs.index(s))


@gluon.jit
def _row_stats(do, o_ptr, lse_ptr, lse2_ptr, delta_ptr, bh, r0, Sq, out_layout: gl.constexpr):
    """delta = rowsum(dO * O) and the base-2 LSE (+inf: no key seen) of the
    64 rows from ``r0`` of head ``bh``, stored for the dK/dV kernel and
    returned in ``out_layout``; rows past Sq get delta 0 and +inf.  ``do``
    holds the rows in shared memory (TMA's zeros past Sq), O is dense
    (B, H, Sq, D): the sum's order follows neither's layout."""
    D: gl.constexpr = do.type.shape[1]
    tile: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    rows = r0 + gl.arange(0, BLOCK_M, gl.SliceLayout(1, tile))
    cols = gl.arange(0, D, gl.SliceLayout(0, tile))
    ok = rows < Sq
    at = bh.to(gl.int64) * Sq + rows
    o = gl.load(o_ptr + gl.expand_dims(at * D, 1) + gl.expand_dims(cols, 0),
                mask=gl.expand_dims(ok, 1), other=0.0)
    delta = gl.sum(o.to(gl.float32) * do.load(tile).to(gl.float32), axis=1)
    lse = gl.load(lse_ptr + at, mask=ok, other=float("-inf"))
    lse2 = gl.where(lse == float("-inf"), float("inf"), lse * _LOG2E)
    gl.store(delta_ptr + at, delta, mask=ok)
    gl.store(lse2_ptr + at, lse2, mask=ok)
    return gl.convert_layout(lse2, out_layout), gl.convert_layout(delta, out_layout)


@gluon.jit
def _dq_ds(st, dp, j, rows, cols0, lse2, delta, n_full, soft, Sk, DIAG, CAUSAL: gl.constexpr,
           PENDING: gl.constexpr):
    """dS of key block ``j`` from its scores S and dP, both in flight:
    P = exp2(S * scale * log2 e - lse2), 0 where masked (blocks from
    ``n_full``: keys past Sk or, causal, past a row's diagonal), then
    dS = P (dP - delta).  ``PENDING`` wgmma groups were issued after dP."""
    st = warpgroup_mma_wait(num_outstanding=PENDING + 1, deps=(st,))
    shifted = gl.fma(st, soft[0], -gl.expand_dims(lse2, 1))
    if j >= n_full:
        cols = j * st.type.shape[1] + cols0
        visible = gl.expand_dims(cols < Sk, 0)
        if CAUSAL:
            visible = visible & (gl.expand_dims(cols, 0) <= gl.expand_dims(rows + DIAG, 1))
        shifted = gl.where(visible, shifted, float("-inf"))
    p = gl.exp2(shifted)
    dp = warpgroup_mma_wait(num_outstanding=PENDING, deps=(dp,))
    return p * (dp - gl.expand_dims(delta, 1))


@gluon.jit
def _dq_consumer(q_desc, k_desc, v_desc, do_desc, q_smem, do_smem, k_bufs, v_bufs, bars, sched,
                 dq_ptr, o_ptr, lse_ptr, lse2_ptr, delta_ptr, soft, HALF: gl.constexpr,
                 CAUSAL: gl.constexpr, DQ: gl.constexpr):
    """One warpgroup: the row statistics of rows ``m0 + 64 * HALF``.., then
    (``DQ``) their dQ over every key block the program walks:  S = Q K^T,
    dP = dO V^T, P = exp2(S * scale * log2 e - lse2) (0 where masked),
    dS = P (dP - delta), dQ += dS K.  Block j's S and dP are issued before
    block j-1's dS K, whose GEMM then runs under block j's exponentials
    (wgmma groups complete in order)."""
    qdo_ready, k_ready, v_ready, empty = bars
    batch, head, kv_head, m0, n_blocks, Sq, Sk, H, DIAG = sched
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    BLOCK_KV: gl.constexpr = k_desc.block_type.shape[2]
    D: gl.constexpr = q_desc.block_type.shape[3]
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BLOCK_KV, 16])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, D, 16])
    op_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=acc_layout, k_width=2)
    KV_SHAPE: gl.constexpr = [BLOCK_KV, D]

    r0 = m0 + HALF * BLOCK_M
    rows = r0 + gl.arange(0, BLOCK_M, gl.SliceLayout(1, s_layout))
    cols0 = gl.arange(0, BLOCK_KV, gl.SliceLayout(0, s_layout))
    # Blocks from n_full on hold keys past Sk (which TMA reads as zeros: a
    # score of 0, whose p can overflow) or, causal, keys past some row's
    # diagonal (key c visible to row r iff c <= r + DIAG): they are masked.
    n_full = Sk // BLOCK_KV
    if CAUSAL:
        n_full = gl.minimum(n_full, gl.maximum(r0 + DIAG + 1, 0) // BLOCK_KV)
    dq = gl.zeros([BLOCK_M, D], gl.float32, acc_layout)
    zero_s = gl.zeros([BLOCK_M, BLOCK_KV], gl.float32, s_layout)
    mbarrier.wait(qdo_ready, 0)
    q = q_smem.index(HALF).reshape([BLOCK_M, D])
    do = do_smem.index(HALF).reshape([BLOCK_M, D])
    lse2, delta = _row_stats(do, o_ptr, lse_ptr, lse2_ptr, delta_ptr, batch * H + head, r0, Sq,
                             gl.SliceLayout(1, s_layout))
    if n_blocks > 0:  # causal, rows before every key have none; none without DQ
        mbarrier.wait(k_ready.index(0), 0)
        st = warpgroup_mma(q, k_bufs.index(0).reshape(KV_SHAPE).permute((1, 0)), zero_s,
                           use_acc=False, is_async=True)
        mbarrier.wait(v_ready.index(0), 0)
        dp = warpgroup_mma(do, v_bufs.index(0).reshape(KV_SHAPE).permute((1, 0)), zero_s,
                           use_acc=False, is_async=True)
        ds = _dq_ds(st, dp, 0, rows, cols0, lse2, delta, n_full, soft, Sk, DIAG, CAUSAL, 0)
        ds16 = gl.convert_layout(ds.to(q_desc.dtype), op_layout)
        for j in range(1, n_blocks):
            s = j % STAGES
            phase = (j // STAGES) & 1
            prev = (j - 1) % STAGES
            mbarrier.wait(k_ready.index(s), phase)
            st = warpgroup_mma(q, k_bufs.index(s).reshape(KV_SHAPE).permute((1, 0)), zero_s,
                               use_acc=False, is_async=True)
            mbarrier.wait(v_ready.index(s), phase)
            dp = warpgroup_mma(do, v_bufs.index(s).reshape(KV_SHAPE).permute((1, 0)), zero_s,
                               use_acc=False, is_async=True)
            dq = warpgroup_mma(ds16, k_bufs.index(prev).reshape(KV_SHAPE), dq, is_async=True)
            ds = _dq_ds(st, dp, j, rows, cols0, lse2, delta, n_full, soft, Sk, DIAG, CAUSAL, 1)
            dq = warpgroup_mma_wait(num_outstanding=0, deps=(dq,))
            mbarrier.arrive(empty.index(prev), count=1)
            # Only now: the dQ GEMM just waited for read the previous dS's registers.
            ds16 = gl.convert_layout(ds.to(q_desc.dtype), op_layout)
        last = (n_blocks - 1) % STAGES
        dq = warpgroup_mma(ds16, k_bufs.index(last).reshape(KV_SHAPE), dq, is_async=True)
        dq = warpgroup_mma_wait(num_outstanding=0, deps=(dq,))
        mbarrier.arrive(empty.index(last), count=1)
    if DQ:
        _store_rows(dq * soft[1], dq_ptr, batch * H + head, r0, Sq, 0)


@gluon.jit
def _dq_kernel(q_desc, k_desc, v_desc, do_desc, dq_ptr, o_ptr, lse_ptr, lse2_ptr, delta_ptr,
               Sq, Sk, H, GROUP, DIAG, qk_scale, scale,
               CAUSAL: gl.constexpr, STAGES: gl.constexpr, DQ: gl.constexpr):
    n_m = gl.cdiv(Sq, 2 * BLOCK_M)
    pid_m = gl.program_id(0)
    if CAUSAL:  # the heaviest row tiles first, to even out the tail
        pid_m = n_m - 1 - pid_m
    m0 = pid_m * 2 * BLOCK_M
    batch = gl.program_id(1) // H
    head = gl.program_id(1) % H
    BLOCK_KV: gl.constexpr = k_desc.block_type.shape[2]
    kv_hi = Sk
    if CAUSAL:  # the tile's last row sees keys up to its own + DIAG
        kv_hi = gl.maximum(gl.minimum(Sk, gl.minimum(m0 + 2 * BLOCK_M, Sq) + DIAG), 0)
    if not DQ:  # the row statistics alone
        kv_hi = 0
    sched = (batch, head, head // GROUP, m0, gl.cdiv(kv_hi, BLOCK_KV), Sq, Sk, H, DIAG)
    soft = (qk_scale, scale)

    q_smem, do_smem, k_bufs, v_bufs, bars = _shared(q_desc, do_desc, k_desc, v_desc, STAGES, 1)
    gl.warp_specialize([
        (_dq_consumer, (q_desc, k_desc, v_desc, do_desc, q_smem, do_smem, k_bufs, v_bufs, bars,
                        sched, dq_ptr, o_ptr, lse_ptr, lse2_ptr, delta_ptr, soft, 0, CAUSAL, DQ)),
        (_dq_consumer, (q_desc, k_desc, v_desc, do_desc, q_smem, do_smem, k_bufs, v_bufs, bars,
                        sched, dq_ptr, o_ptr, lse_ptr, lse2_ptr, delta_ptr, soft, 1, CAUSAL, DQ)),
        (_dq_producer, (q_desc, k_desc, v_desc, do_desc, q_smem, do_smem, k_bufs, v_bufs, bars,
                        sched)),
    ], [4, 1], [240, 24])


# --------------------------------------------------------------------------
# Fused: dQ from its fp32 sums
# --------------------------------------------------------------------------


@gluon.jit
def _scaled_kernel(sums_ptr, dq_ptr, n, scale, BLOCK: gl.constexpr):
    """dQ = scale * its fp32 sums, in dQ's dtype: ``BLOCK`` elements a program."""
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    start = gl.program_id(0).to(gl.int64) * BLOCK
    at = start + gl.arange(0, BLOCK, layout).to(gl.int64)
    sums = gl.load(sums_ptr + at, mask=at < n)
    gl.store(dq_ptr + at, (sums * scale).to(dq_ptr.dtype.element_ty), mask=at < n)


# --------------------------------------------------------------------------
# Launcher.  ``LaunchCache`` binds once per shape, as the forward's does;
# later launches give it ``HostDescriptor``s.  The kernels take q, k, v and
# do (and the dK/dV kernel dQ's fp32 tiles) as TMA descriptors of 64 rows.
# --------------------------------------------------------------------------

# dK/dV: 64 KB of K and V, three 32 KB stages of Q and dO, and three stages
# of 512 bytes of row statistics; dQ: 64 KB of Q and dO and three 32 KB
# stages of K and V.  About 160 KB of shared memory each.  Fused, dK/dV
# takes two stages, each with its 16 KB of dS^T, and two 32 KB fp32 dQ
# tiles: 225 KB.
STAGES = 3
FUSED_STAGES = 2
ACC_SLOTS = 2


def _described(count: int):
    """The leading arguments from the tensors: the first ``count`` as TMA
    descriptors of 64 rows (16-bit or fp32), then the rest."""
    def leading(tensors: tuple[torch.Tensor, ...], again: bool) -> tuple:
        tiled, rest = tensors[:count], tensors[count:]
        if again:
            return (*(HostDescriptor(t, t.shape, t.stride()) for t in tiled), *rest)
        return (*(TensorDescriptor(t, list(t.shape), list(t.stride()), [1, 1, 64, HEAD_DIM],
                                   _layout(64) if t.element_size() == 2 else _fp32_layout())
                  for t in tiled), *rest)
    return leading


@functools.cache
def _fp32_layout() -> gl.NVMMASharedLayout:
    return gl.NVMMASharedLayout.get_default_for([1, 1, 64, HEAD_DIM], gl.float32)


# The dK/dV kernel takes dQ's fp32 tiles as a fifth descriptor only fused:
# two kernels, that argument is any pointer, and no descriptor is encoded for it.
_DKDV = LaunchCache(_dkdv_kernel, leading=_described(4))
_FUSED = LaunchCache(_dkdv_kernel, leading=_described(5))
_DQ = LaunchCache(_dq_kernel, leading=_described(4))
_SCALED = LaunchCache(_scaled_kernel)
SCALED_BLOCK = 4096


def launch_plan(kernel: str, dims: AttentionDims, *, causal: bool, stages: int = STAGES,
                dq: bool = True, fused: bool = False) -> tuple[tuple, tuple, dict]:
    """(grid, the arguments after the leading ones, constants and options) of
    a launch of ``kernel``, "dkdv" (``fused``: with dQ) or "dq" (``dq``:
    with dQ, not only the row statistics)."""
    if kernel == "dkdv":
        grid = (-(-dims.sk // BLOCK_N.value) * dims.batch * dims.hkv,)
        heads = dims.hkv
    elif kernel == "dq":
        grid = (-(-dims.sq // (2 * BLOCK_M.value)), dims.batch * dims.hq)
        heads = dims.hq
    else:
        raise ValueError(f"kernel: expected 'dkdv' or 'dq', got {kernel!r}")
    args = (dims.sq, dims.sk, heads, dims.group, dims.diagonal, dims.scale * LOG2E, dims.scale)
    meta = dict(CAUSAL=causal, STAGES=stages, num_warps=4, maxnreg=168)
    if kernel == "dq":
        return grid, args, {**meta, "DQ": dq}
    return grid, args, {**meta, "STAGES": FUSED_STAGES if fused else stages, "FUSED": fused,
                        "SLOTS": ACC_SLOTS}


# The fused backward adds a pass over dQ's fp32 sums and has each query
# block's adds wait their turn, for two GEMMs fewer a step: measured on the
# H200 (bf16, B = 4, Hq = 16, Hkv = 8), 0.93-0.97x the two kernels at
# Sq = Sk = 1k, 1.02-1.04x at 2k, 1.04-1.13x at 4k and 8k (NOTES b9).
FUSED_MIN_KEYS = 2048


def fuses(dims: AttentionDims, device_index: int) -> bool:
    """Whether the dK/dV kernel can also compute dQ: where there are at
    least as many 128-row pairs of query blocks as 128-key blocks (each key
    block starts on its own pair), and no more key blocks than the GPU has
    multiprocessors (the programs of a KV head wait for each other in a
    ring, so all must be resident at once)."""
    blocks = -(-dims.sk // BLOCK_N.value)
    return -(-dims.sq // BLOCK_N.value) >= blocks and blocks <= num_sms(device_index)


def launch_hopper_backward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                           do: torch.Tensor, out: torch.Tensor, lse: torch.Tensor,
                           dq: torch.Tensor | None, dk: torch.Tensor | None,
                           dv: torch.Tensor | None, dims: AttentionDims, *, causal: bool,
                           stages: int = STAGES, fused: bool | None = None) -> None:
    """dQ into the contiguous ``dq`` and dK and dV into the contiguous ``dk``
    and ``dv`` (each skipped where None; dk and dv together), for a call the
    Hopper forward computes (``hopper_prefill.refusal``) with Sq, Sk > 0,
    from the forward's contiguous ``out`` and natural-log ``lse``; on q's device
    made current.  The dQ kernel runs first: it also stores each row's
    delta and base-2 LSE, which the dK/dV kernel reads.  ``fused``: the
    dK/dV kernel computes dQ's sums too (where it ``fuses``, with all three
    wanted), the dQ kernel only the statistics, and a last pass dQ from
    its sums; None fuses where ``fuses`` and Sk >= ``FUSED_MIN_KEYS``."""
    # The kernels address these rows as (B, H, S, D) in order, q, k, v and dO
    # through descriptors that take any strides.
    for name, t in (("out", out), ("lse", lse), ("dq", dq), ("dk", dk), ("dv", dv)):
        if t is not None and not t.is_contiguous():
            raise ValueError(f"{name}: expected a contiguous tensor, got strides {t.stride()}")
    if fused is None:
        fused = dims.sk >= FUSED_MIN_KEYS and fuses(dims, q.device.index)
    elif fused and not fuses(dims, q.device.index):
        raise ValueError(f"fused: the fused backward cannot compute Sq = {dims.sq}, "
                         f"Sk = {dims.sk} on this GPU (see fuses)")
    q, k, v, do = _tma_ready(q), _tma_ready(k), _tma_ready(v), _tma_ready(do)
    stats = torch.empty((2, dims.batch * dims.hq * dims.sq), dtype=torch.float32,
                        device=q.device)
    lse2, delta = stats[0], stats[1]
    fused = fused and dq is not None and dk is not None
    want = dq is not None and not fused  # without dQ the kernel never reads its dq pointer
    _DQ.launch((dims, causal, stages, want),
               (q, k, v, do, dq if want else stats, out, lse, lse2, delta),
               lambda: launch_plan("dq", dims, causal=causal, stages=stages, dq=want))
    if dk is None:
        return
    if fused:
        pairs = -(-dims.sq // BLOCK_N.value)
        # A ticket counter, then a semaphore per query block; dQ's fp32 sums.
        sems = torch.zeros(1 + dims.batch * dims.hq * 2 * pairs, dtype=torch.int32,
                           device=q.device)
        sums = torch.empty((dims.batch, dims.hq, dims.sq, HEAD_DIM), dtype=torch.float32,
                           device=q.device)
        if causal and dims.diagonal < 0:  # query blocks that see no key: no step adds to them
            sums[:, :, :-dims.diagonal // BLOCK_M.value * BLOCK_M.value].zero_()
        into = (sums, dk, dv, lse2, delta, sems)
    else:  # the kernel reads no sums nor semaphores: any will do
        into = (stats, dk, dv, lse2, delta, stats)
    cache = _FUSED if fused else _DKDV
    cache.launch((dims, causal, stages, fused), (q, k, v, do, *into),
                 lambda: launch_plan("dkdv", dims, causal=causal, stages=stages, fused=fused))
    if fused:
        n = dq.numel()
        _SCALED.launch(dims, (sums, dq),
                       lambda: ((-(-n // SCALED_BLOCK),), (n, dims.scale),
                                dict(BLOCK=SCALED_BLOCK, num_warps=4)))
