"""Lengths and sizes a free draw reaches too rarely, and the budgets that keep
draws affordable: long and wide draws, causal regimes of lengths more than a
block apart, decode's rows and keys, and the interpreter's tile budget."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from .model.cases import AttentionCase
from .strategy_parts import (
    BLOCK_EDGES,
    _lifted,
    _one_of_values,
    _positive,
    _within,
    fair_one_of,
    seq_lens,
)

# Lengths that only a GPU affords (the oracle is float64 on the CPU): past
# where the compiled prefill starts autotuning (``TUNE_MIN_SEQ`` = 512), and
# decode caches long enough for the kernel's own split plan (256 or more keys
# a range) to choose several ranges.
LONG_LENGTHS = (511, 512, 513, 577, 1024, 1031)
LONG_DECODE_KEYS = 4099
# Wide draws: many (batch, KV head) programs over few rows and keys, as a
# batch of decodes or a model of 40 heads launches.  Grids and per-tile
# buffers sized by B * Hkv * tiles (merge counters, split partials) pass a
# thousand only here (in about a third of them: the edges are drawn half the
# time).  The oracle's logits stay under WIDE_LOGITS.
WIDE_BATCH = st.one_of(_within(9, 48, (1, 48)), _one_of_values([33, 64]))
WIDE_KV_HEADS = st.one_of(_within(5, 40, (1, 40)), _one_of_values([31, 32, 40]))
WIDE_ROWS = 16
WIDE_KEYS = 129
WIDE_LOGITS = 2**23
# On the interpreter a case costs about its (batch, query head, 64-row block,
# 64-key block) tiles, one program-iteration each (ms apiece), and a metamorphic
# case is a dozen launches: the tenth of free draws with 48 to 192 tiles was
# most of CI's time, and a seed with several of them tripled it.  There a
# free draw's KV heads, then its batch, shrink to fit ``INTERPRETER_TILES``
# (the median draw's): lengths, head dims and GQA groups are kept, and small
# cases keep both.  (At 32 the suite still took 15 minutes under one seed.)
INTERPRETER_TILES = 16
TILE = 64


def _blocks(n: int) -> int:
    return max(1, -(-n // TILE))


def fit_tiles(case: AttentionCase, max_tiles: int) -> AttentionCase:
    """``case`` with its KV heads, then its batch, then its GQA group (to two at
    the least) shrunk to fit ``max_tiles`` (batch, query head, 64-row block, 64-key
    block) tiles, as ``attention_cases`` fits a free draw; lengths, head dims,
    layouts and values are kept.  For a test whose case costs several launches of
    another's on the interpreter."""
    _positive(max_tiles, "max_tiles")
    group = case.hq // case.hkv if case.hkv else 1
    b, hkv, group = _fit_tiles(case.batch, case.hkv, group,
                               _blocks(case.sq) * _blocks(case.sk), max_tiles)
    return replace(case, batch=b, hq=hkv * group, hkv=hkv)


