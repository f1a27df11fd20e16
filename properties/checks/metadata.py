"""Serving metadata that does not describe its tensors: refused.

A serving call is given tensors and the metadata that says what they hold:
the prefix sums of the packed rows (``cu_seqlens_q``, ``cu_seqlens_k``), a
page table and each sequence's cache length (``block_table``,
``cache_seqlens``), the longest sequence (``max_seqlen_q``, ``max_seqlen_k``).
Most serving kernels trust it (``Support(metadata="trusted")``, the
default): it is the caller's promise, and nothing here is drawn.  A kernel
that declares ``metadata="checked"`` promises to refuse metadata that does
not match its tensors, and a check that lets one such call through is a bug
no valid call shows: prefix sums that end a row short leave the last row
unwritten, a table entry past the cache reads memory no page holds.

Each case runs the ``serving`` property's calls once for each way of
breaking one argument (``BREAKS``, one rule each), of the first call that
takes it: the call must raise a ValueError or TypeError (a ``refused``
verdict); an answer is a ``not refused`` finding, another exception an
``unclear`` one.  Every break is tried on every case, since a check that
lets one kind through shows on that kind alone, and a refusal costs no
kernel launch.  Where some answer can be right (an index tensor of int64,
which a kernel may take), answering within the oracle's bounds passes too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import torch

from ...reference import Verdict
from .. import backend
from ..implementations import Implementation
from ..model.cases import AttentionCase, Built, build
from .execution import context_killer
from .refusal import Raised, refused
from .serving import ARGUMENTS, first_call_changed, new_tokens_fit, serving_relations

# Arguments of the calls that take them by name.
BY_NAME = ("max_seqlen_q", "max_seqlen_k")


@dataclass(frozen=True)
class Break:
    """One argument of a serving call made wrong: ``change`` takes the call's
    arguments by name and gives that argument's new value (None where the
    call has no room for this break)."""

    argument: str
    change: Callable[[dict[str, object]], object]
    answerable: bool = False  # some answer may be right: refusing is not the only pass
    entries: tuple[str, ...] = ()  # the calls it applies to (default: those taking argument)

    def calls(self) -> tuple[str, ...]:
        if self.entries:
            return self.entries
        return tuple(e for e, names in ARGUMENTS.items()
                     if self.argument in names or self.argument in BY_NAME and e != "paged")


def _ints(t: torch.Tensor) -> list[int]:
    return [int(x) for x in t.tolist()]


def _tensor(values: list, like: torch.Tensor) -> torch.Tensor:
    return torch.tensor(values, dtype=like.dtype, device=like.device)


# --- prefix sums: 0, non-decreasing, ending at the packed tensor's rows ------------------
def _ending_short(cu: torch.Tensor) -> torch.Tensor | None:
    # Every entry past total - 1 lowered to it: still from 0 and non-decreasing.
    total = int(cu[-1])
    return None if total < 1 else _tensor([min(x, total - 1) for x in _ints(cu)], cu)


def _ending_past(cu: torch.Tensor) -> torch.Tensor:
    return _tensor([*_ints(cu)[:-1], int(cu[-1]) + 1], cu)


def _starting_at_one(cu: torch.Tensor) -> torch.Tensor | None:
    # Every entry below 1 raised to it: still non-decreasing, ending where it did.
    return None if int(cu[-1]) < 1 else _tensor([max(x, 1) for x in _ints(cu)], cu)


def _decreasing(cu: torch.Tensor) -> torch.Tensor | None:
    # An interior entry one past its successor: from 0, ending where it did;
    # with one interior entry only (two sequences), it goes below 0 instead.
    values = _ints(cu)
    for i in range(1, len(values) - 1):
        if values[i + 1] < values[-1]:
            return _tensor([*values[:i], values[i + 1] + 1, *values[i + 1:]], cu)
    return _tensor([values[0], -1, *values[2:]], cu) if len(values) > 2 else None


def _an_entry_short(t: torch.Tensor) -> torch.Tensor | None:
    # The last entry but one dropped: B - 1 sequences (prefix sums: the last two
    # merged; lengths: the last but one gone).
    values = _ints(t)
    return None if len(values) < 2 else _tensor([*values[:-2], values[-1]], t)


def _wide(t: torch.Tensor) -> torch.Tensor:
    return t.to(torch.int64)


# --- the page table and cache lengths ---------------------------------------------------
def _page_entry(call: dict, page_of: Callable[[int], int]) -> torch.Tensor | None:
    """The table with the last page of its first sequence with keys set to
    ``page_of(number of pages)``."""
    table, lengths = call["block_table"], _ints(call["cache_seqlens"])
    pages, size = call["k_cache"].shape[:2]
    for i, n in enumerate(lengths):
        if n > 0:
            broken = table.clone()
            broken[i, (n - 1) // size] = page_of(pages)
            return broken
    return None


def _past_the_table(call: dict) -> torch.Tensor:
    lengths = _ints(call["cache_seqlens"])
    width, size = call["block_table"].shape[1], call["k_cache"].shape[1]
    return _tensor([width * size + 1, *lengths[1:]], call["cache_seqlens"])


def _below_the_queries(call: dict) -> torch.Tensor | None:
    # A paged call's queries are its sequences' last keys: Sq of them at least.
    lengths, sq = _ints(call["cache_seqlens"]), call["q"].shape[2]
    return None if sq < 1 else _tensor([sq - 1, *lengths[1:]], call["cache_seqlens"])


# --- the longest sequence ---------------------------------------------------------------
def _longest(call: dict, side: str) -> int:
    if side == "q" or "cu_seqlens_k" in call:
        cu = _ints(call[f"cu_seqlens_{side}"])
        return max((b - a for a, b in zip(cu, cu[1:], strict=False)), default=0)
    return max(_ints(call["cache_seqlens"]), default=0)


def _one_short(side: str) -> Callable[[dict], int | None]:
    def change(call: dict) -> int | None:
        longest = _longest(call, side)
        return longest - 1 if longest > 0 else None
    return change


def _of(argument: str, change: Callable[[torch.Tensor], object]) -> Callable[[dict], object]:
    return lambda call: change(call[argument])


BREAKS: dict[str, Break] = {
    **{f"{cu} ending a row short of the packed tensor": Break(cu, _of(cu, _ending_short))
       for cu in ("cu_seqlens_q", "cu_seqlens_k")},
    **{f"{cu} ending a row past the packed tensor": Break(cu, _of(cu, _ending_past))
       for cu in ("cu_seqlens_q", "cu_seqlens_k")},
    **{f"{cu} starting at 1": Break(cu, _of(cu, _starting_at_one))
       for cu in ("cu_seqlens_q", "cu_seqlens_k")},
    **{f"{cu} decreasing": Break(cu, _of(cu, _decreasing))
       for cu in ("cu_seqlens_q", "cu_seqlens_k")},
    "cu_seqlens_k an entry short of cu_seqlens_q":
        Break("cu_seqlens_k", _of("cu_seqlens_k", _an_entry_short)),
    "cache_seqlens an entry short of the batch":
        Break("cache_seqlens", _of("cache_seqlens", _an_entry_short)),
    "block_table naming page -1 for a key": Break("block_table",
                                                  lambda c: _page_entry(c, lambda n: -1)),
    "block_table naming a page past the cache for a key":
        Break("block_table", lambda c: _page_entry(c, lambda n: n)),
    "cache_seqlens past the table's pages": Break("cache_seqlens", _past_the_table),
    "cache_seqlens below the new tokens": Break("cache_seqlens", _below_the_queries,
                                                entries=("paged",)),
    **{f"max_seqlen_{s} one below the longest sequence": Break(f"max_seqlen_{s}",
                                                              _one_short(s))
       for s in "qk"},
    **{f"{name} of int64": Break(name, _of(name, _wide), answerable=True)
       for name in ("cu_seqlens_q", "block_table", "cache_seqlens")},
}


def breaks_for(impl: Implementation, case: AttentionCase) -> tuple[str, ...]:
    """The names of the breaks that reach a serving call ``impl`` makes on ``case``."""
    calls = set(impl.serving_calls())
    if not new_tokens_fit(case):  # no paged call is made
        calls -= {"paged", "paged_varlen"}
    return tuple(name for name, b in BREAKS.items() if calls & set(b.calls()))


class _Answered(Exception):
    """A call with broken metadata returned where it had to refuse."""


def _breaking(impl: Implementation, name: str, done: list) -> Implementation:
    """``impl`` whose first serving call that ``BREAKS[name]`` reaches is made with
    it; ``done`` records that one was."""
    brk = BREAKS[name]

    def change(entry: str, given: dict) -> dict | None:
        value = brk.change(given)
        return None if value is None else {**given, brk.argument: value}

    def then(result: tuple) -> tuple:
        if not brk.answerable:
            raise _Answered
        return result

    return first_call_changed(impl, brk.calls(), change, done, then)


def _judged(impl: Implementation, case: AttentionCase, built: Built, name: str
            ) -> list[Verdict]:
    """The case's serving calls with ``BREAKS[name]`` applied to the first call it
    reaches (none: no verdict)."""
    done: list[str] = []
    nan = math.nan
    try:
        verdicts = serving_relations(_breaking(impl, name, done), case, built,
                                     entries=BREAKS[name].calls())
    except Raised as raised:
        error = getattr(raised.error, "error", raised.error)
        if isinstance(error, (ValueError, TypeError)):
            return refused(f"{done[0]} with {name}", raised.error)
        if context_killer(raised.error):
            raise raised.error from None
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return [Verdict(f"{done[0]} with {name}: raised {type(error).__name__}({first!r}), "
                        "not a ValueError or TypeError", math.inf, nan, nan, (), nan, nan,
                        kind="unclear")]
    except _Answered:
        return [Verdict(f"{done[0]} with {name}: answered, not refused", math.inf, nan, nan, (),
                        nan, nan, kind="not refused")]
    if not done:
        return []
    return [v if v.ok else replace(v, check=f"{v.check}, with {name}, not refused",
                                   kind="not refused") for v in verdicts]


def bad_metadata_refused(impl: Implementation, case: AttentionCase,
                         built: Built | None = None) -> list[Verdict]:
    """The case's serving calls made once for each break of ``BREAKS`` that
    reaches one (a refusal costs no kernel launch): each must be refused
    with a ValueError or TypeError; an answer is a ``not refused`` finding
    (but for a break some answer to which is right, and that answer is),
    another exception ``unclear``."""
    built = built or build(case, backend.device())
    return [v for name in breaks_for(impl, case) for v in _judged(impl, case, built, name)]
