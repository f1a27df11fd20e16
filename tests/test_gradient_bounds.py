"""The oracle's gradients and their bounds, tested without the kernels.

The gradients must be autograd's of the forward oracle.  The bounds must hold
for a faithful emulation of each backward's arithmetic in PyTorch (fused:
P from the LSE and delta from the rounded output; three-kernel: P from the
softmax and delta from P and dP), and must fail emulations with one planted
bug each.
"""

from __future__ import annotations

import math

import torch
from hypothesis import given
from hypothesis import strategies as st

from attnfuzz.reference import attention, attention_bounds, attention_parts, compare, visible
from attnfuzz.reference.bounds import gamma
from attnfuzz.reference.gradient_bounds import attention_grad_bounds
from attnfuzz.reference.gradients import attention_grads

DT = {"float32": torch.float32, "float16": torch.float16}
U64 = 2.0**-53


@st.composite
def backward_inputs(draw, dtype=None, spreads=(0.1, 1.0, 5.0)):
    dtype = DT[dtype or draw(st.sampled_from(sorted(DT)))]
    hkv, group = draw(st.sampled_from([1, 2])), draw(st.sampled_from([1, 2, 3]))
    sq, sk = draw(st.integers(1, 40)), draw(st.integers(1, 70))
    d, dv = draw(st.sampled_from([16, 40, 64])), draw(st.sampled_from([16, 24, 64]))
    gen = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    s = draw(st.sampled_from(spreads))
    q = (torch.randn(1, hkv * group, sq, d, generator=gen) * s).to(dtype)
    k = (torch.randn(1, hkv, sk, d, generator=gen) * s).to(dtype)
    v = torch.randn(1, hkv, sk, dv, generator=gen).to(dtype)
    do = torch.randn(1, hkv * group, sq, dv, generator=gen).to(dtype)
    causal = draw(st.booleans())
    alignment = draw(st.sampled_from(["bottom_right", "top_left"]))
    scale = d**-0.5 * draw(st.sampled_from([1.0, -1.0]))
    return q, k, v, do, dict(causal=causal, scale=scale, alignment=alignment)


def emulate(q, k, v, do, *, causal, scale, alignment, fused=True, expanded=False, bug=None):
    """A backward's arithmetic in PyTorch: fp32 everywhere, P and dS rounded to
    the inputs' dtype before their dots, gradients rounded at the end; with
    ``expanded``, each query head's dK and dV rounded before a KV head sums its
    group's (FlashAttention-2's expanded dK, dV)."""
    dt, group, hkv = q.dtype, q.shape[1] // k.shape[1], k.shape[1]
    kr, vr = (t.repeat_interleave(group, 1).float() for t in (k, v))
    s = scale * (q.float() @ kr.transpose(-1, -2))
    if causal:
        s = s.masked_fill(~visible(q.shape[2], k.shape[2], alignment), -math.inf)
    m = s.amax(-1, keepdim=True).nan_to_num(neginf=0.0)
    e = torch.exp(s - m)
    total = e.sum(-1, keepdim=True)
    p = torch.where(total > 0, e / total, torch.zeros_like(e))
    out = (p.to(dt).float() @ vr).to(dt)
    if fused:  # P again, from the LSE (natural log), as a fused backward recomputes it
        lse = (m + torch.log(total)).masked_fill(total == 0, -math.inf)
        base = 2.0 if bug == "lse base" else math.e
        if bug == "lse half":  # the saved statistic in the inputs' dtype
            lse = lse.to(dt).float()
        p = torch.where(total > 0, torch.pow(base, s - lse), torch.zeros_like(s))
    dof = do.float()
    dv = p.to(dt).float().transpose(-1, -2) @ dof
    if bug == "dv half accumulator":  # rounded to the inputs' dtype after each 16 rows
        pt, acc = p.to(dt).float().transpose(-1, -2), torch.zeros_like(dv)
        for i in range(0, pt.shape[-1], 16):
            acc = (acc + pt[..., i:i + 16] @ dof[..., i:i + 16, :]).to(dt).float()
        dv = acc
    dp = dof @ vr.transpose(-1, -2)
    if bug == "dp half":  # a 16-bit intermediate where the arithmetic keeps fp32
        dp = dp.to(dt).float()
    delta = (dof * out.float()).sum(-1, keepdim=True) if fused else (p * dp).sum(-1, True)
    if bug == "no delta":
        delta = torch.zeros_like(delta)
    if bug == "ds difference half":
        ds = (p * (dp.to(dt) - delta.to(dt)).float()).to(dt).float()
    elif bug == "p half in ds":
        ds = (p.to(dt).float() * (dp - delta)).to(dt).float()
    else:
        ds = (p * (dp - delta)).to(dt).float()
    dq = scale * (ds @ kr)
    dk = (1.0 if bug == "dk unscaled" else scale) * (ds.transpose(-1, -2) @ q.float())

    def fold(g):
        if expanded:
            g = g.to(dt).float()
        g = g.reshape(g.shape[0], hkv, group, *g.shape[2:])
        return g[:, :, 0] if bug == "no group sum" else g.sum(2)

    return {"dq": dq.to(dt), "dk": fold(dk).to(dt), "dv": fold(dv).to(dt), "out": out}


