"""The neighbours of a call in a call sequence (the stateful property): an
earlier call's case with one argument changed and its shapes kept (causal,
alignment, window, scale, an optional argument, the values, the dtype, an
input's address), or its batch grown.  A launch cache keyed on too little
answers the changed call wrongly; state sized by the first call must grow for
the grown one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import torch

from .. import backend
from ..implementations import Implementation
from ..model.cases import DTYPES, Case
from ..model.layouts import materialize
from ..strategies import WIDE_LOGITS


# One argument of an earlier call changed (the shapes kept, but for the batch):
# (case, implementation, a drawn index) -> the changed case, or None where the
# change does not apply.
def _other(values: list, current: object, pick: int) -> object:
    others = [v for v in values if v != current or type(v) is not type(current)]
    return others[pick % len(others)] if others else None


def _causal(c: Case, impl: Implementation, pick: int) -> Case | None:
    if not hasattr(c, "causal") or not impl.alignments:
        return None
    if c.causal:
        return replace(c, causal=False)
    aligned = c.alignment if c.alignment in impl.alignments else impl.alignments[0]
    return replace(c, causal=True, alignment=aligned)


def _alignment(c: Case, impl: Implementation, pick: int) -> Case | None:
    if not hasattr(c, "alignment") or len(impl.alignments) < 2:
        return None
    return replace(c, causal=True, alignment=_other(list(impl.alignments), c.alignment, pick))


def _window(c: Case, impl: Implementation, pick: int) -> Case | None:
    # A launch keyed without the window would answer from another window's plan.
    if not hasattr(c, "window") or not impl.support.windows:
        return None
    choices = [None, (0, 0), (1, None), (3, 0), (None, 2), (16, 16)]
    return replace(c, window=_other(choices, c.window, pick))


def _scale(c: Case, impl: Implementation, pick: int) -> Case:
    values = [None, 0.5, -2.0] if c.kind == "attention" else [1.0, 0.5, -2.0]
    return replace(c, scale=_other(values, c.scale, pick))


def _option(c: Case, impl: Implementation, pick: int) -> Case | None:
    if not impl.options:
        return None
    name, choices = impl.options[pick % len(impl.options)]
    given = dict(c.options)
    value = _other(list(choices), given.get(name, choices[0]), pick)
    given[name] = value
    declared = dict(impl.options)
    # A default is left out, as drawn cases leave it; an option that is the
    # harness's, not the implementation's (a backward's ``grad_of``), is kept.
    kept = tuple((n, v) for n, v in given.items()
                 if n not in declared or v != declared[n][0]
                 or type(v) is not type(declared[n][0]))
    return replace(c, options=kept)


def _values(c: Case, impl: Implementation, pick: int) -> Case:
    return replace(c, values=replace(c.values, seed=(c.values.seed + 1 + pick) % 2**31))


def _dtype(c: Case, impl: Implementation, pick: int) -> Case | None:
    # Same shapes and strides in another dtype, one of the same element size
    # first (fp16 <-> bf16): a key that records the size, not the type,
    # replays a kernel that reads the bits as the other format.
    runnable = [d for d in impl.dtypes if d != c.dtype
                and (d != "bfloat16" or backend.supports_bf16())]
    size = DTYPES[c.dtype].itemsize
    runnable.sort(key=lambda d: DTYPES[d].itemsize != size)
    if not runnable:
        return None
    dtype = runnable[0] if pick < 4 else runnable[pick % len(runnable)]
    # tf32 is a float32 precision; only matmul-like cases have one.
    precision = {"input_precision": "ieee"} if hasattr(c, "input_precision") else {}
    return replace(c, dtype=dtype, **precision)


# Where an input may start, as its address modulo the 16 bytes a compiled
# kernel's pointers are specialised on.  A kernel compiled for an aligned
# input and replayed on an unaligned one does vector loads that do not fit:
# the move that shows a launch key testing too coarse an alignment (8 bytes
# for 16) takes an aligned input 8 bytes on, and an unaligned one onto a
# boundary (for a later neighbour to move on).  Then 4 and 2 bytes past a
# boundary.
ADDRESS_RESIDUES = (8, 4, 2)


def start_byte(c: Case, role: str) -> int:
    """Where the input ``role`` starts in its buffer, in bytes."""
    probe = torch.empty(c.shapes()[role], dtype=DTYPES[c.dtype], device="meta")
    return materialize(probe, c.layouts()[role]).tensor.storage_offset() * probe.element_size()


def _address(c: Case, impl: Implementation, pick: int) -> Case:
    # One input moved in its buffer: same shape, strides and values.  Buffers
    # start 16-byte aligned, so the input's offset in its buffer decides where
    # it starts modulo 16.
    roles = list(c.layouts())
    role = roles[pick % len(roles)]
    layout = c.layouts()[role]
    size = DTYPES[c.dtype].itemsize
    start = start_byte(c, role) // size
    first = 8 if start * size % 16 == 0 else 0
    wanted = [first, *(r for r in ADDRESS_RESIDUES if r % size == 0 and r != first)]
    want = wanted[pick // len(roles) % len(wanted)]
    step = next(n for n in range(1, 16 // size + 1) if (start + n) * size % 16 == want)
    return replace(c, **{f"{role}_layout": replace(layout, front=layout.front + step)})


# Launch sizes that state sized by an earlier, smaller call (scratch buffers,
# per-tile counters, plans) must grow past: one more sequence, twice as many,
# and on a GPU more (batch, KV head) programs than a buffer's round default
# holds.  Same heads, lengths and layouts; the float64 oracle's logits stay
# under the wide draws' budget.  On the interpreter, whose cost is per
# program, the batch stays small.
GROWN_PROGRAMS = (1024, 4096)
INTERPRETER_MAX_BATCH = 4


def _batch(c: Case, impl: Implementation, pick: int) -> Case | None:
    if c.kind != "attention":
        return None
    grown = [c.batch + 1, 2 * c.batch]
    if backend.interpreting():
        grown = [b for b in grown if b <= INTERPRETER_MAX_BATCH]
    else:
        grown += [n // c.hkv + 1 for n in GROWN_PROGRAMS]
    logits = c.hq * c.sq * c.sk
    fits = sorted({b for b in grown if b > c.batch and b * logits <= WIDE_LOGITS})
    return replace(c, batch=fits[pick % len(fits)]) if fits else None


NEIGHBOURS: dict[str, Callable[[Case, Implementation, int], Case | None]] = {
    "causal": _causal,
    "alignment": _alignment,
    "window": _window,
    "scale": _scale,
    "option": _option,
    "values": _values,
    "dtype": _dtype,
    "address": _address,
    "batch": _batch,
}


def _address_pair(c: Case, impl: Implementation, pick: int) -> list[Case]:
    """The ``address`` move that a launch key testing 8-byte alignment for 16
    answers wrongly, from wherever the input was drawn: an input on a 16-byte
    boundary 8 bytes on; any other onto a boundary (a kernel compiled for it),
    then 8 bytes on.  Drawn inputs mostly start off a boundary, and a single
    ``address`` neighbour made that move only from one on a boundary, and then
    only when it drew that residue (one in three in 16-bit dtypes)."""
    roles = list(c.layouts())
    which = pick % len(roles)  # the input; the first residue _address offers
    moved = _address(c, impl, which)
    if start_byte(c, roles[which]) % 16 == 0:
        return [moved]
    return [moved, _address(moved, impl, which)]


def neighbour_of(name: str, c: Case, impl: Implementation, pick: int) -> Case | None:
    """The ``name`` neighbour of ``c`` made with ``pick``; None where it does not
    apply or leaves what ``impl`` declares (a call outside its support is the
    ``refuses`` property's, not a sequence's)."""
    made = NEIGHBOURS[name](c, impl, pick)
    return made if made is not None and _admitted(made, impl) else None


def _admitted(c: Case, impl: Implementation) -> bool:
    """Whether ``c`` is within ``impl``'s declared support (which declares attention cases)."""
    return c.kind != "attention" or impl.support.first_broken_limit(c) is None


def sweep_of(c: Case, impl: Implementation, picks: list[int]) -> list[Case]:
    """Each kind of neighbour of ``c`` that applies to it, the i-th of
    ``NEIGHBOURS`` made with ``picks[i]`` (the address neighbour as a pair,
    ``_address_pair``)."""
    if len(picks) != len(NEIGHBOURS):
        raise ValueError(f"picks must hold {len(NEIGHBOURS)} ints, one per neighbour, "
                         f"got {len(picks)}")
    made: list[Case] = []
    for (name, vary), pick in zip(NEIGHBOURS.items(), picks, strict=True):
        made += _address_pair(c, impl, pick) if name == "address" else [vary(c, impl, pick)]
    return [n for n in made if n is not None and _admitted(n, impl)]
