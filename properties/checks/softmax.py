"""Softmax invariants, shift invariance (a metamorphic relation of softmax), and
the softmax differentiated alone."""

from __future__ import annotations

import torch

from ...reference import Verdict, compare
from ...reference.bounds import softmax_grad_bound
from ...reference.gradients import softmax_grad
from .. import backend
from ..implementations import Implementation, short_name
from ..implementations.implementation import ContractViolation
from ..model.cases import Built, SoftmaxCase, build, on_oracle
from ..model.layouts import materialize
from ..model.values import GRID
from .execution import execute, flag, same_bits
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


def softmax_gradients(
    impl: Implementation, case: SoftmaxCase, built: Built | None = None
) -> list[Verdict]:
    """The softmax differentiated alone: x a leaf in its drawn layout, the
    upstream dy (normal values of the case's seed) in x's layout too, a
    broadcast one included (a loss of ``y.sum(0)`` hands a kernel such a dy).
    y within its bound of the oracle's, dx within ``softmax_grad_bound`` of
    the oracle's gradient, and dy and x unchanged."""
    built = built or build(case, backend.device())
    x = built.inputs["x"]
    gen = torch.Generator().manual_seed(case.values.seed)
    values = torch.randn(x.shape, generator=gen, dtype=torch.float64).to(x.dtype)
    dy = materialize(values.to(x.device), case.x_layout).tensor
    dy_before, x_before = dy.clone(), x.clone()
    leaf = x.detach().requires_grad_(True)
    y = impl.run(leaf, None, **case.kwargs())["out"]
    if not isinstance(y, torch.Tensor) or not y.requires_grad:
        raise ContractViolation(f"{short_name(impl.name)} declares a backward, but its out "
                                "does not require grad: autograd cannot differentiate it",
                                impl.name, "out", "grad")
    (dx,) = torch.autograd.grad(y, leaf, dy)
    if dx is None or dx.shape != x.shape or dx.dtype != x.dtype:
        got = None if dx is None else (tuple(dx.shape), dx.dtype)
        raise ContractViolation(f"{impl.name}'s backward returned dx {got}, expected "
                                f"{(tuple(x.shape), x.dtype)}", impl.name, "dx", "shape")
    want, bound = softmax_expected(case, built.exact["x"])
    got = on_oracle(y.detach())
    exact_dy = on_oracle(dy_before)
    want_dx = softmax_grad(want, exact_dy, scale=case.scale)
    # The backward's y: the output it returned, or any within the forward's bound.
    err = torch.maximum(bound, (got - want).abs())
    dx_bound = softmax_grad_bound(want, err, exact_dy, want_dx, scale=case.scale,
                                  out_dtype=case.torch_dtype)
    return [
        compare("out", y.detach(), want, bound, dtype=case.torch_dtype),
        compare("dx", dx, want_dx, dx_bound, dtype=case.torch_dtype),
        flag("input dy modified", ~same_bits(dy_before, dy), dy, kind="memory", want=dy_before),
        flag("input x modified", ~same_bits(x_before, x), x, kind="memory", want=x_before),
    ]
