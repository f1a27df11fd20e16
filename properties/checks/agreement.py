"""Two implementations of the same operation agree within the sum of their bounds."""

from __future__ import annotations

from ...reference import Verdict, compare
from .. import backend
from ..implementations import Implementation
from ..model.cases import Built, Case, build, on_oracle
from .execution import execute
from .oracle import EXPECTED


def implementations_agree(
    first: Implementation, second: Implementation, case: Case, built: Built | None = None
) -> list[Verdict]:
    built = built or build(case, backend.device())
    a = execute(first, case, built)
    b = execute(second, case, built)
    _, bound, _ = EXPECTED[case.kind](case, built)["out"]
    got, want = a.results["out"], on_oracle(b.results["out"])
    return [*a.safety, *b.safety, compare(f"{first.name} vs {second.name}", got, want, 2 * bound)]
