"""The harness still catches bugs: a fast subset of the mutant catalogue.

One mutant per kernel, each planted in a temporary copy of kernels/ and run
against the property suite in a worker process (see properties/mutants.py).
The full catalogue runs with ``attnfuzz mutants``.
"""

from __future__ import annotations

import pytest

from properties import backend
from properties.mutants import catalogue, run_mutant

SUBSET = (
    "matmul.bh_flat_one_stride",
    "matmul_nt.strides_not_swapped",
    "softmax.nan_on_empty_rows",
    "naive.pv_ignores_gqa",
    "flash.acc_not_rescaled",
    "decode.split_end_ignored",
)


@pytest.mark.parametrize("name", SUBSET)
def test_mutant_is_killed(name):
    (mutant,) = catalogue([name])
    result = run_mutant(mutant, examples=40, seed=0, backend=backend.configure())
    assert not result.error, result.detail
    assert result.killed, f"{name} ({mutant.mimics}) survived {result.examples} examples"
