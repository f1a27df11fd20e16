"""The prefill ablation's variants still apply to the kernel as it is.

``benchmarks/ablate_prefill.py`` plants each variant as a source edit of
``kernels/_row_tile.py``; an edit whose text the kernel no longer contains would
only show up as a failed variant in a GPU run.  Applying them is cheap.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from attnfuzz.properties.mutation.mutant import mutant
from attnfuzz.properties.mutation.runner import apply

ROOT = Path(__file__).resolve().parents[1]
# Run, not imported: Hypothesis draws constants from every loaded module, so
# a new module in sys.modules would change what fixed seeds draw elsewhere
# (tests/test_stateful.py's planted bugs shrink under fixed seeds).
ABLATION = runpy.run_path(str(ROOT / "benchmarks" / "ablate_prefill.py"))
VARIANTS, FILE = ABLATION["VARIANTS"], ABLATION["FILE"]


@pytest.mark.parametrize("name", [n for n, (_, edits) in VARIANTS.items() if edits])
def test_each_variant_applies_once_and_changes_the_kernel(name: str, tmp_path: Path) -> None:
    description, edits = VARIANTS[name]
    kernels = apply(mutant(name, FILE, edits, description, ()), tmp_path)
    planted = (kernels / FILE).read_text()
    original = (ROOT / "kernels" / FILE).read_text()
    assert planted != original
    for _, new in edits:
        assert new in planted
