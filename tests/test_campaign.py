"""The campaign cannot be stopped by the code under test, and shares its findings.

Each test runs ``attnfuzz run`` on a fake ``matmul`` that misbehaves (hangs,
segfaults, exits) and asserts a dumped finding and the summary within twice
the budget.  Fakes are registered in this process; on the interpreter the
campaign forks its workers, which inherit them.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from attnfuzz.properties import implementations
from attnfuzz.properties.implementations import Implementation
from attnfuzz.properties.model.cases import from_json
from attnfuzz.properties.run import cli

BUDGET = 6.0


def _right(a, b, out, scale=1.0, **kw):
    # Exact then rounded once: milliseconds a case, where the interpreted kernel
    # takes seconds on the largest, which a one-second call limit would call hangs.
    exact = torch.matmul(a.double(), b.double()) * scale
    if out is None:
        return {"out": exact.to(a.dtype)}
    out.copy_(exact)
    return {"out": out}


def _hangs_past_m(a, b, out, **kw):
    if a.shape[-2] > 20:
        time.sleep(3600)
    return _right(a, b, out, **kw)


def _segfaults(a, b, out, **kw):
    ctypes.string_at(0)  # reads address 0: SIGSEGV


def _exits(a, b, out, **kw):
    os._exit(3)


def _sys_exits(a, b, out, **kw):
    sys.exit(3)


def _interrupts_past_m(a, b, out, **kw):
    if a.shape[-2] > 20:
        raise KeyboardInterrupt  # its own: SIGINT is ignored in a worker
    return _right(a, b, out, **kw)


def _wrong_past_m(a, b, out, **kw):
    res = _right(a, b, out, **kw)
    if a.shape[-2] > 20:
        res["out"].add_(1.0)
    return res


def _out_of_memory_past_m(a, b, out, **kw):
    if a.shape[-2] > 20:
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 256.00 MiB.")
    if a.shape[-2] > 10:
        raise RuntimeError("Triton Error [CUDA]: out of memory")
    return _right(a, b, out, **kw)


FAKES = {
    "right_for_tests": _right,
    "hang_for_tests": _hangs_past_m,
    "segv_for_tests": _segfaults,
    "exit_for_tests": _exits,
    "sysexit_for_tests": _sys_exits,
    "interrupt_for_tests": _interrupts_past_m,
    "wrong_past_m_for_tests": _wrong_past_m,
    "oom_for_tests": _out_of_memory_past_m,
}


@pytest.fixture
def fakes(monkeypatch):
    for name, fn in FAKES.items():
        monkeypatch.setitem(implementations._REGISTRY, name,
                            Implementation(name, "matmul", fn, description="misbehaves"))


def campaign(capsys, *argv: str) -> tuple[int, str, str, float]:
    t0 = time.monotonic()
    try:
        code = cli.main(["run", *argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err, time.monotonic() - t0


def dumps(out: str) -> list[Path]:
    return [Path(ln[len("dump: "):ln.index("  (attnfuzz replay ")])
            for ln in out.splitlines() if ln.startswith("dump: ")]


@pytest.mark.parametrize(("impl", "kind", "fragment"), [
    ("hang_for_tests", "hang", "ran past the 3 s time limit"),
    ("segv_for_tests", "crash", "signal 11"),
    ("exit_for_tests", "crash", "exit code 3"),
    ("sysexit_for_tests", "crash", "SystemExit"),
    ("interrupt_for_tests", "crash", "KeyboardInterrupt"),
])
def test_what_the_code_under_test_does_is_a_dumped_finding(
    capsys, tmp_path, fakes, impl, kind, fragment
):
    code, out, err, took = campaign(
        capsys, "--impl", f"{impl},right_for_tests", "--dtype", "float32", "--property", "oracle",
        # A limit of 1 s was met by the right function's whole check (inputs, call,
        # oracle) on a loaded two-core machine, which made it a second finding.
        "--seconds", str(BUDGET), "--case-timeout", "3", "--seed", "3", "--jobs", "2",
        "--dump-dir", str(tmp_path / "dumps"), "--database", "none")
    assert code == 1, out + err
    assert took < 2 * BUDGET, (took, out, err)
    assert "Traceback" not in out + err
    assert fragment in err, err
    row = next(ln for ln in out.splitlines() if ln.startswith(impl))
    assert row.split()[3] == "1", row  # one finding
    assert f"1 {kind} (" in out, out
    (dump,) = dumps(out)
    record = json.loads((dump / "case.json").read_text())
    assert record["implementation"] == impl and record["property"] == "oracle"
    assert (dump / "inputs.pt").is_file()
    # The other implementation ran on in its own worker.
    right = next(ln for ln in out.splitlines() if ln.startswith("right_for_tests "))
    assert int(right.split()[2]) >= 5, out


def test_a_call_out_of_device_memory_is_a_skipped_case_not_a_finding(capsys, tmp_path, fakes):
    # Workers share a GPU: whether a large case fits depends on what the others
    # hold at that moment, so running out is the case's, not a bug to report.
    code, out, err, _ = campaign(
        capsys, "--impl", "oom_for_tests", "--dtype", "float32", "--property", "oracle",
        "--seconds", str(BUDGET), "--seed", "3", "--jobs", "2",
        "--dump-dir", str(tmp_path / "dumps"), "--database", "none")
    assert code == 0, out + err
    assert "crashed" not in err and not dumps(out), out + err
    row = next(ln for ln in out.splitlines() if ln.startswith("oom_for_tests"))
    assert row.split()[3] == "0" and int(row.split()[2]) >= 5, row
    skipped = re.search(r"^skipped: (\d+) cases? that ran out of device memory", out, re.M)
    assert skipped and int(skipped[1]) >= 1, out


def test_a_dump_dir_that_is_a_file_is_one_line(capsys, tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    code, out, err, _ = campaign(capsys, "--impl", "matmul", "--dtype", "float32",
                                 "--examples", "1", "--dump-dir", str(path))
    assert code == 2
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--dump-dir" in lines[0] and "not a directory" in lines[0], err
    assert path.read_text() == "x"


def test_ctrl_c_prints_the_summary_and_the_dumps_and_exits_130(tmp_path):
    """A user's module (the process is new: fakes of this one are not there)."""
    (tmp_path / "mine.py").write_text(
        "import math, time\n"
        "import torch\n"
        "def nan(q, k, v, causal=False, scale=None, **kw):\n"
        "    return torch.full(q.shape[:-1] + v.shape[-1:], math.nan, dtype=q.dtype)\n"
        "def slow(q, k, v, causal=False, scale=None, **kw):\n"
        "    time.sleep(3600)\n"
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "attnfuzz", "run", "--impl", "mine.py:nan,mine.py:slow",
         "--dtype", "float32", "--property", "oracle", "--seconds", "300", "--jobs", "2",
         "--dump-dir", "dumps", "--database", "none", "--seed", "1"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any((tmp_path / "dumps").glob("*/inputs.pt")):
            time.sleep(0.2)
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in out + err, out + err
    assert "interrupted" in out and "failing implementation/dtype pair" in out, out
    assert len(dumps(out)) == 1, out


def test_a_ctrl_c_as_a_worker_starts_is_left_to_the_campaign(tmp_path):
    """The terminal's Ctrl-C reaches every worker too: each starts with it held
    back (blocked from the fork on, until it is ignored), so that none meets it
    mid-start and dies of it, printing a traceback; then it is ignored."""
    c = _scheduler([("naive", "float32", "oracle")], 2, tmp_path)
    c.logs.mkdir()  # the workers' logs: a worker that cannot open its own exits
    _FORKS.append(tmp_path / "forks")  # a fork hook cannot be removed: armed here only
    bit = 1 << (signal.SIGINT - 1)

    def masks(pid: int) -> dict[str, int]:
        status = Path(f"/proc/{pid}/status").read_text()
        return {k: int(v, 16) for k, v in re.findall(r"^(Sig\w+):\s*([0-9a-f]+)$", status, re.M)}

    def settled(pid: int) -> bool:  # ignored, and no longer blocked
        m = masks(pid)
        return bool(m["SigIgn"] & bit) and not m["SigBlk"] & bit

    try:
        for slot in c.slots:
            c._spawn(slot)
        deadline = time.monotonic() + 60
        for slot in c.slots:
            log = c.logs / f"worker-{slot.index}.log"  # opened once its start is done
            while not (settled(slot.process.pid) and log.exists()) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert settled(slot.process.pid), masks(slot.process.pid)
            assert log.exists() and slot.process.exitcode is None
        # Written at each fork, before the worker ran (so before it settled).
        held = dict(line.split() for line in (tmp_path / "forks").read_text().splitlines())
        assert [held[str(slot.process.pid)] for slot in c.slots] == ["blocked"] * 2
    finally:
        _FORKS.clear()
        for slot in c.slots:
            c._kill(slot)


_FORKS: list[Path] = []


def _record_fork() -> None:
    if _FORKS:
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        with open(_FORKS[0], "a") as f:
            f.write(f"{os.getpid()} {'blocked' if blocked else 'open'}\n")


os.register_at_fork(after_in_child=_record_fork)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path):
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs redis-server (.ci/run); it is missing")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    pytest.importorskip("redis")
    port = _free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(port=port)
    for _ in range(100):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_failure_found_by_one_campaign_is_replayed_first_by_another(
    capsys, tmp_path, fakes, monkeypatch, redis_url
):
    """Two campaigns in separate folders, as on two hosts, share a Redis server:
    the second's first case is the first's shrunk failure (its own draws would
    begin with Hypothesis' smallest case, which passes: M <= 20)."""
    runs = []
    for n, seed in enumerate((11, 12)):
        here = tmp_path / f"host{n}"
        here.mkdir()
        monkeypatch.chdir(here)
        monkeypatch.setenv("ATTNFUZZ_TRACE", str(here / "trace"))
        code, out, err, _ = campaign(
            capsys, "--impl", "wrong_past_m_for_tests", "--dtype", "float32", "--property",
            "oracle", "--examples", "30", "--seed", str(seed), "--jobs", "1",
            "--database", redis_url, "--dump-dir", str(here / "dumps"))
        assert code == 1, out + err
        (dump,) = dumps(out)
        first = (here / "trace").read_text().splitlines()[0].split("\t")[-1]
        runs.append((json.loads((dump / "case.json").read_text()), first))
    (found, _), (_, second_first) = runs
    assert second_first == repr(from_json(found["case"]))
    assert not math.isnan(found["hypothesis_seed"])


