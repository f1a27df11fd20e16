"""The ``attnfuzz`` command as a new user meets it: mistakes get one line, findings get counted.

Most cases run the CLI in this process (``cli.main``); the backend choice
and the printed replay command run it as a new process, since that is
where they matter.  Campaigns are tiny: one or two examples of ``matmul``
in float32, or fake implementations that fail or crash on every case.
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from attnfuzz.properties import hypothesis_internals, implementations
from attnfuzz.properties.implementations import Implementation
from attnfuzz.properties.model.cases import MatmulCase
from attnfuzz.properties.run import cli, harness
from attnfuzz.reference import Verdict

TINY = ["--impl", "matmul", "--dtype", "float32"]


def _nan(a, b, out, **kw):
    out.fill_(math.nan)  # fails every case, with non-finite numbers in its diagnosis
    return {"out": out}


def _crash(a, b, out, **kw):
    raise IndexError("index 3 is out of bounds for dimension 0 with size 3")


def _slow(a, b, out, **kw):
    time.sleep(SLOW_CALL)  # as a kernel that compiles for every new shape
    return implementations.get("matmul").run(a, b, out, **kw)


def _slow_nan(a, b, out, **kw):
    time.sleep(2.0)
    return _nan(a, b, out, **kw)


SLOW_CALL = 1.0
SLOW_NAN = Implementation("slow_nan_for_tests", "matmul", _slow_nan, description="sleeps, NaN")
NAN = Implementation("nan_for_tests", "matmul", _nan, description="writes NaN")
SLOW = Implementation("slow_for_tests", "matmul", _slow, description="sleeps, then right")
CRASH = Implementation("crash_for_tests", "matmul", _crash, description="raises IndexError")


@pytest.fixture
def fakes(monkeypatch):
    for impl in (NAN, CRASH, SLOW, SLOW_NAN):
        monkeypatch.setitem(implementations._REGISTRY, impl.name, impl)


def cli_main(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command in this process: (exit status, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def cli_process(*argv: str, env: dict | None = None, cwd: Path | None = None):
    env = {**(env if env is not None else os.environ), "OMP_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, "-m", "attnfuzz", *argv],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=120,
    )


def message(err: str) -> str:
    """stderr's one message line: argparse's usage block aside, exactly one line."""
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(("usage:", " "))]
    assert len(lines) == 1, err
    return lines[0]


def dumps(out: str) -> list[str]:
    """The dumps a campaign lists, as "dump: PATH  (attnfuzz replay PATH)" lines."""
    lines = [ln for ln in out.splitlines() if ln.startswith("dump: ")]
    return [ln[len("dump: ") : ln.index("  (attnfuzz replay ")] for ln in lines]


def summary(out: str) -> str:
    """The summary's count line; the next step follows it."""
    lines = out.strip().splitlines()
    assert lines[-1].startswith("next: "), out
    return lines[-2]


# Each row would run a tiny campaign if it were accepted, so a miss costs little.
USAGE_ERRORS = [
    (["run", "--impl", "nosuch", "--dtype", "float32", "--examples", "1"],
     "unknown implementation 'nosuch'; known: naive, flash, decode, matmul"),
    (["run", *TINY, "--examples", "0"], ">= 1"),
    (["run", *TINY, "--examples", "-2"], ">= 1"),
    (["run", *TINY, "--seconds", "0"], "> 0"),
    (["run", *TINY, "--seconds", "-1"], "> 0"),
    (["run", *TINY, "--seconds", "nan"], "> 0"),
    (["run", "--impl", "", "--dtype", "float32", "--seconds", "1"],
     "at least one implementation"),
    (["run", "--impl", "matmul", "--dtype", "", "--examples", "1"], "at least one dtype"),
    (["run", "--impl", "matmul", "--dtype", "float64", "--examples", "1"],
     "unknown dtype 'float64'"),
    (["run", "--impl", "sdpa_flash", "--dtype", "float32", "--examples", "1"],
     "nothing to test: sdpa_flash does not take float32"),
]
# A kernel for one GPU generation, asked for where it cannot run.
if (_why := implementations.get("hopper").cannot_run()) is not None:
    USAGE_ERRORS.append((["run", "--impl", "hopper", "--dtype", "float16", "--examples", "1"],
                         f"nothing to test: hopper cannot run here: {_why}"))


