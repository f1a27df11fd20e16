"""Every property calls a function only within the limits it declares, and a
function that refuses a call is judged, never a harness traceback: a refusal
of a case inside the declared support is a crash finding, of one outside it
(where a property's related runs or reused cases step out) no finding at all."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from hypothesis import given, settings

from attnfuzz.properties import checks, implementations, outside_support
from attnfuzz.properties.checks import stateful
from attnfuzz.properties.checks.refusal import refused_or_right
from attnfuzz.properties.checks.serving import serving_relations
from attnfuzz.properties.implementations.support import Support, parse
from attnfuzz.properties.model.cases import AttentionCase
from attnfuzz.properties.model.values import Values
from attnfuzz.properties.run import cli, harness

from .user_attention import mine, paged_like, varlen_like

HERE = "tests.test_declared_limits"
SELF_ONLY = "cross=no"


def self_only_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw):
    """Packed self-attention: each sequence's queries are its keys' tokens."""
    if not torch.equal(cu_seqlens_q, cu_seqlens_k):
        raise ValueError("self-attention only: cu_seqlens_q must equal cu_seqlens_k")
    return varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw)


def self_only_varlen_buggy(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw):
    """Reads every sequence's keys to the longest one's length (into the next one's)."""
    if not torch.equal(cu_seqlens_q, cu_seqlens_k):
        raise ValueError("self-attention only: cu_seqlens_q must equal cu_seqlens_k")
    return varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, bug=True, **kw)


def prefill_only_paged(q, k_cache, v_cache, block_table, cache_seqlens, **kw):
    """A paged prefill: every sequence is all new tokens."""
    if not bool((cache_seqlens == q.shape[2]).all()):
        raise ValueError(f"prefill only: every cache_seqlens must be Sq={q.shape[2]}")
    return paged_like(q, k_cache, v_cache, block_table, cache_seqlens, **kw)


def _impl(function: str, convention: str):
    return implementations.get(f"{HERE}:{function}@{convention}#{SELF_ONLY}")


@pytest.mark.parametrize(("function", "convention"), [("self_only_varlen", "varlen"),
                                                      ("prefill_only_paged", "paged")])
def test_serving_calls_stay_within_the_declared_support(function, convention):
    impl = _impl(function, convention)
    assert impl.support.cross is False

    @settings(max_examples=10, deadline=None, database=None)
    @given(checks.get("serving").cases(impl, "float32"))
    def run(case):
        verdicts = serving_relations(impl, case)
        assert verdicts and all(v.ok for v in verdicts), [v.describe() for v in verdicts]

    run()


def test_serving_within_the_support_still_finds_a_read_past_a_sequence():
    impl = _impl("self_only_varlen_buggy", "varlen")
    case = AttentionCase(batch=2, sq=9, sk=9, d=4, dv=4)
    verdicts = serving_relations(impl, case)
    assert any(not v.ok for v in verdicts), [v.describe() for v in verdicts]


def refuses_long(q, k, v, **kw):
    """Refuses more than 8 keys, whether or not it declares so (max_seq=8)."""
    if k.shape[2] > 8:
        raise ValueError(f"at most 8 keys, got {k.shape[2]}")
    return mine(q, k, v, **kw)


def refuses_large(q, k, v, **kw):
    """Refuses an input beyond [-1, 1], the range it declares (max_magnitude=1)."""
    if any(t.numel() and t.abs().max().item() > 1 for t in (q, k, v)):
        raise ValueError("inputs must lie within [-1, 1]")
    return mine(q, k, v, **kw)


def varlen_without_empty(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw):
    """Refuses an empty sequence, which it does not declare (no limit says so)."""
    if bool((cu_seqlens_q[1:] == cu_seqlens_q[:-1]).any()):
        raise ValueError("every sequence needs a query")
    return varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw)


LONG = AttentionCase(batch=2, hq=2, hkv=1, sq=3, sk=9, d=4, dv=4, causal=True)


@pytest.mark.parametrize("prop", ["oracle", "metamorphic"])
def test_a_refusal_inside_the_support_is_a_crash_finding(prop, tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))  # a finding is dumped
    impl = implementations.get(f"{HERE}:refuses_long")
    with pytest.raises(harness.Finding) as found:
        harness.check(prop, impl.name, LONG)
    assert found.value.kinds == ["crash"] and "at most 8 keys" in str(found.value)


