"""Hypothesis is steered by each check's error/bound ratio, not only the case's worst.

``target`` keeps the best example of each label and mutates it; a case that
drifts towards the bound of one check (dk, say) while another check (out)
holds the case's worst ratio is only kept under a label of its own.  Both
``harness.check`` (one case) and the stateful property (a sequence of calls,
one example) give each check its label.
"""

from __future__ import annotations

import math

import hypothesis
from hypothesis import given, settings
from hypothesis import strategies as st

from attnfuzz.properties import checks
from attnfuzz.properties.model.cases import MatmulCase
from attnfuzz.properties.model.values import Values
from attnfuzz.properties.run import harness
from attnfuzz.reference import Verdict


def _verdict(check: str, ratio: float) -> Verdict:
    return Verdict(check, ratio, ratio, 1.0, (), 0.0, 0.0)


def test_each_check_is_a_label_of_its_worst_ratio():
    verdicts = [_verdict("out", 0.3), _verdict("dq", 0.2), _verdict("dq", 0.5),
                _verdict("rerun: dq", 0.0), _verdict("lse", 0.1)]
    assert checks.steering(verdicts) == {
        "error/bound": 0.5, "error/bound: out": 0.3, "error/bound: dq": 0.5,
        "error/bound: lse": 0.1}


def test_an_infinite_ratio_steers_the_case_label_only_and_capped():
    labels = checks.steering([_verdict("out", math.inf), _verdict("lse", 0.25)])
    assert labels == {"error/bound": checks.execution.TARGET_CAP, "error/bound: lse": 0.25}
    assert checks.steering([]) == {}


def _recording(monkeypatch) -> list[set[str]]:
    """Replace ``hypothesis.target`` by a recorder of each example's labels."""
    seen: list[set[str]] = []
    real = hypothesis.target

    def target(observation, *, label=""):
        seen[-1].add(label)
        return real(observation, label=label)

    monkeypatch.setattr(hypothesis, "target", target)
    return seen


def test_a_checked_case_targets_every_check(monkeypatch):
    seen = _recording(monkeypatch)

    @settings(max_examples=2, database=None, deadline=None)
    @given(st.integers(0, 2**31 - 1))
    def one(seed):
        seen.append(set())
        case = MatmulCase(m=5, n=7, k=9, values=Values(seed=seed))
        verdicts = harness.check("oracle", "matmul", case)
        names = {v.check for v in verdicts if 0 < v.ratio < math.inf}
        assert names, verdicts
        assert {f"error/bound: {n}" for n in names} | {"error/bound"} <= seen[-1]

    one()


def test_a_sequence_targets_each_check_once(monkeypatch):
    """A label targeted twice in one example raises; the sequence's calls are
    several examples' worth of steps, so each label must be their worst, once."""
    seen = _recording(monkeypatch)
    seen.append(set())
    cases = st.integers(0, 2**31 - 1).map(lambda s: MatmulCase(m=3, n=5, k=4,
                                                                values=Values(seed=s)))
    checks.stateful.run("matmul", "float32", cases=cases, max_examples=2,
                        stateful_step_count=3, seed=0, repeats=1)
    assert {"error/bound", "error/bound: out"} <= set().union(*seen), seen
