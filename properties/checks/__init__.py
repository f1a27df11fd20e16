"""Checks: run an implementation on a case and judge the result.

Every check returns a list of ``Verdict``s (see ``reference.verdict``); a
case passes when every verdict's error/bound ratio is at most 1.  The
modules are one family each: ``execution`` (running, memory safety),
``oracle`` (agreement with the float64 oracle), ``softmax`` (invariants),
``metamorphic`` (relations between runs), ``agreement`` (two
implementations), ``refusal`` (cases outside a declared support).
``PROPERTIES`` below is the one registry of properties: the tests, the
``attnfuzz`` command and the mutation runner all name properties through it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from ...reference import Verdict
from .. import backend, implementations, outside_support, strategies
from ..implementations import Implementation
from ..model.cases import UNUSED_ENTRIES, Built, Case
from . import stateful
from .agreement import implementations_agree
from .execution import context_killer, execute, failures, steering, worst
from .gradients import (
    against_gradient_oracle,
    gradient_relations,
    gradients_agree,
)
from .metadata import bad_metadata_refused
from .metamorphic import attention_metamorphic
from .oracle import against_oracle
from .refusal import (
    BAD_OUTS,
    SHAPE_CONVENTIONS,
    bad_option_refused,
    bad_out_refused,
    bad_shapes_refused,
    mixed_dtype_refused,
    option_edges,
    other_input_dtypes,
    refused_or_right,
    shape_breaks,
)
from .serving import serving_relations
from .serving_out import shared_out_refused
from .softmax import softmax_gradients, softmax_invariants, softmax_shift_invariance
from .trial import Trial


def _alone(check: Callable[[Implementation, Case, Built | None], list[Verdict]]
           ) -> Callable[[Trial], list[Verdict]]:
    """A judge from a check of one implementation's call on one case."""
    def judge(trial: Trial) -> list[Verdict]:
        return check(trial.impl, trial.case, trial.built)

    judge.__name__ = judge.__qualname__ = check.__name__
    return judge


@dataclass(frozen=True)
class Property:
    """A named check, the operations it applies to, and the cases it draws."""

    name: str
    ops: tuple[str, ...]  # the implementation ops it applies to
    judge: Callable[[Trial], list[Verdict]]
    description: str
    families: tuple[str, ...] | None = None  # value families it needs, if restricted
    max_len: int = 130  # longest sequence it draws (relations run several launches)
    # Where it is not every implementation of its ops, and how it draws if not
    # from the implementation's declared support.
    only: Callable[[Implementation], bool] | None = None
    draws: Callable[..., st.SearchStrategy[Case]] | None = None
    # A property of sequences of calls, not of one case: runs ``examples``
    # calls' worth of sequences itself, (impl name, dtype, examples, seed) -> None,
    # raising its shrunk failure.  ``judge`` then checks one call of a sequence.
    sequences: Callable[[str, str, int, int | None], None] | None = None
    # Its judge decides what an exception of the implementation means (it asks
    # for refusals); to the others it is a crash, or on a case outside the
    # support, nothing to judge (``run``).
    judges_refusals: bool = False
    # What it draws beside the plain cases, (impl, cases, layout names) -> cases.
    extend: Callable[..., st.SearchStrategy[Case]] | None = None

    def applies(self, impl: Implementation) -> bool:
        return impl.op in self.ops and (self.only is None or self.only(impl))

    def run(
        self, impl: Implementation, case: Case, built: Built | None = None,
        other: Implementation | None = None,
    ) -> list[Verdict]:
        """The property's verdicts on ``case``; none where the implementation
        refuses a case outside its declared support (a case reused or replayed
        past a limit: refusing it is behaving as declared, and ``refuses``
        judges such cases).  What it raises on a case inside the support
        propagates, for the caller to report as a crash; so does a fault,
        wherever it happens, and whatever the harness raises."""
        if self.judges_refusals:
            return self.judge(Trial(impl, case, built, other))
        try:
            return self.judge(Trial(_marked(impl), case, built, other))
        except _Raised as raised:
            if outside(impl, case) is None or context_killer(raised.error):
                raise raised.error from raised.error.__cause__  # the implementation's
            return []

    def cases(
        self, impl: Implementation, dtype: str, *,
        layout_names: tuple[str, ...] | None = None, families: tuple[str, ...] | None = None,
        max_len: int | None = None,
    ) -> st.SearchStrategy[Case]:
        """The case strategy for ``impl``, optionally drawing only some layouts and
        families, or shorter sequences than the property's ``max_len``."""
        max_len = min(max_len or self.max_len, self.max_len)
        if self.draws is not None:
            return self.draws(impl, dtype, max_len)
        cases = strategies.cases_for(
            impl.op, dtype, decode=impl.decode, max_len=max_len,
            layout_names=layout_names or strategies.NAMES,
            families=self.families or families or strategies.FAMILIES,
            alignments=impl.alignments, support=impl.support,
            keys_cover_queries=impl.new_tokens,
        )
        cases = strategies.with_options(cases, impl.options)
        return cases if self.extend is None else self.extend(
            impl, cases, layout_names or strategies.NAMES)


