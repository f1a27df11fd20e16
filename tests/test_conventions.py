"""Any importable attention function, called by its convention (``--impl MODULE:FUNCTION``).

The user functions of ``tests/user_attention.py`` compute attention plainly in
torch, each in one convention's signature and tensor layout; each has a
planted twin that drops the last key of every row (the varlen one's reads
past its sequence's keys instead).  A correct one must pass
the oracle property on every case its convention can express; a planted one
must be found, dumped and replayed from the dump in a new process.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings

from attnfuzz.properties import checks, implementations
from attnfuzz.properties.checks.serving import LONG_CACHE
from attnfuzz.properties.run import cli, harness

ROOT = Path(__file__).resolve().parents[1]
MODULE = "tests.user_attention"
USERS = [("mine", "attnfuzz"), ("sdpa_like", "sdpa"), ("flash_like", "flash_attn")]
# A function of packed sequences; its planted twin reads every sequence's keys
# to the longest one's length, which only sequences of different lengths show.
VARLEN = ("varlen_like", "varlen")
# A function over a paged cache; its planted twin reads every sequence's keys
# to the end of its last page.
PAGED = ("paged_like", "paged")
# Packed queries over a paged cache; its planted twin aligns each sequence's
# causal mask top-left.
PAGED_VARLEN = ("paged_varlen_like", "paged_varlen")


@pytest.mark.parametrize(("function", "convention"), [*USERS, VARLEN, PAGED, PAGED_VARLEN])
def test_a_correct_function_passes_in_its_convention(function, convention):
    impl = implementations.get(f"{MODULE}:{function}@{convention}")

    @settings(max_examples=25, deadline=None, database=None)
    @given(checks.get("oracle").cases(impl, "float32"))
    def run(case):
        harness.check("oracle", impl.name, case)

    run()


@pytest.mark.parametrize(("convention", "alignment"), [("sdpa", "top_left"),
                                                       ("flash_attn", "bottom_right")])
def test_only_masks_the_convention_can_express_are_drawn(convention, alignment):
    impl = implementations.get(f"{MODULE}:mine@{convention}")
    seen = set()

    @settings(max_examples=60, deadline=None, database=None)
    @given(checks.get("oracle").cases(impl, "float32"))
    def draw(case):
        if case.causal:
            seen.add(case.alignment)

    draw()
    assert seen == {alignment}


@pytest.mark.parametrize(("function", "convention"), USERS)
def test_a_planted_bug_is_found_dumped_and_replayed(capsys, tmp_path, function, convention):
    argv = ["run", "--impl", f"{MODULE}:{function}_buggy", "--convention", convention,
            "--dtype", "float32", "--examples", "40", "--seed", "3", "--dump-dir", str(tmp_path)]
    code = cli.main(argv)
    out = capsys.readouterr().out
    assert code == 1, out
    # Every property that applies runs; the oracle's dump is the one to replay here.
    (dump,) = [d for d in tmp_path.iterdir() if d.name.startswith("oracle-")]
    assert f"{function}_buggy@{convention}" in (dump / "case.json").read_text()
    assert "FAIL out" in _replay_failing(dump)


def _replay_failing(dump: Path) -> str:
    """``attnfuzz replay`` of ``dump`` in a new process, which must still fail: its output."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    replay = subprocess.run([sys.executable, "-m", "attnfuzz", "replay", str(dump)], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=120)
    assert replay.returncode == 1, replay.stdout + replay.stderr
    return replay.stdout


