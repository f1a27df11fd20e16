"""The Gluon prefill probe still compiles for the H200 (sm_90), without a GPU.

``benchmarks/gluon_prefill.py`` is warp specialised: its sm_90 code must keep
the parts that make it so (wgmma, TMA loads, the producer's registers handed
to the consumers) and must not spill, or its GPU timings mean something else.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import triton

ROOT = Path(__file__).resolve().parents[1]
PTXAS = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "ptxas"


# The plain version, and every option on (causal, pipelined, 3 stages, a
# negative scale).
@pytest.mark.parametrize("version", [["plain"], ["pipelined causal", "--scale=-0.5"]],
                         ids=["plain", "every-option"])
def test_the_probe_compiles_warp_specialised_without_spills(version: list[str]) -> None:
    if not PTXAS.exists():
        pytest.skip(f"this Triton install bundles no ptxas ({PTXAS})")
    # Compiled, not interpreted: a fresh process without TRITON_INTERPRET.
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    cmd = [sys.executable, str(ROOT / "benchmarks" / "gluon_prefill.py"),
           "--compile", "--version", *version]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    code = json.loads(proc.stdout.splitlines()[-1])
    assert code["stack_bytes"] == 0, code
    assert code["HGMMA"] > 0 and code["UTMALDG"] > 0, code
    assert code["USETMAXREG"] > 0, code  # registers move between partitions
    assert code["shared_bytes"] <= 227 * 1024, code
