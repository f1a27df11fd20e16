"""A kernel file that asks the driver and torch.cuda about the device at import,
and autotunes over several configs, runs on the interpreter: attnfuzz answers
for the device there and runs the first config."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from attnfuzz.properties import backend

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

pytestmark = pytest.mark.skipif(not backend.interpreting(),
                                reason="the stand-ins are the interpreter's (a GPU answers itself)")


def test_a_kernel_file_that_asks_the_device_and_autotunes_is_fuzzed():
    # A new process: the file's import-time questions meet the stand-ins as a
    # user's command line meets them.
    run = subprocess.run(
        [sys.executable, "-m", "attnfuzz", "run", "--impl", "tests/tuned_attention.py:attention",
         "--supports", "causal=no;gqa=no;head_dims=16,32;distinct_value_dim=no",
         "--property", "oracle", "--dtype", "float32", "--seconds", "5", "--jobs", "1",
         "--seed", "1", "--database", "none"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "Traceback" not in out, out
    cases = re.search(r"^(\d+) cases in .*0 failing", out, re.M)
    assert cases and int(cases.group(1)) >= 2, out


def test_the_stand_ins_answer_for_one_device_and_tune_nothing():
    import torch
    import triton

    import tests.tuned_attention as tuned

    assert tuned.DEVICE == 0 and tuned.SMS >= 1 and tuned.SHARED_MEMORY > 0
    assert tuned.CAPABILITY == torch.cuda.get_device_capability(0)
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 2, 20, 16, generator=gen) for _ in range(3))
    got = tuned.attention(q, k, v)
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)
    assert tuned._attention.best_config is tuned._attention.configs[0]
    assert isinstance(tuned._attention, triton.runtime.Autotuner)


def test_a_jit_helper_inside_a_launch_does_not_patch_the_language_again(monkeypatch):
    import triton.language as tl
    from triton.runtime import interpreter

    import tests.helper_kernel as helper

    patched = []
    real = interpreter._patch_builtin
    monkeypatch.setattr(interpreter, "_patch_builtin",
                        lambda *args: (patched.append(args[0]), real(*args))[1])
    x = torch.arange(8, dtype=torch.float32)
    out = torch.full_like(x, float("nan"))
    helper.add_three_times[(2,)](x, out, 8, BLOCK=4)
    # The launch patches tl, tl.tensor, tl.math and the descriptor base once;
    # the helper's three calls per program (six in all) patch nothing more.
    assert len(patched) == 4, patched
    assert torch.equal(out, x + 3)
    # Undone after the launch: the language outside a kernel is Triton's own.
    assert tl.core.is_builtin(tl.load) and tl.core.is_builtin(tl.tensor.__add__)
    assert not backend._PATCHED_LANGS
