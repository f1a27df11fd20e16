"""Glue between checks and their users (pytest, ``attnfuzz run``, replay).

``check`` runs one property on one case, labels the case for
``--hypothesis-show-statistics``, steers Hypothesis towards large
error/bound ratios with ``target``, records the worst ratio, and on failure
raises an ``AssertionError`` that says what failed and where.  On the final
(shrunk) reproduction of a failure it also writes a dump: the case spec, the
exact input tensors and the diagnosis, replayable with ``attnfuzz replay``.
An implementation that raises instead of returning has crashed, and one that
returns a result of the wrong shape, dtype or device has broken its
contract: findings like a wrong answer, reported and dumped the same way.
Messages give indices and shapes in the layout of the user's function (its
convention's) as well as attnfuzz's (B, H, S, D).

This module owns dumps: writing them (``write_dump``; a call sequence's
``sequence.json`` is written by ``checks.stateful``, which holds the
sequence, in the format of ``checks.sequence_dump``), reading them
(``load_dump``) and replaying either kind (``replay_report``), and which kind
of finding a fault is (``classify``).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shlex
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import torch

from ...reference import Verdict
from .. import backend, checks, hypothesis_internals
from ..checks import sequence_dump
from ..checks.execution import (
    UnsafeRun,
    classify,
    context_killer,
    out_of_memory,
    refusal_key,
)
from ..implementations import Implementation, conventions, get, short_name
from ..implementations.implementation import (
    ContractViolation,
    ImplementationCrash,
)
from ..model.cases import (
    Built,
    Case,
    build,
    from_json,
    to_json,
    with_inputs,
)
from ..model.dumps import (
    dump_root,
    fresh_dir,
    lenient,
    strict,
)


@dataclass(frozen=True)
class Campaign:
    """What a dump records of the ``attnfuzz run`` round that wrote it (pytest
    runs have none: their dumps record the test, its seed and pytest command)."""

    seed: int  # the seed Hypothesis ran the round with
    reproduce: str  # the command that reruns the round
    campaign_seed: int | None = None
    dump_dir: Path | None = None  # default: dump_root()


class CampaignFault(Exception):
    """What a campaign saw of a call from outside its process: it ran past its
    time limit (a hang), or its process died inside it (a crash)."""


class Finding(AssertionError):
    """A failing case: an ``AssertionError`` (so Hypothesis shrinks it) that
    also says which kinds of finding it is (``reference.verdict.FINDINGS``)."""

    def __init__(self, message: str, kinds: list[str], dump: Path | None = None,
                 worst: Verdict | None = None, case: str = "",
                 checks: list[str] = (), refusal: str | None = None,
                 out_of_memory: bool = False) -> None:
        super().__init__(message)
        self.kinds = list(dict.fromkeys(kinds))
        self.dump = dump  # its dump's directory, once written (the final, shrunk run)
        self.worst = worst  # its worst failing verdict, of the case ``case`` describes
        self.case = case
        self.checks = list(dict.fromkeys(checks))  # the checks that failed (outputs, rules)
        # An exception raised on a case inside the declared support, as
        # ``refusal_key`` names it: a campaign reports it once per
        # implementation and dtype, then skips the cases that raise it again.
        self.refusal = refusal
        # The call ran out of device memory (``execution.out_of_memory``): a
        # campaign whose workers share the GPU skips the case instead.
        self.out_of_memory = out_of_memory


class DumpError(Exception):
    """A path that is not a replayable dump; the message says why, in one line."""


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:300]}" if lines else type(error).__name__


def _guarded(impl: Implementation) -> Implementation:
    """``impl`` whose exceptions (of its serving entry points too) say they came
    from it, not from the harness around it."""

    def guard(fn):
        if fn is None:
            return None

        def call(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except ContractViolation:
                raise  # its convention's adapter judged the result: a finding, not a crash
            except (Exception, SystemExit) as exc:  # sys.exit() in it ends nothing but the call
                raise ImplementationCrash(impl.name, exc) from exc
            except KeyboardInterrupt as exc:
                # Where SIGINT is ignored (a campaign's worker) no key press
                # raised it: the function did, and that too ends only the call.
                if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                    raise
                raise ImplementationCrash(impl.name, exc) from exc

        return call

    return dataclasses.replace(impl, run=guard(impl.run),
                               **{n: guard(fn) for n, fn in impl.serving_calls().items()})


@dataclass
class Recorder:
    """Worst error/bound ratio over the cases one test has run."""

    implementation: str
    dtype: str
    count: int = 0
    worst: float = 0.0
    check: str = ""
    case: str = ""  # the case that came nearest its bound

    def update(self, verdict: Verdict | None, case: Case | None = None) -> None:
        self.count += 1
        if verdict is not None and verdict.ratio > self.worst:
            self.worst, self.check = verdict.ratio, verdict.check
            self.case = case.describe() if case is not None else ""

    def as_property(self) -> tuple[str, str, float, int, str, str]:
        return (self.implementation, self.dtype, self.worst, self.count, self.check, self.case)


def run_property(
    prop: str, impl_name: str, case: Case, *, built: Built | None = None, other: str | None = None
) -> list[Verdict]:
    """Run the property named ``prop`` (see ``checks.PROPERTIES``) on one case.

    Raises ``ImplementationCrash`` if an implementation raised."""
    peer = _guarded(get(other)) if other else None
    return checks.get(prop).run(_guarded(get(impl_name)), case, built, peer)


# [which case faulted, its dump] once a kernel has killed this process's CUDA context.
_LOST_CONTEXT: list[str] = []


def lost_context() -> str | None:
    """Which case killed this process's CUDA context, if one has."""
    return _LOST_CONTEXT[0] if _LOST_CONTEXT else None


