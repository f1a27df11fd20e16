"""The stateful property (``checks.stateful``): sequences of calls sharing state.

attnfuzz's kernels pass it.  Two planted bugs, plain torch attention functions
that keep state between calls the way launchers do, pass the single-call
oracle property on a fresh process's first call and are caught only by a
sequence: a per-shape plan keyed by too little (two calls), and a scratch
buffer never zeroed (a call and its repeat).  Each failure shrinks to two
steps, is dumped, and replays from the dump in a fresh process.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RULE_MARKER, run_state_machine_as_test

from attnfuzz.properties import checks, implementations
from attnfuzz.properties.checks import neighbours, stateful
from attnfuzz.properties.implementations import Support
from attnfuzz.properties.model.cases import AttentionCase
from attnfuzz.properties.model.layouts import named
from attnfuzz.properties.strategy_wrappers import as_backward
from tests.user_attention import mine

ROOT = Path(__file__).resolve().parents[1]


# (a) A plan per shape, keyed by Sq alone but holding the scale, which comes
# from D (or the scale given): right on a shape's first call, wrong on a later
# call with that Sq and another D or scale.
_PLANS: dict[int, float] = {}


def planned(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    sq = q.shape[2]
    if sq not in _PLANS:
        _PLANS[sq] = q.shape[-1] ** -0.5 if scale is None else scale
    return mine(q, k, v, causal=causal, scale=_PLANS[sq], alignment=alignment)


# (b) out = sum_j p_j v_j by Kahan summation, whose compensation term lives
# in a scratch buffer per output shape that is reused and never zeroed: the
# previous call's leftover rounding error (within an ulp, inside the oracle's
# bound) is folded into the next call's sum, so a repeated call differs in its
# last bits.
_SCRATCH: dict[tuple[int, ...], torch.Tensor] = {}


def compensated(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    g = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(g, 1).float(), v.repeat_interleave(g, 1).float()
    sq, sk = q.shape[2], k.shape[2]
    logits = (q.float() @ k.transpose(-1, -2)) * scale
    if causal:
        offset = sk - sq if alignment == "bottom_right" else 0
        i = torch.arange(sq, device=q.device)[:, None]
        j = torch.arange(sk, device=q.device)[None, :]
        logits = logits.masked_fill(j > i + offset, float("-inf"))
    p = torch.softmax(logits, dim=-1).nan_to_num(0.0)  # a row that sees no key: 0
    shape = (*q.shape[:3], v.shape[-1])
    if shape not in _SCRATCH:
        _SCRATCH[shape] = torch.zeros(shape, device=q.device)
    c = _SCRATCH[shape]  # the bug: not zeroed when reused
    s = torch.zeros(shape, device=q.device)
    for j in range(sk):
        y = p[..., j : j + 1] * v[:, :, j : j + 1, :] - c
        t = s + y
        c.copy_((t - s) - y)
        s = t
    return s.to(q.dtype)


# (c) A compiled launch cached per shape whose key omits the causal flag (the
# class of a launch cache keyed on too little): a later call of the same shape
# with the other mask is answered by the first call's launch.
_LAUNCHES: dict[tuple, bool] = {}


def launch_cached(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    key = (q.shape, k.shape, v.shape)
    launched_causal = _LAUNCHES.setdefault(key, causal)
    return mine(q, k, v, causal=launched_causal, scale=scale, alignment=alignment)


# (d) A launch cached per shape and element size, not dtype: its output is
# allocated as the first call's dtype, so a later call of the same shapes in
# another dtype gets a result of the wrong type.
_OUT_DTYPES: dict[tuple, torch.dtype] = {}


def sized_key(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    key = (q.shape, k.shape, v.shape)
    out_dtype = _OUT_DTYPES.setdefault(key, q.dtype)
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment).to(out_dtype)


# (e) A launch cached per shape and which inputs are "8-byte aligned", whose
# kernel was compiled for the first call's alignments: compiled for 16 bytes,
# it loads an input in 16-byte vectors from an address rounded down to 16, so
# an input that starts 8 bytes past a boundary is read from 8 bytes early (on
# a GPU: a misaligned vector load, a fault or wrong data).
_ALIGNED: dict[tuple, tuple[bool, ...]] = {}


def coarse_alignment_key(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    inputs = (q, k, v)
    key = (*(t.shape for t in inputs), *(t.data_ptr() % 8 == 0 for t in inputs))
    compiled = _ALIGNED.setdefault(key, tuple(t.data_ptr() % 16 == 0 for t in inputs))
    q, k, v = (t.as_strided(t.shape, t.stride(),
                            t.storage_offset() - (t.data_ptr() % 16) // t.element_size())
               if aligned else t for t, aligned in zip(inputs, compiled, strict=True))
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


PLANNED = implementations.of_function(planned).name
# (f) A launch that faults on any call after its shape's first, as a kernel
# replayed for an input it was not compiled for does on a GPU: the process
# loses its CUDA context, and no later step can run.
_SEEN: set[tuple] = set()


def faults_later(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    key = (q.shape, k.shape, v.shape)
    if key in _SEEN:
        raise RuntimeError("CUDA error: misaligned address")
    _SEEN.add(key)
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


# (g) A backward whose plan is cached per shape: every later backward of a
# shape takes the first call's scale, while every forward is right (the class
# of a backward's launch cache keyed on too little).
_BACKWARD_SCALES: dict[tuple, float] = {}


def backward_keyed_by_shape(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    key = (q.shape, k.shape, v.shape)
    given = q.shape[-1] ** -0.5 if scale is None else scale
    planned = _BACKWARD_SCALES.setdefault(key, given)
    value = mine(q, k, v, causal=causal, scale=given, alignment=alignment)
    path = mine(q, k, v, causal=causal, scale=planned, alignment=alignment)
    return value.detach() + (path - path.detach())  # the value's, the plan's gradient


# (h) A workspace sized by the first call of its heads and lengths and never
# grown (the class of tile counters and split partials allocated once): a
# later call with more sequences gets only the workspace's rows back, and the
# rows past them stay as allocated, zero.  Found by the batch neighbour (seeds
# 1-5, 150 sequences: all five with it, none without).
_WORKSPACES: dict[tuple, torch.Tensor] = {}


def first_sized(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    got = mine(q, k, v, causal=causal, scale=scale, alignment=alignment)
    key = (q.shape[1:], k.shape[1:], v.shape[1:])
    workspace = _WORKSPACES.setdefault(key, torch.empty_like(got))
    rows = min(len(workspace), len(got))
    workspace[:rows] = got[:rows]
    out = torch.zeros_like(got)
    out[:rows] = workspace[:rows]
    return out


LAUNCH_CACHED = implementations.of_function(launch_cached).name
COMPENSATED = implementations.of_function(compensated).name
SIZED_KEY = implementations.of_function(sized_key).name
COARSE_ALIGNMENT = implementations.of_function(coarse_alignment_key).name
FIRST_SIZED = implementations.of_function(first_sized).name
RESETS = {PLANNED: _PLANS.clear, COMPENSATED: _SCRATCH.clear, LAUNCH_CACHED: _LAUNCHES.clear,
          SIZED_KEY: _OUT_DTYPES.clear, COARSE_ALIGNMENT: _ALIGNED.clear,
          FIRST_SIZED: _WORKSPACES.clear}


@pytest.mark.parametrize("name", ["flash", "decode"])
def test_attnfuzz_kernels_pass_sequences(name):
    checks.run_stateful(name, "float32", max_examples=4, stateful_step_count=4)


def test_the_machine_runs_as_hypothesis_runs_a_state_machine():
    cases = checks.get("oracle").cases(implementations.get("decode"), "float32")
    cls = stateful.machine("decode", "float32", max_steps=2, repeats=2, cases=cases)
    assert cls.TestCase.settings.stateful_step_count == 2
    run_state_machine_as_test(cls, settings=settings(cls.TestCase.settings, max_examples=3))


# Fixed seeds fix Hypothesis' draws only as far as its pool of constants,
# collected from every non-test module loaded so far, stays the same: a new
# constant anywhere in the package, or a module another test imported first,
# changes them (seed 1 once stopped meeting the dtype key in 150 sequences;
# seeds 2-5 met it).  A planted bug is searched for under a few seeds.
SEARCH_SEEDS = (1, 2, 3)


def first_caught(name: str, max_len: int | None = None,
                 **options: object) -> stateful.StatefulFailure:
    """The failure of the first of ``SEARCH_SEEDS`` whose search finds one, over
    calls of at most ``max_len`` queries and keys."""
    for seed in SEARCH_SEEDS:
        try:
            checks.run_stateful(name, "float32", seed=seed, max_len=max_len, **options)
        except stateful.StatefulFailure as failure:
            return failure
    pytest.fail(f"{name}: no failure under seeds {SEARCH_SEEDS} with {options}")


def _fresh(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def _done(proc: subprocess.Popen) -> str:
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out[-3000:]
    return out


# Cases of at most SHORT queries and keys, where a bug shows on them: each step
# of the shrinking that follows a catch reruns the sequence's calls against the
# float64 oracle, and over cases of up to 130 rows that took up to two minutes
# (seeds 1-3: 8-20 s at 16 rows for the plan, the scratch, the causal key and
# the workspace).  The dtype key is met less often among short cases (one seed
# in three at 16 rows) and shrinks fast at any length.  The alignment key is
# met by ``test_sweeps_find_...`` alone: without sweeps, the first seed that
# met it varied with the modules loaded before, and its shrinking over long
# cases took 10-110 s, for the catch, shrink, dump and replay this test also
# shows on the causal key, the same class of launch-key bug.
SHORT = 16


@pytest.mark.parametrize(("name", "max_len", "rules", "caught_by"), [
    (PLANNED, SHORT, ["call", "call"], "failed (wrong) in call"),
    (COMPENSATED, SHORT, ["call", "repeat"], "failed (wrong) in rerun 1 of 1 of step 0"),
    (LAUNCH_CACHED, SHORT, ["call", "call"], "failed (wrong) in call"),
    # Calls draw their dtype too, so two calls or a call and its dtype neighbour;
    # the rule-based shrinker may keep a repeat of the identical first call.
    (SIZED_KEY, None, [["call", "call"], ["call", "neighbour"], ["call", "call", "call"]],
     "returned a malformed result in call"),
    (FIRST_SIZED, SHORT, [["call", "call"], ["call", "neighbour"]], "failed (wrong) in call"),
], ids=["plan-keyed-by-too-little", "scratch-never-zeroed", "launch-key-omits-causal",
        "launch-key-omits-dtype", "workspace-never-grows"])
def test_a_planted_stateful_bug_is_caught_shrunk_dumped_and_replayed(
    tmp_path, monkeypatch, name, max_len, rules, caught_by
):
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    # This test is about what happens once a search meets the bug;
    # ``test_sweeps_find_...`` measures reach, so sweeps (on by default on a
    # GPU, where they change the shortest sequence's rules) are off.
    failure = first_caught(name, max_len, max_examples=150, stateful_step_count=6, repeats=1,
                           reset=RESETS[name], sweeps=False)
    shortest = [s["rule"] for s in failure.steps]
    assert shortest in rules if isinstance(rules[0], list) else shortest == rules, shortest
    rules = shortest
    assert caught_by in failure.message and "step 1 of the sequence" in failure.message
    if rules[1] == "repeat":
        assert failure.steps[1]["of"] == 0 and "repeat of step 0" in failure.message
        assert "not bit-identical to the first run" in failure.message

    # The dump: strict JSON, the sequence as it was shrunk.
    assert failure.dump is not None and failure.dump.parent == tmp_path
    assert f"dump: {failure.dump}" in str(failure)
    text = (failure.dump / "sequence.json").read_text()
    record = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-strict JSON: {c}"))
    assert (record["property"], record["implementation"], record["dtype"]) == (
        stateful.NAME, name, "float32")
    assert record["steps"] == failure.steps and record["message"] == failure.message

    # In fresh processes: the failing step's case alone passes the single-call
    # oracle property; the whole sequence fails as it did here.
    last = json.dumps(json.dumps(record["steps"][-1]))
    alone = _fresh(
        "import json\n"
        "from attnfuzz.properties.checks import failures, stateful\n"
        "from attnfuzz.properties.run.harness import run_property\n"
        f"case = stateful.step_case(json.loads({last}))\n"
        f"assert not failures(run_property('oracle', {name!r}, case))\n"
        "print('alone: ok')\n")
    replayed = _fresh(
        "from attnfuzz.properties.checks import stateful\n"
        "try:\n"
        f"    stateful.replay_sequence({str(failure.dump)!r})\n"
        "except stateful.StatefulFailure as failure:\n"
        "    print(failure.message)\n"
        "else:\n"
        "    raise SystemExit('the sequence did not fail')\n")
    assert "alone: ok" in _done(alone)
    assert _done(replayed).strip() == record["message"]


@pytest.mark.parametrize("name", [SIZED_KEY, COARSE_ALIGNMENT],
                         ids=["launch-key-omits-dtype", "launch-key-alignment-too-coarse"])
def test_sweeps_find_launch_key_bugs_in_few_sequences(tmp_path, monkeypatch, name):
    # 20 sequences, where single neighbours needed about 150 (seeds 1-10: the
    # alignment bug caught by 9 with sweeps, by 5 without).
    # A sweep's calls are steps of their own: the failing one need not be step 1.
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    failure = first_caught(name, max_examples=20, stateful_step_count=6, repeats=1,
                           reset=RESETS[name], sweeps=True)
    assert re.search("in call, step [1-9] of the sequence", failure.message)


@settings(max_examples=30, deadline=None, database=None)
@given(st.data())
def test_a_sweep_changes_one_argument_per_kind_and_keeps_the_shapes_but_the_batch(data):
    impl = implementations.get(data.draw(st.sampled_from(["flash", "softmax", "matmul"])))
    case = data.draw(checks.get("oracle").cases(impl, "float32"))
    picks = data.draw(st.lists(st.integers(0, 15), min_size=len(stateful.NEIGHBOURS),
                               max_size=len(stateful.NEIGHBOURS)))
    swept = stateful.sweep_of(case, impl, picks)
    kinds = [vary(case, impl, p)
             for vary, p in zip(stateful.NEIGHBOURS.values(), picks, strict=True)]
    # The address kind, the only one that moves an input: one input 8 bytes past a
    # 16-byte boundary, by way of the boundary where it was drawn off one.
    moved = [other for other in swept if other.layouts() != case.layouts()]
    role = next(r for r, lay in moved[-1].layouts().items() if lay != case.layouts()[r])
    assert neighbours.start_byte(moved[-1], role) % 16 == 8
    if neighbours.start_byte(case, role) % 16:
        assert len(moved) == 2 and neighbours.start_byte(moved[0], role) % 16 == 0
    else:
        assert len(moved) == 1
    assert len(swept) == sum(k is not None for k in kinds) - 1 + len(moved)
    # The values, the scale, the dtype and an address always apply.
    assert len(swept) >= 4 and len(set(map(repr, swept))) == len(swept)
    for other in swept:
        assert other != case
        if getattr(other, "batch", None) == getattr(case, "batch", None):
            assert other.shapes() == case.shapes()
        else:  # the batch neighbour: more sequences of the same heads and lengths
            assert other.batch > case.batch and replace(other, batch=case.batch) == case
    with pytest.raises(ValueError, match="picks must hold"):
        stateful.sweep_of(case, impl, picks[:-1])


_OUT_OF_MEMORY: list[torch.Size] = []


def short_of_memory(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    """Right, but out of device memory on every call past 32 keys, as a call
    is on a GPU whose memory the campaign's other workers hold."""
    if k.shape[2] > 32:
        _OUT_OF_MEMORY.append(k.shape)
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 MiB.")
    return mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


