"""Realistic sizes: the lengths and head counts models run, for compiled kernels.

The default draws are short (the float64 oracle and the interpreter), and the
long and wide ones are one head over a thousand rows or many heads over a
few rows.  What a model runs is both at once: a prompt of 512 to 4k tokens
over 16 to 64 query heads.  Only there does a persistent grid (one program
per SM, each taking row tiles in turn: ``hopper_prefill``'s) give each
program several tiles, so that a tile's state left over from the one
before, or a tile counter off by one, shows: 1k rows by 48 heads is 384
tiles of 128 rows on an H100's 132 SMs, three a program.

``sizes`` draws (batch, KV heads, group, Sq, Sk) there; ``attention_cases``
draws one case in ``ODDS`` with it on a GPU, never on the interpreter (a
case of 2^23 logits is hours there).  The oracle and the gradients' bounds
hold many float64 (B, Hq, Sq, Sk) tensors at once: at 2^25 elements each
(256 MiB), a worker held up to 18 GiB on an H100, and eight workers sharing
its 80 GiB ran out.  ``BUDGET`` elements (64 MiB each) keep a case's oracle
within a few GiB, one worker's share of the GPU.  Keys are cut to fit it,
rows first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from hypothesis import strategies as st

# B * Hq * Sq * Sk at most: 64 MiB per float64 tensor of the oracle.
BUDGET = 2**23
# Prompt lengths: powers of two, one past and one short of them, and any in between.
SEQ_RANGE = (512, 4096)
SEQ_EDGES = (512, 1024, 2048, 4096, 511, 1025, 2047, 4095)
# Query heads: 16 to 64, as models' attention layers have.
HEADS = (16, 64)
# Decode: caches of a prompt's length and longer (the split kernel's plans).
DECODE_KEYS = (512, 16384)
# One draw in ODDS (of those neither wide nor long) has these sizes.
ODDS = 8
# What ``persistent_tiles`` counts with: an H100's SMs and the row tile of
# the persistent Hopper kernel (BLOCK_M).
SMS = 132
ROW_TILE = 128


def _lengths(low: int, high: int) -> st.SearchStrategy[int]:
    edges = [n for n in SEQ_EDGES if low <= n <= high]
    anywhere = st.integers(low, high)
    return st.one_of(st.sampled_from(edges), anywhere) if edges else anywhere


@st.composite
def sizes(
    draw: st.DrawFn, groups: Sequence[int], *, same_lengths: bool = False,
    decode_rows: st.SearchStrategy[int] | None = None, longest: int | None = None,
) -> tuple[int, int, int, int, int]:
    """(batch, KV heads, group, Sq, Sk): Hq = KV heads x group in ``HEADS``
    (a group of ``groups``), Sq in ``SEQ_RANGE`` (from ``decode_rows`` for a
    decode kernel, with Sk in ``DECODE_KEYS``), Sk as long unless
    ``same_lengths``, all within ``BUDGET`` and ``longest`` (a declared
    maximum length)."""
    group = draw(st.sampled_from(tuple(groups)))
    low_heads = max(1, -(-HEADS[0] // group))
    kv_heads = draw(st.integers(low_heads, max(low_heads, HEADS[1] // group)))
    hq = kv_heads * group
    batch = draw(st.integers(1, 2))
    top = SEQ_RANGE[1] if longest is None else min(SEQ_RANGE[1], longest)
    if decode_rows is not None:
        sq = draw(decode_rows)
        keys_top = DECODE_KEYS[1] if longest is None else min(DECODE_KEYS[1], longest)
        sk = draw(_lengths(min(DECODE_KEYS[0], keys_top), keys_top))
    else:
        sq = draw(_lengths(min(SEQ_RANGE[0], top), top))
        sk = sq if same_lengths else draw(_lengths(min(SEQ_RANGE[0], top), top))
    if same_lengths:  # Sq = Sk: both cut to fit, to the budget's square root
        sq = min(sq, max(1, math.isqrt(BUDGET // (batch * hq))))
        return batch, kv_heads, group, sq, sq
    return batch, kv_heads, group, sq, max(1, min(sk, BUDGET // max(1, batch * hq * sq)))


def persistent_tiles(batch: int, hq: int, sq: int) -> float:
    """Row tiles per program of a persistent grid of ``SMS`` programs (at least one)."""
    tiles = batch * hq * -(-sq // ROW_TILE)
    return tiles / min(tiles, SMS) if tiles else 0.0


def is_realistic(batch: int, hq: int, sq: int, sk: int) -> bool:
    """Whether a case has this module's sizes: 16 heads or more over 512 rows or
    more (a decode case: over 512 keys or more)."""
    return hq >= HEADS[0] and max(sq, sk) >= SEQ_RANGE[0] and batch * hq * sq * sk <= BUDGET
