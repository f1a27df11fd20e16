"""Mutation testing of the harness: does it catch realistic kernel bugs?

Each ``Mutant`` (see ``mutant``; the catalogues are ``catalogue`` and
``flash_catalogue``) is one source edit that plants a bug of a known
real-world class.  ``run_mutant`` copies the whole ``attnfuzz`` package into a
temporary directory, applies the edit to its ``kernels`` there (never to the
working tree: Triton re-reads kernel source from files), and runs a worker
process whose ``PYTHONPATH`` is that copy, so ``attnfuzz.kernels`` is the
mutant while the properties and the oracle are unchanged copies.  Workers
are forked from a process that has imported torch (``zygote``), so that each
mutant does not pay that import again.  The worker runs the mutant's
properties in order with a fixed Hypothesis seed and stops at the first
failure: the mutant is *killed* by that property, after that many examples
and seconds.

Before any mutant, the unmutated kernels run on the same targets and seed
(``run_baseline``): a target that fails on clean code would kill every
mutant, so it is reported and left out of every mutant's targets.

Mutants that provably cannot change any result are listed with the reason
(``equivalent``) and not counted; nor are those whose code cannot run on this
backend (the Hopper kernel off an sm_90 GPU, a branch only compiled kernels
take), reported as not run.  A survivor whose edited lines never ran on its
targets (``reach``) is still a survivor, marked so.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import reach, zygote
from .backward_catalogue import BACKWARD_MUTANTS
from .catalogue import CATALOGUE
from .flash_catalogue import FLASH_MUTANTS
from .hopper_catalogue import HOPPER_MUTANTS
from .mutant import Mutant, targets_of
from .serving_catalogue import SERVING_MUTANTS


@dataclass
class Result:
    name: str
    mimics: str
    killed: bool
    error: bool = False  # the worker itself broke: neither killed nor survived
    property: str | None = None
    examples: int | None = None
    seconds: float | None = None
    detail: str = ""
    equivalent: str | None = None
    # Why it could not run on this backend (a kernel for another GPU, code
    # only compiled kernels run): neither killed nor survived, and not counted.
    not_run: str | None = None
    file: str = ""  # the kernel file it edits
    # Whether its edited lines ran on its targets (None: not known, as for a
    # kill, which shows they did).
    reached: bool | None = None
    # The targets a time box (``--target-seconds``) cut short, each with the
    # examples it ran: a survivor's evidence is thinner there.
    cut: dict[str, int] = field(default_factory=dict)

    def status(self) -> str:
        return ("equivalent" if self.equivalent else "not run" if self.not_run
                else "killed" if self.killed else "error" if self.error else "survived")


@dataclass
class Baseline:
    """The unmutated kernels on the mutants' targets: the targets that failed
    there (``prop/impl/dtype`` -> what failed), left out of every mutant's."""

    failing: dict[str, str]
    examples: int
    seconds: float
    # The targets a time box cut short, each with the examples it ran: every
    # mutant runs at most those, so that each of its cases passed here.
    cut: dict[str, int] = field(default_factory=dict)


@contextlib.contextmanager
def _threads(jobs: int) -> Iterator[ThreadPoolExecutor]:
    """Threads that each wait on a worker.  Interrupted (a Ctrl-C in the
    waiting thread), it starts no queued worker and interrupts the running
    ones, so that the command ends within moments, not after every mutant."""
    zygote.resume()
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        zygote.interrupt()
        raise
    pool.shutdown()


def _interrupted(proc: subprocess.CompletedProcess) -> bool:
    # A worker ended by Ctrl-C: not a result, and nothing to retry.
    return proc.returncode == -signal.SIGINT


def _package_dirs() -> dict[str, Path]:
    """Where the running ``attnfuzz`` package's parts live (a checkout or a wheel)."""
    import attnfuzz
    import attnfuzz.kernels
    import attnfuzz.properties
    import attnfuzz.reference

    return {
        "": Path(attnfuzz.__file__).parent,
        "kernels": Path(attnfuzz.kernels.__file__).parent,
        "reference": Path(attnfuzz.reference.__file__).parent,
        "properties": Path(attnfuzz.properties.__file__).parent,
    }


