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

from ._checks import AttentionDims, Window, interpreting

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


@triton.jit
def _band(visible, kv, q, up_diag, lo_diag, UPPER: tl.constexpr, HAS_LEFT: tl.constexpr):
    """``visible`` where key ``kv`` lies in row ``q``'s band (``kv`` and ``q``
    broadcast against each other): ``kv <= q + up_diag`` with UPPER (causal or
    a right window), ``kv >= q + lo_diag`` with HAS_LEFT (a left window)."""
    if UPPER:
        visible = visible & (kv <= q + up_diag)
    if HAS_LEFT:
        visible = visible & (kv >= q + lo_diag)
    return visible


@triton.jit
def _band_diagonals(diagonal, win_left, win_right, HAS_LEFT: tl.constexpr,
                    HAS_RIGHT: tl.constexpr):
    """(up_diag, lo_diag) of ``_band``: row i sees keys up to ``i + diagonal``
    (plus the right window) and from ``i + diagonal - win_left``.  Causal
    launches carry no right window (it cannot widen the causal prefix)."""
    up_diag = diagonal
    if HAS_RIGHT:
        up_diag = diagonal + win_right
    lo_diag = diagonal
    if HAS_LEFT:
        lo_diag = diagonal - win_left
    return up_diag, lo_diag


@triton.jit
def _key_ranges(first, last, Sk, up_diag, lo_diag, BLOCK_N: tl.constexpr,
                UPPER: tl.constexpr, HAS_LEFT: tl.constexpr):
    """The key ranges of query rows [first, last], as (lo, full_lo, full_end, hi).

    Keys [lo, full_lo) and [full_end, hi) need a mask, [full_lo, full_end)
    are visible to every row (whole blocks), keys outside [lo, hi) to none.
    Row i sees key j iff ``j < Sk``, ``j <= i + up_diag`` (UPPER) and
    ``j >= i + lo_diag`` (HAS_LEFT).  ``lo``, ``full_lo`` and ``full_end``
    are whole blocks wherever a loop starts at them; without HAS_LEFT,
    ``lo = full_lo = 0``.  The ranges are in order and cover [lo, hi) (empty
    when no row sees a key).
    """
    if UPPER:
        full_end = tl.minimum(tl.maximum(first + up_diag + 1, 0), Sk)
        full_end = (full_end // BLOCK_N) * BLOCK_N
        hi = tl.minimum(tl.maximum(last + up_diag + 1, 0), Sk)
    else:
        full_end = (Sk // BLOCK_N) * BLOCK_N
        hi = Sk
    if HAS_LEFT:
        # The first row sees the leftmost key, the last row's left edge
        # starts the keys every row sees.
        lo = tl.maximum(first + lo_diag, 0) // BLOCK_N * BLOCK_N
        full_lo = tl.minimum(tl.cdiv(tl.maximum(last + lo_diag, 0), BLOCK_N) * BLOCK_N, hi)
        full_end = tl.maximum(full_end, full_lo)
    else:
        lo = 0
        full_lo = 0
    return lo, full_lo, full_end, hi


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


def launch_window(window: Window | None, causal: bool, span: int) -> Window | None:
    """The window (``check_window``'s) a launch runs, None for none.

    Causal launches drop the right side: ``j <= i + diagonal`` already
    implies ``j <= i + diagonal + right``.  Sides wider than ``span`` (Sq +
    Sk: -Sq <= diagonal <= Sk), which exclude no key, are clipped to it, so
    that the kernels' int32 sums stay in range.  Idempotent.
    """
    if window is None:
        return None
    left, right = window
    if causal:
        right = None
    if left is not None:
        left = min(left, span)
    if right is not None:
        right = min(right, span)
    return None if left is None and right is None else (left, right)


def window_args(window: Window | None) -> tuple[tuple[int, int], dict[str, bool]]:
    """A launch window's runtime sizes (WIN_LEFT, WIN_RIGHT; 0 for a missing
    side) and compile-time flags (HAS_LEFT, HAS_RIGHT)."""
    left, right = window or (None, None)
    return (left or 0, right or 0), dict(HAS_LEFT=left is not None, HAS_RIGHT=right is not None)


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
