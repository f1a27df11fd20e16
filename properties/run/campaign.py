"""``attnfuzz run``'s campaign: rounds shared among worker processes by time.

A *round* is one (implementation, dtype, property).  The campaign keeps
``jobs`` workers (``worker.py``) busy with *visits* to rounds and never runs
the code under test itself, so that nothing that code does can stop it:

* a call past its time limit (``case_limit``) is a ``hang`` finding: the
  worker is killed, a new one dumps the case, and the campaign goes on;
* a worker that dies inside a call (a segfault, ``os._exit``, ``sys.exit``)
  is a ``crash`` finding, dumped the same way;
* Ctrl-C ends the workers, prints the summary and every dump, and exits 130.

How the time is spent: rounds start in priority order (every
implementation's oracle first), each only if the time left affords
``MIN_CASES`` of its cases (estimated from the rounds that ran); a started
round's first visit runs until it has ``MIN_CASES`` distinct cases, and a
worker with no round to start joins the one with fewest workers.  The
time left is then shared equally among the live rounds, a visit at a time,
to the round that has had the least.  A visit is one continuing Hypothesis
run, so a round restarts at Hypothesis' simplest case once per visit, not
once per few examples, and cases a round has already checked (in any
worker) are skipped and never counted.  With ``--examples N`` every round
gets exactly N distinct generated cases in one visit, so ``--examples N
--seed S`` draws the same cases again.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import shlex
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path

Round = tuple[str, str, str]  # (implementation, dtype, property)

# Distinct cases every started round gets: compiled kernels make a case cost
# milliseconds once its specialisation is compiled; the interpreter's cases
# cost a hundred times more, and a one-minute campaign on two cores must
# still reach every implementation.
MIN_CASES = {"gpu": 20, "interpreter": 5}
# A round starts only while its estimated cost of MIN_CASES fits the time
# left, but the estimate comes from other rounds (their compiles, sizes): a
# first visit still short of MIN_CASES at the end may run on for this share
# of the budget to reach it.
FIRST_VISIT_GRACE = 0.25
# A call's time limit is this many times the slowest call its round has run:
# within a round, sizes differ by a few times and a compile sits inside the
# first call of each specialisation, so a correct call stays far inside it.
SLOWEST_TIMES = 10
# ... but never under this (a first compile in a fresh worker, a shrink step
# meeting a new specialisation) ...
MIN_CASE_LIMIT = 30.0
# ... and before the round has run a call, or past it, at most this or the
# campaign's budget, whichever is less: a hang then ends within the budget
# after it began, so the summary comes within twice the budget.
MAX_CASE_LIMIT = 300.0
# Property order for starting rounds: what every implementation needs first.
PRIORITY = ("oracle", "agree", "gradients", "serving", "softmax_invariants", "bad_out",
            "mixed_dtypes", "bad_shapes", "bad_options", "bad_metadata", "bad_serving_out",
            "refuses",
            "metamorphic",
            "shift_invariance",
            "gradient_relations", "gradients_agree", "stateful")
# Before a round of a kind has run, assume a case costs this (seconds).
PRIOR_COST = {"gpu": 2.0, "interpreter": 1.0}
# A worker that dies before its first message this many times in a row is
# not restarted again: it cannot even start here.
MAX_START_FAILURES = 3
# How workers start: forked on the interpreter (at once, with the parent's
# imports; its fakes and registrations too); spawned on a GPU, where a fork
# after CUDA was touched cannot use CUDA.
START_METHOD = {"interpreter": "fork", "gpu": "spawn"}
# Without a terminal, a progress line at most this often (seconds); on one,
# the line is rewritten in place at most this often.
PLAIN_PROGRESS_EVERY = 10.0
TTY_PROGRESS_EVERY = 0.25


@dataclass
class Plan:
    rounds: list[Round]
    jobs: int
    seconds: float | None  # the budget; None with examples
    examples: int | None
    seed: int
    where: str  # the backend: "gpu" or "interpreter"
    dump_dir: Path | None = None
    shrink_seconds: float | None = None
    case_timeout: float | None = None
    database: str | None = None
    keep_going: bool = False  # a finding does not end its pair: rounds go on


@dataclass
class RoundState:
    key: Round
    order: int
    signatures: set[str] = field(default_factory=set)
    shapes: set[str] = field(default_factory=set)
    masks: set[str] = field(default_factory=set)
    layouts: set[str] = field(default_factory=set)
    families: set[str] = field(default_factory=set)
    cases: int = 0  # distinct generated cases
    reused: int = 0  # of them, drawn among compiled specialisations
    compiles: int = 0
    calls: int = 0
    seconds: float = 0.0  # in calls
    compiling: float = 0.0  # of them, in calls that compiled or loaded a kernel
    slowest: float | None = None
    committed: float = 0.0  # time given to its visits
    visits: int = 0
    busy: int = 0  # visits in progress
    ended: int = 0  # visits over
    started: bool = False
    done: bool = False  # failed, exhausted, or (with examples) visited
    worst: float = 0.0
    check: str = ""
    worst_case: str = ""
    findings: list[dict] = field(default_factory=list)  # one per signature
    repeats: int = 0  # findings again of a signature already found (not reported twice)
    out_of_memory: int = 0  # cases skipped: a call ran out of device memory
    errors: list[str] = field(default_factory=list)

    @property
    def cost(self) -> float | None:
        return self.seconds / self.calls if self.calls else None


@dataclass
class Slot:
    """One worker process and what it is doing."""

    index: int
    process: object = None
    conn: object = None
    round: RoundState | None = None
    inflight: dict | None = None  # the call it is in: its case, when it began
    began: float = 0.0
    ready: bool = False  # waiting for a visit
    heard: bool = False  # has sent anything since it started
    spawned: float = 0.0  # time.monotonic() when it started
    pending_dump: dict | None = None  # a finding whose case it must dump first


class Campaign:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.rounds = [RoundState(k, i) for i, k in enumerate(_prioritised(plan.rounds))]
        self.by_key = {r.key: r for r in self.rounds}
        self.start = time.monotonic()
        self.deadline = math.inf  # set once the workers are up
        self.min_cases = MIN_CASES[plan.where]
        self.logs = Path(tempfile.mkdtemp(prefix="attnfuzz-workers-"))
        self.slots: list[Slot] = []
        self.start_failures = 0
        self.starting = 0.0  # workers' seconds from their start to their first message
        self.errors: list[str] = []
        # (implementation, dtype) -> refusals inside its support reported (``harness.Finding``)
        self.refusals: dict[tuple[str, str], set[str]] = {}
        self.interrupted = False
        self.tty = sys.stdout.isatty()
        self.last_progress = 0.0
        reuse = plan.where == "gpu"
        self.context = multiprocessing.get_context(START_METHOD[plan.where])
        threads = 1 if plan.where == "interpreter" else max(1, cores() // plan.jobs)
        self.worker_args = (plan.database, reuse, plan.shrink_seconds, threads)
        self.gpus = _gpu_count() if plan.where == "gpu" else 0
        self.found: dict[tuple, dict] = {}  # finding signature -> its first finding

    # --- workers -------------------------------------------------------------------------

    def _spawn(self, slot: Slot) -> None:
        from . import worker

        parent, child = self.context.Pipe()
        log = str(self.logs / f"worker-{slot.index}.log")
        saved = os.environ.get("CUDA_VISIBLE_DEVICES")
        if self.gpus > 1:  # workers spread over the host's GPUs
            os.environ["CUDA_VISIBLE_DEVICES"] = str(slot.index % self.gpus)
        # Ctrl-C waits until the worker is the slot's: interrupted between its
        # start and here, the campaign would not know to stop it; and the child,
        # which inherits the blocked signal, ignores it before unblocking it
        # (``worker.main``) instead of dying with a traceback on the terminal.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            try:
                process = self.context.Process(
                    target=worker.main, name=f"attnfuzz-worker-{slot.index}",
                    args=(child, *self.worker_args, log), daemon=True)
                process.start()
            finally:
                if self.gpus > 1:
                    _restore("CUDA_VISIBLE_DEVICES", saved)
            child.close()
            slot.process, slot.conn, slot.spawned = process, parent, time.monotonic()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        slot.round, slot.inflight, slot.ready, slot.heard = None, None, False, False

    def _kill(self, slot: Slot) -> None:
        if slot.process is not None and slot.process.is_alive():
            slot.process.kill()
            slot.process.join(5)
        if slot.conn is not None:
            slot.conn.close()
        slot.process = slot.conn = None

    # --- scheduling ------------------------------------------------------------------------

    def _estimate(self, r: RoundState) -> float:
        """Seconds a case of ``r`` costs: its own mean, else the worst of its
        property's and its implementation's rounds (a case's cost comes from
        both: the calls a property makes, the kernels an implementation
        compiles), else anything's, else a prior."""
        if r.cost is not None:
            return r.cost
        kin = [o.cost for o in self.rounds if o.cost is not None
               and (o.key[2] == r.key[2] or o.key[0] == r.key[0])]
        if kin:
            return max(kin)
        known = [o.cost for o in self.rounds if o.cost is not None]
        return max(known) if known else PRIOR_COST[self.plan.where]

    def _next_visit(self, slot: Slot) -> dict | None:
        live = [r for r in self.rounds if not r.done]
        if self.plan.examples is not None:
            for r in live:
                if not r.started and self._pair_free(r):
                    return self._visit(slot, r, math.inf)
            return None
        left = self.deadline - time.time()
        if left <= 0 or not live:
            return None
        first = not any(r.started for r in self.rounds)
        for r in live:
            if not r.started and self._pair_free(r) and (
                    first or self.min_cases * self._estimate(r) <= left):
                # Its first visit ends at MIN_CASES, while rounds wait to start.
                return self._visit(slot, r, 0.0)
        # Joined once its first visit is over: before that, a second worker
        # may find (and shrink) the first one's bug again ...
        started = [r for r in live if r.started and r.ended]
        if not started:
            # ... but a worker idle until then (one round, or every startable
            # pair in its first visit) costs more: it compiles its own share
            # of specialisations meanwhile, and a bug found twice is reported
            # once (``_finding``).
            started = [r for r in live if r.started]
            if not started:
                return None
            r = min(started, key=lambda o: (o.busy, o.order))
            return self._visit(slot, r, self._fair(live, left))
        r = min(started, key=lambda o: (o.busy > 0, o.committed, o.order))
        return self._visit(slot, r, self._fair(live, left))

    def _pair_free(self, r: RoundState) -> bool:
        """No other round of r's (implementation, dtype) is in its first visit:
        first visits find the cheap bugs, and a pair's first failure ends it, so
        two at once would find and shrink one bug twice."""
        return not any(o.busy and not o.ended for o in self.rounds if o.key[:2] == r.key[:2])

    def _fair(self, live: list[RoundState], left: float) -> float:
        """A visit's share: the time left, over the live rounds, on every worker."""
        return max(1.0, left * len(self.slots) / max(1, len(live)))

    def _visit(self, slot: Slot, r: RoundState, share: float) -> dict:

        now = time.time()
        until = min(now + share, self.deadline)
        r.committed += min(share, max(0.0, self.deadline - now))
        min_cases = self.min_cases if not r.started else 1
        first = not r.started
        r.started = True
        r.visits += 1
        r.busy += 1
        if self.plan.examples is not None:
            r.done = True  # one visit of exactly ``examples`` cases
        slot.round, slot.ready = r, False
        seed = self.plan.seed + 104729 * (r.visits - 1) if not first else self.plan.seed
        return {
            "round": r.key, "seed": seed, "until": until,
            "deadline": self.deadline + (FIRST_VISIT_GRACE * (self.plan.seconds or 0.0)
                                         if first else 0.0),
            "min_cases": min_cases,
            "max_cases": self.plan.examples, "seen": set(r.signatures),
            "refusals": set(self.refusals.get(r.key[:2], ())),
            "campaign": self._campaign_fields(r.key, seed),
            # Going on after a finding, a visit goes on after it too; the saved
            # cases, replayed first, would only find it again.
            "keep_going": self.plan.keep_going, "replay": not r.findings,
            "known": [(tuple(f["kinds"]), tuple(f.get("checks") or ())) for f in r.findings],
        }

    def _campaign_fields(self, key: Round, seed: int) -> dict:
        impl, dtype, prop = key
        where = self.plan.where
        examples = self.plan.examples or self.min_cases
        again = (f"attnfuzz --backend {where} run --impl {shlex.quote(impl)} --dtype {dtype} "
                 f"--property {prop} --examples {examples} --seed {seed}")
        return {"seed": seed, "reproduce": again, "campaign_seed": self.plan.seed,
                "dump_dir": self.plan.dump_dir}

    def case_limit(self, r: RoundState | None) -> float:
        """How long one call of ``r`` may run before it is a hang (see the constants)."""
        if self.plan.case_timeout is not None:
            return self.plan.case_timeout
        top = MAX_CASE_LIMIT if self.plan.seconds is None else min(MAX_CASE_LIMIT,
                                                                   self.plan.seconds)
        if r is None or r.slowest is None:
            return max(top, MIN_CASE_LIMIT)
        return min(max(top, MIN_CASE_LIMIT), max(MIN_CASE_LIMIT, SLOWEST_TIMES * r.slowest))

    # --- messages ------------------------------------------------------------------------

    def _receive(self, slot: Slot, kind: str, payload: object) -> None:
        if not slot.heard:
            self.starting += time.monotonic() - slot.spawned
        slot.heard = True
        self.start_failures = 0
        r = slot.round
        if kind == "start":
            slot.inflight, slot.began = payload, time.monotonic()
        elif kind == "case":
            slot.inflight = None
            self._count(r, payload)
        elif kind == "finding":
            self._finding(r, payload)
        elif kind == "repeat" and r is not None:
            r.repeats += 1
        elif kind == "visit_end":
            if r is not None:
                r.busy -= 1
                r.ended += 1
                if payload.get("exhausted"):
                    r.done = True
        elif kind == "dumped":
            finding, slot.pending_dump = slot.pending_dump, None
            if finding is not None:
                finding["dump"] = payload
                self._finding(finding.pop("round"), finding)
        elif kind == "idle":
            slot.round, slot.ready = None, True
        elif kind == "error":
            where = "/".join(r.key) if r is not None else "a worker"
            first = payload.strip().splitlines()[-1] if payload.strip() else "?"
            self.errors.append(f"{where}: harness error: {first} (log: {self.logs})")
            if r is not None:
                r.errors.append(first)
                r.done = True
        elif kind == "lost":
            slot.ready = False  # it exits; a new worker takes its place

    def _count(self, r: RoundState | None, outcome: dict) -> None:
        if r is None:
            return
        r.calls += outcome.get("calls", 1)
        r.out_of_memory += bool(outcome.get("out_of_memory"))
        r.seconds += outcome["seconds"]
        r.compiling += outcome["seconds"] if outcome["compiles"] else 0.0
        r.slowest = max(r.slowest or 0.0, outcome["seconds"])
        r.compiles += outcome["compiles"]
        if outcome["ratio"] > r.worst:
            r.worst, r.check, r.worst_case = (outcome["ratio"], outcome["check"],
                                              outcome["description"])
        sig = outcome["signature"]
        if outcome.get("mode") == "sequence":  # its calls' coverage, gathered by the worker
            r.cases += outcome["calls"]
            r.shapes.update(outcome.get("shapes", ()))
            r.masks.update(label for label in outcome["labels"] if label.startswith("mask: "))
            r.layouts.update(outcome["layouts"])
            r.families.update(outcome.get("families", ()))
            return
        if not outcome.get("counted", True) or sig in r.signatures:
            return
        r.signatures.add(sig)
        r.cases += 1
        r.reused += outcome["mode"] == "reuse"
        r.shapes.add(outcome["shape"])
        r.masks.update(label for label in outcome["labels"] if label.startswith("mask: "))
        r.layouts.update(outcome["layouts"])
        if outcome["family"]:
            r.families.add(outcome["family"])

    def _finding(self, r: RoundState, finding: dict) -> None:
        refusal = finding.get("refusal")
        known = self.refusals.setdefault(r.key[:2], set())
        if refusal and refusal in known:
            # Reported already: by a round that cannot skip such cases (a sequence
            # of calls draws them again), or by another worker at the same time.
            # Its search would meet it again and again: it is done.
            r.done = True
            return
        sig = finding_signature(r.key, finding)
        failed = not self.plan.keep_going and any(
            not f.get("refusal") for o in self.rounds if o.key[:2] == r.key[:2]
            for f in o.findings)
        if sig in self.found or failed:
            # The same bug again (going on after findings, or found by two workers
            # of one round at once), or a pair's second failure, from a worker
            # that found it before it heard that the pair had ended: counted, not
            # reported or dumped twice.  Two workers shrinking one bug may stop at
            # different minimal cases, so without --keep-going any finding after
            # the pair's first is one of these.
            r.repeats += 1
            dump = finding.get("dump")
            kept = {f.get("dump") for f in self.found.values()}
            if dump and dump not in kept and self.plan.dump_dir is not None \
                    and Path(dump).parent == Path(self.plan.dump_dir):
                shutil.rmtree(dump, ignore_errors=True)  # written by this campaign just now
            return
        self.found.setdefault(sig, finding)
        r.findings.append(finding)
        worst = finding.get("worst")
        if worst:  # the worst check names the case that was dumped, not a shrink step's
            r.worst, r.check, r.worst_case = worst["ratio"], worst["check"], worst["case"]
        # The header and its second line: a crash's, hang's or broken contract's
        # error, or a wrong answer's first failing check (the element, in the
        # function's own layout, got and want): what the user needs first.
        shown = finding["message"].splitlines()[:2]
        self._say("\n".join(shown) or "finding", err=True)
        if refusal:
            # An exception on a case inside the declared support: a limit the
            # declaration misses, or a bug.  Once is enough to say so; the pair's
            # other cases, and its other properties, still find what else is wrong.
            known.add(refusal)
            self._say("  the campaign goes on, skipping cases that raise this again; if it is "
                      "a limit of the implementation, declare it (--supports)", err=True)
            return
        if self.plan.keep_going:
            return
        # A pair that has failed is done: its other properties would find and dump it again,
        # and so would other workers' visits to it, which end now.
        for o in self.rounds:
            if o.key[:2] == r.key[:2]:
                o.done = True
        for slot in self.slots:
            if slot.round is not None and slot.round.key[:2] == r.key[:2] and slot.conn:
                if slot.inflight is not None:
                    slot.round.busy -= 1
                    self._restart(slot)
                else:
                    try:
                        slot.conn.send(("cancel", None))
                    except OSError:  # it has ended already: its last messages still wait
                        pass

    def _fault(self, slot: Slot, kind: str, why: str) -> None:
        """A call seen from outside: it hung (killed) or its worker died in it."""
        from ..implementations import short_name

        r, inflight = slot.round, slot.inflight
        self._kill(slot)
        if r is None:
            self.errors.append(f"a worker died between visits ({why}; log: {self.logs})")
            self._spawn(slot)
            slot.ready = True
            return
        r.busy = max(0, r.busy - 1)
        who = short_name(r.key[0])  # as the in-process findings' headers name it
        if inflight is None or inflight.get("case") is None:
            what = "a call sequence" if inflight is not None else "between calls"
            self._finding(r, {"kinds": [kind], "dump": None, "replayed": False,
                              "message": f"{r.key[2]}: {who} {why} in {what}\n  "
                                         f"rerun: {self._campaign_fields(r.key, 0)['reproduce']}"})
            self._spawn(slot)
            slot.ready = True
            return
        from ..model.cases import from_json
        from . import worker

        case = from_json(inflight["case"])
        message = (f"{r.key[2]}: {who} {why} on: {case.describe()}\n"
                   f"  {'CampaignFault: ' + why}")
        self._spawn(slot)
        slot.pending_dump = {"round": r, "kinds": [kind], "message": message, "replayed": False,
                             "shape": worker.finding_class(case),
                             "worst": {"ratio": math.inf, "check": kind,
                                       "case": case.describe()}}
        slot.conn.send(("dump", {"prop": r.key[2], "implementation": r.key[0],
                                 "case": inflight["case"], "error": why,
                                 "campaign": self._campaign_fields(r.key, self.plan.seed)}))

    # --- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        try:
            if self.plan.where == "interpreter":
                from . import worker

                worker.prepare()  # once, for every forked worker
            self.slots = [Slot(i) for i in range(self.plan.jobs)]
            for slot in self.slots:
                self._spawn(slot)
                slot.ready = True
            self.start = time.monotonic()
            if self.plan.seconds is not None:
                self.deadline = time.time() + self.plan.seconds
            self._loop()
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            for slot in self.slots:
                if slot.conn is not None and slot.process is not None and slot.process.is_alive():
                    try:
                        slot.conn.send(("stop", None))
                    except OSError:
                        pass
            for slot in self.slots:
                if slot.process is not None:
                    slot.process.join(0.5 if not self.interrupted else 0)
                self._kill(slot)
        status = self.summary()
        if not self.errors:
            shutil.rmtree(self.logs, ignore_errors=True)
        return 130 if self.interrupted else status

    def _loop(self) -> None:
        while True:
            for slot in self.slots:
                if slot.ready and slot.pending_dump is None:
                    visit = self._next_visit(slot)
                    if visit is not None:
                        slot.conn.send(("visit", visit))
            busy = [s for s in self.slots if not s.ready or s.pending_dump is not None]
            if not busy:
                return
            self._progress()
            timeout = 1.0
            now = time.monotonic()
            for s in busy:
                if s.inflight is not None:
                    timeout = min(timeout, max(0.0, s.began + self.case_limit(s.round) - now))
            wait([s.conn for s in busy], timeout=timeout)
            for s in busy:
                # Every slot's messages first, whether or not ``wait`` saw them:
                # handling another slot may have taken a while.
                try:
                    while s.conn is not None and s.conn.poll():
                        kind, payload = s.conn.recv()
                        self._receive(s, kind, payload)
                        if kind == "lost":  # it can run no kernel now
                            self._restart(s)
                except (EOFError, OSError):
                    self._died(s)
                    continue
                limit = self.case_limit(s.round)
                if s.inflight is not None and time.monotonic() - s.began > limit:
                    self._fault(s, "hang", f"ran past the {limit:g} s time limit of a call")

    def _restart(self, slot: Slot) -> None:
        self._kill(slot)
        self._spawn(slot)
        slot.ready = True

    def _died(self, slot: Slot) -> None:
        process = slot.process
        if process is not None:
            process.join(5)
        code = process.exitcode if process is not None else None
        why = (f"killed its worker (signal {-code})" if code is not None and code < 0
               else f"ended its worker (exit code {code})")
        if not slot.heard:
            self.start_failures += 1
            if self.start_failures >= MAX_START_FAILURES:
                raise RuntimeError(f"attnfuzz workers die as they start ({why}); "
                                   f"see {self.logs}")
        if slot.pending_dump is not None:  # the worker dumping a case died too
            finding, slot.pending_dump = slot.pending_dump, None
            self._finding(finding.pop("round"), finding)
            self._kill(slot)
            self._spawn(slot)
            slot.ready = True
            return
        self._fault(slot, "crash", why)

    # --- output ------------------------------------------------------------------------

    def _say(self, text: str, err: bool = False) -> None:
        if self.tty:
            sys.stdout.write("\r\033[K")
        print(text, file=sys.stderr if err else sys.stdout, flush=True)

    def _progress(self) -> None:
        now = time.monotonic()
        if now - self.last_progress < (TTY_PROGRESS_EVERY if self.tty else PLAIN_PROGRESS_EVERY):
            return
        self.last_progress = now
        cases = sum(r.cases for r in self.rounds)
        started = sum(r.started for r in self.rounds)
        elapsed = now - self.start
        if self.plan.seconds is not None:
            done = min(elapsed / self.plan.seconds, 1.0)
        else:
            done = sum(r.done for r in self.rounds) / max(1, len(self.rounds))
        line = (f"{_bar(done)} {cases} cases, {cases / max(elapsed, 1e-9):.1f}/s, "
                f"{started}/{len(self.rounds)} rounds started, {self.plan.jobs} workers")
        if self.tty:
            sys.stdout.write("\r\033[K" + line)
            sys.stdout.flush()
        else:
            print(line, flush=True)

    def summary(self) -> int:
        from ...reference.verdict import FINDINGS
        from ..implementations import declarations, display_names

        if self.tty:
            sys.stdout.write("\r\033[K")
        elapsed = time.monotonic() - self.start
        print()
        rows = [r for r in self.rounds if r.started]
        label = display_names(r.key[0] for r in self.rounds)
        for line in declarations(label):  # once, not in every row
            print(line)
        w = max([16, *(len(label[r.key[0]]) + 2 for r in rows)])
        pw = max([10, *(len(r.key[2]) + 2 for r in rows)])
        print(f"{'implementation':<{w}}{'dtype':<10}{'cases':>6}{'fail':>6}{'worst':>9}"
              f"{'shapes':>8}{'masks':>6}{'layouts':>8}{'values':>7}{'reused':>8}"
              f"{'compiles':>9}  {'property':<{pw}}worst check")
        for r in rows:
            reused = f"{100 * r.reused / r.cases:.0f}%" if r.cases else "-"
            print(f"{label[r.key[0]]:<{w}}{r.key[1]:<10}{r.cases:>6}{len(r.findings):>6}"
                  f"{r.worst:>9.3g}{len(r.shapes):>8}{len(r.masks):>6}{len(r.layouts):>8}"
                  f"{len(r.families):>7}"
                  f"{reused:>8}{r.compiles:>9}  {r.key[2]:<{pw}}{r.check}")
        print(LEGEND)
        unstarted = [r for r in self.rounds if not r.started]
        if unstarted:
            reason = "interrupted" if self.interrupted else (
                "a pair failed first" if all(r.done for r in unstarted) else
                "the budget ran out before they could get "
                f"{self.min_cases} cases each")
            by_impl: dict[str, list[str]] = {}
            for r in unstarted:
                by_impl.setdefault(label[r.key[0]], []).append(f"{r.key[1]}/{r.key[2]}")
            print(f"not started ({reason}): " + "; ".join(
                f"{shown}: {', '.join(pairs)}" for shown, pairs in by_impl.items()))
        for e in self.errors:
            print(f"error: {e}")
        skipped = sum(r.out_of_memory for r in self.rounds)
        if skipped:
            print(f"skipped: {skipped} case{'s' if skipped > 1 else ''} that ran out of device "
                  f"memory ({len(self.slots)} workers share it; fewer --jobs leave each more)")
        print(self._time_spent(elapsed))
        findings = [f for r in self.rounds for f in r.findings]
        for f in findings:
            if f.get("dump"):
                d = f["dump"]
                print(f"dump: {d}  (attnfuzz replay {shlex.quote(d)})")
        kinds = [k for f in findings for k in f["kinds"]]
        if kinds:
            counted = ", ".join(f"{kinds.count(k)} {k} ({FINDINGS.get(k, k)})"
                                for k in dict.fromkeys(kinds))
            repeats = sum(r.repeats for r in self.rounds)
            again = f"; {repeats} found again, not dumped twice" if repeats else ""
            print(f"findings: {counted}{again}")
        failing = len({r.key[:2] for r in self.rounds if r.findings})
        cases = sum(r.cases for r in self.rounds)
        if self.interrupted:
            print("interrupted: the summary holds what ran before Ctrl-C")
        print(f"{cases} cases in {elapsed:.0f}s, {failing} failing implementation/dtype "
              f"pair{'' if failing == 1 else 's'}; seed {self.plan.seed}")
        print(self._next_step(findings))
        # A round the harness failed in checked less than it says: never a clean exit.
        return 1 if failing else 3 if self.errors else 0

    def _time_spent(self, elapsed: float) -> str:
        """Where the workers' time went: what bounds the cases a second."""
        total = max(len(self.slots) * elapsed, 1e-9)
        compiling = sum(r.compiling for r in self.rounds)
        calls = sum(r.seconds for r in self.rounds) - compiling
        rest = max(0.0, total - self.starting - compiling - calls)
        share = [100 * x / total for x in (self.starting, compiling, calls, rest)]
        # Compiles are counted on a GPU only (the interpreter compiles nothing).
        compiled = (f"{share[1]:.0f}% in calls that compiled a kernel, {share[2]:.0f}% in other "
                    "calls" if compiling else f"{share[2]:.0f}% in calls")
        return (f"time: {len(self.slots)} workers x {elapsed:.0f} s: {share[0]:.0f}% starting, "
                f"{compiled}, {share[3]:.0f}% drawing, shrinking or waiting")

    def _next_step(self, findings: list[dict]) -> str:
        """The summary's last line: what to do now."""
        dumped = [f["dump"] for f in findings if f.get("dump")]
        if dumped:
            d = shlex.quote(dumped[0])
            return (f"next: attnfuzz replay {d} (reruns it; exits 0 once fixed), or "
                    f"attnfuzz replay {d} --export repro.py (a standalone script to report it)")
        if self.interrupted or any(not r.started for r in self.rounds):
            return "next: a longer --seconds reaches the rounds not started"
        if all(":" not in r.key[0] for r in self.rounds):
            return ("next: fuzz your own attention function: attnfuzz run --impl "
                    "my_attention.py:my_attention --convention flash_attn (see the README)")
        return "next: a longer --seconds, or --seed N for other cases"