class _Raised(Exception):
    """What the implementation under test raised, on its way out of a judge."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _marked(impl: Implementation) -> Implementation:
    """``impl`` whose entry points' exceptions are marked as its own (``_Raised``)."""
    def mark(fn: Callable | None) -> Callable | None:
        if fn is None:
            return None

        def call(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                raise _Raised(exc) from exc

        return call

    return replace(impl, run=mark(impl.run),
                   **{n: mark(fn) for n, fn in impl.serving_calls().items()})


def outside(impl: Implementation, case: Case) -> str | None:
    """The limit of ``impl``'s declared support that ``case`` breaks, in words
    (None if none; a support declares attention cases only)."""
    return impl.support.first_broken_limit(case) if case.kind == "attention" else None


def _agree(t: Trial) -> list[Verdict]:
    return implementations_agree(t.impl, t.other or _peer(t.impl), t.case, t.built)


def _gradients_agree(t: Trial) -> list[Verdict]:
    return gradients_agree(t.impl, t.other or _peer(t.impl), t.case, t.built)


def _peer(impl: Implementation) -> Implementation:
    """Without a named other, the three-kernel attention is the peer (and flash its own)."""
    return implementations.get("flash" if impl.name == "naive" else "naive")


def _backward_cases(impl: Implementation, dtype: str, max_len: int) -> st.SearchStrategy[Case]:
    """Backward cases in the implementation's support; ``out=`` is never drawn
    (a differentiable call returns a new tensor)."""
    cases = strategies.cases_for("attention", dtype, decode=impl.decode, max_len=max_len,
                                 alignments=impl.alignments, support=impl.support,
                                 keys_cover_queries=impl.new_tokens)
    options = tuple(o for o in impl.options if o[0] != "out")
    return strategies.with_options(strategies.backward_cases(cases), options)


def _called_with(option: str, values: Callable[[Case], tuple[str, ...]]) -> Callable:
    """``draws`` for a refusal property: a case in the implementation's support,
    called with ``option`` set to one of ``values(case)`` (the property's own
    option, in place of the implementation's)."""
    def draws(impl: Implementation, dtype: str, max_len: int) -> st.SearchStrategy[Case]:
        cases = strategies.cases_for(impl.op, dtype, decode=impl.decode, max_len=max_len,
                                     alignments=impl.alignments, support=impl.support,
                                     keys_cover_queries=impl.new_tokens)
        return cases.flatmap(lambda case: st.sampled_from(values(case)).map(
            lambda value: replace(case, options=((option, value),))))
    return draws


# The inputs that require grad in a gradients case: all three half the time,
# else one or two of them.  Later inputs alone come first (Hypothesis favours
# early entries): a dispatch that checks only its first inputs misses them.
GRAD_SUBSETS = ("v", "k", "q", "k,v", "q,v", "q,k")


def _gradients_cases(impl: Implementation, dtype: str, max_len: int) -> st.SearchStrategy[Case]:
    """Backward cases, some with only some inputs requiring grad."""
    return st.tuples(_backward_cases(impl, dtype, max_len), st.booleans(),
                     st.sampled_from(GRAD_SUBSETS)).map(
        lambda t: t[0] if t[1] else replace(t[0], options=(*t[0].options, ("grad_of", t[2]))))


def _serving_cases(impl: Implementation, cases: st.SearchStrategy[Case],
                   names: tuple[str, ...]) -> st.SearchStrategy[Case]:
    """``cases`` with serving specs: layouts of the packed tensors and caches
    within what the support accepts, and the unused table entries it admits."""
    return strategies.with_serving(
        cases, tuple(n for n in names if n in impl.support.layouts),
        UNUSED_ENTRIES if impl.support.unused_pages == "any" else ("spare_page",))


def run_stateful(
    impl_name: str, dtype: str, *, backward: bool | None = None, max_len: int | None = None,
    **options: object,
) -> None:
    """The stateful property (``stateful.run``) on the cases the oracle property
    draws and, with ``backward`` (default: on a GPU, for an implementation that
    declares a backward), the gradients property's too: a backward's launches
    keep state of their own.  On the interpreter a backward call costs several
    forward ones, and compiled launch caches exist only on a GPU.  ``max_len``:
    the longest query and key count a call draws (default: the properties')."""
    impl = implementations.get(impl_name)
    options.setdefault("reset", impl.reset)
    if backward is None:
        # A backward sequence draws the gradients property's cases: attention's.
        backward = (impl.support.backward and impl.op == "attention"
                    and not backend.interpreting())
    if not isinstance(backward, bool):
        raise TypeError(f"backward must be a bool or None, got {backward!r}")
    if max_len is not None and (isinstance(max_len, bool) or not isinstance(max_len, int)
                                or max_len < 1):
        raise ValueError(f"max_len must be a positive int or None, got {max_len!r}")
    if backward and not impl.support.backward:
        raise ValueError(f"{impl_name} declares no backward (Support(backward=True))")
    cases = PROPERTIES["oracle"].cases(impl, dtype, max_len=max_len)
    if backward:
        cases = st.one_of(cases, PROPERTIES["gradients"].cases(impl, dtype, max_len=max_len))
    stateful.run(impl_name, dtype, cases=cases, backward=backward, max_len=max_len, **options)


def target_seed(seed: int, prop: str, impl: str, dtype: str) -> int:
    """The Hypothesis seed that target (``prop``, ``impl``, ``dtype``) draws with
    under a run's ``seed``: the run's seed shifted by a fixed hash of the target.
    With one seed for all, a float16 target drew the very shapes, masks and
    layouts of its float32 twin, and a run's targets covered half the cases they
    could; shifted, each draws its own, and the run's seed (what a reproduce
    command prints) still draws the same cases again.  The hash reads the
    implementation's ``short_name``, so a file's function draws alike from
    any folder."""
    return seed + zlib.crc32(f"{prop}/{implementations.short_name(impl)}/{dtype}".encode())


# Steps per drawn sequence: ``examples`` calls make examples // STEPS sequences.
STATEFUL_STEPS = 5


def _sequences(impl_name: str, dtype: str, examples: int, seed: int | None) -> None:
    run_stateful(impl_name, dtype, max_examples=max(1, examples // STATEFUL_STEPS),
                 stateful_step_count=STATEFUL_STEPS, seed=seed)


PROPERTIES: dict[str, Property] = {
    p.name: p
    for p in (
        Property(
            "oracle", implementations.OPS, _alone(against_oracle),
            "every output within its derived bound of the float64 oracle",
        ),
        Property(
            "metamorphic", ("attention",), _alone(attention_metamorphic),
            "relations between runs (layouts, permutations, GQA, batch/head slices)",
            max_len=70,
        ),
        Property(
            "agree", ("attention",), _agree,
            "two attention implementations agree within the sum of their bounds",
            only=lambda impl: impl.campaign,  # attnfuzz's own kernels, each other's peers
        ),
        Property(
            "refuses", ("attention",), _alone(refused_or_right),
            "a case just outside the declared support is refused, or answered right",
            only=lambda impl: bool(outside_support.broken_limits(
                impl.support, impl.expressible, keys_cover_queries=impl.new_tokens)),
            judges_refusals=True,
            draws=lambda impl, dtype, max_len: outside_support.outside(
                impl.support, dtype, expressible=impl.expressible, max_seq=max_len,
                keys_cover_queries=impl.new_tokens),
        ),
        Property(
            "bad_out", implementations.OPS, _alone(bad_out_refused),
            "an out= overlapping an input or itself (or interleaved with one) is refused, "
            "or the answer is right",
            only=lambda impl: impl.writes_out, judges_refusals=True,
            draws=_called_with("out", lambda case: tuple(BAD_OUTS)),
        ),
        Property(
            "mixed_dtypes", ("attention", "matmul", "matmul_nt"), _alone(mixed_dtype_refused),
            "an input after the first in another dtype (the same values) is refused, or "
            "the answer is right at the first input's dtype",
            judges_refusals=True,
            draws=_called_with("mixed", lambda case: tuple(
                f"{role} {dtype}" for role in list(case.shapes())[1:]
                for dtype in other_input_dtypes(case.dtype))),
        ),
        Property(
            "bad_shapes", ("attention", "matmul", "matmul_nt"), _alone(bad_shapes_refused),
            "inputs whose shapes disagree (one grown along a dim another must match) are "
            "refused",
            only=lambda impl: impl.convention in SHAPE_CONVENTIONS, judges_refusals=True,
            draws=_called_with("shapes", shape_breaks),
        ),
        Property(
            "bad_options", implementations.OPS, _alone(bad_option_refused),
            "an integer option one below its least declared value, or -1, is refused with "
            "a ValueError or TypeError that names it, or the answer is right",
            only=lambda impl: bool(option_edges(impl.options)), judges_refusals=True,
            draws=lambda impl, dtype, max_len: _called_with(
                "bad_option", lambda case: option_edges(impl.options))(impl, dtype, max_len),
        ),
        Property(
            stateful.NAME, implementations.OPS, _alone(against_oracle),
            "sequences of calls sharing the implementation's state, each within its bound, "
            "repeats bit for bit", sequences=_sequences,
        ),
        Property(
            "gradients", ("attention",), _alone(against_gradient_oracle),
            "dq, dk, dv within their derived bounds of the float64 oracle's gradients",
            max_len=70, only=lambda impl: impl.support.backward, draws=_gradients_cases,
        ),
        Property(
            "gradient_relations", ("attention",), _alone(gradient_relations),
            "backward reruns bit for bit; layouts, GQA as repeated heads, a batch element "
            "alone and permuted keys change nothing",
            max_len=70, only=lambda impl: impl.support.backward, draws=_backward_cases,
        ),
        Property(
            "gradients_agree", ("attention",),
            _gradients_agree,
            "two backwards agree within the sum of their bounds",
            max_len=70, only=lambda impl: impl.campaign and impl.support.backward,
            draws=_backward_cases,
        ),
        Property(
            "serving", ("attention",), _alone(serving_relations),
            "the case packed with other lengths (varlen) and through a shuffled paged cache: "
            "each sequence within its bounds and the bits of the prefill alone",
            max_len=70, only=lambda impl: bool(impl.serving_calls()),
            extend=_serving_cases,
        ),
        Property(
            "bad_metadata", ("attention",), _alone(bad_metadata_refused),
            "serving calls whose prefix sums, page table, cache lengths or max_seqlen do not "
            "describe their tensors are refused (where the support says metadata=checked)",
            max_len=70, judges_refusals=True,
            only=lambda impl: bool(impl.serving_calls()) and impl.support.metadata == "checked",
            extend=_serving_cases,
        ),
        Property(
            "bad_serving_out", ("attention",), _alone(shared_out_refused),
            "a serving call's out= over an input, or sharing its last element, is refused, "
            "or every sequence is right",
            max_len=70, judges_refusals=True,
            only=lambda impl: bool(impl.serving_calls()) and impl.serving_out,
            extend=_serving_cases,
        ),
        Property(
            "softmax_invariants", ("softmax",), _alone(softmax_invariants),
            "row sums, range, exact zeros where masked, order, finiteness",
        ),
        Property(
            "softmax_gradients", ("softmax",), _alone(softmax_gradients),
            "dx within its derived bound of the float64 oracle's gradient; dy and x unchanged",
            only=lambda impl: impl.support.backward,
        ),
        Property(
            "shift_invariance", ("softmax",),
            _alone(softmax_shift_invariance),
            "softmax(x + c) == softmax(x) on values where x + c is exact", families=("grid",),
        ),
    )
}


def get(name: str) -> Property:
    try:
        return PROPERTIES[name]
    except KeyError:
        known = ", ".join(PROPERTIES)
        raise ValueError(f"unknown property {name!r}; known: {known}") from None


__all__ = ["PROPERTIES", "Property", "Trial", "execute", "failures", "get", "outside",
           "run_stateful", "steering", "worst"]