@pytest.mark.parametrize("max_len", [0, -3, 2.5, True])
def test_a_bad_max_len_is_refused_naming_it(max_len):
    with pytest.raises(ValueError, match="max_len must be a positive int or None"):
        checks.run_stateful("flash", "float32", max_len=max_len, max_examples=1,
                            stateful_step_count=1)


def test_a_step_out_of_device_memory_ends_its_sequence_unjudged():
    """Not a crash of the implementation's, as a single call's case that runs
    out of memory is skipped: its sequence is rejected, and others drawn."""
    name = implementations.of_function(short_of_memory).name
    _OUT_OF_MEMORY.clear()
    checks.run_stateful(name, "float32", seed=1, max_examples=12, stateful_step_count=4,
                        repeats=1)
    assert _OUT_OF_MEMORY  # some calls ran out


@settings(max_examples=20, deadline=None, database=None)
@given(st.data())
def test_an_option_neighbour_of_a_backward_call_keeps_the_harness_options(data):
    """A differentiated call may carry the harness's ``grad_of`` (which inputs
    require grad), which no implementation declares: its option neighbour
    changes a declared option and keeps ``grad_of``, instead of raising."""
    impl = implementations.get(data.draw(st.sampled_from(["naive", "flash"])))
    case = data.draw(checks.get("gradients").cases(impl, "float32"))
    case = replace(case, options=(*case.options, ("grad_of", "v")))
    made = neighbours.neighbour_of("option", case, impl, data.draw(st.integers(0, 15)))
    assert made is not None and ("grad_of", "v") in made.options
    assert made.options != case.options


