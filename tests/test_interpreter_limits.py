"""Known limitations of the backend, kept visible so we learn when they change."""

from __future__ import annotations

import pytest
import torch
import triton
import triton.language as tl

from attnfuzz import kernels
from attnfuzz.properties import backend


@triton.jit
def _dot_16x16(a_ptr, b_ptr, c_ptr):
    """c = a @ b for contiguous 16 x 16 tiles, c in fp32."""
    offs = tl.arange(0, 16)
    tile = offs[:, None] * 16 + offs[None, :]
    tl.store(c_ptr + tile, tl.dot(tl.load(a_ptr + tile), tl.load(b_ptr + tile)))


def _bf16_tiles() -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    return tuple(torch.randn(16, 16, generator=gen).bfloat16() for _ in range(2))


# A kernel of its own, not ours: the public functions refuse bf16 on the
# interpreter, and the defect is Triton's whatever kernel meets it.
@pytest.mark.skipif(not backend.interpreting(), reason="demonstrates an interpreter defect")
@pytest.mark.xfail(
    strict=True,
    reason="Triton's interpreter multiplies bf16 bit patterns in tl.dot; when this "
    "XPASSes the defect is fixed upstream and bf16 can be tested on the CPU",
)
def test_interpreter_bf16_dot_defect():
    a, b = _bf16_tiles()
    got = torch.empty(16, 16)
    _dot_16x16[(1,)](a, b, got)
    want = a.double() @ b.double()
    assert (got.double() - want).abs().max() < 0.1 * want.abs().max()


@pytest.mark.skipif(not backend.interpreting(), reason="the control of the defect above")
def test_the_dot_kernel_is_right_in_fp32():
    a, b = (x.float() for x in _bf16_tiles())
    got = torch.empty(16, 16)
    _dot_16x16[(1,)](a, b, got)
    torch.testing.assert_close(got, a @ b)


@pytest.mark.skipif(not backend.interpreting(), reason="the refusal is the interpreter's")
def test_kernels_refuse_bf16_on_the_interpreter():
    a, b = _bf16_tiles()
    with pytest.raises(TypeError, match="not compute correctly.*must run on a GPU"):
        kernels.matmul(a, b)


@pytest.mark.skipif(backend.interpreting(), reason="bf16 is computed correctly only on the GPU")
def test_bf16_dot_on_gpu():
    a, b = (x.cuda() for x in _bf16_tiles())
    got = kernels.matmul(a, b).double().cpu()
    want = a.double().cpu() @ b.double().cpu()
    assert (got - want).abs().max() < 0.02 * want.abs().max()