@pytest.mark.parametrize("prop", ["oracle", "metamorphic"])
def test_a_refusal_outside_the_support_is_no_finding(prop):
    impl = implementations.get(f"{HERE}:refuses_long#max_seq=8")
    assert impl.support.first_broken_limit(LONG) == "max_seq"
    assert harness.check(prop, impl.name, LONG) == []
    # Within it, the same property judges as usual.
    assert harness.check(prop, impl.name, AttentionCase(sq=3, sk=8, d=4, dv=4))


def decode_first_query(q, k_cache, v_cache, block_table, cache_seqlens, **kw):
    """A decode kernel that answers each sequence's first query alone, however many come."""
    return paged_like(q[:, :, :1], k_cache, v_cache, block_table, cache_seqlens, **kw)


def test_a_malformed_answer_outside_the_support_is_a_contract_finding():
    # Out of the wrong shape is an answer, not a refusal: a decode kernel that
    # drops every query past the first must not pass as refusing Sq=2.
    impl = implementations.get(f"{HERE}:decode_first_query@paged#max_sq=1")
    case = AttentionCase(sq=2, sk=5, d=4, dv=4)
    assert impl.support.first_broken_limit(case) == "max_sq"
    with pytest.raises(harness.Finding) as found:
        harness.check("refuses", impl.name, case)
    assert found.value.kinds == ["contract"] and "out of shape" in str(found.value)


def test_a_relation_that_leaves_the_declared_magnitudes_is_skipped():
    impl = implementations.get(f"{HERE}:refuses_large#max_magnitude=1")
    case = AttentionCase(batch=2, sq=3, sk=5, d=4, dv=4,
                         values=Values("uniform", 1.0, seed=3, limit=1.0))
    verdicts = harness.check("metamorphic", impl.name, case)
    checked = {v.check for v in verdicts}
    assert "batch alone" in checked and "linearity in V (x2)" not in checked, checked


