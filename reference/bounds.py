"""Per-element error bounds: how far a *correct* kernel may be from the oracle.

No fixed atol/rtol.  Each bound follows the kernel's arithmetic step by step
with the standard model ``fl(a op b) = (a op b)(1 + e)``, ``|e| <= u``, using
the oracle's own float64 intermediates for the magnitudes involved.  The
bounds are worst-case (linear in the reduction length, not its square root)
so they hold on every backend; the planted-bug tests show they are still tight
enough to catch an fp16 accumulator, a dropped key or a mis-scaled row.

Notation: ``u32 = 2**-24`` (fp32 unit roundoff); ``u_x`` the unit roundoff of
dtype x (half its ``eps``); ``floor_x`` half the smallest subnormal spacing of
x, the absolute error of rounding a tiny value into x.

Dot products (``dot_coeff``).  ``fl(sum_k a_k b_k)`` over n terms with fp32
accumulation satisfies ``|err| <= c(n) * sum_k |a_k b_k|`` with

    c(n) = 2 n u32             each of n additions may be off by one fp32 ulp
                               (2 u32): tensor cores truncate instead of round
         + u32                 fp32 x fp32 products are rounded once
                               (fp16/bf16 products are exact in fp32)
         + 2 u_tf32            tf32 cuts both fp32 inputs to a 10-bit mantissa
                               (u_tf32 = 2**-10: truncation, not rounding)
         + n * tiny32 / sum    GPU flush-to-zero of fp32 subnormals (absolute)

Softmax (``softmax_relative``).  With logits t (exact) and row max m, the
kernel computes ``exp(t^ - m^)`` where the argument is off by ``d`` (logit
rounding, subtraction, and the exp approximation written as an equivalent
argument error: ``exp(x)(1 + e) = exp(x + log(1 + e))``).  If every visible
argument j is off by at most ``d_j``, then exactly (not to first order)

    p^_j / p_j = exp(d_j) / sum_l p_l exp(d_l)   in  [exp(-d_j)/(1 + D), exp(d_j)(1 + D)]

with ``D = sum_l p_l expm1(d_l)``, since ``sum_l p_l exp(d_l) <= 1 + D`` and,
by Jensen, ``>= exp(-sum_l p_l d_l) >= 1/(1 + D)``.  So the relative error of
``p_j`` is at most ``exp(d_j)(1 + D) - 1``.  Rounding in the row sum (n terms,
plus one rescale per chunk of an online algorithm) and the division add
``gamma`` below.  Per logit:

    d_j = 2 u32 |t_j|          scale rounded to fp32 and the product rounded
        + 2 u32 |t_j - m|      the subtraction, and the multiply by log2(e)
                               that exp/exp2 lowering performs on a GPU
        + 4 u32                exp/exp2 approximations (<= 2 ulp on sm_90)
        + logit dot error      scale * c(D) * sum_d |q_d k_d| in attention

Rounded logits (``logit_error`` with ``logits="rounded"``).  Eager
attention in fp16 or bf16 (``q @ k^T * scale`` as tensor ops; SDPA's math
path, which scales q and k by sqrt(scale) first) rounds its logits to the
inputs' dtype x before an fp32 softmax.  With q and k possibly scaled in x
first (each element off by u_x |.| + floor_x, whatever the split of the
scale between them, |s| <= max(1, |s|) for either factor), the product
formed in fp32 (the dot term above) and rounded to x, then scaled in x and
rounded again:

    |t^ - t| <= e_in + e_dot + gamma_2(u_x) (|t| + e_in + e_dot) + floor_x (1 + |s|)
    e_in      = gamma_2(u_x) |s| sum_d |q_d k_d| + floor_x max(1, |s|) sum_d (|q_d| + |k_d|)

which adds to d_j (the fp32 terms stay: the row max is subtracted in fp32).
It holds while the products stay within x's range; past it they overflow,
which is a finding, not rounding.

Attention output (``attention_bound``).  ``o = sum_k p_k v_k`` computed from
the kernel's p^ rounded to V's dtype, accumulated in fp32, rounded to the
output dtype:

    |o^ - o| <= sum_k |p^_k - p_k| |v_k|          softmax error (incl. R below)
              + sum_k r_k |v_k|                   P rounded to V's dtype
              + c(Sk) sum_k p^_k |v_k|            the P V dot
              + u_out |o| + floor_out             output rounding

with r_k = u_v p^_k while p^_k / S is a normal number of V's dtype and
S floor_v below that, S = 2**ceil(log2 Sk) being the largest pre-scaling of
the weights an implementation may apply to keep its running sum finite (bf16
and fp32 only; S = 1 for fp16, whose range a pre-scale would exhaust).
R covers flash/split-K algorithms that rescale the accumulator once per key
block: at most ceil(Sk / 16) rescales (no block is narrower than 16), each an
exp and a multiply, 6 u32 apiece, counted in the row sum's gamma.
"""

