"""Glue between checks and their users (pytest, ``attnfuzz run``, replay).

``check`` runs one property on one case, labels the case for
``--hypothesis-show-statistics``, steers Hypothesis towards large
error/bound ratios with ``target``, records the worst ratio, and on failure
raises an ``AssertionError`` that says what failed and where.  On the final
(shrunk) reproduction of a failure it also writes a dump: the case spec, the
exact input tensors and the diagnosis, replayable with ``attnfuzz replay``.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from attnfuzz.properties import backend, checks
from attnfuzz.properties.implementations import get
from attnfuzz.properties.model.cases import (
    Built,
    Case,
    build,
    from_json,
    to_json,
    with_inputs,
)
from attnfuzz.reference import Verdict

DEFAULT_DUMP_DIR = ".attnfuzz/failures"

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
    """Run the property named ``prop`` (see ``checks.PROPERTIES``) on one case."""
    return checks.get(prop).run(get(impl_name), case, built, get(other) if other else None)


# [which case faulted, its dump] once a kernel has killed this process's CUDA context.
_LOST_CONTEXT: list[str] = []
_CONTEXT_KILLERS = ("illegal memory access", "misaligned address")


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
) -> list[Verdict]:
    """Run a property inside a Hypothesis test; fail with a diagnosis and a dump."""
    from hypothesis import event, target
    from hypothesis.control import current_build_context

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
        raise AssertionError(
            f"{prop}: {impl_name} did not run: this process lost its CUDA context earlier, "
            f"{_LOST_CONTEXT[0]}\n  dump of that case: {_LOST_CONTEXT[1]}"
        )
    try:
        verdicts = run_property(prop, impl_name, case, other=other)
    except RuntimeError as exc:
        fault = next((k for k in _CONTEXT_KILLERS if k in str(exc)), None)
        if fault is None:
            raise
        # The CUDA context is lost: this process cannot run another kernel, so
        # dump the case now (Hypothesis cannot shrink it), and say so at once
        # in case Hypothesis' report of the replays buries the message.
        what = f"{impl_name} faulted on the GPU ({fault}) on: {case.describe()}"
        print(f"attnfuzz: {what}", file=sys.stderr, flush=True)
        path = write_dump(prop, impl_name, case, [], other=other)
        _LOST_CONTEXT[:] = [f"when {what}", str(path)]
        raise AssertionError(
            f"{prop}: {what}\n"
            f"  every later GPU test in this process will fail too\n"
            f"  dump: {path}\n  check with: compute-sanitizer --tool memcheck "
            f"python3 -m attnfuzz replay {path}"
        ) from exc
    worst = checks.worst(verdicts)
    if recorder is not None:
        recorder.update(worst, case)
    if worst is not None:
        target(min(worst.ratio, 1e9), label="error/bound")
    bad = checks.failures(verdicts)
    if bad:
        lines = [f"{prop} failed for {impl_name} on: {case.describe()}"]
        lines += ["  " + v.describe() for v in bad]
        context = current_build_context()
        if context.is_final:
            path = write_dump(prop, impl_name, case, bad, other=other, context=context)
            lines.append(f"  dump: {path}")
            lines.append(f"  replay: attnfuzz replay {path}")
        raise AssertionError("\n".join(lines))
    return verdicts


def dump_root() -> Path:
    return Path(os.environ.get("ATTNFUZZ_DUMP_DIR", DEFAULT_DUMP_DIR))


def _blob(context) -> str | None:
    """Hypothesis' reproduce blob for the running example, if this version exposes it."""
    try:
        from hypothesis.core import encode_failure

        return encode_failure(context.data.choices).decode("ascii")
    except Exception:  # pragma: no cover - depends on Hypothesis internals
        return None


def write_dump(
    prop: str,
    impl_name: str,
    case: Case,
    failures: list[Verdict],
    *,
    other: str | None = None,
    context=None,
    root: Path | None = None,
) -> Path:
    """Write ``<root>/<test>-<time>/case.json`` and ``inputs.pt``; return the directory.

    The inputs are rebuilt on the CPU, where cases are generated (the same
    values on every backend): the saved views keep their exact layouts, which
    a copy off the GPU would not, and a process whose CUDA context a kernel
    has killed can still write them.
    """
    import hypothesis.core

    nodeid = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid or f"{prop}-{impl_name}")[-80:]
    root = root or dump_root()
    path = root / f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    path.mkdir(parents=True, exist_ok=True)
    seed = hypothesis.core.global_force_seed
    record = {
        "property": prop,
        "implementation": impl_name,
        "other": other,
        "case": to_json(case),
        "description": case.describe(),
        "pytest_nodeid": nodeid or None,
        "hypothesis_seed": seed,
        "reproduce_blob": _blob(context) if context is not None else None,
        "reproduce": (
            f"pytest '{nodeid}' --hypothesis-seed={seed} -p no:xdist" if nodeid else None
        ),
        "versions": backend.versions(),
        "diagnosis": [v.as_dict() for v in failures],
    }
    (path / "case.json").write_text(json.dumps(record, indent=2, default=_json_default) + "\n")
    built = build(case, "cpu")
    torch.save({r: t.cpu() for r, t in built.inputs.items()}, path / "inputs.pt")
    return path


def _json_default(o: object) -> object:
    if isinstance(o, float) and not math.isfinite(o):
        return repr(o)
    raise TypeError(type(o).__name__)


@dataclass
class Replay:
    record: dict
    verdicts: list[Verdict]
    drift: list[str]

    @property
    def failed(self) -> bool:
        return bool(checks.failures(self.verdicts))


def replay(path: str | Path) -> Replay:
    """Rerun a dump's property on its saved tensors; also report generator drift."""
    path = Path(path)
    if path.is_file():
        path = path.parent
    record = json.loads((path / "case.json").read_text())
    case = from_json(record["case"])
    device = backend.device()
    saved = torch.load(path / "inputs.pt", map_location="cpu")
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
