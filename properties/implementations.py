"""Implementations under test, by name.

Each entry adapts one callable to a common calling convention so every
property applies to it unchanged:

- attention: ``run(q, k, v, out, **case.kwargs()) -> {"out": ..., "probs"?: ..., "lse"?: ...}``
  where ``out`` is a poisoned, possibly strided tensor the implementation
  must fill (or ``None`` if it cannot write into a given tensor);
- matmul / matmul_nt: ``run(a, b, out, scale=..., input_precision=...) -> {"out": ...}``;
- softmax: ``run(x, out, scale=..., causal=..., alignment=...) -> {"out": ...}``.

Kernels are imported lazily, so the backend can be chosen first.  Other
implementations (mutants, library attention) join with ``register``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

OPS = ("attention", "matmul", "matmul_nt", "softmax")


@dataclass(frozen=True)
class Implementation:
    name: str
    op: str
    run: Callable[..., dict[str, torch.Tensor]]
    writes_out: bool = True  # fills a caller-provided out tensor
    description: str = ""
    dtypes: tuple[str, ...] = ("float32", "float16", "bfloat16")


_REGISTRY: dict[str, Implementation] = {}


def register(impl: Implementation) -> Implementation:
    if impl.op not in OPS:
        raise ValueError(f"op must be one of {', '.join(OPS)}, got {impl.op!r}")
    _REGISTRY[impl.name] = impl
    return impl


def get(name: str) -> Implementation:
    _register_builtins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown implementation {name!r}; known: {known}") from None


def names(op: str | None = None) -> list[str]:
    _register_builtins()
    return [n for n, impl in _REGISTRY.items() if op is None or impl.op == op]


def _naive(q, k, v, out, **kw):
    import kernels

    o, p = kernels.naive_attention(q, k, v, return_probs=True, out=out, **kw)
    return {"out": o, "probs": p}


def _flash(q, k, v, out, **kw):
    from kernels.flash_attention import flash_attention

    o, lse = flash_attention(q, k, v, return_lse=True, out=out, **kw)
    return {"out": o, "lse": lse}


# flash_decode's own plan gives the small keys of fuzzed cases one range on a
# GPU (it wants >= 256 keys a range), which would leave the split-K merge
# untested there: found when a mutant that double-counts keys across ranges
# survived 120 H200 examples.  Four ranges make every case with more than one
# key block split, on every backend (the interpreter's plan already did).
DECODE_SPLITS = 4


def _decode(q, k, v, out, **kw):
    from kernels.flash_attention import flash_decode

    kw.setdefault("num_splits", DECODE_SPLITS)
    o, lse = flash_decode(q, k, v, return_lse=True, out=out, **kw)
    return {"out": o, "lse": lse}


def _matmul(a, b, out, **kw):
    import kernels

    return {"out": kernels.matmul(a, b, out=out, **kw)}


def _matmul_nt(a, b, out, **kw):
    import kernels

    return {"out": kernels.matmul_nt(a, b, out=out, **kw)}


def _softmax(x, out, **kw):
    import kernels

    return {"out": kernels.softmax(x, out=out, **kw)}


_BUILTINS = (
    Implementation("naive", "attention", _naive, description="three-kernel attention"),
    Implementation("flash", "attention", _flash, description="fused FlashAttention forward"),
    Implementation("decode", "attention", _decode, description="split-K decode, 4 key ranges"),
    Implementation("matmul", "matmul", _matmul, description="tiled matmul"),
    Implementation("matmul_nt", "matmul_nt", _matmul_nt, description="transpose-free a@b.T"),
    Implementation("softmax", "softmax", _softmax, description="row softmax"),
)


def _register_builtins() -> None:
    from properties.sdpa import IMPLEMENTATIONS as SDPA

    for impl in (*_BUILTINS, *SDPA):
        _REGISTRY.setdefault(impl.name, impl)
