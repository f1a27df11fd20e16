"""Implementations under test, by name: the one registry of them.

Each entry adapts one callable to the calling convention of its operation
(see ``implementation``), so every property applies to it unchanged.  The
built-in entries are attnfuzz's kernels (``builtin``) and PyTorch's SDPA
backends (``sdpa``); others join with ``register``, or by name: a name
``MODULE:FUNCTION[@CONVENTION][#SUPPORT]`` imports any attention function
(the current directory is importable, as with ``python -m``; ``MODULE`` may
also be a path to a ``.py`` file), calls it by that ``conventions`` entry
(default ``attnfuzz``) and fuzzes it within the declared ``support`` spec, so
the name alone rebuilds it in a new process (replay).  ``of_function`` gives
a Python function such a name.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path

from . import builtin, conventions, flex, sdpa, support
from .implementation import DTYPES, OPS, Implementation, short_name
from .support import Support

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
            f"unknown implementation {name!r}; known: {known}, "
            "or MODULE:FUNCTION[@CONVENTION][#SUPPORT]"
        ) from None


def imported(name: str) -> Implementation:
    """The attention function ``MODULE:FUNCTION[@CONVENTION][#SUPPORT]`` as an implementation."""
    target, _, spec = name.partition("#")
    target, _, convention_name = target.partition("@")
    module_name, _, function_name = target.partition(":")
    if not module_name or not function_name:
        raise ValueError(f"implementation {name!r}: expected MODULE:FUNCTION[@CONVENTION]")
    convention = conventions.get(convention_name or "attnfuzz")
    try:
        declared = support.parse(spec)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"implementation {name!r}: {exc}") from None
    module = _import(module_name, name)
    fn = module
    for part in function_name.split("."):  # a qualified name: Class.method
        fn = getattr(fn, part, None)
    if fn is None:
        raise ValueError(f"implementation {name!r}: {module_name} has no {function_name!r}")
    if not callable(fn):
        raise TypeError(f"implementation {name!r}: {function_name} is not callable")
    return _adapted(name, fn, convention, declared, f"{target}, called as {convention.name}")


def _adapted(name: str, fn: Callable, convention, declared: Support, description: str):
    fn = conventions.called_as(fn, convention.name)
    shown = short_name(name)  # its results' contract messages name it as the findings do
    return Implementation(
        name, "attention",
        # A paged function's cache is made in the page sizes it declares.
        convention.adapt(fn, shown, declared.page_sizes) if convention.pages
        else convention.adapt(fn, shown), writes_out=False,
        description=description, support=declared, expressible=convention.alignments,
        **({convention.serving: conventions.SERVING_ADAPTERS[convention.serving](fn, shown)}
           if convention.serving else {}),
        new_tokens=convention.pages, convention=convention.name,
    )


def of_function(
    fn: Callable, convention: str = "attnfuzz", supports: Support | None = None
) -> Implementation:
    """A Python attention function as a registered implementation.

    Its name is ``MODULE:FUNCTION@CONVENTION[#SUPPORT]`` (a file path where the
    module is a script), so a dump of it replays in a new process."""
    if not callable(fn):
        raise TypeError(f"fn must be a callable attention function, got {type(fn).__name__}")
    declared = Support() if supports is None else supports
    if not isinstance(declared, Support):
        raise TypeError(f"supports must be an attnfuzz Support, got {type(declared).__name__}")
    adapt = conventions.get(convention)
    module = getattr(fn, "__module__", None) or "__main__"
    qualname = getattr(fn, "__qualname__", getattr(fn, "__name__", ""))
    if "<" in qualname:
        raise ValueError(f"fn {qualname}: needs a module-level function, so that a dump can "
                         "import it again")
    if "." not in module:
        # A top-level module (a test's sibling, a script) is importable where
        # pytest put it on the path, not necessarily where a replay runs: by file.
        file = inspect.getsourcefile(fn)
        if file is None:
            raise ValueError(f"fn {qualname}: has no source file, so a dump cannot import it")
        module = str(Path(file).resolve())
    name = f"{module}:{qualname}@{convention}"
    if declared.spec():
        name += f"#{declared.spec()}"
    impl = _adapted(name, fn, adapt, declared, f"{module}:{qualname}, called as {convention}")
    return register(impl)


def _import(module_name: str, name: str) -> object:
    try:
        if module_name.endswith(".py"):
            path = Path(module_name).resolve()
            spec = importlib.util.spec_from_file_location(path.stem, path)
            if spec is None or not path.is_file():
                raise ImportError(f"no file {path}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[path.stem] = module
            if str(path.parent) not in sys.path:  # its own sibling imports
                sys.path.insert(0, str(path.parent))
            try:
                spec.loader.exec_module(module)
            except BaseException:  # half imported: a fixed file imports anew
                sys.modules.pop(path.stem, None)
                raise
            return module
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"implementation {name!r}: cannot import {module_name}: {exc}") from None
    except Exception as exc:  # the module's own code failed: where, in one line
        if isinstance(exc, SyntaxError):
            where, what = f"{exc.filename}:{exc.lineno}", exc.msg
        else:
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            where, what = f"{frame.filename}:{frame.lineno}", str(exc).strip().split("\n")[0]
        raise ValueError(f"implementation {name!r}: cannot import {module_name}: "
                         f"{type(exc).__name__} at {where}: {what}") from None


def display_names(names: Iterable[str]) -> dict[str, str]:
    """Each implementation as a summary shows it: its ``short_name`` (no
    folder, no declared support, which ``declarations`` prints once), or
    its whole name where two would show alike."""
    unique = list(dict.fromkeys(names))
    short = {n: short_name(n) for n in unique}
    alike = len(set(short.values())) < len(unique)
    return {n: n if alike else short[n] for n in unique}


def declarations(shown: dict[str, str]) -> list[str]:
    """A line per declared support that ``display_names`` left out of a name."""
    return [f"support declared for {label}: {name.partition('#')[2]}"
            for name, label in shown.items() if "#" in name and label != name]


def names(op: str | None = None, *, campaign: bool | None = None) -> list[str]:
    """Registered names, optionally of one op, or only those a plain campaign fuzzes."""
    return [
        n for n, impl in _REGISTRY.items()
        if (op is None or impl.op == op) and (campaign is None or impl.campaign == campaign)
    ]


__all__ = [
    "DTYPES", "OPS", "Implementation", "Support", "get", "imported", "names", "of_function",
    "register", "short_name", "display_names", "declarations",
]
