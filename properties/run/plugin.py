"""The pytest plugin, and ``fuzz_test``: attnfuzz in any project's test suite.

Installed with attnfuzz, the plugin loads through its ``pytest11`` entry
point (``-p no:attnfuzz`` turns it off), so a user's repository needs nothing
copied: one line makes a test of an attention function,

    test_mine = attnfuzz.fuzz_test(my_attention, convention="flash_attn",
                                   supports=attnfuzz.Support(head_dims=(64, 128)))

and the run gets what attnfuzz's own suite has:

- the backend chosen before any test module decorates a Triton kernel
  (``@triton.jit`` reads ``TRITON_INTERPRET`` then): compiled on a GPU,
  Triton's interpreter on a CPU, or ``ATTNFUZZ_BACKEND``;
- one Hypothesis seed per run, printed in the header and handed to every
  xdist worker, so ``pytest -n auto --hypothesis-seed=N`` and ``pytest
  --hypothesis-seed=N`` draw the same cases; a failing test's report names
  the command that reruns it;
- shrunk failing cases dumped with their replay command (``--attnfuzz-dump-dir``);
- the worst error/bound ratio per implementation and dtype at the end;
- the Hypothesis profiles ``dev`` and ``thorough`` (``--hypothesis-profile``);
- ``--attnfuzz-seconds N``: every ``fuzz_test`` test fuzzes for N seconds;
- a warning for a ``fuzz_test`` bound to a name pytest does not collect.

Derandomized Hypothesis tests keep their own seeds (Hypothesis' rule).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shlex
import time
from collections.abc import Callable

from .. import backend, hypothesis_internals
from . import load_package

# Import time is before the test modules are collected: the earliest there is.
# A bad ATTNFUZZ_BACKEND is a usage error, reported once pytest can (configure).
try:
    BACKEND: str | None = backend.configure()
    _BACKEND_ERROR: str | None = None
except ValueError as exc:
    BACKEND, _BACKEND_ERROR = None, str(exc)
GPU_INDEX = backend.bind_worker_gpu() if BACKEND else None
backend.share_worker_cpus()

import pytest  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# No explain phase: it reruns a failing kernel many times for little news.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
# Warnings that attnfuzz's own choices raise, in every run that uses it.
WARNINGS = (
    # Triton 3.6's interpreter, which the plugin turns on without a GPU,
    # converts 1-element arrays to scalars (a thousand warnings a test).
    "ignore:Conversion of an array with ndim > 0 to a scalar:DeprecationWarning",
    # fp16 results beyond the fp16 range become inf by design (near_max values).
    "ignore:overflow encountered in cast:RuntimeWarning",
)
# Kernel cases are slow and large by nature; the recorder spans examples on purpose.
SUPPRESSED = [HealthCheck.too_slow, HealthCheck.data_too_large,
              HealthCheck.function_scoped_fixture]


# The Hypothesis profiles the plugin registers in every repository that uses
# it (examples per test), each with PROFILE_SETTINGS: ``dev`` for a quick
# local run, ``thorough`` for a long fuzzing session.  Never derandomized
# (derandomization would override the run's seed).
PROFILES = {"dev": 10, "thorough": 1000}
PROFILE_SETTINGS = dict(deadline=None, phases=PHASES, suppress_health_check=SUPPRESSED,
                        derandomize=False, print_blob=True)


def register_profiles() -> None:
    """Register each of ``PROFILES`` that no one has registered yet (a
    profile of that name registered before, the user's own, is kept)."""
    from hypothesis.errors import InvalidArgument

    for name, examples in PROFILES.items():
        try:
            settings.get_profile(name)
        except InvalidArgument:
            settings.register_profile(name, max_examples=examples, **PROFILE_SETTINGS)


def installed() -> bool:
    """Whether an installed attnfuzz's entry point loads this plugin (a checkout
    that is only on the path has none)."""
    from importlib.metadata import entry_points

    return any(e.value == __name__ for e in entry_points(group="pytest11"))


def _seconds_option(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (seconds > 0 and math.isfinite(seconds)):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text!r}")
    return seconds


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--attnfuzz-dump-dir",
        default=None,
        help="where shrunk failing cases are dumped (default: $ATTNFUZZ_DUMP_DIR or "
        ".attnfuzz/failures)",
    )
    parser.addoption(
        "--attnfuzz-seconds",
        type=_seconds_option,
        default=None,
        metavar="SECONDS",
        help="fuzz each fuzz_test test (one property and dtype) for this long, whatever "
        "its max_examples or seconds say; a failure found in time is still shrunk",
    )


