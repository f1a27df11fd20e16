"""Serving: a case's batch run packed with other lengths, and through a paged cache.

For implementations with serving entry points (``Implementation.varlen`` and
``.paged``: attnfuzz's fused kernels, or a user's function of packed
sequences).  The case's batch elements become sequences of their own lengths
(every other one shortened, and an empty one in front) packed for the varlen
call; each must be within its bounds of the oracle and, for attnfuzz's
kernels where the prefill is untuned (``serving_bits``), bit for bit what
``flash_prefill`` gives it alone (the same tiles, blocks and overflow guard).
The case's keys are also copied into a paged cache with shuffled pages, NaN
in every slot and page no sequence uses, and a table whose unused entries
name a NaN page: the paged call must give the case's dense output, within
its bounds and, likewise, bit for bit where it makes one pass over the keys;
so must a decode step of the case's first three queries over that cache,
and over a longer one of the case's keys repeated past a 64-key block.
Packed queries over a paged cache (``paged_varlen``) mix the two: prefill
chunks of the case's queries beside one-query decode steps, each sequence
over its own keys.

The case's ``serving`` spec says how: the order of the sequences by length
(a store or read past a sequence's end reaches a longer or a shorter one),
guard sequences of one query and no key after every sequence (whose rows
must hold their own answer: a row written by another sequence shows there,
whichever sequence comes last), a layout for each packed tensor and cache,
and the prefix sums, table and lengths as views into larger buffers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace

import torch

from ...reference import Verdict, attention_bounds, attention_parts, compare
from .. import backend
from ..implementations import Implementation
from ..implementations.implementation import ContractViolation
from ..model.cases import AttentionCase, Built, build, max_seqlen
from ..model.layouts import index_view, materialize, named
from ..model.pages import page_size, paged_cache
from .execution import bitwise, memory, watched
from .refusal import Raised


def _within(impl: Implementation, case: AttentionCase, lengths: list[tuple[int, int]]) -> bool:
    """Whether one serving call of sequences of these (queries, keys) lengths stays
    within what ``impl`` declares: each sequence, as a case of the call's batch."""
    broken = impl.support.first_broken_limit
    return all(broken(replace(case, batch=len(lengths), sq=sq, sk=sk)) is None
               for sq, sk in lengths)