def plant(mutant: Mutant, src: str) -> tuple[str, list[range]]:
    """``src`` with the mutant's edits made, and the lines of the result that
    each edit changed."""
    planted: list[tuple[int, str, str]] = []  # (offset in the result, old, new)
    for old, new in mutant.edits:
        count = src.count(old)
        if count != 1:
            raise ValueError(f"mutant {mutant.name}: {old!r} occurs {count} times in {mutant.file}")
        at = src.index(old)
        shift = len(new) - len(old)
        planted = [(o + shift if o > at else o, a, b) for o, a, b in planted]
        planted.append((at, old, new))
        src = src[:at] + new + src[at + len(old):]
    return src, [reach.changed_lines(old, new, src.count("\n", 0, at) + 1)
                 for at, old, new in planted]


def apply(mutant: Mutant, dest: Path) -> Path:
    """Copy the attnfuzz package to dest/attnfuzz with the mutant's edits in its
    kernels; return the mutated kernels directory."""
    ignore = shutil.ignore_patterns("__pycache__")
    pkg = dest / "attnfuzz"
    for part, src in _package_dirs().items():
        shutil.copytree(src, pkg / part, ignore=ignore, dirs_exist_ok=True)
    if mutant.edits:
        path = pkg / "kernels" / mutant.file
        path.write_text(plant(mutant, path.read_text())[0])
    return pkg / "kernels"


def _worker_cmd(targets, *, examples: int, seed: int, backend: str, layouts, families,
                watch: reach.Watch | None = None, baseline: bool = False,
                target_seconds: float | None = None,
                caps: dict[str, int] | None = None) -> list[str]:
    return [
        sys.executable, "-m", "attnfuzz.properties.mutation.runner", "--worker",
        "--targets", json.dumps(targets), "--examples", str(examples),
        "--seed", str(seed), "--backend", backend,
        *(["--layouts", ",".join(layouts)] if layouts else []),
        *(["--families", ",".join(families)] if families else []),
        *(["--watch", json.dumps({"path": watch.path, "lines": sorted(watch.lines),
                                  "calls": sorted(watch.calls), "always": watch.always})]
          if watch is not None else []),
        *(["--baseline"] if baseline else []),
        *(["--target-seconds", str(target_seconds)] if target_seconds is not None else []),
        *(["--caps", json.dumps(caps)] if caps else []),
    ]


