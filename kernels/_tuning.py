"""Tile tables and autotuning of the fused prefill's row tile.

The prefill kernels (``flash.py``'s dense prefill and ``serving.py``'s
packed and paged ones) share one table of candidate tiles for the H200.  A
short launch takes the table's first entry; a long one on the GPU is
autotuned over the entries once per key, and the choice is kept for the
process (``tuned_config``) and on disk (``_launch.TuningFile``), so that
another process does not time the candidates again.
"""

from __future__ import annotations

import functools
import os
import zlib
from collections.abc import Callable

import torch
import triton

from ._checks import interpreting
from ._launch import TuningFile, tuning_path
from ._tiles import Config, _next_pow2, _tile_kind

# Prefill configs for the H200 (sm_90: 227 KB shared memory per block, 255
# registers per thread), as Config(BLOCK_M, BLOCK_N, num_warps, num_stages).
# The first entry of each list is the untuned default; the autotuner picks
# among all of them.  Every entry compiles for sm_90 within shared memory at
# H = 16, D = Dv = the key's width, and without register spills but for
# tf32 16/32 w8 s2 at width 256 (8 bytes; ``benchmarks/sm90_codegen.py``
# reads this, and tests/test_sm90_codegen.py holds the 16-bit D = 128
# entries to it).  The fp32 score and accumulator tiles live in registers
# (128 x 128 fp32 over 8 warps is 64 registers per thread apiece), so wide
# heads get shorter tiles.  fp32 'ieee' dots run on the FMA units with
# operands in registers and need far smaller tiles than 'tf32' (tensor
# cores) to avoid spilling.
PREFILL_CONFIGS: dict[tuple[str, int], list[Config]] = {
    ("16bit", 64): [
        Config(128, 64, 4, 3), Config(128, 128, 8, 3), Config(128, 64, 8, 4),
        Config(64, 64, 4, 3), Config(128, 32, 4, 4),
    ],
    ("16bit", 128): [
        Config(64, 64, 4, 3), Config(128, 64, 8, 3), Config(128, 128, 8, 3),
        Config(128, 128, 8, 2), Config(128, 64, 8, 4), Config(64, 32, 4, 3),
    ],
    ("16bit", 256): [
        Config(64, 64, 8, 2), Config(128, 64, 8, 2), Config(64, 32, 8, 3), Config(128, 32, 8, 2),
    ],
    ("tf32", 64): [Config(64, 64, 8, 2), Config(64, 32, 8, 2), Config(128, 32, 8, 2)],
    ("tf32", 128): [Config(64, 32, 8, 2), Config(64, 64, 8, 2), Config(128, 32, 8, 2)],
    ("tf32", 256): [Config(32, 32, 8, 2), Config(64, 32, 8, 2), Config(16, 32, 8, 2)],
    ("ieee", 64): [Config(32, 32, 8, 2), Config(64, 32, 8, 3), Config(32, 32, 4, 2)],
    ("ieee", 128): [Config(32, 32, 8, 2), Config(32, 16, 8, 2), Config(32, 16, 4, 2)],
    ("ieee", 256): [Config(32, 16, 8, 2), Config(16, 32, 8, 2), Config(16, 16, 8, 2)],
}
# Shorter sequences run the default: tuning costs about a second per new key,
# which a fuzzer trying many small shapes must not pay.
TUNE_MIN_SEQ = 512


def prefill_config(dtype: torch.dtype, precision: str, d: int, dv: int) -> Config:
    """The untuned prefill config.

    The interpreter pays per operation per program, not per element, so it
    gets one large tile shape (few programs, few loop trips).
    """
    if interpreting():
        return Config(64, 64, 4, 1)
    return PREFILL_CONFIGS[_tile_kind(dtype, precision, d, dv)][0]


def _prune(configs: list[triton.Config], named_args: dict, **kwargs: object) -> list[triton.Config]:
    """Keep the candidates of this launch's table entry."""
    args = {**named_args, **kwargs}
    key = _tile_kind(args["q_ptr"].dtype, args["PRECISION"], args["HEAD_D"], args["HEAD_DV"])
    wanted = set(PREFILL_CONFIGS[key])
    return [c for c in configs if _config_of(c) in wanted]


