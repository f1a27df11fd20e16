"""Mutation testing of the harness: does it catch realistic kernel bugs?

Each ``Mutant`` (see ``mutant``; the catalogues are ``catalogue`` and
``flash_catalogue``) is one source edit that plants a bug of a known
real-world class.  ``run_mutant`` copies the whole ``attnfuzz`` package into a
temporary directory, applies the edit to its ``kernels`` there (never to the
working tree: Triton re-reads kernel source from files), and runs a worker
process whose ``PYTHONPATH`` is that copy, so ``attnfuzz.kernels`` is the
mutant while the properties and the oracle are unchanged copies.  The worker
runs the mutant's properties in order with a fixed Hypothesis seed and stops
at the first failure: the mutant is *killed* by that property, after that
many examples and seconds.

Mutants that provably cannot change any result are listed with the reason
(``equivalent``) and not counted.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from .backward_catalogue import BACKWARD_MUTANTS
from .catalogue import CATALOGUE
from .flash_catalogue import FLASH_MUTANTS
from .hopper_catalogue import HOPPER_MUTANTS
from .mutant import Mutant
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
    # Why none of its targets could run on this backend (a kernel for another
    # GPU): neither killed nor survived, and not counted.
    not_run: str | None = None


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


def apply(mutant: Mutant, dest: Path) -> Path:
    """Copy the attnfuzz package to dest/attnfuzz with the mutant's edits in its
    kernels; return the mutated kernels directory."""
    ignore = shutil.ignore_patterns("__pycache__")
    pkg = dest / "attnfuzz"
    for part, src in _package_dirs().items():
        shutil.copytree(src, pkg / part, ignore=ignore, dirs_exist_ok=True)
    path = pkg / "kernels" / mutant.file
    src = path.read_text()
    for old, new in mutant.edits:
        count = src.count(old)
        if count != 1:
            raise ValueError(f"mutant {mutant.name}: {old!r} occurs {count} times in {mutant.file}")
        src = src.replace(old, new)
    path.write_text(src)
    return pkg / "kernels"


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
) -> Result:
    if mutant.equivalent:
        return Result(mutant.name, mutant.mimics, False, equivalent=mutant.equivalent)
    with tempfile.TemporaryDirectory(prefix="attnfuzz-mutant-") as tmp:
        try:
            apply(mutant, Path(tmp))
        except ValueError as exc:  # the kernel source moved on: the edit no longer applies
            return Result(mutant.name, mutant.mimics, False, error=True, detail=str(exc))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([tmp, env.get("PYTHONPATH", "")])
        env["ATTNFUZZ_DUMP_DIR"] = str(Path(tmp) / "dumps")
        env["ATTNFUZZ_MUTANT_ROOT"] = str(Path(tmp).resolve())
        env.setdefault("OMP_NUM_THREADS", "1")
        cmd = [
            sys.executable, "-m", "attnfuzz.properties.mutation.runner", "--worker",
            "--targets", json.dumps(mutant.targets), "--examples", str(examples),
            "--seed", str(seed), "--backend", backend,
            *(["--layouts", ",".join(layouts)] if layouts else []),
            *(["--families", ",".join(families)] if families else []),
        ]
        if sanitize:
            cmd = [*SANITIZER, *cmd]
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            # Neither killed nor shown to survive: reported as an error, counted as a survivor.
            return Result(mutant.name, mutant.mimics, False, error=True,
                          detail=f"timed out after {timeout:g}s")
    if sanitize:
        errors = _sanitizer_errors(proc.stdout + proc.stderr)
        if errors:
            return Result(mutant.name, mutant.mimics, True, property="compute-sanitizer memcheck",
                          detail=errors[:300])
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout)[-2000:]
        return Result(mutant.name, mutant.mimics, False, error=True, detail=tail)
    out = json.loads(lines[-1])
    return Result(mutant.name, mutant.mimics, out["killed"], False, out.get("property"),
                  out.get("examples"), out.get("seconds"), out.get("detail", ""),
                  not_run=out.get("not_run"))


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
) -> dict:
    """In the mutated environment: run properties until one fails."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    from ... import kernels
    from .. import backend, checks
    from .. import implementations as impls
    from ..run import harness

    expected = os.environ.get("ATTNFUZZ_MUTANT_ROOT")
    if expected and not kernels.__file__.startswith(expected):
        raise RuntimeError(f"worker imported {kernels.__file__}, not the mutant under {expected}")
    start = time.monotonic()
    total = 0
    unavailable = []
    for prop, impl, dtype in targets:
        if dtype == "bfloat16" and not backend.supports_bf16():
            continue
        if (why := impls.get(impl).cannot_run()) is not None:
            unavailable.append(f"{impl}: {why}")
            continue
        count = 0

        def probe_for(prop: str, impl: str, strategy):
            @hseed(seed)
            @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                      phases=(Phase.generate,), suppress_health_check=list(HealthCheck),
                      print_blob=False)
            @given(strategy)
            def probe(case):
                nonlocal count
                count += 1
                try:
                    harness.check(prop, impl, case)
                except AssertionError:
                    raise
                except Exception as exc:  # the mutant crashed the kernel: also a kill
                    raise AssertionError(f"crash: {exc!r}") from exc

            return probe

        try:
            sequences = checks.get(prop).sequences
            if sequences is not None:
                count = examples
                sequences(impl, dtype, examples, seed)
            else:
                cases = checks.get(prop).cases(impls.get(impl), dtype, layout_names=layouts,
                                               families=families)
                probe_for(prop, impl, cases)()
        except Exception as exc:
            failures = harness.failures_of(exc)
            if failures is None:
                raise
            first = str(failures[0]).strip().splitlines()
            return {
                "killed": True,
                "property": f"{prop}/{impl}/{dtype}",
                "examples": total + count,
                "seconds": round(time.monotonic() - start, 2),
                "detail": (first[1] if len(first) > 1 else first[0] if first else repr(exc))[:300],
            }
        total += count
    if not total and unavailable:
        return {"killed": False, "not_run": unavailable[0]}
    return {"killed": False, "examples": total, "seconds": round(time.monotonic() - start, 2)}


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
    "mimics"} (optionally "targets"; by default those ``rules`` gives the file),
    for bugs planted by someone who never read the properties."""
    from .rules import DEFAULT_TARGETS, TARGETS

    try:
        entries = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise SystemExit(f"--from {path}: {exc}") from None
    if not isinstance(entries, list):
        raise SystemExit(f"--from {path}: expected a JSON list of mutants")
    muts = []
    for i, e in enumerate(entries):
        try:
            targets = e.get("targets") or TARGETS.get(e["file"], DEFAULT_TARGETS)
            muts.append(Mutant(str(e["name"]), str(e["file"]),
                               tuple((str(o), str(n)) for o, n in e["edits"]),
                               str(e.get("mimics", "")),
                               tuple(tuple(t) for t in targets)))
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
            timeout=None) -> list[Result]:
    results: list[Result] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_mutant, m, examples=examples, seed=seed, backend=backend,
                               layouts=layouts, families=families, sanitize=sanitize,
                               timeout=timeout)
                   for m in muts]
        for i, f in enumerate(futures):
            r = f.result()
            results.append(r)
            status = ("equivalent" if r.equivalent else "not run" if r.not_run
                      else "KILLED" if r.killed else "ERROR" if r.error else "SURVIVED")
            progress(f"[{i + 1}/{len(muts)}] {r.name}: {status}"
                     + (f" by {r.property} after {r.examples} examples" if r.killed else "")
                     + (f"\n{r.detail}" if r.error else ""))
    return results


def table(results: list[Result]) -> str:
    rows = [f"{'mutant':<40}{'status':<10}{'killed by':<34}{'examples':>9}{'seconds':>9}"]
    for r in results:
        status = ("equiv." if r.equivalent else "not run" if r.not_run
                  else "killed" if r.killed else "ERROR" if r.error else "SURVIVED")
        rows.append(
            f"{r.name:<40}{status:<10}{(r.property or '-'):<34}"
            f"{r.examples if r.examples is not None else '-':>9}"
            f"{r.seconds if r.seconds is not None else '-':>9}"
        )
    counted = [r for r in results if not r.equivalent and not r.not_run]
    killed = [r for r in counted if r.killed]
    times = sorted(r.seconds for r in killed if r.seconds is not None)
    median = times[len(times) // 2] if times else float("nan")
    if counted:
        rate = 100.0 * len(killed) / len(counted)
        rows.append(f"kill rate {len(killed)}/{len(counted)} = {rate:.0f}% of non-equivalent "
                    f"mutants; median time to kill {median:.1f}s")
    else:
        rows.append("kill rate: no mutant ran here")
    for r in results:
        if r.equivalent:
            rows.append(f"equivalent: {r.name}: {r.equivalent}")
        if r.not_run:
            rows.append(f"not run here: {r.name}: {r.not_run}")
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
    results = run_all(muts, examples=args.examples, seed=args.seed, jobs=args.jobs,
                      backend=args.backend, layouts=args.layouts,
                      families=args.families, sanitize=args.sanitize, timeout=args.timeout)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in results], indent=2))
    survivors = [r for r in results if not r.killed and not r.equivalent]
    return 1 if survivors else 0  # a worker error counts as a survivor: nothing was shown


def _main() -> int:
    p = argparse.ArgumentParser(prog="python -m attnfuzz.properties.mutation.runner")
    p.add_argument("--worker", action="store_true")
    p.add_argument("--targets", required=True)
    p.add_argument("--examples", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="auto")
    p.add_argument("--layouts", default="")
    p.add_argument("--families", default="")
    args = p.parse_args()
    from .. import backend

    backend.configure(args.backend)
    layouts = tuple(x for x in args.layouts.split(",") if x) or None
    families = tuple(x for x in args.families.split(",") if x) or None
    print(json.dumps(_worker(json.loads(args.targets), args.examples, args.seed, layouts,
                             families)))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