@pytest.mark.parametrize("surfaces", ["in the kernel's call", "in the harness's next call"])
def test_a_fault_that_loses_the_context_is_the_failure_raised(tmp_path, monkeypatch, surfaces):
    # Every run after the fault stops at its first step, which Hypothesis may
    # call flaky data generation; the fault, dumped when it happened, is raised.
    # A kernel's fault is reported at the next synchronisation, which may be
    # the harness's own (building the next inputs, copying results).
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    monkeypatch.setattr(stateful, "_LOST_CONTEXT", [])
    monkeypatch.setattr(stateful, "_FAULT", [])
    name = implementations.of_function(faults_later).name
    if surfaces != "in the kernel's call":
        name, built = implementations.of_function(mine).name, []

        def build(case, device):
            if built:
                raise RuntimeError("CUDA error: misaligned address")
            built.append(case)
            return real_build(case, device)

        real_build = stateful.build
        monkeypatch.setattr(stateful, "build", build)
    with pytest.raises(stateful.StatefulFailure) as caught:
        checks.run_stateful(name, "float32", max_examples=20, stateful_step_count=6,
                            repeats=1, reset=_SEEN.clear, seed=1)
    failure = caught.value
    assert failure.kinds == ["memory"] and "misaligned address" in failure.message
    assert failure.dump is not None and (failure.dump / "sequence.json").exists()
    assert stateful.lost_context() is not None


