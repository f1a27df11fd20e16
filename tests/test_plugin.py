"""The pytest plugin's and ``fuzz_test``'s answers to a user's mistakes: one line, no traceback.

(The plugin's working route, a user's test file outside the repository, is
``tests/test_examples.py``.)
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import attnfuzz
from tests import user_attention
from tests.support import needs_installed_plugin


@needs_installed_plugin
def test_a_bad_backend_variable_is_one_usage_line(tmp_path):
    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    env = {**os.environ, "ATTNFUZZ_BACKEND": "bogus"}
    env.pop("TRITON_INTERPRET", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == pytest.ExitCode.USAGE_ERROR, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "ATTNFUZZ_BACKEND must be one of" in proc.stderr, proc.stderr


@pytest.mark.parametrize(("kwargs", "error", "fragment"), [
    ({"convention": "nosuch"}, ValueError, "unknown convention"),
    ({"supports": "gqa=no"}, TypeError, "supports must be"),
    ({"properties": ("nosuch",)}, ValueError, "unknown property"),
    ({"properties": "oracle"}, TypeError, "tuples of names"),
    ({"properties": ("softmax_invariants",)}, ValueError, "applies"),
    ({"dtypes": ("float64",)}, ValueError, "dtypes"),
    ({"max_examples": 0}, ValueError, "max_examples"),
])
def test_fuzz_test_names_the_argument_it_refuses(kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        attnfuzz.fuzz_test(user_attention.mine, **kwargs)


def test_fuzz_test_refuses_what_a_dump_could_not_import_again():
    with pytest.raises(ValueError, match="module-level"):
        attnfuzz.fuzz_test(lambda q, k, v, **kw: q)
    with pytest.raises(TypeError, match="fn must be"):
        attnfuzz.fuzz_test(3)


@needs_installed_plugin
def test_a_seed_draws_the_same_whatever_was_imported_before(tmp_path):
    # Hypothesis mixes constants from the loaded modules into its draws; the
    # plugin loads all of attnfuzz up front, so a kernel imported by an
    # earlier test (or not, in a reproduce run) leaves the draws as they were.
    (tmp_path / "test_draws.py").write_text(
        "import os\n"
        "from hypothesis import given, settings, strategies as st\n"
        "if os.environ['IMPORT_FIRST']:\n"
        "    import attnfuzz.kernels.flash_backward\n"
        "@settings(max_examples=200, database=None)\n"
        "@given(st.integers(), st.floats())\n"
        "def test_draws(i, f):\n"
        "    with open(os.environ['DRAWS'], 'a') as out:\n"
        "        out.write(f'{i} {f!r}\\n')\n")
    drawn = []
    for first in ("", "1"):
        path = tmp_path / f"draws{first}.txt"
        env = {**os.environ, "IMPORT_FIRST": first, "DRAWS": str(path)}
        proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                               "-p", "no:xdist", "--hypothesis-seed=7"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        drawn.append(path.read_text())
    assert drawn[0] == drawn[1]
