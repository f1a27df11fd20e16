"""Replay every dump committed under tests/regressions/: fixed bugs stay fixed.

Promote a dump with ``cp -r .attnfuzz/failures/<dump> tests/regressions/<name>``
once the bug it found is fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from attnfuzz.properties import checks
from attnfuzz.properties.model.cases import from_json
from attnfuzz.properties.run import harness
from tests.support import require_dtype

ROOT = Path(__file__).parent / "regressions"
DUMPS = sorted(p.parent for p in ROOT.glob("*/case.json"))


@pytest.mark.parametrize("dump", DUMPS, ids=[d.name for d in DUMPS])
def test_regression_stays_fixed(dump):
    import json

    require_dtype(from_json(json.loads((dump / "case.json").read_text())["case"]).dtype)
    result = harness.replay(dump)
    bad = checks.failures(result.verdicts)
    assert not bad, "\n".join(v.describe() for v in bad)
