"""Launch a compiled Triton kernel again without re-deriving its specialisation.

Every ``kernel[grid](...)`` call goes through ``JITFunction.run``: it binds
every argument, specialises each one (a pointer by its dtype and whether its
address is a multiple of 16; an integer by whether it equals 1, is a multiple
of 16, fits 32 bits), turns that and the options into a cache key and looks
up the compiled kernel.  For the fused attention kernels' 40-odd parameters
this is most of the host time of a call, and a short attention call on the GPU
(Sq = Sk = 1k) is bound by host time.

``LaunchCache`` remembers the compiled kernel under a key that fixes every
argument Triton specialises on:

- ``plan``, from the caller, which must determine every argument of the
  launch but the leading tensors (each launcher here puts all its integers,
  floats and compile-time constants in it, or what they are computed from);
- each leading tensor's dtype and ``data_ptr() % 16 == 0``, the only parts
  of a pointer that Triton's specialisation reads (``pointer_key``; a test
  holds the installed Triton to it);
- the device, and the two per-launch options ``JITFunction.run`` reads from
  Triton's settings (debug, instrumentation mode).

The first launch with a key goes through ``JITFunction.run``, which compiles
or finds the kernel; later ones call that kernel's launcher directly, with the
same arguments ``JITFunction.run`` would pass.  Where the launcher is Triton
3.6's ``CudaLauncher`` (``DirectLaunch``), they go one layer lower still, to
its compiled entry point, encoding the TMA descriptors themselves.  Launch
hooks (profilers) and pre-run hooks send every launch through
``JITFunction.run``, and so does the interpreter, which has no compiled kernel.

``TuningFile`` keeps what autotuning chose for a launch key on disk, so that
another process does not time the candidates again.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
import weakref
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, NamedTuple

import torch
from triton import knobs
from triton.runtime import driver
from triton.runtime.jit import JITFunction

from ._checks import interpreting

# What a launcher's ``build`` returns: the grid, the arguments after the
# leading tensors, and the keyword arguments (compile-time constants and
# options such as num_warps), as ``kernel[grid](*tensors, *args, **meta)``
# takes them.  ``None``: ``build`` launched the kernel itself (autotuning),
# and nothing is remembered.
Build = Callable[[], "tuple[tuple[int, ...], tuple, dict] | None"]

_MISSING = object()


class HostDescriptor(NamedTuple):
    """What a compiled kernel's launcher reads of a TMA descriptor argument
    (Triton 3.6's ``make_tensordesc_arg``: the base tensor, shape, strides and
    padding), so that a launch again need not build a Gluon
    ``TensorDescriptor``, which checks all of it anew."""

    base: torch.Tensor
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    padding: str = "zero"


# Encoded TMA descriptors by everything their encoding reads.  An encoding
# is a pure function of these (cuTensorMapEncodeTiled) and the launcher
# copies it into the launch's parameters, so one may serve many launches: a
# training step's tensors come back at the same addresses from PyTorch's
# caching allocator, and each encoding costs a few microseconds of a short
# step's host time (benchmarks/NOTES.md, b9).
_ENCODED: dict[tuple, Any] = {}
_ENCODED_MAX = 1024


class DirectLaunch(NamedTuple):
    """A compiled kernel's launcher (Triton 3.6's ``CudaLauncher``) below its
    Python layers: its compiled entry point, the arguments that entry takes
    before the kernel's, and what it needs to encode each TMA descriptor
    argument.  Above the entry, every launch allocates scratch memory (none
    here) and ``make_tensordesc_arg`` re-reads the same metadata and rebuilds
    each descriptor's argument list, in Python."""

    entry: Callable
    head: tuple
    # position among the leading arguments -> (swizzle, element size, element
    # type as cuTensorMapEncodeTiled takes it, block shape)
    encodings: dict[int, tuple]
    fill: Callable | None

    @staticmethod
    def of(kernel: Any, n_leading: int) -> DirectLaunch | None:
        """``kernel``'s launch taken apart, or None where its launcher is not
        the one this knows (another Triton, a kernel with scratch memory or
        TMA descriptors outside its leading arguments): then ``kernel.run``."""
        from triton.backends.nvidia import driver as nvidia

        run = kernel.run
        if not isinstance(run, nvidia.CudaLauncher):
            return None
        try:
            if run.global_scratch_size or run.profile_scratch_size:
                return None
            entry, head = run.launch, (kernel.function, run.launch_cooperative_grid,
                                       run.launch_pdl, None, None, kernel.packed_metadata,
                                       None, None, None)
            signature = list(kernel.src.signature.values())
            metas = getattr(kernel.metadata, "tensordesc_meta", None)
        except AttributeError:
            return None
        where = [i for i, sig in enumerate(signature)
                 if isinstance(sig, str) and sig.startswith("tensordesc")]
        if not where:
            return DirectLaunch(entry, head, {}, None)
        # ``run.launch`` is then ``wrap_handle_tensordesc``'s closure over the entry.
        code, closure = getattr(entry, "__code__", None), getattr(entry, "__closure__", None)
        names = code.co_freevars if code is not None and closure else ()
        entry = dict(zip(names, closure or (), strict=True)).get("launcher")
        entry = entry.cell_contents if entry is not None else None
        if (entry is None or not metas or len(metas) != len(where) or where[-1] >= n_leading
                or any(m is None or m.get("fp4_padded") for m in metas)):
            return None
        encodings = {i: (m["swizzle"], m["elem_size"],
                         nvidia.TMA_DTYPE_DEVICE_TO_HOST[m["elem_type"]], tuple(m["block_size"]))
                     for i, m in zip(where, metas, strict=True)}
        return DirectLaunch(entry, head, encodings, driver.active.utils.fill_tma_descriptor)

    def arguments(self, leading: tuple) -> tuple | list:
        """The leading arguments as the entry takes them: a descriptor as its
        encoded tensor map, then its shape and strides (``make_tensordesc_arg``)."""
        if not self.encodings:
            return leading
        out = []
        for i, arg in enumerate(leading):
            code = self.encodings.get(i)
            if code is None:
                out.append(arg)
                continue
            swizzle, size, kind, block = code
            padding = 1 if arg.padding == "nan" else 0
            key = (arg.base.data_ptr(), code, arg.shape, arg.strides, padding)
            encoded = _ENCODED.get(key)
            if encoded is None:
                if len(_ENCODED) >= _ENCODED_MAX:
                    _ENCODED.clear()
                encoded = _ENCODED[key] = self.fill(key[0], swizzle, size, kind, block,
                                                    arg.shape, arg.strides, padding)
            out.append(encoded)
            out.extend(arg.shape)
            out.extend(arg.strides)
        return out


