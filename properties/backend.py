"""Which backend runs the kernels: Triton's CPU interpreter or a CUDA GPU.

``configure()`` must run before ``kernels`` is imported, because
``@triton.jit`` reads ``TRITON_INTERPRET`` when the decorator runs.
``ATTNFUZZ_BACKEND=interpreter|gpu`` overrides the automatic choice.

On the interpreter without a GPU, ``stand_ins`` answers what kernel files ask
of one at import or launch (the active Triton driver, ``torch.cuda``'s
current device and its properties: device 0 of ``STAND_IN_GPU``), and a
kernel autotuned over several configs runs its first (after its own
``early_config_prune``): the interpreter has no timer to tune with.  A call
of a ``@triton.jit`` helper inside an interpreted launch does not patch
``triton.language`` again (``_patch_lang_once``): the launch has.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType, SimpleNamespace

BACKENDS = ("auto", "interpreter", "gpu")
# Where the float64 oracle and its bounds may run (``oracle_device``).
ORACLE_DEVICES = ("cpu", "cuda")
ORACLE_DEVICE_VARIABLE = "ATTNFUZZ_ORACLE_DEVICE"


def configure(choice: str | None = None) -> str:
    """Select the backend (before importing ``attnfuzz.kernels``) and return its name."""
    if choice is None:
        choice = requested()
        if choice not in BACKENDS:
            raise ValueError(
                f"ATTNFUZZ_BACKEND must be one of {', '.join(BACKENDS)}, got {choice!r}"
            )
    if choice not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {choice!r}")
    if "attnfuzz.kernels" in sys.modules and choice != "auto":
        if (choice == "interpreter") != interpreting():
            raise RuntimeError(
                "kernels was imported before the backend was chosen; "
                "call attnfuzz.configure() first"
            )
    if choice == "auto":
        if "TRITON_INTERPRET" in os.environ:
            choice = "interpreter" if interpreting() else "gpu"
        else:
            import torch

            choice = "gpu" if torch.cuda.is_available() else "interpreter"
    if choice == "interpreter":
        os.environ["TRITON_INTERPRET"] = "1"
        # numpy's thread pool only slows the interpreter's many small ops.
        os.environ.setdefault("OMP_NUM_THREADS", "1")
    else:
        os.environ["TRITON_INTERPRET"] = "0"
    os.environ["ATTNFUZZ_BACKEND"] = choice
    stand_ins(choice == "interpreter")
    return choice


# The GPU the stand-ins describe: an A100's numbers (sm_80, the portable
# kernels' path), as the CUDA driver names them and as torch names them.
STAND_IN_GPU = {
    "name": "Triton interpreter (stand-in for an sm_80 GPU)",
    "capability": (8, 0),
    "multiprocessor_count": 108,
    "warp_size": 32,
    "max_shared_mem": 166912,  # per block, opted in
    "max_num_regs": 65536,
    "total_memory": 40 * 2**30,
    "L2_cache_size": 40 * 2**20,
}

# (owner, attribute) -> what the stand-ins replaced, to put back.
_REPLACED: dict[tuple[object, str], object] = {}


def stand_ins(install: bool = True) -> None:
    """Install (or remove) the interpreter's stand-ins for a GPU; ``configure``
    calls it.  The device questions are answered only where no GPU answers
    them; the autotuner runs its first config whenever it interprets."""
    import torch
    from triton.runtime import autotuner
    from triton.runtime.driver import driver

    if not install:
        for (owner, name), old in _REPLACED.items():
            if owner is driver:
                driver.set_active(old)
            else:
                setattr(owner, name, old)
        _REPLACED.clear()
        return
    if _REPLACED:
        return
    replacements: list[tuple[object, str, object]] = [
        (autotuner.Autotuner, "run", _first_config(autotuner.Autotuner.run))]
    if interpreting():
        from triton.runtime import interpreter

        replacements += [
            (interpreter, "_patch_lang", _patch_lang_once(interpreter._patch_lang)),
            (interpreter.GridExecutor, "__call__",
             _launch_scope(interpreter.GridExecutor.__call__)),
        ]
    if not torch.cuda.is_available():
        gpu = STAND_IN_GPU
        props = SimpleNamespace(  # the attributes of torch's _CudaDeviceProperties
            name=gpu["name"], major=gpu["capability"][0], minor=gpu["capability"][1],
            multi_processor_count=gpu["multiprocessor_count"], warp_size=gpu["warp_size"],
            shared_memory_per_block=48 * 1024, shared_memory_per_block_optin=gpu["max_shared_mem"],
            shared_memory_per_multiprocessor=gpu["max_shared_mem"] + 1024,
            regs_per_multiprocessor=gpu["max_num_regs"], max_threads_per_multi_processor=2048,
            total_memory=gpu["total_memory"], L2_cache_size=gpu["L2_cache_size"],
            is_integrated=False, is_multi_gpu_board=False, gcnArchName="")
        replacements += [
            (torch.cuda, "current_device", lambda: 0),
            (torch.cuda, "get_device_properties", lambda device=None: props),
            (torch.cuda, "get_device_capability", lambda device=None: gpu["capability"]),
            (torch.cuda, "get_device_name", lambda device=None: gpu["name"]),
        ]
        try:
            driver.active  # noqa: B018 - a GPU's driver, where one is active
        except Exception:  # none is: Triton raises when it finds no driver to create
            replacements.append((driver, "active", _StandInDriver()))
    for owner, name, new in replacements:
        if owner is driver:
            _REPLACED[owner, name] = None  # none was active: the first use creates one
            driver.set_active(new)
        else:
            _REPLACED[owner, name] = getattr(owner, name)
            setattr(owner, name, new)


def _first_config(run):
    """``Autotuner.run`` that, on the interpreter, runs the first config its
    pruning leaves instead of timing each."""
    def first(self, *args, **kwargs):
        if not interpreting() or len(self.configs) <= 1:
            return run(self, *args, **kwargs)
        configs = self.configs
        if self.early_config_prune:
            named = dict(zip(self.arg_names, args, strict=False))
            configs = self.early_config_prune(configs, named, **kwargs) or configs
        every, self.configs = self.configs, configs[:1]
        try:
            return run(self, *args, **kwargs)
        finally:
            self.configs = every

    return first


# Per interpreted launch in progress, the ``triton.language`` modules it has
# patched (``_patch_lang_once``).
_PATCHED_LANGS: list[set[ModuleType]] = []


def _patch_lang_once(patch_lang):
    """Triton's interpreter patches ``triton.language`` for a launch (undone
    when it ends) and again at every call of a ``@triton.jit`` helper inside
    it (never undone: the launch's undoing covers it).  Where the launch has
    patched the modules the helper sees, that second patching sets every
    attribute to what it already is, at the cost of ``inspect.getmembers``
    over the language: about a quarter of an interpreted flash forward.  It
    is skipped there; a helper that sees another module is patched as before."""
    import inspect

    import triton.language as tl
    from triton.runtime import interpreter

    def once(fn):
        langs = {v for v in fn.__globals__.values()
                 if inspect.ismodule(v) and v in (tl, tl.core)}
        if _PATCHED_LANGS and langs and langs <= _PATCHED_LANGS[-1]:
            return interpreter._LangPatchScope()  # nothing to undo
        scope = patch_lang(fn)
        if _PATCHED_LANGS:
            _PATCHED_LANGS[-1].update(langs)
        return scope

    return once


def _launch_scope(call):
    """``GridExecutor.__call__`` (one interpreted launch) that tells
    ``_patch_lang_once`` which modules are patched while it runs."""
    def launch(self, *args, **kwargs):
        _PATCHED_LANGS.append(set())
        try:
            return call(self, *args, **kwargs)
        finally:
            _PATCHED_LANGS.pop()

    return launch


class _StandInDriver:
    """The active Triton driver's answers about device 0 of ``STAND_IN_GPU``."""

    def __init__(self) -> None:
        gpu = STAND_IN_GPU
        properties = {"max_shared_mem": gpu["max_shared_mem"],
                      "max_num_regs": gpu["max_num_regs"],
                      "multiprocessor_count": gpu["multiprocessor_count"],
                      "warpSize": gpu["warp_size"], "sm_clock_rate": 1410000,
                      "mem_clock_rate": 1215000, "mem_bus_width": 5120}
        self.utils = SimpleNamespace(get_device_properties=lambda device=0: dict(properties))

    def is_active(self) -> bool:
        return True

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        pass

    def get_current_stream(self, device: int | None = None) -> int:
        return 0

    def get_device_capability(self, device: int = 0) -> tuple[int, int]:
        return STAND_IN_GPU["capability"]

    def get_current_target(self):
        from triton.backends.compiler import GPUTarget

        major, minor = STAND_IN_GPU["capability"]
        return GPUTarget("cuda", 10 * major + minor, STAND_IN_GPU["warp_size"])

    def get_active_torch_device(self):
        import torch

        return torch.device("cpu")


def requested() -> str:
    """The backend ``ATTNFUZZ_BACKEND`` asks for ("auto" when unset)."""
    return os.environ.get("ATTNFUZZ_BACKEND", "auto")


def worker_gpu(worker: str | None, count: int) -> int | None:
    """The GPU an xdist worker ('gw3') binds to: one per worker, round robin."""
    if not worker or count < 1:
        return None
    digits = "".join(ch for ch in worker if ch.isdigit())
    return int(digits) % count if digits else 0


def bind_worker_gpu() -> int | None:
    """Under pytest-xdist on a multi-GPU machine, give each worker its own GPU."""
    if interpreting():
        return None
    import torch

    index = worker_gpu(os.environ.get("PYTEST_XDIST_WORKER"), torch.cuda.device_count())
    if index is not None:
        torch.cuda.set_device(index)
    return index


def worker_threads(workers: str | None, cpus: int, current: int) -> int | None:
    """Torch threads for one of ``workers`` xdist workers on ``cpus`` CPUs (None: not a worker)."""
    if not workers or not workers.isdigit() or int(workers) < 1:
        return None
    return min(current, max(1, cpus // int(workers)))


def share_worker_cpus() -> int | None:
    """Under pytest-xdist, give each worker's torch an equal share of the CPUs.

    The oracle and its bounds are float64 on the CPU (on the interpreter, or
    with ``ATTNFUZZ_ORACLE_DEVICE=cpu``), and torch's default pool is every
    core per process: N workers would run N x cores threads.
    """
    import torch

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    threads = worker_threads(os.environ.get("PYTEST_XDIST_WORKER_COUNT"), cpus or 1,
                             torch.get_num_threads())
    if threads is not None:
        torch.set_num_threads(threads)
    return threads


def interpreting() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0") == "1"


def device() -> str:
    return "cpu" if interpreting() else "cuda"


def oracle_device() -> str:
    """Where the float64 oracle and its bounds run: ``ATTNFUZZ_ORACLE_DEVICE``
    (cpu or cuda; unset or empty: the default), read at each call so that
    workers started in subprocesses follow the campaign's choice.

    The default is the GPU when the kernels run compiled on one: there the
    host's cores are busy compiling kernels, and the oracle's float64 products
    and bounds are a large share of each case's time.  On the interpreter the
    kernels' inputs are on the CPU, and so is the oracle.  "cuda" is the
    current CUDA device, the one ``bind_worker_gpu`` gave this worker.
    """
    import torch

    choice = os.environ.get(ORACLE_DEVICE_VARIABLE, "")
    if not choice:
        return "cuda" if not interpreting() and torch.cuda.is_available() else "cpu"
    if choice not in ORACLE_DEVICES:
        raise ValueError(f"{ORACLE_DEVICE_VARIABLE} must be one of {', '.join(ORACLE_DEVICES)}, "
                         f"got {choice!r}")
    if choice == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"{ORACLE_DEVICE_VARIABLE}=cuda, but torch sees no CUDA device "
                         f"(choices: {', '.join(ORACLE_DEVICES)}; cpu needs none)")
    return choice


def supports_bf16() -> bool:
    """bf16 arithmetic is wrong in Triton's interpreter (raw uint16 storage)."""
    return not interpreting()


def supports_tf32() -> bool:
    """The interpreter ignores input_precision: its dots are always full fp32."""
    return not interpreting()


def describe() -> str:
    import numpy
    import torch
    import triton

    if interpreting():
        where = "Triton interpreter (CPU)"
    else:
        where = f"GPU {torch.cuda.get_device_name()}" if torch.cuda.is_available() else "GPU?"
    import hypothesis

    return (
        f"backend: {where}; torch {torch.__version__}, triton {triton.__version__}, "
        f"numpy {numpy.__version__}, hypothesis {hypothesis.__version__}"
    )


def versions() -> dict[str, str]:
    import hypothesis
    import numpy
    import torch
    import triton

    out = {
        "torch": torch.__version__,
        "triton": triton.__version__,
        "numpy": numpy.__version__,
        "hypothesis": hypothesis.__version__,
        "backend": "interpreter" if interpreting() else "gpu",
    }
    if not interpreting() and torch.cuda.is_available():
        out["gpu"] = torch.cuda.get_device_name()
    return out
