"""Element-wise comparison of a kernel's output with the oracle under a bound.

A check passes iff ``max |got - want| / bound <= 1``.  The verdict names the
worst element so a failure says where to look, not just that something broke,
and the kind of finding it is: an infinity where the exact value is finite and
near the dtype's range is an ``overflow`` (an intermediate left the range),
apart from other ``wrong`` answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Verdict:
    check: str
    ratio: float  # max error / bound; <= 1 passes; inf for NaN or a missed inf
    error: float
    bound: float
    index: tuple[int, ...]
    got: float
    want: float
    kind: str = "wrong"  # the class of finding when it fails (see FINDINGS)
    note: str = ""  # what the reader may do about it, where the check knows

    @property
    def ok(self) -> bool:
        return self.ratio <= 1.0

    def describe(self) -> str:
        where = f"at index {self.index}" if self.index else "(empty)"
        kind = "" if self.kind == "wrong" else f" [{self.kind}]"
        note = f" ({self.note})" if self.note else ""
        if not self.index and math.isnan(self.got) and math.isnan(self.want):
            return f"{self.check}{kind}{note}"  # said of the call, of no element
        return (
            f"{self.check}{kind}: error/bound = {self.ratio:.3g} {where}: got {self.got!r}, "
            f"want {self.want!r}, |error| {self.error:.3g}, bound {self.bound:.3g}{note}"
        )

    def as_dict(self) -> dict[str, object]:
        return {
            "check": self.check, "ratio": self.ratio, "error": self.error,
            "bound": self.bound, "index": list(self.index), "got": self.got, "want": self.want,
            "kind": self.kind, **({"note": self.note} if self.note else {}),
        }


# Classes of finding, as a campaign's summary counts them.
FINDINGS = {
    "wrong": "a result outside its bound",
    "overflow": "an infinity where the exact result is finite, near the dtype's range",
    "memory": "a write outside the output, or to an input",
    "not refused": "a case outside the declared support answered wrongly",
    "crash": "the implementation raised on a case it supports, or its process died",
    "contract": "a result of the wrong shape, dtype or device, or not the out it was given",
    "hang": "a call ran past its time limit",
    "unclear": "bad input refused with an error that names no argument",
}


def compare(
    check: str,
    got: torch.Tensor,
    want: torch.Tensor,
    bound: torch.Tensor,
    *,
    dtype: torch.dtype | None = None,
) -> Verdict:
    """Compare ``got`` with float64 ``want`` element-wise against ``bound``, on
    ``want``'s device (``got`` and ``bound`` are copied there once, if elsewhere).

    Non-finite expectations (an lse of -inf, say) must be matched exactly.  With
    ``dtype``, an exact value that overflows that dtype by more than its bound
    must come back as an infinity of the same sign, and one within its bound of
    the overflow threshold may come back either way.
    """
    want = want.double()
    got64 = got.detach().to(want.device, torch.float64)
    bound = torch.broadcast_to(bound.to(want.device, torch.float64), want.shape)
    if got64.shape != want.shape:
        raise ValueError(f"{check}: got shape {tuple(got64.shape)}, want {tuple(want.shape)}")
    if got64.numel() == 0:
        return Verdict(check, 0.0, 0.0, 0.0, (), 0.0, 0.0)
    err = (got64 - want).abs()
    if dtype is not None and dtype != torch.float64:
        limit = torch.finfo(dtype).max
        overflows = (want.abs() - bound) > limit
        want = torch.where(overflows, want.sign() * math.inf, want)
        may_overflow = (want.abs() + bound) > limit
        same_inf = torch.isinf(got64) & (got64.sign() == want.sign())
        err = torch.where(may_overflow & same_inf, torch.zeros_like(err), err)
    exact = ~torch.isfinite(want)
    err = torch.where(exact, torch.where(got64 == want, 0.0, math.inf), err)
    err = torch.nan_to_num(err, nan=math.inf, posinf=math.inf)  # not clamped to the largest float
    ratio = torch.where(bound > 0, err / bound, torch.where(err > 0, math.inf, 0.0))
    flat = torch.argmax(ratio)
    # An infinity where the exact value is finite and within 2**16 of the
    # dtype's largest: an intermediate overflowed (its NaNs, inf - inf, follow
    # from it).  Far from the range (an LSE of -inf where a row sees keys) the
    # infinity is a wrong answer, not an overflow.
    near = torch.finfo(dtype or got.dtype).max * 2.0**-16
    overflow = (torch.isinf(got64) & torch.isfinite(want) & (want.abs() >= near)
                & (ratio > 1)).any()
    # One read back from the device for all the numbers the verdict holds.
    picked = [t.flatten()[flat] for t in (ratio, err, bound, got64, want)]
    r, e, b, g, w, over, at = torch.stack([*picked, overflow.double(), flat.double()]).tolist()
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(int(at)), ratio.shape))
    return Verdict(check, r, e, b, index, g, w, "overflow" if over else "wrong")
