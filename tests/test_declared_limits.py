"""Every property calls a function only within the limits it declares, and a
function that refuses a call is judged, never a harness traceback: a refusal
of a case inside the declared support is a crash finding, of one outside it
(where a property's related runs or reused cases step out) no finding at all."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings

from attnfuzz.properties import checks, implementations
from attnfuzz.properties.checks.serving import serving_relations
from attnfuzz.properties.model.cases import AttentionCase

from .user_attention import paged_like, varlen_like

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
