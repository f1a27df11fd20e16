"""The float64 oracle on the GPU gives the CPU's values and bounds, to float64 rounding.

``ATTNFUZZ_ORACLE_DEVICE`` moves the oracle (``Built.exact``, and what the
checks compute from it) to the GPU.  ``reference`` has one set of formulas,
evaluated on whichever device holds its inputs, so the two evaluations may
differ only by float64 rounding: sums in another order (cuBLAS and CUDA's
reductions against the CPU's), and the last bits of exp and log.

The values (attention's out, lse and probs, matmul, softmax, and dq, dk, dv)
come from the checks' own functions with the oracle on each device, and must
agree within twice the float64 error bound of their computation (each device
is within it of the exact value), derived below from float64's unit roundoff
and the magnitudes each result sums; logit errors pass through the softmax
into everything after it.  The bounds are compared computed on each device
from the same oracle values (the CPU's), so that what is compared is what the
device changes: how much a bound moves with its oracle values is a property
of its formulas, the same on both devices.

The comparison itself is the GPU's (``-m gpu``); the same body runs with the
CPU on both sides everywhere, so that CI runs its code.
"""

from __future__ import annotations

import math
import os
from unittest import mock

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from attnfuzz.properties import strategies
from attnfuzz.properties.checks.gradients import gradient_oracle
from attnfuzz.properties.checks.oracle import EXPECTED, attention_oracle, softmax_visible
from attnfuzz.properties.model.cases import (
    AttentionCase,
    Case,
    MatmulCase,
    SoftmaxCase,
    build,
)
from attnfuzz.reference import attention_bounds, matmul_bound, softmax_bound
from attnfuzz.reference.bounds import EXP_ULPS, U32, gamma
from attnfuzz.reference.gradient_bounds import attention_grad_bounds
from attnfuzz.reference.gradients import attention_grads

U = 2.0**-53  # float64's unit roundoff
# exp, log, expm1 and log1p are within 1 ulp (2 u) on the GPU (CUDA's double
# functions) and the CPU (glibc, SLEEF); each is allowed 2 ulps.
FN = 4 * U
# Below float64's smallest normal number rounding is absolute, not relative:
# every value may be off by that much more.
TINY = torch.finfo(torch.float64).tiny
# The derived bounds are exact but for terms of order u**2 and the rounding of
# the tolerances' own arithmetic: twice them is room enough.
SLACK = 2.0
# The bounds, from the same values on both devices.  Their formulas take sums
# of nonnegative terms (n u relative: under 2**-40 here), exp, expm1 and log1p
# (2 ulps, times at most 1 + the argument), and two differences,
# ``exp(d)(1 + spread) - 1`` and ``(1 + ratio)(1 + normalise) - 1`` in
# ``softmax_relative``: operands near 1, so about 8 u of absolute error, and
# results at least d >= EXP_ULPS u32 = 2**-22, so 2**-28 relative on one
# device, 2**-27 between two.  2**-24 leaves 8x for the steps after them.
# (The one threshold, P against the normal range in attention_bounds' rounding
# of P, leaves the bound continuous but for fp32; rounding crosses it with a
# chance of 2**-27 relative width per element.)
BOUND_RTOL = 2.0**-24
assert 8 * U / (EXP_ULPS * U32) <= 2.0**-28

CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
PAIRS = [
    pytest.param(("cpu", "cpu"), id="cpu-cpu"),
    pytest.param(("cpu", "cuda"), id="cpu-cuda", marks=[pytest.mark.gpu, CUDA]),
]


@st.composite
def oracle_cases(draw: st.DrawFn) -> Case:
    """Cases as the campaign draws them (values from a drawn seed, through the
    case's own ``torch.Generator``): backward attention, matmul, softmax."""
    dtype = draw(st.sampled_from(("float32", "float16", "bfloat16")))
    kind = draw(st.sampled_from(("attention", "matmul", "softmax")))
    if kind == "attention":
        forward = strategies.attention_cases(dtype, window=True, long=False, wide=False)
        return draw(strategies.backward_cases(forward))
    if kind == "matmul":
        return draw(strategies.matmul_cases(dtype, transpose_b=draw(st.booleans())))
    return draw(strategies.softmax_cases(dtype, window=True))


