"""The Hypothesis internals attnfuzz relies on still do what it relies on them for."""

from __future__ import annotations

import time

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import engine

from attnfuzz.properties import hypothesis_internals


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


def _first_draws() -> list[int]:
    seen: list[int] = []

    @settings(max_examples=3, database=None, phases=(Phase.generate,))
    @given(st.integers(0, 2**30))
    def draws(x: int) -> None:
        seen.append(x)

    draws()
    return seen


def test_a_forced_global_seed_fixes_every_tests_draws(monkeypatch):
    import hypothesis.core

    monkeypatch.setattr(hypothesis.core, "global_force_seed", hypothesis.core.global_force_seed)
    hypothesis_internals.force_global_seed(1234)
    assert hypothesis_internals.global_seed() == 1234
    first = _first_draws()
    assert _first_draws() == first
    hypothesis_internals.force_global_seed(4321)
    assert _first_draws() != first


# current_profile, and the attribute it reads where Hypothesis has no
# get_current_profile_name.
@pytest.mark.parametrize("accessor", ["current_profile", "profile_attribute"])
def test_the_profile_read_is_the_one_loaded(accessor):
    read = getattr(hypothesis_internals, accessor)
    before = hypothesis_internals.current_profile()
    settings.register_profile("attnfuzz-internals-probe", max_examples=7)
    try:
        settings.load_profile("attnfuzz-internals-probe")
        assert read() == "attnfuzz-internals-probe"
        assert settings.default.max_examples == 7
    finally:
        settings.load_profile(before)
    assert read() == before


def test_the_reproduce_blob_decodes_to_the_running_examples_choices():
    from hypothesis.core import decode_failure

    seen: list[tuple] = []

    @settings(max_examples=2, database=None, phases=(Phase.generate,))
    @given(st.integers(0, 100))
    def probe(x: int) -> None:
        context = hypothesis_internals.build_context()
        seen.append((hypothesis_internals.reproduce_blob(context), context.data.choices))

    probe()
    assert seen
    for blob, choices in seen:
        assert isinstance(blob, str), "this Hypothesis has no reproduce blob"
        assert tuple(decode_failure(blob.encode("ascii"))) == tuple(choices)


def test_the_build_context_is_the_running_examples_and_none_outside():
    assert hypothesis_internals.build_context() is None
    seen: list[tuple] = []

    @settings(max_examples=2, database=None, phases=(Phase.generate,))
    @given(st.integers(0, 100))
    def probe(x: int) -> None:
        context = hypothesis_internals.build_context()
        seen.append((x, context.data.choices))

    probe()
    assert seen and all(choices == (x,) for x, choices in seen), seen


def test_only_the_reported_example_is_final():
    finals: list[tuple[int, bool]] = []

    @settings(max_examples=50, database=None, phases=(Phase.generate, Phase.shrink))
    @given(st.integers(0, 1000))
    def fails(x: int) -> None:
        finals.append((x, hypothesis_internals.is_final(hypothesis_internals.build_context())))
        assert x < 10

    with pytest.raises(AssertionError):
        fails()
    # Shrinking tries many examples; only its last run of the smallest, x = 10, is final.
    assert [x for x, final in finals if final] == [10], finals
    assert len(finals) > 1
    assert hypothesis_internals.is_final(None)


def _repeats(distinct: bool) -> int:
    """Of 60 generated triples of integers, how many hold one value twice."""
    from hypothesis import seed

    got: list[tuple[int, ...]] = []

    @seed(0)
    @settings(max_examples=60, database=None, phases=(Phase.generate,))
    @given(st.tuples(*[st.integers(0, 2**30)] * 3))
    def draw(t: tuple[int, ...]) -> None:
        got.append(t)

    if distinct:
        with hypothesis_internals.distinct_draws():
            draw()
    else:
        draw()
    assert len(got) == 60
    return sum(len(set(t)) < 3 for t in got)


def test_distinct_draws_stop_the_engines_copies_and_only_inside():
    # The engine copies one integer over another after each new example: two
    # in three triples repeat a value.  Inside, only its first, simplest
    # examples do (zeros); outside again, the copies are back.
    before = _repeats(distinct=False)
    inside = _repeats(distinct=True)
    after = _repeats(distinct=False)
    assert before >= 20 and after == before, (before, after)
    assert inside <= 6, inside


def _drawn_twice(cut: bool) -> None:
    """Draws (1, 2) into a tree, then the same draws again, stopped after the
    first: the second run of a mutated sequence that a time box ends."""
    from hypothesis.internal.conjecture.data import ConjectureData
    from hypothesis.internal.conjecture.datatree import DataTree

    tree = DataTree()
    first = ConjectureData.for_choices([1, 2], observer=tree.new_observer())
    first.draw_integer(0, 10)
    first.draw_integer(0, 10)
    first.freeze()
    again = ConjectureData.for_choices([1, 2], observer=tree.new_observer())
    again.draw_integer(0, 10)
    if cut:
        hypothesis_internals.cut_off(again)
    again.freeze()  # what the engine does as the stop passes through it


def test_an_example_cut_off_between_draws_is_no_flaky_strategy():
    from hypothesis.errors import FlakyStrategyDefinition

    with pytest.raises(FlakyStrategyDefinition, match="stopped drawing earlier"):
        _drawn_twice(cut=False)
    _drawn_twice(cut=True)


def test_cut_off_outside_a_test_does_nothing():
    hypothesis_internals.cut_off()
