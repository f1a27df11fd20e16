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


@triton.jit
def _block_copy(x, y, n, CHECK_LOAD: tl.constexpr, CHECK_STORE: tl.constexpr,
                BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    src = tl.make_block_ptr(x, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,),
                            order=(0,))
    dst = tl.make_block_ptr(y, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,),
                            order=(0,))
    if CHECK_LOAD:
        vals = tl.load(src, boundary_check=(0,), padding_option="zero")
    else:
        vals = tl.load(src)  # the tail block reads past n
    if CHECK_STORE:
        tl.store(dst, vals * 2, boundary_check=(0,))
    else:
        tl.store(dst, vals * 2)  # the tail block writes past n


def _block_doubled(n: int, check_load: bool, check_store: bool) -> tuple[torch.Tensor, list]:
    buf = torch.full((n + 16,), -1.0)
    x, y = torch.arange(float(n)), buf[:n]
    with accesses.watching() as seen:
        _block_copy[(triton.cdiv(n, 8),)](x, y, n, CHECK_LOAD=check_load,
                                          CHECK_STORE=check_store, BLOCK=8)
    assert bool((buf[n:] == -1.0).all()), "a store outside the tensor was performed"
    return y, seen


def test_block_pointer_accesses_inside_or_boundary_checked_pass():
    for n, checked in ((16, False), (13, True)):  # whole blocks need no check; a tail does
        y, seen = _block_doubled(n, check_load=checked, check_store=checked)
        assert seen == [], seen
        assert torch.equal(y, 2 * torch.arange(float(n)))


@pytest.mark.parametrize("check_load, check_store, op", [(False, True, "load"),
                                                         (True, False, "store")])
def test_block_pointer_tail_without_boundary_check_is_found(check_load, check_store, op):
    y, seen = _block_doubled(13, check_load=check_load, check_store=check_store)
    assert seen and seen[0].op == op and seen[0].kernel == "_block_copy", seen
    assert seen[0].program == (1, 0, 0) and seen[0].lanes == 3, seen
    assert "past the end of" in seen[0].where
    assert torch.equal(y, 2 * torch.arange(13.0))


@triton.jit
def _descriptor_copy(x, y, rows, declared, BLOCK: tl.constexpr):
    # A descriptor masks every access to the shape it declares: declaring more
    # rows than x has reads past it.
    src = tl.make_tensor_descriptor(x, shape=[declared, 8], strides=[8, 1], block_shape=[BLOCK, 8])
    dst = tl.make_tensor_descriptor(y, shape=[rows, 8], strides=[8, 1], block_shape=[BLOCK, 8])
    r = tl.program_id(0) * BLOCK
    dst.store([r, 0], src.load([r, 0]) * 2)


@pytest.mark.parametrize("declared", [13, 16])
def test_tensor_descriptor_accesses_outside_their_tensor_are_found(declared):
    x = torch.arange(16 * 8.0).reshape(16, 8)[:13]  # rows 13.. are the allocation's, not x's
    y = torch.zeros(13, 8)
    with accesses.watching() as seen:
        _descriptor_copy[(4,)](x, y, 13, declared, BLOCK=4)
    assert torch.equal(y, 2 * x)
    if declared == 13:
        assert seen == [], seen
    else:
        assert seen and seen[0].op == "load" and seen[0].program == (3, 0, 0), seen
        assert seen[0].lanes == 24 and "past the end of x" in seen[0].where, seen
