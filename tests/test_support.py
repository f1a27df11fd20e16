"""Declared support: drawn cases stay inside it, cases just outside must be refused.

The user functions here compute attention plainly in torch (``tests/user_attention``);
wrappers add what a kernel author's function does at its limits: raise on
what it does not support, or answer anyway (rightly or wrongly).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from pathlib import Path

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attnfuzz.properties import checks, implementations, outside_support, strategies
from attnfuzz.properties.checks.oracle import against_oracle
from attnfuzz.properties.implementations.support import Support, parse
from attnfuzz.properties.model.cases import AttentionCase, build
from attnfuzz.properties.model.layouts import named
from attnfuzz.properties.model.values import Values
from attnfuzz.properties.run import cli, harness
from tests import user_attention

NARROW = Support(dtypes=("float32",), head_dims=(16, 32), gqa=False, alignments=("top_left",),
                 cross=False, layouts="last_dim_contiguous", max_seq=40, max_magnitude=20.0)


def test_a_spec_round_trips_and_bad_ones_name_the_key():
    assert parse(NARROW.spec()) == NARROW
    assert parse("") == Support() and Support().spec() == ""
    assert parse("causal=no").alignments == ()
    for spec, fragment in [("head_dims=a", "head_dims"), ("gqa=maybe", "gqa"),
                           ("bogus=1", "KEY one of"), ("layouts=diagonal", "layouts"),
                           ("max_seq=0", "max_seq"), ("max_magnitude=inf", "max_magnitude")]:
        with pytest.raises(ValueError, match=fragment):
            parse(spec)
    with pytest.raises(TypeError, match="gqa"):
        Support(gqa=1)


def _declared(fn: str, support: Support, convention: str = "attnfuzz"):
    return implementations.get(f"tests.user_attention:{fn}@{convention}#{support.spec()}")


def test_every_drawn_case_is_inside_the_support():
    impl = _declared("mine", NARROW)

    @settings(max_examples=80, deadline=None, database=None)
    @given(checks.get("oracle").cases(impl, "float32"))
    def drawn(case):
        assert NARROW.first_broken_limit(case) is None, (NARROW.first_broken_limit(case), case)
        assert max(abs(case.values.limit or math.inf), 0) <= 20.0

    drawn()


@pytest.mark.parametrize("limit", outside_support.broken_limits(NARROW))
def test_each_outside_case_breaks_the_declared_limit_it_names(limit):
    @settings(max_examples=15, deadline=None, database=None)
    @given(outside_support.outside(NARROW, "float32", limits=(limit,)))
    def drawn(case):
        assert NARROW.first_broken_limit(case) == limit, case

    drawn()


def test_the_refusal_property_breaks_every_limit_it_can():
    # bfloat16 is no refusal test on the interpreter (its arithmetic is wrong there).
    assert set(outside_support.broken_limits(NARROW)) >= {
        "head_dim", "gqa", "causal alignment", "sq != sk", "layout", "max_seq"}
    assert "max_magnitude" not in outside_support.OUTSIDE  # outside it, overflow is no finding


def test_no_limit_means_no_refusal_property():
    assert not checks.get("refuses").applies(_declared("mine", Support()))
    assert checks.get("refuses").applies(_declared("mine", Support(gqa=False)))


# What a kernel author's function does outside what it supports: for a head
# dim other than 16, raise (right), answer right, or answer garbage (a finding).
def refusing(q, k, v, **kw):
    if q.shape[-1] != 16:
        raise ValueError(f"q: head dim {q.shape[-1]} unsupported")
    return user_attention.mine(q, k, v, **kw)


def answering_right(q, k, v, **kw):
    return user_attention.mine(q, k, v, **kw)


def garbage_outside(q, k, v, **kw):
    # Right inside ONLY_16 and the spec of the command's test below, wrong on
    # every case outside them, so any case the `refuses` round draws shows it.
    out = user_attention.mine(q, k, v, **kw)
    inside = (q.dtype == torch.float32 and q.shape[-1] == 16 and v.shape[-1] == 16
              and q.shape[1] == k.shape[1] and not kw.get("causal"))
    return out if inside else out * 0.5


ONLY_16 = Support(dtypes=("float32",), head_dims=(16,))


@pytest.mark.parametrize(("fn", "fails"), [("refusing", False), ("answering_right", False),
                                           ("garbage_outside", True)])
def test_outside_the_support_a_wrong_answer_is_a_finding(fn, fails):
    impl = implementations.get(f"tests.test_support:{fn}#{ONLY_16.spec()}")
    case = AttentionCase(d=32, dv=32, sq=5, sk=7, values=Values(seed=3))
    verdicts = checks.get("refuses").run(impl, case)
    bad = checks.failures(verdicts)
    assert bool(bad) == fails, verdicts
    if fails:
        assert bad[0].kind == "not refused" and "head_dim" in bad[0].check


def prescaling_v(q, k, v, **kw):
    # Scales V up before the sum and down after it, in the inputs' dtype:
    # near fp32's maximum the scaled values overflow to infinities.
    scale = kw.get("scale") or q.shape[-1] ** -0.5
    p = torch.softmax((q @ k.transpose(-1, -2)) * scale, dim=-1)
    return p @ (v * 32) / 32


def test_an_infinity_where_the_exact_result_is_finite_is_an_overflow():
    impl = implementations.get("tests.test_support:prescaling_v")
    case = AttentionCase(sq=4, sk=1, values=Values(family="near_max", seed=1))
    bad = checks.failures(checks.get("oracle").run(impl, case))
    assert bad and bad[0].kind == "overflow", bad
    # Declared for magnitudes it handles, it is not drawn such values at all.
    within = AttentionCase(sq=4, sk=1, values=Values(family="near_max", seed=1, limit=1e3))
    assert not checks.failures(checks.get("oracle").run(impl, within))


def out_only(q, k, v, **kw):
    return user_attention.mine(q, k, v, **kw)


def test_a_declared_lse_must_come_back():
    impl = implementations.get(f"tests.test_support:out_only#{Support(lse=True).spec()}")
    bad = checks.failures(checks.get("oracle").run(impl, AttentionCase(sq=3, sk=3)))
    assert bad and "lse" in bad[0].check


def test_the_command_fuzzes_within_the_declared_support(capsys, tmp_path):
    spec = "dtypes=float32;head_dims=16;gqa=no;causal=no"
    argv = ["run", "--impl", "tests.test_support:garbage_outside", "--supports", spec,
            "--examples", "15", "--seed", "4", "--jobs", "1", "--dump-dir", str(tmp_path)]
    code = cli.main(argv)
    out = capsys.readouterr().out
    assert code == 1, out
    assert "not refused" in out, out
    rows = [ln for ln in out.splitlines() if ln.startswith("tests.test_support")]
    # Rounds start in priority order (oracle, mixed_dtypes, bad_shapes, refuses,
    # metamorphic, stateful); one worker, so the pair's first failure, which a
    # refusal property finds (calls outside the support answered, not
    # refused), ends it before the later rounds start.
    refusals = {"mixed_dtypes", "bad_shapes", "refuses"}
    started = {ln.split()[11] for ln in rows}
    assert "oracle" in started and started <= {"oracle", *refusals}, out
    failing = {ln.split()[11] for ln in rows if ln.split()[3] != "0"}
    assert len(failing) == 1 and failing <= refusals, out  # inside its support it is right
    (dump,) = tmp_path.iterdir()
    assert harness.replay(dump).failed


def test_a_bad_support_spec_is_one_line(capsys):
    code = cli.main(["run", "--impl", "tests.user_attention:mine", "--supports", "gqa=perhaps"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "gqa" in err, err


# --- each declared limit, both ways ----------------------------------------------------------
#
# A function right inside one limit and wrong (NaN, whatever the values' size)
# just outside it: drawn inside, the oracle never sees it wrong; drawn just
# outside, the `refuses` property finds the wrong answer and names the limit.
def _off_where(outside: bool, q, k, v, **kw):
    out = user_attention.mine(q, k, v, **kw)
    return torch.full_like(out, math.nan) if outside else out


def wrong_unless_causal(q, k, v, **kw):
    return _off_where(not kw.get("causal"), q, k, v, **kw)


def wrong_past_one_query(q, k, v, **kw):
    return _off_where(q.shape[2] > 1, q, k, v, **kw)


def wrong_under_four_queries(q, k, v, **kw):
    return _off_where(q.shape[2] < 4, q, k, v, **kw)


def wrong_without_keys(q, k, v, **kw):
    return _off_where(k.shape[2] < 1, q, k, v, **kw)


def wrong_off_four_queries(q, k, v, **kw):
    return _off_where(q.shape[2] % 4 != 0, q, k, v, **kw)


def wrong_off_eight_keys(q, k, v, **kw):
    return _off_where(k.shape[2] % 8 != 0, q, k, v, **kw)


def wrong_off_power_of_two_groups(q, k, v, **kw):
    return _off_where(q.shape[1] // k.shape[1] not in (1, 2, 4), q, k, v, **kw)


def wrong_on_mixed_strides(q, k, v, **kw):
    # Its spec makes q, k and v one shape: one shared layout is then one stride.
    return _off_where(not q.stride() == k.stride() == v.stride(), q, k, v, **kw)


def wrong_on_negative_scale(q, k, v, **kw):
    return _off_where((kw.get("scale") or 1.0) < 0, q, k, v, **kw)


def wrong_on_given_scale(q, k, v, **kw):
    scale = kw.get("scale")
    return _off_where(scale is not None and not math.isclose(scale, q.shape[-1] ** -0.5),
                      q, k, v, **kw)


def wrong_off_sixteens(q, k, v, **kw):
    d, dv = q.shape[-1], v.shape[-1]
    return _off_where(any(x % 16 or x > 64 for x in (d, dv)), q, k, v, **kw)


# limit (as ``first_broken_limit`` names it) -> (spec declaring it, the function
# wrong just outside it)
LIMITS = {
    "non-causal": ("causal=only", "wrong_unless_causal"),
    "max_sq": ("max_sq=1", "wrong_past_one_query"),
    "min_sq": ("min_sq=4", "wrong_under_four_queries"),
    "min_sk": ("min_sk=1", "wrong_without_keys"),
    "sq_multiple": ("sq_multiple=4", "wrong_off_four_queries"),
    "sk_multiple": ("sk_multiple=8", "wrong_off_eight_keys"),
    "group": ("groups=1..4*2", "wrong_off_power_of_two_groups"),
    "mixed layouts": ("mixed_layouts=no;cross=no;gqa=no;distinct_value_dim=no",
                      "wrong_on_mixed_strides"),
    "scale": ("scale=positive", "wrong_on_negative_scale"),
    "head_dim": ("head_dims=16..64+16", "wrong_off_sixteens"),
}
DEFAULT_SCALE = ("scale=default", "wrong_on_given_scale")


def _limited(spec: str, fn: str):
    support = parse(f"dtypes=float32;{spec}")
    return support, implementations.get(f"tests.test_support:{fn}#{support.spec()}")


@pytest.mark.parametrize(("spec", "fn"), [*LIMITS.values(), DEFAULT_SCALE],
                         ids=[*LIMITS, "default scale"])
def test_a_declared_limit_is_never_drawn_outside(spec, fn):
    support, impl = _limited(spec, fn)

    # Enough cases that a free draw's Sk = 0 and negative scales come up.
    @settings(max_examples=60, deadline=None, database=None)
    @given(checks.get("oracle").cases(impl, "float32"))
    def drawn(case):
        assert support.first_broken_limit(case) is None, (support.first_broken_limit(case), case)
        assert not checks.failures(checks.get("oracle").run(impl, case)), case

    drawn()


@pytest.mark.parametrize("limit", ["non-causal", "max_sq", "min_sq", "min_sk", "sq_multiple",
                                   "sk_multiple", "mixed layouts", "scale"])
def test_a_draw_at_a_limits_edge_is_moved_inside_it(limit):
    # Draws reach some edges rarely (Sk = 0 in about one in fifty): each is moved here.
    support, _ = _limited(*LIMITS[limit])
    for sq, sk, scale in itertools.product((1, 2, 3, 5), (0, 1, 7), (None, -0.5, 0.3)):
        case = AttentionCase(sq=sq, sk=sk, scale=scale, k_layout=named("bshd"))
        for cover in (False, True):
            moved = strategies.inside(case, support, keys_cover_queries=cover)
            assert support.first_broken_limit(moved) is None, (moved, case)
            assert not cover or 1 <= moved.sq <= moved.sk


@pytest.mark.parametrize(("limit", "spec", "fn"),
                         [(k, *v) for k, v in LIMITS.items()] + [("scale", *DEFAULT_SCALE)],
                         ids=[*LIMITS, "default scale"])
def test_a_declared_limit_is_refused_just_outside(limit, spec, fn):
    support, impl = _limited(spec, fn)
    assert limit in outside_support.broken_limits(support)

    @settings(max_examples=6, deadline=None, database=None)
    @given(outside_support.outside(support, "float32", limits=(limit,)))
    def drawn(case):
        assert support.first_broken_limit(case) == limit, case
        bad = checks.failures(checks.get("refuses").run(impl, case))
        assert bad and bad[0].kind == "not refused" and limit in bad[0].check, (bad, case)

    drawn()


def test_a_limit_of_lengths_stays_expressible_where_keys_cover_queries():
    # A paged call's queries are its last keys: Sq <= Sk, so no Sk of 0 to refuse.
    support = parse("max_sq=2;min_sk=1;sk_multiple=4")
    assert "min_sk" not in outside_support.broken_limits(support, keys_cover_queries=True)
    assert "min_sk" in outside_support.broken_limits(support)

    @settings(max_examples=20, deadline=None, database=None)
    @given(outside_support.outside(support, "float32", keys_cover_queries=True))
    def drawn(case):
        broken = support.first_broken_limit(case)
        assert 1 <= case.sq <= case.sk and broken in ("max_sq", "sk_multiple", "dtype"), case

    drawn()


def test_python_and_spec_take_the_same_keys_values_and_defaults():
    from attnfuzz.properties.implementations import support as module

    assert [f.name for f in dataclasses.fields(Support)] == list(module.KEYS)
    assert all(getattr(Support(), k) == key.default for k, key in module.KEYS.items())
    typed = Support(head_dims=range(16, 257, 16), groups=(1, 2, 4, 8, 16), causal="only",
                    max_sq=1, min_sk=1, sk_multiple=16, mixed_layouts=False, scale="positive",
                    page_sizes=(16, 32, 64), gqa=True, backward=True, windows=True)
    text = ("head_dims=16..256+16;groups=1..16*2;causal=only;max_sq=1;min_sk=1;"
            "sk_multiple=16;mixed_layouts=no;scale=positive;page_sizes=16..64*2;backward=yes;"
            "windows=yes")
    assert typed.spec() == text and parse(text) == typed
    # Each Python argument takes its spec text too.
    assert Support(**{k: v for k, _, v in (i.partition("=") for i in text.split(";"))}) == typed
    assert Support(causal=False) == parse("causal=no") == Support(alignments=())
    assert Support(gqa=False) == parse("groups=1") and parse("groups=1").spec() == "gqa=no"


def test_a_range_prints_short():
    assert Support(head_dims=range(1, 129)).spec() == "head_dims=1..128"
    assert parse("head_dims=8,16..24+8,32..256+8").spec() == "head_dims=8..256+8"
    assert parse("groups=1,3,8..16*2").groups == (1, 3, 8, 16)
    dims = (16, 24, 32, 40, 64, 72, 80, 96, 112, 128, 160, 192, 256)
    assert parse(Support(head_dims=dims).spec()).head_dims == dims
    assert Support(page_sizes="16..4096*2").admits_page_size(256)
    assert not Support(page_sizes="16..4096*2").admits_page_size(24)


@pytest.mark.parametrize(("spec", "fragment"), [
    ("causal=sometimes", "causal"), ("scale=negative", "scale"), ("groups=0..4", "groups"),
    ("head_dims=16..8", "head_dims"), ("head_dims=1..9*1", "head_dims"), ("min_sk=-1", "min_sk"),
    ("sq_multiple=0", "sq_multiple"), ("max_sq=1;min_sq=2", "SQ"), ("gqa=no;groups=2", "groups"),
    ("causal=only;alignments=none", "causal"), ("cross=no;sq_multiple=2;sk_multiple=3;max_seq=5",
                                                "Sq and Sk"),
])
def test_a_bad_or_empty_declaration_names_the_key(spec, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse(spec)


def test_the_readme_and_the_help_show_the_one_table():
    from attnfuzz.properties.implementations import support as module

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert module.table(markdown=True) in readme
    text = " ".join(cli.build_parser().format_help().split()) + " ".join(
        cli.build_parser()._subparsers._group_actions[0].choices["run"].format_help().split())
    assert all(f"{k}=" in text for k in module.KEYS), text


def refusing_past_eight_queries(q, k, v, **kw):
    # A limit its declaration below leaves out.
    if q.shape[2] > 8:
        raise ValueError(f"q: {q.shape[2]} queries, at most 8 supported")
    return user_attention.mine(q, k, v, **kw)


def test_a_refusal_inside_the_declared_support_is_one_finding_not_the_end(capsys, tmp_path):
    argv = ["run", "--impl", "tests.test_support:refusing_past_eight_queries", "--supports",
            "dtypes=float32;gqa=no", "--examples", "8", "--seed", "3", "--jobs", "1",
            "--dump-dir", str(tmp_path), "--database", "none"]
    code = cli.main(argv)
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert code == 1, out
    assert "findings: 1 crash" in out and "campaign goes on" in out, out
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("tests.test_support")]
    # Every property of the pair ran its cases, each raising one skipped, not reported again.
    assert {r[11] for r in rows} == {"oracle", "mixed_dtypes", "bad_shapes", "refuses",
                                     "metamorphic", "stateful"}, out
    assert all(int(r[2]) > 0 for r in rows) and "not started" not in out, out
    assert len(list(tmp_path.iterdir())) == 1


def test_how_a_backward_forms_delta_and_sums_a_group_is_declared_in_one_line():
    from attnfuzz.properties.checks.gradients import arithmetic

    said = parse("backward=yes;backward_delta=output;group_sum=rounded")
    assert (said.backward_delta, said.group_sum) == ("output", "rounded")
    with pytest.raises(ValueError, match=r"backward_delta= takes any or output or probs"):
        parse("backward_delta=fused")
    with pytest.raises(ValueError, match=r"group_sum= takes any or fp32 or rounded"):
        parse("group_sum=fp16")
    said = [arithmetic(implementations.get(n).support) for n in ("flash", "decode", "naive")]
    assert said == [{"delta_from": "output", "group_sum": "fp32", "logits_dtype": "fp32"}] * 2 + [
        {"delta_from": "probs", "group_sum": "fp32", "logits_dtype": "fp32"}]
    assert arithmetic(implementations.Implementation("x", "attention", print).support) == {
        "delta_from": None, "group_sum": None, "logits_dtype": "fp32"}


def test_the_gradient_relations_bound_a_group_sum_as_the_implementation_says():
    # Unsaid, a GQA dK and dV bound holds for a sum of rounded heads too; a
    # kernel that says fp32 keeps the tighter bound in its relations as well.
    from attnfuzz.properties.checks.gradients import _said_oracle, gradient_oracle
    from attnfuzz.properties.model.cases import build

    case = AttentionCase(hq=4, hkv=1, sq=20, sk=24, d=16, dv=16, dtype="float16",
                         backward=True, do_layout=named("contiguous"))
    built = build(case)
    said = _said_oracle(implementations.get("flash"), case, built)
    fp32, either = (gradient_oracle(case, built, group_sum=how) for how in ("fp32", None))
    plain = _said_oracle(implementations.Implementation("x", "attention", print), case, built)
    for name in ("dq", "dk", "dv"):
        assert torch.equal(said[name][1], fp32[name][1]), name
        assert torch.equal(plain[name][1], either[name][1]), name
    for name in ("dk", "dv"):
        assert bool((either[name][1] >= fp32[name][1]).all())
        assert bool((either[name][1] > fp32[name][1]).any()), name


def _eager(supports: str, buggy: bool = False) -> implementations.Implementation:
    fn = user_attention.eager_buggy if buggy else user_attention.eager
    return implementations.of_function(fn, supports=parse(supports))


def test_logits_rounded_to_the_input_dtype_are_declared_in_one_line():
    assert parse("logits=rounded").logits == "rounded" and parse("").logits == "fp32"
    with pytest.raises(ValueError, match=r"logits= takes fp32 or rounded"):
        parse("logits=fp16")


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_eager_attention_passes_said_rounded_and_each_failure_unsaid_says_how(data):
    # Its logits rounded to float16 put about a third of these cases past the
    # fp32 logits' bound: each such failure says how to declare it.
    said = _eager("dtypes=float16;logits=rounded")
    case = data.draw(checks.get("oracle").cases(said, "float16"))
    # Past float16's range q @ k^T overflows (inf, or NaN times a zero scale):
    # a finding of eager attention, which the bound of rounded logits does not excuse.
    q, k = (build(case).exact[r] for r in "qk")
    products = q.abs() @ k.abs().repeat_interleave(case.group, 1).transpose(-1, -2)
    assume(products.numel() == 0 or float(products.max()) < torch.finfo(torch.float16).max)
    assert not checks.failures(against_oracle(said, case))
    note = "say so with --supports logits=rounded"
    for v in checks.failures(against_oracle(_eager("dtypes=float16"), case)):
        assert note in v.note and note in v.describe(), v.describe()


def test_a_failure_of_unrounded_logits_is_told_how_and_a_dropped_key_is_not(monkeypatch,
                                                                            tmp_path):
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))  # the finding's dump
    case = AttentionCase(hq=2, hkv=2, sq=8, sk=64, d=64, dv=64, dtype="float16",
                         values=Values("normal", 1.7, 0))
    (told,) = checks.failures(against_oracle(_eager("dtypes=float16"), case))
    assert "logits=rounded" in told.note, told.describe()
    # A campaign prints a finding's first line as it arrives: the note is there.
    with pytest.raises(harness.Finding) as found:
        harness.check("oracle", _eager("dtypes=float16").name, case)
    assert "say so with --supports logits=rounded" in str(found.value).splitlines()[0]
    for supports in ("dtypes=float16", "dtypes=float16;logits=rounded"):
        found = checks.failures(against_oracle(_eager(supports, buggy=True), case))
        assert found and not any(v.note for v in found), [v.describe() for v in found]
