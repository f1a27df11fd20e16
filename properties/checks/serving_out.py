"""A serving call's ``out=`` that shares memory with an input: refused, or answered right.

For implementations whose serving calls take ``out=`` (``serving_out``), as
``bad_out`` does for a forward call.  The first call of one serving entry
gets an out that begins at the last or the first element of one input (the
input copied to the front of a new allocation): a program that stores its
rows while another still reads that memory changes what the other reads,
and an overlap check that stops short of an input's end, or leaves the
input out, lets it through.  The call must raise, or every sequence it
returns must be within its bounds of the oracle of the inputs as they were.
"""

from __future__ import annotations

import math
from dataclasses import replace

import torch

from ...reference import Verdict
from .. import backend
from ..implementations import Implementation
from ..model.cases import AttentionCase, Built, build
from .execution import context_killer, contiguous_strides, extent
from .refusal import Raised, refused
from .serving import first_call_changed, new_tokens_fit, serving_relations

# The input an out shares memory with, by its role in every call, and where
# the out begins: at its last element (one element shared: a span check that
# stops short of the end misses it) or at its first (the out over the input:
# a check that leaves the input out misses it, and the stores land on what
# later programs read).
ROLES = ("q", "k", "v")
WHERE = ("last", "first")
_IN_CALL = {"varlen": {"q": "q", "k": "k", "v": "v"},
            "paged": {"q": "q", "k": "k_cache", "v": "v_cache"},
            "paged_varlen": {"q": "q", "k": "k_cache", "v": "v_cache"}}


def _out_shape(entry: str, given: dict) -> tuple[int, ...]:
    q, v = given["q"], given[_IN_CALL[entry]["v"]]
    return (*q.shape[:3], v.shape[-1]) if entry == "paged" else (*q.shape[:2], v.shape[-1])


def sharing(t: torch.Tensor, shape: tuple[int, ...], where: str
            ) -> tuple[torch.Tensor, torch.Tensor] | None:
    """``t`` copied (same strides) to the front of a new allocation, and an out of
    ``shape`` (contiguous) from ``t``'s ``where`` element (first or last) on;
    None where either is empty."""
    count = math.prod(shape)
    lo, hi = extent(t)
    span = (hi - lo) // t.element_size()
    if not span or not count:
        return None
    start = span - 1 if where == "last" else 0
    buf = torch.full((max(span, start + count),), math.nan, dtype=t.dtype, device=t.device)
    buf[:span].copy_(t.as_strided((span,), (1,), t.storage_offset()))
    return (buf.as_strided(t.shape, t.stride(), 0),
            buf.as_strided(shape, contiguous_strides(shape), start))


class _Nothing(Exception):
    """The call has no element of the input to share: nothing to judge."""


def sharings(impl: Implementation, case: AttentionCase) -> tuple[str, ...]:
    """``ENTRY ROLE WHERE`` for each serving call ``impl`` makes on ``case``, each
    input and each place an out may begin in it."""
    calls = [e for e in impl.serving_calls() if e == "varlen" or new_tokens_fit(case)]
    return tuple(f"{entry} {role} {where}" for entry in calls for role in ROLES
                 for where in WHERE)


def _sharing(impl: Implementation, entry: str, role: str, where: str, done: list
             ) -> Implementation:
    """``impl`` whose first ``entry`` call is given an out beginning at ``role``'s
    ``where`` element."""
    def change(name: str, given: dict) -> dict:
        made = sharing(given[_IN_CALL[name][role]], _out_shape(name, given), where)
        if made is None:
            raise _Nothing
        copy, out = made
        return {**given, _IN_CALL[name][role]: copy, "out": out}

    return first_call_changed(impl, (entry,), change, done)


def _judged(impl: Implementation, case: AttentionCase, built: Built, entry: str, role: str,
            where: str) -> list[Verdict]:
    done: list[str] = []
    what = f"an out from {role}'s {where} element"
    try:
        verdicts = serving_relations(_sharing(impl, entry, role, where, done), case, built,
                                     entries=(entry,))
    except _Nothing:
        return []
    except Raised as raised:
        if context_killer(raised.error):
            raise raised.error from None
        return refused(f"{done[0]} with {what}", raised.error)
    if not done:
        return []  # the case made no call of that entry
    return [v if v.ok else replace(v, check=f"{v.check}, with {what}, not refused",
                                   kind="not refused") for v in verdicts]


def shared_out_refused(impl: Implementation, case: AttentionCase,
                       built: Built | None = None) -> list[Verdict]:
    """The case's serving calls of each entry, the first given an out that shares
    memory with an input, once for each input and each place (``sharings``):
    refused with an exception, or every sequence right; a wrong one is ``not
    refused``.  Every way is tried on every case: a check that misses one
    input shows there alone, and a refusal costs no kernel launch."""
    case = replace(case, serving=replace(case.serving, out=None))
    built = built or build(case, backend.device())
    return [v for given in sharings(impl, case)
            for v in _judged(impl, case, built, *given.split(" "))]
