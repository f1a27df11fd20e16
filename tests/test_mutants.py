"""The harness still catches bugs: a fast subset of the mutant catalogue.

One mutant per kernel (and per backward), each planted in a temporary copy of kernels/ and run
against the property suite in a worker process (see properties/mutants.py).
The full catalogue runs with ``attnfuzz mutants``.
"""

from __future__ import annotations

import pytest

from attnfuzz.properties import backend, checks, implementations
from attnfuzz.properties.mutation.runner import apply, catalogue, run_mutant, table

SUBSET = (
    "matmul.bh_flat_one_stride",
    "matmul_nt.strides_not_swapped",
    "softmax.nan_on_empty_rows",
    "naive.pv_ignores_gqa",
    "flash.acc_not_rescaled",
    "decode.split_end_ignored",
    "naive_bwd.dk_not_summed_over_group",
    "flash_bwd.delta_missing",
)


def test_every_mutant_applies(tmp_path):
    """Each edit of the whole catalogue still matches the kernel source exactly once."""
    for mutant in catalogue():
        apply(mutant, tmp_path / mutant.name)


def test_every_target_is_registered():
    """Targets name properties and implementations through the registries, and the
    property applies to the implementation."""
    for mutant in catalogue():
        for prop, impl, dtype in mutant.targets:
            assert checks.get(prop).applies(implementations.get(impl)), (mutant.name, prop, impl)
            assert dtype in implementations.get(impl).dtypes


def test_only_takes_names_and_patterns_each_of_which_must_match():
    picked = [m.name for m in catalogue(["hopper.next_tile_*", "flash.acc_not_rescaled"])]
    assert picked == ["hopper.next_tile_keeps_acc", "hopper.next_tile_keeps_softmax_state",
                      "flash.acc_not_rescaled"]
    with pytest.raises(SystemExit, match=r"unknown mutants: hoper\.\* \(names or patterns"):
        catalogue(["hopper.*", "hoper.*"])


@pytest.mark.parametrize("name", SUBSET)
def test_mutant_is_killed(name):
    (mutant,) = catalogue([name])
    result = run_mutant(mutant, examples=40, seed=0, backend=backend.configure())
    assert not result.error, result.detail
    assert result.killed, f"{name} ({mutant.mimics}) survived {result.examples} examples"


@pytest.mark.skipif(implementations.get("hopper").cannot_run() is None,
                    reason="the Hopper kernel runs here")
def test_a_mutant_whose_kernel_cannot_run_here_is_not_run_and_not_counted():
    (mutant,) = catalogue(["hopper.kv_head_modulo_group"])
    result = run_mutant(mutant, examples=2, seed=0, backend=backend.configure())
    assert result.not_run and not result.killed and not result.error, result
    assert "not run here: hopper.kv_head_modulo_group: hopper: " in table([result])
    assert "no mutant ran here" in table([result])
