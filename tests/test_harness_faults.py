"""What the harness does when a kernel kills the process's CUDA context.

A fake implementation raises the error PyTorch raises after an illegal
address, so this runs on any backend: the case must be dumped at once (spec
and inputs, though the device is unusable) and every later check in the
process must say it did not run, naming the case that faulted.
"""

from __future__ import annotations

import ctypes
import json
import re
from dataclasses import replace

import pytest
import torch
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from attnfuzz.properties import backend, checks, implementations
from attnfuzz.properties.checks import execution
from attnfuzz.properties.implementations import Implementation
from attnfuzz.properties.implementations.implementation import ImplementationCrash
from attnfuzz.properties.implementations.support import Support
from attnfuzz.properties.model.cases import AttentionCase
from attnfuzz.properties.run import harness
from tests.user_attention import mine

FAULT = "CUDA error: an illegal memory access was encountered"


def _faulty(q, k, v, out, **kw):
    raise RuntimeError(FAULT)


FAULTY = Implementation("faulty_for_tests", "attention", _faulty, description="always faults")


def _once(case):
    """Run the oracle property on ``case`` exactly once, inside Hypothesis."""

    @settings(phases=[Phase.explicit], database=None)
    @example(case)
    @given(st.just(case))
    def run(c):
        harness.check("oracle", "faulty_for_tests", c)

    run()


