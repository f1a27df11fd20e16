"""A campaign's worker process: it runs the code under test, so that nothing
that code does (hang, crash, exit) can stop the campaign.

The campaign (``campaign.py``) sends a worker *visits*: run this round
(implementation, dtype, property) with this seed until this time, with at
least this many distinct cases.  The worker runs one Hypothesis run per
visit (several on a GPU, see below), skips cases the round has already
checked (in any worker), and tells the campaign about every call before it
starts (``start``, with the case) and after it ends (``case``): a call that
never ends, or a process that dies inside one, is then a finding with its
case.  Messages are tuples ``(kind, payload)`` over a ``multiprocessing``
connection.

On a GPU a visit alternates two Hypothesis runs: *explore* draws from the
round's whole case space; *reuse* draws cases near those that already ran in
this process (``reuse.near``), whose kernels are compiled.  Exploring gets
``EXPLORE_SHARE`` of the visit's time, measured as it goes.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

# The share of a visit's time spent on cases drawn from the whole space (each
# new specialisation compiles); the rest checks cases among compiled ones.
EXPLORE_SHARE = 0.3
# Examples of one Hypothesis run in a timed visit, which then goes on in a
# new run: Hypothesis tunes how it generates (how much it mutates earlier
# examples) to its max_examples, and at millions it repeats near-identical
# cases; at its default of 100 it spreads them.
RUN_EXAMPLES = 100
# Cases drawn near come from at least this many explored ones: near one or
# two, a round would check one shape's values over and over.
MIN_POOL = 4


class _Refused(BaseException):
    """A case raised a refusal the campaign has reported already, or ran out of
    device memory: not a case."""


class _Over(BaseException):
    """Ends a Hypothesis run from inside its test: not an ``Exception``, so
    Hypothesis neither reports nor shrinks it."""


@dataclass
class Visit:
    round: tuple[str, str, str]
    seed: int
    until: float  # time.time() past which the visit ends, once it has min_cases
    deadline: float  # time.time() past which it ends whatever it has (the campaign's end)
    min_cases: int
    max_cases: int | None  # --examples: exactly this many generated cases
    seen: set[str] = field(default_factory=set)
    # Refusals inside the support already reported for this implementation and
    # dtype (``harness.refusal_key``): a case that raises one again is skipped.
    refusals: set[str] = field(default_factory=set)
    campaign: dict = field(default_factory=dict)  # harness.Campaign's fields
    keep_going: bool = False  # after a finding, go on drawing (another run)
    known: list = field(default_factory=list)  # with keep_going: (kinds, checks) found so far
    replay: bool = True  # check the round's saved failing cases first


def signature(case) -> str:
    """A case's identity: two draws of the same signature check the same thing."""
    return repr(case)


def shape_class(case) -> str:
    """A case without its values' seed: what it tests, whatever the numbers."""
    from dataclasses import replace

    return repr(replace(case, values=replace(case.values, seed=0)))


def coverage(case) -> dict:
    """What a case covers, as the summary's columns count it: its shape class,
    labels (the mask kinds among them), layouts and value family."""
    return {"shape": shape_class(case), "labels": case.labels(),
            "layouts": sorted({lay.name for lay in case.layouts().values()}),
            "family": case.values.family}


def finding_class(case) -> str | None:
    """A failing case's shape, mask and layouts without its values: two
    findings of one class (and kind and check) are taken for one bug."""
    from dataclasses import replace

    from ..model.values import Values

    return None if case is None else repr(replace(case, values=Values()))


