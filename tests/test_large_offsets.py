"""Tensors with more than 2**31 elements: every offset must be computed in int64.

GPU only (4-8 GiB per tensor).  One query row attends over a KV cache of
2**24 + 64 keys of head dim 128, so k and v each hold more than 2**31
elements and the last keys sit past the int32 range of element offsets.

Every process that shares a GPU (xdist workers, seeds run side by side) takes
that GPU's lock file before one of these tests, so they run one at a time per
GPU instead of running it out of memory together.
"""

from __future__ import annotations

import fcntl
import tempfile
from pathlib import Path

import pytest
import torch

from attnfuzz.properties import backend
from attnfuzz.reference import compare, matmul_bound

pytestmark = pytest.mark.skipif(
    backend.interpreting() or not torch.cuda.is_available()
    or torch.cuda.get_device_properties(0).total_memory < 60 * 2**30,
    reason="needs a GPU with 60 GiB: tensors of more than 2**31 elements",
)

SK = 2**24 + 64  # * 128 > 2**31
D = 128


@pytest.fixture(autouse=True)
def _one_big_test_per_gpu():
    lock = Path(tempfile.gettempdir()) / f"attnfuzz-bigmem-cuda{torch.cuda.current_device()}.lock"
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            torch.cuda.empty_cache()  # hand the memory back before the next holder
            fcntl.flock(f, fcntl.LOCK_UN)


def _kv():
    gen = torch.Generator(device="cuda").manual_seed(0)
    k = torch.randn(1, 1, SK, D, device="cuda", generator=gen, dtype=torch.float16)
    v = torch.randn(1, 1, SK, D, device="cuda", generator=gen, dtype=torch.float16)
    # Make the keys past 2**31 elements decisive: a wrapped offset reads early keys.
    k[..., -64:, :] *= 4
    v[..., -64:, :] += 3
    return k, v


def _reference(q, k, v, chunk=2**22):
    """float64 attention of one row, over key chunks so that no fp64 copy of
    k or v (16 GiB each) is ever whole."""
    q64 = q[0, 0, 0].double()
    logits = torch.cat([k[0, 0, i : i + chunk].double() @ q64 for i in range(0, SK, chunk)])
    p = torch.softmax(logits * D**-0.5, dim=0)
    out = sum(p[i : i + chunk] @ v[0, 0, i : i + chunk].double() for i in range(0, SK, chunk))
    return out.view(1, 1, 1, D)


@pytest.mark.parametrize("impl", ["naive", "flash", "decode"])
def test_attention_over_more_than_2_31_elements(impl):
    from attnfuzz.properties.implementations import get

    k, v = _kv()
    assert k.numel() > 2**31
    q = k[:, :, -1:, :].clone()  # looks like the last key: attends to the tail
    got = get(impl).run(q, k, v, None, causal=False, scale=None, alignment="bottom_right",
                        input_precision="ieee")["out"]
    want = _reference(q, k, v)
    # Loose, derived check: fp16 output rounding plus the P rounding of a
    # convex combination, 3 ulps of the largest |v|, far below the shift of +3
    # that the tail keys carry.
    tol = 3 * 2**-11 * v.abs().max().double()
    err = (got.double() - want).abs().max()
    assert err <= tol, f"{impl}: max error {float(err):.3g} > {float(tol):.3g}"
    assert float(want.mean()) > 1.0  # the tail dominates, so a wrapped read would show


def test_matmul_over_more_than_2_31_elements():
    from attnfuzz import kernels

    gen = torch.Generator(device="cuda").manual_seed(1)
    a = torch.randn(2**24 + 16, D, device="cuda", generator=gen, dtype=torch.float16)
    b = torch.randn(D, 16, device="cuda", generator=gen, dtype=torch.float16)
    assert a.numel() > 2**31
    got = kernels.matmul(a, b)
    tail = slice(a.shape[0] - 64, a.shape[0])
    want = a[tail].double() @ b.double()
    bound = matmul_bound(a[tail].cpu(), b.cpu(), want.cpu(), scale=1.0, out_dtype=a.dtype)
    verdict = compare("out", got[tail], want, bound, dtype=a.dtype)
    assert verdict.ok, verdict.describe()


def test_softmax_over_more_than_2_31_elements():
    from attnfuzz import kernels

    gen = torch.Generator(device="cuda").manual_seed(2)
    x = torch.randn(2, 2**30 + 64, device="cuda", generator=gen, dtype=torch.float16)
    x[1, -1] = 30.0  # the very last element dominates row 1
    assert x.numel() > 2**31
    p = kernels.softmax(x)
    assert float(p[1, -1]) > 0.99
    assert abs(float(p[1].double().sum()) - 1) < 1e-2