def test_backward_calls_find_state_kept_by_a_backward(tmp_path, monkeypatch):
    # Its forward is right on every call: only a differentiated call shows it.
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    name = implementations.of_function(backward_keyed_by_shape,
                                       supports=Support(backward=True)).name
    failure = first_caught(name, max_examples=30, stateful_step_count=6, repeats=1,
                           reset=_BACKWARD_SCALES.clear, sweeps=True, backward=True)
    assert "failed (wrong) in call" in failure.message
    assert any(s["case"].get("backward") for s in failure.steps)
    # Its command draws differentiated calls again (the interpreter's default does not).
    record = json.loads((failure.dump / "sequence.json").read_text())
    assert "backward=True" in record["reproduce"], record["reproduce"]
    checks.run_stateful(name, "float32", max_examples=10, stateful_step_count=4, repeats=1,
                        reset=_BACKWARD_SCALES.clear, sweeps=True, backward=False, seed=1)
    with pytest.raises(ValueError, match="declares no backward"):
        checks.run_stateful(LAUNCH_CACHED, "float32", max_examples=1, backward=True)


def test_a_sequence_that_passes_replays_to_its_verdicts(tmp_path):
    case = AttentionCase(hq=2, hkv=1, sq=3, sk=70, causal=True)  # two key blocks, GQA
    sequence = stateful.Sequence("decode", "float32", 2)
    sequence.repeat(sequence.call(case))
    failure = stateful.StatefulFailure("message", ["wrong"], sequence.steps, [])
    path = stateful.write_sequence_dump(sequence, failure, root=tmp_path)
    verdicts = stateful.replay_sequence(path)
    assert len(verdicts) == 2 and all(v.ok for step in verdicts for v in step)