@pytest.mark.parametrize(
    ("argv", "fragment"), USAGE_ERRORS, ids=[" ".join(argv) for argv, _ in USAGE_ERRORS]
)
def test_usage_errors_are_one_line(capsys, tmp_path, argv, fragment):
    code, out, err = cli_main(capsys, *argv, "--dump-dir", str(tmp_path))
    assert code == 2, out + err
    assert fragment in message(err)
    assert not list(tmp_path.iterdir())


def _bad_dumps(root: Path) -> list[tuple[Path, str]]:
    empty = root / "empty"
    empty.mkdir()
    corrupt = root / "corrupt"
    corrupt.mkdir()
    (corrupt / "case.json").write_text('{"property": "oracle", ')
    foreign = root / "foreign"
    foreign.mkdir()
    (foreign / "case.json").write_text('{"name": "not a dump"}')
    unknown = root / "unknown"
    unknown.mkdir()
    record = {"property": "oracle", "implementation": "gone_for_tests",
              "case": {"kind": "matmul"}, "description": "a@b"}
    (unknown / "case.json").write_text(json.dumps(record))
    return [
        (root / "nonexistent", "not found"),
        (empty, "no case.json"),
        (corrupt, "not valid JSON"),
        (corrupt / "case.json", "not valid JSON"),
        (foreign, "not an attnfuzz dump"),
        (unknown, "unknown implementation 'gone_for_tests'"),
    ]


def test_replay_of_what_is_not_a_dump_is_one_line(capsys, tmp_path):
    for path, fragment in _bad_dumps(tmp_path):
        code, out, err = cli_main(capsys, "replay", str(path))
        assert code == 2, (path, out + err)
        line = message(err)
        assert fragment in line and str(path) in line, line


