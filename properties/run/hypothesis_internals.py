"""The Hypothesis internals attnfuzz relies on, each in one place.

Hypothesis has no public setting for these; a test
(tests/test_hypothesis_internals.py) fails when a Hypothesis release moves
one, instead of a campaign silently losing it.
"""

from __future__ import annotations

from collections.abc import Callable

# The start of what Hypothesis' engine reports when shrinking reaches its time
# limit.  Its text names the default limit (five minutes) whatever the limit
# is, and asks for a bug report: neither holds for a limit chosen on purpose.
SLOW_SHRINK_WARNING = "WARNING: Hypothesis has spent more than five minutes working to shrink"


def shrink_limit_message(seconds: float) -> str:
    """What is reported instead, once shrinking stops at a limit of ``seconds``."""
    return (f"attnfuzz: shrinking stopped at its time limit ({seconds:g} s); the failure "
            "reported is the smallest case found by then")


def bound_shrinking(seconds: float) -> None:
    """Cap the time Hypothesis spends shrinking one failure (a module constant
    of its engine; 300 s by default), and have the engine say so in those
    terms when it stops there.  ``ValueError`` if this Hypothesis has no such
    limit or reports through another function."""
    from hypothesis.internal.conjecture import engine

    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        raise ValueError("this Hypothesis version has no shrink time limit")
    if not callable(getattr(engine, "report", None)):
        raise ValueError("this Hypothesis version's engine reports through no `report`")
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
