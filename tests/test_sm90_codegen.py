"""What the fused kernels compile to for the H200 (sm_90), checked without a GPU.

``benchmarks/sm90_codegen.py`` compiles every 16-bit D = 128 config with
Triton's bundled ptxas and reads the SASS, which the interpreter cannot
show.  Output tiles must leave in 128-bit stores: a runtime mask on the head
dim once made each element its own store and cost the H200 benchmark 15-40%.
And the tuning table's configs must not spill registers, as its comment
promises.
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


@pytest.fixture(scope="module")
def codegen() -> list[dict]:
    if not PTXAS.exists():
        pytest.skip(f"this Triton install bundles no ptxas ({PTXAS})")
    # Compiled, not interpreted, kernels: a fresh process without TRITON_INTERPRET.
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sm90_codegen.py"), "--json"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout)


def _name(row: dict) -> str:
    m, n, w, s = row["config"]
    return f"{row['kernel']} {'causal ' if row['causal'] else ''}{m}/{n} w{w} s{s}"


def test_the_tuning_table_compiles_without_spills(codegen):
    spilling = [f"{_name(r)}: {r['stack_bytes']} stack bytes, {r['spill_stores']} STL"
                for r in codegen if r["stack_bytes"] or r["spill_stores"]]
    assert not spilling, f"configs that spill registers on sm_90: {spilling}"


def test_output_tiles_leave_in_128_bit_stores(codegen):
    """16-bit outputs and fp32 partials of unpadded heads: no narrower store
    than 128 bits, but the decode partials' LSE (one fp32 per row)."""
    narrow = []
    for r in codegen:
        stores = dict(r["stores"])
        assert stores.pop("STG.E.128", 0) > 0, f"{_name(r)} has no 128-bit store: {r['stores']}"
        if r["kernel"] in ("decode", "paged decode"):
            stores.pop("STG.E", None)  # the partial LSE, one scalar per row
        if stores:
            narrow.append(f"{_name(r)}: {stores}")
    assert not narrow, f"narrow global stores: {narrow}"
