"""The harness's own benchmark: how many cases a campaign runs, and where its time goes.

The kernels' speed is measured elsewhere (``bench_attention.py``); this is the
speed of the fuzzing around them, which bounds how much of the case space a
campaign of a given length explores, and what the cases it draws can show.
Four parts:

1. **Stage profile, in process.**  For each (implementation, property, dtype)
   it runs Hypothesis rounds the way ``attnfuzz run`` does (one example,
   then rounds of five, seed + round, ``database=None``, ``harness.check``
   inside ``@given``) for ``--seconds``, and splits the wall time into
   stages: Hypothesis' drawing and bookkeeping, building the inputs in their
   layouts, Triton compiles, the implementation call, the interpreter's
   access check inside it, the memory-safety checks around it, the oracle's
   exact values, their bounds, the comparison, and the rest (the harness's
   glue).  The package is not edited: the functions in ``WRAPPED`` are
   replaced at their module attributes for the duration of a profile and
   restored afterwards.  It counts cases, distinct cases (by ``repr``),
   distinct shape classes (a case with its value seed removed) and compiles.
2. **End to end.**  ``python -m attnfuzz run`` as a subprocess, for the
   default campaign and for flash alone (oracle, float16 on a GPU, float32
   on the interpreter), with a Triton cache that is cold (a fresh empty
   ``TRITON_CACHE_DIR``) or warm (the same directory after one identical
   run); its final summary line gives cases a second.
3. **Tightness** (``--part tightness``).  The error/bound ratio of every
   check (out, lse, dq, dk, dv, ...) of a property on drawn cases (the
   generate phase alone: no targeting steers them), per (property,
   implementation, dtype, check): median, p90, max and the share above 0.5.
   A correct kernel that never comes near 1 leaves room in its bound for a
   bug of the missing factor.
4. **Draws** (``--part draws``, no kernel runs).  Distinct (shape, mask)
   classes among 30 and 100 examples of a property, per seed; the share of
   its masked cases in which a mask error could show
   (``unsaturated.informative``); and, drawn as on a GPU, the share of cases
   at a model's sizes (``realistic_sizes``) and how many row tiles a program
   of a persistent grid takes there.  Parts 3 and 4 write their record to
   ``--out`` (default ``attnfuzz-records/`` in the current directory).
5. **Mutant workers** (``--part mutants``).  Seconds to run a few mutants
   (``--mutants``) as ``attnfuzz mutants`` does, with workers forked from the
   zygote (``mutation/zygote.py``) and as plain subprocesses, alternately,
   twice each, in one process; the first zygote run includes the zygote's
   own start.  Each mode's kills are printed: they must agree.

    python benchmarks/bench_harness.py                                # both parts
    python benchmarks/bench_harness.py --part profile --impl flash,naive --seconds 30
    python benchmarks/bench_harness.py --part e2e --cache both --campaign-args "--jobs 4"
    python benchmarks/bench_harness.py --json /tmp/records/bench-harness.json
    python benchmarks/bench_harness.py --part tightness --examples 30 --seconds 60
    python benchmarks/bench_harness.py --part draws --draw-examples 30,100 --draw-seeds 5
    python benchmarks/bench_harness.py --part mutants --mutants "matmul.*" --jobs 2

The table goes to stdout, progress to stderr; ``--json FILE`` keeps every
number.  Nothing is written into the source tree: dumps of failing cases
and the Triton caches of the end-to-end runs live in temporary directories.
Randomness comes only from the Hypothesis seed (``--seed``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import json
import math
import os
import platform
import re
import runpy
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# --- stages ------------------------------------------------------------------------------

# In the order the table prints them.  "hypothesis" is the base of a round
# (everything outside the test body: drawing, the engine, building the
# @given test each round, as the campaign does); "rest" is the base inside
# the body (the harness's glue: labels, the recorder, verdict bookkeeping).
STAGES = ("hypothesis", "build", "compile", "impl", "access", "safety",
          "oracle", "bounds", "compare", "rest")
SHORT = {"hypothesis": "hyp", "build": "build", "compile": "comp", "impl": "impl",
         "access": "acc", "safety": "safe", "oracle": "orcl", "bounds": "bnds",
         "compare": "cmp", "rest": "rest"}

# (module, attribute, stage, how): the one table of what is timed.  ``how`` is
# "call" (the call is the stage) or "run" (the function returns an
# Implementation, whose ``run`` is the stage: the registry's ``get`` is the one
# place every implementation, attnfuzz's or a library's, passes through).
# A plain function is replaced wherever attnfuzz's modules bind it, since
# ``from m import f`` copies the binding: patching ``cases.build`` alone would
# miss ``oracle.build``.  A dotted attribute (a method) is replaced on its class.
WRAPPED: tuple[tuple[str, str, str, str], ...] = (
    ("attnfuzz.properties.model.cases", "build", "build", "call"),
    ("attnfuzz.properties.implementations", "get", "impl", "run"),
    # The interpreter's per-load/store check (nested in the implementation call).
    ("attnfuzz.properties.checks.accesses", "_Watch.outside", "access", "call"),
    # Poisoned outputs, guard regions, input snapshots around the call: their
    # own time, once the call and any build inside are taken out.
    ("attnfuzz.properties.checks.execution", "execute", "safety", "call"),
    ("attnfuzz.properties.checks.execution", "execute_backward", "safety", "call"),
    ("attnfuzz.reference.oracle", "attention_parts", "oracle", "call"),
    ("attnfuzz.reference.oracle", "attention", "oracle", "call"),
    ("attnfuzz.reference.oracle", "matmul", "oracle", "call"),
    ("attnfuzz.reference.oracle", "softmax", "oracle", "call"),
    # The mask; the softmax check computes it for its bound, outside the bound's call.
    ("attnfuzz.reference.oracle", "visible", "oracle", "call"),
    ("attnfuzz.reference.gradients", "attention_grads", "oracle", "call"),
    ("attnfuzz.reference.bounds", "attention_bounds", "bounds", "call"),
    ("attnfuzz.reference.bounds", "matmul_bound", "bounds", "call"),
    ("attnfuzz.reference.bounds", "softmax_bound", "bounds", "call"),
    ("attnfuzz.reference.gradient_bounds", "attention_grad_bounds", "bounds", "call"),
    ("attnfuzz.reference.verdict", "compare", "compare", "call"),
    # Called inside the body by harness.check, but Hypothesis' work; harness
    # imports them from ``hypothesis`` at each call, so the attribute is enough.
    ("hypothesis", "event", "hypothesis", "call"),
    ("hypothesis", "target", "hypothesis", "call"),
)


class Stages:
    """Exclusive time per stage, from a stack of the stages entered.

    Every interval between two clock readings is charged to the stage on top
    of the stack, so a stage's time excludes the stages nested in it and the
    stages add up to the wall time exactly.  ``push`` returns the depth to
    ``pop`` back to, so a stage left without its exit (a compile that raised
    between Triton's two hooks) is closed by the stage around it.
    """

    def __init__(self, base: str = "hypothesis") -> None:
        self.clock = time.perf_counter
        self.stack = [base]
        self.seconds: dict[str, float] = dict.fromkeys(STAGES, 0.0)
        self.calls: Counter[str] = Counter()
        self.start = self.last = self.clock()
        self.cpu_start = time.process_time()
        self.cpu = 0.0

    def push(self, stage: str) -> int:
        now = self.clock()
        self.seconds[self.stack[-1]] += now - self.last
        self.last = now
        self.stack.append(stage)
        self.calls[stage] += 1
        return len(self.stack) - 1

    def pop(self, depth: int) -> None:
        now = self.clock()
        self.seconds[self.stack[-1]] += now - self.last
        self.last = now
        del self.stack[depth:]

    def stop(self) -> float:
        """Charge the time up to now; return the wall time since the start (and
        keep this process's CPU time since then in ``cpu``)."""
        self.pop(len(self.stack))
        self.cpu = time.process_time() - self.cpu_start
        return self.last - self.start


def _timed(fn: Callable, stage: str, stages: Stages, after: Callable[[], Any] | None = None):
    # Two clock readings and a list operation per call: a fraction of a
    # microsecond, against the interpreter's tens of microseconds per access.
    push, pop = stages.push, stages.pop

    @functools.wraps(fn)
    def timed(*args, **kwargs):
        depth = push(stage)
        try:
            result = fn(*args, **kwargs)
            if after is not None:
                after()
            return result
        finally:
            pop(depth)

    return timed


def _runs_timed(get: Callable, stages: Stages, after: Callable[[], Any] | None):
    """``get`` whose Implementations' ``run`` is timed (one copy per implementation)."""
    memo: dict[int, tuple[Any, Any]] = {}

    @functools.wraps(get)
    def timed_get(*args, **kwargs):
        impl = get(*args, **kwargs)
        hit = memo.get(id(impl))
        if hit is None or hit[0] is not impl:
            hit = (impl, dataclasses.replace(impl, run=_timed(impl.run, "impl", stages, after)))
            memo[id(impl)] = hit
        return hit[1]

    return timed_get


def _resolve(module: str, attribute: str) -> tuple[object, str, Any]:
    """(owner, name, value) of a possibly dotted attribute of a module."""
    owner: object = importlib.import_module(module)
    *path, name = attribute.split(".")
    for part in path:
        owner = getattr(owner, part)
    return owner, name, getattr(owner, name)


@contextmanager
def wrapped(stages: Stages, sync: Callable[[], Any] | None = None) -> Iterator[list]:
    """Replace every ``WRAPPED`` function (and its aliases in attnfuzz's modules)
    by a timed one; restore them all on the way out, whatever happens.

    ``sync`` runs at the end of each implementation call: on a GPU the call
    returns before its kernels finish, and their time would otherwise land
    in whichever stage synchronises next (the safety checks)."""
    patches: list[tuple[object, str, Any]] = []  # (owner, name, original)
    try:
        for module, attribute, stage, how in WRAPPED:
            owner, name, original = _resolve(module, attribute)
            if how == "run":
                new = _runs_timed(original, stages, sync)
            else:
                new = _timed(original, stage, stages)
            owners = [owner]
            if "." not in attribute:
                owners += [m for n, m in list(sys.modules.items())
                           if n.startswith("attnfuzz.") and m is not owner and m is not None]
            for o in owners:
                for n, value in list(vars(o).items()):
                    if value is original:
                        patches.append((o, n, original))
                        setattr(o, n, new)
        with _compiles_counted(stages) as compiles:
            yield compiles
    finally:
        for o, n, original in reversed(patches):
            setattr(o, n, original)


@contextmanager
def _compiles_counted(stages: Stages) -> Iterator[list]:
    """Count and time Triton's compiles (yields a one-element list: the count, or
    None where no way to see them was found).

    Triton 3.6 calls ``knobs.runtime.jit_cache_hook`` before it compiles a
    kernel it has not in memory and ``jit_post_compile_hook`` after, the
    documented way to watch compiles; they chain to hooks already set.  A
    "compile" is therefore a miss of the process's in-memory kernel cache:
    with a warm disk cache (``TRITON_CACHE_DIR``) it is a load, not a build.
    Where the knobs are missing (another Triton), ``JITFunction._do_compile``
    is wrapped instead.  The interpreter compiles nothing: zero compiles.
    """
    count: list = [0]
    try:
        from triton import knobs

        runtime = knobs.runtime
        before = runtime.jit_cache_hook, runtime.jit_post_compile_hook
    except (ImportError, AttributeError):
        runtime = None
    if runtime is not None:
        prev_cache, prev_post = before

        def cache_hook(**kw):
            skip = prev_cache(**kw) if prev_cache is not None else None
            if not skip:  # a true answer makes Triton skip the compile
                count[0] += 1
                stages.push("compile")
            return skip

        def post_hook(**kw):
            if "compile" in stages.stack:
                depth = len(stages.stack) - 1 - stages.stack[::-1].index("compile")
                stages.pop(depth)
            return prev_post(**kw) if prev_post is not None else None

        runtime.jit_cache_hook, runtime.jit_post_compile_hook = cache_hook, post_hook
        try:
            yield count
        finally:
            runtime.jit_cache_hook, runtime.jit_post_compile_hook = before
        return
    try:
        from triton.runtime.jit import JITFunction

        original = JITFunction._do_compile
    except (ImportError, AttributeError):
        yield [None]
        return
    timed = _timed(original, "compile", stages)

    def do_compile(*args, **kwargs):
        count[0] += 1
        return timed(*args, **kwargs)

    JITFunction._do_compile = do_compile
    try:
        yield count
    finally:
        JITFunction._do_compile = original


def wrap_cost(n: int = 20000) -> float:
    """Seconds one timed call adds to a call (measured on a no-op), to say how
    much of a profile the profiling itself is."""

    def noop() -> None:
        return None

    stages = Stages()
    timed = _timed(noop, "rest", stages)
    clock = time.perf_counter
    t0 = clock()
    for _ in range(n):
        noop()
    t1 = clock()
    for _ in range(n):
        timed()
    t2 = clock()
    return max(0.0, ((t2 - t1) - (t1 - t0)) / n)


# --- part 1: the stage profile -----------------------------------------------------------


def shape_class(case: object) -> str:
    """The case with its value seed removed: what decides compiles and tiles."""
    values = getattr(case, "values", None)
    if dataclasses.is_dataclass(case) and dataclasses.is_dataclass(values) and hasattr(
            values, "seed"):
        case = dataclasses.replace(case, values=dataclasses.replace(values, seed=0))
    return repr(case)


def profile(
    impl: str, prop: str, dtype: str, seconds: float, seed: int, *, chunk: int = 5,
    dump_dir: Path | None = None,
) -> dict[str, Any]:
    """Run ``prop`` on ``impl`` at ``dtype`` as the campaign's rounds do, for
    ``seconds``; return the counts and each stage's seconds (see ``Stages``).

    The backend must be chosen and attnfuzz loaded (``prepare``) before."""
    from attnfuzz.properties import backend, checks, implementations
    from attnfuzz.properties.run import harness

    property_ = checks.get(prop)
    implementation = implementations.get(impl)
    sync = None
    if not backend.interpreting():
        import torch

        sync = torch.cuda.synchronize
    dump_dir = dump_dir or Path(tempfile.mkdtemp(prefix="bench-harness-dumps-"))
    where = os.environ.get("ATTNFUZZ_BACKEND", "auto")
    recorder = harness.Recorder(impl, dtype)
    ran: list = []  # every case a body ran (cases are frozen: kept, repr'd after)
    failures: list[str] = []
    rounds = 0
    stages = Stages()
    with wrapped(stages, sync) as compiles:
        stages = _restart(stages)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not failures:
            examples = chunk if rounds else 1  # the campaign's first round is one example
            round_seed = seed + rounds
            rounds += 1
            if property_.sequences is not None:
                # A property of call sequences runs its own Hypothesis machine:
                # its draws and glue are all "hypothesis" here, its cases unseen.
                try:
                    property_.sequences(impl, dtype, examples, round_seed)
                except Exception as exc:
                    if harness.failures_of(exc) is None:
                        raise
                    failures.append(str(exc).splitlines()[0] if str(exc) else repr(exc))
                ran.extend([None] * examples)
                continue
            again = (f"attnfuzz --backend {where} run --impl {shlex.quote(impl)} --dtype "
                     f"{dtype} --property {prop} --examples {examples} --seed {round_seed}")
            campaign = harness.Campaign(round_seed, again, campaign_seed=seed, dump_dir=dump_dir)
            failures += _round(prop, impl, property_.cases(implementation, dtype), examples,
                               round_seed, deadline, stages, ran, recorder, campaign)
        wall = stages.stop()
    seen = [c for c in ran if c is not None]
    distinct = {repr(c) for c in seen}
    shapes = {shape_class(c) for c in seen}
    n_compiles = compiles[0]
    kept = any(dump_dir.iterdir())
    if not kept:
        dump_dir.rmdir()
    calls = sum(stages.calls.values())
    per_call = wrap_cost()
    return {
        "implementation": impl, "property": prop, "dtype": dtype,
        "seconds": seconds, "seed": seed, "rounds": rounds, "wall_s": wall,
        # On a shared machine the wall time includes waiting for a core: the
        # CPU time says how much of one the profile got.
        "cpu_s": stages.cpu,
        "cases_per_cpu_s": len(ran) / stages.cpu if stages.cpu > 0 else None,
        "distinct_per_cpu_s": len(distinct) / stages.cpu if seen and stages.cpu > 0 else None,
        "cases": len(ran), "distinct": len(distinct) if seen or not ran else None,
        "shape_classes": len(shapes) if seen or not ran else None,
        "distinct_per_s": len(distinct) / wall if seen and wall > 0 else None,
        "cases_per_s": len(ran) / wall if wall > 0 else None,
        "compiles": n_compiles,
        "compiles_per_case": (n_compiles / len(distinct)
                              if n_compiles is not None and distinct else None),
        "stage_s": dict(stages.seconds),
        "stage_share": {s: (t / wall if wall > 0 else 0.0) for s, t in stages.seconds.items()},
        "stage_calls": {s: stages.calls.get(s, 0) for s in STAGES},
        "wrapped_calls": calls,
        "wrap_overhead_s_estimate": calls * per_call,
        "failures": failures,
        "dump_dir": str(dump_dir) if kept else None,
    }


def _round(
    prop: str, impl: str, strategy: Any, examples: int, seed: int, deadline: float,
    stages: Stages, ran: list, recorder: Any, campaign: Any,
) -> list[str]:
    """One Hypothesis round with the campaign's settings (``cli._campaign_round``);
    returns the first line of each failure it reports."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from attnfuzz.properties.run import harness

    failed: list[int] = []

    @hseed(seed)
    @settings(
        max_examples=examples, deadline=None, database=None, derandomize=False,
        phases=(Phase.generate, Phase.target, Phase.shrink),
        suppress_health_check=list(HealthCheck), print_blob=False,
        report_multiple_bugs=False,
    )
    @given(strategy)
    def fuzz(case):
        # As the campaign: past the deadline a round's other draws return unrun.
        if not failed and time.monotonic() > deadline:
            return
        depth = stages.push("rest")
        try:
            ran.append(case)
            harness.check(prop, impl, case, recorder=recorder, campaign=campaign)
        except AssertionError:
            failed.append(len(ran))
            raise
        finally:
            stages.pop(depth)

    try:
        fuzz()
    except Exception as exc:
        found = harness.failures_of(exc)
        if found is None:
            raise
        return [str(f).splitlines()[0] if str(f) else type(f).__name__ for f in found]
    return []


def _restart(stages: Stages) -> Stages:
    """Start the clock after the wrapping (installing them is not the profile)."""
    stages.start = stages.last = stages.clock()
    stages.cpu_start = time.process_time()
    stages.seconds = dict.fromkeys(STAGES, 0.0)
    stages.calls.clear()
    return stages


# --- part 2: end to end ------------------------------------------------------------------

# Today's line is "N cases in Ts, ..."; a later one may count "N distinct cases".
SUMMARY = re.compile(r"(\d+) (distinct )?cases in ([0-9.]+)s")


def parse_summary(stdout: str) -> dict[str, Any] | None:
    """The campaign's final summary: cases, whether they are distinct, seconds."""
    found = None
    for line in stdout.splitlines():
        m = SUMMARY.search(line)
        if m:
            found = {"line": line.strip(), "cases": int(m.group(1)),
                     "distinct": bool(m.group(2)), "seconds": float(m.group(3))}
    return found


def _children_cpu() -> float | None:
    """User and system seconds of this process's finished children (None off Unix)."""
    try:
        import resource
    except ImportError:
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _cache_entries(cache: Path) -> int:
    """Kernels in a Triton cache: one directory each, with its metadata JSON."""
    if not cache.is_dir():
        return 0
    return sum(1 for d in cache.iterdir() if d.is_dir() and any(
        f.suffix == ".json" and not f.name.startswith("__grp__") for f in d.iterdir()))


def campaign_argv(backend_choice: str, flags: list[str], seconds: float, seed: int,
                  extra: list[str]) -> list[str]:
    """The ``attnfuzz run`` command line (for this interpreter)."""
    return [sys.executable, "-m", "attnfuzz", "--backend", backend_choice, "run", *flags,
            "--seconds", f"{seconds:g}", "--seed", str(seed), *extra]


def run_campaign(argv: list[str], env: dict[str, str], cache: Path, workdir: Path,
                 label: str) -> dict[str, Any]:
    """One campaign process; its summary, wall time and new Triton cache entries."""
    env = dict(env)
    env["TRITON_CACHE_DIR"] = str(cache)
    # The autotuner's choices are a cache too: cold means none of either.
    env["ATTNFUZZ_TUNING_CACHE"] = str(cache / "attnfuzz-tuning.json")
    env["ATTNFUZZ_DUMP_DIR"] = str(workdir / "failures")
    # The same source as this script's, even from an uninstalled checkout.
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    before = _cache_entries(cache)
    cpu0 = _children_cpu()
    print(f"[e2e] {label}: {shlex.join(argv[1:])}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=workdir, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    cpu = None if cpu0 is None else _children_cpu() - cpu0  # type: ignore[operator]
    summary = parse_summary(done.stdout)
    record: dict[str, Any] = {
        "label": label, "argv": argv[1:], "returncode": done.returncode, "wall_s": wall,
        "cpu_s": cpu,  # the process's, start included
        "new_cache_entries": _cache_entries(cache) - before, "summary": summary,
    }
    if summary is None:
        record["stderr_tail"] = done.stderr[-2000:]
        print(f"[e2e] {label}: no summary line (exit {done.returncode})\n"
              f"{done.stderr[-2000:]}", file=sys.stderr)
        return record
    # The campaign's own time, without the process's start (imports: seconds);
    # the line rounds it to whole seconds today, so short runs are rough.
    secs = summary["seconds"] if summary["seconds"] > 0 else wall
    record["cases"] = summary["cases"]
    record["cases_per_s"] = summary["cases"] / secs
    record["cases_per_wall_s"] = summary["cases"] / wall if wall > 0 else None
    record["cases_per_cpu_s"] = summary["cases"] / cpu if cpu else None
    return record


def end_to_end(
    backend_choice: str, interpreting: bool, seconds: float, seed: int, cache_mode: str,
    extra: list[str], env: dict[str, str], flash_dtype: str,
) -> list[dict[str, Any]]:
    """The default campaign and flash's oracle campaign, per cache mode."""
    runs = [("default", []),
            (f"flash/oracle/{flash_dtype}",
             ["--impl", "flash", "--property", "oracle", "--dtype", flash_dtype])]
    records = []
    for name, flags in runs:
        argv = campaign_argv(backend_choice, flags, seconds, seed, extra)
        with tempfile.TemporaryDirectory(prefix="bench-harness-e2e-") as tmp:
            cache, work = Path(tmp) / "triton-cache", Path(tmp) / "work"
            cache.mkdir()
            work.mkdir()
            if interpreting:
                # The interpreter compiles nothing: a cache, cold or warm, changes nothing.
                rec = run_campaign(argv, env, cache, work, f"{name} (interpreter)")
                rec.update(name=name, cache="n/a")
                records.append(rec)
                continue
            # Cold: the empty directory.  Warm: the same directory after one
            # identical run (the cold run when both are asked for).
            cold = run_campaign(argv, env, cache, work, f"{name} (cold cache)")
            cold.update(name=name, cache="cold")
            if cache_mode in ("cold", "both"):
                records.append(cold)
            if cache_mode in ("warm", "both"):
                warm = run_campaign(argv, env, cache, work, f"{name} (warm cache)")
                warm.update(name=name, cache="warm")
                records.append(warm)
            kept = work / "failures"
            if kept.is_dir() and any(kept.iterdir()):
                # Keep failing cases' dumps: copy them out of the temp dir.
                dest = Path(tempfile.mkdtemp(prefix="bench-harness-e2e-dumps-"))
                shutil.copytree(kept, dest, dirs_exist_ok=True)
                records[-1]["dump_dir"] = str(dest)
    return records


# --- part 3: how tight the bounds are ----------------------------------------------------


def _drawn(strategy: Any, examples: int, seed: int, body: Callable[[Any], None],
           deadline: float | None = None) -> None:
    """``body`` on ``examples`` cases Hypothesis generates from ``strategy`` with
    ``seed``: the generate phase alone (no targeting, no shrinking), so the
    cases are the draws themselves, not cases steered towards their bounds;
    each a draw of its own, as the harness runs them (``distinct_draws``)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from attnfuzz.properties.hypothesis_internals import distinct_draws

    @hseed(seed)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=(Phase.generate,), suppress_health_check=list(HealthCheck))
    @given(strategy)
    def each(case):
        if deadline is None or time.monotonic() < deadline:
            body(case)

    with distinct_draws():
        each()


QUANTILES = (("median", 0.5), ("p90", 0.9), ("max", 1.0))


def quantiles(ratios: list[float]) -> dict[str, float]:
    """Median, p90 and max of ``ratios`` (nearest rank), the share above 0.5 and
    the share above 1 (failing)."""
    ordered = sorted(ratios)
    n = len(ordered)
    out = {name: ordered[max(0, math.ceil(q * n) - 1)] if n else None for name, q in QUANTILES}
    out["above_half"] = sum(r > 0.5 for r in ordered) / n if n else None
    out["failing"] = sum(r > 1 for r in ordered) / n if n else None
    return out


def tightness(impl: str, prop: str, dtype: str, examples: int, seed: int,
              seconds: float | None = None) -> dict[str, Any]:
    """Error/bound ratios of each check of ``prop`` on ``impl`` at ``dtype`` over
    drawn cases: their quantiles per check, and the case nearest its bound.

    An implementation known correct should come near 1 on some cases: a check
    whose ratios stay far below (a median of 0.1, a max of 0.4) has room in
    its bound for a bug that scales the error by the missing factor.  Checks
    whose verdicts are all-or-nothing (bitwise, memory: bound 0) are left out."""
    from attnfuzz.properties import checks, implementations
    from attnfuzz.properties.run import harness

    strategy = checks.get(prop).cases(implementations.get(impl), dtype)
    ratios: dict[str, list[float]] = {}
    nearest: dict[str, tuple[float, str]] = {}
    raised: list[str] = []
    count = [0]

    def judge(case: Any) -> None:
        count[0] += 1
        try:
            verdicts = harness.run_property(prop, impl, case)
        except Exception as exc:  # a finding: reported, not measured
            raised.append(f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
            return
        for v in verdicts:
            if v.bound > 0 and math.isfinite(v.ratio):
                ratios.setdefault(v.check, []).append(v.ratio)
                if v.ratio > nearest.get(v.check, (-1.0, ""))[0]:
                    nearest[v.check] = (v.ratio, case.describe())

    t0 = time.perf_counter()
    deadline = None if seconds is None else time.monotonic() + seconds
    _drawn(strategy, examples, seed, judge, deadline)
    return {
        "implementation": impl, "property": prop, "dtype": dtype, "seed": seed,
        "cases": count[0], "wall_s": time.perf_counter() - t0, "raised": raised,
        "checks": {check: {"n": len(r), **quantiles(r), "nearest_case": nearest[check][1]}
                   for check, r in sorted(ratios.items())},
    }


def tightness_table(records: list[dict[str, Any]]) -> str:
    head = (f"{'property/implementation/dtype':<34}{'check':<28}{'n':>5}{'median':>8}"
            f"{'p90':>8}{'max':>8}{'>0.5':>7}{'>1':>6}")
    lines = [head, "-" * len(head)]
    for r in records:
        name = f"{r['property']}/{r['implementation']}/{r['dtype']}"
        for check, q in r["checks"].items():
            lines.append(f"{name:<34}{check[:27]:<28}{q['n']:>5}{q['median']:>8.3g}"
                         f"{q['p90']:>8.3g}{q['max']:>8.3g}{100 * q['above_half']:>6.0f}%"
                         f"{100 * q['failing']:>5.0f}%")
        if r["raised"]:
            lines.append(f"{name:<34}raised on {len(r['raised'])} of {r['cases']} cases: "
                         f"{r['raised'][0]}")
    return "\n".join(lines)


# --- part 4: how diverse the draws are ----------------------------------------------------


def shape_mask(case: Any) -> tuple:
    """A case's shape and mask: what decides tiles, loop bounds and which keys a
    row sees (values, layouts, scale and options aside)."""
    if getattr(case, "kind", None) == "attention":
        return (case.batch, case.hq, case.hkv, case.sq, case.sk, case.d, case.dv, case.causal,
                case.alignment if case.causal else None, case.window)
    return (shape_class(case),)


@contextmanager
def drawing_as_on_a_gpu() -> Iterator[None]:
    """Strategies built inside draw what they draw on a GPU (long, wide and
    realistic sizes, tf32): ``backend.interpreting`` and ``supports_tf32`` say
    so while they are built.  For drawing only: nothing may run a kernel."""
    from attnfuzz.properties import backend

    saved = backend.interpreting, backend.supports_tf32
    backend.interpreting, backend.supports_tf32 = (lambda: False), (lambda: True)
    try:
        yield
    finally:
        backend.interpreting, backend.supports_tf32 = saved


def diversity(impl: str, prop: str, dtype: str, examples: int, seeds: list[int], *,
              as_gpu: bool = False) -> dict[str, Any]:
    """Distinct (shape, mask) classes among ``examples`` drawn cases, per seed;
    and of the masked cases (a causal mask or a window) small enough to
    measure, the share ``unsaturated.informative`` (rows not one-hot,
    gradients alive): drawing only, no kernel runs."""
    from attnfuzz.properties import checks, implementations, unsaturated

    with drawing_as_on_a_gpu() if as_gpu else contextlib.nullcontext():
        strategy = checks.get(prop).cases(implementations.get(impl), dtype)
    per_seed, masked, informative = [], 0, 0
    for seed in seeds:
        drawn: list = []
        _drawn(strategy, examples, seed, drawn.append)
        per_seed.append({"seed": seed, "cases": len(drawn),
                         "distinct_shape_mask": len({shape_mask(c) for c in drawn})})
        for c in drawn:
            if unsaturated.masked(c) and c.batch * c.hq * c.sq * c.sk <= 2**20:
                masked += 1
                informative += unsaturated.informative(c)
    counts = [p["distinct_shape_mask"] for p in per_seed]
    return {"implementation": impl, "property": prop, "dtype": dtype, "examples": examples,
            "as_gpu": as_gpu, "per_seed": per_seed,
            "distinct_mean": sum(counts) / len(counts), "distinct_min": min(counts),
            "masked_measured": masked,
            "masked_informative_share": informative / masked if masked else None}


def realistic_share(impl: str, prop: str, dtype: str, examples: int,
                    seeds: list[int]) -> dict[str, Any]:
    """Of ``examples`` cases per seed drawn as on a GPU (``drawing_as_on_a_gpu``),
    the share at realistic sizes (``realistic_sizes.is_realistic``), and how many
    row tiles each program of a persistent grid takes in them."""
    from attnfuzz.properties import checks, implementations, realistic_sizes

    with drawing_as_on_a_gpu():
        strategy = checks.get(prop).cases(implementations.get(impl), dtype)
    drawn: list = []
    for seed in seeds:
        _drawn(strategy, examples, seed, drawn.append)
    real = [c for c in drawn
            if realistic_sizes.is_realistic(c.batch, c.hq, c.sq, c.sk)]
    tiles = sorted(realistic_sizes.persistent_tiles(c.batch, c.hq, c.sq) for c in real)
    return {"implementation": impl, "property": prop, "dtype": dtype,
            "cases": len(drawn), "realistic": len(real),
            "share": len(real) / len(drawn) if drawn else None,
            "several_tiles_per_program": sum(t >= 2 for t in tiles),
            "tiles_per_program": quantiles(tiles) if tiles else None,
            "largest": max(((c.batch, c.hq, c.sq, c.sk) for c in real),
                           key=lambda s: s[0] * s[1] * s[2] * s[3], default=None)}


def draws_table(diverse: list[dict[str, Any]], sizes: list[dict[str, Any]]) -> str:
    lines = []
    if diverse:
        head = (f"{'property/implementation/dtype':<34}{'examples':>9}{'distinct (mean, min)':>22}"
                f"{'masked informative':>20}")
        lines += [head, "-" * len(head)]
        for d in diverse:
            name = f"{d['property']}/{d['implementation']}/{d['dtype']}"
            share = d["masked_informative_share"]
            lines.append(f"{name:<34}{d['examples']:>9}"
                         f"{d['distinct_mean']:>15.1f}, {d['distinct_min']:>4}"
                         f"{_num(None if share is None else 100 * share, '.0f'):>13}% "
                         f"of {d['masked_measured']}")
    if sizes:
        head = (f"{'property/implementation/dtype':<34}{'cases':>7}{'realistic':>10}"
                f"{'share':>7}{'>=2 tiles/program':>19}")
        lines += ["", head, "-" * len(head)]
        for r in sizes:
            name = f"{r['property']}/{r['implementation']}/{r['dtype']}"
            lines.append(f"{name:<34}{r['cases']:>7}{r['realistic']:>10}"
                         f"{_num(None if r['share'] is None else 100 * r['share'], '.1f'):>6}%"
                         f"{r['several_tiles_per_program']:>19}")
    return "\n".join(lines)


# --- the table, the record ---------------------------------------------------------------


def _num(x: float | int | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def _share(part: float | None, whole: float | None) -> float | None:
    return None if part is None or not whole else 100 * part / whole


def table(profiles: list[dict], runs: list[dict]) -> str:
    """One row per profile and per end-to-end run; stage shares in % of the wall time."""
    head = (f"{'run':<40}{'cases':>6}{'distinct':>9}{'shapes':>7}{'cases/s':>8}"
            f"{'/cpu-s':>7}{'cpu%':>5}{'comp/case':>10} "
            + "".join(f"{SHORT[s]:>6}" for s in STAGES))
    lines = [head, "-" * len(head)]
    for p in profiles:
        name = f"profile {p['implementation']}/{p['property']}/{p['dtype']}"
        distinct = p["distinct"] is not None
        rate = p["distinct_per_s"] if distinct else p["cases_per_s"]
        per_cpu = p["distinct_per_cpu_s"] if distinct else p["cases_per_cpu_s"]
        lines.append(
            f"{name:<40}{p['cases']:>6}{_num(p['distinct'], 'd'):>9}"
            f"{_num(p['shape_classes'], 'd'):>7}{_num(rate, '.2f'):>8}{_num(per_cpu, '.2f'):>7}"
            f"{_num(_share(p['cpu_s'], p['wall_s']), '.0f'):>5}"
            f"{_num(p['compiles_per_case'], '.2f'):>10} "
            + "".join(f"{100 * p['stage_share'][s]:>6.1f}" for s in STAGES)
            + ("  FAILED" if p["failures"] else ""))
    for r in runs:
        name = f"e2e {r['name']} ({'interpreter' if r['cache'] == 'n/a' else r['cache']})"
        s = r.get("summary") or {}
        cases = None if s.get("distinct") else r.get("cases")
        distinct = r.get("cases") if s.get("distinct") else None
        per_case = (r["new_cache_entries"] / r["cases"]
                    if r.get("cache") == "cold" and r.get("cases") else None)
        lines.append(f"{name:<40}{_num(cases, 'd'):>6}{_num(distinct, 'd'):>9}{'-':>7}"
                     f"{_num(r.get('cases_per_s'), '.2f'):>8}"
                     f"{_num(r.get('cases_per_cpu_s'), '.2f'):>7}"
                     f"{_num(_share(r.get('cpu_s'), r['wall_s']), '.0f'):>5}"
                     f"{_num(per_case, '.2f'):>10}"
                     + ("" if r.get("returncode") == 0 else f"   exit {r.get('returncode')}"))
    return "\n".join(lines)


def environment() -> dict[str, Any]:
    import torch

    from attnfuzz.properties import backend

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True,
                                 text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            return None
        return out.stdout.strip()

    status = git("status", "--porcelain")
    return {
        "backend": backend.describe(), "interpreting": backend.interpreting(),
        "versions": backend.versions(), "python": platform.python_version(),
        "machine": platform.machine(), "cpus": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "commit": git("rev-parse", "HEAD"), "dirty": bool(status) if status is not None else None,
        "wrap_cost_s_per_call": wrap_cost(),
        # Other processes' load: on a shared machine the wall-clock rates are low by it.
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


# --- the command -------------------------------------------------------------------------


def _csv(text: str) -> list[str]:
    return [t for t in text.split(",") if t]


# Per part: (implementations, properties) when --impl and --property are not given.
PART_DEFAULTS = {
    "profile": (["flash", "naive", "matmul", "softmax"], ["oracle"]),
    # The kernels the interpreter runs cheaply, forward and backward.
    "tightness": (["naive", "flash", "decode"], ["oracle", "gradients"]),
    "draws": (["flash"], ["oracle", "gradients"]),
}


def _combinations(args: argparse.Namespace, part: str, dtypes: list[str]
                  ) -> Iterator[tuple[str, str, str]]:
    """(implementation, property, dtype) of a part that apply and run here."""
    from attnfuzz.properties import backend, checks, implementations

    impls = args.impl or PART_DEFAULTS[part][0]
    props = args.property or PART_DEFAULTS[part][1]
    for impl in impls:
        implementation = implementations.get(impl)
        for prop in props:
            if not checks.get(prop).applies(implementation):
                print(f"[{part}] {prop} does not apply to {impl}; skipped", file=sys.stderr)
                continue
            for dtype in dtypes:
                if dtype not in implementation.dtypes or (
                        dtype == "bfloat16" and not backend.supports_bf16()):
                    print(f"[{part}] {impl} does not take {dtype} here; skipped",
                          file=sys.stderr)
                    continue
                yield impl, prop, dtype


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description="The harness's own benchmark: cases a second and where the time goes "
        "(in-process stage profile), and cases a second of `attnfuzz run` (end to end).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Examples:\n  python benchmarks/bench_harness.py --seconds 20 --seed 1 "
        "--json /tmp/records/bench.json\n  python benchmarks/bench_harness.py --part e2e "
        "--cache both --campaign-args '--jobs 4'",
    )
    # Run, not imported: a module in sys.modules would change what seeds draw.
    add_out_argument = runpy.run_path(str(Path(__file__).with_name("_records.py")))[
        "add_out_argument"]
    p.add_argument("--part", choices=("profile", "e2e", "both", "tightness", "draws",
                                      "mutants"),
                   default="both",
                   help="which part to run: the stage profile, end to end, or both; "
                   "tightness (error/bound quantiles per check over drawn cases); draws "
                   "(distinct shapes and masks, unsaturated masked cases, the share of "
                   "realistic sizes drawn as on a GPU; no kernel runs); mutants (mutant "
                   "workers forked from the zygote against plain subprocesses) "
                   "(default %(default)s)")
    p.add_argument("--backend", choices=("auto", "interpreter", "gpu"),
                   default=os.environ.get("ATTNFUZZ_BACKEND", "auto"),
                   help="where kernels run, as attnfuzz --backend (passed to the campaigns); "
                   "default %(default)s")
    p.add_argument("--impl", type=_csv, default=None,
                   help="comma-separated implementations (default: profile "
                   f"{','.join(PART_DEFAULTS['profile'][0])}; tightness "
                   f"{','.join(PART_DEFAULTS['tightness'][0])}; draws "
                   f"{','.join(PART_DEFAULTS['draws'][0])})")
    p.add_argument("--property", type=_csv, default=None,
                   help="comma-separated properties (default: profile oracle; tightness "
                   "and draws oracle,gradients)")
    p.add_argument("--examples", type=int, default=30,
                   help="tightness: drawn cases per (implementation, property, dtype) "
                   "(default %(default)s)")
    p.add_argument("--draw-examples", type=_csv, default="30,100",
                   help="draws: examples per seed, each count measured apart "
                   "(default %(default)s)")
    p.add_argument("--draw-seeds", type=int, default=5,
                   help="draws: seeds --seed, --seed + 1, ... (default %(default)s)")
    add_out_argument(p)
    p.add_argument("--dtype", type=_csv, default=None,
                   help="comma-separated dtypes (default float16 on a GPU, float32 on "
                   "the interpreter; tightness and draws: float32,float16); also flash's "
                   "end-to-end dtype (its first)")
    p.add_argument("--seconds", type=float, default=10.0,
                   help="profile, tightness: seconds per (implementation, property, dtype) "
                   "(default %(default)s; tightness stops drawing then)")
    p.add_argument("--chunk", type=int, default=5,
                   help="profile: examples per round after the first, as the campaign "
                   "(default %(default)s)")
    p.add_argument("--e2e-seconds", type=float, default=60.0,
                   help="end to end: --seconds of each campaign (default %(default)s)")
    p.add_argument("--seed", type=int, default=0,
                   help="Hypothesis seed of every round and campaign (default %(default)s)")
    p.add_argument("--cache", choices=("warm", "cold", "both"), default="warm",
                   help="end to end: Triton cache of the measured run: warm (after one "
                   "identical run), cold (a fresh empty TRITON_CACHE_DIR), or both; the "
                   "interpreter has none (default %(default)s)")
    p.add_argument("--cold", dest="cache", action="store_const", const="cold",
                   help="same as --cache cold")
    p.add_argument("--campaign-args", default="",
                   help="extra `attnfuzz run` flags for the end-to-end runs, one string "
                   "(e.g. \"--jobs 4\")")
    p.add_argument("--mutants", type=_csv, default=",".join(BENCH_MUTANTS),
                   help="mutants: names or patterns, as `attnfuzz mutants --only` "
                   "(default %(default)s)")
    p.add_argument("--jobs", type=int, default=2,
                   help="mutants: workers at once (default %(default)s)")
    p.add_argument("--json", type=Path, default=None,
                   help="write every number to this file (nothing is written by default)")
    return p


def prepare(choice: str) -> None:
    """Choose the backend and load all of attnfuzz, as ``attnfuzz run`` does
    (Hypothesis draws from the constants of loaded modules: this script's are
    among them, so a seed here draws what it draws in this script, not
    necessarily what the campaign draws)."""
    from attnfuzz.properties import backend
    from attnfuzz.properties.run import load_package

    backend.configure(choice)
    load_package()


def _draw_parts(args: argparse.Namespace, record: dict[str, Any]) -> int:
    """The tightness or the draws part: its table, and its record under ``--out``."""
    dtypes = args.dtype or ["float32", "float16"]
    part = args.part
    if part == "tightness":
        record["tightness"] = []
        for impl, prop, dtype in _combinations(args, part, dtypes):
            print(f"[tightness] {impl}/{prop}/{dtype}: {args.examples} cases, at most "
                  f"{args.seconds:g}s", file=sys.stderr, flush=True)
            record["tightness"].append(tightness(impl, prop, dtype, args.examples, args.seed,
                                                 args.seconds))
        print(tightness_table(record["tightness"]))
    else:
        seeds = list(range(args.seed, args.seed + args.draw_seeds))
        record["diversity"], record["realistic"] = [], []
        for impl, prop, dtype in _combinations(args, part, dtypes):
            for n in args.draw_examples:
                print(f"[draws] {impl}/{prop}/{dtype}: {n} examples x {len(seeds)} seeds",
                      file=sys.stderr, flush=True)
                record["diversity"].append(diversity(impl, prop, dtype, int(n), seeds))
            record["realistic"].append(realistic_share(
                impl, prop, dtype, max(int(n) for n in args.draw_examples), seeds))
        print(draws_table(record["diversity"], record["realistic"]))
    commit = (record["environment"]["commit"] or "unknown")[:7]
    dirty = "-dirty" if record["environment"]["dirty"] else ""
    path = args.out / f"bench-harness-{part}-{commit}{dirty}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {path}")
    return 0


# Cheap to run and each killed within a few examples: what the part
# measures is the workers' start, not their properties.
BENCH_MUTANTS = ("matmul.k_tail_unmasked", "softmax.scale_missing", "naive.pv_ignores_gqa",
                 "flash.acc_not_rescaled")


def mutant_workers(names: list[str], examples: int, seed: int, jobs: int,
                   backend_choice: str) -> dict[str, Any]:
    """Seconds to run ``names``' mutants with zygote-forked workers and with
    plain subprocesses, alternately, twice each; and each run's statuses."""
    from attnfuzz.properties.mutation import runner

    def plain(cmd: list[str], *, env: dict[str, str], cwd: str,
              timeout: float | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                              timeout=timeout)

    muts = runner.catalogue(names)
    runs: list[dict[str, Any]] = []
    forked = runner.zygote.run
    for mode in ("subprocess", "zygote", "subprocess", "zygote"):
        runner.zygote.run = plain if mode == "subprocess" else forked
        try:
            start = time.perf_counter()
            results = runner.run_all(muts, examples=examples, seed=seed, jobs=jobs,
                                     backend=backend_choice, progress=lambda *_: None)
            seconds = time.perf_counter() - start
        finally:
            runner.zygote.run = forked
        runs.append({"mode": mode, "seconds": round(seconds, 2),
                     "statuses": {r.name: r.status() for r in results}})
        print(f"[mutants] {mode}: {seconds:.1f}s for {len(muts)} mutants", file=sys.stderr,
              flush=True)
    best = {m: min(r["seconds"] for r in runs if r["mode"] == m)
            for m in ("subprocess", "zygote")}
    return {"mutants": [m.name for m in muts], "examples": examples, "jobs": jobs,
            "runs": runs, "best": best,
            "agree": all(r["statuses"] == runs[0]["statuses"] for r in runs)}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    env = dict(os.environ)  # the campaigns' environment, as the user's shell gave it
    prepare(args.backend)
    from attnfuzz.properties import backend

    interp = backend.interpreting()
    dtypes = args.dtype or (["float32"] if interp else ["float16"])
    record: dict[str, Any] = {"args": {k: (str(v) if isinstance(v, Path) else v)
                                       for k, v in vars(args).items()},
                              "environment": environment(), "profiles": [], "end_to_end": []}
    print(record["environment"]["backend"])
    print(f"seed {args.seed}; commit {record['environment']['commit']}"
          f"{' (dirty)' if record['environment']['dirty'] else ''}")
    if args.part in ("tightness", "draws"):
        return _draw_parts(args, record)
    if args.part == "mutants":
        record["mutants"] = found = mutant_workers(args.mutants, 8, args.seed, args.jobs,
                                                   args.backend)
        for run in found["runs"]:
            print(f"{run['mode']:>10}: {run['seconds']:6.1f}s  {run['statuses']}")
        best = found["best"]
        print(f"{len(found['mutants'])} mutants, {args.jobs} at once: best "
              f"{best['subprocess']:.1f}s as subprocesses, {best['zygote']:.1f}s forked "
              f"from the zygote ({best['subprocess'] / best['zygote']:.2f}x); statuses "
              f"{'agree' if found['agree'] else 'DIFFER'}")
        if args.json is not None:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(record, indent=2) + "\n")
        return 0 if found["agree"] else 1
    if args.part in ("profile", "both"):
        for impl, prop, dtype in _combinations(args, "profile", dtypes):
            print(f"[profile] {impl}/{prop}/{dtype} for {args.seconds:g}s",
                  file=sys.stderr, flush=True)
            record["profiles"].append(profile(impl, prop, dtype, args.seconds,
                                              args.seed, chunk=args.chunk))
    if args.part in ("e2e", "both"):
        record["end_to_end"] = end_to_end(
            args.backend, interp, args.e2e_seconds, args.seed, args.cache,
            shlex.split(args.campaign_args), env, dtypes[0])
    print()
    print(table(record["profiles"], record["end_to_end"]))
    record["load_average_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    print("\ncases/s: distinct cases a second (profile), the campaign's cases a second, "
          "repeats included (e2e);\n/cpu-s: the same per CPU second; cpu%: CPU time over "
          "wall time; the stages: % of the wall time")
    over = [p["wrap_overhead_s_estimate"] / p["wall_s"] for p in record["profiles"]
            if p["wall_s"] > 0]
    if over:
        cost = record["environment"]["wrap_cost_s_per_call"]
        print(f"the profiling's own cost: at most {100 * max(over):.1f}% of a profile "
              f"(timed calls x {1e9 * cost:.0f} ns)")
    load = (record["environment"]["load_average"], record["load_average_after"])
    if all(load):
        print(f"load average (1 min) {load[0][0]:.1f} before, {load[1][0]:.1f} after, "
              f"on {os.cpu_count()} CPUs")
    for p in record["profiles"]:
        for f in p["failures"]:
            print(f"profile {p['implementation']}/{p['property']}/{p['dtype']} failed: {f}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(record, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
