"""Row softmax of ``scale * x`` over the last dim, with optional causal and window masks.

One program owns BLOCK_M rows of one (batch, head) slice and walks the row in
BLOCK_N chunks twice: the first pass keeps a running max and a running sum
rescaled to that max (so any row length works and ``exp`` never overflows),
the second writes ``exp(x - max) / sum``.  Because each program re-reads only
its own rows before writing them, ``y`` may alias ``x`` (in-place softmax).

Masked entries are loaded as ``-inf`` so they contribute ``exp(-inf) = 0``.
A row with no visible entry has max ``-inf``; it is shifted by 0 instead, so
its entries are ``exp(-inf) * (1 / 0 -> 0) = 0`` rather than NaN.

A sliding window ``(left, right)`` masks entry (i, j) unless
``i + DIAGONAL - left <= j <= i + DIAGONAL + right`` (a side may be absent,
``HAS_LEFT`` / ``HAS_RIGHT``).  With a window both passes walk only the
chunks that some row of the program can see (``_window_span``); the second
pass writes the others as zeros without loading them.  Skipping a chunk is
exact: a wholly masked chunk would rescale the running sum by ``exp(0)`` and
add 0.

The backward, ``dx = scale * y * (dy - rowsum(y * dy))``, walks each row
twice the same way: the first pass sums ``y * dy``, the second writes.  It
takes the forward's masks (causal and window) again so a masked entry's
gradient is exactly 0 whatever ``dy`` holds there.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ._checks import (
    ALIGNMENTS,
    Window,
    as_4d,
    causal_diagonal,
    check_choice,
    check_computable,
    check_differentiable_out,
    check_flag,
    check_scale,
    check_tensor,
    check_window,
    interpreting,
    needs_grad,
    prepare_out,
)
from ._launch import fresh_layout


@triton.jit
def _window_span(
    pid_m, M, N, DIAGONAL, WIN_LEFT, WIN_RIGHT,
    CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    """(lo, hi): the chunks ``lo, lo + BLOCK_N, ... < hi`` hold every entry
    that a row of this program sees; ``lo`` is a multiple of BLOCK_N in
    [0, N] and ``lo <= hi <= N``.  Only for windowed kernels."""
    first = pid_m * BLOCK_M
    last = tl.minimum(first + BLOCK_M, M) - 1
    lo = first * 0
    hi = first * 0 + N
    if HAS_LEFT:
        lo = tl.minimum(tl.maximum(first + DIAGONAL - WIN_LEFT, 0), N) // BLOCK_N * BLOCK_N
    if HAS_RIGHT:
        hi = tl.minimum(hi, last + DIAGONAL + WIN_RIGHT + 1)
    if CAUSAL:
        hi = tl.minimum(hi, last + DIAGONAL + 1)
    return lo, tl.maximum(hi, lo)


@triton.jit
def _window_end(lo, hi, BLOCK_N: tl.constexpr):
    """Where ``tl.range(lo, hi, BLOCK_N)`` stops: the first chunk it does not walk."""
    return lo + (hi - lo + BLOCK_N - 1) // BLOCK_N * BLOCK_N


# As for the matmul: no specialisation on sizes, window sides and outer strides.
@triton.jit(
    do_not_specialize=["M", "N", "H", "DIAGONAL", "WIN_LEFT", "WIN_RIGHT",
                       "s_xb", "s_xh", "s_xm", "s_yb", "s_yh", "s_ym"]
)
def _softmax_kernel(
    x_ptr, y_ptr,
    M, N, H, DIAGONAL, WIN_LEFT, WIN_RIGHT,
    s_xb, s_xh, s_xm, s_xn,
    s_yb, s_yh, s_ym, s_yn,
    scale,
    CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    batch = (pid_bh // H).to(tl.int64)
    head = (pid_bh % H).to(tl.int64)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    x_row = x_ptr + batch * s_xb + head * s_xh + rows[:, None].to(tl.int64) * s_xm
    y_row = y_ptr + batch * s_yb + head * s_yh + rows[:, None].to(tl.int64) * s_ym
    # Without a window every chunk is walked, as before windows existed.
    n_lo = 0
    n_hi = N
    if HAS_LEFT or HAS_RIGHT:
        n_lo, n_hi = _window_span(pid_m, M, N, DIAGONAL, WIN_LEFT, WIN_RIGHT,
                                  CAUSAL, HAS_LEFT, HAS_RIGHT, BLOCK_M, BLOCK_N)

    row_max = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    row_sum = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for n0 in tl.range(n_lo, n_hi, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        visible = row_ok[:, None] & (cols[None, :] < N)
        if HAS_LEFT:
            visible = visible & (cols[None, :] >= rows[:, None] + DIAGONAL - WIN_LEFT)
        if HAS_RIGHT:
            visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL + WIN_RIGHT)
        if CAUSAL:
            visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL)
        x = tl.load(x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)
        logits = tl.where(visible, x.to(tl.float32) * scale, float("-inf"))
        new_max = tl.maximum(row_max, tl.max(logits, axis=1))
        shift = tl.where(new_max == float("-inf"), 0.0, new_max)
        row_sum = row_sum * tl.exp(row_max - shift) + tl.sum(tl.exp(logits - shift[:, None]), 1)
        row_max = new_max

    shift = tl.where(row_max == float("-inf"), 0.0, row_max)
    # Divide by 1 on empty rows: both branches of tl.where are evaluated.
    inv_sum = tl.where(row_sum > 0.0, 1.0 / tl.where(row_sum > 0.0, row_sum, 1.0), 0.0)
    for n0 in tl.range(n_lo, n_hi, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        in_bounds = row_ok[:, None] & (cols[None, :] < N)
        visible = in_bounds
        if HAS_LEFT:
            visible = visible & (cols[None, :] >= rows[:, None] + DIAGONAL - WIN_LEFT)
        if HAS_RIGHT:
            visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL + WIN_RIGHT)
        if CAUSAL:
            visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL)
        x = tl.load(x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)
        logits = tl.where(visible, x.to(tl.float32) * scale, float("-inf"))
        p = tl.exp(logits - shift[:, None]) * inv_sum[:, None]
        tl.store(
            y_row + cols[None, :].to(tl.int64) * s_yn,
            p.to(y_ptr.dtype.element_ty),
            mask=in_bounds,
        )
    if HAS_LEFT or HAS_RIGHT:
        # The chunks no row of this program sees: zeros, written without loading x.
        zeros = tl.zeros((BLOCK_M, BLOCK_N), dtype=y_ptr.dtype.element_ty)
        for n0 in tl.range(0, n_lo, BLOCK_N):
            cols = n0 + tl.arange(0, BLOCK_N)
            tl.store(y_row + cols[None, :].to(tl.int64) * s_yn, zeros,
                     mask=row_ok[:, None] & (cols[None, :] < N))
        for n0 in tl.range(_window_end(n_lo, n_hi, BLOCK_N), N, BLOCK_N):
            cols = n0 + tl.arange(0, BLOCK_N)
            tl.store(y_row + cols[None, :].to(tl.int64) * s_yn, zeros,
                     mask=row_ok[:, None] & (cols[None, :] < N))


@triton.jit(
    do_not_specialize=["M", "N", "H", "DIAGONAL", "WIN_LEFT", "WIN_RIGHT", "s_yb", "s_yh", "s_ym",
                       "s_gb", "s_gh", "s_gm", "s_db", "s_dh", "s_dm"]
)
def _softmax_backward_kernel(
    y_ptr, dy_ptr, dx_ptr,
    M, N, H, DIAGONAL, WIN_LEFT, WIN_RIGHT,
    s_yb, s_yh, s_ym, s_yn,
    s_gb, s_gh, s_gm, s_gn,
    s_db, s_dh, s_dm, s_dn,
    scale,
    CAUSAL: tl.constexpr, HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    batch = (pid_bh // H).to(tl.int64)
    head = (pid_bh % H).to(tl.int64)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < M
    y_row = y_ptr + batch * s_yb + head * s_yh + rows[:, None].to(tl.int64) * s_ym
    dy_row = dy_ptr + batch * s_gb + head * s_gh + rows[:, None].to(tl.int64) * s_gm
    dx_row = dx_ptr + batch * s_db + head * s_dh + rows[:, None].to(tl.int64) * s_dm
    n_lo = 0
    n_hi = N
    if HAS_LEFT or HAS_RIGHT:
        n_lo, n_hi = _window_span(pid_m, M, N, DIAGONAL, WIN_LEFT, WIN_RIGHT,
                                  CAUSAL, HAS_LEFT, HAS_RIGHT, BLOCK_M, BLOCK_N)

    # Masked lanes load 0 for both factors, so they add nothing to the sum.
    row_dot = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for n0 in tl.range(n_lo, n_hi, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        seen = row_ok[:, None] & (cols[None, :] < N)
        if HAS_LEFT:
            seen = seen & (cols[None, :] >= rows[:, None] + DIAGONAL - WIN_LEFT)
        if HAS_RIGHT:
            seen = seen & (cols[None, :] <= rows[:, None] + DIAGONAL + WIN_RIGHT)
        if CAUSAL:
            seen = seen & (cols[None, :] <= rows[:, None] + DIAGONAL)
        y = tl.load(y_row + cols[None, :].to(tl.int64) * s_yn, mask=seen, other=0.0)
        dy = tl.load(dy_row + cols[None, :].to(tl.int64) * s_gn, mask=seen, other=0.0)
        row_dot += tl.sum(y.to(tl.float32) * dy.to(tl.float32), axis=1)

    for n0 in tl.range(n_lo, n_hi, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        inside = row_ok[:, None] & (cols[None, :] < N)
        seen = inside
        if CAUSAL:
            seen = seen & (cols[None, :] <= rows[:, None] + DIAGONAL)
        if HAS_LEFT:
            seen = seen & (cols[None, :] >= rows[:, None] + DIAGONAL - WIN_LEFT)
        if HAS_RIGHT:
            seen = seen & (cols[None, :] <= rows[:, None] + DIAGONAL + WIN_RIGHT)
        y = tl.load(y_row + cols[None, :].to(tl.int64) * s_yn, mask=seen, other=0.0)
        dy = tl.load(dy_row + cols[None, :].to(tl.int64) * s_gn, mask=seen, other=0.0)
        dx = y.to(tl.float32) * (dy.to(tl.float32) - row_dot[:, None]) * scale
        # 0 * (dy - dot) is 0 on masked lanes only while the sum is finite; say it outright.
        dx = tl.where(seen, dx, 0.0)
        tl.store(
            dx_row + cols[None, :].to(tl.int64) * s_dn,
            dx.to(dx_ptr.dtype.element_ty),
            mask=inside,
        )
    if HAS_LEFT or HAS_RIGHT:
        # The chunks no row of this program sees: zeros, written without loading y or dy.
        zeros = tl.zeros((BLOCK_M, BLOCK_N), dtype=dx_ptr.dtype.element_ty)
        for n0 in tl.range(0, n_lo, BLOCK_N):
            cols = n0 + tl.arange(0, BLOCK_N)
            tl.store(dx_row + cols[None, :].to(tl.int64) * s_dn, zeros,
                     mask=row_ok[:, None] & (cols[None, :] < N))
        for n0 in tl.range(_window_end(n_lo, n_hi, BLOCK_N), N, BLOCK_N):
            cols = n0 + tl.arange(0, BLOCK_N)
            tl.store(dx_row + cols[None, :].to(tl.int64) * s_dn, zeros,
                     mask=row_ok[:, None] & (cols[None, :] < N))


def _blocks(n: int) -> tuple[int, int, int]:
    """(BLOCK_M, BLOCK_N, num_warps).

    The interpreter gets few, wide programs; its chunk stays at 128 so rows a
    little longer than one block exercise the running-sum rescale.
    """
    width = triton.next_power_of_2(max(n, 16))
    if interpreting():
        return 32, min(width, 128), 4
    return 4, min(width, 1024), 4


def _window_args(window: Window | None, m: int, n: int) -> tuple[int, int, bool, bool]:
    """(WIN_LEFT, WIN_RIGHT, HAS_LEFT, HAS_RIGHT) for a checked ``window`` (None: no window).

    A side of ``m + n`` or more already reaches past every entry of every row
    (``-m <= DIAGONAL <= n``), so it is clamped there to fit the kernel's int32.
    Unlike the fused kernels' ``launch_window``, a causal launch keeps its
    right side: this kernel skips chunks only when windowed, so the right
    side is what spares causal rows the chunks past it.
    """
    left, right = window if window is not None else (None, None)
    return (
        0 if left is None else min(left, m + n),
        0 if right is None else min(right, m + n),
        left is not None,
        right is not None,
    )


def launch_softmax(
    x: torch.Tensor,
    y: torch.Tensor,
    *,
    scale: float,
    causal: bool,
    diagonal: int,
    window: Window | None = None,
) -> None:
    """Softmax over the last dim of 4-D ``x`` into 4-D ``y`` (may be ``x``).

    ``window`` is a pair checked by ``check_window`` (or None: no window).
    """
    bsz, h, m, n = x.shape
    if x.numel() == 0:
        return
    block_m, block_n, warps = _blocks(n)
    grid = (triton.cdiv(m, block_m), bsz * h)
    win_left, win_right, has_left, has_right = _window_args(window, m, n)
    x = fresh_layout(x)  # the row sums' order must not follow x's layout
    _softmax_kernel[grid](
        x, y,
        m, n, h, diagonal, win_left, win_right,
        *x.stride(), *y.stride(),
        scale,
        CAUSAL=causal, HAS_LEFT=has_left, HAS_RIGHT=has_right,
        BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps,
    )


def launch_softmax_backward(
    y: torch.Tensor,
    dy: torch.Tensor,
    dx: torch.Tensor,
    *,
    scale: float,
    causal: bool,
    diagonal: int,
    window: Window | None = None,
) -> None:
    """``dx = scale * y * (dy - rowsum(y * dy))`` over the last dim; all 4-D, any strides.

    ``y`` is the forward's output, and ``causal``, ``diagonal`` and ``window``
    its masks: masked entries get exactly 0.  ``dx`` may be ``y`` or ``dy`` itself (same
    storage, shape and strides), but must not overlap either otherwise: each
    program reads a chunk of its own rows, then writes that same chunk.
    """
    bsz, h, m, n = y.shape
    if y.numel() == 0:
        return
    block_m, block_n, warps = _blocks(n)
    grid = (triton.cdiv(m, block_m), bsz * h)
    win_left, win_right, has_left, has_right = _window_args(window, m, n)
    # rowsum(y * dy)'s order must not follow the layouts; a copy leaves dx
    # free to be the original y or dy.
    y, dy = fresh_layout(y), fresh_layout(dy)
    _softmax_backward_kernel[grid](
        y, dy, dx,
        m, n, h, diagonal, win_left, win_right,
        *y.stride(), *dy.stride(), *dx.stride(),
        scale,
        CAUSAL=causal, HAS_LEFT=has_left, HAS_RIGHT=has_right,
        BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps,
    )


class _Softmax(torch.autograd.Function):
    """The backward needs only the output: ``y`` is saved, ``x`` is not."""

    @staticmethod
    def forward(ctx, x, scale, causal, diagonal, window):
        y = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        ctx.options = dict(scale=scale, causal=causal, diagonal=diagonal, window=window)
        launch_softmax(as_4d(x)[0], as_4d(y)[0], **ctx.options)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        dx = torch.empty(y.shape, dtype=y.dtype, device=y.device)
        launch_softmax_backward(as_4d(y)[0], as_4d(dy)[0], as_4d(dx)[0], **ctx.options)
        return dx, None, None, None, None


def softmax(
    x: torch.Tensor,
    *,
    scale: float = 1.0,
    causal: bool = False,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    out: torch.Tensor | None = None,
) -> torch.Tensor:
    """Softmax over the last dim of ``scale * x`` for x (..., M, N), 0-2 leading dims.

    With ``causal``, entry (i, j) is visible iff ``j <= i + off``, where
    ``off = N - M`` (``alignment="bottom_right"``) or 0 (``"top_left"``).
    A ``window=(left, right)`` (with or without ``causal``) also hides (i, j)
    unless ``i + off - left <= j <= i + off + right``; None on a side is
    unlimited.  Rows with no visible entry are all zeros.  Computes in fp32
    and returns x's dtype.  Differentiable in x (then without ``out``);
    masked entries get gradient 0.
    """
    x = check_tensor("x", x, ndim=(2, 3, 4))
    inputs = (("x", x),)
    check_computable(inputs, differentiable=True)
    scale = check_scale(scale)
    check_flag(causal, "causal")
    check_choice(alignment, "alignment", ALIGNMENTS)
    window = check_window(window)
    m, n = x.shape[-2:]
    diagonal = causal_diagonal(m, n, alignment)
    if needs_grad((x,)):
        check_differentiable_out(out, inputs)
        return _Softmax.apply(x, scale, causal, diagonal, window)
    # In place is safe: each program re-reads only its own rows before writing them.
    out = prepare_out(out, tuple(x.shape), x, inputs=inputs, in_place=True)
    launch_softmax(
        as_4d(x)[0], as_4d(out)[0], scale=scale, causal=causal, diagonal=diagonal, window=window
    )
    return out
