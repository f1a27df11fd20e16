"""The error bounds: loose enough for correct arithmetic, tight enough for small bugs.

Kernels are emulated here in PyTorch at the kernel's precisions, so the bound
is tested on its own: a faithful float32 emulation must pass, and emulations
with one planted numerical bug must not.
"""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from attnfuzz.reference import attention_bounds, attention_parts, compare, matmul_bound

DT = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


@st.composite
def attention_inputs(draw, dtype=None, scales=(0.3, 1.0, 3.0), dtypes=("float16", "float32")):
    dtype = dtype or draw(st.sampled_from(dtypes))
    sq, sk = draw(st.integers(1, 40)), draw(st.integers(8, 200))
    d = draw(st.sampled_from([16, 24, 64, 128]))
    gen = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    s = draw(st.sampled_from(scales))
    q, k, v = (
        (torch.randn(1, 1, n, d, generator=gen) * s).to(DT[dtype]) for n in (sq, sk, sk)
    )
    return q, k, v, draw(st.booleans())


def emulate(q, k, v, causal, *, acc=torch.float32, drop_key=None, rescale=1.0, logits="fp32"):
    """The naive kernel's arithmetic in PyTorch: fp32 logits and softmax, P rounded to
    V's dtype, P V accumulated in ``acc``, output rounded to q's dtype.  ``logits``:
    "eager" rounds q k^T to q's dtype, then its product with the scale (eager
    attention's tensor ops); "scaled_inputs" scales q and k by sqrt(scale) in q's
    dtype and rounds their product (SDPA's math path)."""
    scale = q.shape[-1] ** -0.5
    x = q.dtype
    if logits == "eager":
        logits = ((q.float() @ k.float().transpose(-1, -2)).to(x).float() * scale).to(x).float()
    elif logits == "scaled_inputs":
        qs, ks = ((t.float() * scale**0.5).to(x).float() for t in (q, k))
        logits = (qs @ ks.transpose(-1, -2)).to(x).float()
    else:
        logits = (q.float() @ k.float().transpose(-1, -2)) * scale
    if causal:
        sq, sk = logits.shape[-2:]
        mask = torch.ones(sq, sk, dtype=torch.bool).tril(sk - sq)
        logits = logits.masked_fill(~mask, float("-inf"))
    if drop_key is not None:
        logits[..., drop_key] = float("-inf")
    m = logits.amax(-1, keepdim=True).nan_to_num(neginf=0.0).clamp_min(-3e38)
    e = torch.exp(logits - m)
    p = e / e.sum(-1, keepdim=True).clamp_min(1e-38) * rescale
    p = p.to(v.dtype)
    if acc == torch.float32:
        out = p.float() @ v.float()
    else:  # sequential accumulation in a narrow type
        # Each product and each partial sum rounded to ``acc``, spelled out in
        # fp32 so no library kernel can keep a wider intermediate.
        out = torch.zeros(*p.shape[:-1], v.shape[-1], dtype=torch.float32)
        for j in range(p.shape[-1]):
            term = (p[..., j : j + 1].float() * v[..., j : j + 1, :].float()).to(acc).float()
            out = (out + term).to(acc).float()
    return out.to(q.dtype)


def ratio(q, k, v, causal, got, logits_dtype="fp32"):
    parts = attention_parts(q, k, v, causal=causal)
    bounds = attention_bounds(q, k, v, parts, scale=q.shape[-1] ** -0.5,
                              logits_dtype=logits_dtype)
    return compare("out", got, parts["out"], bounds["out"], dtype=q.dtype).ratio


@given(attention_inputs())
def test_faithful_float32_emulation_is_within_bound(t):
    q, k, v, causal = t
    assert ratio(q, k, v, causal, emulate(q, k, v, causal)) <= 1


@given(attention_inputs(dtypes=("float16", "bfloat16")),
       st.sampled_from(["eager", "scaled_inputs"]))
def test_logits_rounded_to_the_inputs_dtype_are_within_the_bound_said_rounded(t, logits):
    q, k, v, causal = t
    got = emulate(q, k, v, causal, logits=logits)
    assert ratio(q, k, v, causal, got, logits_dtype="rounded") <= 1


def test_logits_rounded_to_float16_break_the_bound_said_fp32():
    # Logits near 10 lose about 2**-11 * 10 when rounded to fp16, a relative
    # error in P a hundred times fp32's: among a few draws, one shows it.
    ratios = []
    for seed in range(6):
        gen = torch.Generator().manual_seed(seed)
        q, k, v = ((torch.randn(1, 1, n, 64, generator=gen) * 1.7).half() for n in (8, 64, 64))
        v = (v.float() + 2).half()  # outputs away from zero: a relative error shows
        got = emulate(q, k, v, False, logits="eager")
        ratios.append(ratio(q, k, v, False, got))
        assert ratio(q, k, v, False, got, logits_dtype="rounded") <= 1
    assert max(ratios) > 1, ratios


