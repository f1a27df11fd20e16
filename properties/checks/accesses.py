"""Memory checking for Triton's interpreter: every access inside a tensor the kernel was given.

On a GPU a load past a tensor is an illegal access (or, under another
allocation layout, a silent read of someone else's data); on the interpreter
it reads process memory, and when the kernel later discards the value
(``tl.where`` over a lane whose mask was dropped) no output shows it.  Inside
``watching()`` every load, store and atomic of an interpreted launch
(through pointers, block pointers or tensor descriptors) is checked against
the tensors passed to that launch: an address must be an element of one of
them (not merely inside its allocation: a read of the
padding between the rows of a sliced view reads past the end of the same
tensor laid out contiguously).  Offending lanes are not performed (a load
gives NaN there, a store is dropped), so a wild access cannot corrupt the
heap or kill the worker, and each is recorded as an ``Access``.

This is compute-sanitizer's memcheck for the interpreter, and stricter: it
knows each launch's tensors, so it also sees an access that lands inside a
neighbouring allocation.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import torch

# Accesses recorded per ``watching`` block: the first are the diagnosis, the
# rest would only cost memory.
MAX_RECORDED = 8


@dataclass(frozen=True)
class Access:
    """One offending access: where, by which kernel, and how far from which tensor."""

    kernel: str
    op: str  # load, store, atomic
    program: tuple[int, ...]
    lanes: int  # how many lanes of this access were outside
    where: str  # relative to the nearest tensor argument

    def describe(self) -> str:
        return (f"{self.op} outside its tensors in {self.kernel}, program {self.program}: "
                f"{self.lanes} lane(s), first {self.where}")


@dataclass(frozen=True)
class _Region:
    name: str
    lo: int  # address of element 0
    hi: int  # one past the last byte of the last element
    itemsize: int
    dims: tuple[tuple[int, int], ...]  # (stride, size) in elements, largest stride first
    exact: bool  # elements decompose uniquely (no overlap): membership is exact

    def contains(self, addr: np.ndarray) -> np.ndarray:
        inside = (addr >= self.lo) & (addr < self.hi)
        if not self.exact or not inside.any():
            return inside
        off = addr.astype(np.int64) - self.lo
        ok = inside & (off % self.itemsize == 0)
        rest = off // self.itemsize
        for stride, size in self.dims:
            idx = rest // stride
            ok &= idx < size
            rest = rest - np.minimum(idx, size - 1) * stride
        return ok & (rest == 0)

    def where(self, addr: int) -> str:
        elements = (addr - self.lo) / self.itemsize
        if addr < self.lo:
            return f"{-elements:g} elements before {self.name}"
        if addr >= self.hi:
            return f"{(addr - self.hi) / self.itemsize + 1:g} elements past the end of {self.name}"
        return f"between the elements of {self.name} (element offset {elements:g})"


def _region(name: str, t: torch.Tensor) -> _Region | None:
    if t.numel() == 0:
        return None
    dims = sorted(((s, n) for s, n in zip(t.stride(), t.shape, strict=True)
                   if n > 1 and s != 0), reverse=True)
    span = sum((n - 1) * s for s, n in dims)
    # Greedy decomposition (largest stride first) is exact when every stride
    # exceeds the span of all smaller ones, which holds for any layout without
    # self-overlap; for other views, only the extent is checked.
    exact, inner = True, 0
    for s, n in reversed(dims):
        exact &= s > inner
        inner += (n - 1) * s
    lo = t.data_ptr()
    return _Region(name, lo, lo + (span + 1) * t.element_size(), t.element_size(),
                   tuple(dims), exact)


def _tensors(name: str, arg: object) -> Iterator[tuple[str, torch.Tensor]]:
    base = getattr(arg, "base", None)
    if isinstance(arg, torch.Tensor):
        yield name, arg
    elif isinstance(base, torch.Tensor):  # TensorWrapper, TensorDescriptor
        yield name, base
    elif isinstance(arg, tuple):
        for i, a in enumerate(arg):
            yield from _tensors(f"{name}[{i}]", a)


class _Watch:
    def __init__(self) -> None:
        self.accesses: list[Access] = []
        self.regions: list[_Region] = []
        self.kernel = ""

    def outside(self, op: str, ptrs: np.ndarray, mask: np.ndarray | None) -> np.ndarray | None:
        """The lanes of an access that hit no element of the launch's tensors (None if none)."""
        addr = np.asarray(ptrs, dtype=np.uint64)
        active = np.ones(addr.shape, dtype=bool) if mask is None else np.broadcast_to(
            np.asarray(mask, dtype=bool), addr.shape)
        if not active.any():
            return None
        addr = addr.astype(np.int64)
        hit = np.zeros(addr.shape, dtype=bool)
        for r in self.regions:
            hit |= r.contains(addr)
        bad = active & ~hit
        if not bad.any():
            return None
        if len(self.accesses) < MAX_RECORDED:
            from triton.runtime.interpreter import interpreter_builder

            first = int(addr[bad].flat[0])
            self.accesses.append(Access(self.kernel, op, tuple(interpreter_builder.grid_idx),
                                        int(bad.sum()), self._nearest(first)))
        return bad

    def _nearest(self, addr: int) -> str:
        if not self.regions:
            return f"address {addr:#x}: the launch was given no tensor"

        def distance(r: _Region) -> int:
            return 0 if r.lo <= addr < r.hi else min(abs(addr - r.lo), abs(addr - r.hi))

        return min(self.regions, key=distance).where(addr)


