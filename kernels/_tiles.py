"""Tiles: what the fused kernels (``flash``, ``flash_backward``) share.

Launch configurations and their plain-integer arithmetic, the padding of head
dims to tile widths (with the sm_90 workarounds it needs), the masked tile
load, the device a launch runs on, and the base-2 constants of exp2.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import torch
import triton
import triton.language as tl

from ._checks import AttentionDims, interpreting

LOG2E = 1.4426950408889634
LN2 = 0.6931471805599453
# The same two numbers as compile-time constants for use inside kernels.
_LOG2E: tl.constexpr = tl.constexpr(LOG2E)
_LN2: tl.constexpr = tl.constexpr(LN2)


@triton.jit
def _load_2d(ptrs, rows, n_rows, cols, n_cols, CHECK_ROWS: tl.constexpr, CHECK_COLS: tl.constexpr):
    """Load a tile, masking (to 0) only the dims that can run out of bounds."""
    if CHECK_ROWS and CHECK_COLS:
        x = tl.load(ptrs, mask=(rows[:, None] < n_rows) & (cols[None, :] < n_cols), other=0.0)
    elif CHECK_ROWS:
        x = tl.load(ptrs, mask=rows[:, None] < n_rows, other=0.0)
    elif CHECK_COLS:
        x = tl.load(ptrs, mask=cols[None, :] < n_cols, other=0.0)
    else:
        x = tl.load(ptrs)
    return x


class Config(NamedTuple):
    """Tile sizes and launch parameters of one kernel launch."""

    block_m: int
    block_n: int
    num_warps: int
    num_stages: int


# Plain integer helpers for the launchers: triton.cdiv and
# triton.next_power_of_2 are constexpr_function wrappers in Triton 3.6 that
# cost microseconds per call from host code, and short launches are bound by
# host time.
def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _next_pow2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    return 1 << max(n - 1, 0).bit_length()


def _head_block(dim: int) -> int:
    """Pad a head dim to a power of two, at least 16 (the smallest dot operand)."""
    return max(16, _next_pow2(dim))


def _head_meta(dims: AttentionDims) -> dict[str, int | bool]:
    """Compile-time head-dim parameters: padded block widths and whether to mask.

    On the GPU, some padded (masked) head dims compile with Triton 3.6 to a
    kernel that reads shared memory out of bounds (compute-sanitizer: "Invalid
    __shared__ read" in the P @ V dot), e.g. D = 40 with Dv = 24, or D = 1
    with Dv = 32 (both found by the fuzzer).  Unpadded D = Dv = 32 faulted
    too (illegal address in causal launches with Sq > Sk).  Padded pairs and
    widths under 64 therefore use one common width of at least 64; unpadded
    head dims of 64 and more are not affected.
    """
    block_d, block_dv = _head_block(dims.d), _head_block(dims.dv)
    padded = block_d != dims.d or block_dv != dims.dv
    if not interpreting() and (padded or min(block_d, block_dv) < 64):
        block_d = block_dv = max(64, block_d, block_dv)
    return dict(BLOCK_D=block_d, BLOCK_DV=block_dv,
                PAD_D=block_d != dims.d, PAD_DV=block_dv != dims.dv)


def _tile_kind(dtype: torch.dtype, precision: str, d: int, dv: int) -> tuple[str, int]:
    """(operand kind, widest padded head dim: 64, 128 or 256), the config table key."""
    kind = "16bit" if dtype != torch.float32 else precision
    return kind, max(64, _head_block(d), _head_block(dv))


def _on_device_of(t: torch.Tensor) -> contextlib.AbstractContextManager:
    """Make ``t``'s GPU current for the launch: Triton launches on the current
    device, which need not be t's.  Skipped when it already is, because a short
    launch is bound by host time and the device switch is part of it."""
    if interpreting() or t.device.index == torch.cuda.current_device():
        return contextlib.nullcontext()
    return torch.cuda.device(t.device)