@functools.cache
def num_sms(device_index: int) -> int:
    """The streaming multiprocessors of a CUDA device."""
    return torch.cuda.get_device_properties(device_index).multi_processor_count


@functools.cache
def capability(index: int) -> tuple[int, int]:
    """A CUDA device's compute capability; asked on calls that choose a path by
    it, so once per device."""
    return torch.cuda.get_device_capability(index)


def tma_addressable(t: torch.Tensor) -> bool:
    """Whether a TMA descriptor addresses the 4-D ``t`` as it is: its last dim
    contiguous, its start and its other strides nonzero multiples of 16 bytes
    (the conditions of ``cuTensorMapEncodeTiled``, which Triton's
    ``TensorDescriptor`` checks but for a stride of 0).  Spelled out, not
    looped: it runs four times a call."""
    s0, s1, s2, s3 = t.stride()
    size = t.element_size()
    return bool(s3 == 1 and s0 and s1 and s2 and not (
        s0 * size % 16 or s1 * size % 16 or s2 * size % 16 or t.data_ptr() % 16))


def pointer_key(t: torch.Tensor) -> tuple[torch.dtype, bool]:
    """What of a tensor argument Triton's specialisation depends on."""
    return t.dtype, t.data_ptr() % 16 == 0


def fresh_layout(t: torch.Tensor) -> torch.Tensor:
    """``t``, or a contiguous copy where its loads would compile differently.

    Triton specialises a pointer on 16-byte alignment and an integer stride
    on being 1 or a multiple of 16, and the compiler picks each load's
    register layout from what that tells it.  A ``tl.sum`` over a loaded tile
    (not over a dot's result) adds in an order that follows the layout, so
    the same values in another layout can round to other bits (seen on the
    H200: the backward's rowsum(dO * O), the softmax backward's rowsum(y * dy)).
    Kernels that sum loaded operands take them through this, so that every
    layout sums as a fresh allocation does.  The interpreter has no layouts
    and keeps the strides, so that CPU tests still reach the kernels' stride
    arithmetic.
    """
    if interpreting() or (t.stride() == _dense_strides(t.shape) and t.data_ptr() % 16 == 0):
        return t
    return torch.empty(t.shape, dtype=t.dtype, device=t.device).copy_(t)


def _dense_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def _hooks_idle() -> bool:
    """No launch hook is installed (Triton 3.6 keeps them as possibly empty chains)."""
    for hook in (knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook):
        if hook is not None and getattr(hook, "calls", True):
            return False
    return True


# Every launch cache made, so that one call forgets them all, those made on
# demand (one per tile shape) and those of kernels added later included.
_EVERY: weakref.WeakSet[LaunchCache] = weakref.WeakSet()


def clear_launch_caches() -> None:
    """Forget every launch of every ``LaunchCache``: the launch state a fresh
    process starts from (the compiled kernels stay in Triton's own caches)."""
    for cache in list(_EVERY):
        cache.clear()
    _ENCODED.clear()