def test_a_fault_is_dumped_and_later_checks_say_they_did_not_run(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    monkeypatch.setattr(harness, "_LOST_CONTEXT", [])
    monkeypatch.setitem(implementations._REGISTRY, FAULTY.name, FAULTY)
    case = AttentionCase(batch=1, hq=2, hkv=1, sq=3, sk=5, d=8, dv=8)

    with pytest.raises(AssertionError, match="faulted on the GPU .illegal memory access."):
        _once(case)
    (dump,) = tmp_path.iterdir()
    record = json.loads((dump / "case.json").read_text())
    assert record["description"] == case.describe()
    assert (dump / "inputs.pt").exists()
    assert harness.lost_context() == f"when faulty_for_tests faulted on the GPU " \
        f"(illegal memory access) on: {case.describe()}"

    with pytest.raises(AssertionError, match="did not run: this process lost its CUDA context"):
        _once(AttentionCase(batch=1, hq=1, hkv=1, sq=2, sk=2, d=8, dv=8))
    assert len(list(tmp_path.iterdir())) == 1  # no dump blames the innocent case


def test_hypothesis_groups_of_failures_are_read_member_by_member():
    """Hypothesis reports several distinct failures as one group; the campaign
    and the mutant runner must count it as failing, with each member's text."""

    @settings(database=None, phases=(Phase.explicit,))
    @example(3)
    @example(7)
    @given(st.integers())
    def two_bugs(n):
        assert n != 3, "three"
        assert n != 7, "seven"

    with pytest.raises(Exception) as info:
        two_bugs()
    failures = harness.failures_of(info.value)
    assert failures is not None
    assert sorted(str(f).splitlines()[0] for f in failures) == ["seven", "three"]
    assert harness.failures_of(AssertionError("one")) is not None
    assert harness.failures_of(ValueError("a harness bug")) is None


def _stray_store(reach: int):
    """An attention 'kernel' that fills ``out`` and also writes one element
    ``reach`` output-sizes past its end, as a store through a padded tile does."""

    def run(q, k, v, out, **kw):
        out.zero_()
        stray = out.data_ptr() + (reach * out.numel() - 1) * out.element_size()
        ctypes.memmove(stray, torch.zeros(1, dtype=out.dtype).data_ptr(), out.element_size())
        return {"out": out}

    return Implementation("stray_store_for_tests", "attention", run, description="stray store")


@pytest.mark.skipif(not backend.interpreting(), reason="CPU memory: the interpreter's guards")
@pytest.mark.parametrize("reach", [2, execution.STORE_REACH])
def test_a_far_stray_store_fails_the_check_instead_of_corrupting_the_heap(reach):
    """On the interpreter an out-of-bounds store writes process memory; it must
    land in the output's guard and be reported, not corrupt the heap."""
    case = AttentionCase(batch=1, hq=1, hkv=1, sq=1, sk=2, d=8, dv=8)
    run = execution.execute(_stray_store(reach), case)
    flagged = [v.check for v in run.safety if v.ratio > 1]
    assert flagged == ["guard region written (out-of-bounds store)"]


def _returning(make):
    def run(q, k, v, out, **kw):
        return {"out": make(q, k, v)}

    return Implementation("returns_wrongly_for_tests", "attention", run, writes_out=False)


WRONG_RETURNS = [
    ("shape", lambda q, k, v: q.new_zeros(q.shape[:-1])),
    ("dtype", lambda q, k, v: q.new_zeros((*q.shape[:-1], v.shape[-1]), dtype=torch.float64)),
    ("device", lambda q, k, v: torch.zeros((*q.shape[:-1], v.shape[-1]), dtype=q.dtype,
                                           device="meta")),
    ("tensor", lambda q, k, v: [0.0]),
]


@pytest.mark.parametrize(("what", "make"), WRONG_RETURNS, ids=[w for w, _ in WRONG_RETURNS])
def test_a_result_of_the_wrong_shape_dtype_or_type_is_a_finding(what, make):
    case = AttentionCase(hq=2, hkv=1, sq=3, sk=4, d=16, dv=8)
    pattern = f"returns_wrongly_for_tests returned out of {what}|not a {what}"
    with pytest.raises(AssertionError, match=pattern):
        execution.execute(_returning(make), case)


def test_the_campaign_goes_on_for_the_other_implementations_in_a_new_worker(
    tmp_path, monkeypatch, capfd
):
    from attnfuzz.properties.run import cli

    monkeypatch.setattr(harness, "_LOST_CONTEXT", [])
    monkeypatch.setitem(implementations._REGISTRY, FAULTY.name, FAULTY)
    code = cli.main(["run", "--impl", "faulty_for_tests,matmul", "--dtype", "float32",
                     "--examples", "2", "--seed", "1", "--jobs", "1",
                     "--dump-dir", str(tmp_path)])
    out = capfd.readouterr().out
    assert code == 1, out
    assert "1 memory (" in out and re.search(r"^faulty_for_tests\s+float32\s+1\s+1\b", out, re.M)
    # The worker that lost its context was replaced: matmul ran 2 cases in each
    # of oracle, bad_out, mixed_dtypes and bad_shapes and a sequence of 5 calls,
    # after the faulting case.
    assert re.search(r"^14 cases in .*1 failing implementation/dtype pair", out, re.M), out


def _refusing(message: str) -> Implementation:
    def run(q, k, v, out, **kw):
        raise RuntimeError(message)

    return Implementation("refusing_for_tests", "attention", run, description="raises",
                          support=Support(max_seq=4))


PAST_MAX_SEQ = AttentionCase(batch=1, hq=1, hkv=1, sq=6, sk=6, d=8, dv=8)


@pytest.mark.parametrize("prop, case", [
    ("refuses", PAST_MAX_SEQ), ("oracle", PAST_MAX_SEQ),
    ("bad_out", replace(PAST_MAX_SEQ, options=(("out", "overlapping an input"),))),
], ids=["refuses", "oracle", "bad_out"])
def test_a_fault_is_no_refusal(monkeypatch, prop, case):
    # Past its declared max_seq, or given an out over an input, an implementation
    # may raise: a refusal, no finding.  A fault there is still a fault: it ended
    # the CUDA context, whatever the case.
    monkeypatch.setitem(implementations._REGISTRY, "refusing_for_tests", _refusing("too long"))
    assert not checks.failures(harness.run_property(prop, "refusing_for_tests", case))
    monkeypatch.setitem(implementations._REGISTRY, "refusing_for_tests", _refusing(FAULT))
    with pytest.raises(ImplementationCrash, match="illegal memory access"):
        harness.run_property(prop, "refusing_for_tests", case)


_RAN_OUT: list[int] = []


def _out_of_memory_past_16_rows(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    if q.shape[2] > 16:
        _RAN_OUT.append(q.shape[2])
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB.")
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


def test_a_call_out_of_device_memory_is_a_rejected_example_not_a_failure():
    """As a campaign skips it: pytest-xdist's workers share the GPU, and whether a
    case fits depends on what the others hold at that moment."""
    name = implementations.of_function(_out_of_memory_past_16_rows).name
    _RAN_OUT.clear()

    # Most drawn cases are longer than 16 rows and so run out here: at some seeds
    # 50 rejections came before 10 cases that fit, and Hypothesis' health check
    # for heavy filtering would report the planted implementation, not the harness.
    @settings(max_examples=30, database=None, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much])
    @given(checks.get("oracle").cases(implementations.get(name), "float32"))
    def run(case):
        harness.check("oracle", name, case)

    run()
    assert _RAN_OUT, "no drawn case ran out: the test shows nothing"
    # cuBLAS names a failed allocation of its own.
    assert execution.out_of_memory(RuntimeError(
        "CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"))
    assert not execution.out_of_memory(RuntimeError(FAULT))
