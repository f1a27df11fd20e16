"""Every finding is reported in the layout of the function under test, dumped,
and replayed from its dump: wrong elements, results of the wrong shape or
dtype (``contract``), gradients and serving calls.

The functions are plain torch in ``tests/user_attention.py``, of the
flash_attn convention ((B, S, H, D) tensors) unless said otherwise, each
with one planted fault.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from attnfuzz.properties.model.cases import AttentionCase
from attnfuzz.properties.run import cli, export, harness
from tests.user_attention import ONE_ELEMENT

ROOT = Path(__file__).resolve().parents[1]
MODULE = "tests.user_attention"
FLASH = f"{MODULE}:{{}}@flash_attn"
# (B, H, S, D) = (1, 2, 3, 16): ONE_ELEMENT (b, s, h, d) is attnfuzz's (0, 1, 2, 14).
SMALL = AttentionCase(batch=1, hq=2, hkv=2, sq=3, sk=4, d=16, dv=16)
HARNESS_INDEX = (ONE_ELEMENT[0], ONE_ELEMENT[2], ONE_ELEMENT[1], ONE_ELEMENT[3])


@pytest.fixture(autouse=True)
def dump_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    return tmp_path


def _finding(prop: str, impl: str, case: AttentionCase) -> harness.Finding:
    with pytest.raises(harness.Finding) as caught:
        harness.check(prop, impl, case)
    finding = caught.value
    assert finding.dump is not None and (finding.dump / "case.json").is_file(), str(finding)
    return finding


def _replayed(capsys, dump: Path) -> str:
    """``attnfuzz replay DUMP``, which must still fail: its output."""
    code = cli.main(["replay", str(dump)])
    out = capsys.readouterr().out
    assert code == 1, out
    return out


def _record(finding: harness.Finding) -> dict:
    return json.loads((finding.dump / "case.json").read_text())


def test_a_wrong_element_is_named_at_its_index_in_the_functions_own_out(capsys):
    finding = _finding("oracle", FLASH.format("flash_like_one_element"), SMALL)
    message = str(finding)
    assert f"at index {HARNESS_INDEX}" in message, message
    user = f"out[{', '.join(map(str, ONE_ELEMENT))}] of its (B, S, H, D) out"
    assert user in message, message
    (diagnosis,) = _record(finding)["diagnosis"]
    assert diagnosis["index"] == list(HARNESS_INDEX)
    assert diagnosis["user_index"] == list(ONE_ELEMENT)
    out = _replayed(capsys, finding.dump)
    assert "FAIL out" in out and user in out, out
    # The case names its layouts in attnfuzz's (B, H, S, D): a contiguous q
    # reaches the function as a transposed view, which the replay says.
    assert "layouts q=contiguous" in out, out
    assert ("as the function receives them: q (B, S, H, D) of shape (1, 3, 2, 16), "
            "strides (96, 16, 48, 1); k (B, S, H, D)") in out, out


def test_a_result_of_the_wrong_shape_is_a_dumped_contract_finding_in_the_users_shapes(capsys):
    # flash_attn's out is (B, S, H, D) = (1, 66, 1, 16); the function returns (1, 1, 66, 16).
    case = AttentionCase(batch=1, hq=1, hkv=1, sq=66, sk=64, d=16, dv=16)
    finding = _finding("oracle", FLASH.format("flash_like_heads_first"), case)
    assert finding.kinds == ["contract"], str(finding)
    message = str(finding)
    assert "returned out of shape (1, 1, 66, 16), expected (1, 66, 1, 16)" in message, message
    assert "in attnfuzz's (B, H, S, D): (1, 66, 1, 16), expected (1, 1, 66, 16)" in message
    record = _record(finding)
    assert "expected (1, 66, 1, 16)" in record["contract"]
    assert record["diagnosis"][0]["check"] == "contract: out shape"
    out = _replayed(capsys, finding.dump)
    assert "FAIL contract: out shape" in out and "expected (1, 66, 1, 16)" in out, out


def test_a_result_of_the_wrong_dtype_is_a_dumped_contract_finding(capsys):
    finding = _finding("oracle", FLASH.format("flash_like_float64"), SMALL)
    assert finding.kinds == ["contract"], str(finding)
    assert "returned out of dtype torch.float64, expected torch.float32" in str(finding)
    out = _replayed(capsys, finding.dump)
    assert "FAIL contract: out dtype" in out, out


def test_the_worst_check_of_a_contract_finding_names_it():
    recorder = harness.Recorder("flash_like_float64", "float32")
    with pytest.raises(harness.Finding):
        harness.check("oracle", FLASH.format("flash_like_float64"), SMALL, recorder=recorder)
    assert (recorder.worst, recorder.check) == (float("inf"), "contract: out dtype")
    assert recorder.case == SMALL.describe()


def test_a_gradient_bug_is_dumped_and_named_in_the_functions_layout(capsys):
    case = AttentionCase(batch=1, hq=2, hkv=2, sq=3, sk=4, d=16, dv=16, backward=True)
    impl = FLASH.format("flash_like_bad_backward") + "#backward=yes"
    finding = _finding("gradients", impl, case)
    user = f"dq[{', '.join(map(str, ONE_ELEMENT))}] of its (B, S, H, D) dq"
    assert user in str(finding), str(finding)
    assert "do" in harness.load_dump(finding.dump)[3]  # the upstream gradient is saved
    out = _replayed(capsys, finding.dump)
    assert "FAIL dq" in out and user in out, out


def test_an_out_cut_off_from_autograd_is_a_dumped_contract_finding(capsys):
    case = AttentionCase(batch=1, hq=1, hkv=1, sq=2, sk=2, d=16, dv=16, backward=True)
    finding = _finding("gradients", FLASH.format("flash_like_detached") + "#backward=yes", case)
    assert finding.kinds == ["contract"], str(finding)
    assert "FAIL contract: out grad" in _replayed(capsys, finding.dump)


def test_a_serving_finding_is_dumped_and_replayed(capsys):
    # Sequences of different lengths packed: the planted varlen function reads
    # every sequence's keys to the longest one's length.
    case = AttentionCase(batch=2, hq=1, hkv=1, sq=4, sk=8, d=16, dv=16)
    finding = _finding("serving", f"{MODULE}:varlen_like_buggy@varlen", case)
    assert "varlen sequence" in str(finding), str(finding)
    assert "FAIL varlen sequence" in _replayed(capsys, finding.dump)


def test_a_varlen_finding_names_the_packed_row_the_function_returned():
    # Row 3 of the packed output is wrong: whichever sequence holds it, the
    # finding names out[3, ...] of the (total_q, Hq, Dv) tensor returned.
    case = AttentionCase(batch=2, hq=2, hkv=2, sq=4, sk=8, d=16, dv=16)
    finding = _finding("serving", f"{MODULE}:varlen_row_three_wrong@varlen", case)
    named = re.findall(r"\(packed out\[(\d+), (\d+), (\d+)\]\)", str(finding))
    assert named and {int(row) for row, _, _ in named} == {3}, str(finding)


def _script_output(dump: Path, tmp_path: Path) -> str:
    """The exported script of ``dump`` run in a new process, which must still fail."""
    script = export.export(dump, tmp_path / "repro.py")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "OMP_NUM_THREADS": "1"}, cwd=ROOT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    return proc.stdout


def test_an_exported_script_names_the_element_in_the_functions_layout(tmp_path):
    finding = _finding("oracle", FLASH.format("flash_like_one_element"), SMALL)
    user = f"out[{', '.join(map(str, ONE_ELEMENT))}]"
    header = " ".join(export.script(finding.dump).replace("#", " ").split())
    assert f"{user} of its (B, S, H, D) out" in header
    out = _script_output(finding.dump, tmp_path)
    assert f"at index {HARNESS_INDEX} (the function's (B, S, H, D) {user})" in out, out


def test_an_exported_contract_script_gives_the_functions_shapes(tmp_path):
    case = AttentionCase(batch=1, hq=1, hkv=1, sq=6, sk=4, d=16, dv=16)
    finding = _finding("oracle", FLASH.format("flash_like_heads_first"), case)
    assert "broke its contract" in export.script(finding.dump)
    out = _script_output(finding.dump, tmp_path)
    assert "in the function's own layout: (1, 1, 6, 16), expected (1, 6, 1, 16)" in out, out


def test_a_campaign_counts_dumps_and_names_a_contract_finding(capsys, tmp_path):
    argv = ["run", "--impl", f"{MODULE}:flash_like_heads_first", "--convention", "flash_attn",
            "--property", "oracle", "--dtype", "float32", "--examples", "3", "--seed", "1",
            "--jobs", "1", "--dump-dir", str(tmp_path)]
    code = cli.main(argv)
    captured = capsys.readouterr()
    out = captured.out
    assert code == 1, out
    assert "1 contract (" in out, out
    row = r"flash_like_heads_first@flash_attn\s+float32\s+\d+\s+1\s+inf\s.*contract: out shape$"
    assert re.search(row, out, re.M), out
    assert "returned out of shape" in captured.err, captured.err  # the contract's line
    (dump,) = tmp_path.iterdir()
    record = json.loads((dump / "case.json").read_text())
    assert record["diagnosis"][0]["check"] == "contract: out shape"
    assert "FAIL contract: out shape" in _replayed(capsys, dump)


def test_a_malformed_result_in_a_call_sequence_is_a_contract_finding():
    from attnfuzz.properties.checks import stateful

    sequence = stateful.Sequence(FLASH.format("flash_like_float64"), "float32", 1)
    with pytest.raises(stateful.StatefulFailure) as caught:
        sequence.call(SMALL)
    record = harness.finding_record(caught.value)
    assert record["kinds"] == ["contract"], record
    assert record["worst"]["check"] == "contract: out dtype", record
    assert record["worst"]["case"] == SMALL.describe()


def _modifies_k(q, k, v, out, *, causal, scale, alignment, **kw):
    from tests.user_attention import mine

    result = mine(q, k, v, causal=causal, scale=scale, alignment=alignment)
    k.add_(1.0)
    return {"out": result}


def test_an_unsafe_run_inside_a_relation_is_a_dumped_memory_finding(monkeypatch):
    from attnfuzz.properties import implementations
    from attnfuzz.properties.implementations import Implementation

    impl = Implementation("modifies_k_for_tests", "attention", _modifies_k, writes_out=False)
    monkeypatch.setitem(implementations._REGISTRY, impl.name, impl)
    finding = _finding("metamorphic", impl.name, SMALL)
    assert finding.kinds == ["memory"] and "input k modified" in str(finding), str(finding)
    report = harness.replay_report(finding.dump)
    assert any("input k modified" in f for f in report.failures), report


def test_a_nan_is_the_metamorphic_finding_not_every_relation_repeating_it():
    """A relation compares two runs; with a NaN on both sides it could say only
    "got nan, want nan".  The base run's NaN is the finding, named with the
    oracle's value."""
    finding = _finding("metamorphic", FLASH.format("flash_like_one_element_nan"), SMALL)
    lines = [ln.strip() for ln in str(finding).splitlines() if "error/bound" in ln]
    assert len(lines) == 1 and lines[0].startswith("finite output: "), str(finding)
    assert "got nan, want " in lines[0] and "want nan" not in lines[0], lines[0]
    assert f"out{list(ONE_ELEMENT)} of its (B, S, H, D) out" in lines[0], lines[0]