from __future__ import annotations

import math

import torch

U32 = 2.0**-24
# tf32 keeps 10 mantissa bits; the tensor cores may truncate rather than round
# the fp32 operands, so the per-operand relative error is up to 2**-10.
U_TF32 = 2.0**-10
TINY32 = torch.finfo(torch.float32).tiny
MIN_BLOCK = 16  # narrowest key block any implementation uses (tl.dot minimum)
EXP_ULPS = 4.0


def unit_roundoff(dtype: torch.dtype) -> float:
    return torch.finfo(dtype).eps / 2


def rounding_floor(dtype: torch.dtype) -> float:
    """Absolute error of rounding a value below the normal range into ``dtype``."""
    info = torch.finfo(dtype)
    return info.tiny * info.eps / 2


def gamma(n: int | float, u: float) -> float:
    """Higham's gamma_n = n u / (1 - n u): accumulated error of n roundings."""
    nu = n * u
    return math.inf if nu >= 1 else nu / (1 - nu)


def dot_coeff(n: int, dtype: torch.dtype, input_precision: str = "ieee") -> float:
    """c(n) of the module docstring, for a dot of n terms with inputs of ``dtype``."""
    c = gamma(2 * n, U32)
    if dtype == torch.float32:
        c += U32
        if input_precision == "tf32":
            c += 2 * U_TF32
    return c


def dot_error(
    a_abs: torch.Tensor, b_abs: torch.Tensor, dtype: torch.dtype, input_precision: str = "ieee"
) -> torch.Tensor:
    """Bound on |fl(a @ b) - a @ b| given |a| (.., M, n) and |b| (.., n, N) in float64."""
    n = a_abs.shape[-1]
    return dot_coeff(n, dtype, input_precision) * (a_abs @ b_abs) + n * TINY32


def logit_argument_error(logits: torch.Tensor, row_max: torch.Tensor) -> torch.Tensor:
    """d_j of the module docstring without the dot term: rounding of t, t - m, exp."""
    return U32 * (2 * logits.abs() + 2 * (logits - row_max).abs() + EXP_ULPS)


LOGITS = ("fp32", "rounded")


def logit_error(logits: torch.Tensor, row_max: torch.Tensor, qa: torch.Tensor,
                ka: torch.Tensor, *, scale: float, dtype: torch.dtype, input_precision: str,
                logits_dtype: str = "fp32") -> torch.Tensor:
    """d_j of the module docstring for every logit, from |q| (.., Sq, D) and
    |k| (.., Sk, D) (k's heads repeated to q's) in float64: logits kept in
    fp32 (``logits_dtype`` "fp32") or rounded to ``dtype`` ("rounded")."""
    if logits_dtype not in LOGITS:
        raise ValueError(f"logits_dtype must be one of {LOGITS}, got {logits_dtype!r}")
    dot = abs(scale) * dot_error(qa, ka.transpose(-1, -2), dtype, input_precision)
    arg = logit_argument_error(logits, row_max) + dot
    if logits_dtype == "fp32" or dtype == torch.float32:
        return arg
    g2, floor = gamma(2, unit_roundoff(dtype)), rounding_floor(dtype)
    sums = qa.sum(-1).unsqueeze(-1) + ka.sum(-1).unsqueeze(-2)
    e_in = g2 * abs(scale) * (qa @ ka.transpose(-1, -2)) + floor * max(1.0, abs(scale)) * sums
    return arg + e_in + g2 * (logits.abs() + e_in + dot) + floor * (1 + abs(scale))