@given(attention_inputs(dtype="float32", scales=(0.3, 1.0)))
def test_fp16_accumulation_of_float32_inputs_exceeds_bound(t):
    # Moderate logits, as in the rescale test below: with logits near 30 the
    # worst-case dot term admits relative errors near fp16's own.
    q, k, v, causal = t
    v = v + 1  # same-sign terms: the narrow accumulator's rounding cannot cancel
    assert ratio(q, k, v, causal, emulate(q, k, v, causal, acc=torch.float16)) > 1


@given(st.integers(0, 2**31 - 1))
def test_fp16_accumulation_over_a_long_sequence_exceeds_bound(seed):
    # Each of 2048 small addends is rounded against a sum near 1 in fp16, a
    # drift of hundreds of ulps, while P's own rounding is worth one ulp.
    gen = torch.Generator().manual_seed(seed)
    q = torch.randn(1, 1, 1, 16, generator=gen).half()
    k = (torch.randn(1, 1, 2048, 16, generator=gen) * 0.1).half()
    v = (torch.rand(1, 1, 2048, 16, generator=gen) + 0.5).half()
    assert ratio(q, k, v, False, emulate(q, k, v, False, acc=torch.float16)) > 1


@given(attention_inputs())
def test_dropping_one_key_exceeds_bound(t):
    q, k, v, _ = t
    q, k, v = q[..., :1, :], k[..., :8, :], (v[..., :8, :].float() + 2).to(v.dtype)
    # Drop the key that carries the most weight (>= 1/8), as a loop that stops
    # one key early would when that key matters.
    heaviest = int(attention_parts(q, k, v)["probs"][0, 0, 0].argmax())
    assert ratio(q, k, v, False, emulate(q, k, v, False, drop_key=heaviest)) > 1


@given(attention_inputs(dtype="float32", scales=(0.3, 1.0)))
def test_row_rescaled_by_one_part_in_a_thousand_exceeds_bound(t):
    # With q, k of scale 3 and D = 128 the logits reach ~30 and the worst-case
    # dot-product term alone admits ~1e-3 relative error in P: a 1e-3 rescale
    # is only guaranteed to show for moderate logits, as here.
    q, k, v, causal = t
    v = v + 1  # keep outputs away from zero so a relative error shows
    assert ratio(q, k, v, causal, emulate(q, k, v, causal, rescale=1 + 1e-3)) > 1


def test_bound_does_not_collapse_when_the_exact_result_is_zero():
    # Two keys with opposite values: the exact output is 0, a correct fp32
    # kernel returns a rounding residue, and the bound must allow it.
    q = torch.randn(1, 1, 4, 16)
    k = torch.randn(1, 1, 2, 16)
    v = torch.tensor([[[[1.0] * 16, [-1.0] * 16]]])
    k[..., 1, :] = k[..., 0, :]
    parts = attention_parts(q, k, v)
    assert parts["out"].abs().max() == 0
    bounds = attention_bounds(q, k, v, parts, scale=0.25)
    assert (bounds["out"] > 0).all()
    assert ratio(q, k, v, False, torch.full((1, 1, 4, 16), 1e-7)) <= 1


@given(st.integers(1, 300), st.sampled_from(["float32", "float16"]), st.integers(0, 2**31 - 1))
def test_matmul_bound_catches_fp16_accumulation(kdim, dtype, seed):
    gen = torch.Generator().manual_seed(seed)
    a = torch.rand(4, kdim, generator=gen).to(DT[dtype])
    b = torch.rand(kdim, 4, generator=gen).to(DT[dtype])
    want = a.double() @ b.double()
    bound = matmul_bound(a, b, want, scale=1.0, out_dtype=a.dtype)
    right = (a.float() @ b.float()).to(a.dtype)
    assert compare("out", right, want, bound, dtype=a.dtype).ok
    if kdim >= 64:  # positive terms: fp16 running sums lose the small addends
        acc = torch.zeros(4, 4, dtype=torch.float16)
        for j in range(kdim):
            acc = acc + (a[:, j : j + 1].half() * b[j : j + 1, :].half())
        assert not compare("out", acc.to(a.dtype), want, bound, dtype=a.dtype).ok


@pytest.mark.parametrize("got", [-math.inf, math.inf, math.nan])
def test_a_non_finite_answer_where_the_exact_one_is_finite_is_an_infinite_error(got):
    """Said as infinite, not as the largest float (``nan_to_num``'s default)."""
    v = compare("lse", torch.tensor([got, 0.25]), torch.tensor([0.21, 0.25], dtype=torch.float64),
                torch.tensor([4e-6, 4e-6]), dtype=torch.float32)
    assert v.index == (0,) and v.ratio == math.inf and v.error == math.inf and not v.ok


def test_a_verdict_said_of_the_call_names_no_element():
    from attnfuzz.reference import Verdict

    nan = math.nan
    call = Verdict("v with one more key than k: answered, not refused", math.inf, nan, nan, (),
                   nan, nan, "not refused")
    assert call.describe() == "v with one more key than k: answered, not refused [not refused]"
    element = compare("out", torch.tensor([1.0]), torch.tensor([0.0], dtype=torch.float64),
                      torch.tensor([0.5]))
    assert element.describe().startswith("out: error/bound = 2 at index (0,): got 1.0, want 0.0")