def _worker_env(tmp: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([tmp, env.get("PYTHONPATH", "")])
    env["ATTNFUZZ_DUMP_DIR"] = str(Path(tmp) / "dumps")
    env["ATTNFUZZ_MUTANT_ROOT"] = str(Path(tmp).resolve())
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


def run_mutant(
    mutant: Mutant,
    *,
    examples: int,
    seed: int,
    backend: str = "auto",
    layouts: list[str] | None = None,
    families: list[str] | None = None,
    sanitize: bool = False,
    timeout: float | None = None,
    target_seconds: float | None = None,
    caps: dict[str, int] | None = None,
) -> Result:
    """``mutant`` killed or not, by its targets' ``examples`` (of each target
    in ``caps``, at most that many: the baseline's, where a time box cut it
    short), each target for at most ``target_seconds``, the whole for at
    most ``timeout``."""
    def result(killed: bool, **kw: object) -> Result:
        return Result(mutant.name, mutant.mimics, killed, file=mutant.file, **kw)

    if mutant.equivalent:
        return result(False, equivalent=mutant.equivalent)
    from .. import backend as backends

    interpreted = backend == "interpreter" or (backend == "auto" and backends.interpreting())
    if not mutant.targets:
        return result(False, not_run="no target passes on the unmutated kernels")
    with tempfile.TemporaryDirectory(prefix="attnfuzz-mutant-") as tmp:
        try:
            kernels = apply(mutant, Path(tmp))
        except ValueError as exc:  # the kernel source moved on: the edit no longer applies
            return result(False, error=True, detail=str(exc))
        path = kernels / mutant.file
        text = path.read_text()
        original = (_package_dirs()["kernels"] / mutant.file).read_text()
        spans = plant(mutant, original)[1]
        lines = sorted({line for r in spans for line in r})
        where = ("line" if len(lines) == 1 else "lines") + " " + ", ".join(
            str(r.start) if len(r) == 1 else f"{r.start}-{r.stop - 1}" for r in spans
        ) + f" of {mutant.file}"
        if reach.backend_only(text, lines, interpreted, original):
            other, taker = (("a GPU", "compiled kernels take") if interpreted
                            else ("the interpreter", "the interpreter takes"))
            return result(False, not_run=f"needs {other}: {where} in code only {taker}")
        watch = reach.watch(str(path), text, lines)
        cmd = _worker_cmd(mutant.targets, examples=examples, seed=seed, backend=backend,
                          layouts=layouts, families=families, watch=watch,
                          target_seconds=target_seconds, caps=caps)
        if sanitize:
            cmd = [*SANITIZER, *cmd]
        try:
            proc = zygote.run(cmd, env=_worker_env(tmp), cwd=tmp, timeout=timeout)
        except subprocess.TimeoutExpired:
            # Neither killed nor shown to survive: reported as an error, counted as a survivor.
            return result(False, error=True, detail=f"timed out after {timeout:g}s")
    if sanitize:
        errors = _sanitizer_errors(proc.stdout + proc.stderr)
        if errors:
            return result(True, property="compute-sanitizer memcheck", detail=errors[:300])
    if _interrupted(proc):
        return result(False, error=True, detail="interrupted")
    lines_out = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines_out:
        tail = (proc.stderr or proc.stdout)[-2000:]
        return result(False, error=True, detail=tail)
    out = json.loads(lines_out[-1])
    if out["killed"] or out.get("not_run"):
        return result(out["killed"], property=out.get("property"), examples=out.get("examples"),
                      seconds=out.get("seconds"), detail=out.get("detail", ""),
                      not_run=out.get("not_run"))
    return result(False, examples=out.get("examples"), seconds=out.get("seconds"),
                  reached=out["reached"], cut=out["cut"],
                  detail="" if out["reached"] else f"{where} never ran on its targets")


def run_baseline(
    targets: list[tuple[str, str, str]], *, examples: int, seed: int, backend: str = "auto",
    jobs: int = 1, layouts: list[str] | None = None, families: list[str] | None = None,
    timeout: float | None = None, target_seconds: float | None = None,
) -> Baseline:
    """The unmutated kernels on ``targets`` with the mutants' examples and seed
    (each target draws the same cases on its own as in a mutant's run)."""
    start = time.monotonic()
    chunks = [targets[i::max(1, jobs)] for i in range(max(1, jobs))]
    noop = Mutant("baseline", "", (), "the unmutated kernels", ())

    def one(chunk: list[tuple[str, str, str]], alone: bool = False) -> dict:
        if not chunk:
            return {"failing": {}, "examples": 0, "cut": {}}
        with tempfile.TemporaryDirectory(prefix="attnfuzz-baseline-") as tmp:
            apply(noop, Path(tmp))
            cmd = _worker_cmd(chunk, examples=examples, seed=seed, backend=backend,
                              layouts=layouts, families=families, baseline=True,
                              target_seconds=target_seconds)
            try:
                proc = zygote.run(cmd, env=_worker_env(tmp), cwd=tmp, timeout=timeout)
                why = None
            except subprocess.TimeoutExpired:
                why = f"the unmutated kernels did not finish it in {timeout:g}s"
        if why is None and _interrupted(proc):
            return {"failing": {}, "examples": 0, "cut": {}}
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")] if why is None else []
        if why is None and (proc.returncode != 0 or not lines):
            why = "the worker broke on the unmutated kernels: " + _error_of(proc)
        if why is None:
            return json.loads(lines[-1])
        if alone or len(chunk) == 1:
            # A mutant given this target would time out or break on it too:
            # left out like a failing one, and said so.
            return {"failing": {"/".join(chunk[0]): why}, "examples": 0, "cut": {}}
        # Which of the chunk's targets it is: each alone, with the same limit.
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            outs = list(pool.map(lambda t: one([t], alone=True), chunk))
        return {"failing": {k: v for o in outs for k, v in o["failing"].items()},
                "examples": sum(o["examples"] for o in outs),
                "cut": {k: v for o in outs for k, v in o["cut"].items()}}

    with _threads(len(chunks)) as pool:
        outs = list(pool.map(one, chunks))
    failing = {k: v for o in outs for k, v in o["failing"].items()}
    return Baseline(failing, sum(o["examples"] for o in outs),
                    round(time.monotonic() - start, 2),
                    {k: v for o in outs for k, v in o["cut"].items()})


def _error_of(proc: subprocess.CompletedProcess) -> str:
    """What a broken worker said: its exception's line (the last line that
    names an error, else its last line), with its exit status."""
    lines = (proc.stderr or proc.stdout or "").strip().splitlines()
    named = [ln.strip() for ln in lines
             if re.match(r"^\s*[\w.]*(Error|Exception|Failure|Flaky)\b", ln)]
    return f"{(named or lines or ['no output'])[-1][:300]} (exit status {proc.returncode})"


def without(mutant: Mutant, failing: dict[str, str]) -> Mutant:
    """The mutant without the targets that fail on the unmutated kernels."""
    kept = tuple(t for t in mutant.targets if "/".join(t) not in failing)
    return Mutant(mutant.name, mutant.file, mutant.edits, mutant.mimics, kept, mutant.equivalent)


# The mutant's properties under memcheck: an illegal access whose values no
# output shows is still a kill.  Its own exit code tells its errors apart from
# the worker's.
SANITIZER_EXIT = 86
SANITIZER = ["compute-sanitizer", "--tool", "memcheck", "--print-limit", "3",
             "--error-exitcode", str(SANITIZER_EXIT)]


def _sanitizer_errors(text: str) -> str:
    """memcheck's first error report in a worker's output, or ''."""
    match = re.search(r"ERROR SUMMARY: (\d+) error", text)
    if not match or match.group(1) == "0":
        return ""
    first = next((ln for ln in text.splitlines() if "=========" in ln and "Invalid" in ln), "")
    return f"{match.group(1)} errors; {first.strip('= ').strip()}"


def _worker(
    targets: list[list[str]],
    examples: int,
    seed: int,
    layouts: tuple[str, ...] | None = None,
    families: tuple[str, ...] | None = None,
    watch: reach.Watch | None = None,
    baseline: bool = False,
    target_seconds: float | None = None,
    caps: dict[str, int] | None = None,
) -> dict:
    """In the mutated environment: run properties until one fails (with
    ``baseline``, every target, collecting those that fail), each target for
    at most ``target_seconds`` (None: all its examples) and at most its
    examples in ``caps``."""
    from ... import kernels
    from .. import backend

    expected = os.environ.get("ATTNFUZZ_MUTANT_ROOT")
    if expected and not kernels.__file__.startswith(expected):
        raise RuntimeError(f"worker imported {kernels.__file__}, not the mutant under {expected}")
    start = time.monotonic()
    total = 0
    unavailable = []
    failing: dict[str, str] = {}
    cut: dict[str, int] = {}  # the targets the time box cut short: their examples
    with reach.tracing(watch) as reached:
        for prop, impl, dtype in targets:
            key = f"{prop}/{impl}/{dtype}"
            cap = (caps or {}).get(key)
            if dtype == "bfloat16" and not backend.supports_bf16() or cap == 0:
                continue
            until = None if target_seconds is None else time.monotonic() + target_seconds
            try:
                count, stopped = _run_target(prop, impl, dtype, examples, seed, layouts,
                                             families, until, cap)
            except _Unavailable as why:
                unavailable.append(f"{impl}: {why}")
                continue
            except _Killed as kill:
                first = str(kill.failure).strip().splitlines()
                detail = (first[1] if len(first) > 1 else first[0] if first
                          else repr(kill.failure))[:300]
                if baseline:
                    failing[key] = detail
                    total += kill.count
                    continue
                return {
                    "killed": True,
                    "property": key,
                    "examples": total + kill.count,
                    "seconds": round(time.monotonic() - start, 2),
                    "detail": detail,
                }
            total += count
            if stopped:
                cut[key] = count
    if baseline:
        return {"failing": failing, "examples": total, "cut": cut}
    if not total and unavailable:
        return {"killed": False, "not_run": unavailable[0]}
    return {"killed": False, "examples": total, "seconds": round(time.monotonic() - start, 2),
            "reached": reached[0], "cut": cut}


class _Unavailable(Exception):
    """The implementation cannot run on this backend (its reason)."""


class _Killed(Exception):
    """A target failed: its first failure, after ``count`` examples."""

    def __init__(self, failure: BaseException, count: int) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.count = count


def _run_target(prop: str, impl: str, dtype: str, examples: int, seed: int,
                layouts: tuple[str, ...] | None, families: tuple[str, ...] | None,
                until: float | None = None, cap: int | None = None) -> tuple[int, bool]:
    """Run one target's examples, or its first ``cap``, or those begun before
    ``time.monotonic()`` passes ``until``; (the number run, whether ``until``
    cut them short), or ``_Killed``/``_Unavailable``."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from .. import checks, hypothesis_internals
    from .. import implementations as impls
    from ..checks import stateful
    from ..run import harness

    if (why := impls.get(impl).cannot_run()) is not None:
        raise _Unavailable(why)
    count = 0

    @hseed(checks.target_seed(seed, prop, impl, dtype))
    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=(Phase.generate,), suppress_health_check=list(HealthCheck),
              print_blob=False)
    def probe(case):
        nonlocal count
        if not failed:  # Hypothesis replays a failing case at the end: never cut short
            if stop(count):
                raise hypothesis_internals.TimeUp
            count += 1
        try:
            harness.check(prop, impl, case)
        except AssertionError:
            failed.append(True)
            raise
        except Exception as exc:  # the mutant crashed the kernel: also a kill
            failed.append(True)
            raise AssertionError(f"crash: {exc!r}") from exc

    failed: list[bool] = []
    timed: list[bool] = []

    def stop(run: int) -> bool:
        """Before a case or call, ``run`` so far: whether the target ends, at its
        cap or past ``until``."""
        if until is not None and time.monotonic() >= until:
            timed.append(True)
        return bool(timed) or cap is not None and run >= cap

    try:
        sequences = checks.get(prop).sequences
        if sequences is not None:
            try:
                with stateful.stopping(stop) as calls:  # the calls drawn, not those shrinking
                    sequences(impl, dtype, examples, checks.target_seed(seed, prop, impl, dtype))
            finally:
                count = calls[0]
        else:
            cases = checks.get(prop).cases(impls.get(impl), dtype, layout_names=layouts,
                                           families=families)
            try:
                with hypothesis_internals.distinct_draws():
                    given(cases)(probe)()
            except hypothesis_internals.TimeUp:
                pass
    except Exception as exc:
        failures = harness.failures_of(exc)
        if failures is None:
            raise
        raise _Killed(failures[0], count) from exc
    return count, bool(timed)


def restrict(mutant: Mutant, prop: str) -> Mutant | None:
    """The mutant with only ``prop`` as its check (on the implementations it
    targets that ``prop`` applies to), or None if it applies to none."""
    from .. import checks, implementations

    applies = checks.get(prop).applies
    targets = tuple(
        dict.fromkeys((prop, impl, dtype) for _, impl, dtype in mutant.targets
                      if applies(implementations.get(impl)))
    )
    if not targets:
        return None
    return Mutant(mutant.name, mutant.file, mutant.edits, mutant.mimics, targets, mutant.equivalent)


def from_file(path: str | Path) -> list[Mutant]:
    """Mutants written as JSON: a list of {"name", "file", "edits": [[old, new], ...],
    "mimics"}, for bugs planted by someone who never read the properties.
    Optional: "targets" ([[property, implementation, dtype], ...]; by default
    those that reach the file, ``mutant.targets_of``) and "equivalent" (why no
    input can tell the mutant apart: listed, not run, not counted)."""
    try:
        entries = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(f"--from {path}: {exc}") from None
    if not isinstance(entries, list):
        raise SystemExit(f"--from {path}: expected a JSON list of mutants")
    muts = []
    for i, e in enumerate(entries):
        try:
            equivalent = e.get("equivalent")
            if equivalent is not None and not (isinstance(equivalent, str) and equivalent.strip()):
                raise SystemExit(f"--from {path}: entry {i}: \"equivalent\" must be the reason "
                                 f"(a non-empty string), got {equivalent!r}")
            targets = e.get("targets") or targets_of(e["file"])
            muts.append(Mutant(str(e["name"]), str(e["file"]),
                               tuple((str(o), str(n)) for o, n in e["edits"]),
                               str(e.get("mimics", "")),
                               tuple(tuple(t) for t in targets), equivalent))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SystemExit(f"--from {path}: entry {i} is not a mutant ({exc!r})") from None
    return muts


def catalogue(
    names: list[str] | None = None, *, rules: int | None = None, source: str | None = None
) -> list[Mutant]:
    """The hand-written catalogue; or, with ``rules``, the rule-generated mutants
    (at most that many per rule and file, 0 for all); or those of a JSON ``source``."""
    if source is not None:
        muts = from_file(source)
    elif rules is not None:
        from .rules import generate

        muts = generate(per_rule_file=rules or None)
    else:
        muts = [*CATALOGUE, *FLASH_MUTANTS, *BACKWARD_MUTANTS, *SERVING_MUTANTS,
                *HOPPER_MUTANTS]
    if names:
        # A name may be a shell-style pattern (``hopper.*``); each must match.
        matches = {n: [m for m in muts if fnmatch.fnmatchcase(m.name, n)] for n in names}
        missing = [n for n, found in matches.items() if not found]
        if missing:
            raise SystemExit(f"unknown mutants: {', '.join(missing)} "
                             f"(names or patterns; --list shows them)")
        picked = {m.name: m for found in matches.values() for m in found}
        muts = list(picked.values())
    return muts


def run_all(muts: list[Mutant], *, examples: int, seed: int, jobs: int, backend: str,
            progress=print, layouts=None, families=None, sanitize=False,
            timeout=None, target_seconds=None, caps=None) -> list[Result]:
    results: list[Result] = []
    with _threads(jobs) as pool:
        futures = [pool.submit(run_mutant, m, examples=examples, seed=seed, backend=backend,
                               layouts=layouts, families=families, sanitize=sanitize,
                               timeout=timeout, target_seconds=target_seconds, caps=caps)
                   for m in muts]
        for i, f in enumerate(futures):
            r = f.result()
            results.append(r)
            progress(f"[{i + 1}/{len(muts)}] {r.name}: {r.status().upper()}"
                     + (f" by {r.property} after {r.examples} examples" if r.killed else "")
                     + (f" ({r.not_run})" if r.not_run else "")
                     + (" (its code never ran)" if r.reached is False and not r.not_run else "")
                     + (f" (cut short: {_cut_text(r.cut)})" if r.cut and not r.killed else "")
                     + (f"\n{r.detail}" if r.error else ""))
    return results


def _rate(results: list[Result]) -> tuple[int, int]:
    """(killed, counted): equivalent and not-run mutants are not counted."""
    counted = [r for r in results if not r.equivalent and not r.not_run]
    return sum(r.killed for r in counted), len(counted)


def per_file(results: list[Result]) -> dict[str, dict[str, int]]:
    """For each kernel file: its mutants' kills, the counted ones, and those
    not counted (equivalent, not run here), and survivors whose code never ran."""
    files: dict[str, dict[str, int]] = {}
    for r in results:
        f = files.setdefault(r.file, {"killed": 0, "counted": 0, "equivalent": 0,
                                      "not_run": 0, "never_ran": 0})
        if r.equivalent:
            f["equivalent"] += 1
        elif r.not_run:
            f["not_run"] += 1
        else:
            f["counted"] += 1
            f["killed"] += r.killed
            f["never_ran"] += r.reached is False
    return dict(sorted(files.items()))


def _cut_text(cut: dict[str, int]) -> str:
    return "; ".join(f"{t} ({n} examples)" for t, n in cut.items())


def table(results: list[Result], baseline: Baseline | None = None) -> str:
    # Columns as wide as their longest entry, a space past it at least.
    wide = max([40, *(len(r.name) + 2 for r in results)])
    by = max([34, *(len(r.property or "-") + 2 for r in results)])
    rows = [f"{'mutant':<{wide}}{'status':<10}{'killed by':<{by}}{'examples':>9}{'seconds':>9}"]
    short = {"equivalent": "equiv.", "survived": "SURVIVED", "error": "ERROR"}
    for r in results:
        status = short.get(r.status(), r.status())
        rows.append(
            f"{r.name:<{wide}}{status:<10}{(r.property or '-'):<{by}}"
            f"{r.examples if r.examples is not None else '-':>9}"
            f"{r.seconds if r.seconds is not None else '-':>9}"
        )
    killed, counted = _rate(results)
    times = sorted(r.seconds for r in results if r.killed and r.seconds is not None)
    median = times[len(times) // 2] if times else float("nan")
    if counted:
        rows.append(f"kill rate {killed}/{counted} = {100.0 * killed / counted:.0f}% of "
                    f"non-equivalent mutants run here; median time to kill {median:.1f}s")
    else:
        rows.append("kill rate: no mutant ran here")
    files = per_file(results)
    if len(files) > 1:
        named = max([28, *(len(name) + 2 for name in files)])
        for name, f in files.items():
            rate = (f"{f['killed']}/{f['counted']} = {100.0 * f['killed'] / f['counted']:.0f}%"
                    if f["counted"] else "none run")
            extra = [f"{f[k]} {k.replace('_', ' ')}" for k in ("equivalent", "not_run",
                                                                "never_ran") if f[k]]
            rows.append(f"  {name:<{named}}{rate}" + (f" ({', '.join(extra)})" if extra else ""))
    for r in results:
        if r.equivalent:
            rows.append(f"equivalent: {r.name}: {r.equivalent}")
        if r.not_run:
            rows.append(f"not run here: {r.name}: {r.not_run}")
        if r.reached is False and not r.not_run:
            rows.append(f"survived, its code never ran: {r.name}: {r.detail}")
        if r.cut and r.status() == "survived":
            rows.append(f"survived a time box: {r.name}: {_cut_text(r.cut)}")
    if baseline is not None:
        rows.append(f"baseline: the unmutated kernels passed {baseline.examples} examples "
                    f"on every target in {baseline.seconds:.0f}s" if not baseline.failing
                    else f"baseline: {len(baseline.failing)} targets FAIL on the unmutated "
                    f"kernels and were left out of every mutant's: "
                    + "; ".join(f"{t}: {d}" for t, d in baseline.failing.items()))
        if baseline.cut:
            rows.append("baseline: cut short by the time box (mutants run as many): "
                        + _cut_text(baseline.cut))
    return "\n".join(rows)


def cmd_mutants(args: argparse.Namespace) -> int:
    if args.sanitize and not shutil.which(SANITIZER[0]):
        raise SystemExit("--sanitize: compute-sanitizer is not on PATH (it comes with CUDA)")
    muts = catalogue(args.only, rules=args.rules, source=args.source)
    if args.property:
        muts = [r for m in muts if (r := restrict(m, args.property)) is not None]
    if args.list:
        width = max((len(m.name) for m in muts), default=0) + 2
        for m in muts:
            tag = " (equivalent)" if m.equivalent else ""
            print(f"{m.name:<{width}}{m.mimics}{tag}")
        return 0
    targets = list(dict.fromkeys(t for m in muts if not m.equivalent for t in m.targets))
    # It can take minutes (on a GPU, every new shape compiles): say what runs meanwhile.
    print(f"baseline: the unmutated kernels on {len(targets)} targets, "
          f"{args.examples} examples each", flush=True)
    base = run_baseline(targets, examples=args.examples, seed=args.seed, backend=args.backend,
                        jobs=args.jobs, layouts=args.layouts, families=args.families,
                        timeout=args.timeout, target_seconds=args.target_seconds)
    for target, detail in base.failing.items():
        print(f"baseline: {target} FAILS on the unmutated kernels ({detail}); "
              f"it is left out of every mutant's targets")
    if base.failing:
        muts = [without(m, base.failing) for m in muts]
    results = run_all(muts, examples=args.examples, seed=args.seed, jobs=args.jobs,
                      backend=args.backend, layouts=args.layouts,
                      families=args.families, sanitize=args.sanitize, timeout=args.timeout,
                      target_seconds=args.target_seconds, caps=base.cut)
    print(table(results, base))
    if args.json:
        killed, counted = _rate(results)
        Path(args.json).write_text(json.dumps({
            "baseline": asdict(base),
            "kill_rate": {"killed": killed, "counted": counted},
            "files": per_file(results),
            "results": [asdict(r) for r in results],
        }, indent=2))
    survivors = [r for r in results if r.status() in ("survived", "error")]
    # A worker error counts as a survivor (nothing was shown), and a baseline
    # failure makes the run's kills doubtful.
    return 1 if survivors or base.failing else 0


def _main() -> int:
    p = argparse.ArgumentParser(prog="python -m attnfuzz.properties.mutation.runner")
    p.add_argument("--worker", action="store_true")
    p.add_argument("--targets", required=True)
    p.add_argument("--examples", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="auto")
    p.add_argument("--layouts", default="")
    p.add_argument("--families", default="")
    p.add_argument("--watch", default="")
    p.add_argument("--baseline", action="store_true")
    p.add_argument("--target-seconds", type=float, default=None)
    p.add_argument("--caps", default="")
    args = p.parse_args()
    from .. import backend

    backend.configure(args.backend)
    layouts = tuple(x for x in args.layouts.split(",") if x) or None
    families = tuple(x for x in args.families.split(",") if x) or None
    watch = None
    if args.watch:
        w = json.loads(args.watch)
        watch = reach.Watch(w["path"], frozenset(w["lines"]), frozenset(w["calls"]), w["always"])
    print(json.dumps(_worker(json.loads(args.targets), args.examples, args.seed, layouts,
                             families, watch, args.baseline, args.target_seconds,
                             json.loads(args.caps) if args.caps else None)))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
