"""Cases just outside a declared support: what an implementation must refuse, or
answer right (the ``refuses`` property).

Each entry breaks one declared limit of an admitted case: whether it can
(given the support and the causal alignments the convention can express),
and the broken case.  Sizes past ``max_seq`` are drawn only where they stay
cheap: one past the limit, up to ``OUTSIDE_MAX_SEQ`` keys.
"""

from __future__ import annotations

import math
from dataclasses import replace

import torch
from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from . import backend
from .implementations.support import Support
from .model.cases import ALIGNMENTS, DTYPES, AttentionCase
from .model.layouts import NAMES, Layout, materialize, named
from .model.pages import PAGE_SIZES
from .strategies import (
    HEAD_DIMS,
    attention_cases,
    inside,
    keys_covering_queries,
    layouts,
)
from .strategy_parts import _known

OUTSIDE_MAX_SEQ = 4096


def _other_dtypes(s: Support) -> list[str]:
    # bfloat16 is wrong in Triton's interpreter: an answer there proves nothing.
    usable = DTYPES if backend.supports_bf16() else tuple(d for d in DTYPES if d != "bfloat16")
    return [d for d in usable if d not in s.dtypes]


def _other_dims(s: Support) -> list[int]:
    # The dims models use, and those just past each end of a declared range.
    if s.head_dims is None:
        return []
    edges = {s.head_dims[0] - 1, s.head_dims[-1] + 1}
    edges |= {d + 1 for d in s.head_dims} | {d - 1 for d in s.head_dims}
    near = sorted(d for d in edges if 1 <= d <= HEAD_DIMS[-1] + 1 and d not in s.head_dims)
    return [d for d in HEAD_DIMS if d not in s.head_dims] + [d for d in near[:4] + near[-4:]
                                                              if d not in HEAD_DIMS]


def _broken_dtype(draw, c, s, ex, cover=False):
    return replace(c, dtype=draw(st.sampled_from(_other_dtypes(s))), input_precision="ieee")


def _broken_head_dim(draw, c, s, ex, cover=False):
    d = draw(st.sampled_from(_other_dims(s)))
    return replace(c, d=d, dv=d if c.dv == c.d else c.dv)


def _value_dims(s: Support) -> tuple[int, ...]:
    # Dv other than D within the declared head dims (a Dv outside them breaks those).
    return HEAD_DIMS if s.head_dims is None else s.head_dims[:16]


def _broken_value_dim(draw, c, s, ex, cover=False):
    return replace(c, dv=draw(st.sampled_from([d for d in _value_dims(s) if d != c.d])))


def _broken_gqa(draw, c, s, ex, cover=False):
    return replace(c, hq=c.hkv * draw(st.sampled_from([2, 4, 5])))


def _other_groups(s: Support) -> list[int]:
    # Just past each end of the declared group sizes, and in a gap between them.
    if s.groups is None or not s.gqa:
        return []
    edges = {s.groups[0] - 1, s.groups[-1] + 1} | {g + 1 for g in s.groups}
    return sorted(g for g in edges if g >= 1 and g not in s.groups)[:4]


def _broken_group(draw, c, s, ex, cover=False):
    return replace(c, hq=c.hkv * draw(st.sampled_from(_other_groups(s))))


def _broken_causal(draw, c, s, ex, cover=False):
    return replace(c, causal=False)


def _declared_layouts(s: Support) -> list[Layout]:
    # Each declared layout name at two steps and paddings: some differ in strides.
    return [named(n, 4, step=step, pad=pad) for n in s.layouts for step, pad in ((2, 1), (3, 4))]


def _strides_on(lay: Layout, shape: tuple[int, ...]) -> tuple[int, ...]:
    return materialize(torch.empty(shape, device="meta"), lay).tensor.stride()


def _broken_mixed(draw, c, s, ex, cover=False):
    # K or V in another declared layout, one whose strides on its shape differ
    # from the shared one's (on dims of one element, most layouts' agree).
    shapes = c.shapes()
    others = [(role, lay) for role in ("k", "v") for lay in _declared_layouts(s)
              if _strides_on(lay, shapes[role]) != _strides_on(c.q_layout, shapes[role])]
    if not others:
        reject()
    role, lay = draw(st.sampled_from(others))
    return replace(c, **{f"{role}_layout": lay})


def _mixable(s: Support) -> bool:
    return not s.mixed_layouts and len({lay.stride_key for lay in _declared_layouts(s)}) > 1


def _broken_scale(draw, c, s, ex, cover=False):
    default = c.d**-0.5
    if s.scale == "positive":
        return replace(c, scale=draw(st.sampled_from([-default, -0.5, -2.0])))
    return replace(c, scale=draw(st.sampled_from([x for x in (2 * default, 0.5, 1.0, -default)
                                                   if not math.isclose(x, default)])))