class Worker:
    def __init__(self, conn, database: str | None, reuse: bool) -> None:
        from . import database as db
        from .reuse import Specialisations

        self.conn = conn
        self.db = db.open_database(database)
        self.reuse = reuse
        self.compiled = Specialisations()
        if reuse:
            self.compiled.install()
        self.warm: dict[tuple, list] = {}  # per round: passing cases whose kernels are compiled
        self.cancel = False

    def send(self, kind: str, payload: object = None) -> None:
        self.conn.send((kind, payload))

    def serve(self) -> None:
        while True:
            try:
                kind, payload = self.conn.recv()
            except (EOFError, OSError):
                return
            if kind == "stop":
                return
            if kind == "cancel":  # for a visit that has ended already
                continue
            try:
                if kind == "visit":
                    self.visit(Visit(**payload))
                elif kind == "dump":
                    self.send("dumped", str(_write_fault_dump(**payload)))
            except Exception:
                self.send("error", _logged_error())
            from ..checks import stateful
            from . import harness

            lost = harness.lost_context() or stateful.lost_context()
            if lost:
                # No kernel can run in this process any more: a new worker takes over.
                self.send("lost", lost)
                return
            self.send("idle")

    # --- one visit ---------------------------------------------------------------------

    def visit(self, v: Visit) -> None:
        from .. import checks

        impl, dtype, prop = v.round
        if checks.get(prop).sequences is not None:
            self._sequences(v)
            return
        stats = {"generated": 0, "exhausted": False}
        self.cancel = False
        if v.replay and self._replay_saved(v):
            self.send("visit_end", stats)
            return
        explore_time = reuse_time = 0.0
        mode = "explore"
        run = 0
        while True:
            pool = self.warm.setdefault(v.round, [])  # grows as explored cases pass
            t0 = time.monotonic()

            def switch(mode=mode, explore=explore_time, reused=reuse_time, t0=t0, pool=pool):
                return _switch(mode, explore, reused, t0, pool, self.reuse)

            before = stats["generated"]
            outcome = self._run(v, mode, list(pool), run, stats, switch)
            spent = time.monotonic() - t0
            if mode == "explore":
                explore_time += spent
            else:
                reuse_time += spent
            run += 1
            if outcome == "ran":
                # Hypothesis ran its examples: another run (another seed) goes on,
                # unless this one found nothing new (the space is exhausted).
                if stats["generated"] > before:
                    continue
                stats["exhausted"] = mode == "explore"
                break
            if outcome == "failed" and v.keep_going and not _over(v, stats["generated"]):
                continue  # a new run, with its own seed
            if outcome != "switch":
                break
            mode = "reuse" if mode == "explore" else "explore"
        self.send("visit_end", stats)

    def _replay_saved(self, v: Visit) -> bool:
        """Check the cases saved for this round first; True if one still fails."""
        from ..model.cases import from_json
        from . import database as db

        for record in db.saved_cases(self.db, v.round):
            try:
                case = from_json(record)
            except (KeyError, TypeError, ValueError):
                continue
            try:
                self._check(v, case, "saved", counted=True)
            except _Refused:
                continue
            except AssertionError as exc:
                self._report(v, exc, case, replayed=True)
                return True
            db.forget_case(self.db, v.round, record)
            v.seen.add(signature(case))
        return False

    def _run(self, v: Visit, mode: str, pool: list, run: int, stats: dict,
             switch: Callable[[], bool]) -> str:
        """One Hypothesis run; 'over' (time or cases), 'switch' (to the other mode),
        'ran' (Hypothesis ran all its examples), or 'failed'."""
        from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
        from hypothesis import seed as hseed
        from hypothesis.errors import Unsatisfiable

        from .. import checks, hypothesis_internals, implementations
        from . import harness, reuse

        impl_name, dtype, prop = v.round
        impl = implementations.get(impl_name)
        if mode == "explore":
            cases = checks.get(prop).cases(impl, dtype)
        else:
            limit = checks.get(prop).max_len
            if impl.support.max_seq is not None:
                limit = min(limit, impl.support.max_seq)
            cases = reuse.near(pool, limit)
        failing: list = []
        calls = [0]  # cases this Hypothesis run has checked
        skipped = [0]  # cases that raised a refusal reported already

        @hseed(checks.target_seed(v.seed, prop, impl_name, dtype) + 7919 * run)
        @settings(
            max_examples=v.max_cases - stats["generated"] if v.max_cases else RUN_EXAMPLES,
            deadline=None,
            database=None, derandomize=False, phases=(Phase.generate, Phase.target, Phase.shrink),
            suppress_health_check=list(HealthCheck), print_blob=False,
            report_multiple_bugs=v.keep_going, verbosity=Verbosity.quiet,
        )
        @given(cases)
        def fuzz(case):
            if not failing:
                if self._cancelled() or _over(v, stats["generated"]):
                    raise _Over("over")
                if switch():
                    raise _Over("switch")
            sig = signature(case)
            if sig in v.seen and not failing:
                return  # checked already (here or in another worker): not run, not counted
            try:
                self._check(v, case, mode, counted=not failing)
            except _Refused:
                skipped[0] += 1
                reject()  # invalid for Hypothesis: neither counted nor shrunk towards
            except AssertionError as exc:
                if not failing:  # a drawn case, checked: it counts, as the campaign counts it
                    v.seen.add(sig)
                    stats["generated"] += 1
                    if v.keep_going and _bug_key(exc) in v.known:
                        # A failure of a kind already found: counted, not shrunk again, and
                        # the run goes on (a new run would start again at the smallest
                        # cases, and find the same bug there first).
                        self.send("repeat", None)
                        return
                failing.append(case)
                exc.drawn = case  # each failure's own case, when Hypothesis reports several
                if v.keep_going:
                    _tell_apart(exc)
                raise
            if not failing:
                v.seen.add(sig)
                stats["generated"] += 1
                calls[0] += 1
                # Not a run's first case: Hypothesis' simplest (every length 1), which
                # no move can change, would fill the pool with one case's values.
                if mode == "explore" and self.reuse and calls[0] > 1:
                    self.warm.setdefault(v.round, []).append(case)

        try:
            with hypothesis_internals.distinct_draws():
                fuzz()
        except _Over as over:
            return str(over.args[0])
        except Unsatisfiable:
            if not skipped[0]:
                raise
            # Every case it drew raised what the campaign has reported already
            # (an implementation that crashes on every call): nothing is left
            # to check, and that is no error of the harness.
            return "ran"
        except Exception as exc:
            found = harness.failures_of(exc)
            if found is None:
                raise
            if harness.lost_context():
                # After a fault every call fails to run: only the fault, dumped, is a finding.
                found = [f for f in found if getattr(f, "dump", None)] or found[:1]
            last = failing[-1] if failing else None
            for failure in found:
                self._report(v, failure, getattr(failure, "drawn", last))
            return "failed"
        return "over" if _over(v, stats["generated"]) else "ran"

    def _cancelled(self) -> bool:
        """Whether the campaign has called this visit off (another worker found its bug)."""
        if self.conn.poll():
            kind, _ = self.conn.recv()
            if kind == "cancel":
                self.cancel = True
        return self.cancel

    def _check(self, v: Visit, case, mode: str, *, counted: bool) -> None:
        """Check one case, telling the campaign before and after; ``counted``:
        a generated case (not a shrink step or the final replay)."""
        from ..model.cases import to_json
        from . import harness

        impl_name, dtype, prop = v.round
        campaign = harness.Campaign(**v.campaign)
        self.send("start", {"case": to_json(case), "mode": mode})
        before = self.compiled.count
        recorder = harness.Recorder(impl_name, dtype)
        t0 = time.monotonic()
        outcome = {"signature": signature(case), **coverage(case), "mode": mode,
                   "description": case.describe(), "counted": counted}
        refused = False
        try:
            harness.check(prop, impl_name, case, recorder=recorder, campaign=campaign)
            outcome["passed"] = True
        except AssertionError as exc:
            outcome["passed"] = False
            # Out of device memory: the case against what the other workers on
            # this GPU hold now, not a finding; the memory this one cached goes
            # back for them.
            outcome["out_of_memory"] = getattr(exc, "out_of_memory", False)
            if outcome["out_of_memory"]:
                import torch

                torch.cuda.empty_cache()
            refused = outcome["out_of_memory"] or getattr(exc, "refusal", None) in v.refusals
            if not refused:
                raise
        finally:
            outcome.update(seconds=time.monotonic() - t0, compiles=self.compiled.count - before,
                           ratio=recorder.worst, check=recorder.check)
            if refused:  # reported already: timed, but neither a case nor a worst ratio
                outcome.update(counted=False, ratio=0.0, check="")
            self.send("case", outcome)
        if refused:
            raise _Refused

    def _report(self, v: Visit, failure: BaseException, case, replayed: bool = False) -> None:
        from ..model.cases import to_json
        from . import database as db
        from . import harness

        v.known.append(_bug_key(failure))
        if getattr(failure, "dump", None) is not None and case is not None and not replayed:
            db.save_case(self.db, v.round, to_json(case))
        record = harness.finding_record(failure, replayed)
        record.update(checks=list(getattr(failure, "checks", None) or []),
                      shape=finding_class(case))
        self.send("finding", record)
        if getattr(failure, "refusal", None):
            v.refusals.add(failure.refusal)

    def _sequences(self, v: Visit) -> None:
        """A property of call sequences runs its own state machine: ``examples``
        calls' worth of sequences, its failure dumped as ``sequence.json``."""
        from .. import checks, hypothesis_internals
        from ..checks import stateful
        from ..model.cases import to_json
        from . import harness

        impl, dtype, prop = v.round
        examples = v.max_cases or RUN_EXAMPLES * checks.STATEFUL_STEPS
        calls, failed = [0], []
        # What the calls covered, for the summary's columns as a round of cases fills them.
        seen: dict[str, set] = {"shapes": set(), "labels": set(), "layouts": set(),
                                "families": set()}

        def step(event: str, case) -> None:  # each call of a sequence is timed as a case is
            if event == "failure":
                failed.append(case)
                return
            if v.max_cases is None and not failed and _over(v, calls[0]):
                hypothesis_internals.cut_off()  # mid-sequence: see cut_off
                raise _Over("over")  # a timed visit ends between calls
            calls[0] += 1
            covered = coverage(case)
            seen["shapes"].add(covered["shape"])
            seen["labels"].update(covered["labels"])
            seen["layouts"].update(covered["layouts"])
            if covered["family"]:
                seen["families"].add(covered["family"])
            self.send("start", {"case": to_json(case), "mode": "sequence"})

        self.send("start", {"case": None, "mode": "sequence"})
        stateful.STEP_HOOKS.append(step)
        t0 = time.monotonic()
        try:
            checks.get(prop).sequences(impl, dtype, examples,
                                       checks.target_seed(v.seed, prop, impl, dtype))
        except _Over:
            pass
        except Exception as exc:
            failures = harness.failures_of(exc)
            if failures is None:
                raise
            self.send("finding", harness.finding_record(failures[0]))
        finally:
            stateful.STEP_HOOKS.remove(step)
            self.send("case", {"signature": None, "shape": None, "mode": "sequence",
                               "labels": sorted(seen["labels"]), "layouts": sorted(seen["layouts"]),
                               "family": None, "shapes": sorted(seen["shapes"]),
                               "families": sorted(seen["families"]), "calls": calls[0],
                               "seconds": time.monotonic() - t0, "compiles": 0, "ratio": 0.0,
                               "check": "", "passed": True, "description": ""})
        self.send("visit_end", {"generated": calls[0], "exhausted": False})


