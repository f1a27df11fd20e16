"""Value families: the numbers that go into a case's tensors.

A ``Values`` spec names a family, a magnitude and an integer seed; tensors are
made from it deterministically with a private ``torch.Generator`` (never the
global RNG), then rounded to the kernel's dtype, so the oracle sees exactly
the numbers the kernel sees.

Families (``role`` is "q", "k", "v", "a", "b", "x" or "do", an upstream gradient):

- ``normal``      N(0, scale^2).  Small scale gives near-uniform attention,
                  large scale a saturated softmax.
- ``uniform``     U(-scale, scale).
- ``large``       logits of hundreds to thousands: a softmax without max
                  subtraction overflows ``exp`` (fp32 overflows past 88.7).
- ``ties``        q/k rows drawn from a pool of two, so logits tie exactly.
- ``spike``       normal, plus a few entries of +-30 scale (one-hot spikes).
- ``near_max``    v (or b, or x) near the dtype's largest finite value; the
                  other operands small enough that a correct result is finite.
- ``subnormal``   magnitudes in the dtype's subnormal range.
- ``grid``        multiples of 2**-g small enough that adding an integer
                  shift of up to ``GRID_SHIFT[dtype]`` is exact in the dtype
                  (for the softmax shift-invariance relation).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

FAMILIES = ("normal", "uniform", "large", "ties", "spike", "near_max", "subnormal")
# (grid step exponent g, largest |x| and |shift|): |x + shift| * 2**g stays
# below 2**(mantissa bits), so x + shift is exact.
GRID = {torch.float32: (6, 1024.0), torch.float16: (4, 60.0), torch.bfloat16: (3, 14.0)}


@dataclass(frozen=True)
class Values:
    family: str = "normal"
    scale: float = 1.0
    seed: int = 0
    limit: float | None = None  # largest |value|: the family is scaled down to fit

    def describe(self) -> str:
        within = f"<={self.limit:g}" if self.limit is not None else ""
        return f"{self.family}x{self.scale:g}{within}"


_ROLE_SALT = {"q": 1, "k": 2, "v": 3, "a": 4, "b": 5, "x": 6, "do": 7}


def generate(
    shape: tuple[int, ...], dtype: torch.dtype, spec: Values, role: str
) -> torch.Tensor:
    """Deterministic float64 values of ``shape`` for ``role``, already representable in dtype."""
    gen = torch.Generator().manual_seed(spec.seed * 8 + _ROLE_SALT[role])
    fam, s = spec.family, spec.scale
    info = torch.finfo(dtype)
    if fam == "normal":
        x = torch.randn(shape, generator=gen, dtype=torch.float64) * s
    elif fam == "uniform":
        x = (torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1) * s
    elif fam == "large":
        # q.k of order 30 * 30 * sqrt(D) / sqrt(D): logits in the hundreds to
        # thousands after the default D**-0.5 scale.
        mag = 30.0 * max(s, 1.0) if role in ("q", "k", "x") else s
        x = torch.randn(shape, generator=gen, dtype=torch.float64) * mag
    elif fam == "ties":
        x = torch.randn(shape, generator=gen, dtype=torch.float64) * s
        if role in ("q", "k") and len(shape) >= 2 and shape[-2] > 0:
            pool = torch.randn((*shape[:-2], 2, shape[-1]), generator=gen, dtype=torch.float64)
            pick = torch.randint(0, 2, (shape[-2],), generator=gen)
            x = pool[..., pick, :] * s
    elif fam == "spike":
        x = torch.randn(shape, generator=gen, dtype=torch.float64) * s
        flat = x.view(-1)
        if flat.numel():
            n = max(1, flat.numel() // 64)
            idx = torch.randint(0, flat.numel(), (n,), generator=gen)
            sign = torch.randint(0, 2, (n,), generator=gen).double() * 2 - 1
            # The last draw of a repeated position wins, as in a serial loop:
            # ``flat[idx] = ...`` leaves repeats to whichever thread writes
            # last, so the values would follow the machine's thread count.
            last = torch.full(flat.shape, -1, dtype=torch.long).scatter_reduce_(
                0, idx, torch.arange(n), reduce="amax")
            hit = last >= 0
            flat[hit] = (sign * 30 * s)[last[hit]]
    elif fam == "near_max":
        if role in ("v", "b", "x"):
            # fp32 computations must not overflow: softmax scales x by up to 4,
            # and an online softmax sums P V before normalising, each weight
            # exp(l - running max) <= 1, so its accumulator reaches Sk max|v|
            # (v is (..., Sk, Dv)).  fp16's maximum times any Sk is harmless in
            # fp32; bf16 shares fp32's range, so it is held back too.
            rows = shape[-2] if role == "v" and len(shape) >= 2 else 1
            big = info.max * 0.9 if dtype == torch.float16 else info.max / (16 * max(rows, 1))
            x = (torch.rand(shape, generator=gen, dtype=torch.float64) * 0.5 + 0.5) * big
            x = x * (torch.randint(0, 2, shape, generator=gen).double() * 2 - 1)
        else:
            # Keep a @ b finite: |a| <= 1 / K spreads the mass of b over K terms.
            # A backward forms dO V^T and dS = P (dO V^T - delta), rounded to
            # the inputs' dtype as FlashAttention rounds it: |dO| <= 1 / (4 Dv)
            # keeps both within half the range.
            k = shape[-1] if role == "a" else 4 * shape[-1] if role == "do" else 1
            x = torch.rand(shape, generator=gen, dtype=torch.float64) / max(k, 1) * min(s, 1)
    elif fam == "grid":
        g, limit = GRID[dtype]
        steps = int(min(s * 8, limit) * 2**g)
        x = torch.randint(-steps, steps + 1, shape, generator=gen).double() / 2**g
    elif fam == "subnormal":
        lo = info.tiny * info.eps
        x = torch.rand(shape, generator=gen, dtype=torch.float64) * (info.tiny - lo) + lo
        x = x * (torch.randint(0, 2, shape, generator=gen).double() * 2 - 1)
    else:
        raise ValueError(f"unknown value family {fam!r}; expected one of {', '.join(FAMILIES)}")
    if spec.limit is not None and x.numel():
        # Scaled rather than clipped, so the family keeps its shape (ties stay
        # ties, spikes stay spikes); 1 - 2**-7 leaves room for rounding to the
        # dtype (at most 2**-8 relative, bfloat16's) to stay within the limit.
        peak = float(x.abs().max())
        if peak > spec.limit:
            x = x * (spec.limit / peak * (1 - 2**-7))
    return x.to(dtype).double()