def ratios(q, k, v, do, kw, got, delta_from=None, group_sum=None):
    """Each gradient's error over its bound; ``delta_from``, ``group_sum``: the
    arithmetic said (the output the backward saw is ``got["out"]``)."""
    grads = attention_grads(q, k, v, do, **kw)
    forward = attention_bounds(q, k, v, attention_parts(q, k, v, **kw), scale=kw["scale"])
    bounds = attention_grad_bounds(q, k, v, do, grads, forward, scale=kw["scale"],
                                   delta_from=delta_from, group_sum=group_sum,
                                   out=got["out"])
    return {n: compare(n, got[n], grads[n], bounds[n], dtype=q.dtype).ratio
            for n in ("dq", "dk", "dv")}


@given(backward_inputs(), st.booleans(), st.booleans(), st.booleans())
def test_faithful_backwards_are_within_the_bounds(inputs, fused, expanded, said):
    """With its arithmetic said (``delta_from``, ``group_sum``) or not."""
    q, k, v, do, kw = inputs
    delta_from = ("output" if fused else "probs") if said else None
    group_sum = ("rounded" if expanded else "fp32") if said else None
    got = emulate(q, k, v, do, fused=fused, expanded=expanded, **kw)
    worst = ratios(q, k, v, do, kw, got, delta_from, group_sum)
    assert max(worst.values()) <= 1.0, worst


# A KV head's dK and dV summed from its query heads' rounded ones round G + 1
# times where an in-kernel sum rounds once: said "fp32", the bound has no room
# for that.  Of six 16-bit draws with a group and a softmax that has a
# gradient, one must fail.
def _grouped(inputs) -> bool:
    q, k, _, _, kw = inputs
    return q.shape[1] > k.shape[1] and _keys_seen(q, k, kw) >= 2


@given(st.lists(backward_inputs(dtype="float16", spreads=(0.1, 1.0)).filter(_grouped),
                min_size=6, max_size=6))
def test_rounded_per_head_group_sums_break_the_bounds_said_fp32(draws):
    seen = []
    for q, k, v, do, kw in draws:
        worst = ratios(q, k, v, do, kw, emulate(q, k, v, do, expanded=True, **kw),
                       group_sum="fp32")
        seen.append(max(worst["dk"], worst["dv"]))
    assert max(seen) > 1.0, seen


# A 16-bit intermediate on dS's way (dP rounded, or P in dS, or dP - delta
# taken in 16 bits) adds errors of the size of dS's own rounding: a bound of
# u |dS| per term has room for them, one that takes dS's rounding as it is
# (signed, from dS or, fused, from the output the backward saw) has not.
# Of six draws whose softmax has a gradient, one must fail.  (Of 694 such
# draws, 673 failed with the arithmetic said, none without; of 558 fp16 draws
# of a faithful backward, dQ passed half its bound in 324 said, 1 unsaid.)
@given(st.lists(st.tuples(backward_inputs(dtype="float16", spreads=(0.1, 1.0)), st.booleans()),
                min_size=6, max_size=6),
       st.sampled_from(["dp half", "p half in ds", "ds difference half"]))
def test_a_half_precision_step_to_ds_breaks_the_bounds_of_a_said_arithmetic(draws, bug):
    seen = []
    for (q, k, v, do, kw), fused in draws:
        if _keys_seen(q, k, kw) < 2:
            continue  # a row that sees one key has p = 1 and dS = 0, bug or not
        got = emulate(q, k, v, do, fused=fused, bug=bug, **kw)
        seen.append(ratios(q, k, v, do, kw, got, "output" if fused else "probs"))
    if seen:
        assert max(max(w["dq"], w["dk"]) for w in seen) > 1.0, seen


def _keys_seen(q, k, kw) -> int:
    """The most keys any query row sees."""
    if not kw["causal"]:
        return k.shape[2]
    return int(visible(q.shape[2], k.shape[2], kw["alignment"]).sum(-1).max())


# Planted bugs act through dS = P (dP - delta).  With q and k spread by 5,
# logits reach the hundreds, a row's softmax saturates (weights of 1e-9 next
# to 1), dS and the gradients it feeds shrink to the size of their own
# rounding slack, and a bug that scales them (dk unscaled) stays inside the
# bounds: 2 draws in 6000 did.  Power is claimed where the softmax has a
# gradient; soundness (the test above) is checked at every spread.
@given(backward_inputs(spreads=(0.1, 1.0)),
       st.sampled_from(["no delta", "dk unscaled", "lse base"]))
def test_planted_bugs_break_the_bounds(inputs, bug):
    q, k, v, do, kw = inputs
    if _keys_seen(q, k, kw) < 2:
        return  # a row that sees one key has p = 1 and dS = 0, bug or not
    worst = ratios(q, k, v, do, kw, emulate(q, k, v, do, bug=bug, **kw))
    assert max(worst.values()) > 1.0, worst