def test_a_varlen_functions_element_is_its_packed_row():
    from attnfuzz.properties import implementations
    from attnfuzz.properties.implementations import conventions

    impl = implementations.get(f"{MODULE}:varlen_like@varlen")
    case = AttentionCase(batch=2, hq=2, hkv=1, sq=3, sk=5, d=16, dv=16)
    assert conventions.where(impl, case, "out", (1, 1, 2, 7)) == (
        "out[5, 1, 7] of its (total_q, H, D) out (sequence 1, its row 2)")
    assert conventions.where(impl, case, "k", (1, 0, 4, 7)).startswith("k[9, 0, 7] of its "
                                                                      "(total_k, H, D) k")
    assert conventions.where(impl, case, "lse", (1, 1, 2)).startswith("lse[1, 5] of its "
                                                                     "(H, total_q) lse")


def test_a_paged_functions_key_is_found_in_its_cache_page():
    import torch

    from attnfuzz.properties import implementations
    from attnfuzz.properties.implementations import conventions
    from attnfuzz.properties.model.cases import build
    from attnfuzz.properties.model.pages import paged_cache

    impl = implementations.get(f"{MODULE}:paged_like@paged")
    case = AttentionCase(batch=2, hq=2, hkv=2, sq=2, sk=6, d=16, dv=16)
    k = build(case).inputs["k"]
    page, seed = conventions.paged_layout(case.sq, case.sk, case.d)
    assert page == 3  # two pages a sequence, in a shuffled order
    cache = paged_cache(k, k, [case.sk] * case.batch, page, seed)[0]
    layout = conventions.of(impl).layout
    assert layout.shape("k", tuple(k.shape), case) == tuple(cache.shape)
    for index in [(0, 0, 0, 0), (1, 1, 5, 15), (1, 0, 3, 2), (0, 1, 4, 9)]:
        at, note = layout.index("k", index, case)
        assert torch.equal(cache[at], k[index]), (index, at, note)
        assert f"key {index[2]} of sequence {index[0]}" in note


