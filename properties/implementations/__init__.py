"""Implementations under test, by name: the one registry of them.

Each entry adapts one callable to the calling convention of its operation
(see ``implementation``), so every property applies to it unchanged.  The
built-in entries are attnfuzz's kernels (``builtin``) and PyTorch's SDPA
backends (``sdpa``); others join with ``register``.
"""

from __future__ import annotations

from attnfuzz.properties.implementations import builtin, sdpa
from attnfuzz.properties.implementations.implementation import DTYPES, OPS, Implementation

_REGISTRY: dict[str, Implementation] = {
    impl.name: impl for impl in (*builtin.IMPLEMENTATIONS, *sdpa.IMPLEMENTATIONS)
}


def register(impl: Implementation) -> Implementation:
    """Add (or replace) an implementation under its name."""
    if not isinstance(impl, Implementation):
        raise TypeError(f"impl must be an Implementation, got {type(impl).__name__}")
    _REGISTRY[impl.name] = impl
    return impl


def get(name: str) -> Implementation:
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise ValueError(f"unknown implementation {name!r}; known: {known}") from None


def names(op: str | None = None, *, campaign: bool | None = None) -> list[str]:
    """Registered names, optionally of one op, or only those a plain campaign fuzzes."""
    return [
        n for n, impl in _REGISTRY.items()
        if (op is None or impl.op == op) and (campaign is None or impl.campaign == campaign)
    ]


__all__ = ["DTYPES", "OPS", "Implementation", "get", "names", "register"]
