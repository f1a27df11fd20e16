"""Three-kernel attention: scores = scale * Q K^T, softmax in place, then P V.

The Sq x Sk score matrix is materialised in fp32.  ``Q K^T`` reads K through
swapped strides (see ``matmul_nt``), and both matmuls map query head ``h`` to
KV head ``h // (Hq // Hkv)`` inside the kernel, so GQA never repeats K or V.
P is rounded to V's dtype for the second product, as a fused kernel would.

The backward reuses the same three kernels plus the softmax backward.  With
``dO`` the output's gradient and S = scale * Q K^T:

    dV = P^T dO    dP = dO V^T    dS = P * (dP - rowsum(P * dP))
    dQ = scale * dS K             dK = scale * dS^T Q

P is kept from the forward (the kernels materialise it anyway), so nothing
is recomputed; the softmax backward takes the forward's causal and window
masks again.  dV and dK sum over the query heads that share a KV head.
Rather than a reduction kernel, that sum joins the matmul's own: P, which is
contiguous (B, Hq, Sq, Sk), is also (B, Hkv, group * Sq, Sk), and with dO
gathered the same way, (B, Hkv, group * Sq, Dv), one product P^T dO reduces
over the group and the queries at once, in a fixed order (no atomics, so
reruns are bit-identical).
"""

from __future__ import annotations

import torch

from ._checks import (
    AttentionDims,
    Window,
    check_attention_inputs,
    check_computable,
    check_differentiable_out,
    check_flag,
    check_window,
    dot_precision,
    needs_grad,
    prepare_out,
)
from .nt_matmul import launch_matmul_nt
from .row_softmax import launch_softmax, launch_softmax_backward
from .tiled_matmul import launch_matmul


def _attend(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    out: torch.Tensor,
    probs: torch.Tensor,
    dims: AttentionDims,
    causal: bool,
    window: Window | None,
    precision: str,
) -> None:
    if out.numel() and dims.sk == 0:
        out.zero_()
    elif out.numel():
        launch_matmul_nt(q, k, probs, group=dims.group, scale=dims.scale, precision=precision)
        launch_softmax(probs, probs, scale=1.0, causal=causal, diagonal=dims.diagonal,
                       window=window)
        launch_matmul(
            probs, tuple(v.stride()), v, out,
            k=dims.sk, group=dims.group, scale=1.0, precision=precision,
        )


