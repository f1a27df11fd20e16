"""Values that let a mask show: softmax rows spread over their keys, gradients alive.

A mask or a window decides which keys a row sees.  A kernel that gets it
wrong by a key (a diagonal off by one, a window edge) changes the row's
output by that key's probability, and its gradients through dS = P (dP -
delta).  Drawn values hide that where the softmax saturates: logits of tens
(values of scale 3 or 10, the ``large`` and ``spike`` families, an attention
scale of 2 at a head dim of 256) make every row one-hot, the stray key's
probability 1e-9 and dS zero; ``subnormal`` values make the gradients
underflow to zero; ``near_max`` ones make them overflow.  Either way the
case passes whatever the mask, and a campaign spends its masked cases on
nothing.

So a case with a causal mask or a window gets, but for one draw in
``KEEP_ODDS`` (saturated masked rows must stay correct too), a family from
``FAMILIES`` at the magnitude that gives its logits ``scale * q . k`` a
standard deviation of one of ``SPREADS``: wide enough that a row's weights
differ, narrow enough that no key takes the row (``logit_spread_scale``).
``informative`` is the measure of it: the share of a case's rows that see
two keys or more and whose largest weight is at most ``ONE_HOT``, with
gradients in the dtype's normal range.
"""

from __future__ import annotations

import math
from dataclasses import replace

import torch
from hypothesis import strategies as st

from .model.cases import AttentionCase, Case
from .model.values import generate

# Families whose logits spread by their magnitude alone (spikes and large
# values saturate at any magnitude; subnormal and near_max have fixed ones).
FAMILIES = ("normal", "uniform", "ties")
# Standard deviations of the logits; the first is where shrinking goes.
SPREADS = (1.0, 0.5, 2.0, 3.0)
# One masked draw in KEEP_ODDS keeps the values it drew.
KEEP_ODDS = 4
# A row whose largest weight is above this is one-hot for a mask's purposes:
# the keys a mask error adds or drops carry under 1 - ONE_HOT of it.
ONE_HOT = 0.9


def logit_spread_scale(family: str, spread: float, d: int, scale: float) -> float:
    """The magnitude of ``family`` at which logits ``scale * q . k`` (head dim
    ``d``) have standard deviation ``spread``, q and k independent.

    For q_i, k_i of variance sigma^2 (normal: s^2; uniform on (-s, s): s^2 / 3;
    ties draws its rows as normal does), q . k has variance d sigma^4, so the
    logits' deviation is |scale| sqrt(d) sigma^2.  A scale of 0 has uniform
    rows whatever the values: magnitude 1."""
    if scale == 0 or d < 1:
        return 1.0
    variance = spread / (abs(scale) * math.sqrt(d))  # sigma^2
    return math.sqrt(3 * variance if family == "uniform" else variance)


def masked(case: Case) -> bool:
    """Whether a mask or a window decides which keys the case's rows see."""
    return isinstance(case, AttentionCase) and (case.causal or case.window is not None)


def where_masked(
    cases: st.SearchStrategy[Case], families: tuple[str, ...]
) -> st.SearchStrategy[Case]:
    """``cases``, each masked one (``masked``) redrawn at an unsaturated family
    and magnitude of ``families`` but for one in ``KEEP_ODDS``; the seed and
    any declared magnitude limit are kept.  Unchanged where ``families``
    has none of ``FAMILIES``."""
    usable = tuple(f for f in FAMILIES if f in families)
    if not usable:
        return cases
    return st.tuples(cases, st.integers(0, KEEP_ODDS - 1), st.sampled_from(usable),
                     st.sampled_from(SPREADS)).map(lambda t: _spread(*t))


def _spread(case: Case, keep: int, family: str, spread: float) -> Case:
    if not masked(case) or keep == KEEP_ODDS - 1:
        return case
    assert isinstance(case, AttentionCase)
    magnitude = logit_spread_scale(family, spread, case.d, case.effective_scale)
    return replace(case, values=replace(case.values, family=family, scale=magnitude))


def informative(case: AttentionCase) -> bool:
    """Whether a mask error could show on ``case``: at least half of the rows
    that see two keys or more have no weight above ``ONE_HOT``, and the exact
    dQ and dV (of the drawn dO) reach the dtype's normal range.  A case in
    which no row sees two keys is not informative.  Float64 on the CPU; for
    measuring draws, not in a property."""
    from ..reference.gradients import attention_grads

    dtype = case.torch_dtype
    shapes = {**case.shapes(), "do": (case.batch, case.hq, case.sq, case.dv)}
    q, k, v, do = (generate(shapes[r], dtype, case.values, r) for r in ("q", "k", "v", "do"))
    grads = attention_grads(q, k, v, do, causal=case.causal, scale=case.effective_scale,
                            alignment=case.alignment, window=case.window)
    probs, seen = grads["probs"], grads["visible"]
    several = seen.sum(-1) >= 2
    several = several.expand(probs.shape[:-1]) if several.dim() else several
    if not bool(several.any()):
        return False
    spread = probs.amax(-1) <= ONE_HOT
    if float(spread[several].double().mean()) < 0.5:
        return False
    tiny = torch.finfo(dtype).tiny
    return all(bool(grads[n].abs().max() >= tiny) for n in ("dq", "dv") if grads[n].numel())


__all__ = ["FAMILIES", "KEEP_ODDS", "ONE_HOT", "SPREADS", "informative",
           "logit_spread_scale", "masked", "where_masked"]
