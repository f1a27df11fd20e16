"""The strategies draw the inputs real kernels meet, and every argument's valid edges.

Each mechanism is checked by planting a bug of its class in plain torch
attention (float64 math, no Triton: a case costs milliseconds) and finding it
through the property's own case strategy; the correct function must pass the
same draws.  The classes:

- k and v (and the two halves of a paged cache) in layouts of their own: a
  function that reads v through k's strides;
- index tensors as views: a function that reads ``cu_seqlens`` or
  ``cache_seqlens`` from the start of their storage at unit stride;
- packed batches in every order of lengths, with guard sequences: a function
  that stores one row past a sequence's end, as a tile-major kernel's last
  block does without its row mask;
- argument edges: a function that reads ``scale=0`` as "the default", and
  ``out=`` beside each input: a kernel that refuses an out sharing an
  allocation with the last input at a disjoint offset (a refusal of a
  disjoint out is a crash finding, as it was for one after the first input;
  an out interleaved with an input may be refused as needless, and when
  accepted is checked as any other).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
import torch
from hypothesis import HealthCheck, find, given, settings

from attnfuzz.properties import checks, implementations, strategies
from attnfuzz.properties.checks.execution import contiguous_strides
from attnfuzz.properties.checks.refusal import option_edges, shape_breaks
from attnfuzz.properties.implementations import Implementation, Support, builtin
from attnfuzz.properties.model.cases import (
    AttentionCase,
    MatmulCase,
    Serving,
    SoftmaxCase,
    from_json,
    to_json,
)
from attnfuzz.properties.model.layouts import materialize, named
from attnfuzz.properties.model.values import Values
from tests.user_attention import mine

# Rows a kernel's program owns, as the fused prefill's 64-row tiles.
BLOCK = 64


def _attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool,
            scale: float | None, alignment: str) -> torch.Tensor:
    """One sequence: q (Sq, Hq, D), k (Sk, Hkv, D), v (Sk, Hkv, Dv) -> (Sq, Hq, Dv)."""
    if not q.shape[0] or not k.shape[0]:
        return torch.zeros(q.shape[0], q.shape[1], v.shape[2], dtype=q.dtype)
    heads_first = (t.transpose(0, 1)[None] for t in (q, k, v))
    return mine(*heads_first, causal=causal, scale=scale, alignment=alignment)[0].transpose(0, 1)


# --- packed (varlen) functions ---------------------------------------------------------------

def _varlen(q, k, v, cu_q, cu_k, *, causal, scale, alignment, bug="", **_):
    if bug == "kv_strides":
        v = torch.as_strided(v, v.shape, k.stride(), v.storage_offset())
    if bug == "cu_storage":  # the prefix sums read from their storage's start
        cu_q, cu_k = (torch.as_strided(c, c.shape, (1,), 0) for c in (cu_q, cu_k))
    cq, ck = cu_q.tolist(), cu_k.tolist()
    out = torch.zeros(q.shape[0], q.shape[1], v.shape[2], dtype=q.dtype)
    whole = [_attend(q[cq[b]:cq[b + 1]], k[ck[b]:ck[b + 1]], v[ck[b]:ck[b + 1]],
                     causal=causal, scale=scale, alignment=alignment)
             for b in range(len(cq) - 1)]
    # Programs in a kernel's grid order: every sequence's first row tile,
    # then every second one, ...
    for r in range(max((-(-w.shape[0] // BLOCK) for w in whole), default=0)):
        for b, rows in enumerate(whole):
            lo, hi = r * BLOCK, min((r + 1) * BLOCK, rows.shape[0])
            if lo >= hi:
                continue
            out[cq[b] + lo:cq[b] + hi] = rows[lo:hi]
            if bug == "past_end" and hi == rows.shape[0] and cq[b] + hi < out.shape[0]:
                out[cq[b] + hi] = rows[-1]  # the tile's store, unmasked one row too far
    return out


def varlen_correct(q, k, v, cu_q, cu_k, **kw):
    return _varlen(q, k, v, cu_q, cu_k, **kw)


def varlen_v_as_k(q, k, v, cu_q, cu_k, **kw):
    return _varlen(q, k, v, cu_q, cu_k, bug="kv_strides", **kw)


def varlen_cu_from_storage(q, k, v, cu_q, cu_k, **kw):
    return _varlen(q, k, v, cu_q, cu_k, bug="cu_storage", **kw)


def varlen_past_end(q, k, v, cu_q, cu_k, **kw):
    return _varlen(q, k, v, cu_q, cu_k, bug="past_end", **kw)


# --- paged functions -------------------------------------------------------------------------

def _paged(q, k_cache, v_cache, table, seqlens, *, causal, scale, bug="", **_):
    if bug == "kv_strides":
        v_cache = torch.as_strided(v_cache, v_cache.shape, k_cache.stride(),
                                   v_cache.storage_offset())
    if bug == "seqlens_storage":
        seqlens = torch.as_strided(seqlens, seqlens.shape, (1,), 0)
    b, hq, sq, _ = q.shape
    page, hkv, d = k_cache.shape[1:]
    out = torch.zeros(b, hq, sq, v_cache.shape[-1], dtype=q.dtype)
    for i in range(b):
        n = int(seqlens[i])
        pages = table[i, :-(-n // page)].long()
        k = k_cache[pages].reshape(-1, hkv, d)[:n]
        v = v_cache[pages].reshape(-1, hkv, v_cache.shape[-1])[:n]
        out[i] = _attend(q[i].transpose(0, 1), k, v, causal=causal, scale=scale,
                         alignment="bottom_right").transpose(0, 1)
    return out


def paged_correct(q, k_cache, v_cache, table, seqlens, **kw):
    return _paged(q, k_cache, v_cache, table, seqlens, **kw)


def paged_v_as_k(q, k_cache, v_cache, table, seqlens, **kw):
    return _paged(q, k_cache, v_cache, table, seqlens, bug="kv_strides", **kw)


def paged_seqlens_from_storage(q, k_cache, v_cache, table, seqlens, **kw):
    return _paged(q, k_cache, v_cache, table, seqlens, bug="seqlens_storage", **kw)


# --- dense functions -------------------------------------------------------------------------

def _dense(q, k, v, *, causal, scale, alignment):
    if not q.shape[2] or not k.shape[2]:
        return q.new_zeros(*q.shape[:3], v.shape[-1])
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


def dense_correct(q, k, v, *, causal, scale, alignment):
    return _dense(q, k, v, causal=causal, scale=scale, alignment=alignment)


def dense_scale_or_default(q, k, v, *, causal, scale, alignment):
    return _dense(q, k, v, causal=causal, scale=scale or q.shape[-1] ** -0.5,
                  alignment=alignment)


def dense_v_as_k(q, k, v, *, causal, scale, alignment):
    v = torch.as_strided(v, v.shape, k.stride(), v.storage_offset())
    return _dense(q, k, v, causal=causal, scale=scale, alignment=alignment)


# --- finding them ----------------------------------------------------------------------------

ANY = Support()
SAME_DV = Support(distinct_value_dim=False)  # Dv = D: v's shape alone tells k's strides apart


def _impl(fn, convention: str, supports: Support = ANY) -> Implementation:
    return implementations.of_function(fn, convention=convention, supports=supports)


def _fails(prop: str, impl: Implementation, case: AttentionCase) -> bool:
    try:
        return any(not v.ok for v in checks.get(prop).run(impl, case))
    except Exception:  # noqa: BLE001 - a crash on a drawn case is caught too
        return True


def _found(prop: str, impl: Implementation, *, examples: int = 300,
           seed: int = 0) -> AttentionCase:
    return find(checks.get(prop).cases(impl, "float32"), lambda c: _fails(prop, impl, c),
                settings=settings(max_examples=examples, database=None, deadline=None,
                                  suppress_health_check=list(HealthCheck)),
                random=random.Random(seed))


@pytest.mark.parametrize(("fn", "convention", "supports"), [
    (varlen_v_as_k, "varlen", SAME_DV),
    (paged_v_as_k, "paged", SAME_DV),
    (dense_v_as_k, "attnfuzz", SAME_DV),
])
def test_v_read_through_k_strides_is_found(fn, convention, supports):
    prop = "oracle" if convention == "attnfuzz" else "serving"
    case = _found(prop, _impl(fn, convention, supports))
    if prop == "serving":
        # Shrunk to the layouts that show it: the rest of the serving spec simple.
        s = case.serving
        assert (s.order, s.guards, s.index) == ("sorted", False, "contiguous"), s.describe()
        assert s.q_layout.name == "contiguous", s.describe()


@pytest.mark.parametrize(("fn", "convention"), [
    (varlen_cu_from_storage, "varlen"),
    (paged_seqlens_from_storage, "paged"),
])
def test_index_tensors_read_from_their_storage_are_found(fn, convention):
    case = _found("serving", _impl(fn, convention))
    s = case.serving
    assert s.index != "contiguous", s.describe()
    assert s == Serving(index=s.index), f"shrinks to the index view alone: {s.describe()}"


@pytest.mark.parametrize("seed", [0, 1])
def test_a_store_past_a_sequences_end_is_found(seed):
    case = _found("serving", _impl(varlen_past_end, "varlen"), seed=seed)
    s = case.serving
    # Either a longer sequence before a shorter one, or a guard after the longest.
    assert s.order != "sorted" or s.guards, s.describe()
    assert case.sq > BLOCK, "the store is the last tile's, past one tile"


def test_scale_zero_read_as_the_default_is_found():
    case = _found("oracle", _impl(dense_scale_or_default, "attnfuzz"))
    assert case.scale == 0.0


@pytest.mark.parametrize(("fn", "convention", "prop"), [
    (varlen_correct, "varlen", "serving"),
    (paged_correct, "paged", "serving"),
    (dense_correct, "attnfuzz", "oracle"),
])
def test_the_correct_functions_pass_the_same_draws(fn, convention, prop):
    impl = _impl(fn, convention)

    @settings(max_examples=40, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=checks.get(prop).cases(impl, "float32"))
    def run(case):
        bad = [v.describe() for v in checks.get(prop).run(impl, case) if not v.ok]
        assert not bad, bad[:3]

    run()


def test_a_serving_spec_round_trips_and_describes_itself():
    s = Serving(order="shuffled", guards=True, index="strided",
                k_layout=strategies.named("bshd", 3), v_cache_layout=strategies.named("d_major"),
                planned=True, out="slice_d", lse=False)
    case = AttentionCase(serving=s)
    assert from_json(to_json(case)) == case
    text = case.describe()
    for part in ("shuffled order", "guard rows", "packed k=bshd", "v cache=d_major",
                 "index tensors strided", "a plan of the metadata", "out=slice_d",
                 "no lse asked"):
        assert part in text, text
    assert "served with" not in AttentionCase().describe()


@pytest.mark.parametrize("planned", [False, True])
def test_served_calls_go_through_a_plan_where_the_case_says(monkeypatch, planned):
    """attnfuzz's serving functions take a plan of their metadata (checked once,
    read by later calls as the call's own): drawn, the serving property's calls
    go through one, so the planned path's reads are checked too."""
    from attnfuzz import kernels
    from attnfuzz.properties.checks.serving import serving_relations

    made = []
    for name in ("plan_varlen", "plan_paged"):
        real = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *a, _real=real, _n=name, **kw:
                            made.append(_n) or _real(*a, **kw))
    case = AttentionCase(batch=2, sq=3, sk=5, d=8, dv=8,
                         serving=Serving(index="column_major", planned=planned))
    verdicts = serving_relations(implementations.get("flash"), case)
    assert verdicts and all(v.ok for v in verdicts), [v.describe() for v in verdicts if not v.ok]
    assert set(made) == ({"plan_varlen", "plan_paged"} if planned else set()), made
    drawn = [find(strategies.with_serving(strategies.attention_cases(batch=1, sq=1, sk=1)),
                  lambda c, i=i: c.serving.planned == bool(i % 2)).serving.planned
             for i in range(2)]
    assert drawn == [False, True]


