"""Per-element error bounds for dQ, dK, dV: how far a *correct* backward may be.

The derivation follows the backward's arithmetic step by step, as
``bounds`` does for the forward, with the same model and notation (``u_x``
the unit roundoff of dtype x, ``c(n)`` the dot coefficient, magnitudes from
the oracle's float64 intermediates).  Two arithmetics are covered, and each
step takes the larger of their errors, so one bound holds for both:

- fused (FlashAttention-2): P recomputed from the forward's LSE,
  ``p^ = exp(s^ - lse^)``, and ``delta = rowsum(dO * O^)`` from the forward's
  rounded output O^;
- three-kernel: P^ the forward softmax's fp32 output, and
  ``delta = rowsum(P^ * dP^)``.

Steps (per query head; a KV head's dK, dV sum its group's heads):

    e_p   |p^ - p|:  fused  p (exp(d) - 1) + tiny32, d the argument error of
          the forward's logits (``bounds``) + the forward's LSE bound + the
          rounding of lse * log2(e) (2 u32 |lse|); three-kernel: the forward's
          probs bound.  Masked entries are exactly 0 in a correct kernel.
    r     P^ rounded to the input dtype for the dV dot: u p^ + floor.
    dV    sum_i P~ dO:  (e_p + r)^T |dO| + c(G Sq) (p^ + r)^T |dO|  (G the group);
          in 16 bits, P~'s error is taken signed from the rounding at P itself
          (``kv_rounded``), not as u |p^| term by term
    e_dP  dO V^T:       c(Dv) |dO| |V|^T
    e_d   delta:  fused  |dO| . bound(O) + c32(Dv) |dO| . (|O| + bound(O));
          three-kernel  sum_j (e_p |dP| + p^ e_dP) + c32(Sk) sum_j p^ (|dP| + e_dP)
    e_dS  p^ (dP^ - delta^) in fp32, then rounded to the input dtype:
          e_p |dP - delta| + p^ (e_dP + e_d) + 3 u32 p^ |dP^ - delta^|
          + u |dS^| + floor'  (floor' = floor max(1, 1/|scale|): the scale may
          be applied before or after the rounding)
    dQ    scale dS~ K:  |scale| (e_dS |K| + c(Sk) |dS~| |K| + 2 u32 |dS~| |K|)
    dK    scale dS~^T Q: the same over G Sq terms

A KV head's dK and dV sum its group's query heads in one of two ways, and
unsaid (``group_sum``) the larger bound is taken: in fp32 inside the kernel
(the sums above, rounded once), or each query head's rounded to the input
dtype and then summed in fp32 (FlashAttention-2's expanded dK, dV): each
head's within its own bound b_h of its exact value, their sum within
sum_h b_h + (G - 1) u32 sum_h (|g_h| + b_h) of the group's, and rounded again.

Each gradient is rounded to the input dtype: in fp32 ``(1 + u_out) inner
+ u_out |g| + floor``; in 16 bits exactly, from the interval of what rounding
a value within inner of g can give (``_rounded``).  Dots also carry n
tiny32 for flushed fp32 subnormals.

In 16 bits, dQ's and dK's bound above takes dS~'s rounding at u |dS^| term
by term: the fused delta sums dO * O^, and O^ may sit anywhere within the
forward's bound, so dS^ is only known to u-level.  A backward that says how
it forms delta (``delta_from``) gets dS's rounding exactly, as P's for dV:

- "probs" (three-kernel): delta = rowsum(P^ dP^) is fp32 arithmetic about
  the exact delta, so dS^ is within fp32-level e_dS' of the exact dS;
- "output" (fused): delta^ sums dO * O^, O^ the output the kernel returned
  (given as ``out``; each product of two 16-bit values is exact in fp32),
  so dS^ is within fp32-level e_dS' of dS' = p (dP - delta'), delta' =
  rowsum(dO * O^) in float64; dQ' = scale dS' K is exact float64 too, and
  |dQ - dQ'| is added.

Then sum_j fl(dS^)_ij K_j = sum_j (dS_c + r + t)_ij K_j, dS_c the centre
(dS or dS'), r = fl(dS_c) - dS_c summed signed and exactly, |t| <= the jump
a value within e_dS' of dS_c can make (``_interval``): dQ about its centre
is |scale| (|r K| + jump |K| + c(Sk) |dS~| |K|), likewise dK over G Sq
terms.  The scale may be applied before the rounding instead (fl(scale
dS^)), or dS^ not rounded at all (an fp32 dS): each gives its own bound,
and the largest is taken.
"""

