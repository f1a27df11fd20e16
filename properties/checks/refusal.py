"""Cases outside a declared support: refused with an exception, or answered right.

A kernel may support less than the whole case space, and say so (``Support``).
Outside what it declares, raising is the correct answer; answering is allowed
only if the answer is right, since a caller who passes an unsupported head
dim and gets garbage back has no way to tell.  So a case that breaks one
declared limit passes if the implementation raises, or if every output it
returns agrees with the oracle; a wrong answer is a ``not refused`` finding.
"""

from __future__ import annotations

import dataclasses
import math

from attnfuzz.properties.checks.execution import CONTEXT_KILLERS
from attnfuzz.properties.checks.oracle import against_oracle
from attnfuzz.properties.implementations import Implementation
from attnfuzz.properties.model.cases import AttentionCase, Built
from attnfuzz.reference import Verdict


class _Raised(Exception):
    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def refused_or_right(
    impl: Implementation, case: AttentionCase, built: Built | None = None
) -> list[Verdict]:
    """One passing verdict if ``impl`` raises on ``case``; else the oracle's verdicts,
    failing ones marked ``not refused``."""
    broken = impl.support.admits(case) or "nothing"

    def run(*args, **kwargs):
        try:
            return impl.run(*args, **kwargs)
        except Exception as exc:
            raise _Raised(exc) from exc

    try:
        verdicts = against_oracle(dataclasses.replace(impl, run=run), case, built)
    except _Raised as raised:
        # A harness wrapper may hold the implementation's own error.
        error = getattr(raised.error, "error", raised.error)
        if any(k in str(error) for k in CONTEXT_KILLERS):
            raise raised.error from None  # a fault, not a refusal: the harness reports it
        nan = math.nan
        return [Verdict(f"refused {broken} ({type(error).__name__})", 0.0, 0.0, 0.0, (), nan,
                        nan)]
    return [
        v if v.ok else dataclasses.replace(
            v, check=f"{v.check}, outside the declared support ({broken}), not refused",
            kind="not refused",
        )
        for v in verdicts
    ]
