"""Gradients: a differentiable attention's backward against the float64 oracle.

A backward case (``AttentionCase.backward``) runs the implementation with q,
k, v as leaves in their drawn layouts and differentiates its output with the
drawn dO (``execution.execute_backward``).  ``against_gradient_oracle``
holds dq, dk, dv to the oracle's gradients within the bounds of
``reference.gradient_bounds``; ``gradients_agree`` holds two backwards to
each other; ``RELATIONS`` are runs that must agree without an oracle value,
each a small named function as in ``metamorphic``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import torch

from ...reference import Verdict, attention_bounds, compare
from ...reference.gradient_bounds import attention_grad_bounds
from ...reference.gradients import attention_grads
from .. import backend
from ..implementations import Implementation, Support
from ..model.cases import AttentionCase, Built, build, on_oracle
from ..model.layouts import OFF_BOUNDARY, Layout, off_boundary
from .execution import GRADS, BackwardRun, bitwise, execute_backward

# name -> (exact value, bound); every gradient is rounded to the inputs' dtype.
GradExpected = dict[str, tuple[torch.Tensor, torch.Tensor]]


Oracle = tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]


def _oracle(case: AttentionCase, built: Built, logits_dtype: str = "fp32") -> Oracle:
    """The oracle's gradients (with the forward's parts) and the forward's
    bounds, for the case's inputs and dO and logits that take
    ``logits_dtype``: once per case, however many backwards are judged by them."""
    q, k, v, do = (built.exact[r] for r in ("q", "k", "v", "do"))
    scale = case.effective_scale
    grads = attention_grads(q, k, v, do, causal=case.causal, scale=scale,
                            alignment=case.alignment, window=case.window)
    forward = attention_bounds(q, k, v, grads, scale=scale, input_precision=case.input_precision,
                               dtype=case.torch_dtype, logits_dtype=logits_dtype)
    return grads, forward


def _expected(case: AttentionCase, built: Built, oracle: Oracle, delta_from: str | None = None,
              out: torch.Tensor | None = None, group_sum: str | None = None,
              logits_dtype: str = "fp32") -> GradExpected:
    """dq, dk, dv and their bounds; ``delta_from`` and ``out`` (the output the
    backward saw), ``group_sum``, ``logits_dtype``: how the backward forms
    delta, sums dK and dV over a group, and the dtype of the logits
    (``arithmetic``; ``oracle`` made for the same logits), for bounds that
    know it."""
    grads, forward = oracle
    q, k, v, do = (built.exact[r] for r in ("q", "k", "v", "do"))
    bounds = attention_grad_bounds(q, k, v, do, grads, forward, scale=case.effective_scale,
                                   input_precision=case.input_precision, dtype=case.torch_dtype,
                                   delta_from=delta_from, group_sum=group_sum,
                                   logits_dtype=logits_dtype,
                                   out=None if out is None else on_oracle(out))
    return {name: (grads[name], bounds[name]) for name in GRADS}


def gradient_oracle(case: AttentionCase, built: Built, delta_from: str | None = None,
                    group_sum: str | None = None, logits_dtype: str = "fp32") -> GradExpected:
    """The oracle's dq, dk, dv for the case's inputs and dO, and their bounds
    for a backward that forms delta as ``delta_from`` says ("probs", or None
    for either way; "output" needs the output a run returned), sums dK and
    dV over a group as ``group_sum`` says ("fp32", "rounded", or None: either),
    after a forward whose logits take ``logits_dtype`` ("fp32" or "rounded")."""
    return _expected(case, built, _oracle(case, built, logits_dtype), delta_from,
                     group_sum=group_sum, logits_dtype=logits_dtype)


def arithmetic(support: Support) -> dict[str, str | None]:
    """How a backward forms delta and sums dK and dV over a group (None:
    unsaid, either way) and the dtype its logits take, as its support says:
    ``_expected``'s keywords."""
    said = {"delta_from": support.backward_delta, "group_sum": support.group_sum}
    return {**{key: None if how == "any" else how for key, how in said.items()},
            "logits_dtype": support.logits}


def _said_oracle(impl: Implementation, case: AttentionCase, built: Built) -> GradExpected:
    """``gradient_oracle`` with the group sum and logits the implementation
    says (a relation compares two runs' gradients, so delta's bound, which
    would need one run's output, stays unsaid)."""
    return gradient_oracle(case, built, **{**arithmetic(impl.support), "delta_from": None})


