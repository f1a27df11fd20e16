"""Implementations under test, by name: the one registry of them.

Each entry adapts one callable to the calling convention of its operation
(see ``implementation``), so every property applies to it unchanged.  The
built-in entries are attnfuzz's kernels (``builtin``) and PyTorch's SDPA
backends (``sdpa``); others join with ``register``, or by name: a name
``MODULE:FUNCTION[@CONVENTION]`` imports any attention function (the current
directory is importable, as with ``python -m``; ``MODULE`` may also be a path
to a ``.py`` file) and calls it by that ``conventions`` entry (default
``attnfuzz``), so the name alone rebuilds it in a new process (replay).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

from attnfuzz.properties.implementations import builtin, conventions, flex, sdpa
from attnfuzz.properties.implementations.implementation import DTYPES, OPS, Implementation

_REGISTRY: dict[str, Implementation] = {
    impl.name: impl
    for impl in (*builtin.IMPLEMENTATIONS, *sdpa.IMPLEMENTATIONS, *flex.IMPLEMENTATIONS)
}


def register(impl: Implementation) -> Implementation:
    """Add (or replace) an implementation under its name."""
    if not isinstance(impl, Implementation):
        raise TypeError(f"impl must be an Implementation, got {type(impl).__name__}")
    _REGISTRY[impl.name] = impl
    return impl


def get(name: str) -> Implementation:
    if name not in _REGISTRY and ":" in name:
        return register(imported(name))
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise ValueError(
            f"unknown implementation {name!r}; known: {known}, or MODULE:FUNCTION[@CONVENTION]"
        ) from None


def imported(name: str) -> Implementation:
    """The attention function ``MODULE:FUNCTION[@CONVENTION]`` as an implementation."""
    target, _, convention_name = name.partition("@")
    module_name, _, function_name = target.partition(":")
    if not module_name or not function_name:
        raise ValueError(f"implementation {name!r}: expected MODULE:FUNCTION[@CONVENTION]")
    convention = conventions.get(convention_name or "attnfuzz")
    module = _import(module_name, name)
    fn = getattr(module, function_name, None)
    if fn is None:
        raise ValueError(f"implementation {name!r}: {module_name} has no {function_name!r}")
    if not callable(fn):
        raise TypeError(f"implementation {name!r}: {function_name} is not callable")
    return Implementation(
        name, "attention", convention.adapt(fn, name), writes_out=False,
        description=f"{target}, called as {convention.name}", alignments=convention.alignments,
    )


def _import(module_name: str, name: str) -> object:
    try:
        if module_name.endswith(".py"):
            path = Path(module_name).resolve()
            spec = importlib.util.spec_from_file_location(path.stem, path)
            if spec is None or not path.is_file():
                raise ImportError(f"no file {path}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            spec.loader.exec_module(module)
            return module
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"implementation {name!r}: cannot import {module_name}: {exc}") from None


def names(op: str | None = None, *, campaign: bool | None = None) -> list[str]:
    """Registered names, optionally of one op, or only those a plain campaign fuzzes."""
    return [
        n for n, impl in _REGISTRY.items()
        if (op is None or impl.op == op) and (campaign is None or impl.campaign == campaign)
    ]


__all__ = ["DTYPES", "OPS", "Implementation", "get", "imported", "names", "register"]
