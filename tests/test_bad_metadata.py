"""Serving metadata that does not describe its tensors: a function that
declares ``metadata=checked`` must refuse it with a ValueError or TypeError;
one that answers, or raises something else, is a finding.  Undeclared
(``trusted``), nothing is drawn."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings

from attnfuzz.properties import checks, implementations
from attnfuzz.properties.checks.metadata import BREAKS, bad_metadata_refused
from attnfuzz.properties.model.cases import AttentionCase

from .user_attention import paged_like, paged_varlen_like, varlen_like

HERE = "tests.test_bad_metadata"


def _check_prefix_sums(name, cu, rows, longest, skip=()):
    if cu.dtype != torch.int32:
        raise TypeError(f"{name} must be int32")
    values = cu.tolist()
    lengths = [b - a for a, b in zip(values, values[1:], strict=False)]
    if values[0] != 0 and "start" not in skip:
        raise ValueError(f"{name} must start at 0")
    if min(lengths, default=0) < 0:
        raise ValueError(f"{name} must not decrease")
    if values[-1] != rows and "end" not in skip:
        raise ValueError(f"{name} must end at the packed rows, {rows}")
    if longest is not None and longest < max(lengths, default=0):
        raise ValueError(f"the max_seqlen given for {name} is below its longest sequence")


def checked_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, *, max_seqlen_q=None,
                   max_seqlen_k=None, skip=(), **kw):
    """Refuses prefix sums and maximums that do not describe q and k."""
    _check_prefix_sums("cu_seqlens_q", cu_seqlens_q, q.shape[0], max_seqlen_q, skip)
    _check_prefix_sums("cu_seqlens_k", cu_seqlens_k, k.shape[0], max_seqlen_k, skip)
    if cu_seqlens_q.shape != cu_seqlens_k.shape:
        raise ValueError("cu_seqlens_q and cu_seqlens_k must have B + 1 entries each")
    return varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q=max_seqlen_q,
                       max_seqlen_k=max_seqlen_k, **kw)


def end_unchecked_varlen(*args, **kw):
    """Takes prefix sums that end before the packed rows (the rest never written)."""
    return checked_varlen(*args, skip=("end",), **kw)


def indexing_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw):
    """Finds a bad start with an IndexError, not a ValueError."""
    if int(cu_seqlens_q[0]) != 0:
        raise IndexError("cu_seqlens_q[0]")
    return checked_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw)


def _check_pages(block_table, cache_seqlens, k_cache, queries, skip=()):
    pages, page = k_cache.shape[:2]
    if block_table.dtype != torch.int32 or cache_seqlens.dtype != torch.int32:
        raise TypeError("block_table and cache_seqlens must be int32")
    if cache_seqlens.shape != (len(queries),):
        raise ValueError("cache_seqlens must have one entry a sequence")
    for b, (n, sq) in enumerate(zip(cache_seqlens.tolist(), queries, strict=True)):
        if not sq <= n <= block_table.shape[1] * page:
            raise ValueError(f"cache_seqlens[{b}] is {n}, outside Sq..pages x page_size")
        used = block_table[b, : -(-n // page)]
        low = 0 if "negative" not in skip else -pages
        if bool(((used < low) | (used >= pages)).any()):
            raise ValueError(f"block_table[{b}] names a page outside the cache")


def checked_paged(q, k_cache, v_cache, block_table, cache_seqlens, *, skip=(), **kw):
    """Refuses a table and lengths that do not describe its cache and queries."""
    _check_pages(block_table, cache_seqlens, k_cache, [q.shape[2]] * q.shape[0], skip)
    return paged_like(q, k_cache, v_cache, block_table, cache_seqlens, **kw)


def checked_paged_varlen(q, k_cache, v_cache, block_table, cu_seqlens_q, seq_lens, *,
                         max_seqlen_q, max_seqlen_k, **kw):
    """Refuses prefix sums, a table, lengths and maximums that do not describe its
    packed queries and cache."""
    _check_prefix_sums("cu_seqlens_q", cu_seqlens_q, q.shape[0], max_seqlen_q)
    values = cu_seqlens_q.tolist()
    if seq_lens.shape[0] != len(values) - 1:
        raise ValueError("seq_lens must have one entry a sequence")
    counts = [b - a for a, b in zip(values, values[1:], strict=False)]
    _check_pages(block_table, seq_lens, k_cache, counts)
    if max_seqlen_k < max(seq_lens.tolist(), default=0):
        raise ValueError("max_seqlen_k is below the longest sequence")
    return paged_varlen_like(q, k_cache, v_cache, block_table, cu_seqlens_q, seq_lens,
                             max_seqlen_q=max_seqlen_q, max_seqlen_k=max_seqlen_k, **kw)


def negative_unchecked_paged(*args, **kw):
    """Takes a table entry of -1 (read as the cache's last page)."""
    return checked_paged(*args, skip=("negative",), **kw)


def _impl(function: str, convention: str, metadata: str = "checked"):
    return implementations.get(f"{HERE}:{function}@{convention}#metadata={metadata}")


CASE = AttentionCase(batch=2, sq=5, sk=9, d=8, dv=8)


def test_metadata_is_drawn_only_where_the_support_says_it_is_checked():
    prop = checks.get("bad_metadata")
    assert not prop.applies(_impl("checked_varlen", "varlen", "trusted"))
    assert prop.applies(_impl("checked_varlen", "varlen"))
    assert prop.applies(implementations.get("flash"))  # attnfuzz's serving kernels check


@pytest.mark.parametrize(("function", "convention"), [("checked_varlen", "varlen"),
                                                      ("checked_paged", "paged"),
                                                      ("checked_paged_varlen", "paged_varlen")])
def test_a_function_that_checks_its_metadata_refuses_every_break(function, convention):
    impl = _impl(function, convention)
    seen = set()

    @settings(max_examples=8, deadline=None, database=None, derandomize=True)
    @given(checks.get("bad_metadata").cases(impl, "float32"))
    def run(case):
        verdicts = bad_metadata_refused(impl, case)
        assert all(v.ok for v in verdicts), [v.describe() for v in verdicts if not v.ok]
        seen.update(v.check for v in verdicts)

    run()
    # Every break of an argument the convention takes was tried, and refused.
    taken = {n for n, b in BREAKS.items() if convention in b.calls()}
    assert {c.split(" with ", 1)[1].split(": refused")[0] for c in seen} == taken


@pytest.mark.parametrize(("function", "convention", "kind", "what"), [
    ("end_unchecked_varlen", "varlen", "not refused", "ending a row short"),
    ("indexing_varlen", "varlen", "unclear", "cu_seqlens_q starting at 1"),
    ("negative_unchecked_paged", "paged", "not refused", "naming page -1"),
])
def test_metadata_answered_or_refused_unclearly_is_a_finding(function, convention, kind, what):
    verdicts = bad_metadata_refused(_impl(function, convention), CASE)
    found = [v for v in verdicts if not v.ok]
    assert found and {v.kind for v in found} == {kind}, [v.describe() for v in found]
    assert any(what in v.check for v in found), [v.check for v in found]
    assert all(v.ok for v in bad_metadata_refused(_impl("checked_" + convention, convention),
                                                  CASE))
