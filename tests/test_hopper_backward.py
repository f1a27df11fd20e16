"""The Hopper backward: its sm_90 code without a GPU, its choice and its bits on one.

``kernels/hopper_backward.py``'s two kernels are warp specialised: their sm_90 code must keep
the parts that make it so (wgmma, TMA loads, the producer's registers handed
to the consumers).  ``flash_attention``'s backward takes them exactly where its
forward took the Hopper kernel, and its gradients may not depend on the
layout of q, k, v or dO, nor change between reruns (the gradient properties
fuzz its values).
"""

from __future__ import annotations

import json
import os
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
from tests.support import assert_gradients_within_bounds

ROOT = Path(__file__).resolve().parents[1]
PTXAS = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "ptxas"


@pytest.mark.parametrize("kernel", ["dkdv", "dq", "fused"])
def test_the_hopper_backward_compiles_warp_specialised(kernel: str) -> None:
    if not PTXAS.exists():
        pytest.skip(f"this Triton install bundles no ptxas ({PTXAS})")
    # Compiled, not interpreted: a fresh process without TRITON_INTERPRET.
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    cmd = [sys.executable, str(ROOT / "benchmarks" / "gluon_backward.py"), "--compile", kernel,
           "--causal"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    code = json.loads(proc.stdout.splitlines()[-1])
    assert code["HGMMA"] > 0 and code["UTMALDG"] > 0, code
    assert code["USETMAXREG"] > 0, code  # registers move between partitions
    assert code["shared_bytes"] <= 227 * 1024, code
    # The consumers hold their accumulators in 240 registers a thread; a
    # spill there is local-memory traffic in the inner loop (dK/dV spilled
    # 31-36 stores while each step's row statistics lived in registers).
    assert code["spill_stores"] == 0, code
    # Fused, the writer adds dQ's tiles with TMA's reduce-add, not the consumers.
    assert (code["UTMAREDG"] > 0) == (kernel == "fused"), code


needs_hopper = pytest.mark.skipif(unavailable() is not None, reason=f"hopper: {unavailable()}")


def _inputs(b: int, hkv: int, group: int, sq: int, sk: int, dtype: torch.dtype,
            seed: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    shapes = ((b, hkv * group, sq, 128), (b, hkv, sk, 128), (b, hkv, sk, 128),
              (b, hkv * group, sq, 128))
    return [torch.randn(*s, generator=g).to(dtype).cuda() for s in shapes]


def _grads(attention, q, k, v, do, **kw) -> tuple[torch.Tensor, ...]:
    leaves = [t.detach().requires_grad_(True) for t in (q, k, v)]
    out = attention(*leaves, **kw)
    return torch.autograd.grad(out, leaves, do)


@needs_hopper
def test_flash_attention_takes_the_hopper_backward_where_its_forward_ran_the_hopper_kernel(
        monkeypatch) -> None:
    q, k, v, do = _inputs(1, 1, 2, 140, 150, torch.float16, 0)
    pairs = 2 * 140 * 150
    for causal in (False, True):
        hopper, portable = (_grads(f, q, k, v, do, causal=causal)
                            for f in (flash_hopper, flash_prefill))
        # Other kernels, another summation order: other bits somewhere.
        assert not all(torch.equal(a, b) for a, b in zip(hopper, portable, strict=True))
        for threshold, want in ((pairs, hopper), (pairs + 1, portable)):
            monkeypatch.setattr(flash, "HOPPER_MIN_PAIRS", threshold)
            got = _grads(flash_attention, q, k, v, do, causal=causal)
            for a, b in zip(got, want, strict=True):
                torch.testing.assert_close(a, b, rtol=0, atol=0)


def _relaid(t: torch.Tensor, order: tuple[int, ...], offset: int) -> torch.Tensor:
    """``t``'s values in memory laid out in ``order`` (outermost first), from
    ``offset`` elements into a larger buffer: 8 keeps TMA's 16-byte alignment,
    1 breaks it (the launcher then copies)."""
    shape = [t.shape[i] for i in order]
    buffer = torch.empty(t.numel() + offset, dtype=t.dtype, device=t.device)
    stored = buffer[offset:].view(shape)
    stored.copy_(t.permute(order))
    return stored.permute([order.index(i) for i in range(t.dim())])


# Each example with new sizes compiles new specialisations: few examples.
@needs_hopper
@settings(max_examples=min(settings.default.max_examples, 20))
@given(dtype=st.sampled_from([torch.float16, torch.bfloat16]), b=st.integers(1, 2),
       hkv=st.integers(1, 2), group=st.sampled_from([1, 2, 3]), sq=st.integers(1, 300),
       sk=st.integers(1, 300), causal=st.booleans(),
       order=st.sampled_from([(0, 1, 2, 3), (0, 2, 1, 3), (2, 1, 0, 3)]),
       offset=st.sampled_from([0, 1, 8]), seed=st.integers(0, 2**32 - 1))
def test_the_hopper_backward_gives_the_same_bits_in_any_layout_and_on_reruns(
        dtype, b, hkv, group, sq, sk, causal, order, offset, seed) -> None:
    q, k, v, do = _inputs(b, hkv, group, sq, sk, dtype, seed)
    want = _grads(flash_hopper, q, k, v, do, causal=causal)
    again = _grads(flash_hopper, q, k, v, do, causal=causal)
    relaid = _grads(flash_hopper, *(_relaid(t, order, offset) for t in (q, k, v, do)),
                    causal=causal)
    for name, a, b_, c in zip("qkv", want, again, relaid, strict=True):
        assert not a.isnan().any(), name
        assert torch.equal(a, b_), f"d{name} changed on a rerun"
        assert torch.equal(a, c), f"d{name} changed with the layout {order}, offset {offset}"


def _fused_grads(q, k, v, do, causal: bool, fused: bool) -> tuple[torch.Tensor, ...]:
    from attnfuzz.kernels._checks import check_attention_inputs
    from attnfuzz.kernels.hopper_backward import launch_hopper_backward

    dims = check_attention_inputs(q, k, v, causal=causal, scale=None, alignment="bottom_right")
    out, lse = flash_hopper(q, k, v, causal=causal, return_lse=True)
    grads = tuple(torch.empty(t.shape, dtype=t.dtype, device=t.device) for t in (q, k, v))
    launch_hopper_backward(q, k, v, do, out, lse, *grads, dims, causal=causal, fused=fused)
    return grads


# The fused backward (dQ summed in the dK/dV kernel, in a fixed order of key
# blocks) is not flash_attention's: checked here directly.
@needs_hopper
@settings(max_examples=min(settings.default.max_examples, 12))
@given(dtype=st.sampled_from([torch.float16, torch.bfloat16]), hkv=st.integers(1, 2),
       group=st.sampled_from([1, 2]), sk=st.integers(1, 400), extra=st.integers(0, 200),
       causal=st.booleans(), order=st.sampled_from([(0, 1, 2, 3), (2, 1, 0, 3)]),
       seed=st.integers(0, 2**32 - 1))
def test_the_fused_backward_gives_the_same_bits_on_reruns_and_layouts_and_dk_dv_as_two_kernels(
        dtype, hkv, group, sk, extra, causal, order, seed) -> None:
    q, k, v, do = _inputs(2, hkv, group, sk + extra, sk, dtype, seed)
    want = _fused_grads(q, k, v, do, causal, True)
    again = _fused_grads(q, k, v, do, causal, True)
    relaid = _fused_grads(*(_relaid(t, order, 8) for t in (q, k, v, do)), causal, True)
    two = _fused_grads(q, k, v, do, causal, False)
    for name, a, b_, c in zip("qkv", want, again, relaid, strict=True):
        assert not a.isnan().any(), name
        assert torch.equal(a, b_), f"d{name} changed on a rerun"
        assert torch.equal(a, c), f"d{name} changed with the layout {order}"
    if causal:  # the same steps in the same order: dK and dV to the bit
        assert torch.equal(want[1], two[1]) and torch.equal(want[2], two[2])
    # Equal bits could be equally wrong (a share added twice or lost): the
    # values against the float64 oracle, within the bounds of the arithmetic.
    assert_gradients_within_bounds(q, k, v, do, want, causal=causal, scale=128**-0.5,
                                   alignment="bottom_right")


@needs_hopper
def test_flash_hopper_asked_to_fuse_gives_the_fused_backward_s_bits() -> None:
    q, k, v, do = _inputs(1, 2, 2, 300, 260, torch.bfloat16, 1)
    for causal in (False, True):
        got = _grads(flash_hopper, q, k, v, do, causal=causal, fused_backward=True)
        want = _fused_grads(q, k, v, do, causal, True)
        for name, a, b in zip("qkv", got, want, strict=True):
            assert torch.equal(a, b), f"d{name}, causal={causal}"


# The fused backward's key blocks add into a query block's dQ in an order
# its semaphores keep; without it the adds land as they come, and the bits
# change from run to run where many programs run side by side.
FUSED_REPEATS = 20


@needs_hopper
@pytest.mark.parametrize("causal", [False, True])
def test_the_fused_backward_gives_the_same_bits_on_many_reruns(causal: bool) -> None:
    q, k, v, do = _inputs(2, 8, 2, 1031, 1031, torch.float16, 0)
    first = _fused_grads(q, k, v, do, causal, True)
    for _ in range(FUSED_REPEATS):
        again = _fused_grads(q, k, v, do, causal, True)
        for name, a, b in zip("qkv", first, again, strict=True):
            assert torch.equal(a, b), f"d{name} changed on a rerun"


def test_the_fused_backward_refuses_what_would_make_its_blocks_wait_forever(monkeypatch) -> None:
    # Fewer query-block pairs than key blocks, or more key blocks than
    # multiprocessors: a block could wait on one that never starts.
    from attnfuzz.kernels import hopper_backward as hb
    from attnfuzz.kernels._checks import AttentionDims

    monkeypatch.setattr(hb, "num_sms", lambda index: 4)
    for sq, sk in ((128, 129), (640, 640)):
        dims = AttentionDims(1, 1, 1, sq, sk, 128, 128, 0.1, sk - sq)
        assert not hb.fuses(dims, 0)
        t = torch.empty(1, 1, sq, 128, dtype=torch.float16)
        with pytest.raises(ValueError, match=f"fused: .*Sq = {sq}, Sk = {sk}"):
            hb.launch_hopper_backward(t, t, t, t, t, t, t, t, t, dims, causal=False, fused=True)
    assert hb.fuses(AttentionDims(1, 1, 1, 512, 512, 128, 128, 0.1, 0), 0)


def test_the_hopper_backward_refuses_gradients_it_would_write_in_the_wrong_order() -> None:
    # Its kernels store dQ, dK, dV and read O as contiguous rows: another
    # layout would get the right values at the wrong places.
    from attnfuzz.kernels._checks import AttentionDims
    from attnfuzz.kernels.hopper_backward import launch_hopper_backward

    dims = AttentionDims(2, 1, 1, 3, 3, 128, 128, 0.1, 0)
    t = torch.empty(2, 1, 3, 128, dtype=torch.float16)
    lse = torch.empty(2, 1, 3)
    turned = torch.empty(3, 1, 2, 128, dtype=torch.float16).permute(2, 1, 0, 3)
    turned_lse = torch.empty(3, 1, 2).permute(2, 1, 0)
    for at, name in ((4, "out"), (5, "lse"), (6, "dq"), (7, "dk"), (8, "dv")):
        args = [t, t, t, t, t, lse, t, t, t]
        args[at] = turned_lse if name == "lse" else turned
        with pytest.raises(ValueError, match=f"^{name}: expected a contiguous tensor"):
            launch_hopper_backward(*args, dims, causal=False)


@pytest.mark.parametrize(("sq", "sk", "fused", "want"), [
    (1024, 1024, None, False),  # below FUSED_MIN_KEYS
    (2048, 2048, None, True),
    (2048, 2176, None, False),  # more key blocks than pairs of query blocks: cannot fuse
    (256, 256, True, True),  # asked for: fused at any length it can run
    (128, 256, True, False),
    (2048, 2048, False, False),
])
def test_the_hopper_backward_fuses_where_asked_or_from_its_least_keys(
        monkeypatch, sq: int, sk: int, fused: bool | None, want: bool) -> None:
    from attnfuzz.kernels import flash_backward as fb
    from attnfuzz.kernels import hopper_backward as hb
    from attnfuzz.kernels._checks import AttentionDims

    launched = []

    class Recorder:
        def __init__(self, name: str) -> None:
            self.name = name

        def launch(self, plan, tensors, build) -> None:
            launched.append(self.name)

    for name in ("_DQ", "_DKDV", "_FUSED", "_SCALED"):
        monkeypatch.setattr(hb, name, Recorder(name))
    monkeypatch.setattr(hb, "num_sms", lambda index: 132)
    # On the backend's device: a GPU run makes the tensors' device current.
    q, k = (torch.zeros(1, 1, s, 128, dtype=torch.float16, device=backend.device())
            for s in (sq, sk))
    dims = AttentionDims(1, 1, 1, sq, sk, 128, 128, 0.1, sk - sq)
    fb.launch_backward(q, q, k, k, q, torch.zeros(1, 1, sq, device=q.device), dims, causal=False,
                       precision="ieee", hopper=True, fused=fused)
    assert launched == (["_DQ", "_FUSED", "_SCALED"] if want else ["_DQ", "_DKDV"])


def test_flash_hopper_refuses_a_fused_backward_that_is_not_a_bool() -> None:
    q = torch.zeros(1, 1, 4, 128, dtype=torch.float16, device=backend.device())
    with pytest.raises(TypeError, match="fused_backward"):
        flash_hopper(q, q, q, fused_backward="yes")
