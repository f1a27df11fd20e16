"""Hypothesis strategies that draw case specs.

Each strategy is small and documented with what it generates; choices are
listed simplest first, so shrinking walks towards the smallest failing case
(one batch, one head, short sequences, head dim 16, contiguous, normal
values).  Sizes cluster around the kernels' block sizes (block - 1, block,
block + 1), where masking and loop-tail bugs live.  A draw that pins a floor
or a few values (a causal regime's lengths, a block edge, a length past a
block, a wide batch) is its small kind once in ``SMALL_ODDS``, which the
shrinker reaches in one step keeping what was drawn: no draw leaves a floor
under the smallest failing case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from . import backend, realistic_sizes, unsaturated
from .implementations.support import Support
from .model.cases import (
    ALIGNMENTS,
    DTYPES,
    ORDERS,
    AttentionCase,
    Case,
    MatmulCase,
    Serving,
    SoftmaxCase,
)
from .model.layouts import INDEX_VIEWS, NAMES, Layout, named
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
# Small primes: lengths no block size divides.
PRIMES = (3, 5, 7, 11, 13, 17, 31, 37, 67, 97, 127)
# An output cannot be broadcast: two elements would share one address.
OUT_NAMES = tuple(n for n in NAMES if not n.startswith("expand"))
# Qwen3 query/KV head counts.
QWEN3_HEADS = ((16, 8), (32, 8), (64, 8), (32, 4))
# Scales drawn, the default first: negative ones, and 0, which a kernel that
# reads a falsy scale as "the default" (``scale or D**-0.5``) gets wrong.
ATTENTION_SCALES = (None, 0.5, -0.5, 1.0, 0.125, 2.0, -2.0, 0.0)
MATMUL_SCALES = (1.0, 0.5, 3.0, -2.0, 0.0)
SOFTMAX_SCALES = (1.0, 0.5, 4.0, -1.0, 0.0)
# GQA groups, simplest first: not only powers of two (Qwen3-14B has 40 query
# heads over 8 KV heads, groups of 5), where a kernel's head mapping may assume one.
GROUPS = (1, 2, 3, 4, 5, 8)


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


def windows(sq: int, sk: int) -> st.SearchStrategy[tuple[int | None, int | None] | None]:
    """Sliding windows (left, right) for Sq queries over Sk keys: sides of 0, 1,
    block edges +-1, a few keys, and as wide as the sequence or wider, or
    unlimited (None); never both unlimited (that is no window).  One side at a
    block edge or as wide as the sequence in ``SMALL_ODDS`` is any narrower one."""
    longest = max(sq, sk)
    side = st.one_of(st.sampled_from([0, 1]), st.integers(0, max(2, longest // 4)),
                     _one_of_values([e + d for e in BLOCK_EDGES[:3] for d in (-1, 0, 1)], 0),
                     _one_of_values([max(0, longest - 1), longest, longest + 3], 0), st.none())
    return st.tuples(side, side).filter(lambda w: w != (None, None))


def head_dims(max_dim: int = 256) -> st.SearchStrategy[int]:
    """Head dims: powers of two and the odd ones real models use (24, 40, 72, ...)."""
    return st.sampled_from([d for d in HEAD_DIMS if d <= max_dim])


def layouts(ndim: int = 4, names: tuple[str, ...] = NAMES) -> st.SearchStrategy[Layout]:
    """A named physical layout (see ``layouts``) with drawn step, padding and offset."""
    return st.builds(
        lambda name, step, pad, front: named(name, ndim, step=step, pad=pad, front=front),
        st.sampled_from(names),
        st.integers(2, 3),
        st.integers(1, 8),
        st.integers(1, 40),
    )


def values(families: tuple[str, ...] = FAMILIES) -> st.SearchStrategy[Values]:
    """A value family, a magnitude from near-uniform (0.1) to saturating (10), a seed."""
    return st.builds(
        Values,
        family=st.sampled_from(families),
        scale=st.sampled_from([1.0, 0.1, 3.0, 10.0]),
        seed=st.integers(0, 2**31 - 1),
    )


# attention_cases takes arguments of these names, which shadow the strategies there.
_layouts, _values = layouts, values




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


def keys_covering_queries(c: AttentionCase) -> AttentionCase:
    """``c`` with 1 <= Sq <= Sk: the shorter length the queries, at least one."""
    sq = max(min(c.sq, c.sk), 1)
    return replace(c, sq=sq, sk=max(c.sq, c.sk, sq))


def attention_cases(
    dtype: str | st.SearchStrategy[str] = "float32",
    *,
    batch: IntArg = None,
    kv_heads: IntArg = None,
    group: IntArg = None,
    sq: IntArg = None,
    sk: IntArg = None,
    head_dim: IntArg = None,
    value_dim: IntArg = None,
    layouts: st.SearchStrategy[Layout] | Layout | None = None,
    values: st.SearchStrategy[Values] | Values | None = None,
    max_batch: int = 2,
    max_kv_heads: int = 3,
    groups: tuple[int, ...] = GROUPS,
    max_seq: int = 130,
    max_dim: int = 256,
    layout_names: tuple[str, ...] = NAMES,
    families: tuple[str, ...] = FAMILIES,
    alignments: tuple[str, ...] = ALIGNMENTS,
    decode: bool = False,
    support: Support | None = None,
    long: bool | None = None,
    wide: bool | None = None,
    window: bool | None = None,
    keys_cover_queries: bool = False,
    max_tiles: int | None = None,
    realistic: bool | None = None,
) -> st.SearchStrategy[AttentionCase]:
    """Attention cases: GQA ratio (1 = MHA; Hkv = 1 gives MQA), Sq != Sk both
    ways (Sk = 0 in one free draw in ten), Dv != D, causal with either
    alignment, a layout per tensor, values.

    Like ``hypothesis.extra.numpy.arrays``, each dimension (``batch``,
    ``kv_heads``, ``group``, ``sq``, ``sk``, ``head_dim``, ``value_dim``), the
    input ``layouts`` and the ``values`` take a fixed value or a strategy;
    None draws it from the default space, bounded by the ``max_*`` arguments,
    ``groups`` (``GROUPS``), ``layout_names`` and ``families``; causal masks take only the
    ``alignments`` given.  With ``decode``, Sq is mostly at most 16 (the decode
    path's regime), and Sk long enough for several key ranges.  A ``support`` declaration narrows
    all of these to the cases it admits.  With ``long`` (default: on a GPU)
    a few draws are far longer than ``max_seq``: ``LONG_LENGTHS`` for one head,
    or up to ``LONG_DECODE_KEYS`` keys with ``decode``, within the support's
    ``max_seq``.  With ``wide`` (default: on a GPU, when neither ``batch`` nor
    ``kv_heads`` is given) one draw in eight has a batch of up to 64 and up to
    40 KV heads over at most ``WIDE_ROWS`` rows and ``WIDE_KEYS`` keys.  With
    ``window`` (default: what the ``support`` declares), one draw in three
    has a sliding window (``windows``), with a right side half of those are
    not causal.  With ``keys_cover_queries``, 1 <= Sq <= Sk (a paged call's
    queries are its last Sq keys' tokens).  ``max_tiles`` (default: on the
    interpreter ``INTERPRETER_TILES``, when neither ``batch`` nor ``kv_heads``
    is given) caps B x Hq x ceil(Sq/64) x ceil(Sk/64) of the draws that are
    neither wide nor long by fewer KV heads, then a smaller batch (one of each
    at least).  With ``realistic`` (default: as ``wide``'s) one draw in
    ``realistic_sizes.ODDS`` has a model's sizes (``realistic_sizes.sizes``).  A masked
    case of the default values is drawn unsaturated (``unsaturated``).  Bad
    arguments raise ``InvalidArgument``.
    """
    free_values = values is None
    if isinstance(dtype, str):
        dtype = st.just(_known((dtype,), "dtype", tuple(DTYPES))[0])
    for name, bound in (("max_batch", max_batch), ("max_kv_heads", max_kv_heads),
                        ("max_seq", max_seq), ("max_dim", max_dim)):
        _positive(bound, name)
    for g in groups:
        _positive(g, "each of groups")
    names = _known(layout_names, "layout_names", NAMES)
    families = _known(families, "families", FAMILIES + ("grid",))
    # No alignment at all: a kernel without causal masks.
    alignments = _known(alignments, "alignments", ALIGNMENTS, empty=True)
    if support is not None:
        if not isinstance(support, Support):
            raise InvalidArgument(f"support must be a Support, got {type(support).__name__}")
        names = tuple(n for n in names if n in support.layouts)
        if not names:
            raise InvalidArgument(f"layout_names {layout_names!r} and the support's layouts "
                                  f"{support.layouts!r} have none in common")
        if not support.mixed_layouts:  # the one layout is the output's too
            names = tuple(n for n in names if n in OUT_NAMES)
            if not names:
                raise InvalidArgument(f"the support's layouts {support.layouts!r} have none an "
                                      "output can have, and it declares one shared layout")
        alignments = tuple(a for a in alignments if a in support.alignments)
        if support.causal == "only" and not alignments:
            raise InvalidArgument(f"alignments {alignments!r}: a causal-only support needs one "
                                  f"of {support.alignments!r}")
        if support.groups is not None:
            groups = tuple(g for g in groups if g in support.groups) or support.groups[:8]
        if support.max_seq is not None:
            max_seq = min(max_seq, support.max_seq)
        if support.head_dims is not None and head_dim is None:
            head_dim = _declared_dims(support.head_dims)
        if not support.cross and sk is None:
            sk = "same"
        if support.max_magnitude is not None:
            limit = support.max_magnitude
            values = (values or _values(families)).map(lambda v: replace(v, limit=limit))
    if isinstance(layouts, Layout):
        layouts = st.just(layouts)
    if isinstance(values, Values):
        values = st.just(values)
    fixed_lengths = sq is not None or sk is not None
    if long is None:
        long = not backend.interpreting()
    longest = support.max_seq if support is not None else None
    long_lengths = () if not long or fixed_lengths else tuple(
        n for n in LONG_LENGTHS if longest is None or n <= longest)
    same_dv = support is not None and not support.distinct_value_dim and value_dim is None
    if wide is None:
        wide = not backend.interpreting() and batch is None and kv_heads is None
    if realistic is None:
        realistic = not backend.interpreting() and batch is None and kv_heads is None
    if not isinstance(keys_cover_queries, bool):
        raise InvalidArgument(f"keys_cover_queries must be a bool, got {keys_cover_queries!r}")
    if window is None:
        window = support is not None and support.windows
    if max_tiles is None and backend.interpreting() and batch is None and kv_heads is None:
        max_tiles = INTERPRETER_TILES
    if max_tiles is not None:
        _positive(max_tiles, "max_tiles")
    drawn = _attention_cases(
        dtype,
        batch=_drawn(batch, "batch", st.integers(1, max_batch)),
        kv_heads=_drawn(kv_heads, "kv_heads", st.integers(1, max_kv_heads)),
        group=_drawn(group, "group", st.sampled_from(groups)),
        sq=_drawn(sq, "sq", _decode_rows(max_seq) if decode else seq_lens(max_seq), low=0),
        sk=sk if sk in (None, "same") else _drawn(sk, "sk", st.nothing(), low=0),
        head_dim=_drawn(head_dim, "head_dim", head_dims(max_dim)),
        value_dim="same" if same_dv else (
            None if value_dim is None else _drawn(value_dim, "value_dim", st.nothing())
        ),
        layouts=_layouts(4, _names_for(4, names)) if layouts is None else layouts,
        out_layouts=_layouts(4, _out_names(_names_for(4, names))),
        values=_values(families) if values is None else values,
        max_dim=max_dim,
        max_seq=max_seq,
        # Regimes need room past one 64-row block, lengths of their own and
        # bottom-right masks.
        regimes=not (fixed_lengths or max_seq < 68 or "bottom_right" not in alignments),
        masks=masks(alignments, noncausal=support is None or support.causal != "only"),
        decode=decode,
        support_dims=support is not None and support.head_dims is not None,
        long_lengths=long_lengths,
        wide=wide and not fixed_lengths,
        window=window,
        max_tiles=max_tiles,
        realistic=realistic_sizes.sizes(
            groups, same_lengths=sk == "same", longest=longest,
            decode_rows=_decode_rows(max_seq) if decode else None,
        ) if realistic and not fixed_lengths else None,
    )
    drawn = drawn.map(keys_covering_queries) if keys_cover_queries else drawn
    if support is not None:
        aligns = alignments or support.alignments
        drawn = drawn.map(lambda c: inside(c, support, aligns,
                                           keys_cover_queries=keys_cover_queries))
    return unsaturated.where_masked(drawn, families) if free_values else drawn


def _declared_dims(dims: tuple[int, ...]) -> st.SearchStrategy[int]:
    # A declared range is drawn at the dims models use (HEAD_DIMS) half the time.
    common = [d for d in HEAD_DIMS if d in dims]
    if len(dims) <= len(HEAD_DIMS) or not common:
        return st.sampled_from(dims)
    return st.one_of(st.sampled_from(common), st.sampled_from(dims))


def inside(
    case: AttentionCase, support: Support, alignments: tuple[str, ...] = ALIGNMENTS, *,
    keys_cover_queries: bool = False,
) -> AttentionCase:
    """``case`` moved inside the limits ``support`` declares that a draw does not
    narrow beforehand: lengths to the nearest admitted ones (``Support.fit_lengths``),
    a causal mask where only causal ones are (aligned as one of ``alignments``),
    the scale's sign or value, one shared layout."""
    sq, sk = support.fit_lengths(case.sq, case.sk, keys_cover_queries=keys_cover_queries)
    changes: dict[str, object] = {"sq": sq, "sk": sk}
    if support.causal == "only" and not case.causal:
        changes.update(causal=True, alignment=(alignments or support.alignments)[0])
    if case.scale is not None and support.scale == "default":
        changes["scale"] = None
    elif case.scale is not None and support.scale == "positive" and case.scale <= 0:
        changes["scale"] = -case.scale or None
    if not support.mixed_layouts:
        lay = case.q_layout
        changes.update(k_layout=lay, v_layout=lay, out_layout=lay)
    return replace(case, **changes)


@st.composite
def _attention_cases(
    draw: st.DrawFn, dtype, *, batch, kv_heads, group, sq, sk, head_dim, value_dim,
    layouts, out_layouts, values, max_dim, max_seq, regimes, masks, decode, support_dims,
    long_lengths, wide, window, max_tiles, realistic,
) -> AttentionCase:
    b, hkv, g = draw(batch), draw(kv_heads), draw(group)
    regime_names = DECODE_REGIMES if decode else REGIMES
    regime = draw(st.sampled_from(regime_names)) if regimes else "any"
    d = draw(head_dim)
    spread = False  # a wide or long draw: sized by budgets of its own
    if wide and draw(st.integers(0, 7)) == 7:
        spread = True
        b, hkv = draw(WIDE_BATCH), draw(WIDE_KV_HEADS)
        sq_ = draw(st.integers(1, min(WIDE_ROWS, max_seq)))
        room = max(1, min(WIDE_KEYS, max_seq, WIDE_LOGITS // (b * hkv * g * sq_)))
        sk_ = sq_ if sk == "same" else draw(st.integers(1, room))
        dv, (causal, alignment), scale = d, draw(masks), None
    # One draw in six is long where lengths allow it; one batch and KV head
    # keep the float64 oracle's probabilities near 100 MB.
    elif long_lengths and draw(st.integers(0, 5)) == 5:
        spread = True
        b, hkv = 1, 1
        lengths = _one_of_values(long_lengths)
        sq_ = draw(lengths) if not decode else draw(sq)
        sk_ = sq_ if sk == "same" else draw(lengths if not decode else _within(
            max(long_lengths), LONG_DECODE_KEYS, (1, LONG_DECODE_KEYS)))
        dv, (causal, alignment), scale = d, draw(masks), None
    elif realistic is not None and draw(st.integers(1, odds := realistic_sizes.ODDS)) == odds:
        spread = True
        b, hkv, g, sq_, sk_ = draw(realistic)
        dv, (causal, alignment), scale = d, draw(masks), None
    else:
        sq_ = draw(sq)
        sk_ = sq_ if sk == "same" else draw(sk if sk is not None else
                                            _key_lens(sq_, max_seq, decode))
        if sk is None and draw(st.integers(0, 9)) == 9:
            sk_ = 0  # no key at all: the launchers' early exit
        if value_dim == "same":
            dv = d
        else:
            # A declared set of head dims holds for Dv too.
            dims = head_dim if support_dims else head_dims(max_dim)
            dv = draw(value_dim if value_dim is not None else st.one_of(st.just(d), dims))
        causal, alignment = draw(masks)
        # Negative scales flip which logit is largest (max(c x) = c min(x), c < 0);
        # 0 makes every visible key equally likely, and is no "use the default".
        scale = draw(st.sampled_from(ATTENTION_SCALES))
        # A regime's case draws a free one's choices too, and a free case every
        # regime's: shrinking the regime (to "any" last) then leaves every later
        # choice where it was, and the case goes on shrinking in its new regime.
        if regimes:
            lengths = draw(_regime_lengths(
                regime_names, min(max_seq, DECODE_MAX_ROWS) if decode else max_seq))
            if regime != "any":
                sq_, sk_ = lengths[regime]
                dv, (causal, alignment), scale = d, (True, "bottom_right"), None
    if max_tiles is not None and not spread:
        b, hkv = _fit_tiles(b, hkv, g * _blocks(sq_) * _blocks(sk_), max_tiles)
    dt = draw(dtype)
    drawn_window = draw(windows(sq_, sk_)) if window and draw(st.integers(0, 2)) == 2 else None
    if drawn_window is not None and drawn_window[1] is not None and draw(st.booleans()):
        causal = False  # a causal mask would hide the window's right edge
    return AttentionCase(
        batch=b, hq=hkv * g, hkv=hkv, sq=sq_, sk=sk_, d=d, dv=dv,
        dtype=dt, input_precision=draw(precisions(dt)),
        causal=causal, alignment=alignment, scale=scale, window=drawn_window,
        q_layout=draw(layouts), k_layout=draw(layouts), v_layout=draw(layouts),
        values=draw(values), out_layout=draw(out_layouts),
    )


def _blocks(n: int) -> int:
    return max(1, -(-n // TILE))


def fit_tiles(case: AttentionCase, max_tiles: int) -> AttentionCase:
    """``case`` with its KV heads, then its batch, shrunk to fit ``max_tiles`` (batch,
    query head, 64-row block, 64-key block) tiles, as ``attention_cases`` fits a free
    draw; lengths, head dims, GQA group, layouts and values are kept.  For a test whose
    case costs several launches of another's on the interpreter."""
    _positive(max_tiles, "max_tiles")
    group = case.hq // case.hkv if case.hkv else 1
    b, hkv = _fit_tiles(case.batch, case.hkv, group * _blocks(case.sq) * _blocks(case.sk),
                        max_tiles)
    return replace(case, batch=b, hq=hkv * group, hkv=hkv)


def _fit_tiles(batch: int, kv_heads: int, per_kv_head: int, budget: int) -> tuple[int, int]:
    # Batch and KV-head bugs need two of either, so heads go first, to one.
    if batch * kv_heads * per_kv_head <= budget:
        return batch, kv_heads
    kv_heads = max(1, min(kv_heads, budget // (batch * per_kv_head)))
    return max(1, min(batch, budget // (kv_heads * per_kv_head))), kv_heads


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
    # Decode is few queries over many keys: half its draws are past two blocks.
    return st.one_of(longer, others) if decode else st.one_of(others, longer)


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
    # Lifted, lengths apart are both past one block and two or more apart;
    # unlifted, one or more apart from one key on (Sq = 2, Sk = 1 is the least).
    floor, gap = (64, 2) if draw(_lifted()) else (1, 1)
    long = draw(st.integers(floor + gap, max_seq))
    short = min(draw(st.integers(floor, max_seq - gap)), long - gap)
    lengths = {"any": (0, 0), "keys_past_queries": (short, long),
               "queries_past_keys": (long, short)}
    if "diagonal_at_edge" in regimes:
        edges = _one_of_values([e + d for e in BLOCK_EDGES for d in (-1, 0, 1)
                                if e + d <= max_seq])
        lengths["diagonal_at_edge"] = draw(edges), draw(edges)
    return lengths


def qwen3_examples(dtype: str, *, seq: int = 5) -> list[AttentionCase]:
    """Qwen3 attention shapes (head dim 128, 16/8 .. 64/8 heads) at a short length."""
    return [
        AttentionCase(hq=hq, hkv=hkv, sq=seq, sk=seq, d=128, dv=128, dtype=dtype, causal=True)
        for hq, hkv in QWEN3_HEADS
    ]


def _names_for(ndim: int, allowed: tuple[str, ...] = NAMES) -> tuple[str, ...]:
    """Layouts meaningful for an ndim tensor (head/batch layouts need 4 dims),
    among ``allowed``; contiguous if none is."""
    names = tuple(n for n in allowed if n in NAMES)
    if ndim != 4:
        names = tuple(n for n in names if not n.startswith(("expand", "bshd", "fused")))
    return names or ("contiguous",)


def _out_names(names: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(n for n in names if n in OUT_NAMES) or ("contiguous",)


@st.composite
def matmul_cases(
    draw: st.DrawFn,
    dtype: str = "float32",
    *,
    transpose_b: bool = False,
    max_size: int = 130,
    layout_names: tuple[str, ...] = NAMES,
    families: tuple[str, ...] = FAMILIES,
) -> MatmulCase:
    """``a @ b`` (or ``a @ b.T``): M, N, K at block edges, 0-2 batch dims, layouts."""
    batch = draw(st.sampled_from([(), (2,), (2, 3)]))
    nd = len(batch) + 2
    names = _names_for(nd, layout_names)
    lay = layouts(nd, names)
    return MatmulCase(
        m=draw(seq_lens(max_size)), n=draw(seq_lens(max_size)),
        # K = 0 in one draw in ten: an empty sum, which the launchers special-case.
        k=0 if draw(st.integers(0, 9)) == 9 else draw(seq_lens(max_size)),
        batch=batch, transpose_b=transpose_b, dtype=dtype,
        input_precision=draw(precisions(dtype)),
        scale=draw(st.sampled_from(MATMUL_SCALES)),
        a_layout=draw(lay), b_layout=draw(lay), out_layout=draw(layouts(nd, _out_names(names))),
        values=draw(values(families)),
    )


@st.composite
def softmax_cases(
    draw: st.DrawFn,
    dtype: str = "float32",
    *,
    max_len: int = 300,
    families: tuple[str, ...] = FAMILIES,
    layout_names: tuple[str, ...] = NAMES,
    window: bool = False,
) -> SoftmaxCase:
    """Softmax over (rows, N) or (B, H, rows, N), causal either way, layouts,
    values; with ``window``, one draw in three has a sliding window."""
    lead = draw(st.sampled_from([(), (2,), (2, 3)]))
    mask = draw(masks())
    rows = draw(seq_lens(64))
    # N < rows often: bottom-right causal rows then see no entry at all.  Tied
    # to the rows or pinned to max_len but once in SMALL_ODDS, so either shrinks
    # without the other.
    cols = draw(st.one_of(seq_lens(max_len), _within(1, max(1, rows - 1), (1, max(rows, max_len))),
                          _within(max_len, max_len, (1, max_len))))
    drawn_window = draw(windows(rows, cols)) if window and draw(st.integers(0, 2)) == 2 else None
    if drawn_window is not None and drawn_window[1] is not None and draw(st.booleans()):
        mask = (False, mask[1])  # a causal mask would hide the window's right edge
    shape = (*lead, rows, cols)
    nd = len(shape)
    names = _names_for(nd, layout_names)
    lay = layouts(nd, names)
    return SoftmaxCase(
        shape=shape, dtype=dtype, scale=draw(st.sampled_from(SOFTMAX_SCALES)),
        causal=mask[0], alignment=mask[1],
        window=drawn_window,
        x_layout=draw(lay), values=draw(values(families)),
        out_layout=draw(layouts(nd, _out_names(names))),
    )


def servings(layout_names: tuple[str, ...] = NAMES) -> st.SearchStrategy[Serving]:
    """How the serving property packs and pages a case (``cases.Serving``): the
    order of its sequences by length, guard sequences, a layout for each packed
    tensor and each cache, drawn apart (so k and v differ in strides as often
    as not), and the index tensors as views.  Of ``layout_names`` (a broadcast
    is no layout for a packed tensor or a cache); everything shrinks to the
    simple layout (contiguous, shortest first, no guard)."""
    names = tuple(n for n in _known(layout_names, "layout_names", NAMES)
                  if not n.startswith("expand")) or ("contiguous",)
    packed, cache = layouts(3, names), layouts(4, names)
    return st.builds(Serving, order=st.sampled_from(ORDERS), guards=st.booleans(),
                     q_layout=packed, k_layout=packed, v_layout=packed,
                     k_cache_layout=cache, v_cache_layout=cache,
                     index=st.sampled_from(INDEX_VIEWS))


def with_serving(
    cases: st.SearchStrategy[AttentionCase], layout_names: tuple[str, ...] = NAMES
) -> st.SearchStrategy[AttentionCase]:
    """``cases``, each with a serving layout drawn for it (see ``servings``)."""
    return st.tuples(cases, servings(layout_names)).map(
        lambda t: replace(t[0], serving=t[1]))


def call_options(
    choices: tuple[tuple[str, tuple], ...],
) -> st.SearchStrategy[tuple[tuple[str, object], ...]]:
    """Optional arguments of a call (``Implementation.options``): each drawn
    from its choices, the default first; a case keeps those that differ."""
    for name, values in choices:
        if not values:
            raise InvalidArgument(f"option {name!r} has no choices")

    def differing(drawn: tuple) -> tuple[tuple[str, object], ...]:
        return tuple((name, v) for (name, values), v in zip(choices, drawn, strict=True)
                     if v != values[0] or type(v) is not type(values[0]))

    return st.tuples(*(st.sampled_from(values) for _, values in choices)).map(differing)


def with_options(
    cases: st.SearchStrategy[Case], choices: tuple[tuple[str, tuple], ...]
) -> st.SearchStrategy[Case]:
    """``cases`` with optional arguments drawn for each (see ``call_options``)."""
    if not choices:
        return cases
    return st.tuples(cases, call_options(choices)).map(lambda t: replace(t[0], options=t[1]))


def backward_cases(
    cases: st.SearchStrategy[AttentionCase], layout_names: tuple[str, ...] = NAMES
) -> st.SearchStrategy[AttentionCase]:
    """Attention cases made backward cases: an upstream gradient dO in a drawn
    layout of its own (broadcasts too: the gradient of a sum is one)."""
    names = _names_for(4, _known(layout_names, "layout_names", NAMES))
    return st.tuples(cases, layouts(4, names)).map(
        lambda t: replace(t[0], backward=True, do_layout=t[1]))


def cases_for(
    op: str,
    dtype: str,
    *,
    decode: bool = False,
    max_len: int = 130,
    layout_names: tuple[str, ...] = NAMES,
    families: tuple[str, ...] = FAMILIES,
    alignments: tuple[str, ...] = ALIGNMENTS,
    support: Support | None = None,
    keys_cover_queries: bool = False,
) -> st.SearchStrategy[Case]:
    """The case strategy for an implementation of ``op``, optionally restricted to
    some layouts and value families (``checks.Property.cases`` chooses the options)
    and, for attention, to a declared ``support`` and to 1 <= Sq <= Sk."""
    if op not in CASES_BY_OP:
        raise InvalidArgument(f"op must be one of {', '.join(CASES_BY_OP)}, got {op!r}")
    cases = CASES_BY_OP[op](dtype, decode, max_len, layout_names, families, alignments, support)
    return cases.map(keys_covering_queries) if keys_cover_queries else cases


# (dtype, decode, max_len, layout names, families, alignments, support) -> cases, per op.
CASES_BY_OP = {
    "attention": lambda dtype, decode, max_len, names, fams, aligns, support: attention_cases(
        dtype, decode=decode, max_seq=max_len, layout_names=names, families=fams,
        alignments=aligns, support=support,
    ),
    "matmul": lambda dtype, decode, max_len, names, fams, aligns, support: matmul_cases(
        dtype, layout_names=names, families=fams
    ),
    "matmul_nt": lambda dtype, decode, max_len, names, fams, aligns, support: matmul_cases(
        dtype, transpose_b=True, layout_names=names, families=fams
    ),
    "softmax": lambda dtype, decode, max_len, names, fams, aligns, support: softmax_cases(
        dtype, layout_names=names, families=fams,
        window=support is not None and support.windows,
    ),
}
