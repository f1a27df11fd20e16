"""The decode kernel's one-launch merge of its key ranges.

Each program of ``_flash_decode_kernel`` writes its range's partial result,
then counts itself done on its tile's counter; the program that counts last
merges the tile and resets the counter.  A wrong count, a missing reset, or a
merge that reads a partial before its writer's stores are visible shows as a
result that is wrong or that changes from one launch to the next: the merge
order is fixed (ranges 0 to n - 1), so correct launches agree bit for bit.

On the GPU the ranges of a tile run at the same time, which is where ordering
bugs live; the interpreter runs programs one after another and checks the
counting only.  The fuzzed properties cover the merge's arithmetic.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import attnfuzz.kernels.flash as fa
from attnfuzz.properties import backend
from attnfuzz.reference import compare
from attnfuzz.reference.bounds import attention_bounds
from attnfuzz.reference.oracle import attention_parts

GPU = not backend.interpreting()
# GPU: the benchmark's decode shape over 8k keys in 32 ranges (1024
# programs racing to merge 32 tiles), launched many times.  Interpreter: the
# smallest shape with several tiles and ranges.
SHAPE = dict(b=4, hq=16, hkv=8, sq=1, sk=8192, d=128) if GPU else dict(
    b=1, hq=4, hkv=2, sq=2, sk=300, d=16
)
SPLITS = 32 if GPU else 5
LAUNCHES = 100 if GPU else 2


def _inputs(seed: int, dtype: torch.dtype, shape: dict) -> tuple[torch.Tensor, ...]:
    gen = torch.Generator(device=backend.device()).manual_seed(seed)
    b, hq, hkv, sq, sk, d = (shape[n] for n in ("b", "hq", "hkv", "sq", "sk", "d"))

    def draw(*size: int) -> torch.Tensor:
        return torch.randn(*size, generator=gen, device=backend.device()).to(dtype)

    return draw(b, hq, sq, d), draw(b, hkv, sk, d), draw(b, hkv, sk, d)


def _assert_matches_oracle(q, k, v, out, lse) -> None:
    scale = q.shape[-1] ** -0.5
    parts = attention_parts(q.cpu(), k.cpu(), v.cpu(), scale=scale)
    bounds = attention_bounds(q.cpu(), k.cpu(), v.cpu(), parts, scale=scale)
    for name, got in (("out", out), ("lse", lse)):
        verdict = compare(name, got, parts[name], bounds[name], dtype=q.dtype)
        assert verdict.ok, verdict.describe()


def _counters_are_zero() -> bool:
    return all(int(c.abs().sum()) == 0 for c in fa._COUNTERS.values())


@settings(max_examples=4 if GPU else 2, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from([torch.float16, torch.float32]))
def test_repeated_launches_agree_bit_for_bit_and_reset_their_counters(seed, dtype):
    q, k, v = _inputs(seed, dtype, SHAPE)
    out, lse = fa.flash_decode(q, k, v, num_splits=SPLITS, return_lse=True)
    _assert_matches_oracle(q, k, v, out, lse)
    for i in range(LAUNCHES):
        again, again_lse = fa.flash_decode(q, k, v, num_splits=SPLITS, return_lse=True)
        assert torch.equal(again, out) and torch.equal(again_lse, lse), f"launch {i + 1}"
    if GPU:
        torch.cuda.synchronize()
    assert _counters_are_zero()


@pytest.mark.skipif(not GPU, reason="streams run concurrently only on a GPU")
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_launches_on_two_streams_keep_their_own_counters(seed):
    """Two streams' decode launches overlap on the GPU; with shared counters a
    tile would be counted by both and merged early or never."""
    shapes = [dict(SHAPE, sk=4096), dict(SHAPE, sk=6144)]
    cases = [_inputs(seed + i, torch.float16, s) for i, s in enumerate(shapes)]
    want = [fa.flash_decode(q, k, v, num_splits=SPLITS) for q, k, v in cases]
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    torch.cuda.synchronize()
    got: list[list[torch.Tensor]] = [[], []]
    for _ in range(20):
        for i, ((q, k, v), s) in enumerate(zip(cases, streams, strict=True)):
            with torch.cuda.stream(s):
                got[i].append(fa.flash_decode(q, k, v, num_splits=SPLITS))
    torch.cuda.synchronize()
    for i in range(2):
        for j, g in enumerate(got[i]):
            assert torch.equal(g, want[i]), f"stream {i}, launch {j}"
    assert _counters_are_zero()