def _by_kv_head(t: torch.Tensor, hkv: int) -> torch.Tensor:
    """(B, Hq, S, X) as (B, Hkv, group * S, X): a view when the heads allow, else a copy."""
    b, hq, s, x = t.shape
    return t.reshape(b, hkv, hq // max(hkv, 1) * s, x)


def _attention_backward(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    probs: torch.Tensor,
    d_out: torch.Tensor,
    dims: AttentionDims,
    causal: bool,
    window: Window | None,
    precision: str,
    wanted: tuple[bool, bool, bool],
) -> tuple[torch.Tensor | None, torch.Tensor | None, torch.Tensor | None]:
    """(dq, dk, dv), None where not ``wanted``.

    Each matmul rounds its fp32 A (P or dS) to B's dtype and accumulates in
    fp32, as the forward's P V does; the scale is applied to dQ's and dK's
    fp32 accumulators, not to dS.
    """
    want_q, want_k, want_v = wanted
    hkv = dims.hkv
    group = dims.hq // max(hkv, 1)  # Hq = Hkv = 0 is a valid empty call
    dq = dk = dv = None
    if want_v:
        dv = torch.empty(v.shape, dtype=v.dtype, device=v.device)
        d_out_g = _by_kv_head(d_out, hkv)
        # A transposed view: the kernel reads A through its strides.
        launch_matmul(
            _by_kv_head(probs, hkv).transpose(2, 3), tuple(d_out_g.stride()), d_out_g, dv,
            k=group * dims.sq, group=1, scale=1.0, precision=precision,
        )
    if not (want_q or want_k):
        return dq, dk, dv
    # dP, then dS written over it: the softmax backward may write in place.
    ds = torch.empty(probs.shape, dtype=torch.float32, device=probs.device)
    launch_matmul_nt(d_out, v, ds, group=group, scale=1.0, precision=precision)
    launch_softmax_backward(
        probs, ds, ds, scale=1.0, causal=causal, diagonal=dims.diagonal, window=window
    )
    if want_q:
        dq = torch.empty(q.shape, dtype=q.dtype, device=q.device)
        launch_matmul(
            ds, tuple(k.stride()), k, dq,
            k=dims.sk, group=group, scale=dims.scale, precision=precision,
        )
    if want_k:
        dk = torch.empty(k.shape, dtype=k.dtype, device=k.device)
        q_g = _by_kv_head(q, hkv)
        launch_matmul(
            _by_kv_head(ds, hkv).transpose(2, 3), tuple(q_g.stride()), q_g, dk,
            k=group * dims.sq, group=1, scale=dims.scale, precision=precision,
        )
    return dq, dk, dv


class _NaiveAttention(torch.autograd.Function):
    """Returns (out, probs); probs is not differentiable."""

    @staticmethod
    def forward(ctx, q, k, v, dims, causal, window, precision):
        out = torch.empty((dims.batch, dims.hq, dims.sq, dims.dv), dtype=q.dtype, device=q.device)
        probs = torch.empty(
            (dims.batch, dims.hq, dims.sq, dims.sk), dtype=torch.float32, device=q.device
        )
        _attend(q, k, v, out, probs, dims, causal, window, precision)
        # A caller who edits the returned probs in place gets autograd's
        # version-counter error at backward, not wrong gradients.
        ctx.save_for_backward(q, k, v, probs)
        ctx.mark_non_differentiable(probs)
        ctx.set_materialize_grads(False)
        ctx.options = (dims, causal, window, precision)
        return out, probs

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, d_out, _d_probs):
        if d_out is None:
            return None, None, None, None, None, None, None
        q, k, v, probs = ctx.saved_tensors
        grads = _attention_backward(
            q, k, v, probs, d_out, *ctx.options, wanted=tuple(ctx.needs_input_grad[:3])
        )
        return *grads, None, None, None, None


def naive_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_probs: bool = False,
    out: torch.Tensor | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(scale * q k^T [+ causal and window masks]) v.

    q (B, Hq, Sq, D), k (B, Hkv, Sk, D), v (B, Hkv, Sk, Dv) with Hq % Hkv == 0;
    returns (B, Hq, Sq, Dv) in q's dtype, and with ``return_probs`` also the
    fp32 probabilities (B, Hq, Sq, Sk).  ``scale`` defaults to D**-0.5.
    Causal visibility: key j is visible to query i iff j <= i + (Sk - Sq)
    (``bottom_right``, the KV-cache convention) or j <= i (``top_left``).
    ``window=(left, right)``, with or without ``causal``, also requires
    i + off - left <= j <= i + off + right (off = Sk - Sq or 0, as above;
    None on a side is unlimited).  A query that sees no key outputs zeros.
    ``out`` (any strides) receives the result if given.  Differentiable in
    q, k and v (then without ``out``); the probabilities are not.
    """
    dims = check_attention_inputs(
        q, k, v, causal=causal, scale=scale, alignment=alignment, input_precision=input_precision
    )
    inputs = (("q", q), ("k", k), ("v", v))
    check_computable(inputs, differentiable=True)
    check_flag(return_probs, "return_probs")
    window = check_window(window)
    precision = dot_precision(q.dtype, input_precision)
    if needs_grad((q, k, v)):
        check_differentiable_out(out, inputs)
        out, probs = _NaiveAttention.apply(q, k, v, dims, causal, window, precision)
        return (out, probs) if return_probs else out
    out = prepare_out(out, (dims.batch, dims.hq, dims.sq, dims.dv), q, inputs=inputs)
    probs = torch.empty(
        (dims.batch, dims.hq, dims.sq, dims.sk), dtype=torch.float32, device=q.device
    )
    _attend(q, k, v, out, probs, dims, causal, window, precision)
    return (out, probs) if return_probs else out