class LaunchCache:
    """Compiled launches of one ``@triton.jit`` kernel, keyed by what specialises them.

    Under the interpreter ``fn`` is Triton's interpreted function and every
    launch goes through it.
    """

    def __init__(self, fn: JITFunction, max_entries: int = 4096,
                 leading: Callable[[tuple, bool], tuple] | None = None) -> None:
        self.fn = fn
        self.max_entries = max_entries
        # The kernel's leading arguments from the tensors, for a first launch
        # (False) or one again: a kernel that takes TMA descriptors builds
        # them here, since their base pointers change from call to call.
        self.leading = leading or (lambda tensors, again: tensors)
        self.entries: dict[Hashable, tuple] = {}
        self.direct_launches = 0  # launches that went through JITFunction.run
        self._equal_globals: dict[tuple, object] = {}
        _EVERY.add(self)

    def clear(self) -> None:
        """Forget every launch: the next of each key goes through ``JITFunction.run``."""
        self.entries.clear()
        self._equal_globals.clear()

    def launch(self, plan: Hashable, tensors: tuple[torch.Tensor, ...], build: Build) -> None:
        """Launch with ``tensors`` as the kernel's leading arguments.

        ``plan`` must determine everything ``build`` returns: a hit reuses the
        grid and arguments ``build`` gave for the first launch with this key.
        """
        if interpreting():
            built = build()
            if built is not None:
                grid, args, meta = built
                self.fn[grid](*self.leading(tensors, False), *args, **meta)
            return
        device = torch.cuda.current_device()
        key = (
            plan, device, tuple(map(pointer_key, tensors)),
            knobs.runtime.debug, knobs.compilation.instrumentation_mode,
        )
        entry = self.entries.get(key)
        if entry is not None and self._replayable(entry[0]):
            kernel, (g0, g1, g2), args, direct = entry
            # The current stream, as JITFunction.run reads it.  No launch
            # metadata and no hooks: they only feed hooks, and none is set.
            stream = torch._C._cuda_getCurrentRawStream(device)
            leading = self.leading(tensors, True)
            if direct is None:
                kernel.run(g0, g1, g2, stream, kernel.function, kernel.packed_metadata,
                           None, None, None, *leading, *args)
            else:
                direct.entry(g0, g1, g2, stream, *direct.head, *direct.arguments(leading), *args)
            return
        self.direct_launches += 1
        built = build()
        if built is None:
            return
        grid, args, meta = built
        kernel = self.fn.run(*self.leading(tensors, False), *args, grid=grid, warmup=False,
                             **meta)
        if kernel is None or not self._replayable(kernel):
            return
        # JITFunction.run passes every parameter, the compile-time constants
        # (named in ``meta``) included, in the order of the signature.
        names = self.fn.arg_names[len(tensors) + len(args):]
        grid3 = (*grid, 1, 1)[:3]
        if len(self.entries) >= self.max_entries:
            self.clear()
        self.entries[key] = (kernel, grid3, (*args, *(meta[n] for n in names)),
                             DirectLaunch.of(kernel, len(tensors)))

    def _replayable(self, kernel: Any) -> bool:
        """Whether a direct launch does all that ``JITFunction.run`` would."""
        if self.fn.pre_run_hooks or not _hooks_idle() or kernel.function is None:
            return False
        # JITFunction.run refuses a kernel whose globals changed since it was
        # compiled; leave that refusal to it.
        for key, (value, scope) in self.fn.used_global_vals.items():
            # A Gluon kernel's globals are constexprs (kept as copies), whose
            # ``!=`` builds a constexpr, microseconds a launch: an object
            # found equal once is passed by identity after.
            now = scope.get(key[0], _MISSING)
            if now is self._equal_globals.get(key, _MISSING):
                continue
            if now != value:
                return False
            self._equal_globals[key] = now
        return True


class TuningFile:
    """Tuned configs that outlive the process, in one JSON file.

    Autotuning times every candidate tile on a key's first launch (seconds
    for the prefill), and a new process would pay it again.  Entries are
    kept under a scope (the GPU, the library versions, the candidate table:
    what a stored choice depends on) and the key's ``repr``.  The file is
    read once; a write merges with what other processes wrote meanwhile and
    replaces it whole, so a reader never sees half a file.  A file that
    cannot be read or written only costs the tuning again: it is never an
    error of the launch.  ``path`` None keeps nothing.
    """

    def __init__(self, path: str | os.PathLike | None) -> None:
        self.path = None if path is None else Path(path)
        self._entries: dict[str, list[int]] | None = None

    def _load(self) -> dict[str, list[int]]:
        try:
            entries = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def get(self, scope: str, key: tuple) -> tuple[int, ...] | None:
        if self.path is None:
            return None
        if self._entries is None:
            self._entries = self._load()
        found = self._entries.get(f"{scope} | {key!r}")
        ok = isinstance(found, list) and found and all(type(x) is int for x in found)
        return tuple(found) if ok else None

    def put(self, scope: str, key: tuple, value: tuple[int, ...]) -> None:
        if self.path is None:
            return
        entries = {**self._load(), f"{scope} | {key!r}": list(value)}
        self._entries = entries
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.path.parent, delete=False,
                                             suffix=".tmp") as f:
                tmp = f.name
                json.dump(entries, f, indent=0, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def tuning_path() -> str | None:
    """Where tuned configs are kept: ``$ATTNFUZZ_TUNING_CACHE`` (empty or 0:
    nowhere), else ``attnfuzz/tuning.json`` in the user's cache directory."""
    given = os.environ.get("ATTNFUZZ_TUNING_CACHE")
    if given is not None:
        return None if given in ("", "0") else given
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "attnfuzz", "tuning.json")
