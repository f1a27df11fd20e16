"""Running the properties: the pytest-facing harness, dumps and replay, the command."""

from __future__ import annotations

import importlib
import pkgutil

SUBPACKAGES = ("kernels", "reference", "properties")


def load_package() -> None:
    """Import every module of attnfuzz, once the backend is chosen.

    Hypothesis draws from a pool of constants collected from the non-test
    modules loaded so far, so a seed replays the same draws only if the same
    modules are loaded: with the kernels imported on first call, a test run
    alone (its reproduce command) would draw other cases than it did after
    other tests.  Loading everything up front makes the pool one per commit.
    """
    for sub in SUBPACKAGES:
        package = importlib.import_module(f"attnfuzz.{sub}")
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(info.name)