def _logged_error() -> str:
    """The exception being handled, as a traceback, written to this worker's
    log too: the campaign's error line names the log, and shows only its last line."""
    text = traceback.format_exc()
    print(text, file=sys.stderr)
    return text


def _bug_key(failure: BaseException) -> tuple:
    """A failure's kinds and the checks that failed: with ``--keep-going``, a
    drawn case failing in a way already found is not shrunk again."""
    return (tuple(getattr(failure, "kinds", None) or ["wrong"]),
            tuple(getattr(failure, "checks", None) or ()))


_ORIGINS: dict[tuple, type] = {}


def _origin(base: type, key: tuple) -> type:
    """A subclass of ``base`` standing for one kind of failure (see ``_bug_key``)."""
    if (base, key) not in _ORIGINS:
        _ORIGINS[base, key] = type(base.__name__, (base,), {"__module__": base.__module__})
    return _ORIGINS[base, key]


def _tell_apart(exc: BaseException) -> None:
    """Give ``exc`` a type of its own kind of failure: Hypothesis tells failures
    apart by exception type, so shrinking one never slips into another already
    found.  A built-in exception's type cannot be changed: it stays one kind."""
    try:
        exc.__class__ = _origin(type(exc), _bug_key(exc))
    except TypeError:
        pass


