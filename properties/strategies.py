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

This module draws attention cases and is the one import path of every case
strategy; beside it, by responsibility: ``strategy_parts`` (the building
blocks: lifted draws, lengths, windows, head dims, layouts, values, masks,
argument checks), ``strategy_regimes`` (long and wide draws, causal regimes,
decode's lengths, tile budgets), ``strategy_tensors`` (matmul and softmax
cases) and ``strategy_wrappers`` (serving layouts, call options, backward).
"""

from __future__ import annotations

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
from .strategy_parts import (
    BLOCK_EDGES,
    HEAD_DIMS,
    OUT_NAMES,
    PRIMES,
    SMALL_ODDS,
    IntArg,
    _drawn,
    _known,
    _names_for,
    _one_of_values,
    _out_names,
    _positive,
    _within,
    head_dims,
    layouts,
    masks,
    precisions,
    seq_lens,
    values,
    windows,
)
from .strategy_regimes import (
    DECODE_MAX_ROWS,
    DECODE_REGIMES,
    INTERPRETER_TILES,
    LONG_DECODE_KEYS,
    LONG_LENGTHS,
    REGIMES,
    TILE,
    WIDE_BATCH,
    WIDE_KEYS,
    WIDE_KV_HEADS,
    WIDE_LOGITS,
    WIDE_ROWS,
    _blocks,
    _decode_rows,
    _fit_tiles,
    _key_lens,
    _regime_lengths,
    fit_tiles,
)
from .strategy_tensors import (
    MATMUL_SCALES,
    SOFTMAX_SCALES,
    matmul_cases,
    softmax_cases,
)
from .strategy_wrappers import (
    backward_cases,
    call_options,
    servings,
    with_options,
    with_serving,
)

# Qwen3 query/KV head counts.
QWEN3_HEADS = ((16, 8), (32, 8), (64, 8), (32, 4))
# Scales drawn, the default first: negative ones, and 0, which a kernel that
# reads a falsy scale as "the default" (``scale or D**-0.5``) gets wrong.
ATTENTION_SCALES = (None, 0.5, -0.5, 1.0, 0.125, 2.0, -2.0, 0.0)
# GQA groups, simplest first: not only powers of two (Qwen3-14B has 40 query
# heads over 8 KV heads, groups of 5), where a kernel's head mapping may assume one.
GROUPS = (1, 2, 3, 4, 5, 8)

# attention_cases takes arguments of these names, which shadow the strategies there.
_layouts, _values = layouts, values


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
    has a sliding window (``windows``), two in three with ``decode``, with a
    right side half of those are not causal.  With ``keys_cover_queries``,
    1 <= Sq <= Sk (a paged call's queries are its last Sq keys' tokens).
    ``max_tiles`` (default: on the interpreter ``INTERPRETER_TILES``, when
    neither ``batch`` nor ``kv_heads`` is given) caps B x Hq x ceil(Sq/64) x
    ceil(Sk/64) of the draws that are neither wide nor long by fewer KV heads,
    then a smaller batch (one of each at least), then a smaller GQA group (two
    at least).  With ``realistic`` (default: as ``wide``'s) one draw in
    ``realistic_sizes.ODDS`` has a model's sizes (``realistic_sizes.sizes``).
    A masked case of the default values is drawn unsaturated
    (``unsaturated``).  Bad arguments raise ``InvalidArgument``.
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
    # Negative scales flip which logit is largest (max(c x) = c min(x), c < 0);
    # 0 makes every visible key equally likely, and is no "use the default".
    # Drawn for every kind of case below: a scale is a multiplier whatever
    # the sizes, regime or mask, and an edge drawn in one branch alone is
    # seen in a few examples of a hundred.
    scale = draw(st.sampled_from(ATTENTION_SCALES))
    spread = False  # a wide or long draw: sized by budgets of its own
    if wide and draw(st.integers(0, 7)) == 7:
        spread = True
        b, hkv = draw(WIDE_BATCH), draw(WIDE_KV_HEADS)
        sq_ = draw(st.integers(1, min(WIDE_ROWS, max_seq)))
        room = max(1, min(WIDE_KEYS, max_seq, WIDE_LOGITS // (b * hkv * g * sq_)))
        sk_ = sq_ if sk == "same" else draw(st.integers(1, room))
        dv, (causal, alignment) = d, draw(masks)
    # One draw in six is long where lengths allow it; one batch and KV head
    # keep the float64 oracle's probabilities near 100 MB.
    elif long_lengths and draw(st.integers(0, 5)) == 5:
        spread = True
        b, hkv = 1, 1
        lengths = _one_of_values(long_lengths)
        sq_ = draw(lengths) if not decode else draw(sq)
        sk_ = sq_ if sk == "same" else draw(lengths if not decode else _within(
            max(long_lengths), LONG_DECODE_KEYS, (1, LONG_DECODE_KEYS)))
        dv, (causal, alignment) = d, draw(masks)
    elif realistic is not None and draw(st.integers(1, odds := realistic_sizes.ODDS)) == odds:
        spread = True
        b, hkv, g, sq_, sk_ = draw(realistic)
        dv, (causal, alignment) = d, draw(masks)
    else:
        sq_ = draw(sq)
        sk_ = sq_ if sk == "same" else draw(sk if sk is not None else
                                            _key_lens(sq_, max_seq, decode))
        if value_dim == "same":
            dv = d
        else:
            # A declared set of head dims holds for Dv too.
            dims = head_dim if support_dims else head_dims(max_dim)
            dv = draw(value_dim if value_dim is not None else st.one_of(st.just(d), dims))
        causal, alignment = draw(masks)
        # A regime's case draws a free one's choices too, and a free case every
        # regime's: shrinking the regime (to "any" last) then leaves every later
        # choice where it was, and the case goes on shrinking in its new regime.
        if regimes:
            lengths = draw(_regime_lengths(
                regime_names, min(max_seq, DECODE_MAX_ROWS) if decode else max_seq))
            if regime != "any":
                sq_, sk_ = lengths[regime]
                dv, (causal, alignment) = d, (True, "bottom_right")
        # No key at all (the launchers' early exit), in a regime's case too.
        if sk is None and draw(st.integers(0, 9)) == 9:
            sk_ = 0
    if max_tiles is not None and not spread:
        b, hkv, g = _fit_tiles(b, hkv, g, _blocks(sq_) * _blocks(sk_), max_tiles)
    dt = draw(dtype)
    # Decode is where a window changes the kernel's plan (which key ranges it
    # splits over), and a window cuts a decode's keys only where its band
    # starts inside them: at one draw in three a plan that drops the band's
    # first partial block went unseen in 60 examples at one seed in six.
    windowed = window and draw(st.integers(0, 2)) >= (1 if decode else 2)
    drawn_window = draw(windows(sq_, sk_, alignment)) if windowed else None
    if drawn_window is not None and drawn_window[1] is not None and draw(st.booleans()):
        causal = False  # a causal mask would hide the window's right edge
    return AttentionCase(
        batch=b, hq=hkv * g, hkv=hkv, sq=sq_, sk=sk_, d=d, dv=dv,
        dtype=dt, input_precision=draw(precisions(dt)),
        causal=causal, alignment=alignment, scale=scale, window=drawn_window,
        q_layout=draw(layouts), k_layout=draw(layouts), v_layout=draw(layouts),
        values=draw(values), out_layout=draw(out_layouts),
    )


def qwen3_examples(dtype: str, *, seq: int = 5) -> list[AttentionCase]:
    """Qwen3 attention shapes (head dim 128, 16/8 .. 64/8 heads) at a short length."""
    return [
        AttentionCase(hq=hq, hkv=hkv, sq=seq, sk=seq, d=128, dv=128, dtype=dtype, causal=True)
        for hq, hkv in QWEN3_HEADS
    ]


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


# The strategies' one import path: what the modules beside this one define is
# reached from here, and so are the case types and names a strategy's
# arguments take.
__all__ = [
    "ALIGNMENTS", "ATTENTION_SCALES", "BLOCK_EDGES", "CASES_BY_OP", "DECODE_MAX_ROWS",
    "DECODE_REGIMES", "DTYPES", "FAMILIES", "GROUPS", "HEAD_DIMS", "INDEX_VIEWS",
    "INTERPRETER_TILES", "LONG_DECODE_KEYS", "LONG_LENGTHS", "MATMUL_SCALES", "NAMES", "ORDERS",
    "OUT_NAMES", "PRIMES", "QWEN3_HEADS", "REGIMES", "SMALL_ODDS", "SOFTMAX_SCALES", "TILE",
    "WIDE_BATCH", "WIDE_KEYS", "WIDE_KV_HEADS", "WIDE_LOGITS", "WIDE_ROWS", "AttentionCase",
    "Case", "IntArg", "Layout", "MatmulCase", "Serving", "SoftmaxCase", "Support", "Values",
    "attention_cases", "backward_cases", "call_options", "cases_for", "fit_tiles", "head_dims",
    "inside", "keys_covering_queries", "layouts", "masks", "matmul_cases", "named", "precisions",
    "qwen3_examples", "seq_lens", "servings", "softmax_cases", "values", "windows",
    "with_options", "with_serving",
]
