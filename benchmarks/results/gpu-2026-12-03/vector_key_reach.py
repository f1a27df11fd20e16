"""How often the stateful property meets a launch key testing 8-byte alignment for 16,
modelled on the CPU as Triton compiles it (``README.md``, pointer-key-align-8).

A plain torch attention (the suite's ``tests.user_attention.mine``) behind a
per-shape cache keyed on each input's 8-byte alignment, whose entry records
the 16-byte alignment of the first call: a later call with an input 8 bytes
past a boundary, where the first was on one, reads that input from 8 bytes
early, but only where a compiled kernel would load it in 16-byte vectors (a
power-of-two head dim of at least 16 bytes, rows at multiples of 16
elements).  Run from the repository root:

    python3 benchmarks/results/gpu-2026-12-03/vector_key_reach.py SEQUENCES DTYPE
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("TRITON_INTERPRET", "1")
sys.path.insert(0, os.getcwd())

import torch  # noqa: E402

from attnfuzz.properties import checks, implementations  # noqa: E402
from attnfuzz.properties.checks import stateful  # noqa: E402
from tests.user_attention import mine  # noqa: E402

_COMPILED: dict[tuple, tuple[bool, ...]] = {}


def _vector_loads(t: torch.Tensor) -> bool:
    d = t.shape[-1]
    return (t.stride(-1) == 1 and d & (d - 1) == 0 and d * t.element_size() >= 16
            and all(s % 16 == 0 for s in t.stride()[:-1]))


def vector_key(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    inputs = (q, k, v)
    key = (*(t.shape for t in inputs), *(t.data_ptr() % 8 == 0 for t in inputs))
    aligned = _COMPILED.setdefault(key, tuple(t.data_ptr() % 16 == 0 for t in inputs))
    q, k, v = (t.as_strided(t.shape, t.stride(),
                            t.storage_offset() - (t.data_ptr() % 16) // t.element_size())
               if first and _vector_loads(t) else t
               for t, first in zip(inputs, aligned, strict=True))
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


if __name__ == "__main__":
    sequences, dtype = int(sys.argv[1]), sys.argv[2]
    name = implementations.of_function(vector_key).name
    caught = 0
    for seed in range(1, 11):
        try:
            checks.run_stateful(name, dtype, seed=seed, max_examples=sequences,
                                stateful_step_count=6, repeats=1, reset=_COMPILED.clear,
                                sweeps=True)
        except stateful.StatefulFailure:
            caught += 1
    print(f"{sequences} sequences, {dtype}: caught under {caught} of 10 seeds")