def _lengths(impl: Implementation, case: AttentionCase) -> list[tuple[int, int]]:
    """(queries, keys) of each sequence: every other batch element shortened, by
    different amounts where the support allows Sq != Sk, else keeping Sk - Sq."""
    lengths = []
    for b in range(case.batch):
        cut = (b % 2) * (case.sq // 3)
        shorter = [(case.sq - cut, case.sk - (b % 2) * (case.sk // 4)),
                   (case.sq - cut, case.sk - cut)]
        lengths.append(next((n for n in shorter if n[1] >= 0 and _within(impl, case, [n])),
                            (case.sq, case.sk)))
    return lengths


def _split(sq: int, sk: int) -> bool:
    from ...kernels.flash import uses_decode_path

    return uses_decode_path(sq, sk)


def _untuned(sq: int, sk: int) -> bool:
    from ...kernels.flash import _autotuning

    return not _autotuning(sq, sk)


class _Alone:
    """Each sequence alone: its oracle parts and bounds, computed once per (batch
    element, Sq, Sk) (the varlen and the paged call share their full-length
    sequences), and the prefill's result only where its bits are compared."""

    def __init__(self, case: AttentionCase, built: Built, bits: bool,
                 logits_dtype: str = "fp32") -> None:
        self.case, self.built, self.bits = case, built, bits
        self.logits_dtype = logits_dtype  # the implementation's (``Support.logits``)
        self.oracle: dict[tuple[int, int, int], tuple] = {}
        self.prefill: dict[tuple[int, int, int], tuple] = {}

    def _inputs(self, b: int, sq: int, sk: int, which: Mapping) -> list[torch.Tensor]:
        return [which[r][b:b + 1, :, :n] for r, n in zip("qkv", (sq, sk, sk), strict=True)]

    def _expected(self, b: int, sq: int, sk: int) -> tuple:
        if (b, sq, sk) not in self.oracle:
            case = self.case
            exact = self._inputs(b, sq, sk, self.built.exact)  # on the oracle's device
            parts = attention_parts(*exact, causal=case.causal, scale=case.effective_scale,
                                    alignment=case.alignment, window=case.window)
            bounds = attention_bounds(*exact, parts, scale=case.effective_scale,
                                      input_precision=case.input_precision,
                                      dtype=case.torch_dtype, logits_dtype=self.logits_dtype)
            self.oracle[b, sq, sk] = parts, bounds
        return self.oracle[b, sq, sk]

    def _prefill(self, b: int, sq: int, sk: int) -> tuple:
        from ...kernels import flash_prefill

        if (b, sq, sk) not in self.prefill:
            self.prefill[b, sq, sk] = flash_prefill(
                *self._inputs(b, sq, sk, self.built.inputs), alignment=self.case.alignment,
                return_lse=True, **_common(self.case))
        return self.prefill[b, sq, sk]

    def verdicts(self, what: str, got: torch.Tensor, got_lse: torch.Tensor | None, b: int,
                 sq: int, sk: int, same_tiles: bool) -> list[Verdict]:
        """Sequence ``b`` (its first sq queries over its first sk keys): within its
        bounds of the oracle (the LSE where returned), and the bits of the
        prefill alone where that is untuned and the call's launch has its tiles
        (``same_tiles``: untuned too, one pass over the keys)."""
        parts, bounds = self._expected(b, sq, sk)
        verdicts = [compare(f"{what} out", got, parts["out"], bounds["out"],
                            dtype=self.case.torch_dtype)]
        if got_lse is not None:
            verdicts.append(compare(f"{what} lse", got_lse, parts["lse"], bounds["lse"]))
        if self.bits and same_tiles and _untuned(sq, sk):
            alone = self._prefill(b, sq, sk)
            verdicts.append(bitwise(f"{what} == prefill alone", got, alone[0]))
            if got_lse is not None:
                verdicts.append(bitwise(f"{what} lse == prefill alone", got_lse, alone[1]))
        return verdicts


def _common(case: AttentionCase) -> dict:
    # The case's own scale, None too: each serving entry point computes its
    # default itself, as a forward call's does.
    return dict(causal=case.causal, scale=case.scale, window=case.window,
                input_precision=case.input_precision)


def _served(case: AttentionCase) -> dict:
    # A serving call's: a function without plans (every user's) ignores ``planned``.
    return {**_common(case), "planned": case.serving.planned}


def _given(impl: Implementation, case: AttentionCase, shape: tuple[int, ...],
           like: torch.Tensor) -> dict:
    """The ``out=`` (NaN in the drawn layout) and ``return_lse`` a serving call of
    ``impl`` is given, where it takes them (``Implementation.serving_out``)."""
    if not impl.serving_out:
        return {}
    kw: dict = {"return_lse": case.serving.lse}
    if case.serving.out is not None:
        full = torch.full(shape, math.nan, dtype=like.dtype, device=like.device)
        kw["out"] = materialize(full, named(case.serving.out, len(shape))).tensor
    return kw


def _returned(impl: Implementation, what: str, out: torch.Tensor, given: dict) -> None:
    """A call given an ``out=`` returns it."""
    if "out" in given and (not isinstance(out, torch.Tensor)
                           or out.data_ptr() != given["out"].data_ptr()):
        raise ContractViolation(f"{impl.name}: the {what} call did not return the out tensor "
                                "it was given", impl.name, "out", "identity")


def _ordered(items: list, case: AttentionCase) -> list:
    """``items`` (shortest first) in the order the case's serving spec draws."""
    order = case.serving.order
    if order == "longest_first":
        return items[::-1]
    if order == "shuffled":
        perm = torch.randperm(len(items), generator=torch.Generator().manual_seed(
            case.values.seed))
        return [items[i] for i in perm.tolist()]
    return items


def _varlen(impl: Implementation, case: AttentionCase, built: Built,
            alone: _Alone) -> list[Verdict]:
    if impl.varlen is None:
        return []
    q, k, v = (built.inputs[r] for r in "qkv")
    serving = case.serving
    # An empty sequence first, over the first key of batch element 0 (if any,
    # and if the support allows it), then the sequences in the drawn order of
    # their lengths: shortest first, a sequence read past its own end (to the
    # longest one's length, say) reads the next one's keys; longest first, a
    # store past its end lands in rows another sequence may have written
    # already.  A batch of one gets a shortened copy in front.  A guard (one
    # query of batch element 0, no key: its answer is zeros) may follow each,
    # the last one too.  Every sequence stays within the support.
    sequences = [(b, *n) for b, n in enumerate(_lengths(impl, case))]
    if case.batch == 1:
        sequences.append((0, *_lengths(impl, replace(case, batch=2))[1]))
    ordered = _ordered(sorted(set(sequences), key=lambda p: (p[2], p[1], p[0])), case)
    guard = serving.guards and case.sq > 0 and _within(impl, case, [(1, 0)])
    empty = next(((0, 0, n) for n in (min(case.sk, 1), 0) if _within(impl, case, [(0, n)])), None)
    pieces = [(*empty, False)] if empty else []
    for b, sq, sk in ordered:
        pieces += [(b, sq, sk, False)] + ([(0, 1, 0, True)] if guard else [])
    if not _within(impl, case, [p[1:3] for p in pieces]):
        return []
    pack = lambda t, role, layout: materialize(torch.cat(  # noqa: E731
        [t[b, :, : (sq if role == "q" else sk)].transpose(0, 1) for b, sq, sk, _ in pieces]),
        layout).tensor
    cu = [torch.tensor([0, *torch.tensor([p[i] for p in pieces]).cumsum(0).tolist()],
                       dtype=torch.int32, device=q.device) for i in (1, 2)]
    # Between a view's entries: its total, a prefix sum read there is the end.
    cu = [index_view(c, serving.index, int(c[-1])) for c in cu]
    kw = _served(case)
    for side, i in (("q", 1), ("k", 2)):
        longest = max_seqlen(serving.max_seqlen, max(p[i] for p in pieces))
        if longest is not None:
            kw[f"max_seqlen_{side}"] = longest
    total = sum(p[1] for p in pieces)
    given = _given(impl, case, (total, case.hq, case.dv), q)
    out, lse = impl.varlen(pack(q, "q", serving.q_layout), pack(k, "k", serving.k_layout),
                           pack(v, "v", serving.v_layout), *cu, alignment=case.alignment, **kw,
                           **given)
    _returned(impl, "varlen", out, given)
    if not isinstance(out, torch.Tensor) or out.dim() != 3 or out.shape[0] != total:
        shape = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
        raise AssertionError(f"{impl.name}: the varlen call returned out of shape {shape}, "
                             f"expected (total_q={total}, Hq, Dv)")
    # The launch is tuned (so its tiles chosen) by the longest sequence.
    same_tiles = _untuned(max(p[1] for p in pieces), max(p[2] for p in pieces))
    # Each piece's rows hold its own answer: a row that another sequence
    # wrote (a store past that one's end) fails the piece it belongs to.
    verdicts, start, last = [], 0, ""
    for b, sq, sk, is_guard in pieces[1 if empty else 0:]:
        got = out[start:start + sq].transpose(0, 1)[None]
        got_lse = None if lse is None else lse[:, start:start + sq][None]
        what = (f"varlen guard row after {last}, which no other sequence may write"
                if is_guard else f"varlen sequence {b + 1} ({sq} x {sk})")
        last = what if not is_guard else last
        verdicts += [_packed(v, start)
                     for v in alone.verdicts(what, got, got_lse, b, sq, sk, same_tiles)]
        start += sq
    return verdicts


def _packed(verdict: Verdict, start: int) -> Verdict:
    """A failing verdict of a sequence's rows (0, head, row, ...) that also
    names the element of the packed tensors the function returned: out
    (total_q, Hq, Dv), lse (Hq, total_q)."""
    if verdict.ok or len(verdict.index) < 3:
        return verdict
    _, h, row, *d = verdict.index
    at = (f"out[{start + row}, {h}, {d[0]}]" if d else f"lse[{h}, {start + row}]")
    return replace(verdict, check=f"{verdict.check} (packed {at})")


def new_tokens_fit(case: AttentionCase) -> bool:
    """Whether the case's queries can be the last Sq of its keys (a paged
    call's new tokens): its causal mask and window are bottom-right, so a
    top-left one is not a paged call's."""
    masked = case.causal or case.window is not None
    return 0 < case.sq <= case.sk and not (masked and case.alignment != "bottom_right")


def _paged_cache(case: AttentionCase, k: torch.Tensor, v: torch.Tensor, lens: list[int],
                 page: int, seed: int) -> tuple[torch.Tensor, ...]:
    """(k_cache, v_cache, block_table, seq_lens) of sequences of ``lens`` keys in
    shuffled pages, the caches in the case's serving layouts, the table and
    lengths as its views; between the views' entries are the table's unused
    entry (its last column holds one) and the longest length, which reads NaN
    slots for any other sequence."""
    serving = case.serving
    kc, vc, table = paged_cache(k, v, lens, page, seed, unused=serving.unused_entries)
    kc = materialize(kc, serving.k_cache_layout).tensor
    vc = materialize(vc, serving.v_cache_layout).tensor
    seqlens = torch.tensor(lens, dtype=torch.int32, device=k.device)
    return (kc, vc, index_view(table, serving.index, int(table[0, -1])),
            index_view(seqlens, serving.index, max(lens)))


def _paged(impl: Implementation, case: AttentionCase, built: Built,
           alone: _Alone) -> list[Verdict]:
    if impl.paged is None or not new_tokens_fit(case):
        return []
    # Each batch element a sequence of its own length (a batch of one gets a
    # shortened copy after it: lengths that differ).
    seqs = [(b, max(case.sq, sk)) for b, (_, sk) in enumerate(_lengths(impl, case))]
    if case.batch == 1:
        seqs.append((0, max(case.sq, _lengths(impl, replace(case, batch=2))[1][1])))
    # In the drawn order of their lengths (a store or read past one batch
    # element's end reaches a longer or a shorter one's).
    seqs = _ordered(sorted(seqs, key=lambda s: (s[1], s[0])), case)
    elements, lens = [b for b, _ in seqs], [n for _, n in seqs]
    q, k, v = (built.inputs[r][elements] for r in "qkv")
    page = page_size(case.values.seed, impl.support.page_sizes)
    kc, vc, table, seqlens = _paged_cache(case, k, v, lens, page, case.values.seed)
    verdicts = _long_decode(impl, case, built, elements, lens, page)
    # The case's queries as the new tokens, and its first three at most (a
    # speculative decode step over the same cache, the shape serving repeats most).
    for n in dict.fromkeys((case.sq, min(case.sq, 3))):
        if not _within(impl, case, [(n, sk) for _, sk in seqs]):
            continue  # a decode step where the support has no Sq != Sk, say
        given = _given(impl, case, (len(seqs), case.hq, n, case.dv), q)
        out, lse = impl.paged(q[:, :, :n], kc, vc, table, seqlens, **_served(case), **given)
        _returned(impl, "paged", out, given)
        # attnfuzz's paged kernel splits a long cache's keys for few new tokens,
        # into ranges set by the longest sequence: bits no prefill alone has;
        # otherwise the longest sequence tunes the launch.
        same_tiles = not _split(n, max(lens)) and _untuned(n, max(lens))
        for i, (b, sk) in enumerate(seqs):
            what = f"paged sequence {i + 1} of {len(seqs)} ({n} x {sk}, page size {page})"
            verdicts += alone.verdicts(what, out[i:i + 1],
                                       None if lse is None else lse[i:i + 1], b, n, sk, same_tiles)
    return verdicts


# Keys a decode step's cache reaches at least, once: one past the 64-key block
# that most kernels walk a cache in (attnfuzz's split decode on the
# interpreter; BLOCK_N of most Triton kernels), so that a second block, a
# split into key ranges and a page table read past its first block all run,
# where the lengths the property draws (at most 70) seldom get.
LONG_CACHE = 65


def _long_decode(impl: Implementation, case: AttentionCase, built: Built, elements: list[int],
                 lens: list[int], page: int) -> list[Verdict]:
    """A decode step of the case's first three queries at most over a cache of
    each sequence's keys repeated past ``LONG_CACHE``, every other one a
    64-key block longer still, the second among them, and of two sequences
    the first again after them: a plan made for the first's keys or the
    last's then misses a longer one's last block.  Checked against the oracle
    of those same keys."""
    grow = LONG_CACHE - min(lens)
    n = min(case.sq, 3)
    if len(lens) == 2:
        elements, lens = [*elements, elements[0]], [*lens, lens[0]]
    longer = [sk + grow + (LONG_CACHE - 1) * (i % 2) for i, sk in enumerate(lens)]
    if grow <= 0 or not _within(impl, case, [(n, sk) for sk in longer]):
        return []
    reps = -(-max(longer) // case.sk)

    def repeated(role: str, t: torch.Tensor) -> torch.Tensor:
        return t.repeat(1, 1, reps, 1)[:, :, :max(longer)] if role in "kv" else t

    inputs = {r: repeated(r, built.inputs[r]) for r in "qkv"}
    exact = {r: repeated(r, built.exact[r]) for r in "qkv"}
    long_case = replace(case, sk=max(longer))
    alone = _Alone(long_case, Built(inputs, exact, {}), bits=False,
                   logits_dtype=impl.support.logits)
    q, k, v = (inputs[r][elements] for r in "qkv")
    kc, vc, table, seqlens = _paged_cache(case, k, v, longer, page, case.values.seed + 1)
    given = _given(impl, case, (len(elements), case.hq, n, case.dv), q)
    out, lse = impl.paged(q[:, :, :n], kc, vc, table, seqlens, **_served(case), **given)
    _returned(impl, "paged", out, given)
    verdicts = []
    for i, (b, sk) in enumerate(zip(elements, longer, strict=True)):
        what = (f"paged decode over a long cache, sequence {i + 1} of {len(longer)} "
                f"({n} x {sk}: its keys repeated, page size {page})")
        verdicts += alone.verdicts(what, out[i:i + 1], None if lse is None else lse[i:i + 1],
                                   b, n, sk, same_tiles=False)
    return verdicts


def _paged_varlen(impl: Implementation, case: AttentionCase, built: Built,
                  alone: _Alone) -> list[Verdict]:
    if impl.paged_varlen is None or not new_tokens_fit(case):
        return []
    # Each batch element a sequence of its own keys, whose queries are the
    # case's (a prefill chunk) or, every other one, a single decode step: a
    # unified kernel's batch mixes both, and a kernel that takes every
    # sequence's queries to be max_seqlen_q long, or aligns a mask by it, is
    # right whenever they are all alike.  A batch of one gets a shortened
    # decode step after it.
    seqs = []
    for b, (_, sk) in enumerate(_lengths(impl, case)):
        sk = max(case.sq, sk)
        decode = b % 2 and _within(impl, case, [(1, sk)])
        seqs.append((b, 1 if decode else case.sq, sk))
    if case.batch == 1:
        sk = max(case.sq, _lengths(impl, replace(case, batch=2))[1][1])
        seqs.append((0, 1 if _within(impl, case, [(1, sk)]) else case.sq, sk))
    seqs = _ordered(sorted(seqs, key=lambda s: (s[2], s[1], s[0])), case)
    if not _within(impl, case, [(n, sk) for _, n, sk in seqs]):
        return []
    serving = case.serving
    elements, counts, lens = ([s[i] for s in seqs] for i in range(3))
    q, k, v = (built.inputs[r][elements] for r in "qkv")
    # A sequence's n queries are its last keys' tokens: the oracle's rows of
    # the case's first n queries over its keys, aligned bottom-right.
    packed = materialize(torch.cat([q[i, :, :n].transpose(0, 1) for i, n in enumerate(counts)]),
                         serving.q_layout).tensor
    page = page_size(case.values.seed, impl.support.page_sizes)
    kc, vc, table, seqlens = _paged_cache(case, k, v, lens, page, case.values.seed)
    starts = [0, *torch.tensor(counts).cumsum(0).tolist()]
    # Between the view's entries: the total.
    cu_q = index_view(torch.tensor(starts, dtype=torch.int32, device=q.device), serving.index,
                      starts[-1])
    # Its convention takes the lengths as given (none computed): the exact ones
    # where the case draws none.
    chosen = "exact" if serving.max_seqlen == "computed" else serving.max_seqlen
    given = _given(impl, case, (starts[-1], case.hq, case.dv), q)
    out, lse = impl.paged_varlen(packed, kc, vc, table, cu_q, seqlens,
                                 max_seqlen_q=max_seqlen(chosen, max(counts)),
                                 max_seqlen_k=max_seqlen(chosen, max(lens)), **_served(case),
                                 **given)
    _returned(impl, "paged_varlen", out, given)
    verdicts = []
    for i, (b, n, sk) in enumerate(seqs):
        start = starts[i]
        got = out[start:start + n].transpose(0, 1)[None]
        got_lse = None if lse is None else lse[:, start:start + n][None]
        what = f"paged_varlen sequence {i + 1} of {len(seqs)} ({n} x {sk}, page size {page})"
        verdicts += [_packed(v, start)
                     for v in alone.verdicts(what, got, got_lse, b, n, sk, same_tiles=False)]
    return verdicts


_ENTRIES = {"varlen": _varlen, "paged": _paged, "paged_varlen": _paged_varlen}
# The positional arguments of each serving call, in the harness's conventions
# (``Implementation.varlen`` and the others); the rest come by name.
# ``cache_seqlens`` is the paged_varlen convention's ``seq_lens``.
ARGUMENTS = {
    "varlen": ("q", "k", "v", "cu_seqlens_q", "cu_seqlens_k"),
    "paged": ("q", "k_cache", "v_cache", "block_table", "cache_seqlens"),
    "paged_varlen": ("q", "k_cache", "v_cache", "block_table", "cu_seqlens_q", "cache_seqlens"),
}


def first_call_changed(impl: Implementation, entries: tuple[str, ...],
                       change: Callable[[str, dict], dict | None], done: list,
                       then: Callable[[tuple], tuple] = lambda result: result) -> Implementation:
    """``impl`` whose first call of one of ``entries`` that ``change(entry,
    arguments by name)`` changes (None: that call as it was, and the next one
    is tried) is made with the changed arguments, its result passed through
    ``then``; ``done`` records the entry.  What that call raises comes out as
    ``Raised`` (a ``ContractViolation`` as itself: the call answered)."""
    def wrap(entry: str, fn: Callable[..., tuple]) -> Callable[..., tuple]:
        names = ARGUMENTS[entry]

        def call(*args, **kwargs):
            if done or entry not in entries:
                return fn(*args, **kwargs)
            changed = change(entry, {**dict(zip(names, args, strict=False)), **kwargs})
            if changed is None:
                return fn(*args, **kwargs)
            done.append(entry)
            positional = [changed.pop(n) for n in names]
            try:
                result = fn(*positional, **changed)
            except ContractViolation:
                raise
            except Exception as exc:
                raise Raised(exc) from exc
            return then(result)
        return call

    return replace(impl, **{e: wrap(e, fn) for e, fn in impl.serving_calls().items()})


def serving_relations(impl: Implementation, case: AttentionCase, built: Built | None = None,
                      entries: tuple[str, ...] = tuple(_ENTRIES)) -> list[Verdict]:
    """The case as a packed varlen batch, through a paged cache, and as packed
    queries over a paged cache, by the entry points ``impl`` has (of
    ``entries``, names of ``Implementation.SERVING_CALLS``)."""
    built = built or build(case, backend.device())
    alone = _Alone(case, built, impl.serving_bits, impl.support.logits)
    # The interpreter's access check over the serving calls too: their index
    # tensors (prefix sums, tables, lengths) are the property's own.
    with watched() as accesses:
        verdicts = [v for name in entries for v in _ENTRIES[name](impl, case, built, alone)]
    return [memory(a.describe()) for a in accesses[:1]] + verdicts