def failures_of(exc: BaseException) -> list[BaseException] | None:
    """The failures in what a Hypothesis test raised: ``[exc]`` for a failing
    case, the members (flattened) of a group of several distinct failures or
    of flaky replays; None for anything else, which is a harness bug."""
    members = getattr(exc, "exceptions", None)
    if members:
        return [leaf for m in members for leaf in failures_of(m) or [m]]
    return [exc] if isinstance(exc, AssertionError) else None


def check(
    prop: str,
    impl_name: str,
    case: Case,
    *,
    recorder: Recorder | None = None,
    other: str | None = None,
    campaign: Campaign | None = None,
) -> list[Verdict]:
    """Run a property inside a Hypothesis test; fail with a diagnosis and a dump."""
    __tracebackhide__ = True  # pytest: the failure is the message, not this frame
    from hypothesis import event, target

    context = hypothesis_internals.build_context()
    if context is not None:  # labels and targets exist only inside a Hypothesis test
        for label in case.labels():
            event(label)
    trace = os.environ.get("ATTNFUZZ_TRACE")
    if trace:
        # "1": each case to stderr before it runs (with CUDA_LAUNCH_BLOCKING=1
        # a process's last line names the case that crashed); a path: appended
        # there, one "<pid>\t<node id>\t<property>\t<implementation>\t<case>" line each.
        nodeid = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
        line = f"{os.getpid()}\t{nodeid}\t{prop}\t{impl_name}\t{case!r}"
        if trace == "1":
            print(f"attnfuzz trace: {line}", file=sys.stderr, flush=True)
        else:
            with open(trace, "a") as f:
                f.write(line + "\n")
    if _LOST_CONTEXT:
        # Every CUDA call in this process now fails; say so rather than blame
        # whatever example Hypothesis tries next (its shrinking is moot here).
        raise Finding(
            f"{prop}: {short_name(impl_name)} did not run: this process lost its CUDA context "
            f"earlier, {_LOST_CONTEXT[0]}\n  dump of that case: {_LOST_CONTEXT[1]}",
            ["memory"],
        )
    try:
        verdicts = run_property(prop, impl_name, case, other=other)
    except UnsafeRun as exc:  # a run inside the check failed its memory checks: judged below
        verdicts = exc.verdicts
    except Exception as exc:
        if isinstance(exc, Finding):
            raise
        # A malformed result is a contract finding.  A fault may surface in the
        # implementation or in the next CUDA call after it.  Any other exception
        # (a bare AssertionError too: no verdict) is a crash finding wherever it
        # was raised (a backward, a serving call, the harness around them): its
        # dump keeps the traceback, which says whose code raised.
        kind, _ = classify(exc, impl_name)
        error = exc.error if isinstance(exc, ImplementationCrash) else exc
        if kind == "crash" and campaign is None and context is not None and out_of_memory(exc):
            _skip_out_of_memory()
        if kind != "memory":
            raise _fault_failure(prop, impl_name, case, exc, recorder, other, campaign) from error
        fault = context_killer(error)
        # The CUDA context is lost: this process cannot run another kernel, so
        # dump the case now (Hypothesis cannot shrink it), and say so at once
        # in case Hypothesis' report of the replays buries the message.
        what = f"{impl_name} faulted on the GPU ({fault}) on: {case.describe()}"
        print(f"attnfuzz: {what}", file=sys.stderr, flush=True)
        path = write_dump(prop, impl_name, case, [], other=other, campaign=campaign)
        _LOST_CONTEXT[:] = [f"when {what}", str(path)]
        raise Finding(
            f"{prop}: {what}\n"
            f"  every later GPU test in this process will fail too\n"
            f"  dump: {path}\n  check with: compute-sanitizer --tool memcheck "
            f"python3 -m attnfuzz replay {shlex.quote(str(path))}",
            ["memory"], path, fault_verdict(exc, impl_name), case.describe(),
        ) from error
    worst = checks.worst(verdicts)
    if recorder is not None:
        recorder.update(worst, case)
    if worst is not None and context is not None:
        for label, ratio in checks.steering(verdicts).items():
            target(ratio, label=label)
    bad = checks.failures(verdicts)
    if bad:
        kinds = list(dict.fromkeys(v.kind for v in bad))
        # A check's note (what to do about it) heads the message too: a
        # campaign prints only this first line as the finding arrives.
        notes = "".join(f"; {n}" for n in dict.fromkeys(v.note for v in bad if v.note))
        lines = [f"{prop} failed for {short_name(impl_name)} ({', '.join(kinds)}) on: "
                 f"{case.describe()}{notes}"]
        impl = get(impl_name)
        lines += ["  " + conventions.describe(v, impl, case) for v in bad]
        path = None
        if hypothesis_internals.is_final(context):
            path = write_dump(prop, impl_name, case, bad, other=other, context=context,
                              campaign=campaign)
            lines += _dump_lines(path)
        raise Finding("\n".join(lines), kinds, path, checks.worst(bad), case.describe(),
                      checks=[v.check for v in bad])
    return verdicts


