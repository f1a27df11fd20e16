"""The prefill on Hopper (sm_90), in Gluon: warp specialised as FlashAttention-3 is.

The portable kernel (``flash.py``) runs one program of two warpgroups that
move in lock step, so its softmax sits beside its GEMMs rather than under
them (``benchmarks/NOTES.md``, probes a1-a2).  Here a row tile is 128
query rows of one (batch, head), and a program has three partitions:

- a producer warp that loads each tile's Q and its K and V block by block
  with TMA into a ring of shared-memory stages, each guarded by mbarriers
  (ready: the bytes landed; empty or free: the consumers are done with it);
- two consumer warpgroups of 64 rows each, which run their GEMMs (``wgmma``)
  and softmax independently, so that the warp scheduler puts one's softmax
  under the other's GEMMs.  In the pipelined loop each consumer also issues
  block j's Q @ K^T before block j-1's P @ V and runs block j's softmax while
  that P @ V is in flight.

Causal calls launch a program per tile, the heaviest first.  Others launch
one program per SM (persistent), each taking tiles in turn and running their
blocks as one stream: a tile's first scores and softmax go under the last
tile's last P @ V, which a program per tile leaves bare at the start and end
of each of its tiles (1.06x at S = 1k; NOTES, g6).

Registers move from the producer to the consumers (``setmaxnreg``, through
``warp_specialize``'s register counts).  The arithmetic is the portable
kernel's: fp32 scores and sums, exp2 with log2(e) in the scale, P rounded to
V's dtype for the tensor cores, the same weight shift against overflow, rows
that see no key written as zeros with LSE -inf.  The bits differ from the
portable kernel's (another summation order) but not with the layout: TMA
puts every layout into shared memory the same way.

It computes D = Dv = 128 in fp16 and bf16: any Sq and Sk (TMA fills rows
past a tensor's end with zeros and drops them on the store; keys past Sk
are masked), GQA by head mapping, causal at either alignment, any scale.
Tensors whose strides TMA cannot read (a last stride other than 1, others
not multiples of 16 bytes, a base not 16-byte aligned) are copied first.
What it cannot compute (``refusal``) ``flash_attention`` sends to the
portable kernel.
"""

from __future__ import annotations

import functools

import torch
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

from ._checks import AttentionDims, interpreting
from ._launch import HostDescriptor, LaunchCache, capability, num_sms, tma_addressable

# Kernel constants (globals a Gluon kernel reads must be constexpr).
BLOCK_M = gl.constexpr(128)  # two consumers of 64 rows
HALF_M = gl.constexpr(64)
BLOCK_N = gl.constexpr(128)
HEAD_DIM = 128
LOG2E = 1.4426950408889634
LN2 = gl.constexpr(0.6931471805599453)
# The grid's second dimension is (batch, head).
MAX_BATCH_HEADS = 65535


