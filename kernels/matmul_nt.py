"""Transpose-free ``scale * a @ b.T``: b is given as (N, K).

Attention needs ``Q @ K^T`` with K stored as (Sk, D).  Rather than
materialising the transpose, the tiled matmul kernel reads B as (N, K)
through swapped strides: element (k, n) of the logical B^T lives at
``n * b.stride(-2) + k * b.stride(-1)``.  No byte of b is moved.
"""

from __future__ import annotations

import torch

from kernels._checks import PRECISIONS, check_choice, check_scale, dot_precision, prepare_out
from kernels.matmul import as_4d, check_matmul_operands, launch_matmul


def transposed_strides(b4: torch.Tensor) -> tuple[int, int, int, int]:
    """(batch, head, k, n) strides of ``b4.transpose(-1, -2)`` for a (B, H, N, K) b4."""
    sb, sh, sn, sk = b4.stride()
    return sb, sh, sk, sn


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
    scale = check_scale(scale)
    check_choice(input_precision, "input_precision", PRECISIONS)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"a is (..., M, K={a.shape[-1]}) but b is (..., N, K={b.shape[-1]}); K must match"
        )
    out = prepare_out(out, (*a.shape[:-1], b.shape[-2]), a)
    a4, _ = as_4d(a)
    b4, _ = as_4d(b)
    launch_matmul(
        a4, transposed_strides(b4), b4, as_4d(out)[0],
        k=a4.shape[3], group=1, scale=scale,
        precision=dot_precision(a.dtype, input_precision),
    )  # fmt: skip
    return out
