"""The pytest plugin's and ``fuzz_test``'s answers to a user's mistakes: one line, no traceback.

(The plugin's working route, a user's test file outside the repository, is
``tests/test_examples.py``.)
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import time
from types import SimpleNamespace

import hypothesis.core
import pytest

import attnfuzz
from attnfuzz.properties.run import plugin, worker
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
    ({"seconds": 0}, ValueError, "seconds"),
    ({"seconds": math.inf}, ValueError, "seconds"),
    ({"seconds": "60"}, ValueError, "seconds"),
    ({"seconds": 5, "max_examples": 5}, ValueError, "not both"),
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


# A user's attention function, in a repository of its own (plain torch: the
# profile is under test, not a kernel).
USER_ATTENTION = """\
import torch


def attend(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    g = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(g, 1), v.repeat_interleave(g, 1)
    logits = (q.double() @ k.double().transpose(-1, -2)) * scale
    if causal:
        sq, sk = q.shape[2], k.shape[2]
        offset = sk - sq if alignment == "bottom_right" else 0
        i = torch.arange(sq)[:, None]
        j = torch.arange(sk)[None, :]
        logits = logits.masked_fill(j > i + offset, float("-inf"))
    p = torch.softmax(logits, dim=-1).nan_to_num(0.0)
    return (p @ v.double()).to(q.dtype)
"""


def _user_pytest(directory, *argv: str) -> subprocess.CompletedProcess:
    """pytest in ``directory`` as a user runs it: none of this suite's settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST_", "HYPOTHESIS_")) and k != "ATTNFUZZ_SEED"}
    env["OMP_NUM_THREADS"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-p", "no:xdist", *argv], cwd=directory, env=env,
                          capture_output=True, text=True, timeout=300)


@needs_installed_plugin
@pytest.mark.parametrize(("profile", "users_thorough"), [("thorough", None), ("dev", 7)])
def test_the_documented_profiles_load_in_any_repository(tmp_path, profile, users_thorough):
    """Each run loads one profile from the command line and finds the other
    registered: the plugin's, or the user's own, which is theirs to keep."""
    (tmp_path / "user_attention.py").write_text(USER_ATTENTION)
    if users_thorough is not None:
        (tmp_path / "conftest.py").write_text(
            "from hypothesis import settings\n"
            f"settings.register_profile('thorough', max_examples={users_thorough})\n")
    thorough = users_thorough or 1000
    (tmp_path / "test_user.py").write_text(
        "from hypothesis import settings\n"
        "from user_attention import attend\n"
        "import attnfuzz\n"
        "def test_the_profiles():\n"
        f"    assert settings.get_current_profile_name() == {profile!r}\n"
        "    assert settings.get_profile('dev').max_examples == 10\n"
        "    assert not settings.get_profile('dev').derandomize\n"
        f"    assert settings.get_profile('thorough').max_examples == {thorough}\n"
        "test_attend = attnfuzz.fuzz_test(attend, properties=('oracle',), dtypes=('float32',),\n"
        "                                 max_examples=3)\n")
    proc = _user_pytest(tmp_path, f"--hypothesis-profile={profile}", "--hypothesis-seed=1")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "2 passed" in out, out
    assert f"hypothesis profile {profile}," in out, out


# Cases small enough that a call's time is its sleep.
SMALL = attnfuzz.Support(dtypes=("float32",), head_dims=(16,), gqa=False,
                         distinct_value_dim=False, max_seq=16)
SLOW_CALL = 0.25
CALLS: list[float] = []


def slow_attention(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    CALLS.append(time.monotonic())
    time.sleep(SLOW_CALL)
    return user_attention.mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


def test_a_timed_fuzz_test_starts_no_case_past_its_seconds(attnfuzz_recorder):
    """It runs its time, and no call starts after it: calls of 0.25 s fit 8
    times in 2 s (without the limit, the run's profile makes 10 or 30)."""
    seconds = 2.0
    timed = attnfuzz.fuzz_test(slow_attention, supports=SMALL, properties=("oracle",),
                               seconds=seconds)
    no_option = SimpleNamespace(getoption=lambda name, default=None: None)
    worker.prepare()  # the one-time imports a timed test makes before its clock starts
    CALLS.clear()
    t0 = time.monotonic()
    timed(("oracle", "float32"), attnfuzz_recorder, no_option)
    assert time.monotonic() - t0 >= seconds
    # A call starts just after the check that let its case run, before the limit.
    assert CALLS and max(CALLS) < t0 + seconds + SLOW_CALL, [t - t0 for t in CALLS]
    assert len(CALLS) <= seconds / SLOW_CALL + 1, [t - t0 for t in CALLS]


DRAWN: list[tuple] = []


def drawn_recording(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    DRAWN.append((tuple(q.shape), tuple(k.shape), tuple(v.shape), causal, alignment, scale))
    return user_attention.mine(q, k, v, causal=causal, scale=scale, alignment=alignment)


def test_each_example_of_a_fuzz_test_is_a_draw_of_its_own(attnfuzz_recorder, monkeypatch):
    """Hypothesis' engine follows each new example with copies of it, one part
    copied over another: 11-13 shapes and masks in the first 15 examples at
    seeds 0-4.  A fuzz_test's are drawn afresh (its later examples steer
    towards the largest error/bound ratio, on one shape: not counted here)."""
    monkeypatch.setattr(hypothesis.core, "global_force_seed", 0)
    test = attnfuzz.fuzz_test(drawn_recording, supports=attnfuzz.Support(
        dtypes=("float32",), max_seq=16), properties=("oracle",), max_examples=30)
    no_option = SimpleNamespace(getoption=lambda name, default=None: None)
    DRAWN.clear()
    test(("oracle", "float32"), attnfuzz_recorder, no_option)
    assert len(DRAWN) == 30 and len(set(DRAWN[:15])) == 15, DRAWN[:15]


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "soon"])
def test_attnfuzz_seconds_refuses_what_is_no_time(text):
    with pytest.raises(Exception, match="number of seconds > 0"):
        plugin._seconds_option(text)


SLOW_USER_TEST = """\
import time

import attnfuzz
from user_attention import attend

SMALL = attnfuzz.Support(dtypes=("float32",), head_dims=(16,), gqa=False,
                         distinct_value_dim=False, max_seq=16)


def slow(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    with open("calls.txt", "a") as out:
        out.write("call\\n")
    time.sleep(0.1)
    return attend(q, k, v, causal=causal, scale=scale, alignment=alignment)


test_slow = attnfuzz.fuzz_test(slow, supports=SMALL, properties=("oracle",), max_examples=1)
fuzz_attend = attnfuzz.fuzz_test(attend, supports=SMALL, properties=("oracle",))
"""


@needs_installed_plugin
def test_attnfuzz_seconds_fuzzes_for_its_time_and_an_uncollected_fuzz_test_is_named(tmp_path):
    (tmp_path / "user_attention.py").write_text(USER_ATTENTION)
    (tmp_path / "test_user.py").write_text(SLOW_USER_TEST)
    proc = _user_pytest(tmp_path, "--hypothesis-seed=1", "--attnfuzz-seconds", "3",
                        "--durations=1", "--durations-min=0")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "1 passed" in out, out
    # The command line's seconds overrode the file's max_examples=1: the test
    # ran its 3 s, more calls than one (how many of 0.1 s fit depends on the
    # machine's load: the first builds the interpreter's kernels), and started
    # none after its time.
    spent = re.search(r"^([0-9.]+)s call +test_user.py::test_slow", out, re.M)
    assert spent and float(spent.group(1)) >= 3.0, out
    calls = (tmp_path / "calls.txt").read_text().count("call")
    assert 2 <= calls <= 3 / 0.1 + 1, out
    assert "fuzz_attend = fuzz_test(...) is never run" in out, out
    assert "name it test_fuzz_attend" in out, out


@pytest.mark.parametrize("second", ["flash", "/else/where/mine.py:attn@flash_attn"])
def test_the_summary_names_a_files_function_as_given_and_its_declaration_once(second):
    """As the campaign's summary does (``display_names``): a declared support
    printed once, not in every row; a name two would share stays whole."""
    mine = "/some/folder/mine.py:attn@flash_attn#dtypes=float32;max_seq=48"
    reports = [SimpleNamespace(user_properties=[
        ("attnfuzz_ratio", (impl, "float32", ratio, 5, "out", "B=1 Sq=1 Sk=1"))])
        for impl, ratio in ((mine, 0.97), (second, 0.5))]
    lines: list[str] = []
    reporter = SimpleNamespace(stats={"passed": reports}, section=lambda title: None,
                               write_line=lines.append)
    plugin.pytest_terminal_summary(reporter, 0, SimpleNamespace(attnfuzz_seed=7))
    unique = second == "flash"
    shown = "mine.py:attn@flash_attn" if unique else mine
    declared = [ln for ln in lines if ln.startswith("support declared")]
    assert declared == ([f"support declared for {shown}: dtypes=float32;max_seq=48"]
                        if unique else [])
    rows = [ln for ln in lines if ln.split()[:2] in ([shown, "float32"], [second, "float32"])
            and not ln.startswith(" ")]
    assert len(rows) == 2
    assert f"  {shown} float32 0.97 out: B=1 Sq=1 Sk=1" in lines  # near its bound
