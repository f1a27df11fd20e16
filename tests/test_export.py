"""``attnfuzz replay DUMP --export FILE``: a dump as a script for an upstream bug report.

The script must stand alone: it runs here in a new process that cannot import
attnfuzz at all (``sys.modules["attnfuzz"] = None``), from a temporary
directory, with only the user module's directory on ``PYTHONPATH``.  Dumps
come from the planted-bug functions of ``tests/user_attention.py`` (written
with ``harness.write_dump``, their diagnosis from a real run), from backward
bugs planted on top of them (``GRAD_MODULE``), from ``sdpa_math``'s backward,
from the committed GPU dumps of PyTorch's SDPA backends, from FlexAttention
on the CPU, and from a crashing function.  Cases are fixed; their values come from their own seeds.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import runpy
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from attnfuzz.properties import backend, checks, implementations
from attnfuzz.properties.checks.execution import execute_backward
from attnfuzz.properties.checks.gradients import gradient_oracle
from attnfuzz.properties.implementations import flex as flex_impl
from attnfuzz.properties.model.cases import AttentionCase, MatmulCase, build, with_inputs
from attnfuzz.properties.model.layouts import named
from attnfuzz.properties.model.values import Values
from attnfuzz.properties.run import cli, export, harness
from attnfuzz.reference import oracle

ROOT = Path(__file__).resolve().parents[1]
MODULE = "tests.user_attention"
# Dumps of SDPA backends failing on a GPU and the scripts exported from them.
SDPA_FINDINGS = ROOT / "tests" / "fixtures" / "sdpa-findings"
SDPA_DUMPS = sorted((SDPA_FINDINGS / "sdpa-dumps").iterdir())
FLASH_DUMP = SDPA_FINDINGS / "sdpa-dumps" / "oracle-sdpa_flash-20261130-055938-992"
# Runs a script as __main__ where importing attnfuzz fails.
NO_ATTNFUZZ = ("import runpy, sys; sys.modules['attnfuzz'] = None; "
               "runpy.run_path(sys.argv[1], run_name='__main__')")

# Each convention's planted bug (the last key of every row dropped) shows on
# these: the last query row sees the last key under every mask here.  Layouts
# give storage offsets (fused_qkv, slice_s, expand_*, offset, d_major), a
# stride 0 (expand_*), a padded last dim (slice_d) and transposed strides.
CASES = {
    "attnfuzz": AttentionCase(
        batch=2, hq=4, hkv=2, sq=5, sk=7, d=8, dv=16, causal=True, alignment="bottom_right",
        q_layout=named("fused_qkv"), k_layout=named("slice_s"), v_layout=named("expand_batch"),
        values=Values("normal", 1.0, seed=11),
    ),
    "sdpa": AttentionCase(
        batch=1, hq=2, hkv=1, sq=6, sk=6, d=16, dv=8, dtype="float16", causal=True,
        alignment="top_left", q_layout=named("offset"), k_layout=named("d_major"),
        v_layout=named("slice_d"), values=Values("spike", 2.0, seed=5),
    ),
    "flash_attn": AttentionCase(
        batch=2, hq=2, hkv=2, sq=3, sk=9, d=8, dv=8, dtype="float16",
        q_layout=named("bshd"), k_layout=named("expand_heads"), v_layout=named("offset"),
        values=Values("uniform", 3.0, seed=2),
    ),
    # Its page size is drawn from the shapes (256 here), so the bug (keys read to the
    # end of the last page) reads the NaN slots past Sk = 7.
    "paged": AttentionCase(
        batch=2, hq=2, hkv=1, sq=2, sk=7, d=8, dv=8, causal=True, alignment="bottom_right",
        q_layout=named("offset"), k_layout=named("slice_s"), v_layout=named("d_major"),
        values=Values("normal", 1.0, seed=3),
    ),
    # Causal with fewer queries than keys: the bug (a top-left mask) sees too few keys.
    "paged_varlen": AttentionCase(
        batch=2, hq=2, hkv=1, sq=3, sk=7, d=8, dv=8, causal=True, alignment="bottom_right",
        q_layout=named("offset"), k_layout=named("slice_s"), v_layout=named("d_major"),
        values=Values("normal", 1.0, seed=4),
    ),
}
FUNCTIONS = {"attnfuzz": "mine", "sdpa": "sdpa_like", "flash_attn": "flash_like",
             "paged": "paged_like", "paged_varlen": "paged_varlen_like"}

# Backward bugs under a right forward, next to a copy of tests/user_attention.py
# (a sibling import, as a user's module would make).
GRAD_MODULE = '''\
from user_attention import mine


def right(q, k, v, **kw):
    return mine(q, k, v, **kw)


def dk_doubled(q, k, v, **kw):
    # The same k (k - k.detach() is 0), but twice its gradient.
    return mine(q, k.detach() + 2 * (k - k.detach()), v, **kw)


def dv_detached(q, k, v, **kw):
    # v cut from the graph: autograd gives no dV, which is a zero dV.
    return mine(q, k, v.detach(), **kw)
'''
# A backward case of the attnfuzz convention's, with a strided dO.
GRAD_CASE = replace(CASES["attnfuzz"], backward=True, do_layout=named("slice_d"))
# sdpa_math's backward where the first 3 query rows see no key: their dq must be
# exact zeros, and float64 autograd must not make them NaN.
BLIND_CASE = AttentionCase(
    batch=1, hq=4, hkv=2, sq=6, sk=3, d=8, dv=8, dtype="float16", causal=True,
    alignment="bottom_right", q_layout=named("slice_s"), k_layout=named("expand_heads"),
    v_layout=named("d_major"), values=Values("normal", 1.0, seed=4), backward=True,
    do_layout=named("offset"),
)


def _dump(root: Path, impl: str, case: AttentionCase, prop: str = "oracle", **kw) -> Path:
    """A dump of ``impl`` on ``case``, its diagnosis from running it (as a campaign's)."""
    bad = checks.failures(harness.run_property(prop, impl, case))
    return harness.write_dump(prop, impl, case, bad, root=root, **kw)


def _user_dump(tmp_path: Path, convention: str, buggy: bool = True) -> Path:
    name = FUNCTIONS[convention] + ("_buggy" if buggy else "")
    return _dump(tmp_path / "dumps", f"{MODULE}:{name}@{convention}", CASES[convention])


def _export(dump: Path, out: Path) -> str:
    assert export.export(dump, out) == out
    return out.read_text()


def _run(script: Path, tmp_path: Path, pythonpath: Path | None = None):
    """The script in a fresh process without attnfuzz, from an empty directory."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["OMP_NUM_THREADS"] = "1"
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    cwd = tmp_path / "elsewhere"
    cwd.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-c", NO_ATTNFUZZ, str(script)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def _as_module(path: Path):
    """Import the script without running it: its inputs() is what a reader gets."""
    spec = importlib.util.spec_from_file_location(f"repro_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _storage_bytes(t: torch.Tensor) -> torch.Tensor:
    return torch.empty(0, dtype=torch.uint8).set_(t.untyped_storage())


def _assert_bit_exact(rebuilt: dict, saved: dict) -> None:
    assert list(rebuilt) == list(saved)
    for role, t in saved.items():
        r = rebuilt[role]
        assert (r.dtype, r.shape, r.stride(), r.storage_offset()) == \
            (t.dtype, t.shape, t.stride(), t.storage_offset()), role
        assert torch.equal(_storage_bytes(r), _storage_bytes(t)), f"{role}: buffer bits differ"


def _prose(text: str) -> str:
    """The script's comments as one line each, unwrapped."""
    said = [ln.strip().lstrip("#").strip() for ln in text.splitlines() if ln.strip()[:1] == "#"]
    return " ".join(said)


def _saved(dump: Path) -> dict:
    return torch.load(dump / "inputs.pt", map_location="cpu")


@pytest.mark.parametrize("convention", list(CASES))
def test_a_planted_bug_fails_its_script_and_the_fixed_twin_passes(tmp_path, convention):
    dump = _user_dump(tmp_path, convention)
    assert harness.load_dump(dump)[1]["diagnosis"], "the case must show the planted bug"
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    assert "attnfuzz" not in "".join(ln for ln in text.splitlines() if ln.startswith(
        ("import", "from")))

    # Only the user module's directory on the path: tests.user_attention lives under ROOT.
    run = _run(script, tmp_path, pythonpath=ROOT)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert "FAIL out" in out and "got " in out and "want " in out, out
    assert "agrees with the embedded one" in out, out
    assert "AssertionError" in run.stderr and "ModuleNotFoundError" not in run.stderr

    fixed = tmp_path / "fixed.py"
    buggy_line = f'FUNCTION = "{FUNCTIONS[convention]}_buggy"'
    assert buggy_line in text
    fixed.write_text(text.replace(buggy_line, f'FUNCTION = "{FUNCTIONS[convention]}"'))
    run = _run(fixed, tmp_path, pythonpath=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith("OK: within bound"), run.stdout


def test_a_dump_of_a_correct_function_by_file_path_passes(tmp_path):
    user = tmp_path / "user" / "user_attention.py"
    user.parent.mkdir()
    shutil.copy(ROOT / "tests" / "user_attention.py", user)
    dump = _dump(tmp_path / "dumps", f"{user}:flash_like@flash_attn", CASES["flash_attn"])
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    assert runpy.run_path(str(script), run_name="repro")["MODULE"] == str(user), text[:2000]
    # The header names the file; a path longer than a line is not broken, and
    # a linter over a repository that keeps the script is told why.
    long = [ln for ln in text.splitlines() if len(ln) > 100]  # ruff's limit here
    assert all(ln.endswith("  # noqa: E501") for ln in long), long
    run = _run(script, tmp_path)  # imported by its path: nothing on PYTHONPATH
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK: within bound" in run.stdout


def test_a_paged_script_builds_the_cache_the_campaign_built(tmp_path):
    # The script cannot import attnfuzz, so it carries its own paged_cache.
    from attnfuzz.properties.implementations.conventions import paged_layout
    from attnfuzz.properties.model.pages import paged_cache

    case = CASES["paged"]
    script = tmp_path / "repro.py"
    _export(_user_dump(tmp_path, "paged"), script)
    module = _as_module(script)
    k, v = (module.inputs()[r] for r in "kv")
    page, seed = paged_layout(case.sq, case.sk, case.d)
    assert (module.PAGE, module.PAGE_SEED) == (page, seed)
    for mine, theirs in zip(module.paged_cache(k, v, page, seed),
                            paged_cache(k, v, [case.sk] * case.batch, page, seed), strict=True):
        assert mine.shape == theirs.shape and torch.equal(mine.nan_to_num(7.0),
                                                          theirs.nan_to_num(7.0))


def test_a_varlen_dump_packs_its_batch_as_the_campaign_did(tmp_path):
    # The varlen convention's bug needs sequences of other lengths (the serving
    # property's), so its script is checked on the right function here.
    case = replace(CASES["attnfuzz"], hq=2, hkv=1, dv=8)
    dump = _dump(tmp_path / "dumps", f"{MODULE}:varlen_like@varlen", case)
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    assert "cu_q, cu_k" in text
    run = _run(script, tmp_path, pythonpath=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK: within bound" in run.stdout


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_the_scripts_inputs_are_the_saved_tensors_bit_for_bit(tmp_path, dtype):
    case = AttentionCase(
        batch=2, hq=2, hkv=1, sq=4, sk=5, d=8, dv=8, dtype=dtype, causal=True,
        q_layout=named("slice_s"), k_layout=named("expand_batch"), v_layout=named("fused_qkv"),
        values=Values("subnormal", 1.0, seed=3),
    )
    dump = _dump(tmp_path, f"{MODULE}:mine@attnfuzz", case)
    saved = _saved(dump)
    # Bit patterns a decimal or float round trip would lose, in the NaN padding and in the
    # views: infinities, -0.0, the smallest subnormal, NaNs with payloads and signs.
    bits = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}
    patterns = {torch.float32: [0x7F800000, -0x00800000, -0x80000000, 1, 0x7FC00123, -0x3FF0],
                torch.float16: [0x7C00, -0x0400, -0x8000, 1, 0x7E05, -0x01FF],
                torch.bfloat16: [0x7F80, -0x0080, -0x8000, 1, 0x7FC1, -0x003F]}
    for t in saved.values():
        raw = torch.empty(0, dtype=t.dtype).set_(t.untyped_storage()).view(bits[t.dtype])
        for n, p in enumerate(patterns[t.dtype]):
            raw[(7 * n + 3) % raw.numel()] = p
    torch.save(saved, dump / "inputs.pt")
    assert all(t.storage_offset() for t in saved.values())

    script = tmp_path / "repro.py"
    _export(dump, script)
    _assert_bit_exact(_as_module(script).inputs(), _saved(dump))


def _grad_module(tmp_path: Path) -> Path:
    user = tmp_path / "user" / "grad_attention.py"
    user.parent.mkdir()
    shutil.copy(ROOT / "tests" / "user_attention.py", user.parent)
    user.write_text(GRAD_MODULE)
    return user


@pytest.mark.parametrize(("function", "grad"), [("dk_doubled", "dk"), ("dv_detached", "dv")])
def test_a_wrong_backward_fails_its_script_and_the_right_one_passes(tmp_path, function, grad):
    user = _grad_module(tmp_path)
    dump = _dump(tmp_path / "dumps", f"{user}:{function}@attnfuzz", GRAD_CASE, "gradients")
    assert {d["check"] for d in harness.load_dump(dump)[1]["diagnosis"]} == {grad}
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    assert "Property: gradients (after a backward with the dO below" in _prose(text)
    _assert_bit_exact(_as_module(script).inputs(), _saved(dump))  # dO too

    run = _run(script, tmp_path)  # imported by its path: nothing on PYTHONPATH
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert f"FAIL {grad}:" in out and "ok out:" in out, out
    assert all(f"ok {g}:" in out for g in {"dq", "dk", "dv"} - {grad}), out
    assert "agree with the embedded dq, dk, dv" in out, out
    assert f"AssertionError: outside the bound or wrong: {grad}" in run.stderr, run.stderr

    fixed = tmp_path / "fixed.py"
    fixed.write_text(text.replace(f'FUNCTION = "{function}"', 'FUNCTION = "right"'))
    run = _run(fixed, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert all(f"ok {g}:" in run.stdout for g in ("out", "dq", "dk", "dv")), run.stdout
    assert run.stdout.strip().endswith("OK: within bound"), run.stdout


def test_the_scripts_backward_is_the_harness_and_its_float64_gradients_the_oracles(tmp_path):
    dump = _dump(tmp_path / "dumps", "sdpa_math", BLIND_CASE, "gradients")
    assert not harness.load_dump(dump)[1]["diagnosis"], "attnfuzz passes sdpa_math here"
    script = tmp_path / "repro.py"
    _export(dump, script)
    repro = _as_module(script)
    cpu = repro.inputs()
    plain = repro.reference_grads(cpu["q"], cpu["k"], cpu["v"], cpu["do"])
    size = repro.terms(cpu)
    for name in ("dq", "dk", "dv"):
        want = repro._tensor(repro.WANT[name])
        assert plain[name].shape == want.shape and bool(plain[name].isfinite().all()), name
        worst = float(((plain[name] - want).abs() / (want.abs() + size[name])).nan_to_num().max())
        assert worst < 1e-12, (name, worst)  # float64 rounding, far below the 1e-9 checked
        assert repro.agrees(name, plain[name], want, size[name])
        # Expected values off by a hundredth of their bound are caught (where the exact
        # value is not an exact 0, as the dq of a row that sees no key is).
        off = torch.where(size[name] > 0, want + repro._tensor(repro.BOUND[name]) / 100, want)
        assert not repro.agrees(name, plain[name], off, size[name]), name
    assert bool((plain["dq"][:, :, :3] == 0).all()), "rows that see no key have dq = 0"
    # The embedded values and bounds are attnfuzz's gradient oracle's, bit for bit
    # (the oracle runs on the GPU when the kernels do; the script embeds its values).
    _, _, case, saved = harness.load_dump(dump)
    built = with_inputs(case, saved)
    for name, (want, bound) in gradient_oracle(case, built).items():
        assert torch.equal(repro._tensor(repro.WANT[name]), want.cpu()), name
        assert torch.equal(repro._tensor(repro.BOUND[name]), bound.cpu()), name

    # backward() differentiates the call on leaves that are the exact views, as the
    # harness does, and gets the harness's bits.
    seen, call = {}, repro.call

    def spy(q, k, v):
        seen.update(q=q, k=k, v=v)
        return call(q, k, v)

    repro.call = spy
    x = repro.inputs(repro.DEVICE)  # where the harness ran it
    got = repro.backward(x["q"], x["k"], x["v"], x["do"])
    for role, t in seen.items():
        assert t.is_leaf and t.requires_grad, role
        assert (t.data_ptr(), t.stride()) == (x[role].data_ptr(), x[role].stride()), role
    # The harness's own backward on the device it runs on, as replay builds it there.
    on_device = built if backend.device() == "cpu" else build(case, backend.device())
    ran = execute_backward(implementations.get("sdpa_math"), case, on_device)
    assert torch.equal(got["out"], ran.results["out"])
    assert all(torch.equal(got[n], ran.grads[n]) for n in ("dq", "dk", "dv"))

    run = _run(script, tmp_path)  # attnfuzz's verdict, by the script alone
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok dq: 0 of 192 elements outside" in run.stdout, run.stdout
    assert run.stdout.strip().endswith("OK: within bound"), run.stdout


def test_a_crash_is_left_to_show(tmp_path):
    user = tmp_path / "user" / "crashy.py"
    user.parent.mkdir()
    user.write_text("def attend(q, k, v, **kw):\n"
                    "    raise IndexError('planted: index 7 is out of bounds')\n")
    case = CASES["attnfuzz"]
    dump = harness.write_dump("oracle", f"{user}:attend@attnfuzz", case, [], root=tmp_path,
                              fault=IndexError("planted: index 7 is out of bounds"))
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    assert "this call raised IndexError: planted: index 7" in _prose(text)
    run = _run(script, tmp_path)
    assert run.returncode == 1
    assert "IndexError: planted: index 7 is out of bounds" in run.stderr, run.stderr


def test_an_sdpa_gpu_dump_exports_on_the_cpu(tmp_path):
    script = tmp_path / "repro.py"
    text = _export(FLASH_DUMP, script)
    compile(text, str(script), "exec")
    for needed in ("sdpa_kernel(SDPBackend.FLASH_ATTENTION)", "causal_lower_right(",
                   "scaled_dot_product_attention(", 'DEVICE = "cuda"', "def inputs("):
        assert needed in text
    assert "faulted on the GPU" in _prose(text)
    _assert_bit_exact(_as_module(script).inputs(), _saved(FLASH_DUMP))
    if not torch.cuda.is_available():
        run = _run(script, tmp_path)
        assert run.returncode == 2, run.stdout + run.stderr
        assert "needs a CUDA GPU" in run.stderr and "Traceback" not in run.stderr, run.stderr


# Sliding windows, which SDPA takes as a boolean mask: one left edge under a
# bottom-right causal limit with rows that see no key, one two-sided window top-left.
WINDOW_CASES = {
    "left-causal": replace(CASES["sdpa"], dtype="float32", sq=7, sk=5, alignment="bottom_right",
                           window=(1, None)),
    "both-sides": replace(CASES["sdpa"], dtype="float32", sq=5, sk=9, causal=False,
                          alignment="top_left", window=(1, 2)),
}


@pytest.mark.parametrize("name", list(WINDOW_CASES))
def test_a_windowed_sdpa_dump_runs_its_window(tmp_path, name):
    case = WINDOW_CASES[name]
    dump = _dump(tmp_path / "dumps", "sdpa_math", case)
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    window = f"WINDOW = {case.window!r}"
    assert window in text and "sliding window" in _prose(text)
    # The script's mask is the oracle's rule, embedded from its source: one rule.
    assert inspect.getsource(oracle.sees) in text and inspect.getsource(oracle.offset) in text
    run = _run(script, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "agrees with the embedded one" in run.stdout and "OK: within bound" in run.stdout
    # The window is the reference's (one more key on the left disagrees with the
    # embedded oracle) and the call's (the call without its mask fails).
    left, right = case.window
    wider = tmp_path / "wider.py"
    wider.write_text(text.replace(window, f"WINDOW = {(left + 1, right)!r}"))
    run = _run(wider, tmp_path)
    assert run.returncode == 2 and "reference disagrees" in run.stderr, run.stdout + run.stderr
    unmasked = tmp_path / "unmasked.py"
    mask = 'kwargs["attn_mask"] = visible('
    assert text.count(mask) == 1
    unmasked.write_text(text.replace(mask, "unused = visible("))
    run = _run(unmasked, tmp_path)
    assert run.returncode == 1 and "FAIL out" in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("alignment, diagonal", [("bottom_right", "i + (Sk - Sq)"),
                                                 ("top_left", "i")])
def test_a_script_says_which_keys_its_mask_shows(tmp_path, alignment, diagonal):
    # Written here by hand, not from the oracle: the words follow its offset, so
    # an alignment swapped there shows as the wrong words.
    case = replace(WINDOW_CASES["left-causal"], alignment=alignment, window=(1, 2))
    text = _export(_dump(tmp_path / "dumps", "sdpa_math", case), tmp_path / "repro.py")
    said = _prose(text)
    assert f"query i sees key j iff j <= {diagonal}" in said, said
    assert f"j >= {diagonal} - 1 and j <= {diagonal} + 2" in said, said
    assert f"# if CAUSAL or WINDOW: query i sees key j iff j <= {diagonal}" in text
    assert text.isascii(), [ln for ln in text.splitlines() if not ln.isascii()]


# FlexAttention on the CPU (its reference path) under a GQA, windowed, causal
# top-left mask: right there, so the script passes, and fails once its mask is
# dropped or its window is moved.
FLEX_CASE = replace(CASES["attnfuzz"], dtype="float32", d=16, dv=16, sq=6, sk=9,
                    alignment="top_left", window=(2, 0))


@pytest.mark.skipif(not flex_impl.IMPLEMENTATIONS, reason="this torch has no FlexAttention")
def test_a_flex_dump_runs_flex_with_the_cases_mask(tmp_path):
    dump = _dump(tmp_path / "dumps", "flex", FLEX_CASE)
    assert not harness.load_dump(dump)[1]["diagnosis"], "flex passes this case on the CPU"
    script = tmp_path / "repro.py"
    text = _export(dump, script)
    assert 'IMPLEMENTATION = "flex"' in text and "flex_attention" in _prose(text)
    run = _run(script, tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "OK: within bound" in run.stdout, run.stdout
    # The window is the reference's (one more key on the left disagrees with the
    # embedded oracle) and the call's (the call without its mask fails).
    wider = tmp_path / "wider.py"
    wider.write_text(text.replace("WINDOW = (2, 0)", "WINDOW = (3, 0)"))
    run = _run(wider, tmp_path)
    assert run.returncode == 2 and "reference disagrees" in run.stderr, run.stdout + run.stderr
    mask = 'kwargs["block_mask"] = '
    assert text.count(mask) == 1
    unmasked = tmp_path / "unmasked.py"
    unmasked.write_text(text.replace(mask, "unused = "))
    run = _run(unmasked, tmp_path)
    assert run.returncode == 1 and "FAIL out" in run.stdout, run.stdout + run.stderr


@pytest.mark.parametrize("dump", SDPA_DUMPS, ids=[d.name for d in SDPA_DUMPS])
def test_the_committed_sdpa_repros_say_they_need_a_gpu(tmp_path, dump):
    """The committed scripts (tests/fixtures/sdpa-findings/repros) hold these dumps'
    inputs and stop with one clear line, exit 2, on a machine without CUDA."""
    committed = SDPA_FINDINGS / "repros" / f"{dump.name}.py"
    text = committed.read_text()
    compile(text, str(committed), "exec")
    _assert_bit_exact(_as_module(committed).inputs(), _saved(dump))
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the script would run the call")
    run = _run(committed, tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "needs a CUDA GPU" in run.stderr and "Traceback" not in run.stderr, run.stderr


def test_the_command_writes_the_script(capsys, tmp_path, monkeypatch):
    dump = _user_dump(tmp_path, "attnfuzz")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["replay", str(dump), "--export", "repro.py"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert out == "wrote repro.py: python3 repro.py\n"
    assert (tmp_path / "repro.py").read_text() == export.script(dump, name="repro.py")


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    return lines[0]


# What a user had at the path given to --export: not a script of ours.
THEIRS = b"def attention(q, k, v):\n    return q  # the user's own kernel\n"


def test_an_existing_file_is_refused_and_left_byte_for_byte(capsys, tmp_path, monkeypatch):
    dump = _user_dump(tmp_path, "attnfuzz")
    monkeypatch.chdir(tmp_path)
    theirs = tmp_path / "myattn.py"
    theirs.write_bytes(THEIRS)
    with pytest.raises(export.FileExistsExportError, match="myattn.py") as refused:
        export.export(dump, theirs)
    assert refused.value.path == theirs
    assert theirs.read_bytes() == THEIRS
    code = cli.main(["replay", str(dump), "--export", "myattn.py"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), out + err
    assert _one_line(err) == ("attnfuzz replay: error: --export myattn.py: the file exists "
                              "(--force overwrites it)")
    assert theirs.read_bytes() == THEIRS


def test_a_file_that_appears_while_the_script_is_made_is_refused(tmp_path, monkeypatch):
    # Making the script (the oracles) takes a while: a file written meanwhile
    # must survive too, so no check before making it can stand in for the write's own.
    dump = _user_dump(tmp_path, "attnfuzz")
    theirs = tmp_path / "myattn.py"
    make = export.script

    def slow_script(*args, **kwargs):
        text = make(*args, **kwargs)
        theirs.write_bytes(THEIRS)
        return text

    monkeypatch.setattr(export, "script", slow_script)
    with pytest.raises(export.FileExistsExportError):
        export.export(dump, theirs)
    assert theirs.read_bytes() == THEIRS


def test_force_overwrites_an_existing_file(capsys, tmp_path, monkeypatch):
    dump = _user_dump(tmp_path, "attnfuzz")
    monkeypatch.chdir(tmp_path)
    theirs = tmp_path / "repro.py"
    theirs.write_bytes(THEIRS)
    code = cli.main(["replay", str(dump), "--export", "repro.py", "--force"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert out == "wrote repro.py: python3 repro.py\n"
    assert theirs.read_text() == export.script(dump, name="repro.py")
    theirs.write_bytes(THEIRS)
    assert export.export(dump, theirs, force=True) == theirs
    assert theirs.read_text() == export.script(dump, name="repro.py")


def test_a_directory_is_one_line_even_with_force(capsys, tmp_path):
    dump = _user_dump(tmp_path, "attnfuzz")
    folder = tmp_path / "out"
    folder.mkdir()
    for force in ([], ["--force"]):
        code = cli.main(["replay", str(dump), "--export", str(folder), *force])
        out, err = capsys.readouterr()
        assert (code, out) == (2, ""), (force, out + err)
        line = _one_line(err)
        # Not "exists (--force overwrites it)": --force cannot make a directory a file.
        assert line == f"attnfuzz replay: error: {folder}: cannot write the script (a directory)"
    assert folder.is_dir() and not list(folder.iterdir())


def test_force_without_export_is_one_line(capsys, tmp_path):
    dump = _user_dump(tmp_path, "attnfuzz")
    code = cli.main(["replay", str(dump), "--force"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), out + err
    assert _one_line(err) == ("attnfuzz replay: error: --force applies to --export only "
                              "(a replay writes no file)")


def test_what_cannot_be_exported_is_one_line_and_exit_2(capsys, tmp_path):
    good = _user_dump(tmp_path, "attnfuzz")
    metamorphic = harness.write_dump("metamorphic", f"{MODULE}:mine@attnfuzz", CASES["attnfuzz"],
                                     [], root=tmp_path / "m")
    relations = harness.write_dump("gradient_relations", f"{MODULE}:mine@attnfuzz", GRAD_CASE,
                                   [], root=tmp_path / "r")
    builtin = harness.write_dump("oracle", "matmul", MatmulCase(), [], root=tmp_path / "b")
    # Its gradients' bounds need the output the function returned, which a dump does not hold.
    from_output = harness.write_dump(
        "gradients", f"{MODULE}:mine@attnfuzz#backward=yes;backward_delta=output", GRAD_CASE,
        [], root=tmp_path / "o")
    # Its script would differentiate q, k and v alike.
    only_v = harness.write_dump(
        "gradients", f"{MODULE}:mine@attnfuzz#backward=yes",
        replace(GRAD_CASE, options=(("grad_of", "v"),)), [], root=tmp_path / "v")
    not_a_dump = tmp_path / "empty"
    not_a_dump.mkdir()
    sequence = tmp_path / "stateful-dump"  # what sequence_dump writes: no case.json
    sequence.mkdir()
    (sequence / "sequence.json").write_text('{"property": "stateful"}')
    rows = [
        (not_a_dump, "repro.py", "no case.json"),
        (sequence, "repro.py", "a call sequence's dump: --export writes scripts for oracle and "
         "gradients dumps only"),
        (tmp_path / "nonexistent", "repro.py", "not found"),
        (metamorphic, "repro.py", "a metamorphic dump: --export writes scripts for oracle "
         "and gradients dumps only"),
        (relations, "repro.py", "a gradient_relations dump: --export writes scripts for "
         "oracle and gradients dumps only"),
        (builtin, "repro.py", "matmul is not exported"),
        (from_output, "repro.py", "forms its backward's delta from its output"),
        (only_v, "repro.py", "only v required grad"),
        (good, str(tmp_path / "no" / "such" / "dir" / "repro.py"), "cannot write the script"),
        (good, str(tmp_path), "cannot write the script"),
    ]
    for dump, out_file, fragment in rows:
        code = cli.main(["replay", str(dump), "--export", out_file])
        out, err = capsys.readouterr()
        assert code == 2, (dump, out + err)
        line = _one_line(err)
        assert line.startswith("attnfuzz replay: error: ") and fragment in line, line
    assert not (tmp_path / "repro.py").exists()


def test_a_paged_script_keeps_a_page_size_outside_the_declared_ones(tmp_path):
    # The refuses property's case of pages of 3 slots, from a function that
    # declares 16 and 64: the script's cache is in pages of 3, as the call's was.
    case = replace(CASES["paged"], page_size=3)
    dump = _dump(tmp_path / "dumps", f"{MODULE}:paged_like@paged#page_sizes=16,64", case)
    script = tmp_path / "repro.py"
    _export(dump, script)
    module = _as_module(script)
    assert module.PAGE == 3
    k, v = (module.inputs()[r] for r in "kv")
    assert module.paged_cache(k, v, 3, module.PAGE_SEED)[0].shape[1] == 3


def test_a_function_with_sdpas_older_signature_is_called_in_its_script_as_the_campaign_called_it(
        tmp_path):
    """Other head counts given plainly, without the enable_gqa it lacks: the
    script shows the same wrong answer, not a TypeError of its own making."""
    dump = _dump(tmp_path / "dumps", f"{MODULE}:sdpa_like_tiling_heads@sdpa",
                 replace(CASES["sdpa"], hq=4, hkv=2))
    assert harness.load_dump(dump)[1]["diagnosis"], "tiled heads answer GQA wrong"
    script = tmp_path / "repro.py"
    _export(dump, script)
    run = _run(script, tmp_path, pythonpath=ROOT)
    assert run.returncode == 1 and "FAIL out" in run.stdout, run.stdout + run.stderr
    assert "TypeError" not in run.stderr, run.stderr
