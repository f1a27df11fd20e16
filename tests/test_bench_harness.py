"""The harness benchmark's stage profile accounts for its time and leaves the package as it was.

``benchmarks/bench_harness.py`` times the harness by replacing the package's
functions at their module attributes for the length of a profile.  A
profile that forgot to put one back would leave every later test in the
process running through its timer (and charging a stale clock), so this
checks the bindings themselves, the aliases that ``from m import f`` made
included, and the time: stages are never negative and add up to no more
than the wall time around the call.
"""

from __future__ import annotations

import runpy
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Run, not imported: Hypothesis draws constants from every loaded module, so
# a new module in sys.modules would change what fixed seeds draw elsewhere.
BENCH = runpy.run_path(str(ROOT / "benchmarks" / "bench_harness.py"))


def _bindings() -> dict[tuple[str, str], object]:
    """Every binding of a ``WRAPPED`` function: its own attribute and each alias
    in attnfuzz's modules, with the object bound there now."""
    originals = [BENCH["_resolve"](module, attribute)
                 for module, attribute, _, _ in BENCH["WRAPPED"]]
    found = {(repr(owner), name): value for owner, name, value in originals}
    ids = {id(value) for _, _, value in originals}
    for mod_name, module in list(sys.modules.items()):
        if mod_name.startswith("attnfuzz.") and module is not None:
            for name, value in vars(module).items():
                if id(value) in ids:
                    found[(mod_name, name)] = value
    return found


def _hooks() -> tuple[object, object]:
    from triton import knobs

    return knobs.runtime.jit_cache_hook, knobs.runtime.jit_post_compile_hook


def test_profile_of_the_cheapest_case_adds_up_and_restores_the_package(tmp_path: Path) -> None:
    before, hooks = _bindings(), _hooks()
    assert ("attnfuzz.properties.checks.oracle", "build") in before  # aliases are seen
    t0 = time.perf_counter()
    result = BENCH["profile"]("matmul", "oracle", "float32", 2.0, 1, dump_dir=tmp_path)
    wall = time.perf_counter() - t0

    stages = result["stage_s"]
    assert set(stages) == set(BENCH["STAGES"])
    assert all(t >= 0 for t in stages.values()), stages
    assert sum(stages.values()) <= wall
    assert sum(stages.values()) <= result["wall_s"] * (1 + 1e-9)
    assert result["distinct"] >= 1
    assert result["stage_calls"]["impl"] >= 1 and stages["impl"] > 0
    assert not result["failures"], result["failures"]

    after = _bindings()
    assert after.keys() == before.keys()
    moved = [k for k in before if after[k] is not before[k]]
    assert not moved, f"still wrapped after the profile: {moved}"
    assert _hooks() == hooks


# --- tightness and draws: measured over drawn cases ------------------------------------------


def test_quantiles_are_nearest_rank():
    q = BENCH["quantiles"]([i / 10 for i in range(10, 0, -1)])
    assert q == {"median": 0.5, "p90": 0.9, "max": 1.0, "above_half": 0.5, "failing": 0.0}
    assert BENCH["quantiles"]([0.3, 2.0]) == {"median": 0.3, "p90": 2.0, "max": 2.0,
                                              "above_half": 0.5, "failing": 0.5}


def test_tightness_measures_every_check_of_drawn_cases():
    result = BENCH["tightness"]("matmul", "oracle", "float32", 4, 1)
    assert result["cases"] == 4 and not result["raised"]
    out = result["checks"]["out"]
    assert out["n"] == 4 and 0 < out["median"] <= out["p90"] <= out["max"] <= 1.0
    assert out["nearest_case"]


def test_a_shape_and_mask_class_ignores_values_and_layouts():
    from attnfuzz.properties.model.cases import AttentionCase
    from attnfuzz.properties.model.values import Values

    shape_mask = BENCH["shape_mask"]
    base = AttentionCase(sq=5, sk=7)
    assert shape_mask(base) == shape_mask(replace(base, values=Values("ties", 3.0, 9)))
    assert shape_mask(base) != shape_mask(replace(base, causal=True))
    assert shape_mask(replace(base, causal=True)) != shape_mask(
        replace(base, causal=True, alignment="top_left"))
    assert shape_mask(base) != shape_mask(replace(base, window=(1, None)))


def test_draws_are_counted_without_running_and_as_on_a_gpu():
    from attnfuzz.properties import backend, realistic_sizes

    before = backend.interpreting, backend.supports_tf32
    diverse = BENCH["diversity"]("flash", "oracle", "float32", 12, [0, 1])
    assert [p["cases"] for p in diverse["per_seed"]] == [12, 12]
    assert 1 <= diverse["distinct_min"] <= diverse["distinct_mean"] <= 12
    share = diverse["masked_informative_share"]
    assert share is None or 0 <= share <= 1
    sizes = BENCH["realistic_share"]("flash", "oracle", "float16", 60, [0])
    # As on a GPU: one draw in realistic_sizes.ODDS of the plain ones.
    assert sizes["cases"] == 60 and sizes["realistic"] >= 1, sizes
    b, hq, sq, sk = sizes["largest"]
    assert b * hq * sq * sk <= realistic_sizes.BUDGET
    assert (backend.interpreting, backend.supports_tf32) == before
