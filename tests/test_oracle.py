"""The oracle itself, against PyTorch's SDPA in float64 and hand-computed cases."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given
from hypothesis import strategies as st

from attnfuzz import reference


@st.composite
def qkv(draw):
    b, hkv = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    group = draw(st.sampled_from([1, 2, 4]))
    sq, sk, d, dv = (draw(st.integers(1, 12)) for _ in range(4))
    gen = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    q = torch.randn(b, hkv * group, sq, d, generator=gen, dtype=torch.float64)
    k = torch.randn(b, hkv, sk, d, generator=gen, dtype=torch.float64)
    v = torch.randn(b, hkv, sk, dv, generator=gen, dtype=torch.float64)
    return q, k, v


def sdpa(q, k, v, **kw):
    group = q.shape[1] // k.shape[1]
    return F.scaled_dot_product_attention(
        q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1), **kw
    )


@given(qkv(), st.booleans())
def test_matches_sdpa_non_causal(t, scaled):
    q, k, v = t
    scale = 0.3 if scaled else None
    got = reference.attention(q, k, v, scale=scale)
    torch.testing.assert_close(got, sdpa(q, k, v, scale=scale), rtol=1e-12, atol=1e-12)


@given(qkv())
def test_top_left_matches_sdpa_is_causal(t):
    q, k, v = t
    want = sdpa(q, k, v, is_causal=True)
    got = reference.attention(q, k, v, causal=True, alignment="top_left")
    # SDPA gives NaN for a row that sees no key (Sq > Sk never happens top-left:
    # row 0 always sees key 0), so every row is comparable.
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)


@given(qkv())
def test_bottom_right_matches_sdpa_with_explicit_mask(t):
    q, k, v = t
    sq, sk = q.shape[2], k.shape[2]
    mask = torch.ones(sq, sk, dtype=torch.bool).tril(diagonal=sk - sq)
    got = reference.attention(q, k, v, causal=True)
    want = sdpa(q, k, v, attn_mask=mask)
    sees = mask.any(-1)  # SDPA leaves rows that see nothing as NaN; ours are zero
    torch.testing.assert_close(got[:, :, sees], want[:, :, sees], rtol=1e-12, atol=1e-12)
    assert torch.equal(got[:, :, ~sees], torch.zeros_like(got[:, :, ~sees]))


def test_one_key_returns_its_value():
    q = torch.randn(1, 1, 3, 4, dtype=torch.float64)
    k = torch.randn(1, 1, 1, 4, dtype=torch.float64)
    v = torch.tensor([[[[1.0, -2.0, 3.0]]]], dtype=torch.float64)
    assert torch.equal(reference.attention(q, k, v), v.expand(1, 1, 3, 3))


def test_identical_keys_average_the_values():
    q = torch.randn(1, 1, 2, 4, dtype=torch.float64)
    k = torch.ones(1, 1, 4, 4, dtype=torch.float64)
    v = torch.arange(8, dtype=torch.float64).view(1, 1, 4, 2)
    out = reference.attention(q, k, v)
    torch.testing.assert_close(out, v.mean(dim=2, keepdim=True).expand(1, 1, 2, 2))


def test_fully_masked_row_is_zero():
    # bottom-right with Sq=3 > Sk=1: rows 0 and 1 see no key.
    q = torch.randn(1, 1, 3, 2, dtype=torch.float64)
    k = torch.randn(1, 1, 1, 2, dtype=torch.float64)
    v = torch.full((1, 1, 1, 2), 5.0, dtype=torch.float64)
    out = reference.attention(q, k, v, causal=True)
    assert torch.equal(out[0, 0, :2], torch.zeros(2, 2, dtype=torch.float64))
    assert torch.equal(out[0, 0, 2], torch.full((2,), 5.0, dtype=torch.float64))


@pytest.mark.parametrize(
    ("alignment", "expected"),
    [
        ("bottom_right", [[1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]),
        ("top_left", [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0]]),
    ],
)
def test_causal_visibility_by_hand(alignment, expected):
    assert reference.visible(3, 4, alignment).int().tolist() == expected


@pytest.mark.parametrize(
    ("alignment", "causal", "window", "expected"),
    [
        # 3 queries over 4 keys; bottom_right puts query i's diagonal at key i + 1.
        ("bottom_right", True, (1, 0), [[1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]),
        ("bottom_right", False, (0, 1), [[0, 1, 1, 0], [0, 0, 1, 1], [0, 0, 0, 1]]),
        ("top_left", False, (None, 0), [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0]]),
        ("top_left", True, (0, None), [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]),
        ("top_left", False, (2, 2), [[1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 1, 1]]),
    ],
)
def test_window_visibility_by_hand(alignment, causal, window, expected):
    got = reference.visible(3, 4, alignment, causal=causal, window=window)
    assert got.int().tolist() == expected


def test_softmax_is_shift_free_and_sums_to_one():
    x = torch.tensor([[1000.0, 1001.0, 999.0]])
    p = reference.softmax(x)
    assert torch.isfinite(p).all()
    torch.testing.assert_close(p.sum(-1), torch.ones(1, dtype=torch.float64))
