"""Sliding windows in the fused kernels: exact checks only.

A window ``(left, right)`` limits query i to keys ``i + off - left <= j <=
i + off + right`` (``off`` the causal mask's alignment offset).  Windows that
exclude nothing must give the bits of no window (forward, LSE, gradients,
prefill and decode); a window of one key per row makes the result exactly
that key's value; rows left without a key give zeros; the launch caches must
key on the window.  Accuracy against a reference is the fuzzer's business.
"""

from __future__ import annotations

import math

import pytest
import torch

import attnfuzz.kernels.flash as fa
from attnfuzz.kernels import flash_attention, flash_decode, flash_prefill
from attnfuzz.properties import backend

DEV = backend.device()


def _draw(gen: torch.Generator, *size: int, dtype=torch.float32, integer=False) -> torch.Tensor:
    if integer:  # small integers: every dot product and row sum is exact in fp32
        x = torch.randint(-3, 4, size, generator=gen, device=DEV).to(dtype)
    else:
        x = torch.randn(*size, generator=gen, device=DEV).to(dtype)
    return x


def _qkv(seed: int, b: int, hq: int, hkv: int, sq: int, sk: int, d: int = 16,
         integer: bool = False) -> tuple[torch.Tensor, ...]:
    gen = torch.Generator(device=DEV).manual_seed(seed)
    return (_draw(gen, b, hq, sq, d, integer=integer), _draw(gen, b, hkv, sk, d, integer=integer),
            _draw(gen, b, hkv, sk, d, integer=integer), _draw(gen, b, hq, sq, d, integer=integer))


def _run(fn, q, k, v, do, **kw) -> tuple[torch.Tensor, ...]:
    """(out, lse, dq, dk, dv) of one differentiable call; also checks that its
    forward is the no-grad call's, bit for bit."""
    with torch.no_grad():
        plain, plain_lse = fn(q, k, v, return_lse=True, **kw)
    leaves = [t.detach().clone().requires_grad_() for t in (q, k, v)]
    out, lse = fn(*leaves, return_lse=True, **kw)
    assert torch.equal(out, plain) and torch.equal(lse, plain_lse)
    grads = torch.autograd.grad(out, leaves, do)
    return (out.detach(), lse, *grads)


def _assert_same(got: tuple, want: tuple) -> None:
    for name, a, b in zip(("out", "lse", "dq", "dk", "dv"), got, want, strict=True):
        assert torch.equal(a, b), f"{name} differs"


# Sides that exclude no key of a (sq, sk) case: wider than the sequences.
WIDE = 1000

PATHS = [
    pytest.param(flash_prefill, dict(b=1, hq=2, hkv=1, sq=70, sk=90), {}, id="prefill"),
    pytest.param(flash_decode, dict(b=1, hq=3, hkv=1, sq=3, sk=150), {"num_splits": 3},
                 id="decode"),
]


@pytest.mark.parametrize(("fn", "shape", "extra"), PATHS)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("alignment", ["bottom_right", "top_left"])
def test_windows_that_exclude_nothing_are_no_window(fn, shape, extra, causal, alignment):
    q, k, v, do = _qkv(1, **shape)
    kw = dict(causal=causal, alignment=alignment, **extra)
    want = _run(fn, q, k, v, do, **kw)
    for window in (None, (None, None), [None, None], (WIDE, WIDE), (WIDE, None), (None, WIDE),
                   (2**40, 2**40)):
        _assert_same(_run(fn, q, k, v, do, window=window, **kw), want)


@pytest.mark.parametrize(("fn", "sq", "extra"), [
    (flash_prefill, 70, {}), (flash_decode, 12, {}), (flash_attention, 12, {}),
])
@pytest.mark.parametrize("causal", [False, True])
def test_a_window_of_one_key_gives_that_key(fn, sq, extra, causal):
    """Window (0, 0), top_left, Sq == Sk: row i sees key i alone, so its
    output is v_i exactly, its LSE key i's logit and its dQ (and every dK) 0:
    p = 1 and dP - delta = dO . v_i - dO . O_i = 0.  Small-integer inputs
    and scale ln 2 (log2 e folded in: 1) keep every product exact."""
    q, k, v, do = _qkv(2, 1, 4, 2, sq, sq, integer=True)
    out, lse, dq, dk, _ = _run(fn, q, k, v, do, causal=causal, alignment="top_left",
                               window=(0, 0), scale=math.log(2), **extra)
    kv = k.repeat_interleave(2, 1), v.repeat_interleave(2, 1)
    assert torch.equal(out, kv[1])
    assert torch.equal(lse, (q * kv[0]).sum(-1) * math.log(2))
    assert torch.equal(dq, torch.zeros_like(dq))
    assert torch.equal(dk, torch.zeros_like(dk))


