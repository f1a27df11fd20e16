"""The float64 oracle's gradients: attention's backward as written on paper.

With S = scale * Q K^T (masked), P = softmax(S), O = P V and an upstream
gradient dO, the chain rule gives

    dV = P^T dO            dP = dO V^T
    dS = P * (dP - delta)  with delta = rowsum(dO * O) = rowsum(P * dP)
    dQ = scale * dS K      dK = scale * dS^T Q

A query head h reads KV head h // group, so the gradient of a KV head is the
sum over the query heads of its group.  Masked entries have P = 0, hence
dS = 0: a row that sees no key has dQ = 0 and adds nothing to dK or dV.
Everything here is float64 on the inputs' device and uses only the forward oracle.
"""

from __future__ import annotations

import torch

from attnfuzz.reference.oracle import attention_parts


def _group_sum(t: torch.Tensor, hkv: int) -> torch.Tensor:
    """(B, Hq, ...) -> (B, Hkv, ...): the sum over each KV head's query heads."""
    b, hq = t.shape[:2]
    return t.reshape(b, hkv, hq // max(hkv, 1), *t.shape[2:]).sum(dim=2)


def attention_grads(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    do: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window=None,
) -> dict[str, torch.Tensor]:
    """dq, dk, dv, and the intermediates dp, ds, delta (per query head), in float64."""
    parts = attention_parts(q, k, v, causal=causal, scale=scale, alignment=alignment,
                            window=window)
    if scale is None:
        scale = q.shape[-1] ** -0.5
    q, k, v, do = (t.double() for t in (q, k, v, do))
    hkv = k.shape[1]
    group = q.shape[1] // max(hkv, 1)
    k_rep = k.repeat_interleave(group, dim=1)
    v_rep = v.repeat_interleave(group, dim=1)
    p = parts["probs"]
    dp = do @ v_rep.transpose(-1, -2)
    delta = (do * parts["out"]).sum(dim=-1, keepdim=True)
    ds = p * (dp - delta)
    return {
        "dq": scale * (ds @ k_rep),
        "dk": _group_sum(scale * (ds.transpose(-1, -2) @ q), hkv),
        "dv": _group_sum(p.transpose(-1, -2) @ do, hkv),
        "dp": dp,
        "ds": ds,
        "delta": delta,
        **parts,
    }


def softmax_grad(y: torch.Tensor, dy: torch.Tensor, *, scale: float = 1.0) -> torch.Tensor:
    """dx of y = softmax(scale * x) for the upstream gradient dy, from the
    float64 probabilities y: dx = scale * y * (dy - rowsum(y * dy)).  A masked
    entry has y = 0, hence dx = 0."""
    y, dy = y.double(), dy.double()
    return scale * y * (dy - (y * dy).sum(dim=-1, keepdim=True))
