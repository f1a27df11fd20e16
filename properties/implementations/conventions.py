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
- ``varlen``: ``flash_attention_varlen``'s, on packed sequences:
  ``fn(q, k, v, cu_seqlens_q, cu_seqlens_k, *, max_seqlen_q, max_seqlen_k,
  causal, scale, alignment)`` with q (total_q, Hq, D), k and v (total_k, Hkv,
  D) and int32 prefix sums (B + 1,); returns ``out`` (total_q, Hq, Dv) or
  ``(out, lse)`` with lse (Hq, total_q).  A case's batch elements are its
  sequences, all of one length; the ``serving`` property packs sequences of
  different lengths.
- ``paged``: ``flash_attention_paged``'s, over a paged KV cache:
  ``fn(q, k_cache, v_cache, block_table, cache_seqlens, *, causal, scale)``
  with q (B, Hq, Sq, D), the caches (num_blocks, block_size, Hkv, D), an
  int32 table (B, max_blocks) and int32 lengths (B,) that count the Sq new
  tokens, the last keys of each sequence; returns ``out`` (B, Hq, Sq, Dv) or
  ``(out, lse)`` with lse (B, Hq, Sq).  So 1 <= Sq <= Sk, and masks and
  windows are bottom-right.  A case's keys go into shuffled pages of a size
  that varies with the shapes, NaN in every unused slot and page; the
  ``serving`` property draws page sizes and sequences of other lengths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

from attnfuzz.properties.model.cases import ALIGNMENTS
from attnfuzz.properties.model.pages import PAGE_SIZES, paged_cache

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


def _packed(t: torch.Tensor) -> torch.Tensor:
    """(B, H, S, D) as (B * S, H, D): the batch elements as packed sequences."""
    return t.transpose(1, 2).reshape(-1, *t.shape[1:2], t.shape[-1])


def _prefix_sums(batch: int, length: int, device: torch.device) -> torch.Tensor:
    return torch.arange(batch + 1, dtype=torch.int32, device=device) * length


def _shaped(got: dict[str, torch.Tensor], what: str, rows: dict[str, int],
            lse_dims: dict[str, int]) -> tuple[torch.Tensor, torch.Tensor | None]:
    """(out, lse or None): out of the named leading dims and a Dv, the LSE of
    the named dims; a result of another shape is named as the function's."""
    out, lse = got["out"], got.get("lse")
    lead = tuple(rows.values())
    if out.dim() != len(lead) + 1 or out.shape[:len(lead)] != lead:
        named = ", ".join(f"{n}={size}" for n, size in rows.items())
        raise AssertionError(f"{what} returned out of shape {tuple(out.shape)}, expected "
                             f"({named}, Dv)")
    if lse is not None and lse.shape != tuple(lse_dims.values()):
        named = ", ".join(f"{n}={size}" for n, size in lse_dims.items())
        raise AssertionError(f"{what} returned lse of shape {tuple(lse.shape)}, expected "
                             f"({named})")
    return out, lse


def packed_call(fn: Callable, what: str) -> Callable[..., tuple]:
    """A ``varlen`` function as ``flash_attention_varlen`` is called: returns
    (out, lse or None)."""
    def call(q, k, v, cu_q, cu_k, *, causal, scale, alignment, window=None,
             max_seqlen_q=None, max_seqlen_k=None, **ignored):
        lengths = [(cu[1:] - cu[:-1]).max().item() if cu.numel() > 1 else 0
                   for cu in (cu_q, cu_k)]
        extra = {} if window is None else {"window": window}
        got = _results(fn(q, k, v, cu_q, cu_k, causal=causal, scale=scale, alignment=alignment,
                          max_seqlen_q=max_seqlen_q or lengths[0],
                          max_seqlen_k=max_seqlen_k or lengths[1], **extra), what)
        total, hq = q.shape[:2]
        return _shaped(got, what, {"total_q": total, "Hq": hq}, {"Hq": hq, "total_q": total})

    return call


