"""The suite's budgets, as data: how many examples a property test draws and how
large its cases may be, one row per (property, implementation), each with why.

The suite must fit CI's machine, two cores where every kernel runs under
Triton's interpreter: under 15 minutes for the whole suite (a case's cost
spans more than an order of magnitude with its heads and lengths, so one
seed can cost several times another).  There a
case costs about its (batch, query head, 64-row block, 64-key block) tiles,
one program-iteration each, per launch; the three-kernel attention costs
about four times the fused kernel per launch.  So on the interpreter a test
whose cases are several launches draws a share of the profile's examples,
and fewer tiles than ``attention_cases`` caps a free draw at
(``INTERPRETER_TILES``).  On a GPU every test draws the profile's count at
full size.  Examples per test come from the loaded profile: the plugin's
``dev`` and ``thorough`` (``plugin.PROFILES``, every user's) and this
suite's own ``ci`` and ``gpu`` (``SUITE_PROFILES``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from hypothesis import settings

from attnfuzz.properties import backend
from attnfuzz.properties.strategies import INTERPRETER_TILES

# The suite's own profiles: examples per test, and why.
SUITE_PROFILES: dict[str, tuple[int, str]] = {
    "ci": (15, "the 2-core CI machine, the interpreter running every kernel: the property "
           "tests are about a ninth of the suite's time at this count, and at 20 the suite ran "
           "past its 15 minutes"),
    "gpu": (int(os.environ.get("ATTNFUZZ_GPU_EXAMPLES", "100")),
            "compiled kernels; ATTNFUZZ_GPU_EXAMPLES sets it (every new shape compiles)"),
}

# The three-kernel attention's tiles on the interpreter: its launches cost about
# four times the fused kernel's, so a quarter of the free draw's tiles costs what
# flash's do.
NAIVE_TILES = INTERPRETER_TILES // 4
# Backward relations on the interpreter: within one 64-row tile (the kernels'
# multi-tile loops are the forward's, tested at full length).
ONE_TILE = 48
# The metamorphic property's lengths: past one 64-row block, no further.
RELATION_LEN = 70


@dataclass(frozen=True)
class Budget:
    """What one property test of one implementation may spend."""

    why: str
    share: int = 1  # on the interpreter, 1/share of the profile's examples (one at least)
    tiles: int | None = None  # on the interpreter, the cap on a free draw's tiles
    interpreter_len: int | None = None  # on the interpreter, the longest sequence
    max_len: int | None = None  # on every backend, the longest sequence


BUDGETS: dict[tuple[str, str], Budget] = {
    ("oracle", "flash"): Budget("one call a case; the Qwen3 shapes always among them"),
    ("oracle", "naive"): Budget(
        "three launches a case: flash's cost at its relations' tile budget", tiles=NAIVE_TILES),
    ("oracle", "decode"): Budget("one call a case"),
    ("oracle", "matmul"): Budget("one call a case"),
    ("oracle", "matmul_nt"): Budget("one call a case"),
    ("oracle", "softmax"): Budget("one call a case"),
    ("softmax_invariants", "softmax"): Budget("one call a case"),
    ("shift_invariance", "softmax"): Budget("two calls a case, the input and the shifted one"),
    ("metamorphic", "flash"): Budget(
        "about thirteen launches a case (the relations and their off-boundary rerun); "
        "flash's arithmetic is checked at full count by the oracle test, the relations "
        "also run on naive and decode", share=3, max_len=RELATION_LEN),
    ("metamorphic", "naive"): Budget(
        "about thirteen launches a case, each four of flash's; its arithmetic is checked at "
        "full count by the oracle and against flash", share=6, tiles=NAIVE_TILES,
        max_len=RELATION_LEN),
    ("metamorphic", "decode"): Budget(
        "flash's relations at flash's cost a case; its oracle test runs at full count", share=3),
    ("agree", "naive"): Budget(
        "both attentions run each case, five flash launches' worth: a fifth of the tiles "
        "costs one flash launch at the full draw; each is held to the oracle on its own",
        tiles=INTERPRETER_TILES // 5),
    ("gradients", "flash"): Budget(
        "a forward and a backward, four to eight launches; every catalogued backward mutant "
        "falls at 30 examples to attnfuzz mutants", share=3),
    ("gradients", "decode"): Budget(
        "a forward and a backward, four to eight launches", share=3),
    ("gradients", "naive"): Budget(
        "the three-kernel backward, each launch four of the fused one's: its forward's tile "
        "budget, within one tile", share=3, tiles=NAIVE_TILES, interpreter_len=ONE_TILE),
    ("gradient_relations", "flash"): Budget(
        "about six backward cases a case, within one tile", share=6, interpreter_len=ONE_TILE),
    ("gradient_relations", "naive"): Budget(
        "about six three-kernel backward cases a case, at its forward's tile budget, within "
        "one tile; the fused backward's relations run twice as many", share=10,
        tiles=NAIVE_TILES, interpreter_len=ONE_TILE),
    ("gradients_agree", "flash"): Budget(
        "both backwards run each case: the three-kernel one's tile budget, within one tile",
        share=6, tiles=NAIVE_TILES, interpreter_len=ONE_TILE),
    ("serving", "flash"): Budget(
        "two launches and a prefill alone per sequence; the serving kernels' own tests draw "
        "lengths and pages further", share=4),
    ("bad_metadata", "flash"): Budget(
        "every call refused before a launch: the drawing and packing alone"),
    ("bad_serving_out", "flash"): Budget(
        "every call refused before a launch: the drawing and packing alone"),
    # Compiled only, on an sm_90 GPU: no interpreter budget applies.
    ("oracle", "hopper"): Budget("one call a case; the Qwen3 shapes always among them"),
    ("metamorphic", "hopper"): Budget(
        "lengths past two of its 128-row tiles, which only a GPU affords", max_len=300),
    ("agree", "hopper"): Budget("two calls a case"),
    ("gradients", "hopper"): Budget("a forward and a backward a case"),
}


def budget(prop: str, impl: str) -> Budget:
    """The row of (``prop``, ``impl``); a test without one names the row to add."""
    try:
        return BUDGETS[prop, impl]
    except KeyError:
        raise KeyError(f"tests/budgets.py has no budget for ({prop!r}, {impl!r}): add its row "
                       "with why") from None


def examples(prop: str, *impls: str) -> int:
    """Examples for the test of ``prop`` on ``impls`` (one test, so one count:
    the rows must agree) under the loaded profile."""
    shares = {budget(prop, impl).share for impl in impls}
    if len(shares) != 1:
        raise ValueError(f"{prop} on {', '.join(impls)}: their rows' shares differ "
                         f"({sorted(shares)}), so they need tests of their own")
    count = settings.default.max_examples
    return max(1, count // shares.pop()) if backend.interpreting() else count


def examples_of(prop: str, *impls: str) -> settings:
    """The ``@settings`` of the test of ``prop`` on ``impls``: its examples."""
    return settings(max_examples=examples(prop, *impls))


def max_tiles(prop: str, impl: str) -> int | None:
    """The cap on a free draw's tiles (None: ``attention_cases``' own)."""
    return budget(prop, impl).tiles if backend.interpreting() else None


def max_len(prop: str, impl: str) -> int | None:
    """The longest sequence the test draws (None: the strategy's own)."""
    row = budget(prop, impl)
    if backend.interpreting() and row.interpreter_len is not None:
        return row.interpreter_len
    return row.max_len


def sizes(prop: str, impl: str) -> dict[str, int]:
    """``attention_cases``' keyword arguments for the row's limits that apply here."""
    limits = {"max_seq": max_len(prop, impl), "max_tiles": max_tiles(prop, impl)}
    return {name: value for name, value in limits.items() if value is not None}
