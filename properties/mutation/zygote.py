"""Worker processes that start without importing torch again.

Each mutant's worker is a new Python process, since it imports the mutant's
kernels from its own copy of the package; most of its start is importing
torch, Triton, NumPy and Hypothesis (about 2 s on a CPU core), paid by every
mutant of a run.  A ``Zygote`` is one process that has imported those and
nothing else.  Each worker is a fork of it that then runs
``python -m MODULE ARGS`` as a new interpreter would: the given environment,
working directory and ``sys.path`` (the working directory, then
``PYTHONPATH``, then the interpreter's own), stdin from ``/dev/null``,
stdout and stderr captured, its exit status (minus the signal that killed
it) returned.  A worker is still its own process, in its own process group:
a crash, a hang or a leak stays in it, and a timeout kills the group.  The
zygote has its own session, so a terminal's Ctrl-C reaches only the caller,
which passes it on to every worker (``interrupt``); a caller that exits
takes its workers with it.

The modules the zygote imported are shared, so a worker is run there only
when its environment equals the zygote's but for the keys that only the
worker's own code reads (``PER_WORKER``); anything else, and any command
other than ``python -m`` or off Linux, runs as a plain subprocess.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

# Read by the worker's own code, not by anything the zygote imported, so a
# worker may have its own values: its package copy and dump folder, and the
# test that pytest is running (which pytest sets anew for every test).
PER_WORKER = frozenset({"PYTHONPATH", "ATTNFUZZ_DUMP_DIR", "ATTNFUZZ_MUTANT_ROOT",
                        "PYTEST_CURRENT_TEST"})

# The zygote's program, run with ``python -c``.  Requests come on stdin, one
# JSON object a line; it answers on stdout with the worker's pid, then its
# exit status, each a JSON line.  It is single-threaded, so a fork holds no
# other thread's lock; a SIGCHLD wakes its select through the wakeup fd.
_SERVER = r"""
import json, os, select, signal, sys
import numpy, torch, triton, hypothesis  # noqa: F401 - what every worker imports

BASE_PATH = [p for p in sys.path[1:] if p not in os.environ.get("PYTHONPATH", "").split(os.pathsep)]
children, pending = {}, b""  # worker pid -> request id; unread request bytes
wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)


def interrupt(*_):
    # The caller's Ctrl-C, passed on (``interrupt`` below) to each worker's group,
    # as a terminal's reaches a worker started anew.
    for pid in children:
        try:
            os.killpg(pid, signal.SIGINT)
        except OSError:
            pass


signal.signal(signal.SIGINT, interrupt)


def say(obj):
    os.write(1, (json.dumps(obj) + "\n").encode())


def become(req):
    # Nothing may return from here: the child would go on as a second zygote.
    code = 1
    try:
        code = work(req)
    finally:
        os._exit(code)


