"""Why compiled kernels cannot run here, for the GPU benchmarks' first check."""

from __future__ import annotations

import os


def missing_gpu(what: str = "this benchmark") -> str | None:
    """A sentence saying why ``what`` cannot run on this machine, or None."""
    if os.environ.get("TRITON_INTERPRET", "0") == "1":
        return f"TRITON_INTERPRET=1 is set: {what} needs compiled kernels on a GPU"
    import torch

    if not torch.cuda.is_available():
        return f"no CUDA device: {what} needs a GPU"
    return None
