"""The Hypothesis internals attnfuzz relies on still do what it relies on them for."""

from __future__ import annotations

import time

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import engine

from attnfuzz.properties.run import hypothesis_internals


@pytest.fixture
def unbound(monkeypatch):
    """The engine's limit and reporter as they were, after the test."""
    monkeypatch.setattr(engine, "MAX_SHRINKING_SECONDS", engine.MAX_SHRINKING_SECONDS)
    monkeypatch.setattr(engine, "report", engine.report)


def _slow_shrinking_failure() -> float:
    """Run a test that fails slowly on most draws: its shrinking (twenty
    integers lowered until their sum is just 10000, 20 ms a call) outlasts a
    limit of a fraction of a second.  Returns the seconds the run took."""

    @settings(max_examples=50, deadline=None, database=None,
              phases=(Phase.generate, Phase.shrink))
    @given(st.lists(st.integers(0, 2**16), min_size=20, max_size=20))
    def fails(values: list[int]) -> None:
        time.sleep(0.02)
        assert sum(values) < 10_000, "too big"

    t0 = time.monotonic()
    with pytest.raises(AssertionError, match="too big"):
        fails()
    return time.monotonic() - t0


def test_a_shrink_limit_is_kept_and_reported_as_itself(capsys, unbound):
    hypothesis_internals.bound_shrinking(0.3)
    spent = _slow_shrinking_failure()
    out, err = capsys.readouterr()
    # Unbounded, this shrinking takes over a hundred calls (seconds).
    assert spent < 10, spent
    assert "attnfuzz: shrinking stopped at its time limit (0.3 s)" in out + err, out + err
    assert "five minutes" not in out + err, out + err
    assert "PLEASE REPORT THIS" not in out + err, out + err


def test_bounding_twice_keeps_the_last_limit_and_one_message(capsys, unbound):
    hypothesis_internals.bound_shrinking(60)
    hypothesis_internals.bound_shrinking(0.3)
    _slow_shrinking_failure()
    out, err = capsys.readouterr()
    assert (out + err).count("attnfuzz: shrinking stopped") == 1, out + err
    assert "(0.3 s)" in out + err, out + err