@gluon.jit
def _tile(t, sched, CAUSAL: gl.constexpr, SIGN: gl.constexpr):
    """Row tile ``t`` (tiles run through a head's row blocks, then the next
    head's): (batch, head, kv head, first row, the consumer's first row, key
    blocks, blocks every row sees fully, Sk, the causal offset)."""
    first, n_tiles, step, n_m, H, GROUP, Sq, Sk, OFF = sched
    bh = t // n_m
    pid_m = t % n_m
    if CAUSAL:  # the heaviest row tiles first, to even out the tail
        pid_m = n_m - 1 - pid_m
    batch = bh // H
    head = bh % H
    kv_head = head // GROUP
    m0 = pid_m * BLOCK_M
    # Keys [0, kv_hi) are seen by some row of the tile; [0, n_full blocks)
    # by every row.
    kv_hi = Sk
    n_full = Sk // BLOCK_N
    if CAUSAL:
        kv_hi = gl.maximum(gl.minimum(Sk, gl.minimum(m0 + BLOCK_M, Sq) + OFF), 0)
        n_full = gl.minimum(n_full, gl.maximum(m0 + OFF + 1, 0) // BLOCK_N)
    if SIGN == 0:
        n_full = 0
    return (batch, head, kv_head, m0, m0, gl.cdiv(kv_hi, BLOCK_N), n_full, Sk, OFF)


@gluon.jit
def _load_q(q_desc, q_smem, q_ready, q_free, batch, head, m0, it):
    """Q's two halves of a tile, each once its consumer is done with the last
    tile's (a fresh mbarrier counts as having completed phase 1: the first
    wait passes at once)."""
    for h in gl.static_range(2):
        mbarrier.wait(q_free.index(h), (it & 1) ^ 1)
        mbarrier.expect(q_ready.index(h), q_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(q_desc, [batch, head, m0 + h * HALF_M, 0],
                                        q_ready.index(h), q_smem.index(h))


@gluon.jit
def _producer(q_desc, k_desc, v_desc, o_ptr, q_smem, k_bufs, v_bufs, bars, sched, soft,
              lse_ptr, HALF: gl.constexpr, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr,
              SIGN: gl.constexpr, STORE_LSE: gl.constexpr, PERSISTENT: gl.constexpr):
    """One warp: for each tile, K and V block by block into the ring (TMA
    fills rows past the tensor's end with zeros), and Q after the first
    block, so that a consumer late to release its Q half does not hold back
    the other's keys.  The ring's blocks are counted across tiles: a stage's
    phase carries over."""
    q_ready, q_free, k_ready, v_ready, kv_empty = bars
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    first, n_tiles, step = sched[0], sched[1], sched[2]
    count = 0
    it = 0
    for t in range(first, n_tiles, step):
        batch, head, kv_head, m0, row0, n_blocks, n_full, sk, off = _tile(t, sched, CAUSAL, SIGN)
        for j in range(n_blocks):
            s = count % STAGES
            mbarrier.wait(kv_empty.index(s), ((count // STAGES) & 1) ^ 1)
            mbarrier.expect(k_ready.index(s), k_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(k_desc, [batch, kv_head, j * BLOCK_N, 0],
                                            k_ready.index(s), k_bufs.index(s))
            mbarrier.expect(v_ready.index(s), v_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(v_desc, [batch, kv_head, j * BLOCK_N, 0],
                                            v_ready.index(s), v_bufs.index(s))
            if j == 0:
                _load_q(q_desc, q_smem, q_ready, q_free, batch, head, m0, it)
            count += 1
        if n_blocks == 0:
            _load_q(q_desc, q_smem, q_ready, q_free, batch, head, m0, it)
        it += 1


@gluon.jit
def _masked(qk, j, tile, CAUSAL: gl.constexpr, SIGN: gl.constexpr):
    """Blocks from ``n_full`` on hold keys past Sk or, causal, past some row's
    diagonal (key c visible to row r iff c <= r + off): those keys' scores
    become what the scale turns into -inf (+inf for a negative scale).  A
    zero scale (SIGN 0) masks every block, its visible scores set to 0."""
    batch, head, kv_head, m0, row0, n_blocks, n_full, sk, off = tile
    if j >= n_full:
        layout: gl.constexpr = qk.type.layout
        rows = row0 + gl.arange(0, HALF_M, gl.SliceLayout(1, layout))
        cols = j * BLOCK_N + gl.arange(0, BLOCK_N, gl.SliceLayout(0, layout))
        visible = gl.expand_dims(cols < sk, 0)
        if CAUSAL:
            visible = visible & (gl.expand_dims(cols, 0) <= gl.expand_dims(rows + off, 1))
        if SIGN == 0:  # every visible score is 0, whatever q . k is (inf included)
            qk = gl.where(visible, gl.zeros_like(qk), float("-inf"))
        else:
            qk = gl.where(visible, qk, float("inf") if SIGN < 0 else float("-inf"))
    return qk


@gluon.jit
def _softmax(qk, m_i, l_i, soft, SIGN: gl.constexpr):
    """(P, alpha, m, l) after one block; rows that have seen no key keep m =
    -inf and l = 0 (the max is taken as 0 for them, so no -inf - -inf).
    The largest scaled score is the scale times the smallest for SIGN < 0.  Weights
    are 2**-p_shift too small, so that Sk of them times bf16's largest V
    cannot overflow the fp32 sum (``attnfuzz.kernels.flash.weight_shift``)."""
    qk_scale, p_shift = soft
    if SIGN < 0:
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
             zero_s, p_layout: gl.constexpr, CAUSAL: gl.constexpr, SIGN: gl.constexpr):
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
        qk = _masked(qk, j, tile, CAUSAL, SIGN)
        p, alpha, m_i, l_i = _softmax(qk, m_i, l_i, soft, SIGN)
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
        mbarrier.wait(v_ready.index(s), phase)
        acc = warpgroup_mma(p16, v_bufs.index(s).reshape(BLOCK_SHAPE), acc, is_async=True)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(s), count=1)
    return acc, l_i, m_i


@gluon.jit
def _first_block(q, k_bufs, k_ready, q_free, tile, count, soft, zero_s, p_layout: gl.constexpr,
                 CAUSAL: gl.constexpr, SIGN: gl.constexpr):
    """A tile's first scores and softmax, with nothing to overlap them:
    (P as V's dtype, m, l).  Q is released if it was the tile's last block."""
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    s = count % STAGES
    mbarrier.wait(k_ready.index(s), (count // STAGES) & 1)
    k = k_bufs.index(s).reshape([BLOCK_N, k_bufs.type.shape[-1]])
    qk = warpgroup_mma(q, k.permute((1, 0)), zero_s, use_acc=False, is_async=True)
    qk = warpgroup_mma_wait(num_outstanding=0, deps=(qk,))
    if tile[5] == 1:
        mbarrier.arrive(q_free, count=1)
    qk = _masked(qk, 0, tile, CAUSAL, SIGN)
    m_i = gl.full([HALF_M], float("-inf"), gl.float32, gl.SliceLayout(1, qk.type.layout))
    l_i = gl.zeros([HALF_M], gl.float32, gl.SliceLayout(1, qk.type.layout))
    p, alpha, m_i, l_i = _softmax(qk, m_i, l_i, soft, SIGN)
    return gl.convert_layout(p.to(q.dtype), p_layout), m_i, l_i


@gluon.jit
def _blocks(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, q_free, tile, count, soft, m_i, l_i,
            acc, p16, zero_s, p_layout: gl.constexpr, CAUSAL: gl.constexpr, SIGN: gl.constexpr):
    """Blocks 1.. of a tile whose block 0 (the ring's block ``count``) has its
    P in ``p16``.  Block j's scores are issued before block j-1's P @ V, and
    block j's softmax runs while that P @ V is in flight (FlashAttention-3's
    overlap within a warpgroup); wgmma groups complete in order, so waiting
    for all but one leaves exactly the P @ V running.  Q is released after
    the last scores.  The last block's P @ V is left to the caller."""
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    BLOCK_SHAPE: gl.constexpr = [BLOCK_N, k_bufs.type.shape[-1]]
    o_rows: gl.constexpr = gl.SliceLayout(1, acc.type.layout)
    n_blocks = tile[5]
    for j in range(1, n_blocks):
        s = (count + j) % STAGES
        prev = (count + j - 1) % STAGES
        mbarrier.wait(k_ready.index(s), ((count + j) // STAGES) & 1)
        k = k_bufs.index(s).reshape(BLOCK_SHAPE)
        qk = warpgroup_mma(q, k.permute((1, 0)), zero_s, use_acc=False, is_async=True)
        mbarrier.wait(v_ready.index(prev), ((count + j - 1) // STAGES) & 1)
        acc = warpgroup_mma(p16, v_bufs.index(prev).reshape(BLOCK_SHAPE), acc, is_async=True)
        qk = warpgroup_mma_wait(num_outstanding=1, deps=(qk,))
        if j == n_blocks - 1:
            mbarrier.arrive(q_free, count=1)
        qk = _masked(qk, j, tile, CAUSAL, SIGN)
        p, alpha, m_i, l_i = _softmax(qk, m_i, l_i, soft, SIGN)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(prev), count=1)
        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)
        # Only now: the P @ V just waited for read the previous P's registers.
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
    return acc, l_i, m_i, p16


@gluon.jit
def _last_pv(p16, v_bufs, v_ready, kv_empty, last, acc):
    """The P @ V of the ring's block ``last``, waited for, its stage released."""
    STAGES: gl.constexpr = v_bufs.type.shape[0]
    s = last % STAGES
    mbarrier.wait(v_ready.index(s), (last // STAGES) & 1)
    acc = warpgroup_mma(p16, v_bufs.index(s).reshape([BLOCK_N, v_bufs.type.shape[-1]]), acc,
                        is_async=True)
    acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    mbarrier.arrive(kv_empty.index(s), count=1)
    return acc


@gluon.jit
def _normalized(acc, m_i, l_i, batch, head, row0, soft, lse_ptr, Sq, H,
                STORE_LSE: gl.constexpr):
    """Output rows from ``row0`` of (batch, head) as fp32 (0 for rows that saw
    no key), after storing their LSE: natural log, -inf for those rows;
    (B, H, Sq) contiguous."""
    seen = l_i > 0.0
    if STORE_LSE:
        rows = row0 + gl.arange(0, HALF_M, l_i.type.layout)
        lse = gl.where(seen, (m_i + gl.log2(gl.where(seen, l_i, 1.0)) + soft[1]) * LN2,
                       float("-inf"))
        gl.store(lse_ptr + (batch * H + head).to(gl.int64) * Sq + rows, lse, mask=rows < Sq)
    inv = gl.where(seen, 1.0 / gl.where(seen, l_i, 1.0), 0.0)
    return acc * gl.expand_dims(gl.convert_layout(inv, gl.SliceLayout(1, acc.type.layout)), 1)


@gluon.jit
def _store_rows(out, o_ptr, batch, head, row0, Sq, H):
    """Output rows from ``row0`` of (batch, head), from registers into the
    dense (B, H, Sq, D) ``o_ptr``."""
    HEAD_D: gl.constexpr = out.type.shape[1]
    layout: gl.constexpr = out.type.layout
    rows = gl.expand_dims(row0 + gl.arange(0, HALF_M, gl.SliceLayout(1, layout)), 1)
    cols = gl.expand_dims(gl.arange(0, HEAD_D, gl.SliceLayout(0, layout)), 0)
    base = o_ptr + (batch * H + head).to(gl.int64) * Sq * HEAD_D
    gl.store(base + rows * HEAD_D + cols, out.to(o_ptr.dtype.element_ty),
             mask=(rows < Sq) & (cols < HEAD_D))


@gluon.jit
def _row_tile(t, sched, HALF: gl.constexpr, CAUSAL: gl.constexpr, SIGN: gl.constexpr):
    batch, head, kv_head, m0, row0, n_blocks, n_full, sk, off = _tile(t, sched, CAUSAL, SIGN)
    return (batch, head, kv_head, m0, m0 + HALF * HALF_M, n_blocks, n_full, sk, off)


@gluon.jit
def _consume_tiles(q, k_bufs, v_bufs, bars, sched, soft, o_ptr, lse_ptr, acc, zero_s,
                   p_layout: gl.constexpr, HALF: gl.constexpr, SIGN: gl.constexpr,
                   STORE_LSE: gl.constexpr):
    """The persistent consumer, not causal (every tile has a block): its
    tiles' blocks as one stream, so that a tile's first scores and softmax
    run while the last tile's last P @ V is in flight, and its output is
    stored under the next tile's GEMMs."""
    q_ready, q_free, k_ready, v_ready, kv_empty = bars
    first, end, step, n_m, H, GROUP, Sq, Sk, OFF = sched
    STAGES: gl.constexpr = k_bufs.type.shape[0]
    BLOCK_SHAPE: gl.constexpr = [BLOCK_N, k_bufs.type.shape[-1]]
    tile = _row_tile(first, sched, HALF, False, SIGN)
    mbarrier.wait(q_ready.index(HALF), 0)
    p16, m_i, l_i = _first_block(q, k_bufs, k_ready, q_free.index(HALF), tile, 0, soft, zero_s,
                                 p_layout, False, SIGN)
    acc, l_i, m_i, p16 = _blocks(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty,
                                 q_free.index(HALF), tile, 0, soft, m_i, l_i, acc, p16, zero_s,
                                 p_layout, False, SIGN)
    count = tile[5]
    it = 1
    batch, head, row0 = tile[0], tile[1], tile[4]
    for t in range(first + step, end, step):
        nxt = _row_tile(t, sched, HALF, False, SIGN)
        mbarrier.wait(q_ready.index(HALF), it & 1)
        s = count % STAGES
        prev = (count - 1) % STAGES
        mbarrier.wait(k_ready.index(s), (count // STAGES) & 1)
        k = k_bufs.index(s).reshape(BLOCK_SHAPE)
        qk = warpgroup_mma(q, k.permute((1, 0)), zero_s, use_acc=False, is_async=True)
        mbarrier.wait(v_ready.index(prev), ((count - 1) // STAGES) & 1)
        acc = warpgroup_mma(p16, v_bufs.index(prev).reshape(BLOCK_SHAPE), acc, is_async=True)
        qk = warpgroup_mma_wait(num_outstanding=1, deps=(qk,))
        if nxt[5] == 1:
            mbarrier.arrive(q_free.index(HALF), count=1)
        qk = _masked(qk, 0, nxt, False, SIGN)
        p, alpha, m_n, l_n = _softmax(qk, gl.full_like(m_i, float("-inf")), gl.zeros_like(l_i),
                                      soft, SIGN)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
        mbarrier.arrive(kv_empty.index(prev), count=1)
        p16 = gl.convert_layout(p.to(q.dtype), p_layout)
        out = _normalized(acc, m_i, l_i, batch, head, row0, soft, lse_ptr, Sq, H, STORE_LSE)
        _store_rows(out, o_ptr, batch, head, row0, Sq, H)
        acc, l_i, m_i, p16 = _blocks(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty,
                                     q_free.index(HALF), nxt, count, soft, m_n, l_n,
                                     gl.zeros_like(acc), p16, zero_s, p_layout, False, SIGN)
        count += nxt[5]
        it += 1
        batch, head, row0 = nxt[0], nxt[1], nxt[4]
    acc = _last_pv(p16, v_bufs, v_ready, kv_empty, count - 1, acc)
    out = _normalized(acc, m_i, l_i, batch, head, row0, soft, lse_ptr, Sq, H, STORE_LSE)
    _store_rows(out, o_ptr, batch, head, row0, Sq, H)


@gluon.jit
def _consumer(q_desc, k_desc, v_desc, o_ptr, q_smem, k_bufs, v_bufs, bars, sched, soft,
              lse_ptr, HALF: gl.constexpr, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr,
              SIGN: gl.constexpr, STORE_LSE: gl.constexpr, PERSISTENT: gl.constexpr):
    """One warpgroup: 64 query rows of each of its tiles over every key block
    they see, then their output.  With a tile per program the output leaves
    through Q's tile with ``q_desc`` (which has the output's block shape; TMA
    drops rows past the tensor's end); persistent, Q's tile already holds the
    next tile's rows, and the output goes from registers to the dense ``o_ptr``."""
    q_ready, q_free, k_ready, v_ready, kv_empty = bars
    Sq, H = sched[6], sched[4]
    HEAD_D: gl.constexpr = q_desc.block_type.shape[3]
    s_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BLOCK_N, 16])
    o_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, HEAD_D, 16])
    p_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=o_layout, k_width=2)

    acc = gl.zeros([HALF_M, HEAD_D], gl.float32, o_layout)
    zero_s = gl.zeros([HALF_M, BLOCK_N], gl.float32, s_layout)
    q_tile = q_smem.index(HALF)
    q = q_tile.reshape([HALF_M, HEAD_D])
    if PERSISTENT:
        _consume_tiles(q, k_bufs, v_bufs, bars, sched, soft, o_ptr, lse_ptr, acc, zero_s,
                       p_layout, HALF, SIGN, STORE_LSE)
    else:
        tile = _row_tile(sched[0], sched, HALF, CAUSAL, SIGN)
        m_i = gl.full([HALF_M], float("-inf"), gl.float32, gl.SliceLayout(1, s_layout))
        l_i = gl.zeros([HALF_M], gl.float32, gl.SliceLayout(1, s_layout))
        mbarrier.wait(q_ready.index(HALF), 0)
        if PIPELINE:
            if tile[5] > 0:
                p16, m_i, l_i = _first_block(q, k_bufs, k_ready, q_free.index(HALF), tile, 0,
                                             soft, zero_s, p_layout, CAUSAL, SIGN)
                acc, l_i, m_i, p16 = _blocks(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty,
                                             q_free.index(HALF), tile, 0, soft, m_i, l_i, acc,
                                             p16, zero_s, p_layout, CAUSAL, SIGN)
                acc = _last_pv(p16, v_bufs, v_ready, kv_empty, tile[5] - 1, acc)
        else:
            acc, l_i, m_i = _consume(q, k_bufs, v_bufs, k_ready, v_ready, kv_empty, tile, soft,
                                     m_i, l_i, acc, zero_s, p_layout, CAUSAL, SIGN)
        out = _normalized(acc, m_i, l_i, tile[0], tile[1], tile[4], soft, lse_ptr, Sq, H,
                          STORE_LSE)
        # Q's tile is done with: the output leaves through it.
        q.store(out.to(q_desc.dtype))
        fence_async_shared()
        tma.async_copy_shared_to_global(q_desc, [tile[0], tile[1], tile[4], 0], q_tile)
        tma.store_wait(pendings=0)


@gluon.jit
def _attention_kernel(q_desc, k_desc, v_desc, o_desc, lse_ptr, o_ptr, Sq, Sk, H, GROUP, OFF,
                      n_tiles, qk_scale, p_shift, CAUSAL: gl.constexpr, PIPELINE: gl.constexpr,
                      STAGES: gl.constexpr, SIGN: gl.constexpr, STORE_LSE: gl.constexpr,
                      PERSISTENT: gl.constexpr):
    n_m = gl.cdiv(Sq, BLOCK_M)
    if PERSISTENT:  # one program per SM, over tiles first, first + step, ...
        first = gl.program_id(0)
        end = n_tiles
        step = gl.num_programs(0)
    else:  # one tile a program, in the order the grid launches them
        first = gl.program_id(1) * n_m + gl.program_id(0)
        end = first + 1
        step = 1
    sched = (first, end, step, n_m, H, GROUP, Sq, Sk, OFF)
    soft = (qk_scale, p_shift)

    q_smem = gl.allocate_shared_memory(q_desc.dtype, [2] + q_desc.block_type.shape, q_desc.layout)
    k_bufs = gl.allocate_shared_memory(k_desc.dtype, [STAGES] + k_desc.block_type.shape,
                                       k_desc.layout)
    v_bufs = gl.allocate_shared_memory(v_desc.dtype, [STAGES] + v_desc.block_type.shape,
                                       v_desc.layout)
    q_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    q_free = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    k_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    v_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    kv_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(q_ready.index(i), count=1)
        mbarrier.init(q_free.index(i), count=1)
    for i in gl.static_range(STAGES):
        mbarrier.init(k_ready.index(i), count=1)
        mbarrier.init(v_ready.index(i), count=1)
        mbarrier.init(kv_empty.index(i), count=2)  # both consumers release a stage
    bars = (q_ready, q_free, k_ready, v_ready, kv_empty)
    # Consumers take the output's descriptor in Q's place (the same block
    # shape and layout): only the producer loads Q.
    gl.warp_specialize([
        (_consumer, (o_desc, k_desc, v_desc, o_ptr, q_smem, k_bufs, v_bufs, bars, sched, soft,
                     lse_ptr, 0, CAUSAL, PIPELINE, SIGN, STORE_LSE, PERSISTENT)),
        (_consumer, (o_desc, k_desc, v_desc, o_ptr, q_smem, k_bufs, v_bufs, bars, sched, soft,
                     lse_ptr, 1, CAUSAL, PIPELINE, SIGN, STORE_LSE, PERSISTENT)),
        (_producer, (q_desc, k_desc, v_desc, o_ptr, q_smem, k_bufs, v_bufs, bars, sched, soft,
                     lse_ptr, 0, CAUSAL, PIPELINE, SIGN, STORE_LSE, PERSISTENT)),
    ], [4, 1], [240, 24])


# Launcher.  A call's host time matters: at Sq = Sk = 1k the kernel runs for
# about 70 us, and building four TensorDescriptors and binding the Gluon
# kernel's arguments cost as much.  ``LaunchCache`` binds once per shape; later
# launches give it ``HostDescriptor``s (base, shape, strides: all that the
# launcher's encoding reads), from which it encodes the tensor maps itself.

PIPELINE, STAGES = True, 3  # the pipelined consumer loop, three stages (NOTES, g3)


def unavailable(device: torch.device | None = None) -> str | None:
    """Why this kernel cannot run on ``device`` (default: the current CUDA
    device), in words; None if it can."""
    if (why := _no_gpu()) is not None:
        return why
    if device is not None and device.type != "cuda":
        return f"it needs a CUDA tensor, got one on {device}"
    index = torch.cuda.current_device() if device is None or device.index is None else device.index
    if capability(index) != (9, 0):
        return f"it needs a Hopper GPU (sm_90: wgmma, TMA, setmaxnreg), not cuda:{index}"
    return None


@functools.cache
def _no_gpu() -> str | None:
    # Asked on every call that could take this path; neither changes in a process.
    if interpreting() or not torch.cuda.is_available():
        return "it needs a CUDA GPU (it is compiled Gluon, which Triton cannot interpret)"
    return None


def refusal(q: torch.Tensor, dims: AttentionDims, *, window: object) -> str | None:
    """Why this kernel cannot compute the call, naming the argument; None if it can."""
    if q.dtype not in (torch.float16, torch.bfloat16):
        return f"q: expected float16 or bfloat16, got {q.dtype}"
    if dims.d != HEAD_DIM or dims.dv != HEAD_DIM:
        return f"q, v: expected head dims D = Dv = {HEAD_DIM}, got D = {dims.d}, Dv = {dims.dv}"
    if window is not None:
        return f"window: expected None (the Hopper kernel has no sliding window), got {window}"
    if dims.batch * dims.hq > MAX_BATCH_HEADS:
        return (f"q: expected B * Hq <= {MAX_BATCH_HEADS} (the grid's (batch, head) "
                f"programs), got {dims.batch * dims.hq}")
    if (why := unavailable(q.device)) is not None:
        return f"q: {why}"
    return None


def _tma_ready(t: torch.Tensor) -> torch.Tensor:
    """``t`` (4-D), or a dense copy if TMA cannot address it (``tma_addressable``)."""
    if tma_addressable(t):
        return t
    return torch.empty(t.shape, dtype=t.dtype, device=t.device).copy_(t)


@functools.cache
def _layout(rows: int) -> gl.NVMMASharedLayout:
    # The same swizzle for fp16 and bf16: it depends on the element's width.
    return gl.NVMMASharedLayout.get_default_for([1, 1, rows, HEAD_DIM], gl.float16)


def _leading(tensors: tuple[torch.Tensor, ...], again: bool) -> tuple:
    """q, k, v, out as TMA descriptors (Q's and the output's 64-row blocks,
    K's and V's 128-row ones), then the LSE pointer and the output's."""
    *tiled, lse, out = tensors
    rows = (HALF_M.value, BLOCK_N.value, BLOCK_N.value, HALF_M.value)
    if again:
        descs = [HostDescriptor(t, t.shape, t.stride()) for t in tiled]
    else:
        descs = [TensorDescriptor(t, list(t.shape), list(t.stride()), [1, 1, r, HEAD_DIM],
                                  _layout(r)) for t, r in zip(tiled, rows, strict=True)]
    return (*descs, lse, out)


_HOPPER = LaunchCache(_attention_kernel, leading=_leading)


def launch_plan(dims: AttentionDims, *, causal: bool, store_lse: bool, p_shift: float,
                pipeline: bool = PIPELINE, stages: int = STAGES, persistent: bool = False,
                sms: int = 1) -> tuple[tuple, tuple, dict]:
    """(grid, the arguments after the leading ones, constants and options) of
    a launch; ``persistent`` (pipelined, not causal) launches at most ``sms``
    programs."""
    if persistent and (causal or not pipeline):
        raise ValueError("persistent: expected a pipelined, non-causal launch "
                         f"(the tiles' blocks as one stream), got causal={causal}, "
                         f"pipeline={pipeline}")
    sign = (dims.scale > 0) - (dims.scale < 0)
    # A zero scale makes every score 0: the kernel masks them to 0 and
    # scales by log2(e) alone.
    qk_scale = (dims.scale if sign else 1.0) * LOG2E
    n_m = -(-dims.sq // BLOCK_M.value)
    n_tiles = n_m * dims.batch * dims.hq
    grid = (min(n_tiles, sms),) if persistent else (n_m, dims.batch * dims.hq)
    args = (dims.sq, dims.sk, dims.hq, dims.group, dims.diagonal, n_tiles, qk_scale, p_shift)
    meta = dict(CAUSAL=causal, PIPELINE=pipeline, STAGES=stages, SIGN=sign, STORE_LSE=store_lse,
                PERSISTENT=persistent, num_warps=4, maxnreg=168)
    return grid, args, meta


def _sms(persistent: bool) -> int:
    # Only a persistent grid asks (the stand-in GPU of the launch tests has none).
    return num_sms(torch.cuda.current_device()) if persistent else 1


def launch_hopper(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
                  lse: torch.Tensor | None, dims: AttentionDims, *, causal: bool,
                  p_shift: float, pipeline: bool = PIPELINE, stages: int = STAGES,
                  persistent: bool | None = None, programs: int | None = None) -> None:
    """Attention into ``out`` (and contiguous fp32 ``lse`` if given), for a
    call ``refusal`` accepts with Sq, Sk > 0, on q's device made current;
    weights scaled by 2**-p_shift (``flash.weight_shift``).  ``pipeline`` and
    ``stages`` (2 or 3; 4 exceed shared memory) choose the consumer loop,
    ``persistent`` the grid: at most ``programs`` programs (default one per
    SM) each taking tiles in turn, storing into a dense output; by default
    where it may (pipelined, not causal: NOTES, g6)."""
    if persistent is None:
        persistent = pipeline and not causal
    q, k, v = _tma_ready(q), _tma_ready(k), _tma_ready(v)
    target = _tma_ready(out)
    if persistent and not target.is_contiguous():  # stored row by row, densely
        target = torch.empty(out.shape, dtype=out.dtype, device=out.device)
    plan = (dims, causal, lse is not None, p_shift, pipeline, stages, persistent, programs)
    _HOPPER.launch(plan, (q, k, v, target, lse if lse is not None else q, target),
                   lambda: launch_plan(dims, causal=causal, store_lse=lse is not None,
                                       p_shift=p_shift, pipeline=pipeline, stages=stages,
                                       persistent=persistent, sms=programs or _sms(persistent)))
    if target is not out:
        out.copy_(target)
