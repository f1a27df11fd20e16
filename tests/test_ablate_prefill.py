"""The prefill ablation's variants still apply to the kernel as it is.

``benchmarks/ablate_prefill.py`` plants each variant as a source edit of
``kernels/flash.py``; an edit whose text the kernel no longer contains would
only show up as a failed variant in a GPU run.  Applying them is cheap.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from attnfuzz.properties.mutation.mutant import mutant
from attnfuzz.properties.mutation.runner import apply

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import ablate_prefill  # noqa: E402 - a script beside the tests, found by path


@pytest.mark.parametrize("name", [n for n, (_, edits) in ablate_prefill.VARIANTS.items() if edits])
def test_each_variant_applies_once_and_changes_the_kernel(name: str, tmp_path: Path) -> None:
    description, edits = ablate_prefill.VARIANTS[name]
    kernels = apply(mutant(name, "flash.py", edits, description, ()), tmp_path)
    planted = (kernels / "flash.py").read_text()
    original = (ROOT / "kernels" / "flash.py").read_text()
    assert planted != original
    for _, new in edits:
        assert new in planted
