"""Declared support: drawn cases stay inside it, cases just outside must be refused.

The user functions here compute attention plainly in torch (``tests/user_attention``);
wrappers add what a kernel author's function does at its limits: raise on
what it does not support, or answer anyway (rightly or wrongly).
"""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings

from attnfuzz.properties import checks, implementations, strategies
from attnfuzz.properties.implementations.support import Support, parse
from attnfuzz.properties.model.cases import AttentionCase
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
        assert NARROW.admits(case) is None, (NARROW.admits(case), case)
        assert max(abs(case.values.limit or math.inf), 0) <= 20.0

    drawn()


@pytest.mark.parametrize("limit", strategies.broken_limits(NARROW))
def test_each_outside_case_breaks_the_declared_limit_it_names(limit):
    @settings(max_examples=15, deadline=None, database=None)
    @given(strategies.outside(NARROW, "float32", limits=(limit,)))
    def drawn(case):
        assert NARROW.admits(case) == limit, case

    drawn()


def test_the_refusal_property_breaks_every_limit_it_can():
    # bfloat16 is no refusal test on the interpreter (its arithmetic is wrong there).
    assert set(strategies.broken_limits(NARROW)) >= {
        "head_dim", "gqa", "causal alignment", "sq != sk", "layout", "max_seq"}
    assert "max_magnitude" not in strategies.OUTSIDE  # outside it, overflow is no finding


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
    # Rounds start in priority order (oracle, refuses, metamorphic, stateful);
    # one worker, so the pair's failure ends it before the others start.
    assert {ln.split()[11] for ln in rows} == {"oracle", "refuses"}, out
    failing = {ln.split()[11] for ln in rows if ln.split()[3] != "0"}
    assert failing == {"refuses"}, out  # inside its support it is right
    (dump,) = tmp_path.iterdir()
    assert harness.replay(dump).failed


def test_a_bad_support_spec_is_one_line(capsys):
    code = cli.main(["run", "--impl", "tests.user_attention:mine", "--supports", "gqa=perhaps"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "gqa" in err, err