def finding_record(failure: BaseException, replayed: bool = False) -> dict[str, object]:
    """What a campaign keeps of a failure (a ``Finding`` or a call sequence's
    ``StatefulFailure``): its kinds, message and dump, and its worst verdict
    (``worst``: ratio, check, case), which the summary's worst check names so
    that it is the case the dump holds."""
    dump = getattr(failure, "dump", None)
    worst = getattr(failure, "worst", None)
    described = getattr(failure, "case", "")
    verdicts = getattr(failure, "verdicts", None)
    if worst is None and verdicts:  # a sequence's failing step
        worst = checks.worst(verdicts)
    steps = getattr(failure, "steps", None)
    if not described and steps:
        described = from_json(lenient(steps[-1]["case"])).describe()
    kinds = list(getattr(failure, "kinds", None) or ["wrong"])
    record: dict[str, object] = {
        "kinds": kinds,
        "message": getattr(failure, "message", None) or str(failure),
        "dump": str(dump) if dump is not None else None,
        "replayed": replayed,
        "refusal": getattr(failure, "refusal", None),
    }
    if worst is not None:
        record["worst"] = {"ratio": worst.ratio, "check": worst.check, "case": described}
    elif kinds[0] != "wrong":  # a crash of a sequence's call: no verdict, its kind
        record["worst"] = {"ratio": math.inf, "check": kinds[0], "case": described}
    return record


