"""attnfuzz's own suite, a user of its pytest plugin (``attnfuzz.properties.run.plugin``).

The plugin, loaded through its entry point once attnfuzz is installed (and
from here where the checkout is only on the path),
chooses the backend before any test module imports ``kernels``, fixes one
Hypothesis seed per run (in the header; ``--hypothesis-seed=N`` reruns it),
names a failing test's reproduce command, dumps shrunk failures and prints
the worst error/bound ratios, and registers the ``dev`` and ``thorough``
Hypothesis profiles.  What is this repository's own is here: its ``ci`` and
``gpu`` profiles, the default profile its suite runs under and the order
tests are collected in.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from attnfuzz.properties import backend
from attnfuzz.properties.run import plugin
from attnfuzz.properties.run.plugin import PROFILE_SETTINGS
from tests.budgets import SUITE_PROFILES

PLUGIN = plugin.__name__

if not plugin.installed():
    # A checkout on PYTHONPATH, not installed (``.ci/gpu`` on a machine that
    # has torch and triton): no entry point loads the plugin, so this does.
    pytest_plugins = [PLUGIN]

# The plugin's profiles (``dev``, ``thorough``) are registered at configure
# time; this suite loads its default profile now, at import, so it registers
# them first.  Its own two, ``ci`` and ``gpu`` (examples in ``tests/budgets.py``),
# keep no example database.
plugin.register_profiles()
for _name, (_examples, _why) in SUITE_PROFILES.items():
    settings.register_profile(_name, max_examples=_examples, database=None, **PROFILE_SETTINGS)


def default_profile() -> str:
    if os.environ.get("HYPOTHESIS_PROFILE"):
        return os.environ["HYPOTHESIS_PROFILE"]
    if not backend.interpreting():
        return "gpu"
    return "ci" if os.environ.get("CI") else "dev"


settings.load_profile(default_profile())
# Campaigns run by the tests share no example database (a finding saved by one
# test would be replayed first by another's campaign): tests of the database
# name one of their own.
os.environ.setdefault("ATTNFUZZ_DATABASE", "none")


def pytest_configure(config: pytest.Config) -> None:
    if not (config.pluginmanager.has_plugin("attnfuzz") or config.pluginmanager.has_plugin(PLUGIN)):
        raise pytest.UsageError(
            "attnfuzz's pytest plugin is not loaded: install the checkout (pip install -e "
            "'.[test]') and do not pass -p no:attnfuzz"
        )


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


@pytest.fixture
def recorder(attnfuzz_recorder):
    """The plugin's recorder factory, under the name this suite's tests use."""
    return attnfuzz_recorder
