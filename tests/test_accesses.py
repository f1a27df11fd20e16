"""The interpreter's memory check: accesses outside a launch's tensors are findings,
even when the value read is discarded and no output shows it."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from attnfuzz.properties import backend
from attnfuzz.properties.checks import accesses
from attnfuzz.properties.checks.oracle import against_oracle
from attnfuzz.properties.implementations import Implementation
from attnfuzz.properties.model.cases import AttentionCase

pytestmark = pytest.mark.skipif(not backend.interpreting(),
                                reason="checks the interpreter's accesses (a GPU has memcheck)")


@triton.jit
def _shifted_copy(x, y, n, s_x, SHIFT: tl.constexpr, READ_MASKED: tl.constexpr,
                  BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    src = offs + SHIFT
    if READ_MASKED:
        vals = tl.load(x + src * s_x, mask=(src >= 0) & (src < n), other=0.0)
    else:
        vals = tl.load(x + src * s_x)  # lanes outside are read, then discarded below
    vals = tl.where((src >= 0) & (src < n), vals, 0.0)
    tl.store(y + offs, vals, mask=offs < n)


def _copy(x: torch.Tensor, shift: int, masked: bool) -> torch.Tensor:
    y = torch.empty(x.shape[0], dtype=x.dtype)
    _shifted_copy[(1,)](x, y, x.shape[0], x.stride(0), SHIFT=shift, READ_MASKED=masked,
                        BLOCK=16)
    return y


def test_in_bounds_reads_pass():
    x = torch.arange(10.0)
    with accesses.watching() as seen:
        y = _copy(x, 1, masked=True)
    assert seen == []
    assert torch.equal(y[:9], x[1:])


@pytest.mark.parametrize("shift, where", [(3, "past the end of x"), (-2, "before x")])
def test_discarded_reads_outside_are_found(shift, where):
    x = torch.arange(10.0)
    with accesses.watching() as seen:
        y = _copy(x, shift, masked=False)
    # The output is right: only the check sees the reads.
    want = torch.zeros(10)
    lo, hi = max(0, -shift), min(10, 10 - shift)
    want[lo:hi] = x[lo + shift:hi + shift]
    assert torch.equal(y, want)
    assert seen and seen[0].op == "load" and where in seen[0].where, seen
    assert seen[0].kernel == "_shifted_copy" and seen[0].program == (0, 0, 0)


def test_reads_between_the_rows_of_a_view_are_found():
    # Column 0 of a (10, 4) tensor: the elements between are memory of the same
    # allocation, but not of the tensor the kernel was given.
    base = torch.arange(40.0).reshape(10, 4)
    col = base[:, 0]
    with accesses.watching() as seen:
        _copy(col, 0, masked=True)
    assert seen == []
    with accesses.watching() as seen:
        _copy(col[:9], 3, masked=False)  # reads rows 9.. of a 9-row view
    assert seen and "x" in seen[0].where


@triton.jit
def _wide_store(y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, offs.to(tl.float32))  # no mask: lanes past n write the heap


def test_stores_outside_are_found_and_not_performed():
    buf = torch.full((32,), -1.0)
    y = buf[:10]
    with accesses.watching() as seen:
        _wide_store[(1,)](y, 10, BLOCK=16)
    assert seen and seen[0].op == "store" and "past the end of y" in seen[0].where
    assert torch.equal(buf[:10], torch.arange(10.0))
    assert bool((buf[10:] == -1.0).all()), "a store outside the tensor was performed"


def _prescaled_attention(q, k, v, out, *, causal, scale, alignment, input_precision):
    """A user's attention whose Triton pre-pass reads past q (values discarded)."""
    flat = q.reshape(-1)
    _copy(flat, 2, masked=False)
    o = torch.nn.functional.scaled_dot_product_attention(
        q.double(), k.double(), v.double(), scale=scale).to(q.dtype)
    return {"out": o}


def test_a_discarded_read_is_a_memory_finding_of_the_oracle_property():
    impl = Implementation("prescaled", "attention", _prescaled_attention, writes_out=False)
    case = AttentionCase(sq=3, sk=3, d=4, dv=4)
    verdicts = against_oracle(impl, case)
    bad = [v for v in verdicts if not v.ok]
    assert [v.kind for v in bad] == ["memory"], [v.describe() for v in verdicts]
    assert "past the end of x" in bad[0].check
