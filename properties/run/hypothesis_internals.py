"""The Hypothesis internals attnfuzz relies on, each in one place.

Hypothesis has no public setting for these; a test (tests/test_campaign.py)
fails when a Hypothesis release moves one, instead of a campaign silently
losing it.
"""

from __future__ import annotations


def bound_shrinking(seconds: float) -> None:
    """Cap the time Hypothesis spends shrinking one failure (a module constant
    of its engine; 300 s by default).  ``ValueError`` if this Hypothesis has none."""
    from hypothesis.internal.conjecture import engine

    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        raise ValueError("this Hypothesis version has no shrink time limit")
    engine.MAX_SHRINKING_SECONDS = seconds
