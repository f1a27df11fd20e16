"""The cookbook's adapters as a user meets them: fuzzed from outside this repository.

``examples/cookbook/`` wraps three serving kernels of well-known interfaces
(a token-pool prefill, a split-K decode, a paged unified kernel with windows)
in adapters of attnfuzz's ``paged`` and ``paged_varlen`` conventions, each fuzzed by
``python fuzz.py ADAPTER.py``.  Each test copies the folder into a temporary
directory and runs that command in a new process: the kernel as written
passes, and the same adapter over the kernel's planted-bug twin is found,
shrunk to the smallest case that shows the bug.  Seeds are fixed, so every
run draws the same cases.  The adapters are meant to be short: a test counts
their lines of code.
"""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

COOKBOOK = Path(__file__).resolve().parents[1] / "examples" / "cookbook"
# adapter: (its kernels' module, the kernel it calls, what the shrunk case of
# the kernel's planted bug shows: two requests, two KV splits, a window's left
# side of 0, the least at which a side one key short shows).
ADAPTERS = {
    "tokenpool_prefill": ("kernels_tokenpool", "context_attention_fwd", "B=2 "),
    "split_k_decode": ("kernels_decode", "decode_attention_fwd", "Sk=2 "),
    "unified_paged": ("kernels_unified", "unified_attention", "window=(0, "),
}
MAX_LINES = 15
SEED = "1"
# The adapter over the kernel's planted-bug twin, as a user would swap it in.
BUGGY = """\
import {kernels}
import {adapter} as adapter
from {adapter} import CONVENTION, SUPPORTS  # noqa: F401
adapter.{kernel} = {kernels}.{kernel}_buggy
{adapter}_buggy = adapter.{adapter}
"""


def code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not part of a docstring."""
    tree = ast.parse(source)
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                and ast.get_docstring(node, clean=False) is not None):
            docstrings.update(range(node.body[0].lineno, node.body[0].end_lineno + 1))
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER, tokenize.ENCODING)
    lines = {n for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type not in skip for n in range(tok.start[0], tok.end[0] + 1)}
    return len(lines - docstrings)


def test_code_lines_counts_code_only() -> None:
    source = ('"""A docstring\nof two lines."""\n\nimport torch  # a comment\n# another\n\n'
              'def f(x):\n    """Its docstring."""\n    return torch.cat([x,\n'
              '                      x])\n')
    assert code_lines(source) == 4  # import, def, and a return over two lines


def test_the_cookbook_holds_the_adapters_tested_here() -> None:
    files = {p.stem for p in COOKBOOK.glob("*.py")
             if not p.stem.startswith("kernels_") and p.stem != "fuzz"}
    assert files == set(ADAPTERS)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_each_adapter_is_at_most_15_lines_of_code(adapter: str) -> None:
    lines = code_lines((COOKBOOK / f"{adapter}.py").read_text())
    assert lines <= MAX_LINES, f"{adapter}.py has {lines} lines of code, more than {MAX_LINES}"


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A copy of the cookbook's files, the user's folder, outside the repository."""
    for path in COOKBOOK.glob("*.py"):
        (tmp_path / path.name).write_text(path.read_text())
    return tmp_path


def _fuzz(adapter_file: str, user_dir: Path, *options: str) -> subprocess.CompletedProcess:
    # A user's shell: none of this suite's pytest or dump settings; its backend is kept.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTEST_") and k not in ("ATTNFUZZ_DUMP_DIR", "ATTNFUZZ_SEED")}
    env["OMP_NUM_THREADS"] = "1"
    return subprocess.run([sys.executable, "fuzz.py", adapter_file, "--seed", SEED, "--jobs",
                           "1", "--dump-dir", str(user_dir / "dumps"), *options],
                          cwd=user_dir, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_kernel_passes(adapter: str, user_dir: Path) -> None:
    run = _fuzz(f"{adapter}.py", user_dir, "--examples", "10")
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "dump:" not in out, out
    # Every dtype the adapter declares, under the oracle and the serving property.
    for dtype in ("float32", "float16"):
        assert any(dtype in line and "serving" in line for line in out.splitlines()), out


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_the_planted_bug_is_found(adapter: str, user_dir: Path) -> None:
    kernels, kernel, shows = ADAPTERS[adapter]
    (user_dir / f"{adapter}_buggy.py").write_text(
        BUGGY.format(adapter=adapter, kernels=kernels, kernel=kernel))
    run = _fuzz(f"{adapter}_buggy.py", user_dir, "--examples", "10", "--dtype", "float32",
                "--property", "oracle")
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    failed = [line for line in out.splitlines() if line.startswith("oracle failed for")]
    assert len(failed) == 1 and "(wrong)" in failed[0] and shows in failed[0], out


def test_the_decode_adapter_must_refuse_more_than_one_query(user_dir: Path) -> None:
    # Declared max_sq=1: without its check the adapter answers the first query
    # of a prefill and drops the rest, an out of the wrong shape.
    adapter = user_dir / "split_k_decode.py"
    check = ('    if q.shape[2] != 1:\n        raise ValueError(f"decode only: one query per '
             'sequence, got Sq={q.shape[2]}")\n')
    assert check in adapter.read_text()
    adapter.write_text(adapter.read_text().replace(check, ""))
    run = _fuzz("split_k_decode.py", user_dir, "--examples", "10", "--dtype", "float32",
                "--property", "refuses")
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "broke its contract (contract: out shape)" in out and "Sq=2" in out, out


@pytest.mark.parametrize(("argv", "says"), [
    ([], "usage: python fuzz.py ADAPTER.py"),
    (["kernels_decode.py"], "kernels_decode.py declares no CONVENTION"),
])
def test_fuzz_py_says_what_is_wrong_in_one_line(argv: list[str], says: str,
                                                 user_dir: Path) -> None:
    run = subprocess.run([sys.executable, "fuzz.py", *argv], cwd=user_dir, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode != 0 and run.stderr.strip() == run.stderr.strip().splitlines()[0]
    assert says in run.stderr, run.stderr
