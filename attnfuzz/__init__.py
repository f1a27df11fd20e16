"""attnfuzz: differential testing and fuzzing of attention kernels.

The public face.  Importing it chooses the backend (``ATTNFUZZ_BACKEND``,
else the GPU when CUDA is available, else Triton's interpreter); kernels,
strategies, checks and implementations are imported on first use:

    import attnfuzz
    out = attnfuzz.flash_attention(q, k, v, causal=True)

Subpackages: ``attnfuzz.kernels`` (Triton kernels), ``attnfuzz.reference``
(the float64 oracle and error bounds), ``attnfuzz.properties`` (case model,
strategies, checks, the harness and the ``attnfuzz`` command).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

__version__ = "0.2.0"

# In a source checkout the subpackages are the repository's top-level folders
# (kernels/, reference/, properties/) beside this one; an installed wheel has
# them inside this package.
_HERE = Path(__file__).resolve().parent
if not (_HERE / "kernels").is_dir() and (_HERE.parent / "kernels" / "__init__.py").is_file():
    __path__.append(str(_HERE.parent))  # noqa: F821 - a package's own __path__

from attnfuzz.properties import backend as _backend  # noqa: E402 - after __path__ is set

if "TRITON_INTERPRET" not in os.environ and _backend.requested() in _backend.BACKENDS:
    # Kernels (ours and a user's) read TRITON_INTERPRET when they are
    # decorated: choose the backend now (GPU if CUDA is available, else the
    # interpreter); ``configure`` may still change it until kernels are imported.
    # A bad ATTNFUZZ_BACKEND is left for ``configure`` to report where it is called.
    _backend.configure()
elif _backend.interpreting():
    _backend.stand_ins()  # what ``configure`` installs on the interpreter

# Where each public name lives: the one place it is spelled for this face.
_PUBLIC = {
    "matmul": "attnfuzz.kernels",
    "matmul_nt": "attnfuzz.kernels",
    "softmax": "attnfuzz.kernels",
    "naive_attention": "attnfuzz.kernels",
    "flash_attention": "attnfuzz.kernels",
    "flash_prefill": "attnfuzz.kernels",
    "flash_decode": "attnfuzz.kernels",
    "flash_hopper": "attnfuzz.kernels",
    "flash_attention_varlen": "attnfuzz.kernels",
    "flash_attention_paged": "attnfuzz.kernels",
    "plan_paged": "attnfuzz.kernels",
    "plan_varlen": "attnfuzz.kernels",
    "attention_cases": "attnfuzz.properties.strategies",
    "matmul_cases": "attnfuzz.properties.strategies",
    "softmax_cases": "attnfuzz.properties.strategies",
    "layouts": "attnfuzz.properties.strategies",
    "values": "attnfuzz.properties.strategies",
    "AttentionCase": "attnfuzz.properties.model.cases",
    "MatmulCase": "attnfuzz.properties.model.cases",
    "SoftmaxCase": "attnfuzz.properties.model.cases",
    "Layout": "attnfuzz.properties.model.layouts",
    "Values": "attnfuzz.properties.model.values",
    "PROPERTIES": "attnfuzz.properties.checks",
    "Property": "attnfuzz.properties.checks",
    "check": "attnfuzz.properties.run.harness",
    "replay": "attnfuzz.properties.run.harness",
    "fuzz_test": "attnfuzz.properties.run.plugin",
    "Support": "attnfuzz.properties.implementations.support",
    "Implementation": "attnfuzz.properties.implementations",
    "register": "attnfuzz.properties.implementations",
    "Verdict": "attnfuzz.reference",
    "configure": "attnfuzz.properties.backend",
}
__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str) -> object:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'attnfuzz' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
