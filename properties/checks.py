"""Checks: run an implementation on a case and judge the result.

Every check returns a list of ``Verdict``s (see ``reference.compare``); a
case passes when every verdict's error/bound ratio is at most 1.  Checks that
compare against the oracle use ``reference``'s derived bounds; metamorphic
relations compare two runs of the implementation, either bitwise (bound 0)
or within the sum of both runs' bounds around the same exact value.

Memory safety is checked on every run, because the interpreter does not
detect out-of-bounds accesses: inputs sit in NaN-filled buffers (an
out-of-bounds read poisons the output), the output is NaN-poisoned before the
launch (an unwritten element stays NaN) and lies in a NaN buffer whose guard
region must still be NaN afterwards (an out-of-bounds write shows up), and
input buffers must be bit-for-bit unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import torch

from properties import backend
from properties.cases import AttentionCase, Built, Case, MatmulCase, SoftmaxCase, build
from properties.implementations import Implementation
from properties.layouts import Layout, materialize
from properties.values import GRID
from reference import (
    Verdict,
    attention_bounds,
    attention_parts,
    compare,
    matmul_bound,
    softmax_bound,
)
from reference import matmul as oracle_matmul
from reference import softmax as oracle_softmax
from reference.oracle import causal_visible


@dataclass
class Run:
    results: dict[str, torch.Tensor]
    safety: list[Verdict]


def _flag(check: str, bad: torch.Tensor, got: torch.Tensor | None = None) -> Verdict:
    """A verdict for an all-or-nothing condition: ratio inf at the first bad element."""
    if not bool(bad.any()):
        return Verdict(check, 0.0, 0.0, 0.0, (), 0.0, 0.0)
    flat = int(torch.nonzero(bad.flatten())[0])
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), bad.shape))
    value = float(got.flatten()[flat]) if got is not None else math.nan
    return Verdict(check, math.inf, math.inf, 0.0, index, value, math.nan)


def _same_bits(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Element-wise 'identical', NaN equal to NaN."""
    return (a == b) | (torch.isnan(a) & torch.isnan(b))


def out_shape(case: Case) -> tuple[int, ...]:
    if isinstance(case, AttentionCase):
        return (case.batch, case.hq, case.sq, case.dv)
    if isinstance(case, MatmulCase):
        return (*case.batch, case.m, case.n)
    return case.shape


# How far (in multiples of the output's size) a stray store may land and still
# be caught on the interpreter.  A store through a tile padded past a dim of n
# elements misses the output by fewer than ``tile`` strides of that dim, and
# that stride is at most size / n: with tiles of up to 64 along a dim of one
# element (a 64-row tile over Sq = 1), the miss stays within 64 sizes.
STORE_REACH = 64
# The widest margin, in elements (1 MB of fp32 a side; about a millisecond of
# filling and checking per run).  Outputs of up to 4096 elements get the full
# reach, and the outputs that tiles overshoot the furthest (a dim of one
# element) are small ones.
MAX_MARGIN = 1 << 18


