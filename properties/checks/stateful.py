"""The stateful property: sequences of calls that share an implementation's state.

Every other property runs one call on fresh inputs.  Kernels and their
launchers keep state between calls (launch caches, autotuning caches,
per-shape plans, scratch buffers, counters), and a bug that needs call A and
then call B of another shape shows up there, if at all, as a flaky failure
that does not reproduce alone.  Here Hypothesis' stateful testing draws the
sequence itself and shrinks it to the shortest one that fails:

- ``call`` draws a case from the implementation's oracle-property strategy,
  runs it on freshly built inputs and judges it exactly as the oracle
  property does (``oracle.against_oracle``); a backward case (drawn, where
  the caller asks, from the gradients property's strategy) is differentiated
  and judged as that property does, dq, dk and dv too;
- ``neighbour`` calls an earlier call's case with one argument changed
  (causal, alignment, window, scale, an optional argument, the values, the
  dtype, an input's address; ``neighbours.NEIGHBOURS``) and its shapes kept, which a
  cache keyed on too little answers wrongly, or its batch grown, which state
  sized by the first call must grow for;
- ``sweep`` (on a GPU, or when asked) calls every kind of neighbour of an
  earlier call in turn, so that a launch key omitting any one argument meets
  the change that exposes it within a few sequences, not a few hundred (the
  address as a pair: an input onto a 16-byte boundary, then 8 bytes past it);
- ``repeat`` reruns an earlier call on the same inputs (``build`` is
  deterministic) ``repeats`` times; every rerun must return the first
  call's results bit for bit (NaN equal to NaN; a backward call's gradients
  too).  On a GPU, reruns of a launch whose programs contend (split-K
  partials, tiles merging into one output, atomics) expose races; on the
  interpreter, which runs programs one at a time, one rerun shows state left
  behind by a call.

Steps are numbered from 0.  The final (shrunk) failure is dumped as
``sequence.json`` (``sequence_dump``) under the dump root (``ATTNFUZZ_DUMP_DIR``), which
``replay_sequence`` reruns in order in a fresh process, after the calls the
process had made before the sequence began (``before``, up to
``MAX_HISTORY``), whose state the sequence may have found.

The calls draw from a strategy given by the caller: ``checks.run_stateful``
gives the oracle property's, so that this module imports neither the
registry of properties (which imports it) nor ``run``.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import torch
from hypothesis import HealthCheck, Phase, reject, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from ...reference import Verdict
from .. import backend, hypothesis_internals
from ..implementations import conventions, get
from ..implementations.implementation import ContractViolation
from ..model.cases import Case, build, from_json, to_json
from ..model.dumps import lenient, strict
from ..model.layouts import Layout
from ..strategy_wrappers import as_backward, do_layouts
from .execution import (
    bitwise,
    context_killer,
    execute,
    execute_backward,
    out_of_memory,
    refusal_key,
    steering,
)
from .gradients import against_gradient_oracle
from .neighbours import NEIGHBOURS, neighbour_of, sweep_of
from .oracle import against_oracle
from .sequence_dump import (
    NAME,
    load_sequence,
    replay_command,
    step_case,
    write_sequence_dump,
)

# The interpreter runs a launch's programs one after another, so reruns there
# differ only by state a call left behind, which one rerun shows.  A GPU
# schedules them differently each launch: more reruns, more interleavings.
INTERPRETER_REPEATS = 1
GPU_REPEATS = 8
# As the suite's profiles: kernel calls are slow and their cases large by
# nature, and no explain phase (it reruns a failing sequence many times).
SUPPRESSED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)


class StatefulFailure(AssertionError):
    """A failing step: an ``AssertionError`` (so Hypothesis shrinks the sequence)
    that says which kinds of finding it is (``reference.verdict.FINDINGS``), the
    steps up to the failing one (``sequence.json``'s) and the dump, once written."""

    def __init__(
        self, message: str, kinds: list[str], steps: list[dict], verdicts: list[Verdict]
    ) -> None:
        super().__init__(message)
        self.message = message  # without the dump's lines: what a replay raises
        self.refusal: str | None = None  # as ``harness.Finding``'s
        self.kinds = list(dict.fromkeys(kinds))
        self.steps = steps
        self.verdicts = verdicts
        self.dump: Path | None = None


def _unless_out_of_memory(error: BaseException) -> None:
    """A step that ran out of device memory (where workers share a GPU, the
    others' memory counts) ends its sequence unjudged, as a single call's
    case is skipped: Hypothesis draws another sequence.  Judged, it would be
    a crash its replay need not repeat, which Hypothesis calls flaky."""
    if out_of_memory(error):
        reject()


class _Crash(Exception):
    """The implementation under test raised, not the machinery around it."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True)
class Call:
    """A call step as the bundle holds it: which step, its case, its results on the CPU."""

    step: int
    case: Case
    results: dict[str, torch.Tensor]

    def __repr__(self) -> str:  # Hypothesis prints bundle values by variable name anyway
        return f"Call(step={self.step}, case={self.case.describe()!r})"


def default_repeats() -> int:
    """Reruns per ``repeat`` step on the current backend."""
    return INTERPRETER_REPEATS if backend.interpreting() else GPU_REPEATS


def _differentiated(case: Case) -> bool:
    """A backward case: its call is differentiated, and dq, dk, dv judged too."""
    return bool(getattr(case, "backward", False))


def _on_cpu(results: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {n: t.detach().to("cpu", copy=True) for n, t in results.items()}


def default_sweeps() -> bool:
    """Whether the ``sweep`` rule is drawn on the current backend.  A sweep
    costs a call per kind of neighbour; compiled launch caches exist only on
    a GPU (the interpreter launches every call afresh), where a call costs
    milliseconds, not the interpreter's seconds."""
    return not backend.interpreting()


class Sequence:
    """Runs steps on one implementation and dtype and records them, as the state
    machine draws them or as a dump lists them; a failing step raises
    ``StatefulFailure``."""

    def __init__(self, impl_name: str, dtype: str, repeats: int) -> None:
        self.impl = get(impl_name)
        if dtype not in self.impl.dtypes:
            raise ValueError(f"{impl_name} does not declare dtype {dtype!r} "
                             f"(it does {', '.join(self.impl.dtypes)})")
        if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 0:
            raise ValueError(f"repeats must be an int >= 0, got {repeats!r}")
        self.impl_name, self.dtype, self.repeats = impl_name, dtype, repeats
        self.steps: list[dict] = []  # as sequence.json lists them
        self.cases: list[Case] = []
        self.lines: list[str] = []  # each step in words, for the failure message
        self.verdicts: list[list[Verdict]] = []  # each passed step's
        self.calls: dict[int, Call] = {}
        self._returned: dict[str, torch.Tensor] | None = None
        # The implementation, recording what it returns and marking what it raises.
        self._recording = replace(self.impl, run=self._run)
        # Earlier calls in this process: state a sequence may find, which a dump
        # must recreate before its own steps (without a ``reset``, sequences
        # share the process's state as every other test does).
        self.history = _HISTORY.setdefault(impl_name, collections.deque(maxlen=MAX_HISTORY))
        self.before = list(self.history)

    def _run(self, *args, **kwargs) -> dict[str, torch.Tensor]:
        try:
            results = self.impl.run(*args, **kwargs)
        except ContractViolation:
            raise  # its convention's adapter judged the result
        except Exception as exc:
            raise _Crash(exc) from exc
        self._returned = results
        return results

    def call(self, case: Case) -> Call:
        """Run ``case`` on fresh inputs; every output within its bound of the oracle."""
        step = self._begin("call", case, None, f"call on: {case.describe()}")
        self.history.append(to_json(case))
        # The oracle property's own judgement, on results this records on the way.
        self._returned = None

        def work() -> tuple[list[Verdict], dict[str, torch.Tensor]]:
            built = build(case, backend.device())
            if _differentiated(case):
                run, results = self._differentiate(case, built)
                return against_gradient_oracle(self._recording, case, built, run=run), results
            verdicts = against_oracle(self._recording, case, built)
            return verdicts, _on_cpu(self._returned or {})

        verdicts, results = self._guard(step, "call", work)
        self._judge(step, "call", verdicts)
        self.verdicts.append(verdicts)
        made = Call(step, case, results)
        self.calls[step] = made
        return made

    def repeat(self, earlier: Call | int) -> None:
        """Rerun an earlier call ``repeats`` times: each bit-identical to its first results."""
        first = self.calls.get(earlier if isinstance(earlier, int) else earlier.step)
        if first is None:
            raise ValueError(f"step {earlier} is not a call of this sequence")
        case = first.case
        reruns = "once" if self.repeats == 1 else f"{self.repeats} times"
        step = self._begin("repeat", case, first.step,
                           f"repeat of step {first.step}, {reruns}")
        self.history.extend([to_json(case)] * self.repeats)
        passed: list[Verdict] = []
        for i in range(1, self.repeats + 1):
            what = f"rerun {i} of {self.repeats} of step {first.step}"

            def work() -> tuple[list[Verdict], dict[str, torch.Tensor]]:
                built = build(case, backend.device())
                if _differentiated(case):
                    run, results = self._differentiate(case, built)
                    return list(run.safety), results
                run = execute(self._recording, case, built)
                return list(run.safety), _on_cpu(run.results)

            verdicts, got = self._guard(step, what, work)
            if set(got) != set(first.results):
                nan = math.nan
                verdicts.append(Verdict(
                    f"{what} returned {sorted(got)}, the first run {sorted(first.results)}",
                    math.inf, nan, nan, (), nan, nan))
            for name in sorted(set(got) & set(first.results)):
                verdicts.append(_identical(f"{what}: {name} not bit-identical to the first run",
                                           got[name], first.results[name]))
            self._judge(step, what, verdicts)
            passed += verdicts
        self.verdicts.append(passed)

    def _differentiate(self, case: Case, built) -> tuple:
        """The backward run, and its outputs and gradients on the CPU."""
        run = execute_backward(self._recording, case, built)
        return run, _on_cpu({**run.results, **run.grads})

    def _begin(self, rule_name: str, case: Case, of: int | None, words: str) -> int:
        if _LOST_CONTEXT:
            # Every CUDA call in this process now fails: say so, not blame this step.
            raise StatefulFailure(
                f"{NAME}: {self.impl_name} did not run: this process lost its CUDA context "
                f"earlier, {_LOST_CONTEXT[0]}\n  dump of that sequence: {_LOST_CONTEXT[1]}",
                ["memory"], list(self.steps), [])
        step = len(self.steps)
        for hook in STEP_HOOKS:
            hook("step", case)
        self.steps.append({"rule": rule_name, "case": strict(to_json(case)), "of": of})
        self.cases.append(case)
        self.lines.append(f"step {step}: {words}")
        return step

    def _guard(self, step: int, what: str, work: Callable):
        """``work()``; an exception of the implementation (or a malformed result,
        which ``execute`` asserts on) is this step's finding, a crash.  So is
        any other exception, and a fault that kills the CUDA context wherever
        it surfaces: kernel errors are reported at the next synchronisation,
        which may be the harness's.  One that ran out of device memory is not
        (``_unless_out_of_memory``)."""
        try:
            return work()
        except _Crash as crash:
            error = crash.error
            _unless_out_of_memory(error)
            kind = type(error).__name__
            failure = self._failure(step, f"crashed ({kind}) in {what}", ["crash"],
                                    [f"{kind}: {_first_line(error)}"], [])
            self._if_fault(step, failure, error)
            if isinstance(error, Exception):
                failure.refusal = refusal_key(error)
            raise failure from error
        except StatefulFailure:
            raise
        except AssertionError as exc:  # a result of the wrong shape, dtype or device
            check = exc.check if isinstance(exc, ContractViolation) else "contract"
            nan = math.nan
            broken = Verdict(check, math.inf, math.inf, nan, (), nan, nan, "contract")
            raise self._failure(step, f"returned a malformed result in {what}", ["contract"],
                                [_first_line(exc)], [broken]) from exc
        except Exception as error:
            # Raised outside the implementation's call: in its backward, under
            # autograd, or in the harness after a fault it left behind.  A
            # finding either way, never a traceback that ends the campaign.
            _unless_out_of_memory(error)
            kind = type(error).__name__
            failure = self._failure(step, f"faulted ({kind}) in {what}", ["crash"],
                                    [f"{kind}: {_first_line(error)}"], [])
            self._if_fault(step, failure, error)
            raise failure from error

    def _if_fault(self, step: int, failure: StatefulFailure, error: Exception) -> None:
        fault = context_killer(error)
        if fault is None:
            return
        # The process cannot run another kernel: Hypothesis cannot shrink
        # this, so the sequence is dumped now.
        failure.kinds = ["memory"]
        path = write_sequence_dump(self, failure)
        _LOST_CONTEXT[:] = [f"when step {step} faulted ({fault})", str(path)]
        dumped = _with_dump(failure, path)
        _FAULT[:] = [dumped]
        raise dumped from error

    def _judge(self, step: int, what: str, verdicts: list[Verdict]) -> None:
        bad = [v for v in verdicts if not v.ok]
        if bad:
            kinds = [v.kind for v in bad]
            raise self._failure(step, f"failed ({', '.join(dict.fromkeys(kinds))}) in {what}",
                                kinds, [conventions.describe(v, self.impl, self.cases[step])
                                        for v in bad], bad)

    def _failure(
        self, step: int, what: str, kinds: list[str], details: list[str], bad: list[Verdict]
    ) -> StatefulFailure:
        lines = [f"{NAME}: {self.impl_name} {self.dtype} {what}, step {step} of the sequence, "
                 f"on: {self.cases[step].describe()}"]
        lines += [f"  {d}" for d in details]
        earlier = f", after {len(self.before)} earlier calls in this process" if self.before \
            else ""
        lines += [f"  the sequence (steps from 0{earlier}):", *(f"    {s}" for s in self.lines)]
        for hook in STEP_HOOKS:
            hook("failure", self.cases[step])
        return StatefulFailure("\n".join(lines), kinds, [dict(s) for s in self.steps], bad)


def _identical(check: str, got: torch.Tensor, first: torch.Tensor) -> Verdict:
    """``bitwise``, whose failure also names the first run's value ("want") there."""
    verdict = bitwise(check, got, first)
    if verdict.ok or got.shape != first.shape:
        return verdict
    want = float(first[verdict.index]) if verdict.index else math.nan
    return replace(verdict, want=want, error=abs(verdict.got - want))


# [what killed this process's CUDA context, its dump] once a step has.
_LOST_CONTEXT: list[str] = []
# The failure that lost it: what ``run`` raises, whatever Hypothesis made of
# the runs after it (each stops at its first step, so Hypothesis may call its
# own draws flaky).
_FAULT: list[StatefulFailure] = []
# Calls made in this process, per implementation, that a dump replays first.
MAX_HISTORY = 200
_HISTORY: dict[str, collections.deque] = {}
# Called with ("step", case) before each step runs and ("failure", case) when
# one fails: a campaign's worker times each call of a sequence with them, as
# it times a single case, and ends a timed visit between calls, never while
# a failure shrinks.
STEP_HOOKS: list[Callable[[str, Case], None]] = []


@contextmanager
def stopping(stop: Callable[[int], bool]) -> Iterator[list[int]]:
    """Inside: before each call of a sequence, ``stop(calls so far)`` may end
    the run, which then ends quietly, as if it had run its sequences; never
    once a call has failed (its shrinking is never cut short).  Yields
    ``[calls]``: the calls let run before any failure."""
    failed: list[bool] = []
    calls = [0]

    def step(event: str, case: Case) -> None:
        if event == "failure":
            failed.append(True)
        elif not failed:
            if stop(calls[0]):
                hypothesis_internals.cut_off()
                raise hypothesis_internals.TimeUp
            calls[0] += 1

    STEP_HOOKS.append(step)
    try:
        yield calls
    except hypothesis_internals.TimeUp:
        pass
    finally:
        STEP_HOOKS.remove(step)


def reset_history() -> None:
    """Forget earlier calls: after an implementation's own state was reset."""
    _HISTORY.clear()


def lost_context() -> str | None:
    """Which step killed this process's CUDA context, if one has."""
    return _LOST_CONTEXT[0] if _LOST_CONTEXT else None


def machine(
    impl_name: str,
    dtype: str,
    *,
    repeats: int | None = None,
    max_steps: int | None = None,
    reset: Callable[[], None] | None = None,
    sweeps: bool | None = None,
    backward: bool = False,
    cases: st.SearchStrategy[Case],
) -> type[RuleBasedStateMachine]:
    """A state machine of ``call`` and ``repeat`` steps on one implementation and dtype.

    ``repeats``: reruns per ``repeat`` step (default ``default_repeats()``; 0
    turns the rule off).  ``max_steps``: the longest sequence the machine's own
    ``TestCase`` draws (its ``stateful_step_count``; ``run`` sets its own).
    ``reset``: called at the start of every sequence, so that each starts from
    the state a fresh process has; without it an implementation's state carries
    over from one drawn sequence to the next, as in a long-running process, and
    a failure may need an earlier sequence (Hypothesis then reports it flaky).
    ``sweeps``: whether the ``sweep`` rule is drawn (default ``default_sweeps()``).
    ``backward``: whether ``cases`` holds differentiated calls; then a sweep of
    a call that was not differentiated may be, the call first, then its
    neighbours (a backward has launch caches of its own, which only a sweep of
    differentiated calls tries one argument at a time).
    ``cases``: the strategy each call draws its case from.
    """
    count = default_repeats() if repeats is None else repeats
    sweeping = default_sweeps() if sweeps is None else sweeps
    if not isinstance(sweeping, bool):
        raise TypeError(f"sweeps must be a bool or None, got {sweeps!r}")
    Sequence(impl_name, dtype, count)  # a bad name, dtype or count fails here, not per example
    drawn = cases

    class StatefulMachine(RuleBasedStateMachine):
        calls = Bundle("calls")

        def __init__(self) -> None:
            super().__init__()
            self.sequence = Sequence(impl_name, dtype, count)

        if reset is not None:

            @initialize()
            def fresh_state(self) -> None:
                reset()
                # Earlier calls left no state: a dump need not replay them.
                self.sequence.history.clear()
                self.sequence.before = []

        @rule(target=calls, case=drawn)
        def call(self, case: Case) -> Call:
            __tracebackhide__ = True
            return self._step(self.sequence.call, case)

        @rule(target=calls, earlier=calls, data=st.data())
        def neighbour(self, earlier: Call, data: st.DataObject) -> Call:
            """An earlier call with one argument changed and the shape kept:
            what a cache keyed on too little answers from the stale entry."""
            __tracebackhide__ = True
            impl = self.sequence.impl
            named = [n for n in NEIGHBOURS if neighbour_of(n, earlier.case, impl, 0)]
            name = data.draw(st.sampled_from(named), label="change")
            pick = data.draw(st.integers(0, 15), label="which")
            # Where this pick's change leaves the support, the first one's is kept.
            made = (neighbour_of(name, earlier.case, impl, pick)
                    or neighbour_of(name, earlier.case, impl, 0))
            return self._step(self.sequence.call, made)

        if sweeping:

            @rule(target=calls, earlier=calls,
                  picks=st.lists(st.integers(0, 15), min_size=len(NEIGHBOURS),
                                 max_size=len(NEIGHBOURS)),
                  do=st.none() | do_layouts() if backward else st.none())
            def sweep(self, earlier: Call, picks: list[int], do: Layout | None):
                """Each kind of neighbour of an earlier call, one after another;
                with ``do``, of the call differentiated (dO in that layout)."""
                __tracebackhide__ = True
                case, first = earlier.case, []
                if do is not None and not _differentiated(case):
                    case = as_backward(case, do)
                    first = [case]
                cases = first + sweep_of(case, self.sequence.impl, picks)
                return multiple(*(self._step(self.sequence.call, c) for c in cases))

        @precondition(lambda self: count > 0)
        @rule(earlier=calls)
        def repeat(self, earlier: Call) -> None:
            __tracebackhide__ = True
            self._step(self.sequence.repeat, earlier)

        def teardown(self) -> None:
            # ``target`` takes a label once per example, and a sequence is one
            # example: its steps' worst ratios, each check's worst of them.
            from hypothesis import target

            worst: dict[str, float] = {}
            for verdicts in self.sequence.verdicts:
                for label, ratio in steering(verdicts).items():
                    worst[label] = max(worst.get(label, 0.0), ratio)
            for label, ratio in worst.items():
                target(ratio, label=label)

        def _step(self, fn: Callable, arg):
            __tracebackhide__ = True
            try:
                return fn(arg)
            except StatefulFailure as failure:
                context = hypothesis_internals.build_context()
                if failure.dump is None and hypothesis_internals.is_final(context):
                    cls = type(self)
                    path = write_sequence_dump(self.sequence, failure, seed=cls.dump_seed,
                                               reproduce=cls.reproduce)
                    raise _with_dump(failure, path) from failure.__cause__
                raise

        # The seed and the call that rerun this machine's search, for its dumps
        # (``run`` sets them; the seed defaults to Hypothesis' global one).
        dump_seed: object = None
        reproduce: str | None = None

    StatefulMachine.TestCase.settings = settings(
        deadline=None, database=None, suppress_health_check=SUPPRESSED, phases=PHASES,
        **({"stateful_step_count": max_steps} if max_steps is not None else {}),
    )
    return StatefulMachine


def run(
    impl_name: str,
    dtype: str,
    *,
    cases: st.SearchStrategy[Case],
    max_examples: int,
    stateful_step_count: int,
    seed: int | None = None,
    repeats: int | None = None,
    reset: Callable[[], None] | None = None,
    sweeps: bool | None = None,
    backward: bool | None = None,
    max_len: int | None = None,
) -> None:
    """Draw ``max_examples`` sequences of up to ``stateful_step_count`` steps; raise
    the (shrunk) failure, a ``StatefulFailure`` whose ``dump`` is its directory.

    ``seed`` fixes Hypothesis' draws (default: its global seed, which the
    pytest plugin sets, else a random one).  ``backward`` and ``max_len``:
    whether ``cases`` holds differentiated calls and the longest they are
    (``checks.run_stateful`` decides), for the failure's command to draw
    them again."""
    __tracebackhide__ = True
    cls = machine(impl_name, dtype, repeats=repeats, reset=reset, sweeps=sweeps,
                  backward=bool(backward), cases=cases)
    chosen = seed if seed is not None else hypothesis_internals.global_seed()
    cls.dump_seed = chosen
    cls.reproduce = (
        f"attnfuzz.properties.checks.run_stateful({impl_name!r}, {dtype!r}, "
        f"max_examples={max_examples}, stateful_step_count={stateful_step_count}, "
        f"seed={chosen!r}, repeats={repeats!r}, sweeps={sweeps!r}, backward={backward!r}"
        + (f", max_len={max_len!r})" if max_len is not None else ")")
    )
    if seed is not None:
        cls = hypothesis_seed(seed)(cls)
    options = settings(
        max_examples=max_examples, stateful_step_count=stateful_step_count, deadline=None,
        database=None, suppress_health_check=SUPPRESSED, phases=PHASES, derandomize=False,
    )
    try:
        run_state_machine_as_test(cls, settings=options)
    except Exception:
        if _FAULT:
            raise _FAULT[0] from None
        raise


def replay_sequence(path: str | Path) -> list[list[Verdict]]:
    """Rerun a ``sequence.json`` dump's steps in order (in a fresh process, as the
    sequence began in one); raise its ``StatefulFailure``, with the same message,
    if a step still fails.  Returns each step's verdicts if none does (the
    failure did not reproduce).  A path that is no such dump raises ``ValueError``."""
    record = load_sequence(path)
    sequence = Sequence(record["implementation"], record["dtype"], record["repeats"])
    for earlier in record.get("before") or []:
        # The calls the failing process had made first, unjudged: their state.
        case = from_json(lenient(earlier))
        try:
            execute(sequence.impl, case, build(case, backend.device()))
        except Exception:  # they passed there; the steps are what is judged
            pass
    for i, step in enumerate(record["steps"]):
        case = step_case(step)
        if step["rule"] == "call":
            sequence.call(case)
        else:
            of = step["of"]
            if of not in sequence.calls or sequence.calls[of].case != case:
                raise ValueError(f"{path}: step {i} repeats step {of}, which is not "
                                 "an earlier call of its case")
            sequence.repeat(of)
    return sequence.verdicts


def _with_dump(failure: StatefulFailure, path: Path) -> StatefulFailure:
    dumped = StatefulFailure(
        f"{failure.message}\n  dump: {path}\n  replay: {replay_command(path)}",
        failure.kinds, failure.steps, failure.verdicts)
    dumped.message, dumped.dump, dumped.refusal = failure.message, path, failure.refusal
    return dumped


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:300] if lines else ""


__all__ = [
    "NAME",
    "Call",
    "Sequence",
    "StatefulFailure",
    "default_repeats",
    "load_sequence",
    "machine",
    "replay_sequence",
    "run",
    "step_case",
    "write_sequence_dump",
]
