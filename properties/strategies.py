"""Hypothesis strategies that draw case specs.

Each strategy is small and documented with what it generates; choices are
listed simplest first, so shrinking walks towards the smallest failing case
(one batch, one head, short sequences, head dim 16, contiguous, normal
values).  Sizes cluster around the kernels' block sizes (block - 1, block,
block + 1), where masking and loop-tail bugs live.
"""

from __future__ import annotations

from hypothesis import strategies as st

from properties import backend
from properties.cases import AttentionCase, MatmulCase, SoftmaxCase
from properties.layouts import NAMES, Layout, named
from properties.values import FAMILIES, Values

# Block edges used by the kernels on either backend (16 is tl.dot's minimum).
BLOCK_EDGES = (16, 32, 64, 128)
HEAD_DIMS = (16, 1, 8, 24, 32, 40, 64, 72, 80, 96, 112, 128)
# An output cannot be broadcast: two elements would share one address.
OUT_NAMES = tuple(n for n in NAMES if not n.startswith("expand"))
# Qwen3 query/KV head counts.
QWEN3_HEADS = ((16, 8), (32, 8), (64, 8), (32, 4))


def seq_lens(max_len: int = 130) -> st.SearchStrategy[int]:
    """Sequence lengths: tiny ones, block edges +-1, and any length past one
    64-row block (where a second query block starts), up to ``max_len``."""
    edges = sorted({e + d for e in BLOCK_EDGES for d in (-1, 0, 1) if 1 <= e + d <= max_len})
    options = [st.integers(1, min(8, max_len)), st.sampled_from(edges)]
    if max_len > 65:
        options.append(st.integers(65, max_len))
    return st.one_of(*options)


def head_dims(max_dim: int = 128) -> st.SearchStrategy[int]:
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


def masks() -> st.SearchStrategy[tuple[bool, str]]:
    """(causal, alignment): no mask, bottom-right (KV-cache) or top-left causal.

    One draw of three, not two independent booleans: the alignment of a
    non-causal case means nothing, and this keeps both causal kinds frequent.
    """
    return st.sampled_from([(False, "bottom_right"), (True, "bottom_right"), (True, "top_left")])


def precisions(dtype: str) -> st.SearchStrategy[str]:
    """'ieee', plus 'tf32' for float32 where the backend has it."""
    if dtype == "float32" and backend.supports_tf32():
        return st.sampled_from(["ieee", "tf32"])
    return st.just("ieee")


@st.composite
def attention_cases(
    draw: st.DrawFn,
    dtype: str = "float32",
    *,
    max_batch: int = 2,
    max_kv_heads: int = 2,
    groups: tuple[int, ...] = (1, 2, 4, 8),
    max_seq: int = 130,
    max_dim: int = 128,
    layout_names: tuple[str, ...] = NAMES,
    families: tuple[str, ...] = FAMILIES,
    decode: bool = False,
) -> AttentionCase:
    """An attention case: GQA ratio (1 = MHA; Hkv = 1 gives MQA), Sq != Sk both
    ways, Dv != D, causal with either alignment, a per-tensor layout, values.
    With ``decode``, Sq is at most 16 (the decode path's regime).
    """
    batch = draw(st.integers(1, max_batch))
    hkv = draw(st.integers(1, max_kv_heads))
    group = draw(st.sampled_from(groups))
    regime = "any" if decode or max_seq < 68 else draw(st.sampled_from(REGIMES))
    if regime != "any":
        return draw(_causal_regime(regime, batch, hkv, group, dtype, max_seq, max_dim,
                                   layout_names, families))  # fmt: skip
    sq = draw(st.integers(1, 16) if decode else seq_lens(max_seq))
    # Sk < Sq as often as Sk > Sq: bottom-right causal rows then see no key.
    # Decode splits the keys into ranges of whole 64-key blocks: long Sk often,
    # and past two blocks, so the merge sees three or more ranges (with two, a
    # merge run one range early still ends right on the interpreter, whose
    # programs run in order: the second merge overwrites the first).
    longer = st.integers(129, 5 * 64) if decode else st.integers(sq, max(sq, max_seq))
    # Sk a whole block or more below Sq: bottom-right causal query blocks then
    # start with keys that only some of their rows see.
    below = st.integers(min(64, sq), max(min(64, sq), sq - 2))
    sk = draw(st.one_of(st.just(sq), seq_lens(max_seq), st.integers(1, sq), longer, below))
    d = draw(head_dims(max_dim))
    dv = draw(st.one_of(st.just(d), head_dims(max_dim)))
    causal, alignment = draw(masks())
    # Negative scales flip which logit is largest (max(c x) = c min(x), c < 0).
    scale = draw(st.sampled_from([None, 0.5, -0.5, 1.0, 0.125, 2.0, -2.0]))
    lay = layouts(4, layout_names)
    return AttentionCase(
        batch=batch, hq=hkv * group, hkv=hkv, sq=sq, sk=sk, d=d, dv=dv,
        dtype=dtype, input_precision=draw(precisions(dtype)),
        causal=causal, alignment=alignment, scale=scale,
        q_layout=draw(lay), k_layout=draw(lay), v_layout=draw(lay),
        values=draw(values(families)), out_layout=draw(layouts(4, _out_names(layout_names))),
    )  # fmt: skip


