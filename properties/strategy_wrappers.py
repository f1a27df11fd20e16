"""What is drawn around a case for some properties: how the serving property
packs and pages it, a call's optional arguments, a backward's upstream gradient."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from .model.cases import MAX_SEQLENS, ORDERS, UNUSED_ENTRIES, AttentionCase, Case, Serving
from .model.layouts import INDEX_VIEWS, NAMES, Layout
from .strategy_parts import _known, _names_for, layouts


def servings(
    layout_names: tuple[str, ...] = NAMES, unused_entries: tuple[str, ...] = ("spare_page",)
) -> st.SearchStrategy[Serving]:
    """How the serving property packs and pages a case (``cases.Serving``): the
    order of its sequences by length, guard sequences, a layout for each packed
    tensor and each cache, drawn apart (so k and v differ in strides as often
    as not), the index tensors as views, the max_seqlen passed, and what the
    block table holds past each sequence's pages (of ``unused_entries``),
    whether calls go through a plan, the layout of an ``out=`` they are given
    (or none) and whether they ask for the LSE.  Of ``layout_names`` (a
    broadcast is no layout for a packed tensor or a cache, nor for an out);
    everything shrinks to the simple layout (contiguous, shortest first, no
    guard, max_seqlen computed, a spare page, no plan, no out, the LSE)."""
    names = tuple(n for n in _known(layout_names, "layout_names", NAMES)
                  if not n.startswith("expand")) or ("contiguous",)
    fills = _known(unused_entries, "unused_entries", UNUSED_ENTRIES)
    packed, cache = layouts(3, names), layouts(4, names)
    return st.builds(Serving, order=st.sampled_from(ORDERS), guards=st.booleans(),
                     q_layout=packed, k_layout=packed, v_layout=packed,
                     k_cache_layout=cache, v_cache_layout=cache,
                     index=st.sampled_from(INDEX_VIEWS),
                     max_seqlen=st.sampled_from(MAX_SEQLENS),
                     unused_entries=st.sampled_from(fills), planned=st.booleans(),
                     out=st.one_of(st.none(), st.sampled_from(names)),
                     lse=st.sampled_from((True, False)))


def with_serving(
    cases: st.SearchStrategy[AttentionCase], layout_names: tuple[str, ...] = NAMES,
    unused_entries: tuple[str, ...] = ("spare_page",),
) -> st.SearchStrategy[AttentionCase]:
    """``cases``, each with a serving layout drawn for it (see ``servings``)."""
    return st.tuples(cases, servings(layout_names, unused_entries)).map(
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
    return st.tuples(cases, do_layouts(layout_names)).map(lambda t: as_backward(*t))


def do_layouts(layout_names: tuple[str, ...] = NAMES) -> st.SearchStrategy[Layout]:
    """Layouts of a backward's upstream gradient dO (4-D, broadcasts too)."""
    return layouts(4, _names_for(4, _known(layout_names, "layout_names", NAMES)))


def as_backward(case: AttentionCase, do_layout: Layout) -> AttentionCase:
    """``case`` differentiated, with dO in ``do_layout``, and without an
    ``out=`` (a differentiable call returns a new tensor)."""
    return replace(case, backward=True, do_layout=do_layout,
                   options=tuple(o for o in case.options if o[0] != "out"))
