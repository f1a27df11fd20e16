"""Two implementations of the same operation agree within the sum of their bounds."""

from __future__ import annotations

from ...reference import Verdict, compare
from .. import backend
from ..implementations import Implementation
from ..model.cases import Built, Case, build, on_oracle
from .execution import execute
from .oracle import expected


def implementations_agree(
    first: Implementation, second: Implementation, case: Case, built: Built | None = None
) -> list[Verdict]:
    built = built or build(case, backend.device())
    a = execute(first, case, built)
    b = execute(second, case, built)
    # Each within its own bound of the exact answer, so within their sum of each other.
    bound = sum(expected(case, built, impl.support)["out"][1] for impl in (first, second))
    got, want = a.results["out"], on_oracle(b.results["out"])
    return [*a.safety, *b.safety, compare(f"{first.name} vs {second.name}", got, want, bound)]