@pytest.mark.parametrize(("fn", "sq", "sk", "alignment", "causal", "blind"), [
    # bottom_right, Sq > Sk: row i sees key i - (Sq - Sk), none for i < Sq - Sk
    (flash_prefill, 80, 50, "bottom_right", False, slice(0, 30)),
    (flash_prefill, 80, 50, "bottom_right", True, slice(0, 30)),
    (flash_decode, 16, 10, "bottom_right", False, slice(0, 6)),
    # top_left, Sq > Sk: row i would see key i, which exists only for i < Sk
    (flash_prefill, 100, 40, "top_left", False, slice(40, 100)),
    (flash_decode, 16, 70, "top_left", True, slice(0, 0)),
    (flash_decode, 16, 9, "top_left", False, slice(9, 16)),
])
def test_rows_that_see_no_key_are_zero(fn, sq, sk, alignment, causal, blind):
    q, k, v, do = _qkv(3, 1, 2, 1, sq, sk)
    out, lse, dq, dk, dv = _run(fn, q, k, v, do, causal=causal, alignment=alignment,
                                window=(0, 0))
    assert torch.equal(out[:, :, blind], torch.zeros_like(out[:, :, blind]))
    assert bool((lse[:, :, blind] == float("-inf")).all())
    assert torch.equal(dq[:, :, blind], torch.zeros_like(dq[:, :, blind]))
    seen = torch.ones(sq, dtype=torch.bool)
    seen[blind] = False
    assert bool(torch.isfinite(lse[:, :, seen]).all())
    for g in (out, dq, dk, dv):
        assert bool(torch.isfinite(g).all())


@pytest.mark.parametrize("fn", [flash_attention, flash_prefill, flash_decode])
@pytest.mark.parametrize(("window", "error"), [
    ((-1, 0), ValueError), ((0, -2), ValueError), ((1.5, None), ValueError),
    ((True, 0), ValueError), ((None, "3"), ValueError),
    (3, TypeError), ((1, 2, 3), TypeError), ((1,), TypeError), ("ab", TypeError),
])
def test_bad_windows_are_refused(fn, window, error):
    q, k, v, _ = _qkv(4, 1, 1, 1, 4, 8)
    with pytest.raises(error, match="window"):
        fn(q, k, v, window=window)


def _clear_launch_state() -> None:
    fa._PREFILL.entries.clear()
    fa._DECODE.entries.clear()
    fa._COUNTERS.clear()
    fa.decode_plan.cache_clear()


@pytest.mark.parametrize(("fn", "shape", "extra"), [
    (flash_prefill, dict(b=1, hq=2, hkv=2, sq=70, sk=130), {}),
    (flash_decode, dict(b=1, hq=2, hkv=1, sq=4, sk=260), {"num_splits": 4}),
])
def test_the_launch_caches_key_on_the_window(fn, shape, extra):
    """The same shapes with two windows in a row: each gets its own result,
    the one it gets with every launch cache cleared first."""
    q, k, v, do = _qkv(5, **shape)
    windows = ((40, 0), (3, 70), (None, 5))
    first = [_run(fn, q, k, v, do, window=w, causal=False, **extra) for w in windows]
    for w, got in zip(windows, first, strict=True):
        _clear_launch_state()
        _assert_same(_run(fn, q, k, v, do, window=w, causal=False, **extra), got)
    assert not torch.equal(first[0][0], first[1][0])
    assert not torch.equal(first[1][0], first[2][0])


def test_decode_plans_only_the_band():
    """A window's decode ranges cover the blocks of its band, not every key."""
    q, k, v, _ = _qkv(6, 1, 2, 1, 4, 1000)
    dims = fa.check_attention_inputs(q, k, v, causal=False, scale=None, alignment="bottom_right")
    block_n = fa.decode_config(q.dtype, "ieee", 16, 16, 2, 4).block_n
    full = fa.decode_plan(dims, q.dtype, "ieee", False, q.device, 4)
    band = fa.decode_plan(dims, q.dtype, "ieee", False, q.device, 4, None, (100, 0))
    assert full.splits * full.split_len >= 1000
    # row 0 sees keys from 996 - 100 = 896 (block 14 of 64 keys) on
    assert band.splits * band.split_len <= 4 * block_n
    assert band != fa.decode_plan(dims, q.dtype, "ieee", False, q.device, 4, None, (500, 0))
