"""The file a failing call sequence is dumped to, ``sequence.json``: writing it,
reading it back (with every field a replay needs checked) and the command that
replays it.  ``stateful`` writes it when a sequence fails and replays it
(``replay_sequence``); ``harness.replay_report`` tells it from a one-case dump
and reads it through here.

Strict JSON: non-finite numbers are the strings "inf", "-inf" and "nan", as in
the harness's ``case.json``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import time
from pathlib import Path
from typing import Protocol

from ...reference import Verdict
from .. import backend, hypothesis_internals
from ..implementations import short_name
from ..model.cases import Case, from_json
from ..model.dumps import dump_root, fresh_dir, lenient, strict

NAME = "stateful"  # the property whose failures these are (``stateful.NAME``)
SEQUENCE_FILE = "sequence.json"


class SequenceFields(Protocol):
    """What a dump records of ``stateful.Sequence``."""

    impl_name: str
    dtype: str
    repeats: int
    before: list[dict]


class FailureFields(Protocol):
    """What a dump records of ``stateful.StatefulFailure``."""

    message: str
    kinds: list[str]
    steps: list[dict]
    verdicts: list[Verdict]


def step_case(step: dict) -> Case:
    """The case of one of ``sequence.json``'s steps."""
    return from_json(lenient(step["case"]))  # type: ignore[arg-type]


def load_sequence(path: str | Path) -> dict:
    """A ``sequence.json`` record (a dump's directory or the file); ``ValueError`` if none."""
    file = Path(path)
    if file.is_dir():
        file = file / SEQUENCE_FILE
    try:
        record = json.loads(file.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: not a {NAME} dump ({exc})") from None
    if not isinstance(record, dict) or record.get("property") != NAME:
        raise ValueError(f"{file}: not a {NAME} dump (no property {NAME!r})")
    for key, kind in (("implementation", str), ("dtype", str), ("repeats", int),
                      ("steps", list)):
        if not isinstance(record.get(key), kind):
            raise ValueError(f"{file}: not a {NAME} dump (no {kind.__name__} {key!r})")
    for i, step in enumerate(record["steps"]):
        if not (isinstance(step, dict) and step.get("rule") in ("call", "repeat")
                and isinstance(step.get("case"), dict)
                and (step["rule"] == "call" or isinstance(step.get("of"), int))):
            raise ValueError(f"{file}: step {i} is not a call or a repeat of a step")
    return record


def write_sequence_dump(
    sequence: SequenceFields, failure: FailureFields, *, seed: object = None,
    reproduce: str | None = None, root: Path | None = None,
) -> Path:
    """Write ``<root>/stateful-<impl>-<dtype>-<time>-<pid>/sequence.json``; return the directory."""
    short = re.sub(r"[^A-Za-z0-9_.-]+", "_", short_name(sequence.impl_name))[-60:]
    base = Path(root or dump_root()).resolve()
    path = fresh_dir(base / f"{NAME}-{short}-{sequence.dtype}-"
                             f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    nodeid = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    record = {
        "property": NAME,
        "implementation": sequence.impl_name,
        "dtype": sequence.dtype,
        "repeats": sequence.repeats,
        "before": sequence.before,
        "steps": failure.steps,
        "failed_step": len(failure.steps) - 1,
        "message": failure.message,
        "kinds": failure.kinds,
        "diagnosis": [v.as_dict() for v in failure.verdicts],
        "pytest_nodeid": nodeid or None,
        "hypothesis_seed": hypothesis_internals.global_seed() if seed is None else seed,
        "reproduce": reproduce,
        "replay": replay_command(path),
        "versions": backend.versions(),
    }
    text = json.dumps(strict(record), indent=2, allow_nan=False)
    (path / SEQUENCE_FILE).write_text(text + "\n")
    return path


def replay_command(path: Path) -> str:
    """A shell command that replays the dump at ``path`` in a fresh process."""
    return f"attnfuzz replay {shlex.quote(str(path))}"
