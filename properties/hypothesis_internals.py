"""The Hypothesis internals attnfuzz relies on, each in one place.

Hypothesis has no public setting for these; a test
(tests/test_hypothesis_internals.py) fails when a Hypothesis release moves
one, instead of a campaign silently losing it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


class TimeUp(BaseException):
    """Ends a Hypothesis run from inside its test at a time box: not an
    ``Exception``, so Hypothesis lets it through at once, as it does
    ``KeyboardInterrupt``, and neither reports nor shrinks it."""


def cut_off(data: object = None) -> None:
    """Have Hypothesis record nothing of an example that a ``TimeUp`` (or
    another stop) is about to end between its draws: call it just before
    raising.  The engine files every example's draws in a tree, and one that
    stops where an earlier run of the same draws drew on (a state machine's
    mutated sequence, cut at its third call) contradicts that record, which
    it reports as a flaky strategy in place of the stop.  Marked as an
    overrun, the example is left out of the tree, as one cut at the data's
    end is.  ``data``: the example's ``ConjectureData`` (default: the running
    one's; outside a Hypothesis test, nothing to do)."""
    from hypothesis.internal.conjecture.data import Status

    if data is None:
        context = build_context()
        if context is None:
            return
        data = context.data
    data.status = Status.OVERRUN


# The start of what Hypothesis' engine reports when shrinking reaches its time
# limit.  Its text names the default limit (five minutes) whatever the limit
# is, and asks for a bug report: neither holds for a limit chosen on purpose.
SLOW_SHRINK_WARNING = "WARNING: Hypothesis has spent more than five minutes working to shrink"


def shrink_limit_message(seconds: float) -> str:
    """What is reported instead, once shrinking stops at a limit of ``seconds``."""
    return (f"attnfuzz: shrinking stopped at its time limit ({seconds:g} s); the failure "
            "reported is the smallest case found by then")


def _shrinking_engine():
    """Hypothesis' engine module, with the shrink time limit and the reporter
    ``bound_shrinking`` sets; ``ValueError`` if this version lacks either."""
    from hypothesis.internal.conjecture import engine

    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        raise ValueError("this Hypothesis version has no shrink time limit")
    if not callable(getattr(engine, "report", None)):
        raise ValueError("this Hypothesis version's engine reports through no `report`")
    return engine


def check_shrink_bound() -> None:
    """``ValueError`` where ``bound_shrinking`` could not bound this Hypothesis'
    shrinking; changes nothing (a campaign's workers bound their own)."""
    _shrinking_engine()


def bound_shrinking(seconds: float) -> None:
    """Cap the time Hypothesis spends shrinking one failure (a module constant
    of its engine; 300 s by default), and have the engine say so in those
    terms when it stops there, for the rest of this process.  ``ValueError``
    if this Hypothesis has no such limit or reports through another function."""
    engine = _shrinking_engine()
    engine.MAX_SHRINKING_SECONDS = seconds
    original = getattr(engine.report, "attnfuzz_original", engine.report)
    engine.report = _rewording(original, seconds)


def _rewording(report: Callable[[str], None], seconds: float) -> Callable[[str], None]:
    def reworded(text: str) -> None:
        if isinstance(text, str) and text.startswith(SLOW_SHRINK_WARNING):
            text = shrink_limit_message(seconds)
        report(text)

    reworded.attnfuzz_original = report  # type: ignore[attr-defined]
    return reworded


def global_seed() -> object:
    """The seed every test of this run is forced to (``--hypothesis-seed``), or None.
    Hypothesis keeps it as a module global of its core, read when a test starts."""
    import hypothesis.core

    return hypothesis.core.global_force_seed


def force_global_seed(seed: int | str | None) -> None:
    """Force every Hypothesis test of this process to ``seed`` (what
    ``--hypothesis-seed`` does; the plugin sets it for every xdist worker)."""
    import hypothesis.core

    if not hasattr(hypothesis.core, "global_force_seed"):
        raise ValueError("this Hypothesis version keeps no global_force_seed")
    hypothesis.core.global_force_seed = seed


def current_profile() -> str:
    """The name of the settings profile loaded (``--hypothesis-profile``):
    ``settings.get_current_profile_name()`` where this Hypothesis has it, which
    older releases keep only as a class attribute (``profile_attribute``)."""
    from hypothesis import settings

    public = getattr(settings, "get_current_profile_name", None)
    return public() if public is not None else profile_attribute()


def profile_attribute() -> str:
    """The loaded profile's name as Hypothesis keeps it, with or without a
    public accessor."""
    from hypothesis import settings

    return settings._current_profile  # type: ignore[attr-defined]


def reproduce_blob(context) -> str | None:
    """Hypothesis' reproduce blob (``@reproduce_failure``) for the example a
    running test's ``context`` holds, or None where this version has none."""
    try:
        from hypothesis.core import encode_failure

        return encode_failure(context.data.choices).decode("ascii")
    except Exception:  # pragma: no cover - depends on Hypothesis internals
        return None


def build_context():
    """The running Hypothesis example's build context, or None outside a Hypothesis test."""
    from hypothesis.control import current_build_context
    from hypothesis.errors import InvalidArgument

    try:
        return current_build_context()
    except InvalidArgument:
        return None


def is_final(context) -> bool:
    """Whether ``context``'s example is the one Hypothesis reports (its last run
    of the smallest failure), not one that shrinking tries.  None, a case run
    once outside Hypothesis, is final."""
    return context is None or bool(context.is_final)


# How many ``distinct_draws`` blocks are open (in this process).
_distinct = 0


@contextmanager
def distinct_draws() -> Iterator[None]:
    """Inside: every example Hypothesis generates is a draw of its own.

    After each new example its engine also runs up to five copies of it with
    one part copied over another of the same kind (``generate_mutations_from``:
    a length over a length, one layout over another), which helps a test that
    needs one value twice.  An attention case draws those coincidences itself
    (Sq = Sk, shared layouts, a group of 1), and at a budget of tens of
    examples the copies are half of them: 30 examples of flash's oracle cases
    hold 14-16 distinct shapes and masks, and 30 without the copies.
    ``ValueError`` if this Hypothesis' engine has no such step."""
    from hypothesis.internal.conjecture.engine import ConjectureRunner

    global _distinct
    current = getattr(ConjectureRunner, "generate_mutations_from", None)
    if not callable(current):
        raise ValueError("this Hypothesis version's engine has no generate_mutations_from")
    if not hasattr(current, "attnfuzz_original"):
        ConjectureRunner.generate_mutations_from = _unless_distinct(current)
    _distinct += 1
    try:
        yield
    finally:
        _distinct -= 1


def _unless_distinct(original: Callable) -> Callable:
    def generate_mutations_from(self, data) -> None:
        if not _distinct:
            original(self, data)

    generate_mutations_from.attnfuzz_original = original  # type: ignore[attr-defined]
    return generate_mutations_from