@pytest.mark.parametrize(("spec", "fragment"), [
    ("nosuch_module_xyz:fn", "cannot import nosuch_module_xyz"),
    (f"{MODULE}:nosuch", "has no 'nosuch'"),
    (f"{MODULE}:USERS_ARE_NOT_HERE", "has no"),
    (":fn", "expected MODULE:FUNCTION"),
    (f"{MODULE}:mine@nosuch", "unknown convention 'nosuch'"),
])
def test_a_bad_import_path_is_one_line(capsys, tmp_path, spec, fragment):
    code = cli.main(["run", "--impl", spec, "--examples", "1", "--dump-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and fragment in lines[0], err


@pytest.mark.parametrize(("source", "fragment"), [
    ("def attn(q, k, v:\n    pass\n", "SyntaxError at {file}:1: '(' was never closed"),
    ("import math\nraise RuntimeError('no GPU here')\n", "RuntimeError at {file}:2: no GPU here"),
    ("import no_such_module_of_theirs\n", "No module named 'no_such_module_of_theirs'"),
])
def test_a_file_that_fails_as_it_is_imported_is_one_line_that_says_where(
        capsys, tmp_path, source, fragment):
    file = tmp_path / "broken_attention.py"
    file.write_text(source)
    code = cli.main(["run", "--impl", f"{file}:attn", "--examples", "1",
                     "--dump-dir", str(tmp_path)])
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and fragment.format(file=file) in lines[0], err
    assert "broken_attention" not in sys.modules  # a fixed file imports anew


def test_a_file_path_imports_too(tmp_path):
    impl = implementations.get(f"{ROOT / 'tests' / 'user_attention.py'}:mine")
    assert impl.op == "attention" and not impl.writes_out


def test_a_declared_lse_that_is_not_returned_is_a_failure_that_says_so():
    from attnfuzz.properties.checks.oracle import against_oracle
    from attnfuzz.properties.model.cases import AttentionCase

    case = AttentionCase(hq=1, hkv=1, sq=3, sk=4, d=8, dv=8, dtype="float32")
    honest = implementations.get(f"{MODULE}:mine@attnfuzz")
    assert all(v.ok for v in against_oracle(honest, case))
    claims = implementations.get(f"{MODULE}:mine@attnfuzz#lse=yes")
    (failed,) = [v for v in against_oracle(claims, case) if not v.ok]
    assert "lse declared (lse=yes)" in failed.check and "(out, lse)" in failed.check


@pytest.mark.parametrize(("function", "hq", "fragment"), [
    ("sdpa_like_without_gqa@sdpa", 1, None),  # enable_gqa is passed only to GQA cases
    ("sdpa_like_without_gqa@sdpa", 2, "k: expected 2 heads as q has, got 1 (it takes no "
                                      "enable_gqa, and was given Hq = 2, Hkv = 1: take "
                                      "enable_gqa= or declare gqa=no)"),
    ("flash_like_without_scale@flash_attn", 1, "'softmax_scale' (give it the flash_attn "
                                                "convention's signature)"),
    ("flash_like_raising_type_error@flash_attn", 1, "TypeError: unsupported operand"),
    ("flash_like@attnfuzz", 1, "'scale' (its parameters are the flash_attn convention's: call "
                               "it as flash_attn)"),
    ("sdpa_like@flash_attn", 1, "'softmax_scale' (its parameters are the sdpa convention's"),
])
def test_a_call_the_functions_signature_cannot_take_says_what_to_do(
        function, hq, fragment, tmp_path, monkeypatch):
    """A TypeError of the function's own is left as it is."""
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    from attnfuzz.properties.checks.oracle import against_oracle
    from attnfuzz.properties.model.cases import AttentionCase

    impl = implementations.get(f"{MODULE}:{function}")
    case = AttentionCase(hq=hq, hkv=1, sq=3, sk=4, d=8, dv=8, dtype="float32")
    if fragment is None:
        assert all(v.ok for v in against_oracle(impl, case))
        return
    with pytest.raises(Exception) as raised:
        harness.check("oracle", impl.name, case)
    message = str(raised.value)
    # Its own refusal of other head counts is its own, with what to do added.
    own = "raising" in function or "without_gqa" in function
    assert fragment in message and ("convention's call" in message) == (not own)


def test_a_function_with_sdpas_older_signature_must_refuse_other_head_counts_itself():
    """Given Hq != Hkv plainly, as SDPA's callers before enable_gqa gave them: a
    function declared gqa=no that answers them wrong is found, not excused by
    Python refusing a keyword it lacks."""
    from attnfuzz.properties.checks.refusal import refused_or_right
    from attnfuzz.properties.model.cases import AttentionCase

    case = AttentionCase(hq=4, hkv=2, sq=3, sk=5, d=8, dv=8, dtype="float32")
    refusing = implementations.get(f"{MODULE}:sdpa_like_without_gqa@sdpa#gqa=no")
    ([verdict],) = [refused_or_right(refusing, case)]
    assert verdict.ok and verdict.check == "refused gqa (ValueError)"
    tiling = implementations.get(f"{MODULE}:sdpa_like_tiling_heads@sdpa#gqa=no")
    found = [v for v in refused_or_right(tiling, case) if not v.ok]
    assert found and all(v.kind == "not refused" for v in found)


def test_the_registry_keeps_an_imported_implementation():
    name = f"{MODULE}:mine@attnfuzz"
    assert implementations.get(name) is implementations.get(name)


def layout_dependent(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    """Right to within rounding, but with other bits for strided keys: as a
    library that picks another GEMM for another stride."""
    from tests.user_attention import mine

    if k.is_contiguous() or causal:
        return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    p = torch.softmax(q.double() @ k.double().transpose(-1, -2) * scale, dim=-1)
    return (p @ v.double()).to(q.dtype)


def test_layout_relations_hold_a_library_to_its_bounds_and_ours_to_bits():
    from dataclasses import replace

    from attnfuzz.properties.model.cases import AttentionCase
    from attnfuzz.properties.model.layouts import named
    from attnfuzz.properties.model.values import Values

    impl = implementations.get("tests.test_conventions:layout_dependent")
    case = AttentionCase(sq=9, sk=33, d=32, dv=32, k_layout=named("slice_s", 4, step=2),
                         values=Values(seed=5))
    relations = {v.check: v for v in checks.get("metamorphic").run(impl, case)}
    assert relations["layout independence"].ok, relations
    promised = replace(impl, bitwise_layouts=True)
    relations = {v.check: v for v in checks.get("metamorphic").run(promised, case)}
    assert not relations["layout independence"].ok, relations


# A serving function: the serving property holds the right one; the planted
# one is found, and by which property and check.  The varlen bug needs
# sequences of other lengths (no other property's calls have them); the
# paged one shows wherever a sequence ends part-way into a page; the
# paged_varlen one needs sequences of other query counts in one call.  The
# varlen bug's keys run into the next sequence's: a sequence's rows, or a
# guard's (one query, no key) after it, show it.
SERVING_USERS = [
    (*VARLEN, f"{VARLEN[0]}_buggy", "serving-", "FAIL varlen "),
    (*PAGED, f"{PAGED[0]}_buggy", "oracle-", "FAIL out"),
    (*PAGED_VARLEN, "paged_varlen_like_longest", "serving-", "FAIL paged_varlen sequence"),
]


@pytest.mark.parametrize(("function", "convention", "buggy", "caught_by", "replayed"),
                         SERVING_USERS, ids=[u[1] for u in SERVING_USERS])
def test_a_serving_function_is_fuzzed_through_its_own_calls(capsys, tmp_path, function,
                                                            convention, buggy, caught_by,
                                                            replayed):
    right = implementations.get(f"{MODULE}:{function}@{convention}")

    @settings(max_examples=15, deadline=None, database=None)
    @given(checks.get("serving").cases(right, "float32"))
    def run(case):
        # A paged call's queries are its last keys' tokens.
        assert not right.new_tokens or 1 <= case.sq <= case.sk
        harness.check("serving", right.name, case)

    run()
    argv = ["run", "--impl", f"{MODULE}:{buggy}", "--convention", convention,
            "--dtype", "float32", "--examples", "20", "--seed", "3", "--dump-dir", str(tmp_path)]
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    (dump,) = tmp_path.iterdir()
    assert dump.name.startswith(caught_by), out
    assert replayed in _replay_failing(dump)


def test_a_paged_decode_step_runs_over_a_cache_longer_than_one_key_block():
    """A small case's serving calls also decode over its keys repeated past 64:
    a function that reads only its first 64 keys passes every call of the
    case's own lengths, and fails that one."""
    from attnfuzz.properties.model.cases import AttentionCase

    case = AttentionCase(batch=2, sq=3, sk=9, d=16, dv=16, causal=True)
    assert 9 < LONG_CACHE
    for function, fails in (("paged_like", False), ("paged_like_one_block", True)):
        impl = implementations.get(f"{MODULE}:{function}@paged")
        verdicts = checks.get("serving").run(impl, case)
        failing = {v.check.split(",")[0] for v in verdicts if not v.ok}
        assert failing == ({"paged decode over a long cache"} if fails else set()), verdicts


@pytest.mark.parametrize(("function", "convention"), [VARLEN, PAGED, PAGED_VARLEN])
def test_a_serving_call_takes_the_default_scale_where_the_case_draws_none(function, convention):
    """A case without a scale calls the serving entry points without one too:
    a twin whose own default is 1/D fails there, the right one passes."""
    from attnfuzz.properties.model.cases import AttentionCase

    case = AttentionCase(batch=2, sq=3, sk=9, d=16, dv=16, causal=True, scale=None)
    for name, fails in ((function, False), (f"{function}_default_scale", True)):
        impl = implementations.get(f"{MODULE}:{name}@{convention}")
        verdicts = checks.get("serving").run(impl, case)
        assert any(not v.ok for v in verdicts) == fails, (name, verdicts)


def test_a_varlen_call_passes_a_padded_max_seqlen_where_the_case_draws_one():
    """max_seqlen_q/k above the longest sequence are valid (a padded bucket):
    a function that refuses them is found only where the case pads them."""
    from attnfuzz.properties.model.cases import AttentionCase, Serving

    strict = implementations.get(f"{MODULE}:varlen_like_exact_max_seqlen@varlen")
    for choice in ("computed", "exact", "padded"):
        case = AttentionCase(batch=2, sq=3, sk=9, d=16, dv=16, causal=True,
                             serving=Serving(max_seqlen=choice))
        assert all(v.ok for v in checks.get("serving").run(
            implementations.get(f"{MODULE}:varlen_like@varlen"), case))
        if choice == "padded":
            with pytest.raises(ValueError, match="max_seqlen_q must be the longest"):
                checks.get("serving").run(strict, case)
        else:
            assert all(v.ok for v in checks.get("serving").run(strict, case))


def test_a_paged_function_is_drawn_only_what_its_call_can_say():
    impl = implementations.get(f"{MODULE}:{PAGED[0]}@{PAGED[1]}")
    assert impl.new_tokens and impl.alignments == ("bottom_right",) and impl.paged is not None


@pytest.mark.parametrize(("returned", "named"), [
    (lambda out, lse: (out, lse.transpose(0, 1)),
     "lse of shape (5, 2), expected (Hq=2, total_q=5)"),
    (lambda out, lse: out[:, :1], "out of shape (5, 1, 4), expected (total_q=5, Hq=2, Dv)"),
])
def test_a_varlen_result_of_the_wrong_shape_is_named(returned, named):
    from attnfuzz.properties.implementations.conventions import packed_call

    def fn(q, k, v, cu_q, cu_k, **kw):
        return returned(torch.zeros(q.shape[0], q.shape[1], 4), torch.zeros(q.shape[1], q.shape[0]))

    q = k = v = torch.zeros(5, 2, 4)
    cu = torch.tensor([0, 2, 5], dtype=torch.int32)
    with pytest.raises(AssertionError, match=re.escape(named)):
        packed_call(fn, "fn")(q, k, v, cu, cu, causal=False, scale=None, alignment="top_left")


@pytest.mark.parametrize(("returned", "named"), [
    (lambda out, lse: (out, lse.transpose(1, 2)),
     "lse of shape (1, 5, 2), expected (B=1, Hq=2, Sq=5)"),
    (lambda out, lse: out[:, :1], "out of shape (1, 1, 5, 4), expected (B=1, Hq=2, Sq=5, Dv)"),
])
def test_a_paged_result_of_the_wrong_shape_is_named(returned, named):
    from attnfuzz.properties.implementations.conventions import paged_call

    def fn(q, k_cache, v_cache, table, seqlens, **kw):
        return returned(torch.zeros(*q.shape[:3], 4), torch.zeros(*q.shape[:3]))

    q, cache = torch.zeros(1, 2, 5, 4), torch.zeros(2, 4, 1, 4)
    table, seqlens = torch.zeros(1, 2, dtype=torch.int32), torch.tensor([5], dtype=torch.int32)
    with pytest.raises(AssertionError, match=re.escape(named)):
        paged_call(fn, "fn")(q, cache, cache, table, seqlens, causal=False, scale=None)


def test_a_paged_varlen_bug_is_found_in_the_functions_layout_and_replayed(capsys, tmp_path):
    impl = implementations.get(f"{MODULE}:{PAGED_VARLEN[0]}@{PAGED_VARLEN[1]}")
    assert impl.new_tokens and impl.alignments == ("bottom_right",)
    argv = ["run", "--impl", f"{MODULE}:{PAGED_VARLEN[0]}_buggy", "--convention",
            PAGED_VARLEN[1], "--property", "oracle", "--dtype", "float32", "--examples", "30",
            "--seed", "3", "--dump-dir", str(tmp_path)]
    assert cli.main(argv) == 1
    capsys.readouterr()
    (dump,) = tmp_path.iterdir()
    replayed = _replay_failing(dump)
    # Said in the function's own (total_q, H, D) out: the sequence and its row.
    assert "FAIL out" in replayed and "of its (total_q, H, D) out (sequence" in replayed, replayed


def test_a_paged_varlen_key_is_named_in_its_cache():
    from attnfuzz.properties.implementations import conventions
    from attnfuzz.properties.model.cases import AttentionCase

    impl = implementations.get(f"{MODULE}:{PAGED_VARLEN[0]}@{PAGED_VARLEN[1]}")
    case = AttentionCase(batch=2, sq=3, sk=20, d=8, dv=8, page_size=3)
    seen = conventions.where(impl, case, "k", (1, 0, 7, 2))
    assert seen.startswith("k_cache[") and "(blocks, block_size, H, D)" in seen, seen
    assert "key 7 of sequence 1, block_table[1, 2]" in seen, seen
    assert conventions.where(impl, case, "out", (1, 0, 2, 3)) == (
        "out[5, 0, 3] of its (total_q, H, D) out (sequence 1, its row 2)")


@pytest.mark.parametrize("prop", ["metamorphic", "gradient_relations"])
def test_a_function_that_assumes_aligned_starts_fails_the_moved_start_relation(prop):
    """Contiguous inputs on a 16-byte boundary pass everything; the relation
    that moves them one element on finds a function that reads its inputs as
    if they started on one (forward and backward)."""
    from attnfuzz.properties.implementations import Support
    from attnfuzz.properties.model.cases import AttentionCase
    from attnfuzz.properties.model.values import Values

    case = AttentionCase(sq=9, sk=33, d=32, dv=32, values=Values(seed=5),
                         backward=prop == "gradient_relations")
    check = {"metamorphic": "inputs off a 16-byte boundary",
             "gradient_relations": "contiguous layouts off a 16-byte boundary"}[prop]
    for name, ok in (("mine", True), ("mine_assumes_aligned", False)):
        from tests import user_attention

        impl = implementations.get(implementations.of_function(
            getattr(user_attention, name), supports=Support(backward=True)).name)
        verdicts = checks.get(prop).run(impl, case)
        moved = [v for v in verdicts if v.check.startswith(check)]
        assert moved and all(v.ok for v in moved) == ok, moved
        assert all(v.ok for v in verdicts if not v.check.startswith(check)), verdicts
