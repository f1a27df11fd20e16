"""Running the properties: the pytest-facing harness, dumps and replay, the command."""

from __future__ import annotations

import importlib
import pkgutil

SUBPACKAGES = ("kernels", "reference", "properties")
# The pytest plugin imports pytest, which only the test extra installs: the
# command, which calls load_package too, must run where pytest is absent.  It
# is left out by name, never on a failed import, so that which modules load
# does not depend on whether pytest is installed.  Under pytest the plugin is
# loaded anyway (it calls load_package); the command never loads it.  Either
# way the modules loaded, and so Hypothesis' pool, are one per commit.
NOT_LOADED = frozenset({"attnfuzz.properties.run.plugin"})


def load_package() -> None:
    """Import every module of attnfuzz but the pytest plugin, once the backend is chosen.

    Hypothesis draws from a pool of constants collected from the non-test
    modules loaded so far, so a seed replays the same draws only if the same
    modules are loaded: with the kernels imported on first call, a test run
    alone (its reproduce command) would draw other cases than it did after
    other tests.  Loading everything up front makes the pool one per commit.
    """
    for sub in SUBPACKAGES:
        package = importlib.import_module(f"attnfuzz.{sub}")
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if info.name not in NOT_LOADED:
                importlib.import_module(info.name)
