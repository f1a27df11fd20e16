"""Tiled matmul: ``scale * a @ b`` with fp32 accumulation.

One program computes one BLOCK_M x BLOCK_N tile of one (batch, head) slice,
walking K in BLOCK_K steps with masked loads, so any M, N, K work.

The second program-id axis enumerates (batch, head) pairs.  The program splits
it back into a batch index and a head index and applies *both* strides: a
flattened ``pid * stride`` is only right when heads are packed contiguously
inside each batch, which is false for transposed or expanded views.

B may have fewer heads than A (GQA): head ``h`` of A reads head
``h // GROUP`` of B, so a shared KV head is read in place, never repeated.

Every offset that grows with the tensor size is computed in int64, so tensors
with more than 2**31 elements are addressed correctly.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ._checks import (
    PRECISIONS,
    as_4d,
    check_choice,
    check_computable,
    check_matmul_operands,
    check_scale,
    dot_precision,
    interpreting,
    prepare_out,
)


# Sizes and strides vary from case to case; specialising on them (== 1, % 16)
# would compile a new binary for nearly every fuzz case.  The unit last-dim
# strides that matter for vectorised loads stay specialised.
@triton.jit(
    do_not_specialize=["M", "N", "K", "H", "GROUP", "s_ab", "s_ah", "s_am",
                       "s_bb", "s_bh", "s_bk", "s_cb", "s_ch", "s_cm"]
)
def _matmul_kernel(
    a_ptr, b_ptr, c_ptr,
    M, N, K, H, GROUP,
    s_ab, s_ah, s_am, s_ak,
    s_bb, s_bh, s_bk, s_bn,
    s_cb, s_ch, s_cm, s_cn,
    scale,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    PRECISION: tl.constexpr,
):
    pid_tile = tl.program_id(0)
    pid_bh = tl.program_id(1)
    tiles_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid_tile // tiles_n
    pid_n = pid_tile % tiles_n
    batch = (pid_bh // H).to(tl.int64)
    head = (pid_bh % H).to(tl.int64)
    head_b = head // GROUP

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N
    a_ptrs = (
        a_ptr + batch * s_ab + head * s_ah
        + offs_m[:, None].to(tl.int64) * s_am + offs_k[None, :].to(tl.int64) * s_ak
    )
    b_ptrs = (
        b_ptr + batch * s_bb + head_b * s_bh
        + offs_k[:, None].to(tl.int64) * s_bk + offs_n[None, :].to(tl.int64) * s_bn
    )

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in tl.range(0, K, BLOCK_K):
        mask_k = offs_k < K - k0
        a = tl.load(a_ptrs, mask=mask_m[:, None] & mask_k[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=mask_k[:, None] & mask_n[None, :], other=0.0)
        # A may be the fp32 probability matrix of attention while B holds the
        # values: round A to B's dtype so the dot runs on the tensor cores.
        acc = tl.dot(a.to(b.dtype), b, acc, input_precision=PRECISION)
        a_ptrs += BLOCK_K * s_ak
        b_ptrs += BLOCK_K * s_bk
    acc = acc * scale

    c_ptrs = (
        c_ptr + batch * s_cb + head * s_ch
        + offs_m[:, None].to(tl.int64) * s_cm + offs_n[None, :].to(tl.int64) * s_cn
    )
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def _blocks() -> tuple[int, int, int, int]:
    """(BLOCK_M, BLOCK_N, BLOCK_K, num_warps).

    The interpreter pays per operation per program, not per element, so it
    gets large tiles and few programs; the GPU gets a tensor-core sized tile.
    """
    if interpreting():
        return 64, 64, 64, 4
    return 64, 64, 32, 4


def launch_matmul(
    a: torch.Tensor,
    b_strides: tuple[int, int, int, int],
    b: torch.Tensor,
    c: torch.Tensor,
    *,
    k: int,
    group: int,
    scale: float,
    precision: str,
) -> None:
    """Write ``scale * a @ B`` into ``c``; all 4-D (B, H, ., .).

    ``b_strides`` are B's (batch, head, k, n) strides, which lets a caller pass
    a (N, K) tensor as its transpose without touching memory.
    """
    bsz, h, m, _ = a.shape
    n = c.shape[3]
    if c.numel() == 0:
        return
    if k == 0:
        c.zero_()
        return
    block_m, block_n, block_k, warps = _blocks()
    grid = (triton.cdiv(m, block_m) * triton.cdiv(n, block_n), bsz * h)
    _matmul_kernel[grid](
        a, b, c,
        m, n, k, h, group,
        *a.stride(), *b_strides, *c.stride(),
        scale,
        BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k,
        PRECISION=precision, num_warps=warps,
    )


def matmul(
    a: torch.Tensor,
    b: torch.Tensor,
    *,
    scale: float = 1.0,
    input_precision: str = "ieee",
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """``scale * a @ b`` for a (..., M, K) and b (..., K, N), 0-2 shared leading dims.

    Accumulates in fp32; returns a's dtype (written into ``out`` if given).
    ``input_precision`` ('ieee' or 'tf32') only matters for float32 on a GPU.
    """
    a, b = check_matmul_operands(a, b)
    inputs = (("a", a), ("b", b))
    check_computable(inputs)
    scale = check_scale(scale)
    check_choice(input_precision, "input_precision", PRECISIONS)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"a is (..., M, K={a.shape[-1]}) but b is (..., K={b.shape[-2]}, N); K must match"
        )
    out = prepare_out(out, (*a.shape[:-1], b.shape[-1]), a, inputs=inputs)
    a4, _ = as_4d(a)
    b4, _ = as_4d(b)
    launch_matmul(
        a4, tuple(b4.stride()), b4, as_4d(out)[0],
        k=a4.shape[3], group=1, scale=scale,
        precision=dot_precision(a.dtype, input_precision),
    )
    return out