NO_CUDA = "no CUDA device is available"


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
@pytest.mark.parametrize("how", ["option", "environment"])
def test_gpu_backend_without_cuda_is_one_line(tmp_path, how):
    env = {k: v for k, v in os.environ.items() if k not in ("TRITON_INTERPRET", "ATTNFUZZ_BACKEND")}
    argv = ["run", *TINY, "--examples", "1", "--dump-dir", str(tmp_path)]
    if how == "option":
        argv = ["--backend", "gpu", *argv]
    else:
        env["ATTNFUZZ_BACKEND"] = "gpu"
    proc = cli_process(*argv, env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert NO_CUDA in message(proc.stderr)


def test_a_bad_backend_variable_is_one_line(tmp_path):
    """``import attnfuzz`` leaves a bad ATTNFUZZ_BACKEND to the command to report."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["ATTNFUZZ_BACKEND"] = "bogus"
    proc = cli_process("run", *TINY, "--examples", "1", "--dump-dir", str(tmp_path), env=env)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "'bogus'" in message(proc.stderr)


def test_the_command_never_imports_pytest(tmp_path):
    """pytest is the plugin's (the test extra): the command runs where it is missing.
    tests/test_packaging.py checks the same on the installed wheel, given the index."""
    blocked = ("import sys; sys.modules['pytest'] = None; "
               "from attnfuzz.properties.run import cli; sys.exit(cli.main(sys.argv[1:]))")
    proc = subprocess.run(
        [sys.executable, "-c", blocked, "run", *TINY, "--examples", "1", "--seed", "1",
         "--dump-dir", str(tmp_path)],
        env={**os.environ, "OMP_NUM_THREADS": "1"}, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 failing implementation/dtype pairs" in summary(proc.stdout), proc.stdout


def test_a_crashing_implementation_is_a_finding_and_the_campaign_goes_on(
    capsys, tmp_path, fakes
):
    code, out, err = cli_main(
        capsys, "run", "--impl", "crash_for_tests,matmul", "--dtype", "float32",
        "--examples", "2", "--seed", "3", "--dump-dir", str(tmp_path),
    )
    assert code == 1, out + err
    assert "crash_for_tests crashed" in err and "IndexError" in err, err
    crash_row = r"^crash_for_tests\s+float32\s+1\s+1\s+inf\s.*crash \(IndexError\)$"
    assert re.search(crash_row, out, re.M), out
    assert re.search(r"^matmul\s+float32\s+2\s+0\b", out, re.M), out  # it ran after the crash
    assert "1 failing implementation/dtype pair" in summary(out)
    (dump,) = dumps(out)
    record = json.loads((Path(dump) / "case.json").read_text())
    assert record["implementation"] == "crash_for_tests"
    assert "IndexError" in record["crash"]

    code, out, err = cli_main(capsys, "replay", dump)
    assert code == 1, out + err
    assert "IndexError" in out and "Traceback" not in out + err


# (command line, the summary's counts, how many dumps).  With --examples 2 a
# property of one case gets 2, and stateful its one sequence of 5 calls.
# A campaign ends once every pair has failed, so the first row ends in a second
# or two whatever the machine's load; its budget only bounds a regression.
COUNTS = [
    (["--impl", "nan_for_tests", "--dtype", "float32,float16", "--seconds", "120"],
     "2 cases", "2 failing implementation/dtype pairs", 2),
    (["--impl", "nan_for_tests,matmul", "--dtype", "float32", "--examples", "2"],
     "14 cases", "1 failing implementation/dtype pair", 1),
    (["--impl", "matmul", "--dtype", "float32", "--examples", "2"],
     "13 cases", "0 failing implementation/dtype pairs", 0),
]


@pytest.mark.parametrize(
    ("argv", "cases", "pairs", "ndumps"), COUNTS, ids=[" ".join(row[0]) for row in COUNTS]
)
def test_the_summary_counts_pairs_examples_and_dumps_once(
    capsys, tmp_path, fakes, argv, cases, pairs, ndumps
):
    # One worker: rounds in a fixed order, so a pair's first failure ends it
    # before another property of it can fail too.
    code, out, err = cli_main(capsys, "run", *argv, "--seed", "5", "--jobs", "1",
                              "--dump-dir", str(tmp_path))
    assert code == (1 if ndumps else 0), out + err
    assert summary(out).startswith(cases + " in "), out
    assert pairs in summary(out), out
    listed = dumps(out)
    assert len(listed) == ndumps and len(set(listed)) == ndumps, out
    assert sorted(Path(d).name for d in listed) == sorted(p.name for p in tmp_path.iterdir())


def test_a_timed_campaign_starts_no_case_past_its_time(capsys, fakes):
    """Rounds of five draws follow the first: without the campaign's deadline
    inside a round, a second round begun before the time ran out runs all five
    (six cases of a slow implementation in a 4 s campaign).  Every case takes
    at least SLOW_CALL, so at most 4 / SLOW_CALL start within the time, and a
    first visit short of its minimum of cases runs on for at most the grace.
    One worker: a second would join the round and draw cases of its own."""
    from attnfuzz.properties.run.campaign import FIRST_VISIT_GRACE

    code, out, err = cli_main(capsys, "run", "--impl", "slow_for_tests", "--dtype", "float32",
                              "--property", "oracle", "--seconds", "4", "--seed", "3",
                              "--jobs", "1")
    assert code == 0, out + err
    cases = int(summary(out).split()[0])
    assert 1 <= cases <= math.ceil(4 * (1 + FIRST_VISIT_GRACE) / SLOW_CALL), out


def test_a_case_failing_past_the_time_is_shrunk_and_dumped(capsys, tmp_path, fakes):
    """The first case (2 s) outlasts the campaign (1 s): its shrinking and final
    replay run past the deadline, and must run the implementation (returning
    unrun there, the replay passed and the failure was counted without a dump).
    The limit binds the campaign's workers, not the process that ran it."""
    from hypothesis.internal.conjecture import engine

    limit = engine.MAX_SHRINKING_SECONDS
    code, out, err = cli_main(capsys, "run", "--impl", "slow_nan_for_tests", "--dtype",
                              "float32", "--property", "oracle", "--seconds", "1",
                              "--shrink-seconds", "1", "--seed", "3", "--dump-dir", str(tmp_path))
    assert code == 1, out + err
    assert "1 failing implementation/dtype pair" in summary(out), out
    assert len(dumps(out)) == 1, out
    assert engine.MAX_SHRINKING_SECONDS == limit


def test_mutants_list_aligns_names_and_descriptions(capsys):
    from attnfuzz.properties.mutation import runner

    code, out, err = cli_main(capsys, "mutants", "--list")
    assert code == 0, err
    lines = out.splitlines()
    names = [m.name for m in runner.catalogue()]
    assert len(lines) == len(names)
    starts = set()
    for name, line in zip(names, lines, strict=True):
        assert line.startswith(name + "  "), line
        starts.add(len(line) - len(line[len(name) :].lstrip()))
    assert starts == {max(map(len, names)) + 2}


def _strict(text: str) -> dict:
    def reject(constant: str) -> None:
        raise ValueError(f"non-standard JSON constant {constant}")

    return json.loads(text, parse_constant=reject)


def test_a_campaign_dump_is_strict_json_with_the_campaign_seed(capsys, tmp_path, fakes):
    code, out, _ = cli_main(
        capsys, "run", "--impl", "nan_for_tests", "--dtype", "float32", "--examples", "1",
        "--seed", "77", "--dump-dir", str(tmp_path),
    )
    (dump,) = dumps(out)
    # The last line says what to do with it.
    assert out.strip().splitlines()[-1].startswith(f"next: attnfuzz replay {shlex.quote(dump)}")
    record = _strict((Path(dump) / "case.json").read_text())
    assert record["hypothesis_seed"] == 77
    assert record["diagnosis"][0]["got"] == "nan"
    assert "--seed 77" in record["reproduce"]
    code, out, err = cli_main(capsys, "replay", dump)
    assert code == 1 and "FAIL out" in out, out + err


def test_a_pytest_dump_is_strict_json_with_the_global_seed(tmp_path, monkeypatch):
    monkeypatch.setattr(hypothesis_internals, "global_seed", lambda: 1234)
    bad = Verdict("out", math.inf, math.nan, 0.5, (0, 0), -math.inf, 1.0)
    path = harness.write_dump("oracle", "matmul", MatmulCase(), [bad], root=tmp_path)
    record = _strict((path / "case.json").read_text())
    assert record["hypothesis_seed"] == 1234
    assert [record["diagnosis"][0][k] for k in ("ratio", "error", "got")] == ["inf", "nan", "-inf"]


def test_the_printed_replay_command_works_in_a_new_process(capsys, tmp_path, monkeypatch):
    # A broken "matmul" here; the real one in the new process, where the case passes.
    broken = Implementation("matmul", "matmul", _nan)
    monkeypatch.setitem(implementations._REGISTRY, "matmul", broken)
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli_main(capsys, "run", *TINY, "--examples", "1", "--dump-dir", "my dumps")
    assert code == 1, out
    (line,) = [ln for ln in out.splitlines() if ln.startswith("dump: ")]
    command = shlex.split(line[line.index("(attnfuzz replay ") + 1 : line.rindex(")")])
    assert command[:2] == ["attnfuzz", "replay"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = cli_process(*command[1:], cwd=elsewhere)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS: fixed" in proc.stdout


def _faults_later(*args, **kwargs):
    # A kernel's fault is reported at the next CUDA call: often the harness's own.
    raise torch.AcceleratorError("CUDA error: misaligned address")


def test_a_replay_that_faults_on_the_gpu_says_so_in_one_line(capsys, tmp_path, monkeypatch):
    path = harness.write_dump("oracle", "matmul", MatmulCase(), [], root=tmp_path)
    monkeypatch.setattr(harness, "replay", _faults_later)
    code, out, err = cli_main(capsys, "replay", str(path))
    assert code == 1 and "Traceback" not in out + err, out + err
    assert "FAIL matmul faulted on the GPU (misaligned address)" in out, out
    assert "compute-sanitizer --tool memcheck" in out, out


def test_output_cut_short_by_its_reader_is_no_traceback():
    """``attnfuzz mutants --list | head -1``: the reader leaves before the writer is done."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "attnfuzz", "mutants", "--list"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert "Traceback" not in err, err
