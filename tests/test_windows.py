"""Sliding windows in ``softmax`` and ``naive_attention``: checks with exact answers only.

With ``off`` the causal offset (Sk - Sq for ``bottom_right``, 0 for
``top_left``), key j is visible to query i iff j < Sk, ``j <= i + off`` when
causal, ``j >= i + off - left`` and ``j <= i + off + right`` (a side of
None is unlimited).  No window, ``(None, None)`` and a window wider than the
sequence are the same kernels' same arithmetic: bit-identical.  Masked
entries and rows that see nothing are exactly 0, in the forward and in the
gradients.  Agreement with an oracle within error bounds is tested elsewhere.

``small`` blocks (16 rows, 16 columns a program) make rows of a few dozen
entries span several chunks, so the windowed kernels skip chunks that no row
of a program sees, also on the interpreter (whose chunk is otherwise 128).
"""

from __future__ import annotations

import pytest
import torch

from attnfuzz import kernels
from attnfuzz.kernels import row_softmax
from attnfuzz.properties import backend

DEV = backend.device()
BITS = {torch.float32: torch.int32, torch.float16: torch.int16}
ALIGNMENTS = ["bottom_right", "top_left"]


@pytest.fixture(params=["default", "small"])
def blocks(request, monkeypatch):
    if request.param == "small":
        monkeypatch.setattr(row_softmax, "_blocks", lambda n: (16, 16, 4))
    return request.param


def randn(gen, *shape, dtype=torch.float32):
    return torch.randn(*shape, generator=gen).to(dtype).to(DEV)


def same_bits(a, b):
    return (a.shape == b.shape and a.dtype == b.dtype
            and torch.equal(a.contiguous().view(BITS[a.dtype]), b.contiguous().view(BITS[b.dtype])))


def visible(m, n, alignment, causal, window):
    off = n - m if alignment == "bottom_right" else 0
    i = torch.arange(m, device=DEV)[:, None]
    j = torch.arange(n, device=DEV)[None, :]
    vis = torch.ones(m, n, dtype=torch.bool, device=DEV)
    if causal:
        vis &= j <= i + off
    left, right = window if window is not None else (None, None)
    if left is not None:
        vis &= j >= i + off - left
    if right is not None:
        vis &= j <= i + off + right
    return vis


def qkv(seed, *, sq, sk, hq=2, hkv=1, d=8, dv=6, dtype=torch.float32):
    gen = torch.Generator().manual_seed(seed)
    shapes = ((1, hq, sq, d), (1, hkv, sk, d), (1, hkv, sk, dv))
    return [randn(gen, *s, dtype=dtype).requires_grad_() for s in shapes]


def softmax_and_grad(x, dy, **kw):
    x = x.detach().requires_grad_()
    y = kernels.softmax(x, **kw)
    (dx,) = torch.autograd.grad(y, [x], dy)
    return y.detach(), dx


def attention_and_grads(q, k, v, d_out, **kw):
    out, probs = kernels.naive_attention(q, k, v, return_probs=True, **kw)
    return (out.detach(), probs, *torch.autograd.grad(out, [q, k, v], d_out))


# --- (a), (b): no window, (None, None) and a window wider than the sequence ----------------

@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("alignment", ALIGNMENTS)
def test_softmax_without_a_window_is_bit_identical(blocks, alignment, causal):
    m, n = 29, 45
    gen = torch.Generator().manual_seed(1)
    x, dy = randn(gen, 2, m, n), randn(gen, 2, m, n)
    kw = dict(scale=0.9, causal=causal, alignment=alignment)
    want = softmax_and_grad(x, dy, **kw)
    big = max(m, n)
    for window in (None, (None, None), (big, big), (big, None), (None, big), (10**12, 10**12)):
        got = softmax_and_grad(x, dy, window=window, **kw)
        assert all(same_bits(g, w) for g, w in zip(got, want, strict=True)), window
    # Without autograd too (the in-place path).
    for window in (None, (None, None), (big, big)):
        got = kernels.softmax(x, window=window, **kw)
        assert same_bits(got, want[0]), window


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("alignment", ALIGNMENTS)
def test_naive_attention_without_a_window_is_bit_identical(blocks, alignment, causal):
    sq, sk = 21, 34
    q, k, v = qkv(2, sq=sq, sk=sk)
    d_out = randn(torch.Generator().manual_seed(3), 1, 2, sq, 6)
    kw = dict(causal=causal, alignment=alignment)
    want = attention_and_grads(q, k, v, d_out, **kw)
    big = max(sq, sk)
    for window in (None, (None, None), (big, big), (big + 5, None), (None, big)):
        got = attention_and_grads(q, k, v, d_out, window=window, **kw)
        assert all(same_bits(g, w) for g, w in zip(got, want, strict=True)), window


# --- (c): what is outside the window is exactly 0 -------------------------------------------

# Smaller than, equal to (one side per shape) and larger than the sequence.
WINDOWS = [(0, 0), (2, 0), (0, 3), (3, None), (None, 2), (29, 40), (60, 60)]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("alignment", ALIGNMENTS)
@pytest.mark.parametrize("m, n", [(29, 40), (40, 29)])
def test_softmax_is_zero_outside_the_window(blocks, m, n, alignment, causal):
    gen = torch.Generator().manual_seed(4)
    x, dy = randn(gen, 2, m, n), randn(gen, 2, m, n)
    for window in WINDOWS:
        vis = visible(m, n, alignment, causal, window)
        y, dx = softmax_and_grad(x, dy, causal=causal, alignment=alignment, window=window)
        assert (y[:, ~vis] == 0).all() and (dx[:, ~vis] == 0).all(), window
        assert (y[:, vis] > 0).all(), window
        assert (y[:, ~vis.any(-1)] == 0).all(), window  # rows that see nothing


