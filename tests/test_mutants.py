"""The harness still catches bugs: a fast subset of the mutant catalogue.

One mutant per kernel (and per backward), each planted in a temporary copy of kernels/ and run
against the property suite in a worker process (see properties/mutants.py).
The full catalogue runs with ``attnfuzz mutants``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from attnfuzz.properties import backend, checks, implementations
from attnfuzz.properties.mutation import runner
from attnfuzz.properties.mutation.mutant import targets_of
from attnfuzz.properties.mutation.runner import (
    Result,
    apply,
    catalogue,
    from_file,
    per_file,
    run_all,
    run_baseline,
    run_mutant,
    table,
)

SUBSET = (
    "matmul.bh_flat_one_stride",
    "matmul_nt.strides_not_swapped",
    "softmax.nan_on_empty_rows",
    "naive.pv_ignores_gqa",
    "flash.acc_not_rescaled",
    "decode.split_end_ignored",
    "naive_bwd.dk_not_summed_over_group",
    "flash_bwd.delta_missing",
    "flash_bwd.dp_half_in_dq",  # a 16-bit step: caught by dQ's exact dS rounding alone
    "paged.out_may_overlap_the_k_cache",  # a serving call's overlap check
    "varlen.prefix_sums_may_end_short",  # a serving call's metadata check
)


def test_every_mutant_applies(tmp_path):
    """Each edit of the whole catalogue still matches the kernel source exactly once."""
    for mutant in catalogue():
        apply(mutant, tmp_path / mutant.name)


def test_every_target_is_registered():
    """Targets name properties and implementations through the registries, and the
    property applies to the implementation."""
    for mutant in catalogue():
        for prop, impl, dtype in mutant.targets:
            assert checks.get(prop).applies(implementations.get(impl)), (mutant.name, prop, impl)
            assert dtype in implementations.get(impl).dtypes


def test_only_takes_names_and_patterns_each_of_which_must_match():
    picked = [m.name for m in catalogue(["hopper.next_tile_*", "flash.acc_not_rescaled"])]
    assert picked == ["hopper.next_tile_keeps_acc", "hopper.next_tile_keeps_softmax_state",
                      "flash.acc_not_rescaled"]
    with pytest.raises(SystemExit, match=r"unknown mutants: hoper\.\* \(names or patterns"):
        catalogue(["hopper.*", "hoper.*"])


@pytest.mark.parametrize("name", SUBSET)
def test_mutant_is_killed(name):
    (mutant,) = catalogue([name])
    result = run_mutant(mutant, examples=40, seed=0, backend=backend.configure())
    assert not result.error, result.detail
    assert result.killed, f"{name} ({mutant.mimics}) survived {result.examples} examples"


@pytest.mark.skipif(implementations.get("hopper").cannot_run() is None,
                    reason="the Hopper kernel runs here")
def test_a_mutant_whose_kernel_cannot_run_here_is_not_run_and_not_counted():
    (mutant,) = catalogue(["hopper.kv_head_modulo_group"])
    result = run_mutant(mutant, examples=2, seed=0, backend=backend.configure())
    assert result.not_run and not result.killed and not result.error, result
    assert "not run here: hopper.kv_head_modulo_group: hopper: " in table([result])
    assert "no mutant ran here" in table([result])


def _as_json(tmp_path, names, **extra):
    """Catalogue mutants written as a ``--from`` JSON list, without their targets."""
    entries = [{"name": m.name, "file": m.file, "edits": [list(e) for e in m.edits],
                "mimics": m.mimics, **extra} for m in catalogue(names)]
    path = tmp_path / "mutants.json"
    path.write_text(json.dumps(entries))
    return path


def test_a_json_mutant_without_targets_runs_the_properties_that_call_its_file(tmp_path):
    """Default targets come from the file mutated: a serving kernel's mutant is
    checked by the serving property, the backward's by the gradients, the
    split decode's paged planning (reached through a paged cache longer than a
    key block) by the serving property after the decode ones."""
    names = ["varlen.lse_rows_by_max", "flash_bwd.delta_missing",
             "paged_split.ranges_of_the_last_sequence"]
    muts = from_file(_as_json(tmp_path, names))
    assert [m.targets for m in muts] == [targets_of(m.file) for m in muts]
    results = run_all(muts, examples=10, seed=0, jobs=2, backend=backend.configure(),
                      progress=lambda _: None)
    for r in results:
        assert r.killed, (r.name, r.status(), r.detail)
    assert [r.property.split("/")[0] for r in results] == ["serving", "gradients", "serving"]


def test_a_json_mutant_may_be_declared_equivalent(tmp_path):
    (mutant,) = from_file(_as_json(tmp_path, ["matmul.scale_twice"], equivalent="a reason"))
    result = run_mutant(mutant, examples=1, seed=0, backend=backend.configure())
    assert result.equivalent == "a reason" and not result.killed
    text = table([result, Result("m", "", True, file="tiled_matmul.py")])
    assert "equivalent: matmul.scale_twice: a reason" in text
    assert "kill rate 1/1 = 100%" in text
    with pytest.raises(SystemExit, match=r"entry 0: \"equivalent\" must be the reason"):
        from_file(_as_json(tmp_path, ["matmul.scale_twice"], equivalent=True))


def test_kill_rates_per_file():
    results = [
        Result("a", "", True, file="flash.py"),
        Result("b", "", False, file="flash.py"),
        Result("c", "", False, file="flash.py", reached=False, detail="line 3 never ran"),
        Result("d", "", False, file="serving.py", not_run="needs a GPU: line 9"),
        Result("e", "", False, file="serving.py", equivalent="why"),
        Result("f", "", True, file="serving.py"),
    ]
    assert per_file(results) == {
        "flash.py": {"killed": 1, "counted": 3, "equivalent": 0, "not_run": 0, "never_ran": 1},
        "serving.py": {"killed": 1, "counted": 1, "equivalent": 1, "not_run": 1, "never_ran": 0},
    }
    text = table(results)
    assert "kill rate 2/4 = 50%" in text
    assert "  flash.py                    1/3 = 33% (1 never ran)" in text
    assert "  serving.py                  1/1 = 100% (1 equivalent, 1 not run)" in text
    assert "not run here: d: needs a GPU: line 9" in text
    assert "survived, its code never ran: c: line 3 never ran" in text


def test_a_target_that_fails_on_the_unmutated_kernels_is_found_by_the_baseline(
        tmp_path, monkeypatch):
    """The baseline runs the kernels as they are: planted into the package it
    copies, a bug fails its target there, and only there."""
    dirs = runner._package_dirs()
    copy = tmp_path / "attnfuzz"
    shutil.copytree(dirs["kernels"], copy / "kernels")
    (bug,) = catalogue(["matmul.scale_twice"])
    path = copy / "kernels" / bug.file
    path.write_text(runner.plant(bug, path.read_text())[0])
    monkeypatch.setattr(runner, "_package_dirs", lambda: {**dirs, "kernels": copy / "kernels"})
    base = run_baseline([("oracle", "matmul", "float32"), ("oracle", "softmax", "float32")],
                        examples=8, seed=0, backend=backend.configure(), jobs=2)
    assert list(base.failing) == ["oracle/matmul/float32"], base
    assert "error/bound" in base.failing["oracle/matmul/float32"]
    assert runner.without(bug, base.failing).targets == tuple(
        t for t in bug.targets if t != ("oracle", "matmul", "float32"))
    assert "1 targets FAIL on the unmutated kernels" in table([], base)


def test_a_target_the_unmutated_kernels_cannot_finish_or_run_is_left_out(monkeypatch):
    """A slow or broken target must not end the whole run: the chunk that timed
    out or broke is rerun a target at a time, and only the targets that time
    out or break alone are left out, reported as such."""
    ran = []

    def fake_run(cmd, **kw):
        targets = json.loads(cmd[cmd.index("--targets") + 1])
        ran.append(targets)
        if ["oracle", "softmax", "float32"] in targets:
            raise subprocess.TimeoutExpired(cmd, kw["timeout"])
        if ["gradients", "flash", "float16"] in targets:
            return subprocess.CompletedProcess(cmd, 1, stdout="", stderr=(
                "Traceback (most recent call last):\n  ...\nhypothesis.errors.FlakyFailure: "
                "Hypothesis test produces unreliable results\n  0.3  (label='error/bound')\n"))
        out = json.dumps({"failing": {}, "examples": 8 * len(targets), "cut": {}})
        return subprocess.CompletedProcess(cmd, 0, stdout=out + "\n", stderr="")

    monkeypatch.setattr(runner.zygote, "run", fake_run)
    targets = [("oracle", "matmul", "float32"), ("oracle", "softmax", "float32"),
               ("oracle", "naive", "float32"), ("gradients", "flash", "float16")]
    base = run_baseline(targets, examples=8, seed=0, backend="interpreter", jobs=1, timeout=5)
    assert base.failing == {
        "oracle/softmax/float32": "the unmutated kernels did not finish it in 5s",
        "gradients/flash/float16": "the worker broke on the unmutated kernels: hypothesis."
        "errors.FlakyFailure: Hypothesis test produces unreliable results (exit status 1)",
    }, base
    assert base.examples == 16
    assert len(ran) == 5  # the chunk, then each of its four targets alone


def test_a_time_box_stops_a_target_between_cases_and_says_so(monkeypatch):
    """``--target-seconds``: cases and call sequences begun before the box
    ends run, then the target stops and is named as cut short; a cap (the
    baseline's count, for a mutant) stops it likewise, not named; a failing
    case found in time is still a kill, though Hypothesis replays it after.
    The runner's clock is one each case or call moves on by a second."""
    from attnfuzz.properties.checks import stateful
    from attnfuzz.properties.run import harness

    clock = [0.0]
    monkeypatch.setattr(runner, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    checked = harness.check

    def ticking(prop, impl, case, **kw):
        clock[0] += 1
        return checked(prop, impl, case, **kw)

    def failing(prop, impl, case, **kw):
        clock[0] += 10
        raise AssertionError("planted")

    monkeypatch.setattr(harness, "check", ticking)
    # A call of a sequence: a step (the runner's hook, after this one, sees its time).
    monkeypatch.setattr(stateful, "STEP_HOOKS",
                        [lambda event, case: clock.__setitem__(0, clock[0] + (event == "step"))])

    assert runner._run_target("oracle", "softmax", "float32", 10**6, 0, None, None,
                              until=3.5) == (4, True)
    clock[0] = 0.0
    assert runner._run_target("stateful", "softmax", "float32", 10**6, 0, None, None,
                              until=2.5) == (2, True)
    assert runner._run_target("oracle", "softmax", "float32", 10**6, 0, None, None,
                              cap=3) == (3, False)
    assert runner._run_target("stateful", "softmax", "float32", 10**6, 0, None, None,
                              cap=4) == (4, False)
    assert runner._run_target("oracle", "softmax", "float32", 3, 0, None, None) == (3, False)
    monkeypatch.setattr(harness, "check", failing)
    clock[0] = 0.0
    with pytest.raises(runner._Killed) as killed:  # the replay begins past the box
        runner._run_target("oracle", "softmax", "float32", 10**6, 0, None, None, until=5.0)
    assert "planted" in str(killed.value.failure) and killed.value.count == 1
    survivor = Result("m", "a bug", False, examples=5, reached=True,
                      cut={"oracle/softmax/float32": 5})
    assert "survived a time box: m: oracle/softmax/float32 (5 examples)" in table([survivor])


@pytest.mark.skipif(not backend.interpreting(), reason="the interpreter's view of the code")
def test_a_mutant_of_code_only_compiled_kernels_run_is_not_run_here():
    """The head-dim widening that only compiled kernels apply: its mutants
    cannot be killed on the interpreter, so they are reported, not counted."""
    (mutant,) = catalogue(["rule.swap_min_max._tiles.140"], rules=0)
    result = run_mutant(mutant, examples=1, seed=0, backend=backend.configure())
    assert result.not_run and result.not_run.startswith("needs a GPU: line 140 of _tiles.py")
    assert "no mutant ran here" in table([result])


# Chosen for cost: each mutant's first target is the matmul's or the
# softmax's float32 oracle, the cheapest targets (the baseline and the
# mutants, 3 seeds each: nine workers, seconds on two cores),
# and both bugs show on most drawn cases (a K-loop tail: any K that is no
# multiple of the block; a missing scale: any scale but 1), so they die within
# a few examples at any seed.  A bug that shows on rare cases only, such as
# softmax.sum_not_rescaled (a running max that changes within a row), survived
# 20 examples at seed 3: a kill at one seed would not show the property finds
# it.  The baseline runs the same targets at each seed, so a kill is not a
# failure of clean code.
SEEDED = ("matmul.k_tail_unmasked", "softmax.scale_missing")
SEEDS = (1, 2, 3)


def test_cheap_mutants_are_killed_at_every_seed():
    from concurrent.futures import ThreadPoolExecutor

    name = backend.configure()
    muts = [runner.Mutant(m.name, m.file, m.edits, m.mimics, m.targets[:1])
            for m in catalogue(list(SEEDED))]
    targets = list(dict.fromkeys(m.targets[0] for m in muts))
    with ThreadPoolExecutor(max_workers=2) as pool:
        bases = {seed: pool.submit(run_baseline, targets, examples=8, seed=seed, backend=name)
                 for seed in SEEDS}
        kills = {(m.name, seed): pool.submit(run_mutant, m, examples=8, seed=seed, backend=name)
                 for m in muts for seed in SEEDS}
        for seed, base in bases.items():
            assert not base.result().failing, (seed, base.result())
        for (mutant, seed), r in kills.items():
            assert r.result().killed, (seed, mutant, r.result().status(), r.result().detail)


def test_ctrl_c_ends_a_mutants_run_within_moments(tmp_path):
    """A Ctrl-C (to the terminal's process group, or to the command alone)
    starts no further worker, interrupts the running ones and ends the command
    with status 130 and one line, where the run would go on for minutes."""
    launch = ("import os, signal, sys\n"
              "signal.signal(signal.SIGINT, signal.SIG_DFL)  # as at a terminal\n"
              "os.execv(sys.executable, [sys.executable, '-m', 'attnfuzz', 'mutants', "
              "'--only', 'flash.*', '--examples', '200', '--jobs', '2'])\n")
    for group in (True, False):
        proc = subprocess.Popen([sys.executable, "-c", launch], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                                start_new_session=True)
        assert proc.stdout.readline().startswith("baseline: ")
        time.sleep(2)  # its workers are running
        start = time.monotonic()
        (os.killpg if group else os.kill)(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert time.monotonic() - start < 30, (group, out, err)
        assert proc.returncode == 130, (group, out, err)
        assert err.strip() == "attnfuzz mutants: interrupted", (group, err)


def test_the_table_keeps_a_long_name_apart_from_its_status():
    long = "hopper_bwd.fused_keyless_rows_zeroed_by_key_block"
    killer = "gradients_agree/an_implementation_with_a_long_name/bfloat16"
    text = table([Result(long, "", True, property=killer, examples=5, seconds=4.8),
                  Result("m", "", False, property="oracle/flash/float32", examples=9,
                         seconds=1.0)])
    head, first, second = text.splitlines()[:3]
    assert first.split() == [long, "killed", killer, "5", "4.8"]
    assert second.split() == ["m", "SURVIVED", "oracle/flash/float32", "9", "1.0"]
    # One column each: every row's status starts where the header's does.
    for row in (first, second):
        assert row.index(row.split()[1]) == head.index("status")
    assert first.index(killer) == second.index("oracle/flash/float32") == head.index("killed by")