# Length limits: the values of the length they limit just outside them.
_LENGTH_LIMITS = ("max_sq", "min_sq", "min_sk", "sq_multiple", "sk_multiple")


def _length_values(s: Support, name: str, c: AttentionCase) -> list[int]:
    which = "sq" if "sq" in name else "sk"
    low, high, step = s.length_bounds(which)
    n = getattr(c, which)
    if name == "max_sq":
        if s.max_sq is None:
            return []
        return [m for m in range(s.max_sq + 1, s.max_sq + 1 + 2 * step) if m % step == 0]
    if name in ("min_sq", "min_sk"):
        return [m for m in range(low - 1, -1, -1) if m % step == 0][:2]
    if name in ("sq_multiple", "sk_multiple"):
        top = n + step if high is None else min(n + step, high)
        return [m for m in (n + 1, n - 1, n + step // 2, low + 1, top - 1)
                if max(low, 1 if which == "sq" else 0) <= m <= top and m % step]
    return []


def _length_breaks(s: Support, name: str, c: AttentionCase, cover: bool = False
                   ) -> list[AttentionCase]:
    # Cases that break ``name`` alone, with 1 <= Sq <= Sk where ``cover``.
    which = "sq" if "sq" in name else "sk"
    found = []
    for n in _length_values(s, name, c):
        sq, sk = (n, c.sk) if which == "sq" else (c.sq, n)
        if not s.cross:
            sq = sk = n
        elif cover and sq > sk:
            if which == "sq":
                sk = s.fit_length("sk", sq)
            else:
                sq = max((m for m in s.lengths("sq", sk) if m <= sk), default=0)
            if not 1 <= sq <= sk:
                continue
        broken = replace(c, sq=sq, sk=sk)
        if s.first_broken_limit(broken) == name:
            found.append(broken)
    return found


def _broken_length(name: str):
    def broken(draw, c, s, ex, cover=False):
        found = _length_breaks(s, name, c, cover)
        if not found:  # this case's other length leaves no room: the probe's has it
            found = _length_breaks(s, name, _probe(s, ex), cover)
        if not found:  # the convention cannot pass such a length (Sk < 1 <= Sq)
            reject()
        return draw(st.sampled_from(found))

    return broken


def _probe(s: Support, ex: tuple[str, ...]) -> AttentionCase:
    """The least case a support admits (its smallest lengths, dims and group)."""
    aligns = tuple(a for a in s.alignments if a in ex)
    dims = s.head_dims or (16,)
    group = (s.groups or (1,))[0]
    lay = _declared_layouts(s)[0]
    case = AttentionCase(hq=group, d=dims[0], dv=dims[0], dtype=s.dtypes[0],
                         causal=s.causal == "only", alignment=(aligns or ALIGNMENTS)[0],
                         q_layout=lay, k_layout=lay, v_layout=lay, out_layout=lay)
    return inside(case, s, aligns or ALIGNMENTS, keys_cover_queries=True)


def _can_break_length(name: str):
    return lambda s, ex, cover=False: bool(_length_breaks(s, name, _probe(s, ex), cover))


def _broken_alignment(draw, c, s, ex, cover=False):
    missing = [a for a in ex if a not in s.alignments]
    return replace(c, causal=True, alignment=draw(st.sampled_from(missing)))


def _broken_cross(draw, c, s, ex, cover=False):
    sk = draw(st.one_of(st.integers(c.sq + 1, c.sq + 70), st.integers(1, max(1, c.sq - 1))))
    return replace(c, sk=sk if sk != c.sq else c.sq + 1)


def _broken_layout(draw, c, s, ex, cover=False):
    lay = draw(layouts(4, tuple(n for n in NAMES if n not in s.layouts)))
    role = draw(st.sampled_from(["q_layout", "k_layout", "v_layout"]))
    return replace(c, **{role: lay})


def _broken_max_seq(draw, c, s, ex, cover=False):
    n = s.max_seq + 1
    if not s.cross:
        return replace(c, sq=n, sk=n)
    return replace(c, **draw(st.sampled_from([{"sk": n}, {"sq": n}, {"sq": n, "sk": n}])))


def _other_page_sizes(s: Support) -> list[int]:
    # Just past each declared size, and the usual sizes it leaves out.
    if s.page_sizes is None:
        return []
    near = {p + 1 for p in s.page_sizes} | {p - 1 for p in s.page_sizes} | set(PAGE_SIZES)
    return sorted(p for p in near if p >= 1 and not s.admits_page_size(p))


def _broken_page_size(draw, c, s, ex, cover=False):
    return replace(c, page_size=draw(st.sampled_from(_other_page_sizes(s))))


def _queries_breaks(s: Support, c: AttentionCase) -> list[AttentionCase]:
    # More queries than keys: an admitted Sq past Sk, or an admitted Sk short of Sq.
    more = [replace(c, sq=n) for n in s.lengths("sq", 3, c.sk + 1)]
    fewer = [replace(c, sk=n) for n in s.lengths("sk", 3) if n < c.sq]
    return [b for b in more + fewer if s.first_broken_limit(b) == "queries"]


def _broken_queries(draw, c, s, ex, cover=False):
    found = _queries_breaks(s, c) or _queries_breaks(s, _probe(s, ex))
    if not found:
        reject()
    return draw(st.sampled_from(found))


# Limits that only some conventions can pass a case outside of: whether they
# can is a question of ``keys_cover_queries`` too (the convention's queries are
# the last keys of a paged cache).
_CONVENTION_BOUND = {
    "page_size": lambda s, ex, cover=False: cover and bool(_other_page_sizes(s)),
    "queries": lambda s, ex, cover=False: not cover and s.queries == "last_keys" and bool(
        _queries_breaks(s, _probe(s, ex))),
}


OUTSIDE = {
    "dtype": (lambda s, ex: bool(_other_dtypes(s)), _broken_dtype),
    "head_dim": (lambda s, ex: bool(_other_dims(s)), _broken_head_dim),
    "value_dim": (lambda s, ex: not s.distinct_value_dim and len(_value_dims(s)) > 1,
                  _broken_value_dim),
    "gqa": (lambda s, ex: not s.gqa, _broken_gqa),
    "causal alignment": (lambda s, ex: any(a not in s.alignments for a in ex), _broken_alignment),
    "sq != sk": (lambda s, ex: not s.cross, _broken_cross),
    "layout": (lambda s, ex: any(n not in s.layouts for n in NAMES), _broken_layout),
    "max_seq": (lambda s, ex: s.max_seq is not None and s.max_seq < OUTSIDE_MAX_SEQ,
                _broken_max_seq),
    "group": (lambda s, ex: bool(_other_groups(s)), _broken_group),
    "non-causal": (lambda s, ex: s.causal == "only", _broken_causal),
    "mixed layouts": (lambda s, ex: _mixable(s), _broken_mixed),
    "scale": (lambda s, ex: s.scale != "any", _broken_scale),
    **{name: (_can_break_length(name), _broken_length(name)) for name in _LENGTH_LIMITS},
    "page_size": (_CONVENTION_BOUND["page_size"], _broken_page_size),
    "queries": (_CONVENTION_BOUND["queries"], _broken_queries),
}


def broken_limits(
    support: Support, expressible: tuple[str, ...] = ALIGNMENTS, *,
    keys_cover_queries: bool = False,
) -> list[str]:
    """The declared limits that ``outside`` can break for this support (keeping
    1 <= Sq <= Sk with ``keys_cover_queries``)."""
    return [name for name, (can, _) in OUTSIDE.items()
            if (can(support, expressible, keys_cover_queries)
                if name in _LENGTH_LIMITS or name in _CONVENTION_BOUND
                else can(support, expressible))]


@st.composite
def outside(
    draw: st.DrawFn,
    support: Support,
    dtype: str,
    *,
    expressible: tuple[str, ...] = ALIGNMENTS,
    max_seq: int = 130,
    limits: tuple[str, ...] | None = None,
    keys_cover_queries: bool = False,
) -> AttentionCase:
    """An attention case that breaks exactly one limit ``support`` declares
    (see ``OUTSIDE``; optionally one of ``limits``): what an implementation
    must refuse, or answer right.  With ``keys_cover_queries``, 1 <= Sq <= Sk
    still (no limit breaks that: it is what the calling convention can say)."""
    can = broken_limits(support, expressible, keys_cover_queries=keys_cover_queries)
    if limits is not None:
        _known(limits, "limits", tuple(OUTSIDE))
        can = [name for name in can if name in limits]
    if not can:
        raise InvalidArgument(f"support {support.spec() or 'of everything'} declares no limit "
                              f"{'of ' + repr(limits) + ' ' if limits else ''}that a case can "
                              "break")
    limits = can
    aligns = tuple(a for a in support.alignments if a in expressible)
    case = draw(attention_cases(dtype, max_seq=max_seq, alignments=aligns, support=support,
                                keys_cover_queries=keys_cover_queries))
    name = draw(st.sampled_from(limits))
    broken = OUTSIDE[name][1](draw, case, support, expressible, keys_cover_queries)
    return keys_covering_queries(broken) if keys_cover_queries else broken