def test_softmax_window_zeros_in_half_precision_and_rows_that_see_nothing():
    m, n = 40, 29
    x = randn(torch.Generator().manual_seed(5), 1, 2, m, n, dtype=torch.float16)
    # bottom_right with Sq > Sk: off = -11, so with right = 0 the first 11 rows see nothing.
    vis = visible(m, n, "bottom_right", False, (3, 0))
    assert not vis[:11].any() and vis[11:].any(-1).all()
    y = kernels.softmax(x, window=(3, 0))
    assert y.dtype == torch.float16
    assert (y[..., ~vis] == 0).all() and (y[..., :11, :] == 0).all()
    assert (y[..., vis] > 0).all()


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("alignment", ALIGNMENTS)
def test_naive_attention_probs_are_zero_outside_the_window(blocks, alignment, causal):
    sq, sk = 26, 37
    q, k, v = qkv(6, sq=sq, sk=sk)
    d_out = randn(torch.Generator().manual_seed(7), 1, 2, sq, 6)
    for window in [(0, 0), (2, 0), (0, 3), (5, None), (None, 1), (26, 37), (40, 40)]:
        vis = visible(sq, sk, alignment, causal, window)
        out, probs, dq, dk, dv = attention_and_grads(
            q, k, v, d_out, causal=causal, alignment=alignment, window=window
        )
        assert (probs[..., ~vis] == 0).all() and (probs[..., vis] > 0).all(), window
        seen = vis.any(-1)
        assert (out[..., ~seen, :] == 0).all() and (dq[..., ~seen, :] == 0).all(), window
        # A key that no query sees gets no gradient at all.
        unseen = ~vis.any(0)
        assert (dk[..., unseen, :] == 0).all() and (dv[..., unseen, :] == 0).all(), window


@pytest.mark.skipif(not backend.interpreting(), reason="counts the interpreter's loads")
def test_windowed_softmax_loads_no_chunk_outside_the_window(blocks, monkeypatch):
    """Every load of a windowed launch has a lane some row sees: chunks wholly
    outside the window are skipped.  Without a window, causal rows still load
    (masked off) chunks past their diagonal, which shows the probe sees them."""
    from triton.runtime import interpreter

    empty = []
    load = interpreter.InterpreterBuilder.create_masked_load

    def counting(self, ptrs, mask, *args):
        empty.append(not mask.data.any())
        return load(self, ptrs, mask, *args)

    monkeypatch.setattr(interpreter.InterpreterBuilder, "create_masked_load", counting)
    gen = torch.Generator().manual_seed(12)
    m, n = 40, 45
    x, dy = randn(gen, 1, m, n), randn(gen, 1, m, n)
    for window in [(0, 0), (3, 1), (5, None), (None, 2)]:
        for causal in (False, True):
            empty.clear()
            softmax_and_grad(x, dy, causal=causal, alignment="top_left", window=window)
            assert empty and not any(empty), (window, causal)
    empty.clear()
    softmax_and_grad(x, dy, causal=True, alignment="top_left")
    assert any(empty) == (blocks == "small")


# --- (d): a window of one key ---------------------------------------------------------------

@pytest.mark.parametrize("s", [1, 17, 45])
def test_a_window_of_one_key_returns_that_value_and_no_query_gradient(blocks, s):
    """Window (0, 0), top_left, Sq == Sk: query i sees key i alone, so its
    softmax is exactly 1, out_i = v_i, dS = 1 * (dP - dP) = 0 (dQ = dK = 0)
    and dV = dO."""
    q, k, v = qkv(8, sq=s, sk=s, hq=1, hkv=1)
    d_out = randn(torch.Generator().manual_seed(9), 1, 1, s, 6)
    out, probs, dq, dk, dv = attention_and_grads(
        q, k, v, d_out, alignment="top_left", window=(0, 0)
    )
    assert torch.equal(probs[0, 0], torch.eye(s, device=DEV))
    assert torch.equal(out, v.detach())
    assert (dq == 0).all() and (dk == 0).all()
    assert torch.equal(dv, d_out)


# --- (e): bad windows -----------------------------------------------------------------------

BAD = [((-1, 0), ValueError, "window left"), ((0, -2), ValueError, "window right"),
       ((1.5, 0), ValueError, "window left"), ((True, 0), ValueError, "window left"),
       (5, TypeError, "window"), ((1, 2, 3), TypeError, "window"), ("ab", TypeError, "window")]


@pytest.mark.parametrize("window, error, words", BAD, ids=repr)
def test_bad_windows_raise(window, error, words):
    gen = torch.Generator().manual_seed(10)
    x = randn(gen, 1, 4, 5)
    q, k, v = qkv(11, sq=4, sk=5)
    with pytest.raises(error, match=words):
        kernels.softmax(x, window=window)
    with pytest.raises(error, match=words):
        kernels.naive_attention(q, k, v, window=window)