def test_a_served_out_over_an_input_or_sharing_its_last_element_is_refused():
    """Each serving entry's first call, given an out from the first or the last
    element of q, k or v: attnfuzz's kernels refuse every one (the catalogue's
    ``varlen.out_may_overlap_v`` and ``paged.out_may_overlap_the_k_cache``,
    whose checks leave an input out, are found by the same property)."""
    from attnfuzz.properties.checks.serving_out import shared_out_refused

    verdicts = shared_out_refused(implementations.get("flash"),
                                  AttentionCase(batch=2, sq=3, sk=5, d=8, dv=8))
    assert len(verdicts) == 12 and all(v.ok for v in verdicts), [v.check for v in verdicts]
    for entry in ("varlen", "paged"):
        for role in "qkv":
            for where in ("first", "last"):
                assert (f"{entry} with an out from {role}'s {where} element: refused "
                        "(ValueError)") in {v.check for v in verdicts}


def test_served_calls_are_given_an_out_and_must_return_it():
    """attnfuzz's serving functions take ``out=`` and ``return_lse``: given an
    out (NaN in a drawn layout) each call must write and return it; asked for
    no LSE, it must leave the out alone where an LSE would go."""
    from attnfuzz.properties.checks.serving import serving_relations
    from attnfuzz.properties.implementations.implementation import ContractViolation

    flash = implementations.get("flash")
    case = AttentionCase(batch=2, sq=3, sk=5, d=8, dv=8,
                         serving=Serving(out="d_major", lse=False))
    verdicts = serving_relations(flash, case)
    assert verdicts and all(v.ok for v in verdicts), [v.describe() for v in verdicts if not v.ok]

    def fresh(*args, out=None, **kw):  # computes right, into a tensor of its own
        return builtin._varlen(*args, **kw)

    with pytest.raises(ContractViolation, match="did not return the out tensor"):
        serving_relations(dataclasses.replace(flash, varlen=fresh), case)
    assert all(v.ok for v in serving_relations(dataclasses.replace(flash, varlen=fresh),
                                               dataclasses.replace(case, serving=Serving())))


