"""Property tests: every implementation against the oracle, invariants, relations.

Parametrized over implementation x dtype so ``pytest -n auto`` spreads them;
each draws case specs from ``properties.strategies``, with the optional
arguments of the call (``Implementation.options``) drawn both ways.  The ``recorder``
fixture feeds the worst error/bound ratio per (implementation, dtype) into
the summary printed at the end of the run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from attnfuzz.properties import backend, checks, implementations
from attnfuzz.properties import strategies as S
from attnfuzz.properties.run.harness import check
from tests.support import DTYPES

QWEN3 = S.qwen3_examples("float32")

# The Hopper kernel (``flash_hopper``) runs only compiled on an sm_90 GPU; its
# cases are the ones it computes (16-bit, D = Dv = 128), at flash's counts.
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


def _attention(**kw):
    return S.with_options(S.attention_cases(**kw), ATTENTION_OPTIONS)


def _with_dtype(case, dtype: str):
    """Cases are drawn (and examples written) in float32 and run in every dtype;
    tf32 is a float32-only choice."""
    if case.dtype == dtype:
        return case
    if hasattr(case, "input_precision"):
        return replace(case, dtype=dtype, input_precision="ieee")
    return replace(case, dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@given(case=_attention(decode=True, max_kv_heads=2))
def test_decode_matches_oracle(dtype, case, recorder):
    check("oracle", "decode", _with_dtype(case, dtype), recorder=recorder("decode", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("impl", ("matmul", "matmul_nt"))
@given(data=st.data())
def test_matmul_matches_oracle(impl, dtype, data, recorder):
    cases = S.matmul_cases(dtype, transpose_b=impl == "matmul_nt")
    case = data.draw(S.with_options(cases, MATMUL_OPTIONS), label="case")
    check("oracle", impl, _with_dtype(case, dtype), recorder=recorder(impl, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@given(case=S.with_options(S.softmax_cases(), SOFTMAX_OPTIONS))
def test_softmax_matches_oracle(dtype, case, recorder):
    check("oracle", "softmax", _with_dtype(case, dtype), recorder=recorder("softmax", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@given(case=S.with_options(S.softmax_cases(), SOFTMAX_OPTIONS))
def test_softmax_invariants(dtype, case):
    check("softmax_invariants", "softmax", _with_dtype(case, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@given(case=S.softmax_cases(families=("grid",)))
def test_softmax_shift_invariance(dtype, case):
    check("shift_invariance", "softmax", _with_dtype(case, dtype))


# About eleven launches a case: on the interpreter half the examples, so
# that the suite fits its 15 minutes on two cores even under a costly seed (a
# case's cost spans more than an order of magnitude with its heads and
# lengths, so one seed can cost several times another).  Little is lost:
# the relations also run on naive and decode, and flash's arithmetic is
# checked at full count by the oracle test.
FLASH_RELATION_EXAMPLES = settings.default.max_examples
if backend.interpreting():
    FLASH_RELATION_EXAMPLES = max(1, FLASH_RELATION_EXAMPLES // 2)


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=FLASH_RELATION_EXAMPLES)
@given(case=_attention(max_seq=70))
def test_flash_metamorphic(dtype, case):
    check("metamorphic", "flash", _with_dtype(case, dtype))


# A metamorphic case is about eleven launches, and on the interpreter the
# three-kernel attention costs about four times the fused kernel per launch:
# at flash's budget this one test would take a large share of the suite's
# 15 minutes.  There it draws a quarter of the examples, and a quarter of the
# free draw's tiles, so that its cases cost about what flash's do; its
# arithmetic is also checked at full count by the oracle and against flash.
NAIVE_EXAMPLES = settings.default.max_examples
NAIVE_TILES = None
if backend.interpreting():
    NAIVE_EXAMPLES = max(1, NAIVE_EXAMPLES // 4)
    NAIVE_TILES = S.INTERPRETER_TILES // 4


def _matches_oracle(impl: str, max_tiles: int | None = None):
    """The oracle test of one attention, its Qwen3 shapes always among the cases."""

    @pytest.mark.parametrize("dtype", DTYPES)
    @given(case=_attention(max_tiles=max_tiles))
    @example(case=QWEN3[0])
    @example(case=QWEN3[1])
    @example(case=QWEN3[2])
    @example(case=QWEN3[3])
    def test(dtype, case, recorder):
        check("oracle", impl, _with_dtype(case, dtype), recorder=recorder(impl, dtype))

    return test


test_flash_matches_oracle = _matches_oracle("flash")
# The three-kernel attention at its relations' tile budget (NAIVE_TILES), for
# its launches' cost on the interpreter: the longest lengths, head dims and
# GQA groups are drawn as for flash, fewer heads and sequences beside them.
test_naive_matches_oracle = _matches_oracle("naive", NAIVE_TILES)


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=NAIVE_EXAMPLES)
@given(case=_attention(max_seq=70, max_tiles=NAIVE_TILES))
def test_naive_metamorphic(dtype, case):
    check("metamorphic", "naive", _with_dtype(case, dtype))


# Decode's relations are flash's and cost about as much a case (its oracle
# test runs at full count): on the interpreter half the examples, as flash's.
@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=FLASH_RELATION_EXAMPLES)
@given(case=_attention(decode=True))
def test_decode_metamorphic(dtype, case):
    check("metamorphic", "decode", _with_dtype(case, dtype))


# Both attentions run each case, five flash launches' worth on the
# interpreter: there a fifth of the free draw's tiles, so that a case costs
# about one flash launch at the full draw; each is held to the oracle on its
# own above.
@pytest.mark.parametrize("dtype", DTYPES)
@given(case=_attention(max_tiles=S.INTERPRETER_TILES // 5 if backend.interpreting() else None))
def test_naive_and_flash_agree(dtype, case):
    check("agree", "naive", _with_dtype(case, dtype), other="flash")


# A backward case is a forward and a backward (four to eight launches), a
# relation case about six of them.  On the interpreter, where the suite must
# fit the 2-core CI machine's minutes, the oracle test draws a third of the
# examples (10 under the ci profile; every catalogued backward mutant falls
# to ``attnfuzz mutants`` at 30) and the relation and agreement tests a sixth,
# within one 64-row tile, as does the three-kernel backward (its kernels'
# multi-tile loops are the forward's, tested above at full length); the fused
# backward's multi-tile loops stay at full length in the oracle test.
BACKWARD_EXAMPLES = RELATION_EXAMPLES = settings.default.max_examples
ONE_TILE = None
if backend.interpreting():
    BACKWARD_EXAMPLES = max(1, BACKWARD_EXAMPLES // 3)
    RELATION_EXAMPLES = max(1, RELATION_EXAMPLES // 6)
    ONE_TILE = 48


def _backward(prop: str, impl: str, dtype: str):
    max_len = ONE_TILE if impl == "naive" or prop != "gradients" else None
    cases = checks.get(prop).cases(implementations.get(impl), dtype, max_len=max_len)
    # The three-kernel backward at its forward's tile budget on the interpreter,
    # where each of its launches costs about four times the fused kernel's.
    if NAIVE_TILES is not None and (impl == "naive" or prop == "gradients_agree"):
        cases = cases.map(lambda case: S.fit_tiles(case, NAIVE_TILES))
    return cases


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("impl", ("naive", "flash", "decode"))
@settings(max_examples=BACKWARD_EXAMPLES)
@given(data=st.data())
def test_gradients_match_oracle(impl, dtype, data, recorder):
    case = data.draw(_backward("gradients", impl, dtype), label="case")
    check("gradients", impl, case, recorder=recorder(f"{impl} backward", dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("impl", ("naive", "flash"))
@settings(max_examples=RELATION_EXAMPLES)
@given(data=st.data())
def test_gradient_relations(impl, dtype, data):
    check("gradient_relations", impl, data.draw(_backward("gradient_relations", impl, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=RELATION_EXAMPLES)
@given(data=st.data())
def test_backwards_agree(dtype, data):
    case = data.draw(_backward("gradients_agree", "flash", dtype), label="case")
    check("gradients_agree", "flash", case, other="naive")


# Two launches and a prefill alone per sequence: a quarter of the examples on the
# interpreter (the serving kernels' own tests draw lengths and pages further).
SERVING_EXAMPLES = settings.default.max_examples
if backend.interpreting():
    SERVING_EXAMPLES = max(1, SERVING_EXAMPLES // 4)


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=SERVING_EXAMPLES)
@given(data=st.data())
def test_serving_kernels_are_each_sequence_alone(dtype, data):
    case = data.draw(checks.get("serving").cases(implementations.get("flash"), dtype), label="case")
    check("serving", "flash", case)


def _hopper_cases(**kw):
    return _attention(head_dim=128, value_dim=128, **kw)


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@given(case=_hopper_cases())
@example(case=QWEN3[0])
@example(case=QWEN3[1])
def test_hopper_matches_oracle(dtype, case, recorder):
    check("oracle", "hopper", _with_dtype(case, dtype), recorder=recorder("hopper", dtype))


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@given(case=_hopper_cases(max_seq=300))
def test_hopper_metamorphic(dtype, case):
    check("metamorphic", "hopper", _with_dtype(case, dtype))


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
@given(case=_hopper_cases())
def test_hopper_and_naive_agree(dtype, case):
    check("agree", "hopper", _with_dtype(case, dtype), other="naive")


@needs_hopper
@pytest.mark.parametrize("dtype", HOPPER_DTYPES)
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