def _config_of(c: triton.Config) -> Config:
    return Config(c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.num_warps, c.num_stages)


def prefill_tuner(kernel: triton.JITFunction, key: list[str]) -> triton.runtime.Autotuner:
    """``kernel`` autotuned over the prefill tile table, keyed on ``key``.

    A kernel of the prefill's row tile: its arguments include ``q_ptr``,
    ``PRECISION``, ``HEAD_D`` and ``HEAD_DV`` (which pick the table entry) and
    the length buckets ``TUNE_SQ``/``TUNE_SK``.
    """
    configs = [
        triton.Config({"BLOCK_M": c.block_m, "BLOCK_N": c.block_n},
                      num_warps=c.num_warps, num_stages=c.num_stages)
        for c in dict.fromkeys(c for group in PREFILL_CONFIGS.values() for c in group)
    ]
    return triton.autotune(configs=configs, key=["TUNE_SQ", "TUNE_SK", *key],
                           prune_configs_by={"early_config_prune": _prune})(kernel)



# ATTNFUZZ_AUTOTUNE=0 turns autotuning off.  Read once, like TRITON_INTERPRET:
# launches remember their config (``LaunchCache``), so a later change of the
# variable could not take effect for shapes already launched.
_AUTOTUNE = os.environ.get("ATTNFUZZ_AUTOTUNE", "1") != "0"


def autotuning(sq: int, sk: int) -> bool:
    """Tune only compiled, long launches, unless ATTNFUZZ_AUTOTUNE=0."""
    if interpreting() or not _AUTOTUNE:
        return False
    return min(sq, sk) >= TUNE_MIN_SEQ


def length_bucket(n: int) -> int:
    return _next_pow2(n)



# The tuned config of each autotuning key, as the tuner chose it: later
# launches with that key go straight to the kernel, without the tuner's
# per-call argument dictionaries (host time that short launches are bound by).
# Every config computes the same result, so a coarser key than the tuner's
# could only cost speed, never correctness.  The key leaves out whether the
# LSE is stored: a call under autograd stores it, and must get the tiles, so
# the bits, of the same call without autograd.  The serving launchers' keys
# (``serving._tuning_key``) start with their kernel's name.
_TUNED: dict[tuple, Config] = {}
# And across processes: the first launch of a key in a new process reads the
# choice of an earlier one (ATTNFUZZ_TUNING_CACHE; see ``_launch.TuningFile``).
_TUNING_FILE = TuningFile(tuning_path())


@functools.cache
def _tuning_scope(device: torch.device) -> str:
    """What a stored choice holds for: the GPU, the versions, the candidates."""
    gpu = device.type
    if device.type == "cuda":
        major, minor = torch.cuda.get_device_capability(device)
        gpu = f"{torch.cuda.get_device_name(device)} sm{major}{minor}"
    table = zlib.crc32(repr(sorted(PREFILL_CONFIGS.items())).encode())
    return f"{gpu}, torch {torch.__version__}, triton {triton.__version__}, tiles {table:08x}"


def tuned_config(tuner: triton.runtime.Autotuner, key: tuple, grid: Callable[[int], tuple[int]],
                 args: tuple, meta: dict) -> Config | None:
    """The config tuned for ``key``, or None on the key's first launch: then the
    tuner times each candidate on this launch (``args``, ``meta``, the grid of
    ``grid(BLOCK_M)``; ``args[0]`` a tensor on the launch's device) and runs it
    with the fastest, which is remembered, in this process and on disk."""
    c = _TUNED.get(key)
    if c is None:
        scope = _tuning_scope(args[0].device)
        stored = _TUNING_FILE.get(scope, key)
        if stored is not None and len(stored) == len(Config._fields):
            c = _TUNED[key] = Config(*stored)
            return c
        tuner[lambda m: grid(m["BLOCK_M"])](*args, **meta)
        _TUNED[key] = _config_of(tuner.best_config)
        _TUNING_FILE.put(scope, key, tuple(_TUNED[key]))
    return c