def softmax_relative(
    probs: torch.Tensor, arg_err: torch.Tensor, visible: torch.Tensor, n_terms: int
) -> torch.Tensor:
    """Relative error bound of each p^_j (before any output rounding).

    ``arg_err`` bounds the argument error d_j of each visible entry; masked
    entries are exactly zero in a correct kernel and get bound 0.
    """
    d = torch.where(visible, arg_err, torch.zeros_like(arg_err))
    # 0 * inf must be 0 here: a key of probability 0 adds nothing, however
    # uncertain its logit (huge logits make expm1(d) overflow).
    spread = _times(probs, torch.expm1(d)).sum(dim=-1, keepdim=True)
    ratio = torch.exp(d) * (1 + spread) - 1
    rescales = math.ceil(n_terms / MIN_BLOCK)
    normalise = gamma(2 * n_terms + (EXP_ULPS + 2) * rescales + 2, U32)
    return torch.where(visible, (1 + ratio) * (1 + normalise) - 1, torch.zeros_like(ratio))


def _times(p: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """p * x with 0 * inf = 0 (p >= 0)."""
    return torch.where(p > 0, p * x, torch.zeros_like(x))


def _magnitudes(t: torch.Tensor, device: torch.device) -> torch.Tensor:
    """|t| in float64 on ``device`` (one copy where t is elsewhere)."""
    return t.to(device, torch.float64).abs()


def _visible_max(logits: torch.Tensor, visible: torch.Tensor) -> torch.Tensor:
    masked = logits.masked_fill(~visible, -math.inf)
    row_max = masked.amax(dim=-1, keepdim=True) if logits.shape[-1] else masked.sum(-1, True)
    return torch.where(torch.isinf(row_max), torch.zeros_like(row_max), row_max)


def matmul_bound(
    a: torch.Tensor,
    b: torch.Tensor,
    ref: torch.Tensor,
    *,
    scale: float,
    out_dtype: torch.dtype,
    input_precision: str = "ieee",
) -> torch.Tensor:
    """Bound for ``round_out(fl32(scale) * fl(a @ b))`` against the exact ``scale * a @ b``.

    a and b hold the kernel's input values (any dtype); ``out_dtype`` is the
    kernel's dtype, which is also its input dtype.
    """
    inner = abs(scale) * dot_error(a.double().abs(), b.double().abs(), out_dtype, input_precision)
    inner = inner + 2 * U32 * ref.abs()  # scale rounded to fp32, times the fp32 sum
    u_out = unit_roundoff(out_dtype) if out_dtype != torch.float32 else U32
    return (1 + u_out) * inner + u_out * ref.abs() + rounding_floor(out_dtype)


def softmax_bound(
    x: torch.Tensor,
    probs: torch.Tensor,
    visible: torch.Tensor,
    *,
    scale: float,
    out_dtype: torch.dtype,
) -> torch.Tensor:
    """Bound for the softmax kernel's output against the oracle's ``probs``."""
    logits = scale * x.double()
    row_max = _visible_max(logits, visible)
    rel = softmax_relative(probs, logit_argument_error(logits, row_max), visible, x.shape[-1])
    u_out = unit_roundoff(out_dtype)
    bound = torch.clamp(_times(probs, rel), max=1.0)  # both p and p^ lie in [0, 1]
    floors = TINY32 + rounding_floor(out_dtype)  # exp flushed to 0, tiny p rounded
    return torch.where(visible, (1 + u_out) * bound + u_out * probs + floors, 0 * bound)


def attention_bounds(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    parts: dict[str, torch.Tensor],
    *,
    scale: float,
    input_precision: str = "ieee",
    dtype: torch.dtype | None = None,
    logits_dtype: str = "fp32",
) -> dict[str, torch.Tensor]:
    """Bounds for out (B, Hq, Sq, Dv), probs (fp32, before rounding to V's dtype) and lse.

    ``parts`` are the oracle's intermediates (``reference.oracle.attention_parts``);
    the bounds are computed on their device.  q, k, v are the kernel's inputs,
    or their float64 copies with the kernel's ``dtype`` given.  ``logits_dtype``:
    the logits kept in "fp32", or "rounded" to the dtype (``logit_error``).
    """
    dtype = q.dtype if dtype is None else dtype
    group = q.shape[1] // k.shape[1]
    qa, ka, va = (_magnitudes(t, parts["logits"].device) for t in (q, k, v))
    ka, va = (t.repeat_interleave(group, dim=1) for t in (ka, va))
    sk = k.shape[2]
    logits, probs, visible = parts["logits"], parts["probs"], parts["visible"]

    row_max = _visible_max(logits, visible)
    arg_err = logit_error(logits, row_max, qa, ka, scale=scale, dtype=dtype,
                          input_precision=input_precision, logits_dtype=logits_dtype)
    rel = softmax_relative(probs, arg_err, visible, sk)
    # With bf16/fp32 values (fp32's exponent range) an implementation may
    # pre-scale the weights by 1/S, S = 2**ceil(log2 Sk), so its unnormalised
    # sum cannot overflow; weights that then fall below the normal range lose
    # S times the usual floor once normalised.  fp16 values cannot overflow an
    # fp32 sum, and pre-scaled fp16 weights would lose real precision: S = 1.
    pre = 2.0 ** math.ceil(math.log2(max(sk, 1))) if dtype != torch.float16 else 1.0
    p_err = torch.clamp(_times(probs, rel), max=1.0) + pre * TINY32 * visible

    # Rounding P to V's dtype: relative u_v while P / S is a normal number,
    # else an absolute floor (times S, as above).
    u_v = unit_roundoff(dtype) if dtype != torch.float32 else 0.0
    p_hat = probs + p_err
    normal = p_hat >= pre * torch.finfo(dtype).tiny
    round_p = torch.where(normal, u_v * p_hat, pre * rounding_floor(dtype) * visible)
    pv_coeff = dot_coeff(sk, dtype, input_precision)
    p_hat_v = p_hat @ va
    out = parts["out"]
    u_out = unit_roundoff(dtype) if dtype != torch.float32 else U32
    inner = p_err @ va + round_p @ va + pv_coeff * p_hat_v + sk * TINY32
    out_bound = (1 + u_out) * inner + u_out * out.abs() + rounding_floor(dtype)

    # lse = m + log(sum exp(t - m)): |d lse| <= log1p(sum_l p_l expm1(d_l)) (see
    # softmax_relative) plus the row sum's rounding, plus rounding of lse itself.
    d = torch.where(visible, arg_err, torch.zeros_like(arg_err))
    spread = _times(probs, torch.expm1(d)).sum(dim=-1)
    normalise = gamma(2 * sk + (EXP_ULPS + 2) * math.ceil(sk / MIN_BLOCK) + 2, U32)
    lse = parts["lse"]
    lse_bound = torch.log1p(spread) + normalise + 2 * U32 * lse.abs().nan_to_num(posinf=0.0)
    return {"out": out_bound, "probs": p_err + U32 * probs, "lse": lse_bound}


def softmax_grad_bound(
    probs: torch.Tensor, probs_err: torch.Tensor, dy: torch.Tensor, dx: torch.Tensor, *,
    scale: float, out_dtype: torch.dtype,
) -> torch.Tensor:
    """Bound for a softmax backward's dx against the oracle's ``dx``.

    The backward forms dx = scale * y^ * (dy - t^), t^ = rowsum(y^ * dy), from
    probabilities y^ within ``probs_err`` of the oracle's y (the forward's
    output it saved, or any within the forward's bound), in fp32, and rounds
    dx to ``out_dtype``.  With e the error of y^ and t = rowsum(y * dy):

        |t^ - t|   <= E_t = sum_j e_j |dy_j| + gamma_{N+1} sum_j (y_j + e_j) |dy_j|
                     (the products, each rounded once, summed in fp32 in any order)
        |z - dx|   <= A = |scale| (e |dy - t| + (y + e) E_t),
                     z = scale y^ (dy - t^) in exact arithmetic
        fp32 z^    within gamma_3 |z| of z (a difference and two products)
        rounded    within u_out |z^| plus the subnormal floor

    so |dx^ - dx| <= A + (gamma_3 + u_out (1 + gamma_3)) (|dx| + A) + floor.  A
    masked entry (y = e = 0, dx = 0) has the floor alone: its dx must be 0.
    """
    y, e, dy, dx = (t.double() for t in (probs, probs_err, dy, dx))
    n = probs.shape[-1]
    g_sum, g3, u_out = gamma(n + 1, U32), gamma(3, U32), unit_roundoff(out_dtype)
    t = (y * dy).sum(-1, keepdim=True)
    e_t = (e * dy.abs()).sum(-1, keepdim=True) + g_sum * ((y + e) * dy.abs()).sum(-1, keepdim=True)
    a = abs(scale) * (e * (dy - t).abs() + (y + e) * e_t)
    return a + (g3 + u_out * (1 + g3)) * (dx.abs() + a) + rounding_floor(out_dtype)