def store_margin(count: int) -> int:
    """NaN elements on each side of an output of ``count`` elements, beyond its layout's own.

    On the interpreter an out-of-bounds store writes process memory: past the
    layout's small guard it corrupts the heap and kills the worker instead of
    failing the check.  There the output gets ``STORE_REACH`` times its size
    on each side (at most ``MAX_MARGIN``), in whole 64-element steps so that
    the base keeps its alignment.  Compiled kernels get none: a wild store
    there faults or is found by compute-sanitizer.
    """
    if not backend.interpreting():
        return 0
    return -(-min(STORE_REACH * count, MAX_MARGIN) // 64) * 64


def execute(impl: Implementation, case: Case, built: Built | None = None) -> Run:
    """Run ``impl`` on ``case`` with a poisoned, guarded output; check memory safety."""
    built = built or build(case, backend.device())
    device = next(iter(built.inputs.values())).device
    shape = out_shape(case)
    drawn = getattr(case, "out_layout", Layout())
    margin = store_margin(math.prod(shape))
    layout = replace(drawn, front=drawn.front + margin, guard=drawn.guard + margin)
    poisoned = torch.full(shape, math.nan, dtype=case.torch_dtype, device=device)
    placed = materialize(poisoned, layout)
    covered = materialize(torch.ones(shape), drawn, fill=0.0).buffer.to(device) != 0
    before = {r: b.clone() for r, b in built.buffers.items()}

    out = placed.tensor if impl.writes_out else None
    if isinstance(case, AttentionCase):
        q, k, v = (built.inputs[r] for r in ("q", "k", "v"))
        results = impl.run(q, k, v, out, **case.kwargs())
    elif isinstance(case, MatmulCase):
        results = impl.run(
            built.inputs["a"], built.inputs["b"], out,
            scale=case.scale, input_precision=case.input_precision,
        )  # fmt: skip
    else:
        results = impl.run(
            built.inputs["x"], out, scale=case.scale, causal=case.causal, alignment=case.alignment
        )

    if results["out"].shape != shape:
        raise AssertionError(f"{impl.name} returned shape {tuple(results['out'].shape)}, "
                             f"expected {shape}")  # fmt: skip
    safety = []
    if impl.writes_out:
        if results["out"].data_ptr() != placed.tensor.data_ptr():
            raise AssertionError(f"{impl.name} did not return the out tensor it was given")
        buf = placed.buffer
        inner = buf[margin : buf.numel() - margin]  # the buffer of the drawn layout
        guard = torch.cat([buf[:margin], inner[~covered], buf[buf.numel() - margin :]])
        safety.append(_flag("guard region written (out-of-bounds store)", ~torch.isnan(guard)))
    for role, buf in built.buffers.items():
        changed = ~_same_bits(before[role], buf)
        safety.append(_flag(f"input {role} modified", changed, buf))
    return Run(results, safety)


# --- agreement with the oracle -------------------------------------------------------------


def attention_oracle(case: AttentionCase, built: Built) -> tuple[dict, dict]:
    q, k, v = (built.exact[r] for r in ("q", "k", "v"))
    scale = case.effective_scale
    parts = attention_parts(q, k, v, causal=case.causal, scale=scale, alignment=case.alignment)
    bounds = attention_bounds(
        built.inputs["q"], built.inputs["k"], built.inputs["v"], parts,
        scale=scale, input_precision=case.input_precision,
    )  # fmt: skip
    return parts, bounds


def against_oracle(impl: Implementation, case: Case, built: Built | None = None) -> list[Verdict]:
    """Output (and probs / lse where the implementation exposes them) within bound."""
    built = built or build(case, backend.device())
    run = execute(impl, case, built)
    verdicts = list(run.safety)
    dtype = case.torch_dtype
    if isinstance(case, AttentionCase):
        parts, bounds = attention_oracle(case, built)
        for name in ("out", "probs", "lse"):
            if name in run.results:
                # probs and lse are fp32 whatever the inputs' dtype.
                kind = dtype if name == "out" else torch.float32
                verdicts.append(
                    compare(name, run.results[name], parts[name], bounds[name], dtype=kind)
                )
    elif isinstance(case, MatmulCase):
        a, b = built.exact["a"], built.exact["b"]
        if case.transpose_b:
            b = b.transpose(-1, -2)
        want = oracle_matmul(a, b, scale=case.scale)
        bound = matmul_bound(
            a, b, want, scale=case.scale, out_dtype=dtype, input_precision=case.input_precision
        )
        verdicts.append(compare("out", run.results["out"], want, bound, dtype=dtype))
    else:
        x = built.exact["x"]
        want = oracle_softmax(x, scale=case.scale, causal=case.causal, alignment=case.alignment)
        visible = _softmax_visible(case)
        bound = softmax_bound(x, want, visible, scale=case.scale, out_dtype=dtype)
        verdicts.append(compare("out", run.results["out"], want, bound, dtype=dtype))
    return verdicts


def _softmax_visible(case: SoftmaxCase) -> torch.Tensor:
    m, n = case.shape[-2:]
    if case.causal:
        return causal_visible(m, n, case.alignment).expand(case.shape)
    return torch.ones(case.shape, dtype=torch.bool)


# --- softmax invariants ----------------------------------------------------------------------


def softmax_invariants(
    impl: Implementation, case: SoftmaxCase, built: Built | None = None
) -> list[Verdict]:
    """Row sums, range, exact zeros where masked, order, finiteness."""
    built = built or build(case, backend.device())
    run = execute(impl, case, built)
    p = run.results["out"].double().cpu()
    x = built.exact["x"]
    visible = _softmax_visible(case)
    want = oracle_softmax(x, scale=case.scale, causal=case.causal, alignment=case.alignment)
    bound = softmax_bound(x, want, visible, scale=case.scale, out_dtype=case.torch_dtype)
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
    verdicts.append(_flag("probability outside [0, 1]", ~((p >= 0) & (p <= 1)), p))
    verdicts.append(_flag("masked entry not exactly 0", (~visible) & (p != 0), p))
    verdicts.append(_flag("non-finite probability", ~torch.isfinite(p), p))
    # Order: a larger logit never gets a smaller probability (visible pairs).
    if p.shape[-1] <= 512:
        logits = case.scale * x
        larger = (logits.unsqueeze(-1) > logits.unsqueeze(-2)) & (
            visible.unsqueeze(-1) & visible.unsqueeze(-2)
        )
        smaller_p = p.unsqueeze(-1) < p.unsqueeze(-2)
        verdicts.append(_flag("order not preserved", larger & smaller_p))
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
    x = built.inputs["x"]
    _, limit = GRID[case.torch_dtype]
    gen = torch.Generator().manual_seed(case.values.seed)
    shifts = torch.randint(-int(limit), int(limit) + 1, case.shape[:-1], generator=gen).double()
    exact_shifted = x.double().cpu() + shifts.unsqueeze(-1)
    shifted = exact_shifted.to(case.torch_dtype).to(x.device)
    if not torch.equal(shifted.double().cpu(), exact_shifted):
        raise ValueError("shift invariance: x + c is not exact in the dtype")
    run = execute(impl, case, built)
    sbuilt = Built({"x": shifted}, {"x": exact_shifted}, {"x": shifted})
    srun = execute(impl, case, sbuilt)
    visible = _softmax_visible(case)
    total = 0
    for b in (built, sbuilt):
        want = oracle_softmax(
            b.exact["x"], scale=case.scale, causal=case.causal, alignment=case.alignment
        )
        total = total + softmax_bound(
            b.exact["x"], want, visible, scale=case.scale, out_dtype=case.torch_dtype
        )
    got = srun.results["out"]
    return [
        *run.safety,
        *srun.safety,
        compare("shift invariance", got, run.results["out"].double().cpu(), total),
    ]


# --- metamorphic relations for attention --------------------------------------------------


def _attn(impl: Implementation, case: AttentionCase, q, k, v) -> dict[str, torch.Tensor]:
    inputs = {"q": q, "k": k, "v": v}
    run = execute(impl, case, Built(inputs, {}, {r: t for r, t in inputs.items()}))
    bad = [vd for vd in run.safety if not vd.ok]
    if bad:
        raise AssertionError("; ".join(vd.describe() for vd in bad))
    return run.results


def _bitwise(check: str, got: torch.Tensor, want: torch.Tensor) -> Verdict:
    return _flag(check, ~_same_bits(got.cpu(), want.cpu()), got.cpu())


def attention_metamorphic(
    impl: Implementation, case: AttentionCase, built: Built | None = None
) -> list[Verdict]:
    """Relations between runs that need no oracle values (bounds come from the oracle)."""
    dev = backend.device()
    built = built or build(case, dev)
    q, k, v = (built.inputs[r] for r in ("q", "k", "v"))
    base = _attn(impl, case, q, k, v)["out"]
    parts, bounds = attention_oracle(case, built)
    twice = 2 * bounds["out"]
    verdicts = [_bitwise("two runs bitwise equal", _attn(impl, case, q, k, v)["out"], base)]

    # Same logical values, contiguous storage: bitwise the same output.
    flat = replace(case, q_layout=Layout(), k_layout=Layout(), v_layout=Layout())
    verdicts.append(
        _bitwise("layout independence", _attn(impl, flat, q.contiguous(), k.contiguous(),
                                               v.contiguous())["out"], base)  # fmt: skip
    )

    # Scaling V by 2 commutes with every rounding, except where a result is in
    # the subnormal range (fixed spacing there) or would overflow.
    if case.values.family not in ("near_max", "subnormal"):
        scaled = _attn(impl, case, q, k, (v * 2).contiguous())["out"]
        normal = base.abs() >= 2 * torch.finfo(base.dtype).tiny
        verdicts.append(_bitwise("linearity in V (x2)", scaled[normal], (base * 2)[normal]))

    # Negating both the scale and the keys leaves every logit bitwise the same
    # (IEEE rounding is sign-symmetric), so the output must be too; a kernel
    # whose running max mishandles a negative scale computes other bits.
    mirrored = replace(case, scale=-case.effective_scale, k_layout=Layout())
    flipped = _attn(impl, mirrored, q, (-k).contiguous(), v)["out"]
    verdicts.append(_bitwise("scale and keys negated", flipped, base))

    # Convex hull: each output coordinate lies between the visible values' min and max.
    vis = parts["visible"]
    vrep = built.exact["v"].repeat_interleave(case.group, dim=1).unsqueeze(2)
    inf = torch.tensor(math.inf, dtype=torch.float64)
    hi = torch.where(vis.unsqueeze(-1), vrep, -inf).amax(dim=3)
    lo = torch.where(vis.unsqueeze(-1), vrep, inf).amin(dim=3)
    sees = vis.any(-1, keepdim=True)
    hi, lo = torch.where(sees, hi, 0.0), torch.where(sees, lo, 0.0)
    o = base.double().cpu()
    excess = torch.clamp(o - hi, min=0) + torch.clamp(lo - o, min=0)
    excess = torch.nan_to_num(excess, nan=math.inf)
    verdicts.append(compare("convex hull of visible values", excess, 0 * excess,
                            bounds["out"]))  # fmt: skip

    # Permuting keys and values together leaves a non-causal output unchanged.
    if not case.causal and case.sk > 1:
        gen = torch.Generator().manual_seed(case.values.seed)
        perm = torch.randperm(case.sk, generator=gen).to(dev)
        permuted = _attn(impl, case, q, k[:, :, perm], v[:, :, perm])["out"]
        verdicts.append(compare("key permutation", permuted, o, twice))

    # Changing keys a causal row cannot see leaves that row bitwise unchanged.
    # Alter the keys the first query cannot see; every row that sees none of
    # them must be bitwise unchanged.
    row_vis = vis[0, 0]  # (Sq, Sk): the same for every batch and head
    if case.causal and case.sq and bool((~row_vis[0]).any()):
        blind = torch.nonzero(~row_vis[0]).flatten().to(dev)
        k2, v2 = k.clone(), v.clone()
        k2[:, :, blind] = 3.0
        v2[:, :, blind] = -7.0
        altered = _attn(impl, case, q, k2, v2)["out"]
        rows = (~row_vis[:, ~row_vis[0]]).all(dim=1).to(dev)
        verdicts.append(
            _bitwise("invisible keys do not matter", altered[:, :, rows], base[:, :, rows])
        )

    # One batch / one head computed alone equals that slice of the full run.
    if case.batch > 1:
        alone = _attn(impl, replace(case, batch=1), q[-1:], k[-1:], v[-1:])["out"]
        verdicts.append(compare("batch alone", alone, o[-1:], twice[-1:]))
    if case.hq > 1:
        h = case.hq - 1
        kv = h // case.group
        single = replace(case, hq=1, hkv=1)
        alone = _attn(impl, single, q[:, h : h + 1], k[:, kv : kv + 1], v[:, kv : kv + 1])["out"]
        verdicts.append(compare("head alone", alone, o[:, h : h + 1], twice[:, h : h + 1]))

    # GQA equals MHA with the KV heads repeated.
    if case.group > 1:
        mha = replace(case, hkv=case.hq)
        rep = _attn(
            impl, mha, q, k.repeat_interleave(case.group, 1), v.repeat_interleave(case.group, 1)
        )["out"]
        verdicts.append(compare("GQA == MHA with repeated KV", rep, o, twice))

    # Decode: the last query of a bottom-right causal prefill sees every key.
    if case.causal and case.alignment == "bottom_right" and case.sq > 1:
        last = replace(case, sq=1)
        dec = _attn(impl, last, q[:, :, -1:].contiguous(), k, v)["out"]
        verdicts.append(compare("decode == last prefill row", dec, o[:, :, -1:],
                                twice[:, :, -1:]))  # fmt: skip
    return verdicts


def implementations_agree(
    first: Implementation,
    second: Implementation,
    case: AttentionCase,
    built: Built | None = None,
) -> list[Verdict]:
    """Two attention implementations agree within the sum of their bounds."""
    built = built or build(case, backend.device())
    a = execute(first, case, built)
    b = execute(second, case, built)
    _, bounds = attention_oracle(case, built)
    return [
        *a.safety,
        *b.safety,
        compare(f"{first.name} vs {second.name}", a.results["out"],
                b.results["out"].double().cpu(), 2 * bounds["out"]),  # fmt: skip
    ]


def failures(verdicts: list[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if not v.ok]


def worst(verdicts: list[Verdict]) -> Verdict | None:
    return max(verdicts, key=lambda v: v.ratio, default=None)