_ACTIVE: list[_Watch] = []


def _lanes(mask) -> np.ndarray | None:
    """A memory operation's mask as a bool array.  Pointer loads and stores pass
    a ``TensorHandle``; block pointers and tensor descriptors pass the bare
    numpy array their bounds give (``materialize_pointers``)."""
    if mask is None:
        return None
    return np.asarray(mask if isinstance(mask, np.ndarray) else mask.data, dtype=bool)


def _without(mask, bad: np.ndarray):
    """``mask`` with the ``bad`` lanes off, as a handle of Triton's bool type."""
    import triton.language as tl
    from triton.runtime import interpreter as ti

    return ti.TensorHandle(np.broadcast_to(_lanes(mask), bad.shape) & ~bad, tl.int1)


def _patched():
    """The interpreter's memory operations and argument set-up, checked."""
    from triton.runtime import interpreter as ti

    builder, executor = ti.InterpreterBuilder, ti.GridExecutor
    load, store = builder.create_masked_load, builder.create_masked_store
    rmw, cas, init = builder.create_atomic_rmw, builder.create_atomic_cas, executor._init_args_hst

    def init_args(self, args_dev, kwargs):
        args_hst, kwargs_hst = init(self, args_dev, kwargs)
        watch = _ACTIVE[-1]
        named = [*zip(self.arg_names, args_hst, strict=False), *kwargs_hst.items()]
        watch.kernel = getattr(self.fn, "__name__", "kernel")
        watch.regions = [r for name, a in named for n, t in _tensors(name, a)
                         if (r := _region(n, t)) is not None]
        return args_hst, kwargs_hst

    def masked_load(self, ptrs, mask, other, *args, **kwargs):
        bad = _ACTIVE[-1].outside("load", ptrs.data, _lanes(mask))
        if bad is not None:
            dtype_np = ti._get_np_dtype(ptrs.get_element_ty())
            base = (np.zeros(ptrs.data.shape, dtype=dtype_np) if other is None
                    else np.broadcast_to(other.data, ptrs.data.shape).astype(dtype_np))
            fill = np.nan if np.issubdtype(dtype_np, np.floating) else 0
            other = ti.TensorHandle(np.where(bad, fill, base).astype(dtype_np),
                                    ptrs.get_element_ty())
            mask = _without(mask, bad)
        return load(self, ptrs, mask, other, *args, **kwargs)

    def masked_store(self, ptrs, value, mask, *args, **kwargs):
        bad = _ACTIVE[-1].outside("store", ptrs.data, _lanes(mask))
        if bad is not None:
            mask = _without(mask, bad)
        return store(self, ptrs, value, mask, *args, **kwargs)

    def atomic_rmw(self, op, ptr, val, mask, *args, **kwargs):
        bad = _ACTIVE[-1].outside("atomic", ptr.data, _lanes(mask))
        if bad is not None:
            mask = _without(mask, bad)
        return rmw(self, op, ptr, val, mask, *args, **kwargs)

    def atomic_cas(self, ptr, cmp, val, *args, **kwargs):
        if _ACTIVE[-1].outside("atomic", ptr.data, None) is not None:
            # A compare-and-swap has no mask to drop the lane with: answer as a
            # failed swap, and leave memory alone.
            return ti.TensorHandle(np.full(np.shape(ptr.data), np.nan, dtype=cmp.data.dtype)
                                   if np.issubdtype(cmp.data.dtype, np.floating)
                                   else np.asarray(cmp.data) + 1, cmp.dtype.scalar)
        return cas(self, ptr, cmp, val, *args, **kwargs)

    patches = [(builder, "create_masked_load", masked_load, load),
               (builder, "create_masked_store", masked_store, store),
               (builder, "create_atomic_rmw", atomic_rmw, rmw),
               (builder, "create_atomic_cas", atomic_cas, cas),
               (executor, "_init_args_hst", init_args, init)]
    return patches


@contextlib.contextmanager
def watching() -> Iterator[list[Access]]:
    """Check every access of interpreted launches inside the block; yields the
    list the offending ``Access``es are appended to."""
    watch = _Watch()
    patches = _patched() if not _ACTIVE else []
    for owner, attr, new, _ in patches:
        setattr(owner, attr, new)
    _ACTIVE.append(watch)
    try:
        yield watch.accesses
    finally:
        _ACTIVE.pop()
        for owner, attr, _, old in patches:
            setattr(owner, attr, old)


__all__ = ["MAX_RECORDED", "Access", "watching"]
