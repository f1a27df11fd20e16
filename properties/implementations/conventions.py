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
  on (B, H, S, D): ``is_causal`` is top-left aligned; GQA by ``enable_gqa``,
  or, to a function without it (SDPA's older signature), other head counts
  as they are.
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
- ``paged_varlen``: packed queries over a paged cache (vLLM's unified
  attention, chunked prefill): ``fn(q, k_cache, v_cache, block_table,
  cu_seqlens_q, seq_lens, *, max_seqlen_q, max_seqlen_k, causal, scale)``
  with q (total_q, Hq, D) packed as ``varlen``'s, the caches and table as
  ``paged``'s, and int32 ``seq_lens`` (B,) counting each sequence's keys,
  its queries the last ones'; returns ``out`` (total_q, Hq, Dv) or ``(out,
  lse)`` with lse (Hq, total_q).  So 1 <= Sq <= Sk, masks bottom-right per
  sequence.  A case's batch elements are its sequences, all of one length;
  the ``serving`` property packs sequences of other query and key counts
  (prefills beside decode steps) over a shuffled cache.

Each convention also knows its tensors' layout (``UserLayout``): where an
element, a shape or strides of the harness's (B, H, S, D) tensors are in the
tensors the user's function takes and returns.  Every message about a
result (``describe``, ``contract``) says both, so a user reads an index of
their own output.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass

import torch

from ...reference import Verdict
from ..model.cases import ALIGNMENTS, Case
from ..model.pages import page_size, paged_cache
from .implementation import ContractViolation, Implementation, short_name

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
    raise ContractViolation(f"{what} returned {type(got).__name__}, not a tensor or "
                            "(out, lse, ...)", what, "out", "type")


# Keywords a convention passes only where the support declares something.
_DECLARED_BY = {"window": "windows", "window_size": "windows"}
# Parameter names that mark a signature as a convention's, for a hint only
# (the calls themselves are the adapters below).
_MARKS = {"sdpa": ("is_causal",), "flash_attn": ("softmax_scale",),
          "varlen": ("cu_seqlens_q", "cu_seqlens_k"), "paged": ("block_table", "cache_seqlens"),
          "paged_varlen": ("block_table", "cu_seqlens_q", "seq_lens")}