def test_a_paged_functions_replay_says_the_pages_of_its_declared_size(capsys):
    """The cache the function is called with has pages of a size it declares;
    the replay's description of what it receives had the default size's."""
    case = AttentionCase(batch=1, hq=1, hkv=1, sq=1, sk=1, d=16, dv=16)
    finding = _finding("oracle", f"{MODULE}:paged_like_buggy@paged#page_sizes=16", case)
    out = _replayed(capsys, finding.dump)
    assert ("as the function receives them: k_cache (blocks, block_size, H, D) of shape "
            "(2, 16, 1, 16)") in out, out


def test_the_summarys_worst_check_is_the_dumped_cases_not_a_shrink_steps(capsys):
    import shutil

    from attnfuzz.properties.run.campaign import Campaign, Plan

    impl = FLASH.format("flash_like_one_element")
    finding = _finding("oracle", impl, SMALL)
    campaign = Campaign(Plan(rounds=[(impl, "float32", "oracle")], jobs=1, seconds=None,
                             examples=1, seed=0, where="interpreter"))
    shutil.rmtree(campaign.logs)
    (r,) = campaign.rounds
    # A shrink step on the way to the dumped case, further past its bound.
    campaign._count(r, {"calls": 1, "seconds": 0.1, "compiles": 0, "ratio": 1e30,
                        "check": "lse", "description": "a larger case", "signature": "s",
                        "counted": False})
    campaign._finding(r, harness.finding_record(finding))
    assert (r.check, r.worst_case) == ("out", SMALL.describe())
    assert r.worst == finding.worst.ratio


def test_a_contract_finding_names_a_files_function_as_its_header_does(tmp_path):
    """The file and the function, not the folder and the declared support."""
    folder = tmp_path / "deep" / "folder"
    folder.mkdir(parents=True)
    (folder / "wide.py").write_text(
        "def attn(q, k, v, *, causal, scale, alignment):\n"
        "    return (q @ k.transpose(-1, -2)).softmax(-1).double() @ v.double()\n")
    finding = _finding("oracle", f"{folder / 'wide.py'}:attn#causal=no", SMALL)
    assert finding.kinds == ["contract"], str(finding)
    message = str(finding)
    assert "wide.py:attn returned out of dtype torch.float64" in message, message
    assert str(folder) not in message and "#causal=no" not in message, message
