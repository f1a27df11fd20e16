"""A kernel that calls a ``@triton.jit`` helper, for the interpreter's patching test."""

import triton
import triton.language as tl


@triton.jit
def _plus_one(x):
    return x + 1


@triton.jit
def add_three_times(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    for _ in range(3):
        x = _plus_one(x)
    tl.store(out_ptr + offs, x, mask=offs < n)