from __future__ import annotations

import torch

from attnfuzz.reference.bounds import (
    TINY32,
    U32,
    _magnitudes,
    _times,
    _visible_max,
    dot_coeff,
    dot_error,
    logit_error,
    rounding_floor,
    unit_roundoff,
)
from attnfuzz.reference.gradients import _group_sum

U64 = 2.0**-53  # float64's unit roundoff: the oracle's own arithmetic


def _rounded(inner: torch.Tensor, exact: torch.Tensor, dtype: torch.dtype,
             chain: int) -> torch.Tensor:
    """A gradient's bound once its fp32 value is rounded to ``dtype``.

    fp32: the standard model, ``(1 + u32) inner + u32 |g| + floor``.  A 16-bit
    result is ``fl(g^)``, g^ the fp32 value within ``inner`` of the exact g, and
    rounding to nearest is monotone: fl(g - inner) <= fl(g^) <= fl(g + inner),
    so ``|fl(g^) - g| <= max |fl(g +- inner) - g|`` (``_interval``), which the
    oracle evaluates exactly.  Where inner is far below an ulp of g that is
    |fl(g) - g|, the rounding the kernel cannot avoid, not the u |g| it may
    reach at worst.

    Such a bound can be met with equality, so the oracle's own float64 error
    counts: g is float64 arithmetic over at most ``chain`` roundings in a row,
    each within u64 of the magnitudes it rounds, and every magnitude the
    oracle rounds over appears in ``inner`` with a coefficient of at least
    u32 (each step of the kernel rounds in fp32 at least once).  So the
    oracle's g is within ``own = chain u64 / u32 * inner`` of the exact one:
    the kernel's g^ is within inner + own of it, and the bound, taken from
    there and widened by own, is one from the exact g, which relations that
    add two bounds need.  (The fp32 model's u32 |g| dwarfs own.)

    Where the derivation overflows float64 (logits of 1e6 make e_p about
    e^400), a dot of an infinite term with an exact zero gives NaN: the bound
    there is unbounded, so infinite."""
    if dtype == torch.float32:
        bound = (1 + U32) * inner + U32 * exact.abs() + rounding_floor(dtype)
    else:
        inner = inner.nan_to_num(nan=torch.inf, posinf=torch.inf)
        own = chain * (U64 / U32) * inner
        bound = _interval(exact, inner + own, dtype)[2] + own
    return bound.nan_to_num(nan=torch.inf, posinf=torch.inf)


