"""Which launches get the GPU-only workarounds in kernels/flash.py.

The workarounds (a dense V for 16-bit P @ V, head blocks of at least 64) run
only when compiled, so the fuzzer on the interpreter never takes them; these
tests pin down which launches take them, on either backend, by asking the
launcher's helpers as the GPU would.
"""

from __future__ import annotations

import pytest
import torch

import attnfuzz.kernels._tiles as tiles
import attnfuzz.kernels.flash as fa
from attnfuzz.kernels._checks import AttentionDims


@pytest.fixture
def compiled(monkeypatch):
    for module in (fa, tiles):  # the launcher and the head-dim padding it asks
        monkeypatch.setattr(module, "interpreting", lambda: False)


def _dims(d: int, dv: int) -> AttentionDims:
    return AttentionDims(batch=1, hq=2, hkv=2, sq=8, sk=8, d=d, dv=dv, scale=1.0, diagonal=0)


@pytest.mark.parametrize(
    ("d", "dv", "blocks"),
    [(128, 128, (128, 128)), (64, 64, (64, 64)), (256, 128, (256, 128)),  # exact, >= 64
     (32, 32, (64, 64)), (16, 64, (64, 64)),  # exact but narrow: one width of 64
     (40, 24, (64, 64)), (1, 32, (64, 64)), (96, 80, (128, 128))],  # padded: one width
)
def test_gpu_head_blocks(compiled, d, dv, blocks):
    meta = tiles._head_meta(_dims(d, dv))
    assert (meta["BLOCK_D"], meta["BLOCK_DV"]) == blocks
    assert (meta["PAD_D"], meta["PAD_DV"]) == (blocks[0] != d, blocks[1] != dv)


def test_interpreter_keeps_the_narrowest_head_blocks():
    if not fa.interpreting():
        pytest.skip("checks the interpreter's choice")
    meta = tiles._head_meta(_dims(32, 24))
    assert (meta["BLOCK_D"], meta["BLOCK_DV"]) == (32, 32)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_only_a_16_bit_v_with_a_strided_head_dim_is_made_dense(compiled, dtype):
    dense = torch.zeros(1, 2, 8, 16, dtype=dtype)
    d_major = torch.zeros(1, 2, 16, 8, dtype=dtype).transpose(-1, -2)
    assert fa._v_for_pv_dot(dense) is dense
    out = fa._v_for_pv_dot(d_major)
    if dtype == torch.float32:
        assert out is d_major
    else:
        assert out.stride(-1) == 1 and torch.equal(out, d_major)
