"""Three-kernel attention: scores = scale * Q K^T, softmax in place, then P V.

The Sq x Sk score matrix is materialised in fp32.  ``Q K^T`` reads K through
swapped strides (see ``matmul_nt``), and both matmuls map query head ``h`` to
KV head ``h // (Hq // Hkv)`` inside the kernel, so GQA never repeats K or V.
P is rounded to V's dtype for the second product, as a fused kernel would.
"""

from __future__ import annotations

import torch

from ._checks import (
    check_attention_inputs,
    check_computable,
    check_flag,
    dot_precision,
    prepare_out,
)
from .nt_matmul import launch_matmul_nt
from .row_softmax import launch_softmax
from .tiled_matmul import launch_matmul


def naive_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    input_precision: str = "ieee",
    return_probs: bool = False,
    out: torch.Tensor | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(scale * q k^T [+ causal mask]) v.

    q (B, Hq, Sq, D), k (B, Hkv, Sk, D), v (B, Hkv, Sk, Dv) with Hq % Hkv == 0;
    returns (B, Hq, Sq, Dv) in q's dtype, and with ``return_probs`` also the
    fp32 probabilities (B, Hq, Sq, Sk).  ``scale`` defaults to D**-0.5.
    Causal visibility: key j is visible to query i iff j <= i + (Sk - Sq)
    (``bottom_right``, the KV-cache convention) or j <= i (``top_left``).
    A query that sees no key outputs zeros.  ``out`` (any strides) receives
    the result if given.
    """
    dims = check_attention_inputs(
        q, k, v, causal=causal, scale=scale, alignment=alignment, input_precision=input_precision
    )
    inputs = (("q", q), ("k", k), ("v", v))
    check_computable(inputs)
    check_flag(return_probs, "return_probs")
    precision = dot_precision(q.dtype, input_precision)
    out = prepare_out(out, (dims.batch, dims.hq, dims.sq, dims.dv), q, inputs=inputs)
    probs = torch.empty(
        (dims.batch, dims.hq, dims.sq, dims.sk), dtype=torch.float32, device=q.device
    )
    if out.numel() and dims.sk == 0:
        out.zero_()
    elif out.numel():
        launch_matmul_nt(q, k, probs, group=dims.group, scale=dims.scale, precision=precision)
        launch_softmax(probs, probs, scale=1.0, causal=causal, diagonal=dims.diagonal)
        launch_matmul(
            probs, tuple(v.stride()), v, out,
            k=dims.sk, group=dims.group, scale=1.0, precision=precision,
        )
    return (out, probs) if return_probs else out
