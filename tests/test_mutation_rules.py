"""The rule-based mutant generator: what it derives is stable, applies, and runs.

No kernel runs here: the mutants are only generated, planted and parsed.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
import torch

import attnfuzz.kernels
from attnfuzz.properties import checks, implementations
from attnfuzz.properties.mutation import reach, rules
from attnfuzz.properties.mutation.mutant import FILE_TARGETS, targets_of
from attnfuzz.properties.mutation.runner import apply

KERNELS = Path(attnfuzz.kernels.__file__).parent


@pytest.fixture(scope="module")
def every() -> list:
    return rules.generate()


def test_generation_is_deterministic(every):
    assert rules.generate(KERNELS) == every


def test_names_are_unique_and_enough(every):
    names = [m.name for m in every]
    assert len(set(names)) == len(names)
    assert len(every) >= 100
    for m in every:
        rule, stem = m.name.split(".")[1:3]
        assert rule in rules.RULES and f"{stem}.py" == m.file, m.name


def test_every_rule_produces_a_mutant(every):
    counts = Counter(m.name.split(".")[1] for m in every)
    assert set(counts) == set(rules.RULES), set(rules.RULES) - set(counts)


def test_every_edit_is_whole_lines_found_once(every):
    sources = {f: (KERNELS / f).read_text() for f in {m.file for m in every}}
    for m in every:
        ((old, new),) = m.edits
        src = sources[m.file]
        assert src.count(old) == 1 and old != new, m.name
        assert old.endswith("\n") and src[src.index(old) - 1] == "\n", m.name


def test_a_sample_applies_and_parses(every, tmp_path):
    sample = rules.generate(per_rule_file=3)
    per = Counter((m.name.split(".")[1], m.file) for m in sample)
    assert max(per.values()) <= 3
    assert set(per) == {(m.name.split(".")[1], m.file) for m in every}
    for m in sample:
        kernels = apply(m, tmp_path / m.name)
        ast.parse((kernels / m.file).read_text(), filename=m.name)


def test_a_sample_is_spread_and_named_as_in_full(every):
    by_name = {m.name: m for m in every}
    sample = rules.generate(per_rule_file=2)
    assert all(by_name[m.name] == m for m in sample)
    # Evenly spaced: a rule with many sites in a file is not sampled from its top only.
    sites = [m for m in every if m.name.startswith("rule.swap_strides.flash.")]
    first, second = (m for m in sample if m.name.startswith("rule.swap_strides.flash."))
    half = len(sites) // 2
    assert first in sites[:half] and second in sites[half:]


def test_every_target_is_registered(every):
    for targets in {m.targets for m in every}:
        for prop, impl, dtype in targets:
            assert checks.get(prop).applies(implementations.get(impl)), (prop, impl)
            assert dtype in implementations.get(impl).dtypes


def test_only_code_is_mutated(tmp_path):
    (tmp_path / "toy.py").write_text(
        '"""Docstring: i <= n, a // b, min(a, b)."""\n'
        "\n"
        "\n"
        "def f(x, n):\n"
        "    # a comment: i < n, range(a, b)\n"
        '    return x // n if x <= n else "a < b % c"\n'
    )
    muts = rules.generate(tmp_path)
    assert {m.name for m in muts} == {"rule.floordiv_to_mod.toy.6", "rule.le_to_lt.toy.6"}
    assert all(m.edits[0][0] == '    return x // n if x <= n else "a < b % c"\n' for m in muts)


def test_every_kernel_file_with_code_has_its_targets():
    """One table says which properties call each kernel file; a file missing
    from it would fall back to every entry point, slowly."""
    files = {p.name for p in KERNELS.glob("*.py") if p.name != "__init__.py"}
    assert files == set(FILE_TARGETS), files ^ set(FILE_TARGETS)
    for file in files:
        for prop, impl, dtype in targets_of(file):
            assert checks.get(prop).applies(implementations.get(impl)), (file, prop, impl)
            assert dtype in implementations.get(impl).dtypes
    # The entry points a file's code runs under are among its targets.
    props = {f: {p for p, _, _ in targets_of(f)} for f in files}
    assert "serving" in props["serving.py"] and "serving" in props["split_decode.py"]
    assert "gradients" in props["flash_backward.py"] and "gradients" in props["_tiles.py"]
    assert {"gradients", "serving", "stateful"} <= props["flash.py"] | props["_row_tile.py"]


_TOY = """\
def f(x, interpreting):
    if interpreting():
        return x + 1
    y = x * 2
    if not interpreting() and min(x, 3) < 2:
        y = y - 1
    return y


def g(x):
    return x - 1
"""


def test_code_one_backend_never_runs_is_found():
    # Line 4 runs only compiled (the interpreter returned at line 3).
    assert reach.backend_only(_TOY, range(4, 5), interpreted=True)
    assert not reach.backend_only(_TOY, range(4, 5), interpreted=False)
    assert reach.backend_only(_TOY, range(3, 4), interpreted=False)
    assert reach.backend_only(_TOY, range(6, 7), interpreted=True)
    assert not reach.backend_only(_TOY, range(11, 12), interpreted=True)
    # The condition's header runs everywhere; the operand after ``not
    # interpreting()`` only compiled, and the same edit to the deciding operand does not.
    edited = _TOY.replace("min(x, 3) < 2", "min(x, 3) <= 2")
    assert reach.backend_only(edited, range(5, 6), True, original=_TOY)
    assert not reach.backend_only(edited, range(5, 6), False, original=_TOY)
    flipped = _TOY.replace("if not interpreting() and", "if interpreting() and")
    assert not reach.backend_only(flipped, range(5, 6), False, original=_TOY)


def test_tracing_records_whether_an_edited_line_ran(tmp_path):
    path = tmp_path / "toy.py"
    path.write_text(_TOY)
    namespace: dict = {}
    exec(compile(_TOY, str(path), "exec"), namespace)
    body = reach.watch(str(path), _TOY, range(11, 12))
    with reach.tracing(body) as hit:
        namespace["f"](1, lambda: True)
    assert not hit[0]
    with reach.tracing(body) as hit:
        namespace["g"](1)
    assert hit[0]
    # An edit to a ``def`` line shows when the function is called.
    header = reach.watch(str(path), _TOY, range(10, 11))
    assert header.calls == {10}
    with reach.tracing(header) as hit:
        namespace["g"](1)
    assert hit[0]
    assert reach.watch(str(path), "X = 1\n", range(1, 2)).always


_BACKWARD_TOY = """\
import torch


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2
"""


@pytest.mark.skipif(not torch.cuda.is_available(), reason="autograd's device threads: a GPU")
def test_tracing_sees_a_gpu_tensors_backward(tmp_path):
    # Autograd runs a CUDA tensor's backward in a device thread of its own,
    # where the worker's trace function is not installed; the line must still count.
    path = tmp_path / "twice.py"
    path.write_text(_BACKWARD_TOY)
    namespace: dict = {}
    exec(compile(_BACKWARD_TOY, str(path), "exec"), namespace)
    x = torch.ones(4, device="cuda", requires_grad=True)
    with reach.tracing(reach.watch(str(path), _BACKWARD_TOY, range(11, 12))) as hit:
        namespace["Twice"].apply(x).sum().backward()
    assert hit[0]
    assert torch.equal(x.grad, torch.full_like(x, 2.0))