def _judge(run: BackwardRun, expected: GradExpected, dtype: torch.dtype,
           times: float = 1.0, prefix: str = "") -> list[Verdict]:
    return [compare(f"{prefix}{name}", run.grads[name], want, times * bound, dtype=dtype)
            for name, (want, bound) in expected.items() if name in run.grads]


def against_gradient_oracle(
    impl: Implementation, case: AttentionCase, built: Built | None = None,
    run: BackwardRun | None = None,
) -> list[Verdict]:
    """dq, dk, dv (and the forward's output, under autograd) within their bounds;
    ``run``: the backward already run on ``built``."""
    built = built or build(case, backend.device())
    run = run or execute_backward(impl, case, built)
    said = arithmetic(impl.support)
    oracle = _oracle(case, built, said["logits_dtype"])
    grads, forward = oracle
    out = compare("out", run.results["out"], grads["out"], forward["out"], dtype=case.torch_dtype)
    expected = _expected(case, built, oracle, out=run.results["out"], **said)
    return [*run.safety, out, *_judge(run, expected, case.torch_dtype)]


def gradients_agree(
    first: Implementation, second: Implementation, case: AttentionCase,
    built: Built | None = None,
) -> list[Verdict]:
    """Two backwards agree within the sum of their bounds, each its own (how
    its backward forms delta, from the output it returned)."""
    built = built or build(case, backend.device())
    a, b = execute_backward(first, case, built), execute_backward(second, case, built)
    verdicts = [*a.safety, *b.safety]
    oracles: dict[str, Oracle] = {}  # by the dtype of the logits: one, unless they differ
    bounds = []
    for run, said in ((a, arithmetic(first.support)), (b, arithmetic(second.support))):
        logits = said["logits_dtype"]
        if logits not in oracles:
            oracles[logits] = _oracle(case, built, logits)
        bounds.append(_expected(case, built, oracles[logits], out=run.results["out"], **said))
    bound_a, bound_b = bounds
    for name in GRADS:
        want = on_oracle(b.grads[name])
        verdicts.append(compare(f"{first.name} vs {second.name}: {name}", a.grads[name], want,
                                bound_a[name][1] + bound_b[name][1], dtype=case.torch_dtype))
    return verdicts


# --------------------------------------------------------------------------
# Relations: (impl, case, built, base run) -> verdicts, [] where they do not apply
# --------------------------------------------------------------------------

Relation = Callable[[Implementation, AttentionCase, Built, BackwardRun], list[Verdict]]


def _same(impl: Implementation, check: str, got: BackwardRun, base: BackwardRun,
          expected: Callable[[], GradExpected], dtype: torch.dtype) -> list[Verdict]:
    """Bitwise where the implementation promises the same bits, else each run
    within its bound of the same exact value (twice the bound apart)."""
    if impl.bitwise_layouts:
        return [bitwise(f"{check}: {n}", got.grads[n], base.grads[n]) for n in GRADS]
    want = {n: (on_oracle(base.grads[n]), bound) for n, (_, bound) in expected().items()}
    return _judge(got, want, dtype, times=2.0, prefix=f"{check}: ")


def rerun(impl, case, built, base) -> list[Verdict]:
    """The same backward again: the same bits (no atomics race in a deterministic kernel)."""
    again = execute_backward(impl, case, built)
    return [*again.safety, *(bitwise(f"rerun: {n}", again.grads[n], base.grads[n])
                             for n in GRADS)]


def _copied(built: Built, change: Callable[[str, torch.Tensor], torch.Tensor]) -> Built:
    """A Built of new tensors ``change(role, tensor)``, each its own buffer.

    ``change`` only copies, slices or repeats values, so the oracle's copies
    are changed alike where they are, rather than copied over again."""
    inputs = {r: change(r, t) for r, t in built.inputs.items()}
    return Built(inputs, {r: change(r, t) for r, t in built.exact.items()}, dict(inputs))


def contiguous(impl, case, built, base) -> list[Verdict]:
    """q, k, v and dO copied to fresh contiguous tensors that start off a
    16-byte boundary: the same gradients.  Off the boundary, a backward that
    specialises on aligned starts (a vector width, TMA loads, a launch keyed
    without the alignment) must take another path too, and agree; contiguous
    inputs on a boundary are among every property's draws."""
    moved = replace(case, q_layout=OFF_BOUNDARY, k_layout=OFF_BOUNDARY, v_layout=OFF_BOUNDARY,
                    do_layout=OFF_BOUNDARY)
    if impl.support.first_broken_limit(moved):
        return []
    got = execute_backward(impl, moved, _copied(built, lambda r, t: off_boundary(t)))
    return [*got.safety, *_same(impl, "contiguous layouts off a 16-byte boundary", got, base,
                                lambda: _said_oracle(impl, case, built), case.torch_dtype)]


