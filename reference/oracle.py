"""The float64 oracle: attention as written on paper.

Everything is computed in float64 from the definition, on the device of the
inputs (the CPU or a GPU: the same formulas, so the same values up to float64
rounding), with the causal mask built here from its definition and not from
any kernel helper.
"""

from __future__ import annotations

import torch


def offset(m: int, n: int, alignment: str) -> int:
    """The causal diagonal's offset o: query i of m sits at key i + o of n."""
    if alignment not in ("bottom_right", "top_left"):
        raise ValueError(f"alignment must be 'bottom_right' or 'top_left', got {alignment!r}")
    return n - m if alignment == "bottom_right" else 0


def sees(i, j, o: int, causal: bool, window):
    """Whether query i sees key j (elementwise on index tensors), the causal
    diagonal at key i + o (``offset``): j <= i + o (causal); i + o - left <= j
    <= i + o + right within a window (left, right), a side of None unlimited."""
    ahead = j - (i + o)
    left, right = window or (None, None)
    seen = ahead <= 0 if causal else ahead == ahead
    if left is not None:
        seen = seen & (ahead >= -left)
    if right is not None:
        seen = seen & (ahead <= right)
    return seen


def visible(
    m: int, n: int, alignment: str = "bottom_right", *, causal: bool = True, window=None,
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """(m, n) bool on ``device``: whether query i sees key j (``sees``)."""
    rows, cols = torch.arange(m, device=device), torch.arange(n, device=device)
    return sees(rows.unsqueeze(1), cols.unsqueeze(0), offset(m, n, alignment), causal, window)


def matmul(a: torch.Tensor, b: torch.Tensor, *, scale: float = 1.0) -> torch.Tensor:
    """scale * a @ b in float64."""
    return scale * (a.double() @ b.double())


def softmax(
    x: torch.Tensor, *, scale: float = 1.0, causal: bool = False, alignment: str = "bottom_right",
    window=None,
) -> torch.Tensor:
    """Softmax of scale * x over the last dim in float64; rows seeing nothing are zeros."""
    logits = scale * x.double()
    if causal or window:
        seen = visible(x.shape[-2], x.shape[-1], alignment, causal=causal, window=window,
                       device=x.device)
        logits = logits.masked_fill(~seen, float("-inf"))
    row_max = logits.amax(dim=-1, keepdim=True) if logits.shape[-1] else logits.sum(-1, True)
    row_max = torch.where(torch.isinf(row_max), torch.zeros_like(row_max), row_max)
    e = torch.exp(logits - row_max)
    total = e.sum(dim=-1, keepdim=True)
    return torch.where(total > 0, e / total, torch.zeros_like(e))


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window=None,
) -> torch.Tensor:
    """softmax(scale * q k^T) v with GQA by repeating KV heads; float64."""
    return attention_parts(q, k, v, causal=causal, scale=scale, alignment=alignment,
                           window=window)["out"]


def attention_parts(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window=None,
) -> dict[str, torch.Tensor]:
    """The oracle's intermediates: logits, probs, out and lse (all float64)."""
    q, k, v = (t.double() for t in (q, k, v))
    group = q.shape[1] // k.shape[1]
    k = k.repeat_interleave(group, dim=1)
    v = v.repeat_interleave(group, dim=1)
    if scale is None:
        scale = q.shape[-1] ** -0.5
    logits = scale * (q @ k.transpose(-1, -2))
    probs = softmax(logits, causal=causal, alignment=alignment, window=window)
    seen = visible(q.shape[2], k.shape[2], alignment, causal=causal, window=window,
                   device=q.device)
    masked = logits.masked_fill(~seen, -torch.inf)
    return {
        "logits": logits,
        "probs": probs,
        "out": probs @ v,
        "lse": torch.logsumexp(masked, dim=-1),
        "visible": torch.isfinite(masked),
    }
