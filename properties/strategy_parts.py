"""The building blocks of the case strategies: the lifted draws that shrink
past a floor (``SMALL_ODDS``), lengths, windows, head dims, layouts, values,
masks and precisions, and the checks of a strategy's arguments."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from ..reference.oracle import offset
from . import backend
from .model.cases import ALIGNMENTS
from .model.layouts import NAMES, Layout, named
from .model.values import FAMILIES, Values

# Block edges used by the kernels on either backend (16 is tl.dot's minimum).
BLOCK_EDGES = (16, 32, 64, 128)
# A draw that pins a floor or a few values is lifted to them but for one draw
# in SMALL_ODDS, its small kind: the same choices over every count from 1 up
# (a lifted value is one of those too).  Being lifted is a choice of its own,
# drawn first, that shrinks to not being lifted: a failing case first keeps
# what it drew, then shrinks past the floor in the same branch, where Hypothesis
# would otherwise stop (it only lowers a choice, and a lower branch of a
# ``one_of`` reads the choices after it as its own).
SMALL_ODDS = 16


def _lifted() -> st.SearchStrategy[bool]:
    return st.sampled_from(range(SMALL_ODDS)).map(bool)


def _within(low: int, high: int, widest: tuple[int, int]) -> st.SearchStrategy[int]:
    # [low, high], or unlifted ``widest``, which holds it.
    return _lifted().flatmap(lambda lifted: st.integers(*((low, high) if lifted else widest)))


def fair_one_of(*branches: st.SearchStrategy) -> st.SearchStrategy:
    """One of ``branches``, each drawn as often as the others.  ``st.one_of``
    flattens the one_ofs it is given, so ``st.one_of(a, st.one_of(b, c))``
    draws ``a`` a third of the time, not half; here each branch keeps its
    share whatever it holds.  Shrinks towards the first, as ``one_of`` does."""
    return st.sampled_from(range(len(branches))).flatmap(lambda i: branches[i])


def _one_of_values(values: Sequence[int], lowest: int = 1) -> st.SearchStrategy[int]:
    # One of ``values``, or unlifted any count from ``lowest`` up to one: the
    # value is a choice of its own (a single one when lifted), so that it stays
    # when the draw is no longer lifted, and then shrinks below the list.
    if not values:
        return st.nothing()
    return st.tuples(_lifted(), st.sampled_from(values)).flatmap(
        lambda drawn: st.integers(drawn[1] if drawn[0] else lowest, drawn[1]))

# Up to the 256 the kernels accept; 129 is one past a padded width (tiles of
# the head dim are powers of two).
HEAD_DIMS = (16, 1, 8, 24, 32, 40, 64, 72, 80, 96, 112, 128, 129, 160, 192, 256)
# Small primes: lengths no block size divides.
PRIMES = (3, 5, 7, 11, 13, 17, 31, 37, 67, 97, 127)
# An output cannot be broadcast: two elements would share one address.
OUT_NAMES = tuple(n for n in NAMES if not n.startswith("expand"))


def seq_lens(max_len: int = 130) -> st.SearchStrategy[int]:
    """Sequence lengths: tiny ones, block edges +-1, primes, and any length past
    one 64-row block (where a second query block starts), up to ``max_len``;
    one edge, prime or length past a block in ``SMALL_ODDS`` is any length up
    to it instead."""
    edges = sorted({e + d for e in BLOCK_EDGES for d in (-1, 0, 1) if 1 <= e + d <= max_len})
    options = [st.integers(1, min(8, max_len)), _one_of_values(edges)]
    primes = [p for p in PRIMES if p <= max_len]
    if primes:
        options.append(_one_of_values(primes))
    if max_len > 65:
        options.append(_within(65, max_len, (1, max_len)))
    return st.one_of(*options)


def windows(sq: int, sk: int, alignment: str = "bottom_right",
            ) -> st.SearchStrategy[tuple[int | None, int | None] | None]:
    """Sliding windows (left, right) for Sq queries over Sk keys, the causal
    diagonal where ``alignment`` puts it: sides of 0, 1, block edges +-1, a few
    keys, and as wide as the sequence or wider, or unlimited (None); never both
    unlimited (that is no window).  One side at a block edge or as wide as the
    sequence in ``SMALL_ODDS`` is any narrower one.  Or, half the time, a side
    that puts the band's edge one key either side of a key block's edge: the
    first key row 0 sees (a left side), or the last key the last row sees (a
    right side).  Kernels skip, plan and mask key blocks from those two keys,
    and a band one key past a block is where a block too few loses a key."""
    _known((alignment,), "alignment", ALIGNMENTS)
    longest = max(sq, sk)
    widths = [st.sampled_from([0, 1]), st.integers(0, max(2, longest // 4)),
              _one_of_values([e + d for e in BLOCK_EDGES[:3] for d in (-1, 0, 1)], 0),
              _one_of_values([max(0, longest - 1), longest, longest + 3], 0), st.none()]
    # Row 0's first key is at diagonal - left; the last row's last at
    # sq - 1 + diagonal + right (``reference.oracle.sees``).
    diagonal = offset(sq, sk, alignment)
    keys = sorted({e + d for e in BLOCK_EDGES for d in (-1, 0, 1) if 0 <= e + d < sk})
    sides = []
    for placed in ([diagonal - j for j in keys], [j - (sq - 1 + diagonal) for j in keys]):
        placed = sorted({n for n in placed if n >= 0})
        # Half of each side: the widths alone put a band's edge on a block's
        # edge in a few draws of a hundred, where key blocks are skipped or
        # planned by it.
        sides.append(fair_one_of(st.one_of(*widths), st.sampled_from(placed)) if placed
                     else st.one_of(*widths))
    return st.tuples(*sides).filter(lambda w: w != (None, None))


def head_dims(max_dim: int = 256) -> st.SearchStrategy[int]:
    """Head dims: powers of two and the odd ones real models use (24, 40, 72, ...)."""
    return st.sampled_from([d for d in HEAD_DIMS if d <= max_dim])


# Strides a dim of size one may have (``Layout.unit_stride``): 0, as ``expand``
# leaves; 1, which reads as the innermost dim's; 3, off every 16-byte multiple
# in every dtype.  In a quarter of the layouts drawn, simplest (as laid out) first.
UNIT_STRIDES = (None, None, None, 0, 1, 3)


def layouts(ndim: int = 4, names: tuple[str, ...] = NAMES) -> st.SearchStrategy[Layout]:
    """A named physical layout (see ``layouts``) with drawn step, padding and offset,
    and in a quarter of them a stride of their own on dims of size one."""
    return st.builds(
        lambda name, step, pad, front, unit: replace(
            named(name, ndim, step=step, pad=pad, front=front), unit_stride=unit),
        st.sampled_from(names),
        st.integers(2, 3),
        st.integers(1, 8),
        st.integers(1, 40),
        st.sampled_from(UNIT_STRIDES),
    )


def values(families: tuple[str, ...] = FAMILIES) -> st.SearchStrategy[Values]:
    """A value family, a magnitude from near-uniform (0.1) to saturating (10), a seed."""
    return st.builds(
        Values,
        family=st.sampled_from(families),
        scale=st.sampled_from([1.0, 0.1, 3.0, 10.0]),
        seed=st.integers(0, 2**31 - 1),
    )


def masks(
    alignments: tuple[str, ...] = ALIGNMENTS, *, noncausal: bool = True
) -> st.SearchStrategy[tuple[bool, str]]:
    """(causal, alignment): no mask (unless not ``noncausal``), bottom-right
    (KV-cache) or top-left causal, of the ``alignments`` given.

    One draw, not two independent booleans: the alignment of a non-causal case
    means nothing, and this keeps both causal kinds frequent.
    """
    causal = [(True, a) for a in alignments]
    if not noncausal and not causal:
        raise InvalidArgument("masks: no causal alignment and no non-causal mask to draw")
    return st.sampled_from(([(False, "bottom_right")] if noncausal else []) + causal)


def precisions(dtype: str) -> st.SearchStrategy[str]:
    """'ieee', plus 'tf32' for float32 where the backend has it."""
    if dtype == "float32" and backend.supports_tf32():
        return st.sampled_from(["ieee", "tf32"])
    return st.just("ieee")


IntArg = int | st.SearchStrategy[int] | None


def _drawn(
    value: object, name: str, default: st.SearchStrategy, *, low: int = 1
) -> st.SearchStrategy:
    """``value`` as a strategy: None is ``default``, a strategy is itself, an int is fixed."""
    if value is None:
        return default
    if isinstance(value, st.SearchStrategy):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name} must be an int, a strategy or None, got {value!r}")
    if value < low:
        raise InvalidArgument(f"{name} must be at least {low}, got {value}")
    return st.just(value)


def _positive(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgument(f"{name} must be a positive int, got {value!r}")
    return value


def _known(
    values: tuple[str, ...], name: str, known: tuple[str, ...], *, empty: bool = False
) -> tuple[str, ...]:
    values = tuple(values)
    unknown = [v for v in values if v not in known]
    if (not values and not empty) or unknown:
        raise InvalidArgument(f"{name} must be a non-empty selection of {', '.join(known)}, "
                              f"got {values!r}")
    return values

def _names_for(ndim: int, allowed: tuple[str, ...] = NAMES) -> tuple[str, ...]:
    """Layouts meaningful for an ndim tensor (head/batch layouts need 4 dims),
    among ``allowed``; contiguous if none is."""
    names = tuple(n for n in allowed if n in NAMES)
    if ndim != 4:
        names = tuple(n for n in names if not n.startswith(("expand", "bshd", "fused")))
    return names or ("contiguous",)


def _out_names(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in names if n in OUT_NAMES) or ("contiguous",)

