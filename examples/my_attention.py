"""A small FlashAttention forward in Triton, in ``flash_attn_func``'s calling convention.

This is the kind of kernel attnfuzz is for: written by hand, fast where it
matters, and easy to get subtly wrong.  ``test_my_attention.py`` beside it
fuzzes it with attnfuzz in ten lines.

The algorithm is the one of Triton's fused-attention tutorial.  One program
owns BLOCK_M query rows of one (batch, head) and walks the keys BLOCK_N at a
time, keeping per row a running max ``m``, a running sum ``l`` of
``exp(logit - m)`` and an fp32 accumulator of ``exp(logit - m) @ V``.  When a
block raises the max, ``l`` and the accumulator are rescaled by
``exp(m_old - m_new)``, so the result is exact softmax attention however the
keys are split.  Exponentials are ``exp2`` with ``log2(e)`` folded into the
scale; the max lives in base-2 units until the LSE is written.

Causal masks are bottom-right aligned, as in FlashAttention 2.1 and later:
query ``i`` sees key ``j`` iff ``j <= i + (Sk - Sq)``, so with a KV cache
(Sk > Sq) the last query sees every key, and with Sq > Sk the first
``Sq - Sk`` queries see none (their output is 0 and their LSE ``-inf``).

What it supports, and refuses with a ``ValueError`` otherwise: float32 and
float16; head dims 16, 32 and 64, the same for V; as many KV heads as query
heads (no GQA); any strides as long as the head dim is contiguous.
``my_attention_buggy`` is the same kernel with a planted off-by-one, for
seeing what a finding looks like.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

HEAD_DIMS = (16, 32, 64)
# The accumulator sums up to MAX_SEQ values of V before it is normalised: over
# more keys, values near float32's largest overflow it, so longer sequences
# are refused rather than answered wrongly.
MAX_SEQ = 48
DTYPES = (torch.float32, torch.float16)
LOG2E = 1.4426950408889634
# Kernels read module globals only as compile-time constants.
_LN2: tl.constexpr = tl.constexpr(0.6931471805599453)
# One small config: 16 is the smallest tile tl.dot takes and keeps Triton's
# interpreter quick; a GPU would rather have 64 or 128.
BLOCK_M = 16
BLOCK_N = 16


@triton.jit
def _attn_fwd(
    Q, K, V, Out, Lse,
    stride_qb, stride_qm, stride_qh,
    stride_kb, stride_kn, stride_kh,
    stride_vb, stride_vn, stride_vh,
    stride_ob, stride_om, stride_oh,
    H, SEQ_Q, SEQ_K, qk_scale,
    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr, OFF_BY_ONE: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1)
    off_b = off_bh // H
    off_h = off_bh % H

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_ptrs = (Q + off_b * stride_qb + off_h * stride_qh
              + offs_m[:, None] * stride_qm + offs_d[None, :])
    k_ptrs = (K + off_b * stride_kb + off_h * stride_kh
              + offs_n[:, None] * stride_kn + offs_d[None, :])
    v_ptrs = (V + off_b * stride_vb + off_h * stride_vh
              + offs_n[:, None] * stride_vn + offs_d[None, :])
    q = tl.load(q_ptrs, mask=offs_m[:, None] < SEQ_Q, other=0.0)

    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)

    # Bottom-right: query i sees keys j <= i + diag.  Keys past what the
    # block's last row sees are never loaded.
    diag = SEQ_K - SEQ_Q
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M + diag, SEQ_K)
    else:
        hi = SEQ_K
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptrs + start_n * stride_kn, mask=cols[:, None] < SEQ_K, other=0.0)
        # "ieee": fp32 inputs would otherwise be rounded to tf32 on a GPU.
        qk = tl.dot(q, tl.trans(k), input_precision="ieee") * qk_scale
        visible = cols[None, :] < SEQ_K
        if CAUSAL:
            if OFF_BY_ONE:
                # The planted bug: each query loses its diagonal key.
                visible = visible & (cols[None, :] < offs_m[:, None] + diag)
            else:
                visible = visible & (cols[None, :] <= offs_m[:, None] + diag)
        qk = tl.where(visible, qk, float("-inf"))

        m_new = tl.maximum(m_i, tl.max(qk, 1))
        # A row that has seen no key yet has max -inf, and -inf - -inf is NaN.
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        p = tl.math.exp2(qk - m_safe[:, None])
        alpha = tl.math.exp2(m_i - m_safe)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptrs + start_n * stride_vn, mask=cols[:, None] < SEQ_K, other=0.0)
        # P is rounded to V's dtype, as FlashAttention does: fp16 P @ V is a tensor-core dot.
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v, input_precision="ieee")
        m_i = m_new

    # Rows that saw no key end with l = 0: output 0, LSE -inf.
    seen = l_i > 0.0
    l_safe = tl.where(seen, l_i, 1.0)
    out = acc / l_safe[:, None]
    lse = tl.where(seen, (m_i + tl.math.log2(l_safe)) * _LN2, float("-inf"))

    o_ptrs = (Out + off_b * stride_ob + off_h * stride_oh
              + offs_m[:, None] * stride_om + offs_d[None, :])
    tl.store(o_ptrs, out.to(Out.dtype.element_ty), mask=offs_m[:, None] < SEQ_Q)
    # Lse is allocated below as a contiguous (B, H, Sq).
    tl.store(Lse + off_bh * SEQ_Q + offs_m, lse, mask=offs_m < SEQ_Q)


def _check(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, dropout_p: float) -> None:
    """Refuse what the kernel does not compute, naming the argument."""
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.dim() != 4:
            raise ValueError(f"{name} must be (batch, seq, heads, head_dim), got {tuple(t.shape)}")
        if t.dtype not in DTYPES:
            raise ValueError(f"{name}.dtype must be float32 or float16, got {t.dtype}")
        if t.dtype != q.dtype or t.device != q.device:
            raise ValueError(f"{name} must have q's dtype and device")
        if t.shape[-1] not in HEAD_DIMS:
            raise ValueError(f"{name}'s head dim must be one of {HEAD_DIMS}, got {t.shape[-1]}")
        if t.stride(-1) != 1:
            raise ValueError(f"{name}'s head dim must be contiguous (stride 1), "
                             f"got stride {t.stride(-1)}")
    b, _, h, d = q.shape
    if k.shape[2] != h or v.shape[2] != h:
        raise ValueError(f"k and v must have q's {h} heads (no GQA), got {k.shape[2]} "
                         f"and {v.shape[2]}")
    if k.shape[0] != b or v.shape[0] != b or k.shape[-1] != d or v.shape[-1] != d:
        raise ValueError(f"k and v must have q's batch and head dim, got {tuple(k.shape)} "
                         f"and {tuple(v.shape)} for q {tuple(q.shape)}")
    if v.shape[1] != k.shape[1]:
        raise ValueError(f"v must have k's sequence length, got {v.shape[1]} and {k.shape[1]}")
    if max(q.shape[1], k.shape[1]) > MAX_SEQ:
        raise ValueError(f"q and k must have at most {MAX_SEQ} rows, got {q.shape[1]} and "
                         f"{k.shape[1]}")
    if dropout_p != 0.0:
        raise ValueError(f"dropout_p must be 0 (no dropout), got {dropout_p}")


def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, dropout_p: float,
               softmax_scale: float | None, causal: bool, return_lse: bool,
               off_by_one: bool) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    _check(q, k, v, dropout_p)
    b, seq_q, h, d = q.shape
    seq_k = k.shape[1]
    scale = d**-0.5 if softmax_scale is None else softmax_scale
    out = torch.empty_like(q, memory_format=torch.contiguous_format)
    lse = torch.empty((b, h, seq_q), dtype=torch.float32, device=q.device)
    grid = (triton.cdiv(seq_q, BLOCK_M), b * h)
    _attn_fwd[grid](
        q, k, v, out, lse,
        q.stride(0), q.stride(1), q.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        h, seq_q, seq_k, scale * LOG2E,
        HEAD_DIM=d, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, CAUSAL=causal, OFF_BY_ONE=off_by_one,
    )
    return (out, lse) if return_lse else out


def my_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, dropout_p: float = 0.0,
    softmax_scale: float | None = None, causal: bool = False, *, return_lse: bool = True,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(softmax_scale * q k^T) v on (batch, seq, heads, head_dim) tensors.

    Returns ``(out, lse)``: ``out`` like ``q``, ``lse`` (batch, heads, seq_q)
    in fp32, the natural log of each row's softmax denominator; only ``out``
    with ``return_lse=False``.  ``softmax_scale`` defaults to head_dim**-0.5.
    """
    return _attention(q, k, v, dropout_p, softmax_scale, causal, return_lse, off_by_one=False)


def my_attention_buggy(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, dropout_p: float = 0.0,
    softmax_scale: float | None = None, causal: bool = False, *, return_lse: bool = True,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``my_attention`` with a planted bug: causal masks hide each query's diagonal key."""
    return _attention(q, k, v, dropout_p, softmax_scale, causal, return_lse, off_by_one=True)
