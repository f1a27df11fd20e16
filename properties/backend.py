"""Which backend runs the kernels: Triton's CPU interpreter or a CUDA GPU.

``configure()`` must run before ``kernels`` is imported, because
``@triton.jit`` reads ``TRITON_INTERPRET`` when the decorator runs.
``ATTNFUZZ_BACKEND=interpreter|gpu`` overrides the automatic choice.
"""

from __future__ import annotations

import os
import sys

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
    return choice


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
