"""Softmax invariants, and shift invariance (a metamorphic relation of softmax)."""

from __future__ import annotations

import torch

from ...reference import Verdict, compare
from .. import backend
from ..implementations import Implementation
from ..model.cases import Built, SoftmaxCase, build, on_oracle
from ..model.values import GRID
from .execution import execute, flag
from .oracle import softmax_expected, softmax_visible


def softmax_invariants(
    impl: Implementation, case: SoftmaxCase, built: Built | None = None
) -> list[Verdict]:
    """Row sums, range, exact zeros where masked, order, finiteness."""
    built = built or build(case, backend.device())
    run = execute(impl, case, built)
    p = on_oracle(run.results["out"])
    x = built.exact["x"]
    visible = softmax_visible(case, x.device)
    _, bound = softmax_expected(case, x)
    verdicts = list(run.safety)
    # |sum_j p^_j - 1| <= sum_j |p^_j - p_j| <= sum_j bound_j (rows seeing something).
    sees = visible.any(dim=-1)
    row_sum = p.sum(-1)
    verdicts.append(
        compare(
            "row sums to 1",
            torch.where(sees, row_sum, torch.zeros_like(row_sum)),
            sees.double(),
            bound.sum(-1) + p.shape[-1] * 2.0**-53,
        )
    )
    verdicts.append(flag("probability outside [0, 1]", ~((p >= 0) & (p <= 1)), p))
    verdicts.append(flag("masked entry not exactly 0", (~visible) & (p != 0), p))
    verdicts.append(flag("non-finite probability", ~torch.isfinite(p), p))
    # Order: a larger logit never gets a smaller probability (visible pairs).
    if p.shape[-1] <= 512:
        logits = case.scale * x
        larger = (logits.unsqueeze(-1) > logits.unsqueeze(-2)) & (
            visible.unsqueeze(-1) & visible.unsqueeze(-2)
        )
        smaller_p = p.unsqueeze(-1) < p.unsqueeze(-2)
        verdicts.append(flag("order not preserved", larger & smaller_p))
    return verdicts


def softmax_shift_invariance(
    impl: Implementation, case: SoftmaxCase, built: Built | None = None
) -> list[Verdict]:
    """softmax(x + c_row) equals softmax(x) for per-row integer constants c.

    The case's values come from the ``grid`` family, on which ``x + c`` is
    exact in the dtype; both runs then approximate the same exact
    probabilities and may differ by at most the sum of their bounds.
    """
    if case.values.family != "grid":
        raise ValueError("softmax_shift_invariance needs a case with values.family == 'grid'")
    built = built or build(case, backend.device())
    x = built.exact["x"]
    _, limit = GRID[case.torch_dtype]
    gen = torch.Generator().manual_seed(case.values.seed)
    shifts = torch.randint(-int(limit), int(limit) + 1, case.shape[:-1], generator=gen).double()
    exact_shifted = x + shifts.to(x.device).unsqueeze(-1)
    # Checked where the oracle is, then the kernel's input is moved once.
    rounded = exact_shifted.to(case.torch_dtype)
    if not torch.equal(rounded.double(), exact_shifted):
        raise ValueError("shift invariance: x + c is not exact in the dtype")
    shifted = rounded.to(built.inputs["x"].device)
    run = execute(impl, case, built)
    sbuilt = Built({"x": shifted}, {"x": exact_shifted}, {"x": shifted})
    srun = execute(impl, case, sbuilt)
    total = softmax_expected(case, built.exact["x"])[1] + softmax_expected(case, exact_shifted)[1]
    got = srun.results["out"]
    return [
        *run.safety,
        *srun.safety,
        compare("shift invariance", got, on_oracle(run.results["out"]), total),
    ]
