"""Property tests: every implementation against the oracle, invariants, relations.

Parametrized over implementation x dtype so ``pytest -n auto`` spreads them;
each draws case specs from ``properties.strategies``, with the optional
arguments of the call (``Implementation.options``) drawn both ways, within
its (property, implementation) row of ``tests/budgets.py``.  The ``recorder``
fixture feeds the worst error/bound ratio per (implementation, dtype) into
the summary printed at the end of the run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from attnfuzz.properties import checks, implementations
from attnfuzz.properties import strategies as S
from attnfuzz.properties.run.harness import check
from tests import budgets
from tests.budgets import examples_of
from tests.support import DTYPES

QWEN3 = S.qwen3_examples("float32")

# The Hopper kernel (``flash_hopper``) runs only compiled on an sm_90 GPU; its
# cases are the ones it computes (16-bit, D = Dv = 128).
_HOPPER_WHY = implementations.get("hopper").cannot_run()
needs_hopper = pytest.mark.skipif(_HOPPER_WHY is not None, reason=f"hopper: {_HOPPER_WHY}")
HOPPER_DTYPES = ("float16", "bfloat16")


def _options(*names: str) -> tuple[tuple[str, tuple], ...]:
    """The optional arguments of these implementations, merged: each test draws
    them for whichever it runs (an implementation ignores those it lacks)."""
    merged: dict[str, tuple] = {}
    for name in names:
        for option, choices in implementations.get(name).options:
            merged[option] = tuple(dict.fromkeys((*merged.get(option, ()), *choices)))
    return tuple(merged.items())


ATTENTION_OPTIONS = _options("naive", "flash", "decode")
MATMUL_OPTIONS = _options("matmul")
SOFTMAX_OPTIONS = _options("softmax")


def _attention(prop: str, impl: str, **kw):
    """Attention cases within the budget of ``prop`` on ``impl``."""
    return S.with_options(S.attention_cases(**budgets.sizes(prop, impl), **kw),
                          ATTENTION_OPTIONS)


def _with_dtype(case, dtype: str):
    """Cases are drawn (and examples written) in float32 and run in every dtype;
    tf32 is a float32-only choice."""
    if case.dtype == dtype:
        return case
    if hasattr(case, "input_precision"):
        return replace(case, dtype=dtype, input_precision="ieee")
    return replace(case, dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("oracle", "decode")
@given(case=_attention("oracle", "decode", decode=True, max_kv_heads=2))
def test_decode_matches_oracle(dtype, case, recorder):
    check("oracle", "decode", _with_dtype(case, dtype), recorder=recorder("decode", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("impl", ("matmul", "matmul_nt"))
@examples_of("oracle", "matmul", "matmul_nt")
@given(data=st.data())
def test_matmul_matches_oracle(impl, dtype, data, recorder):
    cases = S.matmul_cases(dtype, transpose_b=impl == "matmul_nt")
    case = data.draw(S.with_options(cases, MATMUL_OPTIONS), label="case")
    check("oracle", impl, _with_dtype(case, dtype), recorder=recorder(impl, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("oracle", "softmax")
@given(case=S.with_options(S.softmax_cases(), SOFTMAX_OPTIONS))
def test_softmax_matches_oracle(dtype, case, recorder):
    check("oracle", "softmax", _with_dtype(case, dtype), recorder=recorder("softmax", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("softmax_invariants", "softmax")
@given(case=S.with_options(S.softmax_cases(), SOFTMAX_OPTIONS))
def test_softmax_invariants(dtype, case):
    check("softmax_invariants", "softmax", _with_dtype(case, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("shift_invariance", "softmax")
@given(case=S.softmax_cases(families=("grid",)))
def test_softmax_shift_invariance(dtype, case):
    check("shift_invariance", "softmax", _with_dtype(case, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("metamorphic", "flash")
@given(case=_attention("metamorphic", "flash"))
def test_flash_metamorphic(dtype, case):
    check("metamorphic", "flash", _with_dtype(case, dtype))


def _matches_oracle(impl: str):
    """The oracle test of one attention, its Qwen3 shapes always among the cases."""

    @pytest.mark.parametrize("dtype", DTYPES)
    @examples_of("oracle", impl)
    @given(case=_attention("oracle", impl))
    @example(case=QWEN3[0])
    @example(case=QWEN3[1])
    @example(case=QWEN3[2])
    @example(case=QWEN3[3])
    def test(dtype, case, recorder):
        check("oracle", impl, _with_dtype(case, dtype), recorder=recorder(impl, dtype))

    return test


test_flash_matches_oracle = _matches_oracle("flash")
# Its lengths, head dims and GQA groups are drawn as for flash, fewer heads
# and sequences beside them where its budget caps the tiles.
test_naive_matches_oracle = _matches_oracle("naive")


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("metamorphic", "naive")
@given(case=_attention("metamorphic", "naive"))
def test_naive_metamorphic(dtype, case):
    check("metamorphic", "naive", _with_dtype(case, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("metamorphic", "decode")
@given(case=_attention("metamorphic", "decode", decode=True))
def test_decode_metamorphic(dtype, case):
    check("metamorphic", "decode", _with_dtype(case, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("agree", "naive")
@given(case=_attention("agree", "naive"))
def test_naive_and_flash_agree(dtype, case):
    check("agree", "naive", _with_dtype(case, dtype), other="flash")


def _backward(prop: str, impl: str, dtype: str):
    cases = checks.get(prop).cases(implementations.get(impl), dtype,
                                   max_len=budgets.max_len(prop, impl))
    tiles = budgets.max_tiles(prop, impl)
    return cases if tiles is None else cases.map(lambda case: S.fit_tiles(case, tiles))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("impl", ("naive", "flash", "decode"))
@examples_of("gradients", "naive", "flash", "decode")
@given(data=st.data())
def test_gradients_match_oracle(impl, dtype, data, recorder):
    case = data.draw(_backward("gradients", impl, dtype), label="case")
    check("gradients", impl, case, recorder=recorder(f"{impl} backward", dtype))


def _gradient_relations(impl: str):
    """The gradient relations' test of one attention, at its own share of examples."""

    @pytest.mark.parametrize("dtype", DTYPES)
    @examples_of("gradient_relations", impl)
    @given(data=st.data())
    def test(dtype, data):
        check("gradient_relations", impl, data.draw(_backward("gradient_relations", impl, dtype)))

    return test


