"""What a property's judge is given (``Trial``): plain data, beside the judges
that read it and the registry that builds it."""

from __future__ import annotations

from dataclasses import dataclass

from ..implementations.implementation import Implementation
from ..model.cases import Built, Case


@dataclass(frozen=True)
class Trial:
    """What a judge is given: the implementation, the case, the case's inputs
    already built (None: the judge builds them), and the other implementation
    of a property that compares two (None: the judge's default peer)."""

    impl: Implementation
    case: Case
    built: Built | None = None
    other: Implementation | None = None
