"""The Gluon prefill probe, checked without a GPU: its sm_90 code and its refusals.

``benchmarks/gluon_prefill.py`` is warp specialised: its sm_90 code must keep
the parts that make it so (wgmma, TMA loads, the producer's registers handed
to the consumers) and must not spill, or its GPU timings mean something else.
What it cannot compute it must refuse, naming the argument, before any launch.
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


_REFUSALS = r'''
import json, runpy, sys, torch
g = runpy.run_path(sys.argv[1])
q = torch.zeros(1, 2, 100, 128, dtype=torch.bfloat16)
k = torch.zeros(1, 1, 77, 128, dtype=torch.bfloat16)
k2 = torch.zeros(1, 2, 77, 128, dtype=torch.bfloat16)
cases = {
    "dtype": ((q.float(), k, k), {}),
    "broadcast k": ((q, k.expand(1, 2, 77, 128), k.expand(1, 2, 77, 128)), {}),
    "head dim": ((q[..., :64], k, k), {}),
    "heads": ((torch.zeros(1, 3, 100, 128, dtype=torch.bfloat16), k2, k2), {}),
    "alignment": ((q, k, k), {"alignment": "diagonal"}),
    "scale": ((q, k, k), {"scale": 0.0}),
    "causal": ((q, k, k), {"causal": 1}),
    "stages": ((q, k, k), {"stages": 4}),
    "device": ((q, k, k), {}),
}
out = {}
for name, (args, kw) in cases.items():
    try:
        g["attention"](*args, **kw)
        out[name] = "accepted"
    except (ValueError, TypeError) as e:
        out[name] = str(e)
print(json.dumps(out))
'''


def test_the_probe_refuses_what_it_cannot_compute_naming_the_argument() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    proc = subprocess.run([sys.executable, "-c", _REFUSALS,
                           str(ROOT / "benchmarks" / "gluon_prefill.py")],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    said = json.loads(proc.stdout.splitlines()[-1])
    named = {"dtype": "q:", "broadcast k": "k:", "head dim": "D = Dv = 128", "heads": "Hkv",
             "alignment": "alignment:", "scale": "scale:", "causal": "causal:",
             "stages": "stages:", "device": "CUDA device"}
    for case, word in named.items():
        assert word in said[case], (case, said[case])
