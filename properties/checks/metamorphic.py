"""Metamorphic relations of attention: runs that must agree without an oracle value.

Each relation is a small named function in ``RELATIONS``: given the base run
(``Base``) it runs the implementation on related inputs and returns a
verdict, or ``None`` where it does not apply to the case.  Relations compare
either bitwise or within the sum of both runs' bounds around the same exact
value (the bounds come from the oracle).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

import torch

from ...reference import Verdict, compare
from .. import backend
from ..implementations import Implementation
from ..model.cases import AttentionCase, Built, build, on_oracle
from ..model.layouts import OFF_BOUNDARY, Layout, off_boundary
from .execution import bitwise, run_clean
from .oracle import attention_oracle


@dataclass
class Base:
    """The base run of a case and what every relation needs of it."""

    impl: Implementation
    case: AttentionCase
    built: Built
    out: torch.Tensor  # the base run's output, on the device
    parts: dict[str, torch.Tensor]  # the oracle's, on its device
    bounds: dict[str, torch.Tensor]

    @property
    def q(self) -> torch.Tensor:
        return self.built.inputs["q"]

    @property
    def k(self) -> torch.Tensor:
        return self.built.inputs["k"]

    @property
    def v(self) -> torch.Tensor:
        return self.built.inputs["v"]

    @cached_property
    def exact_out(self) -> torch.Tensor:
        """The base run's output in float64 on the oracle's device (moved once)."""
        return on_oracle(self.out)

    @property
    def twice(self) -> torch.Tensor:
        """The bound of a difference of two runs that each stay within their bound."""
        return 2 * self.bounds["out"]

    def run(self, q, k, v, case: AttentionCase | None = None) -> torch.Tensor:
        if case is not None and self.impl.support.first_broken_limit(case):
            raise Unsupported  # the related case is outside what the kernel declares
        largest = self.impl.support.max_magnitude
        if largest is not None and any(bool((t.abs() > largest).any()) for t in (q, k, v)):
            raise Unsupported  # related values (V doubled, say) past the declared magnitudes
        return run_clean(self.impl, case or self.case, {"q": q, "k": k, "v": v})["out"]


class Unsupported(Exception):
    """A relation's related case lies outside the implementation's declared support."""


def _related(relation: Callable[[Base], Verdict | None], base: Base) -> Verdict | None:
    try:
        return relation(base)
    except Unsupported:
        return None


def same(
    b: Base, check: str, got: torch.Tensor, want: torch.Tensor, bound: torch.Tensor,
    exact: torch.Tensor | None = None,
) -> Verdict:
    """Two runs that differ only in layouts: bitwise equal where the
    implementation promises it (``bitwise_layouts``), else within ``bound``
    (on the oracle's device; ``exact``: ``want`` already there, if at hand)."""
    if b.impl.bitwise_layouts:
        return bitwise(check, got, want)
    return compare(check, got, on_oracle(want) if exact is None else exact, bound)


def repeat(b: Base) -> Verdict:
    return bitwise("two runs bitwise equal", b.run(b.q, b.k, b.v), b.out)


def layout_independence(b: Base) -> Verdict:
    """Same logical values, contiguous storage: bitwise the same output."""
    flat = replace(b.case, q_layout=Layout(), k_layout=Layout(), v_layout=Layout())
    got = b.run(b.q.contiguous(), b.k.contiguous(), b.v.contiguous(), flat)
    return same(b, "layout independence", got, b.out, b.twice, b.exact_out)


def start_independence(b: Base) -> Verdict:
    """Same logical values, contiguous, each input starting off a 16-byte
    boundary: the same output.  Run after ``layout_independence``'s aligned
    contiguous inputs of the same strides, so a kernel or launch cache that
    specialises on aligned starts must take another path here, and agree."""
    moved = replace(b.case, q_layout=OFF_BOUNDARY, k_layout=OFF_BOUNDARY, v_layout=OFF_BOUNDARY)
    got = b.run(off_boundary(b.q), off_boundary(b.k), off_boundary(b.v), moved)
    return same(b, "inputs off a 16-byte boundary", got, b.out, b.twice, b.exact_out)


def linear_in_v(b: Base) -> Verdict | None:
    """Scaling V by 2 commutes with every rounding, except where a result is in
    the subnormal range (fixed spacing there) or would overflow.  That holds
    for the products p v too: a row whose smallest weight times the smallest
    value can fall below fp32's normal range is left out (its accuracy is the
    oracle's business)."""
    if b.case.values.family in ("near_max", "subnormal"):
        return None
    scaled = b.run(b.q, b.k, (b.v * 2).contiguous())
    # Chosen where the oracle is; the mask then goes once to the results.
    normal = b.exact_out.abs() >= 2 * torch.finfo(b.out.dtype).tiny
    p, v = b.parts["probs"], b.built.exact["v"].abs()
    v_min = float(v[v > 0].min()) if bool((v > 0).any()) else 0.0
    p_min = (torch.where(p > 0, p, math.inf).amin(dim=-1, keepdim=True) if p.shape[-1]
             else torch.full((*p.shape[:-1], 1), math.inf, dtype=p.dtype,
                             device=p.device))  # inf: no weight
    products = p_min * v_min >= 2 * torch.finfo(torch.float32).tiny
    normal = normal & products.expand(normal.shape)
    there = normal.to(b.out.device)
    return same(b, "linearity in V (x2)", scaled[there], (b.out * 2)[there],
                (2 * b.twice)[normal])


def scale_and_keys_negated(b: Base) -> Verdict:
    """Negating both the scale and the keys leaves every logit bitwise the same
    (IEEE rounding is sign-symmetric), so the output must be too; a kernel
    whose running max mishandles a negative scale computes other bits."""
    mirrored = replace(b.case, scale=-b.case.effective_scale, k_layout=Layout())
    negated = b.run(b.q, (-b.k).contiguous(), b.v, mirrored)
    return same(b, "scale and keys negated", negated, b.out, b.twice, b.exact_out)


def convex_hull(b: Base) -> Verdict | None:
    """Each output coordinate lies between the visible values' min and max."""
    if b.case.sk == 0:
        return None  # no value at all: the oracle's zeros are the whole check
    vis = b.parts["visible"]
    vrep = b.built.exact["v"].repeat_interleave(b.case.group, dim=1).unsqueeze(2)
    hi = torch.where(vis.unsqueeze(-1), vrep, -math.inf).amax(dim=3)
    lo = torch.where(vis.unsqueeze(-1), vrep, math.inf).amin(dim=3)
    sees = vis.any(-1, keepdim=True)
    hi, lo = torch.where(sees, hi, 0.0), torch.where(sees, lo, 0.0)
    o = b.exact_out
    excess = torch.clamp(o - hi, min=0) + torch.clamp(lo - o, min=0)
    excess = torch.nan_to_num(excess, nan=math.inf, posinf=math.inf)
    return compare("convex hull of visible values", excess, torch.zeros_like(excess),
                   b.bounds["out"])


def key_permutation(b: Base) -> Verdict | None:
    """Permuting keys and values together leaves an unmasked output unchanged."""
    if b.case.causal or b.case.window is not None or b.case.sk <= 1:
        return None
    gen = torch.Generator().manual_seed(b.case.values.seed)
    perm = torch.randperm(b.case.sk, generator=gen).to(b.q.device)
    permuted = b.run(b.q, b.k[:, :, perm], b.v[:, :, perm])
    return compare("key permutation", permuted, b.exact_out, b.twice)


def invisible_keys(b: Base) -> Verdict | None:
    """Altering the keys the first query cannot see leaves every row that sees
    none of them bitwise unchanged."""
    row_vis = b.parts["visible"][0, 0]  # (Sq, Sk): the same for every batch and head
    masked = b.case.causal or b.case.window is not None
    if not masked or not b.case.sq or not bool((~row_vis[0]).any()):
        return None
    dev = b.q.device
    blind = torch.nonzero(~row_vis[0]).flatten().to(dev)
    k2, v2 = b.k.clone(), b.v.clone()
    k2[:, :, blind] = 3.0
    v2[:, :, blind] = -7.0
    altered = b.run(b.q, k2, v2)
    rows = (~row_vis[:, ~row_vis[0]]).all(dim=1)  # on the oracle's device
    there = rows.to(dev)
    return same(b, "invisible keys do not matter", altered[:, :, there], b.out[:, :, there],
                b.twice[:, :, rows], b.exact_out[:, :, rows])


def batch_alone(b: Base) -> Verdict | None:
    """The last batch computed alone equals that slice of the full run."""
    if b.case.batch <= 1:
        return None
    alone = b.run(b.q[-1:], b.k[-1:], b.v[-1:], replace(b.case, batch=1))
    return compare("batch alone", alone, b.exact_out[-1:], b.twice[-1:])


def head_alone(b: Base) -> Verdict | None:
    """The last query head computed alone (with its KV head) equals that slice."""
    if b.case.hq <= 1:
        return None
    h = b.case.hq - 1
    kv = h // b.case.group
    single = replace(b.case, hq=1, hkv=1)
    alone = b.run(b.q[:, h : h + 1], b.k[:, kv : kv + 1], b.v[:, kv : kv + 1], single)
    return compare("head alone", alone, b.exact_out[:, h : h + 1], b.twice[:, h : h + 1])


def gqa_as_mha(b: Base) -> Verdict | None:
    """GQA equals MHA with the KV heads repeated."""
    g = b.case.group
    if g <= 1:
        return None
    mha = replace(b.case, hkv=b.case.hq)
    rep = b.run(b.q, b.k.repeat_interleave(g, 1), b.v.repeat_interleave(g, 1), mha)
    return compare("GQA == MHA with repeated KV", rep, b.exact_out, b.twice)


def decode_as_last_row(b: Base) -> Verdict | None:
    """The last query of a bottom-right causal prefill sees every key: decoding
    it alone gives that row."""
    c = b.case
    if not (c.causal and c.alignment == "bottom_right" and c.sq > 1):
        return None
    dec = b.run(b.q[:, :, -1:].contiguous(), b.k, b.v, replace(c, sq=1))
    return compare("decode == last prefill row", dec, b.exact_out[:, :, -1:], b.twice[:, :, -1:])


def wide_window(b: Base) -> Verdict | None:
    """A window at least as wide as the sequence hides nothing: no window's output."""
    if b.case.window is not None:
        return None
    wide = max(b.case.sq, b.case.sk)
    windowed = b.run(b.q, b.k, b.v, replace(b.case, window=(wide, wide)))
    return compare("a window as wide as the sequence", windowed, b.exact_out, b.twice)


RELATIONS: dict[str, Callable[[Base], Verdict | None]] = {
    f.__name__: f
    for f in (
        repeat,
        layout_independence,
        start_independence,
        linear_in_v,
        scale_and_keys_negated,
        convex_hull,
        key_permutation,
        invisible_keys,
        batch_alone,
        head_alone,
        gqa_as_mha,
        decode_as_last_row,
        wide_window,
    )
}


def finite_output(b: Base) -> Verdict:
    """Finite inputs give a finite output (each row a weighted mean of V's
    rows, or zeros): a NaN or an infinity of the base run, named with the
    oracle's value there (an infinity near the dtype's range an overflow, as
    the oracle property calls it)."""
    bad = ~torch.isfinite(b.out)
    if not bool(bad.any()):
        return Verdict("finite output", 0.0, 0.0, 0.0, (), 0.0, 0.0)
    where = torch.nonzero(bad)
    there = bad.to(b.parts["out"].device)
    v = compare("finite output", b.out[bad], b.parts["out"][there], b.bounds["out"][there],
                dtype=b.out.dtype)
    return replace(v, index=tuple(int(i) for i in where[v.index[0]]))


def attention_metamorphic(
    impl: Implementation, case: AttentionCase, built: Built | None = None
) -> list[Verdict]:
    """Every relation of ``RELATIONS`` that applies to the case, once the base
    run is finite: a relation with a NaN on both sides says only "got nan,
    want nan", and the NaN is the finding."""
    built = built or build(case, backend.device())
    out = run_clean(impl, case, built.inputs)["out"]
    parts, bounds = attention_oracle(case, built, impl.support.logits)
    base = Base(impl, case, built, out, parts, bounds)
    finite = finite_output(base)
    if not finite.ok:
        return [finite]
    return [v for relation in RELATIONS.values() if (v := _related(relation, base)) is not None]