# First: Hypothesis' own plugin loads ``--hypothesis-profile`` in its
# pytest_configure, so the profiles must be registered before it runs.
@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if _BACKEND_ERROR:
        raise pytest.UsageError(f"attnfuzz: {_BACKEND_ERROR}")
    register_profiles()
    for line in WARNINGS:
        config.addinivalue_line("filterwarnings", line)

    if config.getoption("attnfuzz_dump_dir"):
        os.environ["ATTNFUZZ_DUMP_DIR"] = os.path.abspath(config.getoption("attnfuzz_dump_dir"))

    worker = getattr(config, "workerinput", None)
    if worker is not None and "attnfuzz_seed" in worker:
        seed = worker["attnfuzz_seed"]
    else:
        seed = config.getoption("hypothesis_seed", None) or os.environ.get("ATTNFUZZ_SEED")
        seed = str(seed) if seed is not None else str(random.SystemRandom().randrange(2**32))
    config.option.hypothesis_seed = seed
    config.attnfuzz_seed = seed  # type: ignore[attr-defined]
    hypothesis_internals.force_global_seed(int(seed) if seed.isdigit() else seed)
    if BACKEND:
        load_package()

    # xdist's default 'load' scheduling hands out a quarter of the tests up
    # front, so minutes-long property tests queue behind each other on one
    # worker while the others idle.  Work stealing rebalances as workers run
    # dry.  An explicit --dist is left alone.
    explicit = any(a.startswith("--dist") for a in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "worksteal"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # xdist: the same seed on every worker
    node.workerinput["attnfuzz_seed"] = node.config.attnfuzz_seed


def pytest_report_header(config: pytest.Config) -> list[str]:
    bound = [f"attnfuzz: bound to cuda:{GPU_INDEX}"] if GPU_INDEX is not None else []
    return [
        backend.describe(),
        *bound,
        f"attnfuzz: hypothesis profile {hypothesis_internals.current_profile()}, "
        f"seed {config.attnfuzz_seed} (rerun with --hypothesis-seed={config.attnfuzz_seed})",
    ]


def reproduce_command(config: pytest.Config, nodeid: str) -> str:
    profile = hypothesis_internals.current_profile()
    return (
        f"pytest {shlex.quote(nodeid)} --hypothesis-seed={config.attnfuzz_seed} "
        f"--hypothesis-profile={profile} -p no:xdist"
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.when == "call" and report.failed:
        report.sections.append(
            ("attnfuzz: reproduce", reproduce_command(item.config, item.nodeid))
        )
    return report


# Pairs whose worst case came this near its bound also get that case printed:
# the first place to look when a kernel or a bound changes.
NEAR_BOUND = 0.95


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """Worst error/bound ratio per (implementation, dtype), gathered from every worker."""
    worst: dict[tuple[str, str], tuple[float, str, str]] = {}
    cases: dict[tuple[str, str], int] = {}
    for reports in terminalreporter.stats.values():
        for rep in reports:
            for key, value in getattr(rep, "user_properties", ()):
                if key != "attnfuzz_ratio":
                    continue
                impl, dtype, ratio, count, check, case = value
                k = (impl, dtype)
                cases[k] = cases.get(k, 0) + count
                if ratio > worst.get(k, (-1.0, "", ""))[0]:
                    worst[k] = (ratio, check, case)
    if not worst:
        return
    from ..implementations import declarations, display_names

    tr = terminalreporter
    label = display_names(impl for impl, _ in sorted(worst))
    w = max(16, *(len(shown) + 2 for shown in label.values()))
    tr.section("attnfuzz: worst error/bound ratio (passes iff <= 1)")
    for line in declarations(label):
        tr.write_line(line)
    tr.write_line(f"{'implementation':<{w}}{'dtype':<12}{'cases':>7}  {'worst':>9}  check")
    for (impl, dtype), (ratio, check, _) in sorted(worst.items()):
        tr.write_line(f"{label[impl]:<{w}}{dtype:<12}{cases[(impl, dtype)]:>7}  "
                      f"{ratio:>9.4g}  {check}")
    near = [(k, w) for k, w in sorted(worst.items()) if w[0] >= NEAR_BOUND and w[2]]
    if near:
        tr.write_line(f"nearest the bound (ratio >= {NEAR_BOUND}):")
        for (impl, dtype), (ratio, check, case) in near:
            tr.write_line(f"  {label[impl]} {dtype} {ratio:.4g} {check}: {case}")
    tr.write_line(f"seed {config.attnfuzz_seed}")


@pytest.fixture
def attnfuzz_recorder(record_property):
    """Make Recorders whose worst ratios reach the summary (also from xdist workers)."""
    from .harness import Recorder

    made: dict[tuple[str, str], Recorder] = {}

    def make(implementation: str, dtype: str) -> Recorder:
        key = (implementation, dtype)
        if key not in made:
            made[key] = Recorder(implementation, dtype)
        return made[key]

    yield make
    for rec in made.values():
        if rec.count:
            record_property("attnfuzz_ratio", rec.as_property())


# The attribute that marks a test made by ``fuzz_test`` (for the collection check).
FUZZ_TEST_MARK = "attnfuzz_fuzz_test"
# Hypothesis' max_examples for a test fuzzed for a time: more than fit in any budget.
TIMED_EXAMPLES = 10**9


def _check_seconds(seconds: object) -> None:
    if seconds is None:
        return
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not (seconds > 0 and math.isfinite(seconds)):
        raise ValueError(f"seconds must be a positive number or None, got {seconds!r}")


def fuzz_test(
    fn: Callable,
    *,
    convention: str = "attnfuzz",
    supports=None,
    properties: tuple[str, ...] | None = None,
    dtypes: tuple[str, ...] | None = None,
    max_examples: int | None = None,
    seconds: float | None = None,
) -> Callable:
    """A pytest test that fuzzes the attention function ``fn``: one test per
    (property, dtype), every property that applies unless ``properties``
    names some, every dtype ``supports`` declares unless ``dtypes`` names
    some.  Each test runs ``max_examples`` cases (default: the loaded
    Hypothesis profile's) or, given ``seconds``, as many as it starts in
    that time (a failure found in time is shrunk however long that takes);
    ``--attnfuzz-seconds`` on the command line overrides both.  Assign the
    result to a name pytest collects (``test_...``)."""
    from .. import checks, implementations
    from ..checks import stateful
    from . import harness, worker

    impl = implementations.of_function(fn, convention, supports)
    if isinstance(properties, str) or isinstance(dtypes, str):
        raise TypeError("properties and dtypes must be tuples of names, not one string")
    for name in properties or ():
        checks.get(name)
    chosen = [p for p in properties or checks.PROPERTIES if checks.get(p).applies(impl)]
    if not chosen:
        raise ValueError(f"properties: none of {properties} applies to {impl.name}")
    unknown = [d for d in dtypes or () if d not in impl.dtypes]
    if unknown:
        raise ValueError(f"dtypes: {unknown} are not among those {impl.name} supports "
                         f"({', '.join(impl.dtypes)})")
    if max_examples is not None and (isinstance(max_examples, bool)
                                     or not isinstance(max_examples, int) or max_examples < 1):
        raise ValueError(f"max_examples must be a positive int or None, got {max_examples!r}")
    _check_seconds(seconds)
    if max_examples is not None and seconds is not None:
        raise ValueError("max_examples and seconds: give one of them, not both")
    rounds = [(p, d) for p in chosen for d in dtypes or impl.dtypes]
    # Never derandomized (Hypothesis' own "ci" profile is): the run's seed must hold.
    options = dict(deadline=None, phases=PHASES, suppress_health_check=SUPPRESSED,
                   derandomize=False)

    def fuzz_cases(prop: str, dtype: str, examples: int | None, until: float | None,
                   recorder) -> None:
        __tracebackhide__ = True
        failed: list[bool] = []
        chosen_options = dict(options)
        if examples is not None:
            chosen_options["max_examples"] = examples

        # The recorder is not an argument of ``fuzz``, whose arguments Hypothesis
        # prints with every falsifying example.
        @settings(**chosen_options)
        @given(data=st.data())
        def fuzz(data, prop: str, dtype: str) -> None:
            __tracebackhide__ = True
            case = data.draw(checks.get(prop).cases(impl, dtype), label="case")
            # After the draw: a run that drew nothing where an earlier one drew
            # from the same choices is, to Hypothesis, a flaky strategy.
            if until is not None and not failed and time.monotonic() >= until:
                raise hypothesis_internals.TimeUp
            try:
                harness.check(prop, impl.name, case, recorder=recorder)
            except BaseException:
                failed.append(True)  # from here on Hypothesis shrinks: never cut short
                raise

        try:
            with hypothesis_internals.distinct_draws():
                fuzz(prop=prop, dtype=dtype)
        except hypothesis_internals.TimeUp:
            pass

    def fuzz_sequences(prop: str, dtype: str, examples: int, until: float | None) -> None:
        __tracebackhide__ = True
        # Ends a timed test between calls.
        with stateful.stopping(lambda _: until is not None and time.monotonic() >= until):
            checks.get(prop).sequences(impl.name, dtype, examples, None)  # the run's seed

    @pytest.mark.parametrize("attnfuzz_round", rounds, ids=[f"{p}-{d}" for p, d in rounds])
    def test(attnfuzz_round: tuple[str, str], attnfuzz_recorder,
             pytestconfig: pytest.Config) -> None:
        __tracebackhide__ = True
        prop, dtype = attnfuzz_round
        if dtype == "bfloat16" and not backend.supports_bf16():
            pytest.skip("bfloat16 arithmetic is wrong in Triton's interpreter; run it on a GPU")
        budget = pytestconfig.getoption("attnfuzz_seconds", None) or seconds
        if budget is not None:
            # The first case's one-time imports (seconds) are not fuzzing time.
            worker.prepare()
        examples = TIMED_EXAMPLES if budget is not None else max_examples
        until = time.monotonic() + budget if budget is not None else None
        if checks.get(prop).sequences is not None:
            fuzz_sequences(prop, dtype, examples or settings.default.max_examples, until)
            return
        fuzz_cases(prop, dtype, examples, until, attnfuzz_recorder(impl.name, dtype))

    test.__doc__ = f"attnfuzz: {impl.description}"
    setattr(test, FUZZ_TEST_MARK, True)
    return test


@pytest.hookimpl(wrapper=True)
def pytest_pycollect_makeitem(collector: pytest.Module | pytest.Class, name: str, obj: object):
    """Warn of a ``fuzz_test`` that pytest will not collect: assigned to a name
    its ``python_functions`` patterns do not match, its tests never run."""
    result = yield
    if result is None and callable(obj) and getattr(obj, FUZZ_TEST_MARK, None) is True \
            and not collector.funcnamefilter(name):
        # Bound to a collected name too (``test_mine = _mine``), it runs there.
        names = getattr(collector.obj, "__dict__", {})
        if not any(o is obj and collector.funcnamefilter(n) for n, o in list(names.items())):
            patterns = " ".join(collector.config.getini("python_functions"))
            collector.warn(pytest.PytestCollectionWarning(
                f"attnfuzz: {name} = fuzz_test(...) is never run: pytest collects only "
                f"functions whose names match python_functions ({patterns}); name it "
                f"test_{name.lstrip('_')}"))
    return result