LEGEND = (
    "cases: distinct cases checked (duplicates are not run); fail: findings; worst: the "
    "largest error/bound (over 1 fails);\nshapes: distinct cases apart from their values; "
    "masks: distinct mask kinds (none, causal either way, windows);\nlayouts, values: "
    "distinct memory layouts and value families; reused: cases drawn among compiled "
    "specialisations;\ncompiles: kernels compiled or loaded; worst check: the output that "
    "came nearest its bound"
)


def finding_signature(key: Round, finding: dict) -> tuple:
    """What makes two findings one bug for ``--keep-going``: the round, the
    kinds, the checks that failed and the shape class of the (shrunk) case."""
    return (key, tuple(finding["kinds"]), tuple(finding.get("checks") or ()),
            finding.get("shape"))


def _bar(done: float, width: int = 24) -> str:
    filled = int(round(done * width))
    return "[" + "#" * filled + "." * (width - filled) + f"] {100 * done:5.1f}%"


def _prioritised(rounds: list[Round]) -> list[Round]:
    """Rounds in starting order: by property (``PRIORITY``), then as given."""
    rank = {p: i for i, p in enumerate(PRIORITY)}
    return sorted(rounds, key=lambda k: (rank.get(k[2], len(rank)), rounds.index(k)))


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def _gpu_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