# --- the oracle on one device ---------------------------------------------------------


def oracle_on(device: str, case: Case) -> dict:
    """The checks' oracle for ``case`` with ATTNFUZZ_ORACLE_DEVICE=device: the
    inputs' float64 copies, each result's value and bound, and for attention
    the intermediates (the forward's parts, the gradients' dp, ds, delta)."""
    with mock.patch.dict(os.environ, {"ATTNFUZZ_ORACLE_DEVICE": device}):
        built = build(case)  # the kernel's inputs on the CPU: only the oracle moves
        exact = dict(built.exact)
        if isinstance(case, AttentionCase):
            parts, bounds = attention_oracle(case, built)
            results = {n: (parts[n], bounds[n]) for n in ("out", "lse", "probs")}
            results.update(gradient_oracle(case, built))
            # What gradient_oracle computes its values and bounds from.
            grads = attention_grads(*(exact[r] for r in ("q", "k", "v", "do")),
                                    causal=case.causal, scale=case.effective_scale,
                                    alignment=case.alignment, window=case.window)
            return {"exact": exact, "parts": parts, "grads": grads, "results": results}
        want, bound, _ = EXPECTED[case.kind](case, built)["out"]
        return {"exact": exact, "results": {"out": (want, bound)}}


# --- float64 error bounds of the oracle's values, per device ---------------------------


def _row_max(x: torch.Tensor) -> torch.Tensor:
    """The max over the last dim (kept), 0 for an empty one."""
    return x.amax(-1, keepdim=True) if x.shape[-1] else x.sum(-1, keepdim=True)


