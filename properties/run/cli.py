"""The ``attnfuzz`` command: fuzz campaigns, replay of dumps, mutation runs.

The backend is chosen before ``kernels`` is imported (``--backend``, default:
the GPU if there is one, else Triton's interpreter).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shlex
import sys
from pathlib import Path

from . import load_package


class UsageError(Exception):
    """A user's mistake that argparse cannot see: one line on stderr, exit 2."""


def _csv(text: str) -> list[str]:
    return [t for t in text.split(",") if t]


def _implementations(text: str) -> list[str]:
    from .. import implementations

    names = list(dict.fromkeys(_csv(text)))
    if not names:
        raise argparse.ArgumentTypeError("give at least one implementation")
    for name in names:
        if ":" in name:
            continue  # imported in cmd_run, once the backend is chosen
        try:
            implementations.get(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _properties(text: str) -> list[str]:
    from .. import checks

    names = list(dict.fromkeys(_csv(text)))
    if not names:
        raise argparse.ArgumentTypeError("give at least one property")
    for name in names:
        try:
            checks.get(name)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def _imported(names: list[str], convention: str | None, supports: str | None) -> list[str]:
    """``names`` with each MODULE:FUNCTION called by ``convention``, within
    ``supports``, and imported."""
    from .. import implementations
    from ..implementations import support

    spec = ""
    if supports is not None:
        try:
            spec = support.parse(supports).spec()
        except (TypeError, ValueError) as exc:
            raise UsageError(f"--supports: {exc}") from None
        if not any(":" in n for n in names):
            raise UsageError("--supports applies to MODULE:FUNCTION implementations; "
                             "--impl names none")
    out = []
    for name in names:
        module, colon, rest = name.partition(":")
        if colon and module.endswith(".py"):
            # Absolute, so that the dump's name imports it from any directory.
            name = f"{Path(module).resolve()}:{rest}"
        if ":" in name and convention and "@" not in name:
            name = f"{name}@{convention}"
        if ":" in name and spec and "#" not in name:
            name = f"{name}#{spec}"
        try:
            implementations.get(name)
        except (ValueError, TypeError) as exc:
            raise UsageError(str(exc)) from None
        out.append(name)
    return out


def _dtypes(text: str) -> list[str]:
    names = list(dict.fromkeys(_csv(text)))
    if not names:
        raise argparse.ArgumentTypeError("give at least one dtype")
    from ..model.cases import DTYPES

    unknown = [d for d in names if d not in DTYPES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown dtype {unknown[0]!r}; known: {', '.join(DTYPES)}"
        )
    return names


def _at_least_one(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return n


def _seconds(text: str) -> float:
    try:
        s = float(text)
    except ValueError:
        s = math.nan
    if not (math.isfinite(s) and s > 0):  # nan and 0 would test nothing
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text!r}")
    return s


def build_parser() -> argparse.ArgumentParser:
    from .. import checks, implementations
    from ..implementations import conventions
    from ..implementations.support import help_text as support_help

    campaign = implementations.names(campaign=True)
    others = [n for n in implementations.names() if n not in campaign]
    p = argparse.ArgumentParser(
        prog="attnfuzz",
        description="Differential fuzzing of Triton attention kernels against a float64 oracle.",
    )
    p.add_argument(
        "--backend",
        choices=("auto", "interpreter", "gpu"),
        default=os.environ.get("ATTNFUZZ_BACKEND", "auto"),
        help="where kernels run: 'gpu' (compiled Triton), 'interpreter' (CPU), or 'auto' "
        "(GPU when CUDA is available); default %(default)s",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="fuzz implementations against the oracle: the built-in ones, or your own "
        "function (--impl FILE.py:FUNCTION)",
        description="Run a fuzz campaign: for each implementation x dtype, draw cases, check "
        "them against the float64 oracle within derived error bounds, dump every failing case "
        "(shrunk) and print a summary. Exits 1 if any case failed, else 3 if the harness "
        "failed in a round.",
    )
    run.add_argument(
        "--impl", type=_implementations, default=campaign,
        help=f"comma-separated implementations (default: {','.join(campaign)}; also "
        f"{', '.join(others)}; or MODULE:FUNCTION, any importable attention function, "
        "the current directory included, or FILE.py:FUNCTION)",
    )
    run.add_argument(
        "--convention", choices=tuple(conventions.CONVENTIONS), default=None,
        help="how each MODULE:FUNCTION is called: "
        + "; ".join(f"{c.name}: {c.description}" for c in conventions.CONVENTIONS.values())
        + " (default attnfuzz)",
    )
    run.add_argument(
        "--supports", default=None, metavar="SPEC",
        help="what each MODULE:FUNCTION supports, as KEY=VALUE;... (the README's table says "
        "what each limits): " + support_help() + "; cases are drawn inside it, and cases just "
        "outside it must be refused or answered right (default: everything)",
    )
    run.add_argument(
        "--property", type=_properties, default=None,
        help="comma-separated properties (default: every one that applies to each "
        f"implementation; known: {', '.join(checks.PROPERTIES)})",
    )
    run.add_argument(
        "--dtype", type=_dtypes, default=None,
        help="comma-separated dtypes (default: float32,float16, plus bfloat16 on a GPU)",
    )
    budget = run.add_mutually_exclusive_group()
    budget.add_argument("--examples", type=_at_least_one, help="cases per implementation x dtype")
    budget.add_argument(
        "--seconds", type=_seconds,
        help="time budget for the whole campaign (default: 60, about a minute on the CPU)",
    )
    run.add_argument("--seed", type=int, help="campaign seed (default: random, printed)")
    run.add_argument(
        "--shrink-seconds", type=_seconds, default=None,
        help="at most this long shrinking each failure (default: Hypothesis' 300; an "
        "implementation that compiles per shape can spend all of it on one failure)",
    )
    run.add_argument(
        "--dump-dir", default=None,
        help="where failing cases are written (default: $ATTNFUZZ_DUMP_DIR or .attnfuzz/failures)",
    )
    run.add_argument(
        "--jobs", type=_at_least_one, default=None, metavar="N",
        help="worker processes (default: one per core on the interpreter; on a GPU one per "
        "core, up to 16 per GPU, spread over the GPUs); the code under test runs in them, so "
        "nothing it does stops the campaign",
    )
    run.add_argument(
        "--case-timeout", type=_seconds, default=None, metavar="SECONDS",
        help="a call running longer is a hang finding (default: 10 times the slowest call "
        "of its round, at least 30 s, at most the budget or 300 s)",
    )
    run.add_argument(
        "--database", default=os.environ.get("ATTNFUZZ_DATABASE"),
        metavar="DIR|redis://HOST:PORT|none",
        help="the example database every worker shares: each finding's case is saved there "
        "and replayed first by every campaign using it (default: $ATTNFUZZ_DATABASE or "
        ".attnfuzz/examples)",
    )
    run.add_argument(
        "--keep-going", action="store_true",
        help="go on after a finding: every round runs its share, findings are counted by "
        "signature (kind, property, failing check, the shrunk case's shape) and one dump "
        "is kept per signature (default: a finding ends its implementation/dtype pair)",
    )
    run.add_argument(
        "--oracle-device", choices=("cpu", "cuda"), default=None,
        help="where the float64 oracle and its bounds run (default: cuda with a GPU, else cpu)",
    )

    rep = sub.add_parser(
        "replay",
        help="rerun a dumped failing case",
        description="Rebuild a dumped case from its saved tensors (and from its spec, to detect "
        "generator drift), rerun the property that failed, print the diagnosis. Exits 1 while "
        "it still fails, 0 once fixed.",
    )
    rep.add_argument("path", help="a dump directory (or its case.json)")
    rep.add_argument(
        "--export", metavar="FILE", default=None,
        help="write the case as a self-contained Python script (torch only) for a bug report, "
        "instead of replaying it (runs nothing, so a GPU dump exports on any machine); "
        "an existing FILE is refused",
    )
    rep.add_argument("--force", action="store_true",
                     help="with --export: overwrite FILE if it exists")

    mut = sub.add_parser(
        "mutants",
        help="measure the harness's bug-finding power on planted kernel bugs",
        description="Apply each catalogued mutant to a copy of the kernels in a temporary "
        "directory, run the property suite against it and report which property killed it. "
        "Exits 1 if a non-equivalent mutant survives.",
    )
    mut.add_argument("--only", type=_csv, default=None,
                     help="comma-separated mutant names or patterns (hopper.*)")
    mut.add_argument(
        "--examples", type=_at_least_one, default=60, help="examples per property (default 60)"
    )
    mut.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    mut.add_argument(
        "--jobs", type=_at_least_one, default=os.cpu_count() or 1, help="parallel mutants"
    )
    mut.add_argument(
        "--property", choices=tuple(checks.PROPERTIES),
        help="check every mutant with this property alone (shows what each property catches)",
    )
    mut.add_argument(
        "--layouts", type=_csv, default=None,
        help="draw only these layouts (comma-separated; shows what each layout catches)",
    )
    mut.add_argument(
        "--families", type=_csv, default=None,
        help="draw only these value families (comma-separated)",
    )
    mut.add_argument(
        "--rules", type=int, nargs="?", const=0, default=None, metavar="N",
        help="mutants generated by rules from the kernel sources instead of the catalogue "
        "(at most N per rule and file; all without N)",
    )
    mut.add_argument(
        "--from", dest="source", metavar="FILE.json", default=None,
        help="mutants from a JSON list of {name, file, edits: [[old, new]], mimics} (optionally "
        "targets, and equivalent: the reason none can tell it apart)",
    )
    mut.add_argument(
        "--timeout", type=_seconds, default=None, metavar="SECONDS",
        help="give up on a mutant after this long (reported as an error, not a kill)",
    )
    mut.add_argument(
        "--target-seconds", type=_seconds, default=None, metavar="SECONDS",
        help="stop drawing a target's examples after this long (a mutant's targets each "
        "get it); a survivor then names the targets it cut short, and how many ran",
    )
    mut.add_argument(
        "--sanitize", action="store_true",
        help="run each mutant's properties under compute-sanitizer memcheck (GPU): an "
        "illegal access is a kill even where no output shows it",
    )
    mut.add_argument("--list", action="store_true", help="list the catalogue and exit")
    mut.add_argument("--json", default=None, help="also write the results to this JSON file")
    return p


# --- run ---------------------------------------------------------------------------------


Round = tuple[str, str, str]  # (implementation, dtype, property)


def _check_shrink_bound() -> None:
    # Checked here, bound in each worker: this process may go on to run other
    # Hypothesis tests (a test calling the command in-process) at their limits.
    from .. import hypothesis_internals

    try:
        hypothesis_internals.check_shrink_bound()
    except ValueError as exc:
        raise UsageError(f"--shrink-seconds: {exc}") from None


def _rounds(impls: list[str], dtypes: list[str], props: list[str] | None) -> list[Round]:
    """Every (implementation, dtype, property) to fuzz: the dtypes each
    implementation supports, the properties that apply to it."""
    from .. import checks, implementations

    rounds, skips = [], []
    for name in impls:
        impl = implementations.get(name)
        if (why := impl.cannot_run()) is not None:
            skips.append(f"{name} cannot run here: {why}")
            continue
        takes = impl.dtypes
        applies = [p for p in props or checks.PROPERTIES if checks.get(p).applies(impl)]
        rounds += [(name, d, p) for d in dtypes if d in takes for p in applies]
        skipped = [d for d in dtypes if d not in takes]
        if skipped:
            skips.append(f"{name} does not take {', '.join(skipped)}")
        if props and not applies:
            skips.append(f"no property of {', '.join(props)} applies to {name}")
    if not rounds:
        raise UsageError(f"nothing to test: {'; '.join(skips)}")
    for skip in skips:
        print(f"attnfuzz run: {skip}; skipped")
    return rounds


def _dump_dir(text: str | None) -> Path | None:
    """``--dump-dir``: a directory, or a path where one can be made."""
    from ..model.dumps import made_directory

    if text is None:
        return None
    try:
        return made_directory(text, "--dump-dir")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cmd_run(args: argparse.Namespace) -> int:
    from .. import backend
    from . import database
    from .campaign import Campaign, Plan

    default_dtypes = ["float32", "float16"] + (["bfloat16"] if backend.supports_bf16() else [])
    dtypes = args.dtype or default_dtypes
    if "bfloat16" in dtypes and not backend.supports_bf16():
        raise UsageError("bfloat16 is wrong in Triton's interpreter; run it on a GPU")
    impls = _imported(args.impl, args.convention, args.supports)
    if args.shrink_seconds is not None:
        _check_shrink_bound()
    if args.oracle_device is not None:
        os.environ["ATTNFUZZ_ORACLE_DEVICE"] = args.oracle_device
    rounds = _rounds(impls, dtypes, args.property)
    try:
        database.open_database(args.database)
    except ValueError as exc:
        raise UsageError(f"--database: {exc}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    dump_dir = _dump_dir(args.dump_dir)
    if dump_dir is not None:
        # Properties that write their own dumps (sequences) find the folder here.
        os.environ["ATTNFUZZ_DUMP_DIR"] = str(dump_dir)
    where = "interpreter" if backend.interpreting() else "gpu"
    jobs = args.jobs if args.jobs is not None else _default_jobs(where)
    seconds = None if args.examples is not None else (args.seconds or 60.0)
    print(backend.describe())
    print(f"attnfuzz run: seed {seed}; rerun with --seed {seed}; {jobs} worker"
          f"{'' if jobs == 1 else 's'}; examples database {database.describe(args.database)}")
    if not args.dtype and not backend.supports_bf16():
        print("bfloat16: not run here (Triton's interpreter computes it wrongly); a GPU runs it")
    plan = Plan(rounds=rounds, jobs=jobs, seconds=seconds, examples=args.examples, seed=seed,
                where=where, dump_dir=dump_dir, shrink_seconds=args.shrink_seconds,
                case_timeout=args.case_timeout, database=args.database,
                keep_going=args.keep_going)
    try:
        return Campaign(plan).run()
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None


# Workers per GPU by default.  Each compile takes a core for a second or
# more and a case's call milliseconds, so the rate follows the compiling
# workers: on an H200 with 16 cores, 16 workers checked 5.4 times the cases of
# 8 in the default one-minute campaign (and 1.6 times on flash's oracle), none
# out of memory.
WORKERS_PER_GPU = 16


def _default_jobs(where: str) -> int:
    """One worker per core on the interpreter (each case is pure Python); on a
    GPU, one per core up to ``WORKERS_PER_GPU`` per GPU: compiles run on the
    host's cores while other workers' cases keep the GPU busy."""
    from .campaign import cores

    cores = cores()
    if where == "interpreter":
        return max(1, cores)
    import torch

    return max(1, min(cores, WORKERS_PER_GPU * max(1, torch.cuda.device_count())))


# --- replay ----------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    from . import harness

    if args.force and not args.export:
        raise UsageError("--force applies to --export only (a replay writes no file)")
    if args.export:
        from . import export

        try:
            written = export.export(args.path, args.export, force=args.force)
        except export.FileExistsExportError:
            why = f"--export {args.export}: the file exists (--force overwrites it)"
            raise UsageError(why) from None
        except harness.DumpError as exc:  # ExportError too
            raise UsageError(str(exc)) from None
        print(f"wrote {written}: python3 {shlex.quote(str(written))}")
        return 0
    try:
        report = harness.replay_report(args.path)
    except harness.DumpError as exc:
        raise UsageError(str(exc)) from None
    for line in report.lines:
        print(line)
    for failure in report.failures:
        print("FAIL " + failure)
    if report.failed:
        return 1
    print(report.passed)
    return 0


def _configure(choice: str) -> None:
    """Choose the backend, or say in one line why it cannot be this one."""
    from .. import backend

    if choice == "gpu":
        import torch

        if not torch.cuda.is_available():
            why = "" if torch.version.cuda else f" (torch {torch.__version__} has no CUDA)"
            raise UsageError(
                f"backend gpu (--backend or ATTNFUZZ_BACKEND): no CUDA device is available{why}"
            )
    try:
        backend.configure(choice)
    except (ValueError, RuntimeError) as exc:
        raise UsageError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        _configure(args.backend)
        load_package()
        if args.command == "run":
            return cmd_run(args)
        if args.command == "replay":
            return cmd_replay(args)
        from ..mutation.runner import cmd_mutants

        return cmd_mutants(args)
    except UsageError as exc:
        print(f"attnfuzz {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # A campaign (``run``) handles its own; a replay or mutants run ends here.
        print(f"attnfuzz {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader left (``| head``): stop quietly, and keep Python's exit
        # flush of stdout from failing the same way.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