@given(backward_inputs(dtype="float32"))
def test_a_missing_group_sum_breaks_the_bounds(inputs):
    q, k, v, do, kw = inputs
    if q.shape[1] == k.shape[1] or not _keys_seen(q, k, kw):
        return  # no group to sum over, or nothing to sum
    worst = ratios(q, k, v, do, kw, emulate(q, k, v, do, bug="no group sum", **kw))
    assert max(worst["dk"], worst["dv"]) > 1.0, worst


@given(backward_inputs(dtype="float32"))
def test_oracle_gradients_are_autograds(inputs):
    """attention_grads against torch.autograd through the forward oracle, both
    in float64: each differs from the exact gradient by at most gamma(n) times
    its sum of |terms| (n: the longest chain of roundings, well under 4
    (Sq + Sk + D + Dv) operations), which ``mags`` bounds from above, and the
    softmax's sensitivity to a logit's rounding, relative u64 |logit|."""
    q, k, v, do, kw = inputs
    leaves = [t.double().requires_grad_() for t in (q, k, v)]
    auto = torch.autograd.grad(attention(*leaves, **kw), leaves, do.double())
    grads = attention_grads(q, k, v, do, **kw)
    n = 4 * (q.shape[2] + k.shape[2] + q.shape[3] + v.shape[3])
    group = q.shape[1] // k.shape[1]
    qa, ka, va, doa = (t.double().abs() for t in (q, k, v, do))
    ka, va = ka.repeat_interleave(group, 1), va.repeat_interleave(group, 1)
    p = grads["probs"]
    dp_mag = doa @ va.transpose(-1, -2) + (doa * grads["out"].abs()).sum(-1, keepdim=True)
    ds_mag = p * dp_mag
    mags = {
        "dq": abs(kw["scale"]) * ds_mag @ ka,
        "dk": abs(kw["scale"]) * ds_mag.transpose(-1, -2) @ qa,
        "dv": p.transpose(-1, -2) @ doa,
    }
    for (name, want), got in zip(mags.items(), auto, strict=True):
        mag = want if name == "dq" else want.reshape(got.shape[0], got.shape[1], group,
                                                      *got.shape[2:]).sum(2)
        # 2 gamma(n): both computations round, each within gamma(n) of exact
        # (softmax's exp and log: a few ulps each, inside the 4x of n).
        logit = float(grads["logits"].abs().max()) if grads["logits"].numel() else 0.0
        bound = 2 * gamma(n, U64) * (1 + mag) * (1 + abs(kw["scale"])) * (1 + logit)
        verdict = compare(name, got, grads[name], bound)
        assert verdict.ok, verdict.describe()


def test_bounds_that_overflow_are_infinite_not_nan():
    """Logits of millions (fp16 values near 1e3, D = 160, scale 1) put the
    bound's terms past float64's range; a NaN bound (0 * inf) failed a right
    kernel where an infinite one holds (found as a decode case, Sq = 1, Sk = 129)."""
    gen = torch.Generator().manual_seed(0)
    q, k, v, do = (torch.randn(1, 1, n, 160, generator=gen).mul(1e3).to(torch.float16)
                   for n in (1, 129, 129, 1))
    kw = dict(causal=False, scale=1.0, alignment="bottom_right")
    grads = attention_grads(q, k, v, do, **kw)
    forward = attention_bounds(q, k, v, attention_parts(q, k, v, **kw), scale=1.0)
    bounds = attention_grad_bounds(q, k, v, do, grads, forward, scale=1.0)
    assert not any(b.isnan().any() for b in bounds.values())
    assert any(b.isinf().any() for b in bounds.values())  # the overflow this is about




# A 16-bit intermediate whose error is of the size of the roundings the
# arithmetic makes anyway: dV accumulated in the inputs' dtype, rounded after
# every 16 query rows, is off by a few roundings of |dV| where a right kernel
# rounds once.  A bound of u p per term of P's rounding and u |dV| for the
# final one has room for that; taking both roundings as they are (signed,
# from the exact P and dV) has not.
# Each draw has more than one block of rows over two or more keys (one block
# rounds once, as a right kernel does).  A draw whose rows round alike either
# way can pass: of six, one must fail; of such draws the old bound failed one
# in fifty, this one nine in ten.  (Six draws of which any could be skipped
# left a seed with one draw to go on, and it passed.)
def _rounds_more_than_once(inputs) -> bool:
    q, k, _, _, kw = inputs
    return q.shape[2] > 16 and _keys_seen(q, k, kw) >= 2


@given(st.lists(st.tuples(backward_inputs(dtype="float16", spreads=(0.1, 1.0))
                          .filter(_rounds_more_than_once), st.booleans()),
                min_size=6, max_size=6))
def test_a_half_precision_dv_accumulator_breaks_the_bounds(draws):
    seen = []
    for (q, k, v, do, kw), fused in draws:
        got = emulate(q, k, v, do, fused=fused, bug="dv half accumulator", **kw)
        seen.append(ratios(q, k, v, do, kw, got)["dv"])
    assert max(seen) > 1.0, seen