def _varlen(fn: Callable, what: str) -> Adapter:
    call = packed_call(fn, what)

    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        b, sq, sk = q.shape[0], q.shape[2], k.shape[2]
        cu_q, cu_k = (_prefix_sums(b, n, q.device) for n in (sq, sk))
        got, lse = call(_packed(q), _packed(k), _packed(v), cu_q, cu_k, causal=causal,
                        scale=scale, alignment=alignment, window=window)
        results = {"out": got.reshape(b, sq, *got.shape[1:]).transpose(1, 2)}
        if lse is not None:  # (Hq, total_q) -> (B, Hq, Sq)
            results["lse"] = lse.reshape(lse.shape[0], b, sq).transpose(0, 1)
        return results

    return run


def paged_call(fn: Callable, what: str) -> Callable[..., tuple]:
    """A ``paged`` function as ``flash_attention_paged`` is called: returns
    (out, lse or None)."""
    def call(q, k_cache, v_cache, table, seqlens, *, causal, scale, window=None, **ignored):
        extra = {} if window is None else {"window": window}
        got = _results(fn(q, k_cache, v_cache, table, seqlens, causal=causal, scale=scale,
                          **extra), what)
        b, hq, sq = q.shape[:3]
        rows = {"B": b, "Hq": hq, "Sq": sq}
        return _shaped(got, what, rows, rows)

    return call


def paged_layout(sq: int, sk: int, d: int) -> tuple[int, int]:
    """(page size, seed of the page order) of a case's cache under the paged
    convention: they vary with the shapes, so the plain properties meet
    several; the serving property draws its own."""
    seed = sk + 7 * sq + 31 * d
    return PAGE_SIZES[seed % len(PAGE_SIZES)], seed


def _paged(fn: Callable, what: str) -> Adapter:
    call = paged_call(fn, what)

    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        if (causal or window is not None) and alignment != "bottom_right":
            raise ValueError("the paged convention's masks are bottom-right only")
        b, sk = k.shape[0], k.shape[2]
        if not 1 <= q.shape[2] <= sk:
            raise ValueError(f"the paged convention needs 1 <= Sq <= Sk, got Sq={q.shape[2]}, "
                             f"Sk={sk}")
        page, seed = paged_layout(q.shape[2], sk, k.shape[-1])
        k_cache, v_cache, table = paged_cache(k, v, [sk] * b, page, seed)
        seqlens = torch.full((b,), sk, dtype=torch.int32, device=q.device)
        got, lse = call(q, k_cache, v_cache, table, seqlens, causal=causal, scale=scale,
                        window=window)
        return {"out": got} if lse is None else {"out": got, "lse": lse}

    return run


@dataclass(frozen=True)
class Convention:
    name: str
    adapt: Callable[[Callable, str], Adapter]
    alignments: tuple[str, ...]  # causal alignments the signature can express
    description: str
    # A function of packed sequences, called as ``flash_attention_varlen`` is
    # (``packed_call``): the ``serving`` property packs sequences of other lengths.
    packs: bool = False
    # A function over a paged cache, called as ``flash_attention_paged`` is
    # (``paged_call``): its queries are the last keys' tokens, so 1 <= Sq <= Sk.
    pages: bool = False


CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        Convention("attnfuzz", _attnfuzz, ALIGNMENTS,
                   "fn(q, k, v, *, causal, scale, alignment), (B, H, S, D)"),
        Convention("sdpa", _sdpa, ("top_left",),
                   "scaled_dot_product_attention's: is_causal (top-left), enable_gqa"),
        Convention("flash_attn", _flash_attn, ("bottom_right",),
                   "flash_attn_func's: (B, S, H, D), softmax_scale, causal (bottom-right)"),
        Convention("varlen", _varlen, ALIGNMENTS,
                   "flash_attention_varlen's: fn(q, k, v, cu_seqlens_q, cu_seqlens_k, *, "
                   "max_seqlen_q, max_seqlen_k, causal, scale, alignment), (total, H, D)",
                   packs=True),
        Convention("paged", _paged, ("bottom_right",),
                   "flash_attention_paged's: fn(q, k_cache, v_cache, block_table, "
                   "cache_seqlens, *, causal, scale), q (B, H, Sq, D), caches (blocks, "
                   "block_size, H, D)", pages=True),
    )
}


def get(name: str) -> Convention:
    try:
        return CONVENTIONS[name]
    except KeyError:
        known = ", ".join(CONVENTIONS)
        raise ValueError(f"unknown convention {name!r}; known: {known}") from None