class _RaisesInBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        raise IndexError("index 7 is out of bounds in the backward")


def attention_raising_in_backward(q, k, v, causal=False, scale=None, **kw):
    """Right forward (torch's SDPA), a backward that raises."""
    out = torch.nn.functional.scaled_dot_product_attention(
        q, k.repeat_interleave(q.shape[1] // k.shape[1], 1),
        v.repeat_interleave(q.shape[1] // v.shape[1], 1), is_causal=False, scale=scale)
    return _RaisesInBackward.apply(out)


def test_an_exception_in_a_backward_is_a_dumped_crash_even_outside_a_hypothesis_test(tmp_path):
    from attnfuzz.properties.implementations import Support
    from attnfuzz.properties.model.cases import AttentionCase
    from attnfuzz.properties.run import harness

    name = implementations.of_function(
        attention_raising_in_backward, supports=Support(backward=True)).name
    case = AttentionCase(hq=2, hkv=1, sq=3, sk=5, backward=True)
    with pytest.raises(harness.Finding) as caught:
        harness.check("gradients", name, case,
                      campaign=harness.Campaign(1, "rerun", dump_dir=tmp_path))
    finding = caught.value
    assert finding.kinds == ["crash"] and "IndexError" in str(finding), str(finding)
    record = json.loads((finding.dump / "case.json").read_text())
    assert "index 7 is out of bounds in the backward" in record["crash"]


def test_spawned_workers_run_the_campaign_as_forked_ones_do(capsys, tmp_path, monkeypatch):
    """On a GPU workers are spawned (a fresh interpreter each, which imports
    the package again and must draw the same cases): the same campaign, the
    same counts."""
    from attnfuzz.properties.run import campaign as campaign_module

    argv = ("--impl", "matmul", "--dtype", "float32", "--property", "oracle", "--examples", "4",
            "--seed", "9", "--jobs", "1", "--dump-dir", str(tmp_path))
    counts = []
    for method in ("fork", "spawn"):
        monkeypatch.setitem(campaign_module.START_METHOD, "interpreter", method)
        code, out, err, _ = campaign(capsys, *argv)
        assert code == 0, out + err
        counts.append(next(ln for ln in out.splitlines() if ln.startswith("matmul ")))
    assert counts[0] == counts[1]


def _two_bugs(a, b, out, **kw):
    # Two bugs of two kinds: wrong past M = 16, and a write into the input
    # for short odd N, which small cases (the first a run draws) show first.
    res = _right(a, b, out, **kw)
    m, n = a.shape[-2], res["out"].shape[-1]
    if m > 16:
        res["out"].add_(1.0)
    elif n > 1 and n % 2:
        a.add_(1.0)
    return res


@pytest.mark.parametrize("seed", ["3", "4"])
def test_keep_going_counts_each_bug_once_and_dumps_one_case_per_bug(
    capsys, tmp_path, monkeypatch, seed
):
    monkeypatch.setitem(implementations._REGISTRY, "two_bugs_for_tests",
                        Implementation("two_bugs_for_tests", "matmul", _two_bugs))
    argv = ["--impl", "two_bugs_for_tests", "--dtype", "float32", "--property", "oracle",
            "--seed", seed, "--jobs", "1", "--database", "none", "--examples", "40"]
    code, out, err, _ = campaign(capsys, *argv, "--dump-dir", str(tmp_path / "once"))
    assert code == 1 and len(dumps(out)) == 1, out  # without it, the first finding ends it
    code, out, err, _ = campaign(capsys, *argv, "--keep-going", "--dump-dir", str(tmp_path / "all"))
    assert code == 1, out + err
    found = dumps(out)
    row = next(ln for ln in out.splitlines() if ln.startswith("two_bugs_for_tests"))
    assert int(row.split()[3]) == len(found), out
    assert sorted(found) == sorted((tmp_path / "all").iterdir()), out  # repeats not dumped
    cases = [json.loads((d / "case.json").read_text())["case"] for d in found]
    assert {c["m"] > 16 for c in cases} == {True, False}, cases  # both bugs
    assert "found again, not dumped twice" in out, out


def _crashes(q, k, v, out, **kw):
    raise RuntimeError("CUDA error: no kernel image is available for execution on the device")


def test_going_on_past_a_crash_on_every_call_leaves_the_other_rounds_empty_not_in_error(
        capsys, tmp_path, monkeypatch):
    """Each case of the metamorphic round raises the crash already reported:
    it skips them all, which is no error of the harness."""
    monkeypatch.setitem(implementations._REGISTRY, "crashes_for_tests",
                        Implementation("crashes_for_tests", "attention", _crashes))
    code, out, err, _ = campaign(
        capsys, "--impl", "crashes_for_tests", "--dtype", "float32", "--property",
        "oracle,metamorphic", "--jobs", "1", "--database", "none", "--examples", "10",
        "--keep-going", "--dump-dir", str(tmp_path))
    assert code == 1 and "1 crash" in out, out + err
    rows = {ln.split()[11]: ln.split() for ln in out.splitlines()
            if ln.startswith("crashes_for_tests")}
    assert rows["metamorphic"][2:4] == ["0", "0"], out  # no case, no finding
    assert not [ln for ln in (out + err).splitlines() if ln.startswith("error:")], out + err


def test_a_sequence_round_counts_what_its_calls_covered(capsys, tmp_path, fakes):
    code, out, err, _ = campaign(
        capsys, "--impl", "right_for_tests", "--dtype", "float32", "--property", "stateful",
        "--jobs", "1", "--database", "none", "--examples", "12", "--dump-dir", str(tmp_path))
    assert code == 0, out + err
    row = next(ln for ln in out.splitlines() if ln.startswith("right_for_tests")).split()
    cases, shapes, layouts, values = int(row[2]), int(row[5]), int(row[7]), int(row[8])
    assert 1 < shapes <= cases and layouts >= 1 and values >= 1, out


def test_keep_going_tells_findings_apart_by_kind_and_leaves_built_in_errors_be():
    from attnfuzz.properties.run import harness, worker

    wrong = harness.Finding("x", ["wrong"], checks=["out"])
    memory = harness.Finding("y", ["memory"], checks=["input a modified"])
    bare = AssertionError("z")  # a built-in type, which cannot be retyped
    for exc in (wrong, memory, bare):
        worker._tell_apart(exc)
    assert type(wrong) is not type(memory) and isinstance(wrong, harness.Finding)
    assert type(bare) is AssertionError


def _scheduler(rounds: list[tuple[str, str, str]], jobs: int, tmp_path: Path):
    """A campaign whose scheduling runs without workers."""
    from attnfuzz.properties.run.campaign import Campaign, Plan, Slot

    c = Campaign(Plan(rounds=rounds, jobs=jobs, seconds=60.0, examples=None, seed=0,
                      where="interpreter", dump_dir=tmp_path))
    shutil.rmtree(c.logs)
    c.slots = [Slot(i) for i in range(jobs)]
    c.deadline = time.time() + 60.0
    return c


def test_a_worker_with_no_round_to_start_joins_a_first_visit_instead_of_idling(tmp_path):
    c = _scheduler([("flash", "float16", "oracle")], 3, tmp_path)
    first, second, third = (c._next_visit(s) for s in c.slots)
    (r,) = c.rounds
    assert first["min_cases"] > 1 and first["seed"] == 0  # the first visit
    # Both others join it at once, each on its own seed, instead of waiting for its end.
    assert second is not None and third is not None and r.busy == 3
    assert len({first["seed"], second["seed"], third["seed"]}) == 3
    assert second["until"] == third["until"] == c.deadline  # one round: all the time left


def test_a_startable_round_goes_before_joining_one(tmp_path):
    c = _scheduler([("flash", "float16", "oracle"), ("naive", "float16", "oracle")], 3, tmp_path)
    visits = [c._next_visit(s) for s in c.slots]
    assert [v["round"] for v in visits] == [
        ("flash", "float16", "oracle"), ("naive", "float16", "oracle"),
        ("flash", "float16", "oracle")]  # then the one with fewest workers (the first, on a tie)


def test_one_bug_found_by_two_workers_at_once_is_one_finding_and_one_dump(tmp_path, capsys):
    c = _scheduler([("flash", "float16", "oracle")], 2, tmp_path)
    (r,) = c.rounds
    twice = []
    for i in range(2):
        d = tmp_path / f"dump-{i}"
        d.mkdir()
        twice.append({"kinds": ["wrong"], "checks": ["out"], "shape": "Sq=1 Sk=1",
                      "message": "oracle: flash wrong", "dump": str(d), "replayed": False})
    for f in twice:
        c._finding(r, f)
    assert len(r.findings) == 1 and r.repeats == 1
    assert (tmp_path / "dump-0").exists() and not (tmp_path / "dump-1").exists()


@pytest.mark.parametrize("keep_going", [False, True])
def test_a_pairs_second_failure_from_a_worker_that_had_not_heard_is_dumped_only_going_on(
        tmp_path, keep_going):
    """Two workers shrinking one bug may stop at different minimal cases: a
    finding the pair's end had not reached yet is a repeat unless going on."""
    c = _scheduler([("flash", "float16", "oracle")], 2, tmp_path)
    c.plan.keep_going = keep_going
    (r,) = c.rounds
    for i, shape in enumerate(("Sq=1 Sk=1", "Sq=1 Sk=2")):
        d = tmp_path / f"dump-{i}"
        d.mkdir()
        c._finding(r, {"kinds": ["wrong"], "checks": ["out"], "shape": shape,
                       "message": "oracle: flash wrong", "dump": str(d), "replayed": False})
    assert len(r.findings) == (2 if keep_going else 1) and r.repeats == (0 if keep_going else 1)
    assert (tmp_path / "dump-0").exists()
    assert (tmp_path / "dump-1").exists() == keep_going


def test_the_summary_says_where_the_workers_time_went(tmp_path):
    c = _scheduler([("flash", "float16", "oracle")], 2, tmp_path)
    (r,) = c.rounds
    c.starting = 2.0
    for seconds, compiles in ((6.0, 1), (4.0, 0), (4.0, 0)):
        c._count(r, {"seconds": seconds, "compiles": compiles, "ratio": 0.0, "check": "",
                     "description": "", "signature": str(seconds), "counted": True,
                     "shape": "", "labels": [], "layouts": [], "family": None, "mode": "explore"})
    # Two workers for 10 s: 20 s, of which 2 starting, 6 compiling, 8 in other calls.
    assert c._time_spent(10.0) == ("time: 2 workers x 10 s: 10% starting, 30% in calls that "
                                   "compiled a kernel, 40% in other calls, 20% drawing, "
                                   "shrinking or waiting")


@pytest.mark.parametrize("second", ["flash", "/else/where/mine.py:attn@flash_attn#gqa=yes"])
def test_the_summary_names_a_files_function_as_given_and_its_declaration_once(
        tmp_path, capsys, second):
    """A declared support would make every row, and the list of rounds not
    started, hundreds of characters wide: rows name the function, the
    declaration is printed once; a name two would share stays whole."""
    mine = "/some/folder/mine.py:attn@flash_attn#dtypes=float32;gqa=no;max_seq=48"
    rounds = [(mine, "float32", "oracle"), (mine, "float32", "refuses"),
              (second, "float32", "oracle")]
    c = _scheduler(rounds, 1, tmp_path)
    for key in (rounds[0], rounds[2]):
        c.by_key[key].started, c.by_key[key].ended = True, 1
    c.summary()
    lines = capsys.readouterr().out.splitlines()
    table = lines[lines.index(next(ln for ln in lines if ln.startswith("implementation"))) + 1:]
    unique = second == "flash"
    shown = "mine.py:attn@flash_attn" if unique else mine
    assert table[0].split()[0] == shown
    declared = [ln for ln in lines if ln.startswith("support declared")]
    assert declared == (["support declared for mine.py:attn@flash_attn: "
                         "dtypes=float32;gqa=no;max_seq=48"] if unique else [])
    assert next(ln for ln in lines if ln.startswith("not started")).endswith(
        f"{shown}: float32/refuses")


def test_a_round_not_run_yet_costs_the_worst_of_its_property_and_its_implementation(tmp_path):
    rounds = [("flash", "float32", "oracle"), ("matmul", "float32", "stateful"),
              ("flash", "float32", "stateful"), ("naive", "float32", "agree")]
    c = _scheduler(rounds, 1, tmp_path)
    flash, matmul, flash_seq, naive = (c.by_key[k] for k in rounds)
    flash.calls, flash.seconds = 10, 20.0  # compiles in most calls
    matmul.calls, matmul.seconds = 10, 0.5
    # A sequence of flash calls compiles as flash's oracle does, not as matmul's sequences.
    assert c._estimate(flash_seq) == 2.0
    assert c._estimate(naive) == 2.0  # nothing of its own kind: anything's worst
    for done in (flash, matmul):
        done.started, done.ended = True, 1
    c.deadline = time.time() + c.min_cases * 1.0  # its cases at 2 s do not fit, at 0.05 s would
    visit = c._next_visit(c.slots[0])
    assert visit["round"] in {flash.key, matmul.key} and not flash_seq.started


def test_each_round_draws_cases_of_its_own_and_a_round_alone_draws_them_again(
    capsys, tmp_path, monkeypatch
):
    """One seed for every round made a float16 round draw the shapes of its
    float32 twin; each round draws its own, and the round run alone with the
    run's seed (what its reproduce command prints) draws the same cases."""
    trace = tmp_path / "trace"
    monkeypatch.setenv("ATTNFUZZ_TRACE", str(trace))
    argv = ("--impl", "matmul", "--property", "oracle", "--examples", "8", "--seed", "5",
            "--jobs", "1", "--database", "none", "--dump-dir", str(tmp_path))

    def drawn(dtype: str) -> list[str]:  # the cases of a dtype's round, dtype left out
        lines = [ln.split("\t")[-1] for ln in trace.read_text().splitlines()]
        return [ln.replace(f"'{dtype}'", "DTYPE") for ln in lines if f"'{dtype}'" in ln]

    code, out, err, _ = campaign(capsys, *argv, "--dtype", "float32,float16")
    assert code == 0, out + err
    both = drawn("float16")
    assert len(both) == 8 and set(both) != set(drawn("float32")), both
    trace.unlink()
    code, out, err, _ = campaign(capsys, *argv, "--dtype", "float16")
    assert code == 0, out + err
    assert drawn("float16") == both


def test_a_files_function_draws_alike_from_any_folder():
    """A target's seed hashes the implementation's short name: a function of a
    file named by another path (a copy, another checkout, pytest's tmp_path)
    draws the same cases, and another dtype of it other ones."""
    from attnfuzz.properties import checks

    here = checks.target_seed(1, "oracle", "/a/b/kernel.py:attend#causal=no", "float32")
    assert here == checks.target_seed(1, "oracle", "/c/kernel.py:attend", "float32")
    assert here != checks.target_seed(1, "oracle", "/a/b/kernel.py:attend", "float16")


def test_a_keyboard_interrupt_is_the_users_wherever_a_key_press_can_reach_the_process(
        monkeypatch):
    """In process (pytest, a script) Ctrl-C must stop the run; where SIGINT is
    ignored, as in a campaign's workers, it is the function's own raise."""
    import signal

    from attnfuzz.properties.implementations.implementation import ImplementationCrash
    from attnfuzz.properties.run import harness

    guarded = harness._guarded(Implementation("interrupts", "matmul", _interrupts_past_m))
    tall = torch.zeros(1, 21, 2), torch.zeros(1, 2, 3)
    with pytest.raises(KeyboardInterrupt):
        guarded.run(*tall, None)
    monkeypatch.setattr(signal, "getsignal", lambda sig: signal.SIG_IGN)
    try:  # not pytest.raises: an interrupt let through would stop the whole session
        guarded.run(*tall, None)
    except ImplementationCrash as crash:
        assert "KeyboardInterrupt" in str(crash)
    except KeyboardInterrupt:
        pytest.fail("the function's own KeyboardInterrupt, where no key press can reach, "
                    "left the call")
    else:
        pytest.fail("the call did not raise")


def test_a_worker_a_users_function_ended_is_named_as_every_finding_names_it(capsys, tmp_path):
    """By the file's name and the function, not its folder and declared support."""
    user = tmp_path / "deep" / "folder"
    user.mkdir(parents=True)
    (user / "ends.py").write_text("import os\n\n\ndef attn(q, k, v, **kw):\n    os._exit(0)\n")
    code, out, err, _ = campaign(
        capsys, "--impl", f"{user / 'ends.py'}:attn#causal=no", "--dtype", "float32",
        "--property", "oracle", "--examples", "3", "--seed", "3", "--jobs", "1",
        "--dump-dir", str(tmp_path / "dumps"), "--database", "none")
    assert code == 1, out + err
    assert "oracle: ends.py:attn ended its worker (exit code 0) on: " in err, err


def test_a_harness_error_names_its_logged_traceback_and_is_no_clean_exit(
        capsys, tmp_path, fakes, monkeypatch):
    """The campaign's own failure in a round (here: its sequences) is not the
    code under test's: no finding, but the run did not check what it says,
    so it exits 3, and the log its error line names holds the traceback."""
    from attnfuzz.properties.run import worker

    def broken(self, v):
        raise RuntimeError("the harness broke here")

    monkeypatch.setattr(worker.Worker, "_sequences", broken)
    code, out, err, _ = campaign(
        capsys, "--impl", "right_for_tests", "--dtype", "float32", "--property", "stateful",
        "--jobs", "1", "--database", "none", "--examples", "4", "--dump-dir", str(tmp_path))
    assert code == 3, out + err
    line = next(ln for ln in out.splitlines() if ln.startswith("error: "))
    assert "harness error: RuntimeError: the harness broke here (log: " in line, line
    logs = Path(line[line.index("(log: ") + 6:-1])
    text = "".join(p.read_text() for p in logs.iterdir())
    shutil.rmtree(logs)
    assert "in broken" in text, line


def test_on_the_interpreter_bfloat16_is_said_to_be_left_out_and_refused_when_asked(
        capsys, tmp_path, fakes):
    from attnfuzz.properties import backend

    if backend.supports_bf16():
        pytest.skip("bfloat16 runs on this backend")
    code, out, err, _ = campaign(
        capsys, "--impl", "right_for_tests", "--property", "oracle", "--jobs", "1",
        "--database", "none", "--examples", "2", "--dump-dir", str(tmp_path))
    assert code == 0, out + err
    assert "bfloat16: not run here (Triton's interpreter computes it wrongly)" in out, out
    code, out, err, _ = campaign(capsys, "--impl", "right_for_tests", "--dtype", "bfloat16")
    assert code == 2 and "bfloat16 is wrong in Triton's interpreter" in err, out + err


def test_a_wrong_answer_is_told_with_its_first_failing_check_as_it_is_found(
        capsys, tmp_path, fakes):
    """The line under a finding's header names the element, got and want: what
    a reader of the run's log acts on before any replay."""
    code, out, err, _ = campaign(
        capsys, "--impl", "wrong_past_m_for_tests", "--dtype", "float32", "--property",
        "oracle", "--examples", "30", "--seed", "11", "--jobs", "1", "--database", "none",
        "--dump-dir", str(tmp_path))
    assert code == 1, out + err
    lines = err.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("oracle failed for "))
    assert re.match(r"  out: error/bound = \S+ at index \(", lines[at + 1]), err
    assert "got " in lines[at + 1] and "want " in lines[at + 1], err
