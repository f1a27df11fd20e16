"""Compile once, test many: cases that reuse a compiled specialisation.

A compiled Triton kernel is specialised on its constexprs and, for each
integer argument (a length, a stride, a pointer's address), on whether it is
1 and whether it is divisible by 16.  Nearly every freely drawn case meets a
new specialisation and pays a compile (a second or more, against tens of
milliseconds for the call and its oracle).  ``near`` draws cases around one
that has run: its lengths, batch and heads moved by whole multiples of 16,
and new values.
Every stride and element offset of a layout is an integer polynomial in the
case's dimensions, and P(x + 16j) = P(x) (mod 16) for any such polynomial,
so every divisibility the specialisation saw is kept; a length of 1 is never
moved (1 is specialised on its own).  Where a kernel's constexprs depend on a
length (a split plan, a tuning bucket) a moved case compiles after all:
``Specialisations`` counts what every call compiled, so the campaign measures
the reuse it gets instead of assuming it.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from ..model.cases import AttentionCase, Case, MatmulCase, SoftmaxCase
from ..realistic_sizes import BUDGET

# Lengths move by multiples of this (Triton's divisibility specialisation).
STEP = 16


class Specialisations:
    """Counts the kernels this process compiles or loads (Triton's post-compile
    hook runs once per new specialisation a process launches)."""

    def __init__(self) -> None:
        self.count = 0
        self._installed = False

    def install(self) -> None:
        if self._installed:
            return
        try:
            from triton import knobs
        except ImportError:  # no Triton: nothing compiles
            return
        previous = knobs.runtime.jit_post_compile_hook

        def hook(*args, **kwargs):
            self.count += 1
            return previous(*args, **kwargs) if previous is not None else None

        knobs.runtime.jit_post_compile_hook = hook
        self._installed = True


def _moves(n: int, limit: int) -> st.SearchStrategy[int]:
    """``n`` moved by a multiple of ``STEP`` within [2, max(n, limit)], smallest first;
    0 and 1 stay (they are specialised, or special-cased, on their own)."""
    if n <= 1:
        return st.just(n)
    low = n % STEP or STEP
    low = low if low >= 2 else low + STEP
    high = max(n, limit)
    return st.integers(0, (high - low) // STEP).map(lambda j: low + STEP * j)


def _shift(n: int, limit: int) -> st.SearchStrategy[int]:
    """A shift d (a multiple of ``STEP``) with 2 <= n + d <= max(n, limit); 0 for n <= 1."""
    return _moves(n, limit).map(lambda m: m - n)


@st.composite
def _near_attention(draw: st.DrawFn, case: AttentionCase, limit: int) -> AttentionCase:
    # Both lengths move together: the causal diagonal's offset (Sk - Sq), the
    # regime (Sq < Sk, Sq > Sk) and a window's relation to the lengths stay.
    d = draw(_shift(min(case.sq, case.sk), limit - abs(case.sq - case.sk)))
    if case.sq <= 1 or case.sk <= 1:
        d = 0
    # Batch and KV heads move by at most one step: each step multiplies the work.
    group = case.hq // case.hkv if case.hkv else 1
    hkv = draw(_moves(case.hkv, case.hkv + STEP))
    moved = replace(case, sq=case.sq + d, sk=case.sk + d,
                    batch=draw(_moves(case.batch, case.batch + STEP)), hkv=hkv, hq=hkv * group,
                    values=draw(_values(case)))
    # A step up from a batch of 2 and 14 KV heads is 9 and 2.1 times them: a
    # case drawn at a model's sizes became 19 times its memory and ran past a
    # call's time limit.  So no larger than the case or the realistic budget.
    if _largest(moved) > max(_largest(case), BUDGET):
        moved = replace(moved, batch=case.batch, hkv=case.hkv, hq=case.hq)
    return moved


def _largest(case: AttentionCase) -> int:
    """Elements of the largest (B, Hq, Sq, ...) tensor the oracle holds: the
    logits, or the queries and output."""
    return case.batch * case.hq * max(case.sq, 1) * max(case.sk, case.d, case.dv, 1)


@st.composite
def _near_matmul(draw: st.DrawFn, case: MatmulCase, limit: int) -> MatmulCase:
    return replace(case, m=draw(_moves(case.m, limit)), n=draw(_moves(case.n, limit)),
                   k=draw(_moves(case.k, limit)) if case.k else 0, values=draw(_values(case)))


@st.composite
def _near_softmax(draw: st.DrawFn, case: SoftmaxCase, limit: int) -> SoftmaxCase:
    *lead, rows, cols = case.shape
    d = draw(_shift(min(rows, cols), limit - abs(rows - cols)))
    if rows <= 1 or cols <= 1:
        d = 0
    return replace(case, shape=(*lead, rows + d, cols + d), values=draw(_values(case)))


def _values(case: Case):
    """New values of the case's family (a property may need that one) at any scale."""
    return st.builds(lambda scale, seed: replace(case.values, scale=scale, seed=seed),
                     st.sampled_from([case.values.scale, 1.0, 0.1, 3.0, 10.0]),
                     st.integers(0, 2**31 - 1))


_NEAR = {
    AttentionCase.kind: _near_attention,
    MatmulCase.kind: _near_matmul,
    SoftmaxCase.kind: _near_softmax,
}


def near(cases: list[Case], limit: int) -> st.SearchStrategy[Case]:
    """Cases around those given (which have run, so their kernels are compiled):
    one of them, simplest first, with lengths moved by multiples of ``STEP``
    up to ``limit`` (or their own, if longer) and new values.  ``cases`` must
    not change while a Hypothesis run draws from this."""
    if not cases:
        raise ValueError("near needs at least one case that has run")
    ordered = sorted(cases, key=_size)
    return st.sampled_from(ordered).flatmap(lambda c: _NEAR[c.kind](c, limit))


def _size(case: Case) -> tuple:
    """Simplest first, for shrinking: fewest elements, then the spec's text."""
    shapes = case.shapes()
    elements = sum(_prod(s) for s in shapes.values())
    return (elements, repr(case))


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for n in shape:
        out *= n
    return out
