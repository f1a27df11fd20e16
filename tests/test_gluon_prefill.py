"""The Hopper prefill, checked without a GPU: its sm_90 code and its refusals.

``kernels/hopper_prefill.py`` is warp specialised: its sm_90 code must keep
the parts that make it so (wgmma, TMA loads, the producer's registers handed
to the consumers) and must not spill, or its GPU timings mean something else.
What it cannot compute ``flash_hopper`` must refuse, naming the argument,
before any launch, and ``flash_attention`` must send to the portable kernel.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import triton
from hypothesis import given, settings
from hypothesis import strategies as st

from attnfuzz.kernels import flash, flash_attention, flash_hopper, flash_prefill
from attnfuzz.kernels.hopper_prefill import unavailable
from attnfuzz.properties import backend

ROOT = Path(__file__).resolve().parents[1]
PTXAS = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "ptxas"


# The plain version, every option on (causal, pipelined, 3 stages, a negative
# scale), the zero scale's path, and the persistent grid.
@pytest.mark.parametrize("version", [["plain"], ["pipelined causal", "--scale=-0.5"],
                                     ["pipelined", "--scale=0"], ["persistent"]],
                         ids=["plain", "every-option", "zero-scale", "persistent"])
def test_the_hopper_kernel_compiles_warp_specialised_without_spills(version: list[str]) -> None:
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


def _fp16(*shape: int, g: torch.Generator) -> torch.Tensor:
    return torch.randn(*shape, generator=g).to(torch.float16).to(backend.device())


def test_flash_hopper_refuses_what_it_cannot_compute_naming_the_argument() -> None:
    g = torch.Generator().manual_seed(0)
    q, k = _fp16(1, 2, 100, 128, g=g), _fp16(1, 1, 77, 128, g=g)
    cases = {
        "q: expected float16 or bfloat16": ((q.float(), k.float(), k.float()), {}),
        "D = 128, Dv = 64": ((q, k, k[..., :64]), {}),
        "D = 64": ((q[..., :64], k[..., :64], k[..., :64]), {}),
        "window: expected None": ((q, k, k), {"window": (8, None)}),
    }
    if (why := unavailable()) is not None:  # the device's refusal comes last
        cases[f"q: {why}"] = ((q, k, k), {})
    for said, (args, kw) in cases.items():
        with pytest.raises(ValueError, match=re.escape(said)):
            flash_hopper(*args, **kw)
    for error, programs, said in [(TypeError, 2.0, "programs must be an int or None, got float"),
                                  (TypeError, True, "programs must be an int or None, got bool"),
                                  (ValueError, 0, "programs must be at least 1, got 0")]:
        with pytest.raises(error, match=re.escape(said)):
            flash_hopper(q, k, k, programs=programs)


# Where the Hopper kernel cannot run at all every call takes the portable
# kernel, and these would cost interpreted launches to show nothing.
needs_hopper = pytest.mark.skipif(unavailable() is not None, reason=f"hopper: {unavailable()}")


@needs_hopper
@pytest.mark.parametrize("refused", ["window", "head dim"])
def test_flash_attention_runs_the_portable_kernel_where_the_hopper_kernel_cannot(
        refused: str) -> None:
    g = torch.Generator().manual_seed(0)
    d = 64 if refused == "head dim" else 128
    q, k = _fp16(1, 2, 140, d, g=g), _fp16(1, 1, 150, d, g=g)
    window = (8, None) if refused == "window" else None
    torch.testing.assert_close(flash_attention(q, k, k, window=window),
                               flash_prefill(q, k, k, window=window), rtol=0, atol=0)


@needs_hopper
def test_flash_attention_runs_the_hopper_kernel_from_its_size_on(monkeypatch) -> None:
    g = torch.Generator().manual_seed(0)
    q, k = _fp16(1, 2, 140, 128, g=g), _fp16(1, 1, 150, 128, g=g)
    pairs = 2 * 140 * 150
    for causal in (False, True):
        hopper, portable = (f(q, k, k, causal=causal) for f in (flash_hopper, flash_prefill))
        # Another kernel, another summation order: other bits somewhere.
        assert not torch.equal(hopper, portable)
        for threshold, want in ((pairs, hopper), (pairs + 1, portable)):
            monkeypatch.setattr(flash, "HOPPER_MIN_PAIRS", threshold)
            got = flash_attention(q, k, k, causal=causal)
            torch.testing.assert_close(got, want, rtol=0, atol=0)


# Nearly every example is a new specialisation of each of its three launches
# (Triton specialises Sq, Sk, the offset and the tile count on divisibility by
# 16), seconds of compiling each: at most 20 examples, whatever the profile
# asks, so that this one test stays within minutes on a GPU run.
@needs_hopper
@settings(max_examples=min(settings.default.max_examples, 20))
@given(dtype=st.sampled_from([torch.float16, torch.bfloat16]), b=st.integers(1, 2),
       hkv=st.integers(1, 2), group=st.sampled_from([1, 2]), sq=st.integers(1, 700),
       sk=st.integers(1, 700), scale=st.sampled_from([None, 0.5, -0.25, 0.0]),
       lse=st.booleans(), programs=st.integers(1, 9), seed=st.integers(0, 2**32 - 1))
def test_the_hopper_kernel_gives_the_same_bits_on_any_schedule(
        dtype, b, hkv, group, sq, sk, scale, lse, programs, seed) -> None:
    """Every row tile is the same arithmetic wherever it runs: a program per
    tile, one per SM taking tiles in turn, or a few programs, each carrying
    its ring of K/V stages, Q's barriers and its last tile's P @ V into the
    next tile, must give the same bits.  The harness fuzzes capped grids
    (``programs``); this is what ties them to the default one.  The
    persistent grid is not causal."""
    from attnfuzz.kernels._checks import check_attention_inputs
    from attnfuzz.kernels.flash import weight_shift
    from attnfuzz.kernels.hopper_prefill import launch_hopper

    g = torch.Generator().manual_seed(seed)
    q = torch.randn(b, hkv * group, sq, 128, generator=g).to(dtype).cuda()
    k, v = (torch.randn(b, hkv, sk, 128, generator=g).to(dtype).cuda() for _ in range(2))
    dims = check_attention_inputs(q, k, v, causal=False, scale=scale, alignment="bottom_right")
    results = {}
    for schedule in ("a tile a program", "one per SM", f"{programs} programs"):
        out = torch.full_like(q, float("nan"))
        lse_out = torch.full(q.shape[:3], float("nan"), device=q.device) if lse else None
        launch_hopper(q, k, v, out, lse_out, dims, causal=False,
                      p_shift=weight_shift(dtype, sk), persistent=schedule != "a tile a program",
                      programs=programs if schedule.endswith("programs") else None)
        results[schedule] = (out, lse_out)
    (want, want_lse), *others = results.values()
    assert not want.isnan().any()
    for schedule, (got, got_lse) in zip(list(results)[1:], others, strict=True):
        assert torch.equal(got, want), schedule
        if lse:
            assert torch.equal(got_lse, want_lse), schedule


def test_a_persistent_launch_is_refused_where_its_stream_does_not_hold() -> None:
    """The persistent consumer streams every tile's blocks through the pipelined
    loop and assumes each tile has one (not causal): other plans must be refused."""
    from attnfuzz.kernels._checks import AttentionDims
    from attnfuzz.kernels.hopper_prefill import launch_plan

    dims = AttentionDims(1, 2, 1, 256, 256, 128, 128, 128**-0.5, 0)
    grid, _, meta = launch_plan(dims, causal=False, store_lse=False, p_shift=0.0,
                                persistent=True, sms=3)
    assert grid == (3,) and meta["PERSISTENT"]
    for causal, pipeline in ((True, True), (False, False)):
        with pytest.raises(ValueError, match=f"persistent: .*causal={causal}, pipeline={pipeline}"):
            launch_plan(dims, causal=causal, store_lse=False, p_shift=0.0, pipeline=pipeline,
                        stages=3 if pipeline else 2, persistent=True, sms=3)