test_gradient_relations_naive = _gradient_relations("naive")
test_gradient_relations_flash = _gradient_relations("flash")


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("gradients_agree", "flash")
@given(data=st.data())
def test_backwards_agree(dtype, data):
    case = data.draw(_backward("gradients_agree", "flash", dtype), label="case")
    check("gradients_agree", "flash", case, other="naive")


@pytest.mark.parametrize("dtype", DTYPES)
@examples_of("serving", "flash")
@given(data=st.data())
def test_serving_kernels_are_each_sequence_alone(dtype, data):
    case = data.draw(checks.get("serving").cases(implementations.get("flash"), dtype), label="case")
    check("serving", "flash", case)


@examples_of("bad_metadata", "flash")
@given(data=st.data())
def test_serving_metadata_that_does_not_describe_its_tensors_is_refused(data):
    # A refusal comes before any launch, in every dtype alike.
    case = data.draw(checks.get("bad_metadata").cases(implementations.get("flash"), "float32"),
                     label="case")
    check("bad_metadata", "flash", case)


@examples_of("bad_serving_out", "flash")
@given(data=st.data())
def test_a_served_out_that_shares_memory_with_an_input_is_refused(data):
    case = data.draw(checks.get("bad_serving_out").cases(implementations.get("flash"),
                                                         "float32"), label="case")
    check("bad_serving_out", "flash", case)


def _hopper_cases(prop: str):
    return _attention(prop, "hopper", head_dim=128, value_dim=128)


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@examples_of("oracle", "hopper")
@given(case=_hopper_cases("oracle"))
@example(case=QWEN3[0])
@example(case=QWEN3[1])
def test_hopper_matches_oracle(dtype, case, recorder):
    check("oracle", "hopper", _with_dtype(case, dtype), recorder=recorder("hopper", dtype))


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@examples_of("metamorphic", "hopper")
@given(case=_hopper_cases("metamorphic"))
def test_hopper_metamorphic(dtype, case):
    check("metamorphic", "hopper", _with_dtype(case, dtype))


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@examples_of("agree", "hopper")
@given(case=_hopper_cases("agree"))
def test_hopper_and_naive_agree(dtype, case):
    check("agree", "hopper", _with_dtype(case, dtype), other="naive")


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@examples_of("gradients", "hopper")
@given(data=st.data())
def test_hopper_gradients_match_oracle(dtype, data, recorder):
    case = data.draw(_backward("gradients", "hopper", dtype), label="case")
    check("gradients", "hopper", case, recorder=recorder("hopper backward", dtype))


@pytest.mark.parametrize("judges_refusals", [False, True])
def test_a_judge_reads_its_trial_by_name(judges_refusals):
    """``Property.run`` hands its judge each input under its own name: the case, the
    inputs already built and the other implementation are where the judge looks."""
    seen: list[checks.Trial] = []

    def judge(trial: checks.Trial) -> list:
        seen.append(trial)
        return []

    probe = checks.Property("probe", ("attention",), judge, "records its trial",
                            judges_refusals=judges_refusals)
    impl, other = implementations.get("naive"), implementations.get("flash")
    case, built = QWEN3[0], object()
    assert probe.run(impl, case, built, other) == []
    (trial,) = seen
    assert (trial.impl.name, trial.case, trial.built, trial.other) == (
        impl.name, case, built, other)
    assert (trial.impl is impl) == judges_refusals  # else its entry points are marked
    with pytest.raises(dataclasses.FrozenInstanceError):
        trial.case = None
