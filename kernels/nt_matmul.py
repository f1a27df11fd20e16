"""Transpose-free ``scale * a @ b.T``: b is given as (N, K).

Attention needs ``Q @ K^T`` with K stored as (Sk, D).  Rather than
materialising the transpose, the tiled matmul kernel reads B as (N, K)
through swapped strides: element (k, n) of the logical B^T lives at
``n * b.stride(-2) + k * b.stride(-1)``.  No byte of b is moved.
"""

from __future__ import annotations

import torch

from ._checks import (
    PRECISIONS,
    as_4d,
    check_choice,
    check_computable,
    check_matmul_operands,
    check_scale,
    dot_precision,
    prepare_out,
)
from .tiled_matmul import launch_matmul


def launch_matmul_nt(
    a: torch.Tensor,
    b: torch.Tensor,
    c: torch.Tensor,
    *,
    group: int,
    scale: float,
    precision: str,
) -> None:
    """Write ``scale * a @ b^T`` into ``c``; all 4-D, b (B, H, N, K).

    B^T's (batch, head, k, n) strides are b's with the last two swapped.
    """
    sb, sh, sn, sk = b.stride()
    launch_matmul(
        a, (sb, sh, sk, sn), b, c, k=a.shape[3], group=group, scale=scale, precision=precision
    )


def matmul_nt(
    a: torch.Tensor,
    b: torch.Tensor,
    *,
    scale: float = 1.0,
    input_precision: str = "ieee",
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """``scale * a @ b.transpose(-1, -2)`` for a (..., M, K) and b (..., N, K)."""
    a, b = check_matmul_operands(a, b)
    inputs = (("a", a), ("b", b))
    check_computable(inputs)
    scale = check_scale(scale)
    check_choice(input_precision, "input_precision", PRECISIONS)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"a is (..., M, K={a.shape[-1]}) but b is (..., N, K={b.shape[-1]}); K must match"
        )
    out = prepare_out(out, (*a.shape[:-1], b.shape[-2]), a, inputs=inputs)
    a4, _ = as_4d(a)
    b4, _ = as_4d(b)
    launch_matmul_nt(
        a4, b4, as_4d(out)[0], group=1, scale=scale,
        precision=dot_precision(a.dtype, input_precision),
    )
    return out