def softmax_error(arg: torch.Tensor, p: torch.Tensor,
                  seen: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """For p = softmax over the ``seen`` entries, each exp's argument (logit
    minus row max) off by at most ``arg``: a bound on |p^ - p|, one above p and
    p^, and the largest argument error of each row's exps.

    With each exp's argument off by at most d_j (``arg``, and exp's own error
    as an argument error), p^_j / p_j = exp(x_j) / sum_l p_l exp(x_l),
    |x_l| <= d_l, times the row sum's and the division's rounding, so
    |log(p^_j / p_j)| <= d_j + max_l d_l + 2 (n + 1) u =: L_j,
    |p^_j - p_j| <= expm1(L_j) p_j, and p_j <= p_cpu exp(L_j) (p_cpu is itself
    a p^)."""
    n = p.shape[-1]
    d = torch.where(seen, arg + FN, 0.0)
    widest = _row_max(d)
    spread = d + widest + 2 * (n + 1) * U
    e_p = torch.where(seen, p * torch.expm1(spread) * torch.exp(spread) + TINY, 0.0)
    return e_p, p * torch.exp(2 * spread) + TINY, widest


def attention_errors(case: AttentionCase, exact: dict, parts: dict,
                     grads: dict) -> dict[str, torch.Tensor]:
    """Per device: how far each of the oracle's attention values and gradients
    may be from the exact ones."""
    q, k, v = (exact[r].abs() for r in "qkv")
    k, v = (t.repeat_interleave(case.group, dim=1) for t in (k, v))
    s, d, dv = abs(case.effective_scale), case.d, case.dv
    sq, sk = case.sq, case.sk
    t, p, seen = parts["logits"], parts["probs"], parts["visible"]
    # logits = scale * (q @ k^T): d products summed, then scaled; the row max
    # (of the computed logits) cancels, their difference is rounded once.
    e_t = gamma(d, U) * s * (q @ k.transpose(-1, -2)) + U * t.abs()
    m = _row_max(torch.where(seen, t, -math.inf))
    e_p, p_hi, widest = softmax_error(e_t + U * ((t - m).abs() + 2 * e_t), p, seen)
    # lse = m + log(sum exp(t - m)): the exps' argument errors, the sum's rounding,
    # log's own (of a sum between 1 and n), and the final addition.
    lse = parts["lse"]
    e_lse = (widest.squeeze(-1) + 2 * (sk + 1) * U + FN * math.log(max(sk, 1))
             + 2 * U * lse.abs())
    # out = p @ v: the probabilities' errors, then the sum's rounding.
    e_out = e_p @ v + gamma(sk, U) * (p_hi @ v)
    errors = {"out": e_out, "lse": e_lse, "probs": e_p}
    do = exact["do"].abs()
    g = case.group

    def group_sum(x: torch.Tensor) -> torch.Tensor:  # (B, Hq, ...) -> (B, Hkv, ...)
        return x.reshape(x.shape[0], case.hkv, g, *x.shape[2:]).sum(2)

    # dp = do @ v^T; delta = rowsum(do * out), out off by e_out; ds = p (dp - delta).
    e_dp = gamma(dv, U) * (do @ v.transpose(-1, -2))
    out_hi = parts["out"].abs() + 2 * e_out
    e_delta = ((do * e_out).sum(-1, keepdim=True)
               + gamma(dv, U) * (do * out_hi).sum(-1, keepdim=True))
    gap_hi = (grads["dp"] - grads["delta"]).abs() + 2 * (e_dp + e_delta)
    e_ds = e_p * gap_hi + p_hi * (e_dp + e_delta) + 2 * U * p_hi * gap_hi
    ds_hi = grads["ds"].abs() + 2 * e_ds
    # dq = scale (ds @ k); dk = scale (ds^T @ q) and dv = p^T @ do, each summed
    # over the group's query heads (g more terms).
    errors["dq"] = s * (e_ds @ k + (gamma(sk, U) + 2 * U) * (ds_hi @ k))
    over_rows = gamma(sq, U) + gamma(g, U)
    errors["dk"] = group_sum(s * (e_ds.transpose(-1, -2) @ q
                                  + (over_rows + 2 * U) * (ds_hi.transpose(-1, -2) @ q)))
    errors["dv"] = group_sum(e_p.transpose(-1, -2) @ do
                             + over_rows * (p_hi.transpose(-1, -2) @ do))
    return errors


def matmul_error(case: MatmulCase, exact: dict, want: torch.Tensor) -> torch.Tensor:
    """want = scale * (a @ b): k products summed, then scaled."""
    a, b = exact["a"].abs(), exact["b"].abs()
    if case.transpose_b:
        b = b.transpose(-1, -2)
    return gamma(case.k, U) * abs(case.scale) * (a @ b) + U * want.abs()


def softmax_errors(case: SoftmaxCase, exact: dict, want: torch.Tensor) -> torch.Tensor:
    """p = softmax(scale * x).  Measured from the softmax of the rounded
    arguments: scale * x and its difference from the row max are correctly
    rounded, the same bits on both devices, so the two differ from exp on
    (which keeps logits of 1e38, near_max's, from making the bound vacuous)."""
    seen = softmax_visible(case, want.device)
    return softmax_error(torch.zeros_like(want), want, seen)[0]


# --- the comparison -------------------------------------------------------------------


def assert_close(what: str, got: torch.Tensor, want: torch.Tensor, tol: torch.Tensor) -> None:
    """|got - want| <= tol element-wise; a non-finite value must be matched exactly."""
    got, want, tol = (x.detach().cpu().double() for x in (got, want, tol))
    assert got.shape == want.shape, f"{what}: shape {tuple(got.shape)} != {tuple(want.shape)}"
    same = (got == want) | (got.isnan() & want.isnan())
    finite = got.isfinite() & want.isfinite()
    excess = torch.where(finite, (got - want).abs() - torch.broadcast_to(tol, want.shape),
                         torch.where(same, 0.0, math.inf))
    if excess.numel() and bool((excess > 0).any()):
        flat = int(excess.argmax())
        at = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), want.shape))
        raise AssertionError(
            f"{what} at {at}: {got.flatten()[flat].item()!r} against "
            f"{want.flatten()[flat].item()!r}, |difference| "
            f"{(got - want).abs().flatten()[flat].item():.3g} > tolerance "
            f"{torch.broadcast_to(tol, want.shape).flatten()[flat].item():.3g}")


