"""The examples as a user meets them: copied out of this repository, run by pytest and the CLI.

``examples/`` holds a small Triton attention kernel (``my_attention``), its
twin with a planted off-by-one (``my_attention_buggy``) and the test file a
user writes for it.  Each test here copies them into a temporary directory,
outside this repository and its pytest configuration, and runs them in new
processes as a user would: the correct kernel passes, and the planted bug is
found, dumped, replayed from another directory and exported as a script.
Seeds are fixed, so every run draws the same cases.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import needs_installed_plugin

ROOT = Path(__file__).resolve().parents[1]
SUPPORT = ("dtypes=float32,float16;head_dims=16,32,64;distinct_value_dim=no;gqa=no;"
           "layouts=last_dim_contiguous;lse=yes;max_seq=48")
SEED = "1"
# Not -q, which drops the report header and its seed line.  Hypothesis loads
# its own derandomizing "ci" profile where it detects CI, which would ignore
# the seed: the default profile draws the same cases everywhere.
PYTEST = ["-m", "pytest", "-p", "no:cacheprovider", f"--hypothesis-seed={SEED}",
          "--hypothesis-profile=default"]
BUGGY_TEST = """\
import attnfuzz
from my_attention import my_attention_buggy
from test_my_attention import SUPPORT

test_buggy = attnfuzz.fuzz_test(my_attention_buggy, convention="flash_attn", supports=SUPPORT,
                                properties=("oracle",), dtypes=("float32",), max_examples=20)
"""


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A copy of examples/, the user's project, outside the repository."""
    shutil.copytree(ROOT / "examples", tmp_path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".attnfuzz", ".hypothesis"))
    return tmp_path


def _env() -> dict[str, str]:
    # A user's shell: none of this suite's pytest, xdist or dump settings.  The
    # backend this suite runs on is kept, so the user's run uses it too.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTEST_") and k not in ("ATTNFUZZ_DUMP_DIR", "ATTNFUZZ_SEED")}
    env["OMP_NUM_THREADS"] = "1"
    return env


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None,
         ) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, env=env or _env(), capture_output=True, text=True,
                          timeout=300)


def _python(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return _run([sys.executable, *argv], cwd)


def _attnfuzz(command: str, cwd: Path) -> subprocess.CompletedProcess:
    """A printed ``attnfuzz ...`` command, run by this interpreter's attnfuzz."""
    argv = shlex.split(command)
    assert argv[0] == "attnfuzz", command
    return _python("-m", "attnfuzz", *argv[1:], cwd=cwd)


def _output(run: subprocess.CompletedProcess) -> str:
    return run.stdout + run.stderr


@needs_installed_plugin
def test_the_users_test_passes_the_kernel(user_dir: Path) -> None:
    run = _python(*PYTEST, "test_my_attention.py", cwd=user_dir)
    out = _output(run)
    assert run.returncode == 0, out
    assert f"seed {SEED} (rerun with --hypothesis-seed={SEED})" in out, out
    # Every property that applies, in both declared dtypes.
    assert "12 passed" in out, out
    # Nor a thousand warnings from the interpreter the plugin turned on.
    assert "warnings summary" not in out, out


@needs_installed_plugin
def test_the_users_test_finds_the_planted_bug(user_dir: Path) -> None:
    (user_dir / "test_buggy_attention.py").write_text(BUGGY_TEST)
    run = _python(*PYTEST, "test_buggy_attention.py", cwd=user_dir)
    out = _output(run)
    assert run.returncode == 1, out
    # Where CI is detected, pytest's short summary repeats the whole message.
    dumps = set(re.findall(r"^E?\s*dump: (\S+)$", out, re.M))
    commands = set(re.findall(r"^E?\s*replay: (attnfuzz replay .+)$", out, re.M))
    assert len(dumps) == 1 and len(commands) == 1, out
    dump, command = dumps.pop(), commands.pop()
    # No dump dir was given: the default is under the user's directory.
    assert Path(dump).resolve().is_relative_to(user_dir.resolve()), out
    assert "attnfuzz: reproduce" in out, out

    elsewhere = user_dir / "elsewhere"
    elsewhere.mkdir()
    replay = _attnfuzz(command, elsewhere)
    assert replay.returncode == 1, _output(replay)
    assert "FAIL" in replay.stdout, _output(replay)


def _campaign(function: str, user_dir: Path, examples: int = 20) -> subprocess.CompletedProcess:
    return _python("-m", "attnfuzz", "run", "--impl", f"my_attention.py:{function}",
                   "--convention", "flash_attn", "--supports", SUPPORT, "--dtype", "float32",
                   "--examples", str(examples), "--seed", SEED,
                   "--dump-dir", str(user_dir / "dumps"), cwd=user_dir)


def test_the_cli_passes_the_kernel(user_dir: Path) -> None:
    # The user's pytest run above draws 10 cases a property of this kernel in
    # both dtypes; through the CLI, a few a property show its path passes too.
    run = _campaign("my_attention", user_dir, examples=8)
    assert run.returncode == 0, _output(run)
    assert "dump:" not in run.stdout, _output(run)


def test_the_cli_finds_replays_and_exports_the_planted_bug(user_dir: Path) -> None:
    run = _campaign("my_attention_buggy", user_dir)
    assert run.returncode == 1, _output(run)
    # "dump: PATH  (attnfuzz replay PATH)", one per failing property.
    dumps = re.findall(r"^dump: (\S+)  \(attnfuzz replay ", run.stdout, re.M)
    oracle = [d for d in dumps if Path(d).name.startswith("oracle-")]
    assert len(oracle) == 1, _output(run)

    replay = _python("-m", "attnfuzz", "replay", oracle[0], cwd=user_dir)
    assert replay.returncode == 1, _output(replay)
    assert "FAIL" in replay.stdout, _output(replay)

    export = _python("-m", "attnfuzz", "replay", oracle[0], "--export", "repro.py",
                     cwd=user_dir)
    assert export.returncode == 0, _output(export)
    # A user's plain shell: the script itself runs the kernel under Triton's
    # interpreter where there is no GPU.
    env = {k: v for k, v in _env().items() if k not in ("TRITON_INTERPRET", "ATTNFUZZ_BACKEND")}
    repro = _run([sys.executable, "repro.py"], user_dir, env)
    assert repro.returncode != 0, _output(repro)
    assert "got" in repro.stdout and "want" in repro.stdout, _output(repro)