def _fit_tiles(batch: int, kv_heads: int, group: int, per_head: int,
               budget: int) -> tuple[int, int, int]:
    """(batch, KV heads, group) within ``budget`` tiles of ``per_head`` each where
    they can be.  Batch and KV-head bugs need two of either, so KV heads go first,
    to one, then the batch.  The group goes last and keeps two query heads on a KV
    head: a grouped case of one query head is an ungrouped one.  So past the budget
    is only a batch of one KV head with one or two query heads, at lengths of
    several blocks (a group of eight kept all eight there)."""
    if batch * kv_heads * group * per_head <= budget:
        return batch, kv_heads, group
    kv_heads = max(1, min(kv_heads, budget // (batch * group * per_head)))
    batch = max(1, min(batch, budget // (kv_heads * group * per_head)))
    if group > 2:
        group = max(2, min(group, budget // (batch * kv_heads * per_head)))
    return batch, kv_heads, group


def _decode_rows(max_seq: int) -> st.SearchStrategy[int]:
    # flash_decode tiles any Sq: longer ones over fewer keys give rows that
    # see no key inside a split merge.
    few = st.integers(1, min(16, max_seq))
    if max_seq <= 16:
        return few
    # One draw in four: the decode regime stays the common one.
    top = min(max_seq, DECODE_MAX_ROWS)
    longer = _within(17, top, (1, top))
    return st.integers(0, 3).flatmap(lambda i: longer if i == 3 else few)


def _key_lens(sq: int, max_seq: int, decode: bool) -> st.SearchStrategy[int]:
    # Sk < Sq as often as Sk > Sq: bottom-right causal rows then see no key.
    # Decode splits the keys into ranges of whole 64-key blocks: long Sk often,
    # and past two blocks, so the merge sees three or more ranges (with two, a
    # merge run one range early still ends right on the interpreter, whose
    # programs run in order: the second merge overwrites the first).
    # A length tied to Sq (equal, at most or at least Sq) is free once in
    # SMALL_ODDS: a case then shrinks Sq without Sk, or Sk without Sq.
    free = (1, max(sq, max_seq))
    longer = (_within(129, 5 * 64, (1, 5 * 64)) if decode
              else _within(sq, max(sq, max_seq), free))
    # Sk a whole block or more below Sq: bottom-right causal query blocks then
    # start with keys that only some of their rows see.
    below = _within(min(64, sq), max(min(64, sq), sq - 2), free)
    others = st.one_of(_within(sq, sq, free), seq_lens(max_seq), _within(1, max(sq, 1), free),
                       below)
    # Decode is few queries over many keys: half its draws are past two blocks
    # (``fair_one_of``: ``others`` holds several branches of its own).
    return fair_one_of(longer, others) if decode else st.one_of(others, longer)


# Causal regimes that a free draw reaches too rarely: bottom-right masks with
# Sq and Sk more than a block apart, where a query block starts part-way into
# the keys.  "keys_past_queries": Sk > Sq (a chunk of queries over a longer KV
# cache); "queries_past_keys": Sq > Sk (early rows see no key at all).
# "diagonal_at_edge": Sq and Sk at block edges +-1, so that the diagonal
# through a query block's last row ends on, just before or just past a key
# block's edge, where a loop bound or block skip off by one shows.  Simplest
# first, as Hypothesis shrinks the choice: the two regimes of lengths apart read
# the same choices (swapped), so a case of Sq > Sk can shrink to Sq < Sk.
REGIMES = ("any", "keys_past_queries", "queries_past_keys", "diagonal_at_edge")
# Decode: one draw in four has more queries than keys, past one key block,
# so a split merge meets rows that see no key at all.
DECODE_REGIMES = ("any", "any", "any", "queries_past_keys")
# Decode rows stop here: past one 64-key block is all a merge needs, and the
# decode kernel packs GQA groups of rows into tiles, so long Sq is costly.
DECODE_MAX_ROWS = 80


@st.composite
def _regime_lengths(
    draw: st.DrawFn, regimes: tuple[str, ...], max_seq: int
) -> dict[str, tuple[int, int]]:
    # (Sq, Sk) of every regime of ``regimes``, drawn whichever is used.
    # Lifted, lengths apart are both past one block and two or more apart, or
    # (half of them, where lengths reach) a whole block or more apart: then a
    # query block's every row sees no key (Sq > Sk), or every row sees a whole
    # key block (Sk > Sq), which no draw within a block of each other makes.
    # Unlifted, one or more apart from one key on (Sq = 2, Sk = 1 is the least).
    lifted = draw(_lifted())
    if lifted and max_seq > 64 and draw(st.booleans()):
        long = draw(st.integers(65, max_seq))
        short = draw(st.integers(1, long - 64))
    else:
        floor, gap = (64, 2) if lifted else (1, 1)
        long = draw(st.integers(floor + gap, max_seq))
        short = min(draw(st.integers(floor, max_seq - gap)), long - gap)
    lengths = {"any": (0, 0), "keys_past_queries": (short, long),
               "queries_past_keys": (long, short)}
    if "diagonal_at_edge" in regimes:
        edges = _one_of_values([e + d for e in BLOCK_EDGES for d in (-1, 0, 1)
                                if e + d <= max_seq])
        lengths["diagonal_at_edge"] = draw(edges), draw(edges)
    return lengths
