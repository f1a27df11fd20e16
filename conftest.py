"""pytest setup: backend, Hypothesis profiles, seeds, and the error/bound summary.

The backend is chosen here, before any test module imports ``kernels``,
because ``@triton.jit`` reads ``TRITON_INTERPRET`` at decoration time.

Seeds.  Every run has one Hypothesis seed, printed in the header: the one
given by ``--hypothesis-seed=N``, else ``ATTNFUZZ_SEED``, else a fresh random
one.  Profiles never derandomize (derandomization would override the seed),
and the controller hands its seed to every xdist worker, so ``pytest -n 2
--hypothesis-seed=N`` and ``pytest --hypothesis-seed=N`` draw the same cases,
and a failure's message gives the command that reproduces it.
"""

from __future__ import annotations

import os
import random
import shlex

from attnfuzz.properties import backend

BACKEND = backend.configure()
GPU_INDEX = backend.bind_worker_gpu()

import pytest  # noqa: E402
from hypothesis import HealthCheck, Phase, settings  # noqa: E402

_PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink)
_COMMON = dict(
    deadline=None,
    phases=_PHASES,  # no explain phase: it reruns failing kernels many times
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # the recorder fixture spans examples on purpose
    ],
    derandomize=False,
    print_blob=True,
)
# Examples per property test.  ``ci`` fits the 2-core CI machine in minutes;
# ``gpu`` is compiled kernels; ``thorough`` is for a long fuzzing session.
settings.register_profile("dev", max_examples=10, **_COMMON)
settings.register_profile("ci", max_examples=30, database=None, **_COMMON)
GPU_EXAMPLES = int(os.environ.get("ATTNFUZZ_GPU_EXAMPLES", "100"))
settings.register_profile("gpu", max_examples=GPU_EXAMPLES, database=None, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)


def default_profile() -> str:
    if os.environ.get("HYPOTHESIS_PROFILE"):
        return os.environ["HYPOTHESIS_PROFILE"]
    if BACKEND == "gpu":
        return "gpu"
    return "ci" if os.environ.get("CI") else "dev"


settings.load_profile(default_profile())


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--attnfuzz-dump-dir",
        default=None,
        help="where shrunk failing cases are dumped (default: $ATTNFUZZ_DUMP_DIR or "
        ".attnfuzz/failures)",
    )


def pytest_configure(config: pytest.Config) -> None:
    import hypothesis.core

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
    hypothesis.core.global_force_seed = int(seed) if seed.isdigit() else seed

    # xdist's default 'load' scheduling hands out a quarter of the tests up
    # front, so the minutes-long property tests queue behind each other on one
    # worker while the others idle (a CI run spent 9 of its 15 minutes on one
    # of its two workers).  Work stealing rebalances as workers run dry.  An
    # explicit --dist is left alone.
    explicit = any(a.startswith("--dist") for a in config.invocation_params.args)
    if getattr(config.option, "dist", "no") == "load" and not explicit:
        config.option.dist = "worksteal"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # xdist: same seed on every worker
    node.workerinput["attnfuzz_seed"] = node.config.attnfuzz_seed


def pytest_report_header(config: pytest.Config) -> list[str]:
    bound = [f"attnfuzz: bound to cuda:{GPU_INDEX}"] if GPU_INDEX is not None else []
    return [
        backend.describe(),
        *bound,
        f"attnfuzz: hypothesis profile {settings.default._current_profile}, "  # type: ignore[attr-defined]
        f"seed {config.attnfuzz_seed} (rerun with --hypothesis-seed={config.attnfuzz_seed})",
    ]


# The fuzzing modules hold the longest tests (minutes each on a GPU, where
# every new shape compiles).  Collected last, as their names sort, they leave
# a tail in which one xdist worker runs while the others idle; first, the
# short tests fill in around them.  The metamorphic tests, several launches
# per case, are the longest of all.
_LONG_FIRST = ("tests/test_properties.py", "tests/test_mutants.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[int, bool]:
        path = item.nodeid.split("::", 1)[0]
        module = _LONG_FIRST.index(path) if path in _LONG_FIRST else len(_LONG_FIRST)
        return module, "metamorphic" not in item.nodeid

    items.sort(key=rank)


def reproduce_command(config: pytest.Config, nodeid: str) -> str:
    profile = settings.default._current_profile  # type: ignore[attr-defined]
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
    tr = terminalreporter
    tr.section("attnfuzz: worst error/bound ratio (passes iff <= 1)")
    tr.write_line(f"{'implementation':<16}{'dtype':<12}{'cases':>7}  {'worst':>9}  check")
    for (impl, dtype), (ratio, check, _) in sorted(worst.items()):
        tr.write_line(f"{impl:<16}{dtype:<12}{cases[(impl, dtype)]:>7}  {ratio:>9.4g}  {check}")
    near = [(k, w) for k, w in sorted(worst.items()) if w[0] >= NEAR_BOUND and w[2]]
    if near:
        tr.write_line(f"nearest the bound (ratio >= {NEAR_BOUND}):")
        for (impl, dtype), (ratio, check, case) in near:
            tr.write_line(f"  {impl} {dtype} {ratio:.4g} {check}: {case}")
    tr.write_line(f"seed {config.attnfuzz_seed}")


@pytest.fixture
def recorder(record_property):
    """Make Recorders whose worst ratios reach the summary (also from xdist workers)."""
    from attnfuzz.properties.run.harness import Recorder

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