def test_what_is_not_a_sequence_dump_is_refused(tmp_path):
    (tmp_path / "sequence.json").write_text('{"property": "oracle"}')
    with pytest.raises(ValueError, match="not a stateful dump"):
        stateful.replay_sequence(tmp_path)
    with pytest.raises(ValueError, match="not a stateful dump"):
        stateful.replay_sequence(tmp_path / "nothing")


def test_a_sweep_of_a_call_not_differentiated_may_be_one_of_differentiated_calls(
        tmp_path, monkeypatch):
    # A backward's launch caches are tried one argument at a time only by a
    # sweep of differentiated calls: in a sequence that holds them, a sweep of a
    # forward call may run the call differentiated first, then its neighbours.
    monkeypatch.setenv("ATTNFUZZ_DUMP_DIR", str(tmp_path))
    impl = implementations.get(implementations.of_function(
        mine, supports=Support(backward=True)).name)
    forward = AttentionCase(hq=2, hkv=1, sq=3, sk=5, causal=True)
    picks, do = [0] * len(stateful.NEIGHBOURS), named("bshd")
    for backward, dl, want in [(True, do, True), (True, None, False), (False, None, False)]:
        machine = stateful.machine(impl.name, "float32", repeats=1, sweeps=True,
                                   backward=backward, cases=st.nothing())()
        earlier = machine.sequence.call(forward)
        machine.sweep(earlier, picks, dl)
        swept = machine.sequence.cases[1:]
        first = as_backward(forward, do) if want else forward
        assert swept == [first] * want + stateful.sweep_of(first, impl, picks), (backward, dl)
        assert all(bool(c.backward) is want for c in swept)
        if want:
            assert machine.sequence.steps[1]["case"]["backward"]
            assert all(c.do_layout == do for c in swept)
        # Only a sequence that holds differentiated calls draws a dO for its sweeps.
        drawn = getattr(type(machine).sweep, RULE_MARKER).arguments["do"]
        assert (repr(drawn) == "none()") is not backward, drawn