def called_as(fn: Callable, convention: str) -> Callable:
    """``fn``, with a call that its signature cannot take (a keyword it lacks,
    an argument too many) said as that, with what to do, instead of as the
    bare ``TypeError`` of a crash (whose report names the implementation)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin: nothing to read
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as exc:
            try:
                signature.bind(*args, **kwargs)
            except TypeError as unbound:
                wanted = [f"take {k}= or declare {f}=no" for k, f in _DECLARED_BY.items()
                          if k in kwargs and k not in signature.parameters]
                looks = [c for c, marks in _MARKS.items()
                         if c != convention and all(m in signature.parameters for m in marks)]
                todo = "; ".join(wanted) or (
                    f"its parameters are the {looks[0]} convention's: call it as {looks[0]}"
                    if looks else f"give it the {convention} convention's signature")
                raise TypeError(f"cannot take the {convention} convention's call: "
                                f"{unbound} ({todo})") from exc
            raise

    return call


def _attnfuzz(fn: Callable, what: str) -> Adapter:
    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        extra = {} if window is None else {"window": window}  # only a declared window
        return _results(fn(q, k, v, causal=causal, scale=scale, alignment=alignment, **extra),
                        what)

    return run


def takes_keyword(fn: object, keyword: str) -> bool:
    """Whether ``fn`` takes ``keyword`` (by name, or through ``**kwargs``);
    True where its signature cannot be read (a builtin, SDPA's own).  An
    exported script carries this source, and calls as the campaign did."""
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return keyword in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def _sdpa(fn: Callable, what: str) -> Adapter:
    takes_gqa = takes_keyword(fn, "enable_gqa")

    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        if window is not None:
            raise ValueError("the sdpa convention has no sliding window: declare windows=no")
        if q.shape[1] == k.shape[1] or takes_gqa:
            # As SDPA's callers pass it: only where the head counts differ.
            gqa = {"enable_gqa": True} if q.shape[1] != k.shape[1] else {}
            return _results(fn(q, k, v, is_causal=causal, scale=scale, **gqa), what)
        # SDPA's signature before enable_gqa: its callers pass other head
        # counts plainly, so the function's own handling of them is what a
        # refusal tests (a keyword it lacks would be refused by Python).
        try:
            got = fn(q, k, v, is_causal=causal, scale=scale)
        except (ValueError, TypeError) as exc:
            if type(exc) in (ValueError, TypeError):  # a subclass may take other arguments
                raise type(exc)(f"{exc} (it takes no enable_gqa, and was given Hq = "
                                f"{q.shape[1]}, Hkv = {k.shape[1]}: take enable_gqa= or declare "
                                "gqa=no)") from exc
            raise
        return _results(got, what)

    return run


def _flash_attn(fn: Callable, what: str) -> Adapter:
    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        # (B, H, S, D) views as (B, S, H, D): the same memory, no copy.
        qs, ks, vs = (t.transpose(1, 2) for t in (q, k, v))
        extra = {}
        if window is not None:  # flash_attn_func's window_size: -1 is unlimited
            extra["window_size"] = tuple(-1 if n is None else n for n in window)
        results = _results(fn(qs, ks, vs, softmax_scale=scale, causal=causal, **extra), what)
        got, want = results["out"], (q.shape[0], q.shape[2], q.shape[1], v.shape[-1])
        if got.dim() != 4:  # no (B, S, H, D) to view as (B, H, S, D)
            raise ContractViolation(
                f"{what} returned out of shape {tuple(got.shape)}, expected {want} "
                "(B, S, H, Dv)", what, "out", "shape")
        results["out"] = got.transpose(1, 2)
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
        raise ContractViolation(f"{what} returned out of shape {tuple(out.shape)}, expected "
                                f"({named}, Dv)", what, "out", "shape")
    if lse is not None and lse.shape != tuple(lse_dims.values()):
        named = ", ".join(f"{n}={size}" for n, size in lse_dims.items())
        raise ContractViolation(f"{what} returned lse of shape {tuple(lse.shape)}, expected "
                                f"({named})", what, "lse", "shape")
    return out, lse


def _given(longest: int | None, computed: int) -> int:
    # A max_seqlen of 0 is given too (a wrong one, where a sequence is longer).
    return computed if longest is None else longest


def packed_call(fn: Callable, what: str) -> Callable[..., tuple]:
    """A ``varlen`` function as ``flash_attention_varlen`` is called: returns
    (out, lse or None)."""
    def call(q, k, v, cu_q, cu_k, *, causal, scale, alignment, window=None,
             max_seqlen_q=None, max_seqlen_k=None, **ignored):
        lengths = [(cu[1:] - cu[:-1]).max().item() if cu.numel() > 1 else 0
                   for cu in (cu_q, cu_k)]
        extra = {} if window is None else {"window": window}
        got = _results(fn(q, k, v, cu_q, cu_k, causal=causal, scale=scale, alignment=alignment,
                          max_seqlen_q=_given(max_seqlen_q, lengths[0]),
                          max_seqlen_k=_given(max_seqlen_k, lengths[1]), **extra), what)
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


def paged_layout(sq: int, sk: int, d: int,
                 sizes: tuple[int, ...] | None = None) -> tuple[int, int]:
    """(page size, seed of the page order) of a case's cache under the paged
    convention: they vary with the shapes, so the plain properties meet
    several (among ``sizes``, those the implementation declares); the serving
    property draws its own."""
    seed = sk + 7 * sq + 31 * d
    return page_size(seed, sizes), seed


def _cache(name: str, q, k, v, *, causal, alignment, window, sizes, page_size) -> tuple:
    """(k_cache, v_cache, block_table, seq_lens) of a call over a paged cache,
    whose queries are each sequence's last keys' tokens."""
    if (causal or window is not None) and alignment != "bottom_right":
        raise ValueError(f"the {name} convention's masks are bottom-right only")
    b, sk = k.shape[0], k.shape[2]
    if not 1 <= q.shape[2] <= sk:
        raise ValueError(f"the {name} convention needs 1 <= Sq <= Sk, got Sq={q.shape[2]}, "
                         f"Sk={sk}")
    page, seed = paged_layout(q.shape[2], sk, k.shape[-1], sizes)
    page = page if page_size is None else page_size  # a case outside the declared sizes
    seqlens = torch.full((b,), sk, dtype=torch.int32, device=q.device)
    return (*paged_cache(k, v, [sk] * b, page, seed), seqlens)


def _paged(fn: Callable, what: str, sizes: tuple[int, ...] | None = None) -> Adapter:
    call = paged_call(fn, what)

    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None,
            page_size=None):
        k_cache, v_cache, table, seqlens = _cache(
            "paged", q, k, v, causal=causal, alignment=alignment, window=window, sizes=sizes,
            page_size=page_size)
        got, lse = call(q, k_cache, v_cache, table, seqlens, causal=causal, scale=scale,
                        window=window)
        return {"out": got} if lse is None else {"out": got, "lse": lse}

    return run


def paged_varlen_call(fn: Callable, what: str) -> Callable[..., tuple]:
    """A ``paged_varlen`` function as it is called: returns (out, lse or None)."""
    def call(q, k_cache, v_cache, table, cu_q, seq_lens, *, causal, scale, window=None,
             max_seqlen_q=None, max_seqlen_k=None, **ignored):
        longest_q = (cu_q[1:] - cu_q[:-1]).max().item() if cu_q.numel() > 1 else 0
        longest_k = seq_lens.max().item() if seq_lens.numel() else 0
        extra = {} if window is None else {"window": window}
        got = _results(fn(q, k_cache, v_cache, table, cu_q, seq_lens, causal=causal,
                          scale=scale, max_seqlen_q=_given(max_seqlen_q, longest_q),
                          max_seqlen_k=_given(max_seqlen_k, longest_k), **extra), what)
        total, hq = q.shape[:2]
        return _shaped(got, what, {"total_q": total, "Hq": hq}, {"Hq": hq, "total_q": total})

    return call


def _paged_varlen(fn: Callable, what: str, sizes: tuple[int, ...] | None = None) -> Adapter:
    call = paged_varlen_call(fn, what)

    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None,
            page_size=None):
        k_cache, v_cache, table, seqlens = _cache(
            "paged_varlen", q, k, v, causal=causal, alignment=alignment, window=window,
            sizes=sizes, page_size=page_size)
        b, sq = q.shape[0], q.shape[2]
        got, lse = call(_packed(q), k_cache, v_cache, table, _prefix_sums(b, sq, q.device),
                        seqlens, causal=causal, scale=scale, window=window,
                        max_seqlen_q=sq, max_seqlen_k=k.shape[2])
        results = {"out": got.reshape(b, sq, *got.shape[1:]).transpose(1, 2)}
        if lse is not None:  # (Hq, total_q) -> (B, Hq, Sq)
            results["lse"] = lse.reshape(lse.shape[0], b, sq).transpose(0, 1)
        return results

    return run


# How a convention's function is called as a serving entry point, by the
# ``Implementation`` field that holds it (``implementation.SERVING_CALLS``).
SERVING_ADAPTERS: dict[str, Callable[[Callable, str], Callable[..., tuple]]] = {
    "varlen": packed_call, "paged": paged_call, "paged_varlen": paged_varlen_call,
}


# --- the user's layout -----------------------------------------------------------------------

# An attention call's tensors by the sequence they run along: the queries' or the keys'.
QUERY_SIDE = ("q", "out", "do", "dq")
KEY_SIDE = ("k", "v", "dk", "dv")
ROLES = (*QUERY_SIDE, *KEY_SIDE, "lse")


class UserLayout:
    """Where the harness's (B, H, S, D) tensors' elements are in the tensors the
    user's function takes and returns.  This base is the harness's own layout
    (the ``attnfuzz`` and ``sdpa`` conventions, and every built-in kernel):
    nothing to translate."""

    def name(self, role: str) -> str | None:
        """The user's tensor's dims, ``(B, S, H, D)``; None where it is the harness's."""
        return None

    def tensor(self, role: str) -> str:
        """What the user's function calls the tensor (``k_cache`` for a paged k)."""
        return role

    def shape(self, role: str, shape: tuple[int, ...], case: Case,
              sizes: tuple[int, ...] | None = None) -> tuple[int, ...] | None:
        """The user's shape; ``sizes``: the page sizes the implementation declares."""
        return None

    def strides(self, role: str, strides: tuple[int, ...]) -> tuple[int, ...] | None:
        return None

    def index(self, role: str, index: tuple[int, ...], case: Case,
              sizes: tuple[int, ...] | None = None) -> tuple[tuple[int, ...], str] | None:
        """(the element's index in the user's tensor, a note on what it is), or None."""
        return None


class HeadsInside(UserLayout):
    """flash_attn_func's (B, S, H, D): the harness's tensors with dims 1 and 2 swapped
    (the LSE stays (B, H, S))."""

    def _swapped(self, role: str, dims: tuple[int, ...]) -> tuple[int, ...] | None:
        if role == "lse" or len(dims) != 4:
            return None
        return (dims[0], dims[2], dims[1], dims[3])

    def name(self, role: str) -> str | None:
        return None if role == "lse" else "(B, S, H, D)"

    def shape(self, role, shape, case, sizes=None):
        return self._swapped(role, tuple(shape))

    def strides(self, role, strides):
        return self._swapped(role, tuple(strides))

    def index(self, role, index, case, sizes=None):
        swapped = self._swapped(role, tuple(index))
        return None if swapped is None else (swapped, "")


class Packed(UserLayout):
    """flash_attention_varlen's: a case's batch elements as packed sequences of
    equal length, (total, H, D) rows, and the LSE (H, total_q)."""

    def _length(self, role: str, case: Case) -> int:
        return case.sk if role in KEY_SIDE else case.sq

    def name(self, role):
        if role == "lse":
            return "(H, total_q)"
        return "(total_k, H, D)" if role in KEY_SIDE else "(total_q, H, D)"

    def shape(self, role, shape, case, sizes=None):
        if role == "lse" and len(shape) == 3:
            return (shape[1], shape[0] * shape[2])
        if role in ROLES and len(shape) == 4:
            return (shape[0] * shape[2], shape[1], shape[3])
        return None

    def index(self, role, index, case, sizes=None):
        n = self._length(role, case)
        if role == "lse" and len(index) == 3:
            b, h, s = index
            return (h, b * n + s), f"sequence {b}, its row {s}"
        if role in ROLES and len(index) == 4:
            b, h, s, d = index
            return (b * n + s, h, d), f"sequence {b}, its row {s}"
        return None


def _page(case: Case, sizes: tuple[int, ...] | None) -> tuple[int, int]:
    """(page size, page order's seed) of ``case``'s cache under the paged convention."""
    page, seed = paged_layout(case.sq, case.sk, case.d, sizes)
    return (page if getattr(case, "page_size", None) is None else case.page_size), seed


class Paged(UserLayout):
    """flash_attention_paged's: q, out and the LSE as the harness's; the keys and
    values in the shuffled pages of a (blocks, block_size, H, D) cache."""

    def name(self, role):
        return "(blocks, block_size, H, D)" if role in ("k", "v") else None

    def tensor(self, role):
        return f"{role}_cache" if role in ("k", "v") else role

    def shape(self, role, shape, case, sizes=None):
        if role not in ("k", "v") or len(shape) != 4:
            return None
        page = _page(case, sizes)[0]
        blocks = shape[0] * -(-shape[2] // page) + 1  # the last: a NaN page
        return (blocks, page, shape[1], shape[3])

    def index(self, role, index, case, sizes=None):
        if role not in ("k", "v") or len(index) != 4:
            return None
        b, h, j, d = index
        page, seed = _page(case, sizes)
        # The table alone, from empty keys: the same pages the call's cache has.
        empty = torch.empty(case.batch, 1, case.sk, 0)
        table = paged_cache(empty, empty, [case.sk] * case.batch, page, seed)[2]
        return ((int(table[b, j // page]), j % page, h, d),
                f"key {j} of sequence {b}, block_table[{b}, {j // page}]")


class PackedPaged(UserLayout):
    """The ``paged_varlen`` convention's: q, out and the LSE packed as
    flash_attention_varlen's, the keys and values in a paged cache as
    flash_attention_paged's."""

    def _of(self, role: str) -> UserLayout:
        return _PAGED if role in ("k", "v") else _PACKED

    def name(self, role):
        return self._of(role).name(role)

    def tensor(self, role):
        return self._of(role).tensor(role)

    def shape(self, role, shape, case, sizes=None):
        return self._of(role).shape(role, shape, case, sizes)

    def index(self, role, index, case, sizes=None):
        return self._of(role).index(role, index, case, sizes)


_PACKED, _PAGED = Packed(), Paged()


@dataclass(frozen=True)
class Convention:
    name: str
    adapt: Callable[[Callable, str], Adapter]
    alignments: tuple[str, ...]  # causal alignments the signature can express
    description: str
    # A function over a paged cache: its queries are the last keys' tokens, so
    # 1 <= Sq <= Sk, and its cache is made in the page sizes it declares.
    pages: bool = False
    # The ``Implementation`` entry point (``SERVING_ADAPTERS``) through which the
    # ``serving`` property calls it with sequences of other lengths.
    serving: str | None = None
    layout: UserLayout = UserLayout()  # where its tensors' elements are


CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        Convention("attnfuzz", _attnfuzz, ALIGNMENTS,
                   "fn(q, k, v, *, causal, scale, alignment), (B, H, S, D)"),
        Convention("sdpa", _sdpa, ("top_left",),
                   "scaled_dot_product_attention's: is_causal (top-left), enable_gqa"),
        Convention("flash_attn", _flash_attn, ("bottom_right",),
                   "flash_attn_func's: (B, S, H, D), softmax_scale, causal (bottom-right)",
                   layout=HeadsInside()),
        Convention("varlen", _varlen, ALIGNMENTS,
                   "flash_attention_varlen's: fn(q, k, v, cu_seqlens_q, cu_seqlens_k, *, "
                   "max_seqlen_q, max_seqlen_k, causal, scale, alignment), (total, H, D)",
                   serving="varlen", layout=_PACKED),
        Convention("paged", _paged, ("bottom_right",),
                   "flash_attention_paged's: fn(q, k_cache, v_cache, block_table, "
                   "cache_seqlens, *, causal, scale), q (B, H, Sq, D), caches (blocks, "
                   "block_size, H, D)", pages=True, serving="paged", layout=_PAGED),
        Convention("paged_varlen", _paged_varlen, ("bottom_right",),
                   "packed queries over a paged cache (chunked prefill): fn(q, k_cache, "
                   "v_cache, block_table, cu_seqlens_q, seq_lens, *, max_seqlen_q, "
                   "max_seqlen_k, causal, scale), q (total_q, H, D), caches (blocks, "
                   "block_size, H, D)", pages=True, serving="paged_varlen",
                   layout=PackedPaged()),
    )
}


def get(name: str) -> Convention:
    try:
        return CONVENTIONS[name]
    except KeyError:
        known = ", ".join(CONVENTIONS)
        raise ValueError(f"unknown convention {name!r}; known: {known}") from None


def of(impl: Implementation) -> Convention:
    """The convention ``impl`` is called by (a built-in kernel's is ``attnfuzz``)."""
    return get(impl.convention)


def role_of(check: str, index: tuple[int, ...]) -> str | None:
    """The tensor a verdict's index is of, from its check's name: ``out``,
    ``rerun: dq``, ``input k modified``; an unnamed relation between runs
    compares outputs (a 4-dim index).  None where it names none."""
    match = re.fullmatch(r"input (\w+) modified", check)
    if match:
        return match.group(1)
    last = re.split(r"[:\s]+", check.strip())[-1]
    if last in ROLES and not re.match(r"(varlen|paged) sequence", check):
        return last
    if len(index) == 4 and ":" not in check and not check.startswith(("varlen", "paged")):
        return "out"
    return None


def received(convention: str, case: Case, inputs: dict,
             sizes: tuple[int, ...] | None = None) -> str | None:
    """How a function of ``convention`` receives ``inputs``' q, k and v (the
    harness's (B, H, S, D) tensors): ``q (B, S, H, D) of shape (1, 2, 2,
    16), strides (64, 16, 32, 1); ...``, where its layout is not the
    harness's; None where it is.  A layout's name (``contiguous``) is the
    harness's tensor's: a flash_attn function is handed that tensor with
    two dims swapped, which these strides show.  ``sizes``: the page sizes
    the implementation declares, which a paged cache's pages follow."""
    layout = get(convention).layout
    said = []
    for role in ("q", "k", "v"):
        t = inputs.get(role)
        shape = None if t is None else layout.shape(role, tuple(t.shape), case, sizes)
        if shape is None:
            continue
        strides = layout.strides(role, tuple(t.stride()))
        how = f", strides {strides}" if strides is not None else " (a packed copy)"
        said.append(f"{layout.tensor(role)} {layout.name(role)} of shape {shape}{how}")
    return "; ".join(said) or None


def where(impl: Implementation, case: Case, role: str, index: tuple[int, ...]) -> str | None:
    """An element of the harness's (B, H, S, D) ``role`` as the user's function
    sees it, ``out[0, 2, 1, 14] of its (B, S, H, D) out``; None where the
    function's layout is the harness's."""
    layout = of(impl).layout
    found = layout.index(role, tuple(index), case, impl.support.page_sizes)
    if found is None:
        return None
    at, note = found
    tensor = layout.tensor(role)
    text = f"{tensor}[{', '.join(map(str, at))}] of its {layout.name(role)} {tensor}"
    return f"{text} ({note})" if note else text


def describe(verdict: Verdict, impl: Implementation, case: Case) -> str:
    """``verdict.describe()`` (attnfuzz's (B, H, S, D) index) and, where the
    function's layout differs, the element in the function's own tensor."""
    text = verdict.describe()
    role = role_of(verdict.check, verdict.index) if verdict.index else None
    seen = where(impl, case, role, verdict.index) if role else None
    return text if seen is None else f"{text}; in the function's layout: {seen}"


def user_index(verdict: Verdict, impl: Implementation, case: Case) -> list[int] | None:
    """A verdict's index in the function's own tensor, for a dump's record."""
    role = role_of(verdict.check, verdict.index) if verdict.index else None
    found = (of(impl).layout.index(role, tuple(verdict.index), case, impl.support.page_sizes)
             if role else None)
    return None if found is None else list(found[0])


def user_strides(impl: Implementation, role: str, strides: tuple[int, ...]) -> str:
    """Strides as the harness's tensor has them and, where they differ, as the user's."""
    layout = of(impl).layout
    theirs = layout.strides(role, tuple(strides))
    text = f"strides {tuple(strides)}"
    return text if theirs is None else f"{text}; {theirs} in its {layout.name(role)} {role}"


def contract(impl: Implementation, case: Case, result: str, what: str, got: object,
             expected: object) -> ContractViolation:
    """A result of the wrong shape, dtype or device, said in the function's
    layout (and attnfuzz's where they differ)."""
    shown = short_name(impl.name)  # as the findings' headers name it
    text = f"{shown} returned {result} of {what} {got}, expected {expected}"
    layout = of(impl).layout
    if what == "shape" and isinstance(got, tuple) and isinstance(expected, tuple):
        theirs = [layout.shape(result, s, case, impl.support.page_sizes) for s in (got, expected)]
        if None not in theirs:
            text = (f"{shown} returned {result} of shape {theirs[0]}, expected "
                    f"{theirs[1]} as {layout.name(result)}; in attnfuzz's (B, H, S, D): "
                    f"{got}, expected {expected}")
    return ContractViolation(text, impl.name, result, what)