# --- out= beside each input ------------------------------------------------------------------

def _shares_storage(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def _flash_refusing_kv_neighbours(q, k, v, out, **kw):
    # An overlap check that compares allocations, not spans, for k and v only.
    if out is not None and any(_shares_storage(out, t) for t in (k, v)):
        raise ValueError("out shares memory with k or v")
    return builtin._flash(q, k, v, out, **kw)


def _naive_storing_contiguously(q, k, v, out, **kw):
    got = builtin._naive(q, k, v, None, **kw)
    if out is not None:  # the out's strides ignored: written as a new tensor is laid out
        torch.as_strided(out, out.shape, contiguous_strides(tuple(out.shape)),
                         out.storage_offset()).copy_(got["out"])
        got["out"] = out
    return got


def _with_out(name: str, fn) -> Implementation:
    return Implementation(name, "attention", fn, options=(builtin.OUT,))


def test_an_out_refused_beside_the_last_input_is_found():
    impl = _with_out("refuses out beside k or v", _flash_refusing_kv_neighbours)
    case = _found("oracle", impl, examples=200)
    assert dict(case.options)["out"] == "before an input"
    # A refusal of a disjoint out is no answer: the property raises, which the
    # harness reports as a crash.
    with pytest.raises(ValueError, match="shares memory"):
        checks.get("oracle").run(impl, case)


def _flash_refusing_zero_strides(q, k, v, out, **kw):
    # A broadcast check that forgets a dim of one element may have any stride.
    if out is not None and 0 in out.stride():
        raise ValueError("out has a stride-0 (expanded) dim")
    return builtin._flash(q, k, v, out, **kw)


def test_an_out_refused_for_a_stride_of_0_on_a_dim_of_one_is_found():
    impl = _with_out("refuses any out stride of 0", _flash_refusing_zero_strides)
    case = _found("oracle", impl, examples=200)
    assert case.out_layout.unit_stride == 0, case.describe()
    assert "stride 0 on dims of size 1" in case.describe()


def test_a_stride_on_dims_of_one_addresses_the_same_elements():
    values = torch.arange(2 * 1 * 3 * 1, dtype=torch.float32).reshape(2, 1, 3, 1)
    for unit in (0, 1, 3):
        placed = materialize(values, dataclasses.replace(named("bshd"), unit_stride=unit))
        t = placed.tensor
        assert [s for n, s in zip(t.shape, t.stride(), strict=True) if n == 1] == [unit, unit]
        assert torch.equal(t, values)


SMALL = AttentionCase(batch=1, hq=2, hkv=1, sq=3, sk=5, d=16, dv=24)


def test_an_interleaved_out_is_refused_needlessly_or_checked():
    case = dataclasses.replace(SMALL, options=(("out", "interleaved with an input"),))
    refused = checks.get("bad_out").run(implementations.get("naive"), case)
    assert [v.ok for v in refused] == [True]
    assert "needless refusal" in refused[0].check
    accepted = checks.get("bad_out").run(
        _with_out("stores contiguously", _naive_storing_contiguously), case)
    bad = [v.check for v in accepted if not v.ok]
    assert any("input q modified" in c for c in bad), bad


def _no_overlap_check(out, inputs, in_place):
    """The overlap check of a kernel that has none."""


def _in_place_by_address(out, inputs, in_place):
    """An in-place check that compares address and shape, not strides."""
    from attnfuzz.kernels._checks import _span

    for name, t in inputs:
        if _span(t)[0] == _span(out)[0] and t.shape == out.shape and in_place:
            continue
        if _span(t)[0] < _span(out)[1] and _span(out)[0] < _span(t)[1]:
            raise ValueError(f"out overlaps {name}")


TWO_BATCHES = dataclasses.replace(SMALL, batch=2, dv=16)


# The softmax alone may run in place, so only its check can mistake an input
# seen through other strides for the input itself.
@pytest.mark.parametrize(("impl", "case", "check"), [
    ("flash", TWO_BATCHES, _no_overlap_check),
    ("decode", TWO_BATCHES, _no_overlap_check),
    ("softmax", SoftmaxCase(shape=(2, 3, 5)), _no_overlap_check),
    ("softmax", SoftmaxCase(shape=(2, 3, 5)), _in_place_by_address),
])
def test_an_out_over_an_input_in_reverse_order_shows_a_missing_overlap_check(
        monkeypatch, impl, case, check):
    """Over an input's first elements in its own order, an out is written
    where the program writing it has already read (the interpreter runs
    programs in order): a kernel without an overlap check passes.  Its dims
    reversed, the first program's stores land in later programs' inputs."""
    from attnfuzz.kernels import _checks

    monkeypatch.setattr(_checks, "_check_no_overlap", check)
    ok = {}
    for kind in ("overlapping an input", "overlapping an input, dims reversed"):
        verdicts = checks.get("bad_out").run(implementations.get(impl),
                                             dataclasses.replace(case, options=(("out", kind),)))
        ok[kind] = all(v.ok for v in verdicts)
    assert not ok["overlapping an input, dims reversed"], ok
    if check is _no_overlap_check:
        assert ok["overlapping an input"], ok  # why the reversed one is drawn


@pytest.mark.parametrize(("impl", "case"), [
    ("flash", TWO_BATCHES), ("decode", TWO_BATCHES), ("naive", TWO_BATCHES),
    ("softmax", SoftmaxCase(shape=(2, 3, 5))),
])
def test_an_out_sharing_only_an_inputs_last_element_is_refused(monkeypatch, impl, case):
    """An overlap check whose span stops at the start of an input's last
    element, not past it, accepts an out that begins there; the first
    program's store then changes what a later one reads."""
    from attnfuzz.kernels import _checks

    case = dataclasses.replace(case, options=(("out", "sharing an input's last element"),))
    right = checks.get("bad_out").run(implementations.get(impl), case)
    assert all(v.ok for v in right) and "refused" in right[0].check, right
    span = _checks._span
    monkeypatch.setattr(_checks, "_span", lambda t: (span(t)[0], span(t)[1] - t.element_size()))
    planted = checks.get("bad_out").run(implementations.get(impl), case)
    assert not all(v.ok for v in planted), planted


def _same_dtype_for_the_second_input_only(names, tensors):
    """A dtype check that compares the second input with the first, not the third."""
    if tensors[1].dtype != tensors[0].dtype:
        raise TypeError(f"{names[1]} has another dtype")


@pytest.mark.parametrize("impl", ["flash", "decode", "naive"])
def test_an_input_in_another_dtype_is_refused_or_computed_at_the_outputs(monkeypatch, impl):
    """A float32 call with a float16 v: refused by a kernel that checks every
    input's dtype; let through by one that checks only k's, it is computed at
    v's 16 bits and misses the float32 bound.  A plain float32 torch function
    answers right, and a 16-bit case with a float32 v is refused."""
    from attnfuzz.kernels import _checks

    prop = checks.get("mixed_dtypes")
    case = dataclasses.replace(TWO_BATCHES, options=(("mixed", "v float16"),))
    wide = dataclasses.replace(TWO_BATCHES, dtype="float16", options=(("mixed", "v float32"),))
    for right in (case, wide):
        (verdict,) = prop.run(implementations.get(impl), right)
        assert verdict.ok and "refused" in verdict.check, verdict
    plain = implementations.get("tests.user_attention:mine@attnfuzz")
    assert all(v.ok for v in prop.run(plain, case))
    monkeypatch.setattr(_checks, "check_same_dtype_device", _same_dtype_for_the_second_input_only)
    (planted,) = prop.run(implementations.get(impl), case)
    assert not planted.ok and planted.kind == "not refused", planted


@pytest.mark.parametrize("impl", ["flash", "decode", "naive", "sdpa_math",
                                  "tests.user_attention:mine@attnfuzz"])
def test_inputs_whose_shapes_disagree_are_refused(impl):
    prop = checks.get("bad_shapes")
    gqa = dataclasses.replace(TWO_BATCHES, hq=4, hkv=2)
    assert len(shape_breaks(gqa)) == 6
    for case in (TWO_BATCHES, gqa):
        for name in shape_breaks(case):
            (verdict,) = prop.run(implementations.get(impl),
                                  dataclasses.replace(case, options=(("shapes", name),)))
            assert verdict.ok and "refused" in verdict.check, verdict


def test_a_function_that_answers_inputs_whose_shapes_disagree_is_found():
    """A function that trims k and v to agree answers; every answer is a finding."""
    prop = checks.get("bad_shapes")
    lenient = implementations.get("tests.user_attention:mine_lenient@attnfuzz")
    answered = {name for name in shape_breaks(TWO_BATCHES) if not prop.run(
        lenient, dataclasses.replace(TWO_BATCHES, options=(("shapes", name),)))[0].ok}
    assert answered == {"v with one more key than k", "k with one more key than v",
                        "k with one more head dim than q"}, answered


def test_the_refusal_properties_build_their_calls_from_any_drawn_case():
    """No key (nothing to copy along the keys) and an expanded input (no
    buffer of its strides to copy it into) are refused or skipped, not a
    crash of the harness."""

    no_key = AttentionCase(batch=1, hq=1, hkv=1, sq=1, sk=0, d=16, dv=16)
    for name in shape_breaks(no_key):
        (verdict,) = checks.get("bad_shapes").run(
            implementations.get("naive"), dataclasses.replace(no_key, options=(("shapes", name),)))
        assert verdict.ok, verdict
    expanded = MatmulCase(batch=(2, 3), m=1, n=1, k=1, b_layout=named("expand_batch", 4),
                          options=(("out", "sharing an input's last element"),))
    assert all(v.ok for v in checks.get("bad_out").run(implementations.get("matmul"), expanded))


def test_a_backward_is_owed_when_only_some_inputs_require_grad():
    """The gradients property draws calls where one or two of q, k, v require
    grad; a function that skips its backward unless q does is found there."""
    from attnfuzz.properties.implementations.implementation import ContractViolation

    prop = checks.get("gradients")
    impl = implementations.get("tests.user_attention:mine_grad_needs_q@attnfuzz#backward=yes")
    case = dataclasses.replace(TWO_BATCHES, backward=True)
    assert all(v.ok for v in prop.run(impl, case))
    for only in ("k", "v", "k,v"):
        partial = dataclasses.replace(case, options=(("grad_of", only),))
        with pytest.raises(ContractViolation, match="does not require grad"):
            prop.run(impl, partial)
        right = prop.run(implementations.get("naive"), partial)
        names = {v.check for v in right}
        assert all(v.ok for v in right) and {f"d{r}" for r in only.split(",")} <= names, right
        assert not {"dq"} & names, names
    seen = set()

    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(prop.cases(implementations.get("naive"), "float32"))
    def draw(c):
        seen.add(dict(c.options).get("grad_of"))

    draw()
    assert None in seen and len(seen) > 2, seen


def _count_from_zero(value, name):
    # The planted bug: a count check one off (< 0 for < 1), so 0 passes on.
    if value is not None and value < 0:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def _count_unnamed(value, name):
    # The planted bug: the right check, with an error that names nothing.
    if value is not None and value < 1:
        raise ValueError("bad value")
    return value


def test_an_option_just_outside_its_values_is_refused_naming_it(monkeypatch):
    """decode's split count: 0 and -1 are refused with a ValueError naming
    num_splits; a check that lets 0 through (it then dies dividing by it) or
    an error that names nothing is an ``unclear`` finding; a function without
    integer options has no such round."""
    from attnfuzz.kernels import flash as flash_kernels

    prop = checks.get("bad_options")
    decode = implementations.get("decode")
    assert option_edges(decode.options) == ("num_splits=0", "num_splits=-1")
    assert not prop.applies(implementations.get("tests.user_attention:mine@attnfuzz"))
    cases = [dataclasses.replace(TWO_BATCHES, options=(("bad_option", e),))
             for e in option_edges(decode.options)]
    for case in cases:
        (verdict,) = prop.run(decode, case)
        assert verdict.ok and "refused (ValueError)" in verdict.check, verdict
    for planted in (_count_from_zero, _count_unnamed):
        monkeypatch.setattr(flash_kernels, "_check_count", planted)
        (verdict,) = prop.run(decode, cases[0])
        assert not verdict.ok and verdict.kind == "unclear", verdict
        assert "num_splits=0" in verdict.check, verdict


def test_a_backward_that_reads_an_output_changed_in_place_is_found():
    """An output changed in place before the backward: saved by
    save_for_backward, autograd refuses (no verdict); kept on ctx, the
    backward reads the changed values and its gradients move."""
    case = dataclasses.replace(SMALL, batch=1, hq=2, hkv=2, sq=5, sk=7, dv=16, backward=True)
    prop = checks.get("gradient_relations")
    limits = "#backward=yes;causal=no;gqa=no;distinct_value_dim=no"
    saved = implementations.get(f"tests.user_attention:out_saved@attnfuzz{limits}")
    verdicts = prop.run(saved, case)
    assert all(v.ok for v in verdicts) and not any("in place" in v.check for v in verdicts)
    stashed = implementations.get(f"tests.user_attention:out_on_ctx@attnfuzz{limits}")
    failing = {v.check for v in prop.run(stashed, case) if not v.ok}
    assert failing == {"output changed in place: dq", "output changed in place: dk"}, failing


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_the_softmax_differentiated_alone_is_held_to_its_bound(dtype, monkeypatch):
    """Its backward passes; one that drops the scale, or writes dx into the
    dy it was handed (broadcast, as a loss of y.sum(0) hands it, or not), fails."""
    from attnfuzz.kernels import row_softmax

    prop = checks.get("softmax_gradients")
    impl = implementations.get("softmax")
    plain = SoftmaxCase(shape=(2, 5, 9), dtype=dtype, scale=2.0, causal=True)
    broadcast = dataclasses.replace(plain, x_layout=named("expand_batch", 3))
    for case in (plain, broadcast):
        assert all(v.ok for v in prop.run(impl, case)), prop.run(impl, case)
    real = row_softmax.launch_softmax_backward

    def unscaled(y, dy, dx, **options):
        real(y, dy, dx, **{**options, "scale": 1.0})

    def into_dy(y, dy, dx, **options):
        real(y, dy, dy, **options)
        dx.copy_(dy)

    for planted, failing in ((unscaled, {"dx"}), (into_dy, {"input dy modified"})):
        monkeypatch.setattr(row_softmax, "launch_softmax_backward", planted)
        got = {v.check for v in prop.run(impl, plain) if not v.ok}
        assert got == failing, (planted.__name__, got)
    monkeypatch.setattr(row_softmax, "launch_softmax_backward", into_dy)
    assert not all(v.ok for v in prop.run(impl, broadcast))


def _flash_in_qs_dtype(q, k, v, out, **kw):
    # Inputs of another dtype taken at q's: the answer mixed_dtypes accepts.
    return builtin._flash(q, k.to(q.dtype), v.to(q.dtype), out, **kw)


def test_a_mixed_dtype_past_the_other_dtypes_range_comes_at_its_largest():
    # float32 near_max values are past float16's range: cast as they are they
    # arrive as inf, and no answer is right.
    impl = Implementation("casts to q's dtype", "attention", _flash_in_qs_dtype)
    case = AttentionCase(batch=1, hq=1, hkv=1, sq=1, sk=2, d=16, dv=16,
                         values=Values("near_max", 1.0, 0), options=(("mixed", "v float16"),))
    verdicts = checks.get("mixed_dtypes").run(impl, case)
    assert verdicts and all(v.ok for v in verdicts), verdicts