def test_a_serving_refusal_replays_as_a_failure_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    impl = implementations.get(f"{HERE}:varlen_without_empty@varlen")
    with pytest.raises(harness.Finding) as found:
        harness.check("serving", impl.name, AttentionCase(sq=3, sk=3, d=4, dv=4))
    assert found.value.kinds == ["crash"] and found.value.dump is not None
    capsys.readouterr()
    assert cli.main(["replay", str(found.value.dump)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "every sequence needs a query" in out and "Traceback" not in out


def test_a_sequence_steps_only_to_neighbours_the_support_admits(monkeypatch):
    impl = implementations.get("naive")
    base = AttentionCase(batch=1, sq=3, sk=5, d=4, dv=4)
    picks = [0] * len(stateful.NEIGHBOURS)
    assert any(c.batch > 1 for c in stateful.sweep_of(base, impl, picks))
    # A limit no neighbour knows of (as a declared one may be): one batch element.
    monkeypatch.setattr(Support, "first_broken_limit",
                        lambda self, c: "batch" if c.batch > 1 else None)
    made = stateful.sweep_of(base, impl, picks)
    assert made and all(c.batch == 1 for c in made), made


class _Refusing(torch.autograd.Function):
    """Attention whose backward refuses more than 4 keys, which it does not declare."""

    @staticmethod
    def forward(ctx, q, k, v, scale):
        ctx.save_for_backward(q, k, v)
        ctx.scale = scale
        return mine(q.detach(), k.detach(), v.detach(), scale=scale)

    @staticmethod
    def backward(ctx, grad):
        q, k, v = ctx.saved_tensors
        if k.shape[2] > 4:
            raise ValueError(f"backward: at most 4 keys, got {k.shape[2]}")
        with torch.enable_grad():
            q, k, v = (t.detach().requires_grad_() for t in (q, k, v))
            out = mine(q, k, v, scale=ctx.scale)
            return (*torch.autograd.grad(out, (q, k, v), grad), None)


def backward_refuses_long(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    if causal:
        raise ValueError("causal: not supported")
    return _Refusing.apply(q, k, v, scale)


def test_a_backward_refusal_in_a_sequence_is_a_crash_finding():
    name = f"{HERE}:backward_refuses_long#causal=no;backward=yes"
    implementations.get(name)
    sequence = stateful.Sequence(name, "float32", repeats=1)
    with pytest.raises(stateful.StatefulFailure) as found:
        sequence.call(AttentionCase(sq=2, sk=5, d=4, dv=4, backward=True))
    assert found.value.kinds == ["crash"] and "at most 4 keys" in str(found.value)


def pages_of_16_or_64(q, k_cache, v_cache, block_table, cache_seqlens, **kw):
    """A paged function whose kernel is built for pages of 16 or 64 slots only."""
    if k_cache.shape[1] not in (16, 64):
        raise ValueError(f"k_cache's page size must be 16 or 64, got {k_cache.shape[1]}")
    return paged_like(q, k_cache, v_cache, block_table, cache_seqlens, **kw)


@pytest.mark.parametrize("prop", ["oracle", "serving", "refuses"])
def test_caches_are_made_in_the_declared_page_sizes(prop):
    impl = implementations.get(f"{HERE}:pages_of_16_or_64@paged#page_sizes=16,64")

    @settings(max_examples=15, deadline=None, database=None)
    @given(checks.get(prop).cases(impl, "float32"))
    def run(case):
        harness.check(prop, impl.name, case)

    run()


def pages_assumed_64(q, k_cache, v_cache, block_table, cache_seqlens, **kw):
    """Right for pages of 16 or 64 slots; any other page size is read as 64
    slots a page, silently: the keys it gathers are not the sequence's."""
    page = k_cache.shape[1] if k_cache.shape[1] in (16, 64) else 64
    out = q.new_empty(*q.shape[:3], v_cache.shape[-1])
    for b, n in enumerate(cache_seqlens.tolist()):
        pages = block_table[b, : -(-n // page)].long()
        k, v = (c[pages].reshape(-1, *c.shape[2:])[:n].transpose(0, 1)[None]
                for c in (k_cache, v_cache))
        out[b] = mine(q[b:b + 1], k, v, alignment="bottom_right", **kw)[0]
    return out


def test_page_sizes_just_outside_the_declared_ones_are_drawn():
    declared = Support(page_sizes=(16, 64))

    @settings(max_examples=20, deadline=None, database=None)
    @given(outside_support.outside(declared, "float32", keys_cover_queries=True,
                                   limits=("page_size",)))
    def run(case):
        assert case.page_size is not None and case.page_size not in (16, 64)
        assert declared.first_broken_limit(case) == "page_size"
        assert 1 <= case.sq <= case.sk

    run()


def pages_checked_one_past(q, k_cache, v_cache, block_table, cache_seqlens, **kw):
    """Checks the table entries its keys use, and one more where a sequence's
    keys fill their last page: a valid table whose next entry is -1 is refused."""
    page, pages = k_cache.shape[1], k_cache.shape[0]
    for b, n in enumerate(cache_seqlens.tolist()):
        checked = block_table[b, : n // page + 1]
        if bool(((checked < 0) | (checked >= pages)).any()):
            raise ValueError(f"block_table[{b}] names a page outside 0..{pages - 1}")
    return paged_like(q, k_cache, v_cache, block_table, cache_seqlens, **kw)


@pytest.mark.parametrize("declared", ["valid", "any"])
def test_unused_table_entries_hold_what_the_support_allows(declared):
    """Past each sequence's pages the table holds a spare page, or, declared
    ``unused_pages=any``, also -1 or the page count: a function that reads or
    checks one entry too many is found only where such entries are drawn."""
    impl = implementations.get(f"{HERE}:pages_checked_one_past@paged#unused_pages={declared}")
    fills, failed = set(), []

    @settings(max_examples=25, deadline=None, database=None, derandomize=True)
    @given(checks.get("serving").cases(impl, "float32"))
    def run(case):
        fills.add(case.serving.unused_entries)
        try:
            harness.check("serving", impl.name, case)
        except AssertionError as exc:
            failed.append(str(exc))

    run()
    if declared == "valid":
        assert fills == {"spare_page"} and not failed, failed[:1]
    else:
        assert fills == {"spare_page", "minus_one", "past_end"}, fills
        assert failed and "block_table" in failed[0], failed[:1]


def test_page_sizes_are_broken_only_where_the_convention_pages():
    declared = Support(page_sizes=(16, 64))
    assert "page_size" in outside_support.broken_limits(declared, keys_cover_queries=True)
    assert "page_size" not in outside_support.broken_limits(declared)


def test_an_undeclared_page_size_is_refused_or_answered_right():
    case = AttentionCase(batch=2, sq=3, sk=20, d=8, dv=8, page_size=3)
    refusing = implementations.get(f"{HERE}:pages_of_16_or_64@paged#page_sizes=16,64")
    refused = refused_or_right(refusing, case)
    assert len(refused) == 1 and refused[0].ok and "refused page_size" in refused[0].check
    misreading = implementations.get(f"{HERE}:pages_assumed_64@paged#page_sizes=16,64")
    inside = refused_or_right(misreading, replace(case, page_size=16))
    assert inside and all(v.ok for v in inside), [v.describe() for v in inside]
    found = [v for v in refused_or_right(misreading, case) if not v.ok]
    assert found and found[0].kind == "not refused", [v.describe() for v in found]


def last_keys_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, *, alignment="bottom_right",
                     causal=False, **kw):
    """A prefix-cached prefill: each sequence's queries are its last keys."""
    if bool(((cu_seqlens_q[1:] - cu_seqlens_q[:-1]) > (cu_seqlens_k[1:] - cu_seqlens_k[:-1]))
            .any()):
        raise ValueError("each sequence needs at least as many keys as queries")
    if causal and alignment != "bottom_right":
        raise ValueError("masks are bottom-right only")
    return varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, causal=causal,
                       alignment=alignment, **kw)


def last_keys_varlen_silent(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw):
    """Answers more queries than keys with the queries past the keys dropped:
    their rows of out stay zero."""
    out = varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, **kw)
    for i in range(cu_seqlens_q.numel() - 1):
        nq = int(cu_seqlens_q[i + 1] - cu_seqlens_q[i])
        nk = int(cu_seqlens_k[i + 1] - cu_seqlens_k[i])
        if nq > nk:
            out[int(cu_seqlens_q[i]):int(cu_seqlens_q[i]) + nq - nk] = 0
    return out


def test_queries_as_last_keys_is_declarable():
    declared = Support(queries="last_keys")
    assert declared.alignments == ("bottom_right",)
    assert declared.spec() == "alignments=bottom_right;queries=last_keys"
    assert parse("queries=last_keys") == declared
    with pytest.raises(ValueError, match="queries"):
        parse("queries=first_keys")
    assert declared.first_broken_limit(AttentionCase(sq=5, sk=4)) == "queries"
    assert declared.first_broken_limit(AttentionCase(sq=4, sk=5)) is None
    # Broken only where an admitted length can go past the other: an empty cache
    # under one query, but not Sq = Sk, nor at least one key under one query.
    limits = outside_support.broken_limits
    assert "queries" in limits(parse("queries=last_keys;max_sq=1"))
    assert "queries" not in limits(parse("queries=last_keys;cross=no"))
    assert "queries" not in limits(parse("queries=last_keys;max_sq=1;min_sk=1"))


@pytest.mark.parametrize("prop", ["oracle", "serving"])
def test_queries_as_last_keys_are_drawn_inside(prop):
    impl = implementations.get(f"{HERE}:last_keys_varlen@varlen#queries=last_keys")

    @settings(max_examples=12, deadline=None, database=None)
    @given(checks.get(prop).cases(impl, "float32"))
    def run(case):
        assert case.sq <= case.sk
        harness.check(prop, impl.name, case)

    run()


def test_more_queries_than_keys_is_refused_or_answered_right():
    impl = implementations.get(f"{HERE}:last_keys_varlen@varlen#queries=last_keys")
    silent = implementations.get(f"{HERE}:last_keys_varlen_silent@varlen#queries=last_keys")
    assert "queries" in outside_support.broken_limits(impl.support, impl.expressible)

    @settings(max_examples=10, deadline=None, database=None)
    @given(outside_support.outside(impl.support, "float32", expressible=impl.expressible,
                                   limits=("queries",)))
    def run(case):
        assert case.sq > case.sk
        refused = refused_or_right(impl, case)
        assert len(refused) == 1 and refused[0].ok and "refused queries" in refused[0].check

    run()
    case = AttentionCase(batch=2, sq=6, sk=4, d=8, dv=8)
    found = [v for v in refused_or_right(silent, case) if not v.ok]
    assert found and found[0].kind == "not refused", [v.describe() for v in found]


def test_the_refuses_property_finds_an_undeclared_page_size_misread():
    impl = implementations.get(f"{HERE}:pages_assumed_64@paged#page_sizes=16,64")

    @settings(max_examples=30, deadline=None, database=None)
    @given(checks.get("refuses").cases(impl, "float32"))
    def run(case):
        harness.check("refuses", impl.name, case)

    with pytest.raises(harness.Finding) as found:
        run()
    assert "(not refused)" in str(found.value) and "; pages of " in str(found.value)