# Causal regimes that a free draw reaches too rarely: bottom-right masks with
# Sq and Sk more than a block apart, where a query block starts part-way into
# the keys.  "queries_past_keys": Sq > Sk (early rows see no key at all);
# "keys_past_queries": Sk > Sq (a chunk of queries over a longer KV cache).
REGIMES = ("any", "queries_past_keys", "keys_past_queries")


@st.composite
def _causal_regime(draw, regime, batch, hkv, group, dtype, max_seq, max_dim, names, families):
    long, short = draw(st.integers(66, max_seq)), draw(st.integers(64, max_seq - 2))
    short = min(short, long - 2)
    sq, sk = (long, short) if regime == "queries_past_keys" else (short, long)
    d = draw(head_dims(max_dim))
    lay = layouts(4, names)
    return AttentionCase(
        batch=batch, hq=hkv * group, hkv=hkv, sq=sq, sk=sk, d=d, dv=d,
        dtype=dtype, input_precision=draw(precisions(dtype)),
        causal=True, alignment="bottom_right", scale=None,
        q_layout=draw(lay), k_layout=draw(lay), v_layout=draw(lay),
        values=draw(values(families)), out_layout=draw(layouts(4, _out_names(names))),
    )  # fmt: skip


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
        m=draw(seq_lens(max_size)), n=draw(seq_lens(max_size)), k=draw(seq_lens(max_size)),
        batch=batch, transpose_b=transpose_b, dtype=dtype,
        input_precision=draw(precisions(dtype)),
        scale=draw(st.sampled_from([1.0, 0.5, 3.0, -2.0])),
        a_layout=draw(lay), b_layout=draw(lay), out_layout=draw(layouts(nd, _out_names(names))),
        values=draw(values(families)),
    )  # fmt: skip


@st.composite
def softmax_cases(
    draw: st.DrawFn,
    dtype: str = "float32",
    *,
    max_len: int = 300,
    families: tuple[str, ...] = FAMILIES,
    layout_names: tuple[str, ...] = NAMES,
) -> SoftmaxCase:
    """Softmax over (rows, N) or (B, H, rows, N), causal either way, layouts, values."""
    lead = draw(st.sampled_from([(), (2,), (2, 3)]))
    mask = draw(masks())
    rows = draw(seq_lens(64))
    # N < rows often: bottom-right causal rows then see no entry at all.
    cols = draw(st.one_of(seq_lens(max_len), st.integers(1, max(1, rows - 1)), st.just(max_len)))
    shape = (*lead, rows, cols)
    nd = len(shape)
    names = _names_for(nd, layout_names)
    lay = layouts(nd, names)
    return SoftmaxCase(
        shape=shape, dtype=dtype, scale=draw(st.sampled_from([1.0, 0.5, 4.0, -1.0])),
        causal=mask[0], alignment=mask[1],
        x_layout=draw(lay), values=draw(values(families)),
        out_layout=draw(layouts(nd, _out_names(names))),
    )  # fmt: skip


def for_property(
    prop: str,
    impl: str,
    dtype: str,
    *,
    layout_names: tuple[str, ...] = NAMES,
    families: tuple[str, ...] = FAMILIES,
) -> st.SearchStrategy:
    """The case strategy a property uses for an implementation (tests, CLI, mutants),
    optionally restricted to some layouts and value families."""
    if impl in ("matmul", "matmul_nt"):
        return matmul_cases(dtype, transpose_b=impl == "matmul_nt", layout_names=layout_names,
                            families=families)  # fmt: skip
    if impl == "softmax":
        fams = ("grid",) if prop == "shift_invariance" else families
        return softmax_cases(dtype, families=fams, layout_names=layout_names)
    names = _names_for(4, layout_names)
    if impl == "decode":
        return attention_cases(dtype, decode=True, layout_names=names, families=families)
    return attention_cases(dtype, max_seq=70 if prop == "metamorphic" else 130,
                           layout_names=names, families=families)  # fmt: skip