def bounds_from(device: str, case: Case, mine: dict, cpu: dict) -> dict[str, torch.Tensor]:
    """The bounds the checks derive, computed on ``device`` (from ``mine``'s float64
    inputs there) from the CPU oracle's values, moved there once."""
    x = mine["exact"]

    def there(t: torch.Tensor) -> torch.Tensor:
        return t.to(device)

    if isinstance(case, AttentionCase):
        q, k, v = (x[r] for r in "qkv")
        kw = dict(scale=case.effective_scale, input_precision=case.input_precision,
                  dtype=case.torch_dtype)
        parts = {n: there(t) for n, t in cpu["parts"].items()}
        forward = attention_bounds(q, k, v, parts, **kw)
        grads = {n: there(t) for n, t in cpu["grads"].items()}
        backward = attention_grad_bounds(q, k, v, x["do"], grads, forward, **kw)
        return {**{n: forward[n] for n in ("out", "lse", "probs")}, **backward}
    want = there(cpu["results"]["out"][0])
    if isinstance(case, MatmulCase):
        a, b = x["a"], x["b"]
        if case.transpose_b:
            b = b.transpose(-1, -2)
        return {"out": matmul_bound(a, b, want, scale=case.scale, out_dtype=case.torch_dtype,
                                    input_precision=case.input_precision)}
    return {"out": softmax_bound(x["x"], want, softmax_visible(case, device), scale=case.scale,
                                 out_dtype=case.torch_dtype)}


@pytest.mark.parametrize("devices", PAIRS)
@given(case=oracle_cases())
def test_the_oracle_gives_the_same_values_and_bounds_on_either_device(devices, case):
    first, second = devices
    a, b = oracle_on(first, case), oracle_on(second, case)
    for name, (value, bound) in b["results"].items():
        assert value.device.type == bound.device.type == second, f"{name} not on {second}"
    # Each device's values are within ``errors`` of the exact ones (the CPU's
    # magnitudes stand for the exact ones: the errors allow for the difference).
    if isinstance(case, AttentionCase):
        errors = attention_errors(case, a["exact"], a["parts"], a["grads"])
    elif isinstance(case, MatmulCase):
        errors = {"out": matmul_error(case, a["exact"], a["results"]["out"][0])}
    else:
        errors = {"out": softmax_errors(case, a["exact"], a["results"]["out"][0])}
    assert set(errors) == set(a["results"])
    for name, (value, _) in a["results"].items():
        # NaN: an infinite error times a zero magnitude, which bounds nothing.
        tol = (SLACK * 2 * errors[name]).nan_to_num(nan=math.inf)
        assert_close(f"{name} ({first} vs {second})", b["results"][name][0], value, tol)
    # The bounds, from the same values on both devices.
    moved = bounds_from(second, case, b, a)
    for name, (_, bound) in a["results"].items():
        assert moved[name].device.type == second
        assert_close(f"bound of {name} ({first} vs {second})", moved[name], bound,
                     BOUND_RTOL * bound.abs())


def test_a_build_that_is_only_saved_never_reads_the_oracle_device(monkeypatch):
    """A dump rebuilds its inputs on the CPU and saves them, also in a process
    whose CUDA context a kernel killed: the oracle's copies are moved (and the
    device is asked) only when the oracle reads them."""
    monkeypatch.setenv("ATTNFUZZ_ORACLE_DEVICE", "no such device")
    built = build(AttentionCase(sq=3, sk=5, backward=True))
    assert set(built.exact) == {"q", "k", "v", "do"}
    with pytest.raises(ValueError, match="ATTNFUZZ_ORACLE_DEVICE"):
        built.exact["q"]


def test_the_oracle_reads_the_inputs_as_built_each_moved_once(monkeypatch):
    monkeypatch.setenv("ATTNFUZZ_ORACLE_DEVICE", "cpu")
    built = build(AttentionCase(sq=3, sk=5))
    values = built.inputs["q"].double()
    built.inputs["q"].fill_(7.0)  # a kernel that writes into its input (an out= over it)
    assert built.exact["q"].dtype == torch.float64
    assert torch.equal(built.exact["q"], values)
    assert built.exact["q"] is built.exact["q"]