def _over(v: Visit, generated: int) -> bool:
    if v.max_cases is not None:
        return generated >= v.max_cases
    now = time.time()
    return now >= v.deadline or (now >= v.until and generated >= v.min_cases)


def _switch(mode: str, explore: float, reuse: float, start: float, pool: list,
            enabled: bool) -> bool:
    """Whether a visit turns to its other kind of draw: exploring keeps
    ``EXPLORE_SHARE`` of the visit's time, and reuse needs cases that ran."""
    if not enabled:
        return False
    spent = time.monotonic() - start
    if mode == "explore":
        explore += spent
    else:
        reuse += spent
    total = explore + reuse
    if mode == "explore":
        return len(pool) >= MIN_POOL and explore > EXPLORE_SHARE * total
    return explore < EXPLORE_SHARE * total


def _write_fault_dump(prop: str, implementation: str, case: dict, error: str,
                      campaign: dict) -> object:
    """Dump a case that hung or killed its worker (that worker cannot)."""
    from ..model.cases import from_json
    from . import harness

    return harness.write_dump(prop, implementation, from_json(case), [],
                              campaign=harness.Campaign(**campaign),
                              fault=harness.CampaignFault(error))


def prepare() -> None:
    """Import what a first call would, outside any call's time limit.  The
    campaign calls it before forking its workers too."""
    from . import load_package

    load_package()  # as the command did: the same pool of constants, the same draws


def main(conn, database: str | None, reuse: bool, shrink_seconds: float | None,
         threads: int, log: str) -> None:
    """A worker's life: its output to ``log`` (the campaign owns the terminal),
    Ctrl-C left to the campaign, then visits until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the campaign
    import torch

    from .. import hypothesis_internals

    # Each worker's torch (the float64 oracle on the CPU) gets its share of the
    # host's cores.  On the interpreter that is one: a forked child must not
    # enter OpenMP at all if its parent had a thread pool (libgomp's pool does
    # not survive fork, and the child's first parallel region hangs).
    torch.set_num_threads(threads)

    prepare()
    if shrink_seconds is not None:
        hypothesis_internals.bound_shrinking(shrink_seconds)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    sys.stdout = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
    # A fatal signal's Python stack goes to the log too, not to the terminal
    # a parent's fault handler (pytest's, say) had opened.
    faulthandler.enable(file=sys.stderr)
    try:
        Worker(conn, database, reuse).serve()
    except Exception:
        conn.send(("error", _logged_error()))
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        conn.close()
