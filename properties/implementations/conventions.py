"""Calling conventions: how a user's attention function is called, and what it can express.

A convention adapts a function of some well-known signature to the harness's
(``implementation``): it maps the case's causal mask, scale and GQA onto the
function's own arguments, lays the tensors out as the function expects, and
reads ``out`` (and the LSE, where the function returns one) back.  A mask the
signature cannot express is not drawn (``alignments``).

- ``attnfuzz``: ``fn(q, k, v, *, causal, scale, alignment)`` on (B, H, S, D)
  tensors, returning ``out`` or ``(out, lse)``; ``window=(left, right)`` too
  where the support declares windows.
- ``sdpa``: ``torch.nn.functional.scaled_dot_product_attention``'s signature
  on (B, H, S, D): ``is_causal`` is top-left aligned; GQA by ``enable_gqa``.
- ``flash_attn``: ``flash_attn_func``'s, on (B, S, H, D) tensors:
  ``softmax_scale``, ``causal`` bottom-right aligned, GQA by head count;
  returns ``out`` or a tuple whose first items are ``out`` and the LSE (B, H, S);
  a declared window is passed as ``window_size`` (-1 for an unlimited side).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from attnfuzz.properties.model.cases import ALIGNMENTS

Adapter = Callable[..., dict[str, torch.Tensor]]


def _results(got: object, what: str) -> dict[str, torch.Tensor]:
    """``out`` and, if returned, the LSE from a tensor or a tuple (out, lse, ...)."""
    if isinstance(got, torch.Tensor):
        return {"out": got}
    if isinstance(got, tuple | list) and got and isinstance(got[0], torch.Tensor):
        results = {"out": got[0]}
        if len(got) > 1 and isinstance(got[1], torch.Tensor):
            results["lse"] = got[1]
        return results
    raise AssertionError(f"{what} returned {type(got).__name__}, not a tensor or (out, lse, ...)")


def _attnfuzz(fn: Callable, what: str) -> Adapter:
    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        extra = {} if window is None else {"window": window}  # only a declared window
        return _results(fn(q, k, v, causal=causal, scale=scale, alignment=alignment, **extra),
                        what)

    return run


def _sdpa(fn: Callable, what: str) -> Adapter:
    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        if window is not None:
            raise ValueError("the sdpa convention has no sliding window: declare windows=no")
        gqa = q.shape[1] != k.shape[1]
        return _results(fn(q, k, v, is_causal=causal, scale=scale, enable_gqa=gqa), what)

    return run


def _flash_attn(fn: Callable, what: str) -> Adapter:
    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        # (B, H, S, D) views as (B, S, H, D): the same memory, no copy.
        qs, ks, vs = (t.transpose(1, 2) for t in (q, k, v))
        extra = {}
        if window is not None:  # flash_attn_func's window_size: -1 is unlimited
            extra["window_size"] = tuple(-1 if n is None else n for n in window)
        results = _results(fn(qs, ks, vs, softmax_scale=scale, causal=causal, **extra), what)
        results["out"] = results["out"].transpose(1, 2)
        return results

    return run


@dataclass(frozen=True)
class Convention:
    name: str
    adapt: Callable[[Callable, str], Adapter]
    alignments: tuple[str, ...]  # causal alignments the signature can express
    description: str


CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        Convention("attnfuzz", _attnfuzz, ALIGNMENTS,
                   "fn(q, k, v, *, causal, scale, alignment), (B, H, S, D)"),
        Convention("sdpa", _sdpa, ("top_left",),
                   "scaled_dot_product_attention's: is_causal (top-left), enable_gqa"),
        Convention("flash_attn", _flash_attn, ("bottom_right",),
                   "flash_attn_func's: (B, S, H, D), softmax_scale, causal (bottom-right)"),
    )
}


def get(name: str) -> Convention:
    try:
        return CONVENTIONS[name]
    except KeyError:
        known = ", ".join(CONVENTIONS)
        raise ValueError(f"unknown convention {name!r}; known: {known}") from None