def gqa_repeated(impl, case, built, base) -> list[Verdict]:
    """GQA against MHA with K and V repeated over the group: dK and dV of a KV
    head are the sums of its query heads' gradients (within both bounds)."""
    if case.group == 1:
        return []
    mha = replace(case, hkv=case.hq, k_layout=Layout(), v_layout=Layout())
    if impl.support.first_broken_limit(mha):
        return []
    rep = _copied(built, lambda r, t: t.repeat_interleave(case.group, 1).contiguous()
                  if r in ("k", "v") else t)
    got = execute_backward(impl, mha, rep)
    mine = _said_oracle(impl, case, built)
    theirs = _said_oracle(impl, mha, rep)
    verdicts = list(got.safety)
    for name in GRADS:
        summed, bound = on_oracle(got.grads[name]), theirs[name][1]
        if name != "dq":  # fold each group's heads into their KV head
            b, _, *rest = summed.shape
            summed = summed.reshape(b, case.hkv, case.group, *rest).sum(2)
            bound = bound.reshape(b, case.hkv, case.group, *rest).sum(2)
        verdicts.append(compare(f"gqa as repeated heads: {name}", base.grads[name], summed,
                                mine[name][1] + bound, dtype=case.torch_dtype))
    return verdicts


def batch_alone(impl, case, built, base) -> list[Verdict]:
    """The last batch element differentiated alone: that slice of every gradient."""
    if case.batch <= 1:
        return []
    alone = replace(case, batch=1)
    if impl.support.first_broken_limit(alone):
        return []
    got = execute_backward(impl, alone, _copied(built, lambda r, t: t[-1:]))
    sliced = BackwardRun(base.results, {n: g[-1:] for n, g in base.grads.items()}, [])

    def expected() -> GradExpected:
        return {n: (w[-1:], b[-1:]) for n, (w, b) in _said_oracle(impl, case, built).items()}

    return [*got.safety, *_same(impl, "last batch alone", got, sliced, expected,
                                case.torch_dtype)]


def key_permutation(impl, case, built, base) -> list[Verdict]:
    """Keys and values permuted together (no mask): dQ unchanged, dK and dV
    permuted alike, each within the bounds (the sums run in another order)."""
    if case.causal or case.window is not None or case.sk <= 1:
        return []
    gen = torch.Generator().manual_seed(case.values.seed)
    perm = torch.randperm(case.sk, generator=gen)
    got = execute_backward(impl, case, _copied(
        built, lambda r, t: t[:, :, perm.to(t.device)] if r in ("k", "v") else t))
    verdicts = list(got.safety)
    there = perm.to(backend.oracle_device())
    for name, (_, bound) in _said_oracle(impl, case, built).items():
        want, b = on_oracle(base.grads[name]), bound
        if name != "dq":
            want, b = want[:, :, there], b[:, :, there]
        verdicts.append(compare(f"key permutation: {name}", got.grads[name], want, 2 * b,
                                dtype=case.torch_dtype))
    return verdicts


def output_changed(impl, case, built, base) -> list[Verdict]:
    """The output changed in place between the forward and the backward (a
    caller's ``out.add_(1)``): autograd's RuntimeError, where the backward
    saved the output through ``save_for_backward`` (its version counter
    moved), or the same gradients, where it never reads it.  A backward that
    keeps the output some other way (an attribute of ``ctx``) reads the
    changed values: delta, rowsum(dO * O), is then wrong, and so is dS."""
    try:
        got = execute_backward(impl, case, built, change_out=lambda out: out.add_(1.0))
    except RuntimeError as exc:
        if "inplace" not in str(exc):  # autograd's: a saved tensor, or a view, changed
            raise
        return []
    return [*got.safety, *_same(impl, "output changed in place", got, base,
                                lambda: _said_oracle(impl, case, built), case.torch_dtype)]


RELATIONS: dict[str, Relation] = {
    "rerun": rerun,
    "contiguous layouts off a 16-byte boundary": contiguous,
    "gqa as repeated heads": gqa_repeated,
    "last batch alone": batch_alone,
    "key permutation": key_permutation,
    "output changed in place": output_changed,
}


def gradient_relations(
    impl: Implementation, case: AttentionCase, built: Built | None = None
) -> list[Verdict]:
    built = built or build(case, backend.device())
    base = execute_backward(impl, case, built)
    verdicts = list(base.safety)
    for relation in RELATIONS.values():
        verdicts += relation(impl, case, built, base)
    return verdicts