def _fl(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """x rounded to ``dtype`` (to nearest; torch's conversion), back in float64."""
    return x.to(dtype).to(x.dtype)


def _interval(x: torch.Tensor, e: torch.Tensor, dtype: torch.dtype
              ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """What rounding to ``dtype`` a value within ``e`` of x can give.

    A kernel rounds an fp32 y with |y - x| <= e to nearest; rounding is
    monotone, so fl(y) lies in [fl(x - e), fl(x + e)].  Returns (r, jump,
    reach): r = fl(x) - x, the rounding error at x itself (signed, exact);
    jump = max |fl(x +- e) - fl(x)|, how far fl(y) may be from fl(x) (0
    unless a rounding boundary lies within e of x); reach = max |fl(x +- e) - x|,
    how far fl(y) may be from x.  So fl(y) - x = r + t with |t| <= jump: the
    error y carried before the rounding is inside r + t, not added to it.
    (torch may round float64 through float32 first; that is monotone too, and
    on an fp32 y it is y's own rounding, so the interval holds either way.)"""
    fx, lo, hi = _fl(x, dtype), _fl(x - e, dtype), _fl(x + e, dtype)
    jump = torch.maximum((hi - fx).abs(), (lo - fx).abs())
    reach = torch.maximum((hi - x).abs(), (lo - x).abs())
    # e = 0 (an entry a mask zeroes) has no interval to cross: 0, not 0 * inf.
    return fx - x, torch.where(e > 0, jump, torch.zeros_like(jump)), reach


def _rounded_dot(a: torch.Tensor, a_err: torch.Tensor, b: torch.Tensor, b_abs: torch.Tensor,
                 dtype: torch.dtype, hkv: int | None = None) -> torch.Tensor:
    """The error (fl(a^) - a) @ b carries, a^ within ``a_err`` of a and rounded
    to ``dtype`` (``_interval``): the rounding at a, signed and summed exactly,
    plus the jumps a^ may make past a rounding boundary; or, for an arithmetic
    that does not round a^, the error it carried in.  With ``hkv``, a^T @ b
    summed over each KV head's group (dK, dV) instead of a @ b (dQ)."""
    def dot(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x @ y if hkv is None else _group_sum(x.transpose(-1, -2) @ y, hkv)

    rnd, jump, _ = _interval(a, a_err, dtype)
    return torch.maximum(dot(rnd, b).abs() + dot(jump, b_abs), dot(a_err, b_abs))


def _ds_rounded(
    centre: torch.Tensor, e_pre: torch.Tensor, b: torch.Tensor, b_abs: torch.Tensor,
    scale: float, dtype: torch.dtype, input_precision: str, visible: torch.Tensor,
    floor_s: float, hkv: int | None = None,
) -> torch.Tensor:
    """dQ's bound (dS K; ``b`` = K per query head) or, with ``hkv``, dK's
    (dS^T Q summed over each KV head's group; ``b`` = Q) about its value at
    dS = ``centre`` (0 where masked) when the kernel's fp32 dS^ (within
    ``e_pre`` of it, 0 where masked) is rounded to ``dtype`` before the dots,
    with the scale applied after them or before the rounding (see the module
    docstring); ``b`` signed float64, ``b_abs`` its magnitudes."""
    s = abs(scale)
    before = s * e_pre + U32 * s * (centre.abs() + e_pre)  # fl(scale * dS^)'s error before rounding
    err = torch.maximum(s * _rounded_dot(centre, e_pre, b, b_abs, dtype, hkv),
                        _rounded_dot(scale * centre, before, b, b_abs, dtype, hkv))
    # The dots' own rounding (and the scale's, in fp32) over |dS~| <= (1 + u)
    # (|dS_c| + e_pre) + floor', and flushed subnormals.
    mag = torch.where(visible, (1 + unit_roundoff(dtype)) * (centre.abs() + e_pre) + floor_s,
                      torch.zeros_like(centre))
    if hkv is None:
        n = centre.shape[-1]
        return err + s * ((dot_coeff(n, dtype, input_precision) + 2 * U32) * (mag @ b_abs)
                          + n * TINY32 + floor_s * b_abs.sum(-2, keepdim=True))
    n = centre.shape[-2] * (b.shape[1] // max(hkv, 1))
    return err + s * (_group_sum((dot_coeff(n, dtype, input_precision) + 2 * U32)
                                 * (mag.transpose(-1, -2) @ b_abs)
                                 + floor_s * b_abs.sum(-2, keepdim=True), hkv) + n * TINY32)


def _scaled(u: float, t: torch.Tensor) -> torch.Tensor:
    """u * t with a unit roundoff of 0 (fp32 kept as is) giving 0 even where t is inf."""
    return u * t if u else torch.zeros_like(t)


# How a backward forms delta = rowsum(dO O), and how it sums dK and dV over
# a GQA group: the bounds know each (``attention_grad_bounds``).
DELTA_FROM = ("output", "probs")
GROUP_SUMS = ("fp32", "rounded")


def attention_grad_bounds(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    do: torch.Tensor,
    grads: dict[str, torch.Tensor],
    forward: dict[str, torch.Tensor],
    *,
    scale: float,
    input_precision: str = "ieee",
    dtype: torch.dtype | None = None,
    delta_from: str | None = None,
    out: torch.Tensor | None = None,
    group_sum: str | None = None,
    logits_dtype: str = "fp32",
) -> dict[str, torch.Tensor]:
    """Bounds for dq, dk, dv.

    ``grads`` are the oracle's (``reference.gradients.attention_grads``, which
    include the forward's parts), ``forward`` the forward's bounds
    (``bounds.attention_bounds``) for the same inputs; the bounds are computed
    on their device.  q, k, v, do are the kernel's inputs, or their float64
    copies with the kernel's ``dtype`` given.  ``delta_from``: how the
    backward forms delta, "probs" or "output" (then ``out``, the output the
    kernel returned, (B, Hq, Sq, Dv)); None: either, from any output within
    the forward's bound (see the module docstring).  ``group_sum``: how dK
    and dV sum a KV head's group of query heads, "fp32" (in the kernel, the
    partial sums unrounded) or "rounded" (each query head's rounded to the
    dtype, then summed in fp32 and rounded); None: either.  ``logits_dtype``:
    the forward's logits kept in fp32 or "rounded" to the dtype
    (``bounds.logit_error``); ``forward`` must be bounded the same way.
    """
    if delta_from not in (None, *DELTA_FROM):
        raise ValueError(f"delta_from must be None or one of {DELTA_FROM}, got {delta_from!r}")
    if group_sum not in (None, *GROUP_SUMS):
        raise ValueError(f"group_sum must be None or one of {GROUP_SUMS}, got {group_sum!r}")
    if delta_from == "output" and out is None:
        raise ValueError("delta_from='output' needs out, the output the kernel returned")
    dtype = q.dtype if dtype is None else dtype
    hkv = k.shape[1]
    group = q.shape[1] // max(hkv, 1)
    sq, sk, dv_dim = q.shape[2], k.shape[2], v.shape[3]
    qa, ka, va, doa = (_magnitudes(t, grads["probs"].device) for t in (q, k, v, do))
    ka, va = (t.repeat_interleave(group, dim=1) for t in (ka, va))
    p, visible, logits = grads["probs"], grads["visible"], grads["logits"]
    zero = torch.zeros_like(p)

    # e_p: P recomputed from the LSE (fused), or the forward softmax's own P.
    lse = grads["lse"].nan_to_num(posinf=0.0, neginf=0.0).unsqueeze(-1)
    arg = logit_error(logits, _visible_max(logits, visible), qa, ka, scale=scale, dtype=dtype,
                      input_precision=input_precision, logits_dtype=logits_dtype)
    arg = arg + forward["lse"].unsqueeze(-1) + 2 * U32 * lse.abs()
    recomputed = _times(p, torch.expm1(torch.where(visible, arg, zero))) + TINY32
    e_p = torch.where(visible, torch.maximum(recomputed, forward["probs"]), zero)
    p_hat = p + e_p

    u = unit_roundoff(dtype) if dtype != torch.float32 else 0.0
    floor = rounding_floor(dtype) if dtype != torch.float32 else 0.0
    r = torch.where(visible, _scaled(u, p_hat) + floor, zero)

    q64, do64 = (t.to(p.device, torch.float64) for t in (q, do))
    e_dp = dot_error(doa, va.transpose(-1, -2), dtype, input_precision)
    dp_abs = grads["dp"].abs()
    three_delta = (e_p * dp_abs + p_hat * e_dp).sum(-1, keepdim=True) + dot_coeff(
        sk, torch.float32
    ) * (p_hat * (dp_abs + e_dp)).sum(-1, keepdim=True) + sk * TINY32
    floor_s = 0.0 if scale == 0 else floor * max(1.0, 1 / abs(scale))
    s = abs(scale)

    said_ds = bool(u) and delta_from is not None
    if said_ds:
        k64 = k.to(p.device, torch.float64).repeat_interleave(group, dim=1)
        if delta_from == "probs":
            delta_c, e_centre = grads["delta"], three_delta
            centre, dq_c = grads["ds"], grads["dq"]
        else:
            o_hat = out.to(p.device, torch.float64)
            delta_c = (do64 * o_hat).sum(-1, keepdim=True)
            centre = torch.where(visible, p * (grads["dp"] - delta_c), zero)
            e_centre = dot_coeff(dv_dim, torch.float32) * (
                doa * o_hat.abs()).sum(-1, keepdim=True) + dv_dim * TINY32
            dq_c = scale * (centre @ k64)
        gap_c = (grads["dp"] - delta_c).abs()
        e_pre = e_p * gap_c + p_hat * (e_dp + e_centre) + 3 * U32 * p_hat * (
            gap_c + e_dp + e_centre)
        e_pre = torch.where(visible, e_pre, zero)
        dq_inner = _ds_rounded(centre, e_pre, k64, ka, scale, dtype, input_precision, visible,
                               floor_s) + (dq_c - grads["dq"]).abs()
    else:
        out_err = forward["out"]
        fused_delta = (doa * out_err).sum(-1, keepdim=True) + dot_coeff(
            dv_dim, torch.float32) * (doa * (grads["out"].abs() + out_err)).sum(
            -1, keepdim=True) + dv_dim * TINY32
        e_delta = torch.maximum(fused_delta, three_delta)
        gap = (grads["dp"] - grads["delta"]).abs()
        e_ds = e_p * gap + p_hat * (e_dp + e_delta) + 3 * U32 * p_hat * (gap + e_dp + e_delta)
        ds_mag = grads["ds"].abs() + e_ds
        e_ds = torch.where(visible, e_ds + _scaled(u, ds_mag) + floor_s, zero)
        ds_mag = torch.where(visible, grads["ds"].abs() + e_ds, zero)
        # dS^ carries the fused delta's error, u-level (delta sums dO * O^, O^
        # in the inputs' dtype, anywhere within the forward's bound): no exact
        # value of dS^ to round here, so dS's rounding stays u |dS^| at worst.
        dq_inner = s * (
            e_ds @ ka
            + (dot_coeff(sk, dtype, input_precision) + 2 * U32) * (ds_mag @ ka)
            + sk * TINY32
        )

    def exact_kv(heads: int) -> tuple[torch.Tensor, torch.Tensor]:
        """The exact dK and dV, summed over each of ``heads`` heads' query heads."""
        if heads == hkv:
            return grads["dk"], grads["dv"]
        return (_group_sum(scale * (grads["ds"].transpose(-1, -2) @ q64), heads),
                _group_sum(p.transpose(-1, -2) @ do64, heads))

    def kv_inners(heads: int) -> tuple[torch.Tensor, torch.Tensor]:
        """dK's and dV's bounds before their final rounding, summed over each of
        ``heads`` heads' query heads (``hkv``: a KV head's group, in fp32;
        ``Hq``: each query head's own)."""
        n = q.shape[1] // max(heads, 1) * sq

        def kv_dot(a_err: torch.Tensor, a_mag: torch.Tensor, b_abs: torch.Tensor
                   ) -> torch.Tensor:
            """Bound of sum over (group, Sq) of a^T b, before the final rounding."""
            per_head = a_err.transpose(-1, -2) @ b_abs
            mags = a_mag.transpose(-1, -2) @ b_abs
            return (_group_sum(per_head + dot_coeff(n, dtype, input_precision) * mags, heads)
                    + n * TINY32)

        if u:
            # P~ = fl(p^): its error, rounding included, is what _rounded_dot bounds
            # (p^ + r still bounds |P~| in the dot's own rounding term).
            dv_inner = (_rounded_dot(p, e_p, do64, doa, dtype, heads)
                        + kv_dot(zero, p_hat + r, doa))
        else:
            dv_inner = kv_dot(e_p + r, p_hat + r, doa)
        if said_ds:
            dk_exact = exact_kv(heads)[0]
            dk_c = dk_exact if delta_from == "probs" else _group_sum(
                scale * (centre.transpose(-1, -2) @ q64), heads)
            dk_inner = _ds_rounded(centre, e_pre, q64, qa, scale, dtype, input_precision,
                                   visible, floor_s, heads) + (dk_c - dk_exact).abs()
        else:
            dk_scaling = 2 * U32 * _group_sum(ds_mag.transpose(-1, -2) @ qa, heads)
            dk_inner = s * (kv_dot(e_ds, ds_mag, qa) + dk_scaling)
        return dk_inner, dv_inner

    # The oracle's longest chain of float64 roundings: the softmax (exp, the
    # row sum over Sk, division), dP over Dv, delta over Dv or Sk, then a
    # gradient's dot over Sk or G Sq terms; 16 for the steps in between.
    chain = 3 * sk + 2 * dv_dim + group * sq + 16
    dk_inner, dv_inner = kv_inners(hkv)
    bounds = {
        "dq": _rounded(dq_inner, grads["dq"], dtype, chain),
        "dk": _rounded(dk_inner, grads["dk"], dtype, chain),
        "dv": _rounded(dv_inner, grads["dv"], dtype, chain),
    }
    if group > 1 and group_sum != "fp32":
        # Each query head's dK and dV rounded to the dtype, then the group's
        # summed in fp32 and rounded again (FlashAttention-2's expanded dK, dV):
        # a head's within its own bound of its exact value, the fp32 sum of G
        # of them within (G - 1) u32 of their magnitudes.
        hq = q.shape[1]
        dk_heads, dv_heads = kv_inners(hq)
        for name, inner, each in zip(("dk", "dv"), (dk_heads, dv_heads), exact_kv(hq),
                                     strict=True):
            part = _rounded(inner, each, dtype, chain - (group - 1) * sq)
            summed = (_group_sum(part, hkv) + (group - 1) * (
                U32 * _group_sum(each.abs() + part, hkv) + TINY32))
            rounded = _rounded(summed, grads[name], dtype, chain)
            bounds[name] = rounded if group_sum == "rounded" else torch.maximum(
                bounds[name], rounded)
    return bounds
