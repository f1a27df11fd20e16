"""Matmul and softmax cases."""

from __future__ import annotations

from hypothesis import strategies as st

from .model.cases import MatmulCase, SoftmaxCase
from .model.layouts import NAMES
from .model.values import FAMILIES
from .strategy_parts import (
    _names_for,
    _out_names,
    _within,
    layouts,
    masks,
    precisions,
    seq_lens,
    values,
    windows,
)

MATMUL_SCALES = (1.0, 0.5, 3.0, -2.0, 0.0)
SOFTMAX_SCALES = (1.0, 0.5, 4.0, -1.0, 0.0)


@st.composite
def matmul_cases(
    draw: st.DrawFn,
    dtype: str = "float32",
    *,
    transpose_b: bool = False,
    max_size: int = 130,
    layout_names: tuple[str, ...] = NAMES,
    families: tuple[str, ...] = FAMILIES,
) -> MatmulCase:
    """``a @ b`` (or ``a @ b.T``): M, N, K at block edges, 0-2 batch dims, layouts."""
    batch = draw(st.sampled_from([(), (2,), (2, 3)]))
    nd = len(batch) + 2
    names = _names_for(nd, layout_names)
    lay = layouts(nd, names)
    return MatmulCase(
        m=draw(seq_lens(max_size)), n=draw(seq_lens(max_size)),
        # K = 0 in one draw in ten: an empty sum, which the launchers special-case.
        k=0 if draw(st.integers(0, 9)) == 9 else draw(seq_lens(max_size)),
        batch=batch, transpose_b=transpose_b, dtype=dtype,
        input_precision=draw(precisions(dtype)),
        scale=draw(st.sampled_from(MATMUL_SCALES)),
        a_layout=draw(lay), b_layout=draw(lay), out_layout=draw(layouts(nd, _out_names(names))),
        values=draw(values(families)),
    )


@st.composite
def softmax_cases(
    draw: st.DrawFn,
    dtype: str = "float32",
    *,
    max_len: int = 300,
    families: tuple[str, ...] = FAMILIES,
    layout_names: tuple[str, ...] = NAMES,
    window: bool = False,
) -> SoftmaxCase:
    """Softmax over (rows, N) or (B, H, rows, N), causal either way, layouts,
    values; with ``window``, one draw in three has a sliding window."""
    lead = draw(st.sampled_from([(), (2,), (2, 3)]))
    mask = draw(masks())
    rows = draw(seq_lens(64))
    # N < rows often: bottom-right causal rows then see no entry at all.  Tied
    # to the rows or pinned to max_len but once in SMALL_ODDS, so either shrinks
    # without the other.
    cols = draw(st.one_of(seq_lens(max_len), _within(1, max(1, rows - 1), (1, max(rows, max_len))),
                          _within(max_len, max_len, (1, max_len))))
    windowed = window and draw(st.integers(0, 2)) == 2
    drawn_window = draw(windows(rows, cols, mask[1])) if windowed else None
    if drawn_window is not None and drawn_window[1] is not None and draw(st.booleans()):
        mask = (False, mask[1])  # a causal mask would hide the window's right edge
    shape = (*lead, rows, cols)
    nd = len(shape)
    names = _names_for(nd, layout_names)
    lay = layouts(nd, names)
    return SoftmaxCase(
        shape=shape, dtype=dtype, scale=draw(st.sampled_from(SOFTMAX_SCALES)),
        causal=mask[0], alignment=mask[1],
        window=drawn_window,
        x_layout=draw(lay), values=draw(values(families)),
        out_layout=draw(layouts(nd, _out_names(names))),
    )
