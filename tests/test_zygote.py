"""A mutant worker forked from the zygote runs as a fresh ``python -m`` would,
and stays its own process: its crash, hang or children end with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from attnfuzz.properties.mutation import zygote

PROBE = """
import json, os, subprocess, sys, time
print(json.dumps({
    "argv": sys.argv, "cwd": os.getcwd(), "path": sys.path[:2], "file": __file__,
    "name": __name__, "env": os.environ.get("PROBE"), "stdin": sys.stdin.read(),
    "attnfuzz": sorted(m for m in sys.modules if m.split(".")[0] == "attnfuzz"),
}))
print("to stderr", file=sys.stderr)
what = sys.argv[1]
if what == "crash":
    os.kill(os.getpid(), 11)
if what == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with open("child.pid", "w") as f:
        f.write(str(child.pid))
    time.sleep(60)
if what == "raise":
    raise KeyError("planted")
sys.exit(int(what))
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("zygote")
    (root / "pkg").mkdir()
    (root / "pkg" / "probe_module.py").write_text(PROBE)
    (root / "work").mkdir()
    env = {**os.environ, "PYTHONPATH": str(root / "pkg"), "PROBE": "seen"}
    made = zygote.Zygote(env)
    yield made, env, root
    made.close()


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "probe_module", *args]


@pytest.mark.parametrize("what", ["0", "3", "raise"])
def test_a_forked_worker_sees_and_says_what_a_fresh_one_does(made, what):
    zyg, env, root = made
    cwd = str(root / "work")
    assert zyg.serves(_cmd(what), env)
    fresh = subprocess.run(_cmd(what), env=env, cwd=cwd, capture_output=True, text=True)
    forked = zyg.run(_cmd(what), env=env, cwd=cwd)
    assert forked.returncode == fresh.returncode
    assert json.loads(forked.stdout) == json.loads(fresh.stdout)
    assert json.loads(forked.stdout)["attnfuzz"] == []  # the zygote imported none of it
    assert forked.stderr.splitlines()[0] == fresh.stderr.splitlines()[0] == "to stderr"
    assert forked.stderr.splitlines()[-1] == fresh.stderr.splitlines()[-1]


def test_a_crash_is_the_workers_exit_status_and_the_zygote_serves_on(made):
    zyg, env, root = made
    assert zyg.run(_cmd("crash"), env=env, cwd=str(root / "work")).returncode == -11
    assert zyg.run(_cmd("0"), env=env, cwd=str(root / "work")).returncode == 0


def test_a_timeout_kills_the_worker_and_what_it_started(made):
    zyg, env, root = made
    work = root / "work"
    (work / "child.pid").unlink(missing_ok=True)
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        zyg.run(_cmd("hang"), env=env, cwd=str(work), timeout=2)
    assert time.monotonic() - start < 20
    pid = int((work / "child.pid").read_text())
    for _ in range(100):  # killed, then reaped by init: gone within moments
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the hanging worker's child {pid} outlived its timeout")


def test_ctrl_c_at_the_zygote_interrupts_its_workers_as_it_would_fresh_ones(made):
    """A Ctrl-C passed to the zygote (``interrupt``) reaches the workers' own
    groups, and a worker ends as an interrupted Python does (killed by SIGINT,
    after its traceback)."""
    zyg, env, root = made
    work = root / "work"
    (work / "child.pid").unlink(missing_ok=True)
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(zyg.run, _cmd("hang"), env=env, cwd=str(work), timeout=30)
        for _ in range(400):
            if (work / "child.pid").exists():
                break
            time.sleep(0.05)
        os.kill(zyg._proc.pid, signal.SIGINT)
        ended = running.result()
    assert ended.returncode == -signal.SIGINT, ended
    assert "KeyboardInterrupt" in ended.stderr
    assert zyg.run(_cmd("0"), env=env, cwd=str(work)).returncode == 0


def test_only_a_python_module_run_in_the_zygotes_environment_is_forked(made):
    zyg, env, _ = made
    assert zyg.serves(_cmd("0"), {**env, "PYTHONPATH": "/elsewhere", "PYTEST_CURRENT_TEST": "x"})
    assert not zyg.serves(_cmd("0"), {**env, "OMP_NUM_THREADS": "7"})
    assert not zyg.serves(["python3", "-m", "probe_module"], env)
    assert not zyg.serves([sys.executable, "script.py"], env)
