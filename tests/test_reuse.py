"""Cases near a compiled one keep every divisibility Triton specialises on.

Triton specialises a kernel on each integer argument being 1 and being
divisible by 16 (lengths, strides, offsets); ``reuse.near`` moves lengths by
multiples of 16 so that a moved case launches the kernels already compiled.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from attnfuzz.properties import checks, implementations
from attnfuzz.properties.model.cases import AttentionCase, build
from attnfuzz.properties.realistic_sizes import BUDGET
from attnfuzz.properties.run import reuse

ROUNDS = [("flash", "oracle"), ("decode", "oracle"), ("matmul", "oracle"),
          ("softmax", "oracle"), ("flash", "gradients")]


def _ints(case) -> dict[str, tuple[bool, bool]]:
    """(== 1, % 16 == 0) of every size, stride and storage offset of the case's tensors."""
    out = {}
    for role, t in build(case, "cpu").inputs.items():
        for name, values in (("shape", t.shape), ("stride", t.stride()),
                             ("offset", (t.storage_offset(),))):
            for i, n in enumerate(values):
                out[f"{role}.{name}{i}"] = (n == 1, n % 16 == 0)
    return out


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ROUNDS), st.data())
def test_a_near_case_keeps_the_specialisation_of_the_one_it_moves(key, data):
    impl, prop = key
    cases = checks.get(prop).cases(implementations.get(impl), "float32")
    base = data.draw(cases, label="base")
    limit = checks.get(prop).max_len
    moved = data.draw(reuse.near([base], limit), label="moved")
    assert type(moved) is type(base)
    assert moved.values.family == base.values.family
    assert _ints(moved) == _ints(base)
    if hasattr(base, "sq"):
        assert moved.sk - moved.sq == base.sk - base.sq
        assert max(moved.sq, moved.sk) <= max(base.sq, base.sk, limit)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_a_near_case_is_no_larger_than_its_case_or_the_realistic_budget(data):
    # A model's sizes as ``realistic_sizes`` draws them: its q and output hold
    # more than the budget already; a step of 16 sequences and KV heads more
    # made a case 19 times larger than it.
    base = AttentionCase(batch=2, hq=56, hkv=14, sq=4012, sk=2, d=112, dv=112)
    moved = data.draw(reuse.near([base], 70), label="moved")
    assert _largest(moved) <= max(_largest(base), BUDGET), moved
    small = AttentionCase(batch=2, hq=4, hkv=2, sq=5, sk=7, d=16, dv=16)
    grown = data.draw(reuse.near([small], 70), label="grown")
    assert _largest(grown) <= BUDGET, grown


def _largest(c: AttentionCase) -> int:
    # The logits, or q and the output: the oracle's largest float64 tensor.
    return c.batch * c.hq * c.sq * max(c.sk, c.d, c.dv)