def fault_verdict(exc: BaseException, impl_name: str) -> Verdict:
    """A failing verdict for a call that raised (``classify``), which a summary's
    worst check names: ``crash (IndexError)``, ``contract: out shape``."""
    kind, _ = classify(exc, impl_name)
    nan = math.nan
    if isinstance(exc, ContractViolation):
        check = exc.check
    else:
        error = exc.error if isinstance(exc, ImplementationCrash) else exc
        check = f"{kind} ({type(error).__name__})"
    return Verdict(check, math.inf, math.inf, nan, (), nan, nan, kind)


def _fault_failure(
    prop: str,
    impl_name: str,
    case: Case,
    exc: Exception,
    recorder: Recorder | None,
    other: str | None,
    campaign: Campaign | None,
) -> Finding:
    """A crash or a malformed result as a failing case: an AssertionError, so
    that Hypothesis shrinks it and callers count it as a finding rather than
    a harness bug."""
    verdict = fault_verdict(exc, impl_name)
    if recorder is not None:  # a summary's worst case then names it
        recorder.update(verdict, case)
    kind, line = classify(exc, impl_name)
    if kind == "contract":
        lines = [f"{prop}: {short_name(impl_name)} broke its contract ({verdict.check}) on: "
                 f"{case.describe()}", f"  {exc}"]
    else:
        error = exc.error if isinstance(exc, ImplementationCrash) else exc
        who = exc.implementation if isinstance(exc, ImplementationCrash) else impl_name
        lines = [f"{prop}: {short_name(who)} crashed ({type(error).__name__}) on: "
                 f"{case.describe()}",
                 f"  {_first_line(error)}"]
    context = hypothesis_internals.build_context()
    path = None
    if hypothesis_internals.is_final(context):
        path = write_dump(prop, impl_name, case, [verdict], other=other, context=context,
                          campaign=campaign, fault=exc)
        lines += _dump_lines(path)
    refusal = None
    if kind == "crash":
        error = exc.error if isinstance(exc, ImplementationCrash) else exc
        refusal = refusal_key(error) if isinstance(error, Exception) else None
    return Finding("\n".join(lines), [kind], path, verdict, case.describe(), refusal=refusal,
                   out_of_memory=kind == "crash" and out_of_memory(exc))


def _skip_out_of_memory() -> None:
    """Reject the example Hypothesis is running, as a campaign skips the case:
    a call that ran out of device memory measured the case against what else
    holds the GPU at that moment (pytest-xdist's other workers), not the
    implementation.  Hypothesis counts it in the test's statistics; a test
    whose every case runs out says it could not draw one that fits."""
    from hypothesis import event, reject

    if torch.cuda.is_available():
        torch.cuda.empty_cache()  # what this process cached goes back to the others
    event("skipped: a call ran out of device memory")
    reject()


def _dump_lines(path: Path) -> list[str]:
    return [f"  dump: {path}", f"  replay: attnfuzz replay {shlex.quote(str(path))}"]