def work(req):
    import runpy, traceback
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.close(wake_r)
    os.close(wake_w)
    os.setpgid(0, 0)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    for fd, path in ((1, req["out"]), (2, req["err"])):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    extra = [p for p in req["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [os.getcwd(), *extra, *BASE_PATH]
    sys.argv = [req["module"], *req["args"]]
    code = 0
    try:
        # A Ctrl-C passed on since the fork (held back by the zygote) lands here.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        runpy.run_module(req["module"], run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except KeyboardInterrupt:  # as Python ends on one: killed by the signal
        traceback.print_exc()
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        import atexit
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        pass
    return code


def reap(children):
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        say({"id": children.pop(pid), "status": code})


say({"ready": True})
while True:
    try:
        ready, _, _ = select.select([0, wake_r], [], [])
    except InterruptedError:
        ready = [wake_r]
    if wake_r in ready:
        try:
            os.read(wake_r, 4096)
        except BlockingIOError:
            pass
        reap(children)
    if 0 in ready:
        chunk = os.read(0, 65536)
        if not chunk:  # the client is gone: so are its workers
            for pid in children:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            req = json.loads(line)
            # SIGINT is held from before the fork until the child can take it
            # (``work``) and the parent has it in ``children`` to pass one on.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            pid = os.fork()
            if pid == 0:
                become(req)
            try:  # as the child does, so that a kill right after this finds the group
                os.setpgid(pid, pid)
            except OSError:
                pass
            children[pid] = req["id"]
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            say({"id": req["id"], "pid": pid})
        reap(children)
"""


def _key(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in PER_WORKER}


class Zygote:
    """A process with torch imported that forks workers on request (see the
    module's text).  Thread-safe: several threads may ``run`` at once."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = _key(env)
        # Torch and the rest are found as this process found them.
        own = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}
        # Its own session: a terminal's Ctrl-C reaches the caller alone, which
        # passes it on (``interrupt``) once the zygote is there to take it.
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env={**self.env, **own}, cwd=tempfile.gettempdir(), start_new_session=True)
        self._lock = threading.Lock()
        self._done = threading.Condition()
        self._pids: dict[int, int] = {}
        self._status: dict[int, int] = {}
        self._next = 0
        self._alive = self._proc.stdout.readline().startswith(b'{"ready"')
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def serves(self, cmd: list[str], env: dict[str, str]) -> bool:
        """Whether ``cmd`` with ``env`` can be forked from this zygote."""
        return (self._alive and len(cmd) >= 3 and cmd[0] == sys.executable and cmd[1] == "-m"
                and _key(env) == self.env)

    def _read(self) -> None:
        for line in self._proc.stdout:
            msg = json.loads(line)
            with self._done:
                if "pid" in msg:
                    self._pids[msg["id"]] = msg["pid"]
                else:
                    self._status[msg["id"]] = msg["status"]
                self._done.notify_all()
        with self._done:
            self._alive = False
            self._done.notify_all()

    def _wait(self, ident: int, what: dict[int, int], timeout: float | None,
              stop: bool = False) -> int | None:
        """What ``ident`` has in ``what`` once it comes, the zygote is gone,
        ``timeout`` passes or (with ``stop``) ``interrupt`` is called."""
        with self._done:
            self._done.wait_for(lambda: ident in what or not self._alive
                                or stop and _STOP.is_set(), timeout)
            return what.get(ident)

    def run(self, cmd: list[str], *, env: dict[str, str], cwd: str,
            timeout: float | None = None) -> subprocess.CompletedProcess:
        """``subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
        timeout=timeout)``, forked from the zygote (``serves`` must hold)."""
        with tempfile.TemporaryDirectory(prefix="attnfuzz-worker-") as tmp:
            out, err = Path(tmp, "out"), Path(tmp, "err")
            with self._lock:
                ident, self._next = self._next, self._next + 1
                request = {"id": ident, "module": cmd[2], "args": cmd[3:], "env": env,
                           "cwd": str(cwd), "out": str(out), "err": str(err)}
                self._proc.stdin.write((json.dumps(request) + "\n").encode())
                self._proc.stdin.flush()
            pid = self._wait(ident, self._pids, None)
            status = self._wait(ident, self._status, timeout, stop=True) if pid else None
            if pid is not None and status is None and _STOP.is_set():
                status = self._interrupt(ident, pid)
            timed_out = pid is not None and status is None and self._alive
            if timed_out:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                self._wait(ident, self._status, None)
            text = [p.read_text(errors="replace") if p.exists() else "" for p in (out, err)]
        if timed_out:
            raise subprocess.TimeoutExpired(cmd, timeout, output=text[0], stderr=text[1])
        if status is None:
            return subprocess.CompletedProcess(
                cmd, 1, text[0], text[1] + "\nthe zygote that forked this worker exited")
        return subprocess.CompletedProcess(cmd, status, text[0], text[1])

    def _interrupt(self, ident: int, pid: int) -> int | None:
        """Ctrl-C to a worker's group, then, if it has not ended within
        ``GRACE`` seconds, a kill: Python drops a KeyboardInterrupt that lands
        in a garbage collector's callback (Hypothesis has one), and the worker
        would run on.  Ended either way, it counts as interrupted."""
        for sig, wait in ((signal.SIGINT, GRACE), (signal.SIGKILL, None)):
            with contextlib.suppress(OSError):
                os.killpg(pid, sig)
            status = self._wait(ident, self._status, wait)
            if status is not None:
                return -signal.SIGINT if status == -signal.SIGKILL else status
        return None

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            self._proc.wait()


# One zygote per environment a worker asked for (in practice one a run).
_ZYGOTES: dict[frozenset, Zygote] = {}
_MOST = 4  # each holds torch in memory (about 300 MB)
_START = threading.Lock()
_STOP = threading.Event()  # set by ``interrupt``
GRACE = 5.0  # seconds an interrupted worker has to end before it is killed


def run(cmd: list[str], *, env: dict[str, str], cwd: str,
        timeout: float | None = None) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
    timeout=timeout)``, forked from a zygote where one serves it."""
    if _STOP.is_set():
        return subprocess.CompletedProcess(cmd, -signal.SIGINT, "", "interrupted: not started")
    zygote = None
    # Linux alone: elsewhere a fork of a process with torch loaded is not
    # known to be safe (macOS) or there is no fork (Windows).
    if sys.platform == "linux" and len(cmd) >= 3 and cmd[0] == sys.executable and cmd[1] == "-m":
        key = frozenset(_key(env).items())
        with _START:
            zygote = _ZYGOTES.get(key)
            if zygote is None and len(_ZYGOTES) < _MOST:
                zygote = _ZYGOTES[key] = Zygote(env)
                atexit.register(zygote.close)
    if zygote is not None and zygote.serves(cmd, env):
        return zygote.run(cmd, env=env, cwd=cwd, timeout=timeout)
    if _STOP.is_set():  # interrupted while a zygote was starting
        return subprocess.CompletedProcess(cmd, -signal.SIGINT, "", "interrupted: not started")
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def interrupt() -> None:
    """Pass a Ctrl-C on to every worker of this process's zygotes (each
    passes it to its workers' groups), as a terminal's reaches workers that
    share its process group; until ``resume``, a worker asked for is not
    started (returned as ended by the signal)."""
    _STOP.set()
    for zyg in list(_ZYGOTES.values()):
        if zyg._proc.poll() is None:
            with contextlib.suppress(OSError):
                os.kill(zyg._proc.pid, signal.SIGINT)
        with zyg._done:  # the threads waiting on its workers see it
            zyg._done.notify_all()


def resume() -> None:
    """Start workers again after ``interrupt``."""
    _STOP.clear()