def write_dump(
    prop: str,
    impl_name: str,
    case: Case,
    failures: list[Verdict],
    *,
    other: str | None = None,
    context=None,
    root: Path | None = None,
    campaign: Campaign | None = None,
    fault: BaseException | None = None,
) -> Path:
    """Write ``<root>/<name>-<time>/case.json`` and ``inputs.pt``; return the directory.

    ``case.json`` is strict JSON: non-finite numbers are the strings "inf",
    "-inf" and "nan".  The inputs are rebuilt on the CPU, where cases are
    generated (the same values on every backend): the saved views keep their
    exact layouts, which a copy off the GPU would not, and a process whose
    CUDA context a kernel has killed can still write them.

    ``fault``: what the call raised (a crash, a ``CampaignFault``, a
    ``ContractViolation``), recorded with its traceback.  Each failing
    verdict's record gives its index in the function's own layout too
    (``user_index``), where that differs from attnfuzz's.
    """
    # A campaign run inside pytest is still a campaign, not the test around it.
    nodeid = "" if campaign else os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    def clean(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)

    # An imported name's folder and support spec make it long: keep its file and function.
    short = short_name(impl_name)
    slug = clean(nodeid)[-80:] if nodeid else f"{prop}-{clean(short)[-60:]}-{case.dtype}"
    root = Path(root or (campaign and campaign.dump_dir) or dump_root()).resolve()
    path = fresh_dir(root / f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    if campaign is not None:
        seed, reproduce = campaign.seed, campaign.reproduce
    else:
        seed = hypothesis_internals.global_seed()
        reproduce = f"pytest '{nodeid}' --hypothesis-seed={seed} -p no:xdist" if nodeid else None
    record = {
        "property": prop,
        "implementation": impl_name,
        "other": other,
        "case": to_json(case),
        "description": case.describe(),
        "pytest_nodeid": nodeid or None,
        "hypothesis_seed": seed,
        "campaign_seed": campaign.campaign_seed if campaign else None,
        "reproduce_blob": (hypothesis_internals.reproduce_blob(context)
                           if context is not None else None),
        "reproduce": reproduce,
        "versions": backend.versions(),
        "diagnosis": [_diagnosis(v, impl_name, case) for v in failures],
    }
    if isinstance(fault, ContractViolation):
        record["contract"] = str(fault)
    elif fault is not None:
        crash = fault.error if isinstance(fault, ImplementationCrash) else fault
        record["crash"] = f"{type(crash).__name__}: {crash}"
    if fault is not None:
        record["traceback"] = "".join(traceback.format_exception(fault))
    text = json.dumps(strict(record), indent=2, allow_nan=False)
    (path / "case.json").write_text(text + "\n")
    built = build(case, "cpu")
    torch.save({r: t.cpu() for r, t in built.inputs.items()}, path / "inputs.pt")
    return path


def _diagnosis(v: Verdict, impl_name: str, case: Case) -> dict[str, object]:
    record = v.as_dict()
    try:
        impl = get(impl_name)
    except ValueError:  # a fault dump of a name this process cannot import
        return record
    theirs = conventions.user_index(v, impl, case)
    if theirs is not None:
        record["user_index"] = theirs
        record["user_layout"] = conventions.describe(v, impl, case).rpartition(
            "in the function's layout: ")[2]
    return record


@dataclass
class Replay:
    record: dict
    verdicts: list[Verdict]
    drift: list[str]

    @property
    def failed(self) -> bool:
        return bool(checks.failures(self.verdicts))


def load_dump(path: str | Path) -> tuple[Path, dict, Case, dict[str, torch.Tensor]]:
    """A dump's directory, record, case and saved inputs; ``DumpError`` if it is none."""
    given = path = Path(path)
    if not path.exists():
        raise DumpError(f"{given}: not found")
    if path.is_file():
        path = path.parent
    file = path / "case.json"
    if not file.is_file():
        raise DumpError(f"{given}: no case.json there, so not an attnfuzz dump")
    try:
        record = json.loads(file.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DumpError(f"{file}: not valid JSON ({exc})") from None
    if not isinstance(record, dict):
        raise DumpError(f"{file}: not an attnfuzz dump (not a JSON object)")
    missing = [k for k in ("property", "implementation", "case") if k not in record]
    if missing:
        raise DumpError(f"{file}: not an attnfuzz dump (no {missing[0]!r})")
    try:
        case = from_json(lenient(record["case"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise DumpError(f"{file}: not an attnfuzz dump (its case: {exc!r})") from None
    try:
        checks.get(record["property"])
        for name in (record["implementation"], record.get("other")):
            if name:
                get(name)
    except ValueError as exc:
        raise DumpError(f"{file}: {exc}") from None
    inputs = path / "inputs.pt"
    if not inputs.is_file():
        raise DumpError(f"{given}: no inputs.pt there, so not a complete dump")
    try:
        saved = torch.load(inputs, map_location="cpu")
    except Exception as exc:  # torch.load raises many kinds for a damaged file
        raise DumpError(f"{inputs}: unreadable ({_first_line(exc)})") from None
    roles = {*case.shapes(), *case.grad_outputs()}
    if not isinstance(saved, dict) or set(saved) != roles:
        raise DumpError(f"{inputs}: does not hold the case's inputs ({', '.join(sorted(roles))})")
    return path, record, case, saved


def replay(path: str | Path) -> Replay:
    """Rerun a dump's property on its saved tensors; also report generator drift.

    Raises ``DumpError`` for what is not a dump, ``ImplementationCrash`` if the
    implementation still crashes."""
    path, record, case, saved = load_dump(path)
    device = backend.device()
    drift = []
    regenerated = build(case, "cpu").inputs
    for role, t in saved.items():
        r = regenerated[role]
        same = t.shape == r.shape and t.stride() == r.stride() and bool(
            ((t == r) | (t.isnan() & r.isnan())).all()
        )
        if not same:
            drift.append(role)
    built = with_inputs(case, {r: t.to(device) for r, t in saved.items()})
    if device != "cpu":
        # .to() keeps views only on the CPU; rebuild the exact layouts on the device.
        built = build(case, device) if not drift else built
    verdicts = run_property(
        record["property"], record["implementation"], case, built=built, other=record.get("other")
    )
    return Replay(record, verdicts, drift)


@dataclass
class ReplayReport:
    """What a replay of either kind of dump says: ``lines`` first (what ran,
    warnings), then a ``FAIL`` line per failure, or ``passed`` if none."""

    lines: list[str]
    failures: list[str]
    passed: str

    @property
    def failed(self) -> bool:
        return bool(self.failures)


def is_sequence_dump(path: str | Path) -> bool:
    p = Path(path)
    return p.name == sequence_dump.SEQUENCE_FILE or (p / sequence_dump.SEQUENCE_FILE).is_file()


def replay_report(path: str | Path) -> ReplayReport:
    """Replay a dump of one case (``case.json``) or of a call sequence
    (``sequence.json``) in this process, every fault classified (``classify``).
    Raises ``DumpError`` for what is neither."""
    if is_sequence_dump(path):
        return _replay_sequence(path)
    _, record, case, saved = load_dump(path)
    impl_name = record["implementation"]
    lines = [backend.describe(), f"case: {record.get('description') or case.describe()}"]
    impl = get(impl_name)
    said = conventions.received(impl.convention, case, saved, impl.support.page_sizes)
    if said is not None:  # the case's layout names are of the harness's (B, H, S, D) tensors
        lines.append(f"as the function receives them: {said}")
    lines.append(f"property: {record['property']}  implementation: {impl_name}")
    try:
        result = replay(path)
    except Exception as exc:
        kind, line = classify(exc, impl_name)
        if kind == "memory":
            line += ("; to see where: compute-sanitizer --tool memcheck python3 -m attnfuzz "
                     f"replay {shlex.quote(str(path))}")
        elif kind == "contract":
            line = f"{fault_verdict(exc, impl_name).check}: {line}"
        return ReplayReport(lines, [line], "")
    if result.drift:
        lines.append("warning: the case spec no longer generates the saved tensors for "
                     f"{', '.join(result.drift)} (generator drift); replaying the saved tensors")
    bad = [conventions.describe(v, impl, case) for v in checks.failures(result.verdicts)]
    w = checks.worst(result.verdicts)
    return ReplayReport(lines, bad, f"PASS: fixed (worst error/bound {w.ratio:.3g})" if w
                        else "PASS")


def _replay_sequence(path: str | Path) -> ReplayReport:
    from ..checks import stateful

    try:
        record = sequence_dump.load_sequence(path)
    except ValueError as exc:
        raise DumpError(str(exc)) from None
    lines = [backend.describe(),
             f"sequence of {len(record['steps'])} steps: property {record['property']}  "
             f"implementation: {record['implementation']}  dtype: {record['dtype']}"]
    try:
        stateful.replay_sequence(path)
    except stateful.StatefulFailure as failure:
        return ReplayReport(lines, [failure.message], "")
    except ValueError as exc:  # a step that repeats no earlier call of its case
        raise DumpError(str(exc)) from None
    return ReplayReport(lines, [], "PASS: fixed")
