"""A planted out-of-bounds load, to show that compute-sanitizer's memcheck sees one.

The harness's NaN buffers catch reads that stay inside an input's buffer;
memcheck catches accesses that leave every live allocation, which the
interpreter never reports.  ``.ci/memcheck`` runs a fuzz sample of every
kernel under memcheck (expecting no error) and then this module, which
launches the matmul kernel with its K-tail mask removed
(``matmul.k_tail_unmasked`` from the mutant catalogue, loaded as a package of
its own beside the real kernels) on tensors allocated to
their exact size, so the unmasked tail reads past the end of ``a`` and ``b``.
Memcheck must report it; the run is only trusted if it does.

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck \\
        python3 -m attnfuzz.properties.mutation.memcheck

PyTorch's caching allocator must be off: it carves tensors out of larger
blocks, so a read past one tensor's end lands in memory memcheck sees as live.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

MUTANT = "matmul.k_tail_unmasked"


def main() -> int:
    if os.environ.get("PYTORCH_NO_CUDA_MEMORY_CACHING") != "1":
        print("set PYTORCH_NO_CUDA_MEMORY_CACHING=1: cached blocks hide reads past a tensor")
        return 2
    from .. import backend
    from . import runner

    backend.configure(os.environ.get("ATTNFUZZ_BACKEND", "gpu"))
    import torch

    with tempfile.TemporaryDirectory(prefix="attnfuzz-oob-") as tmp:
        pkg = runner.apply(runner.catalogue([MUTANT])[0], Path(tmp))
        # The kernels import each other relatively, so the copy loads under a name of its own.
        name = "attnfuzz_mutant_kernels"
        spec = importlib.util.spec_from_file_location(
            name, pkg / "__init__.py", submodule_search_locations=[str(pkg)]
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        mm = sys.modules[f"{name}.tiled_matmul"]
        if not Path(mm.__file__).resolve().is_relative_to(Path(tmp).resolve()):
            raise RuntimeError(f"imported {mm.__file__}, not the mutant under {tmp}")
        block_k = mm._blocks()[2]
        # K = 40 is not a multiple of the K block, so the last K step runs past
        # the end of each row of a and past the last row of b.
        gen = torch.Generator(device=backend.device()).manual_seed(0)
        a = torch.randn(1, 1, 16, 40, device=backend.device(), generator=gen)
        b = torch.randn(1, 1, 40, 16, device=backend.device(), generator=gen)
        out = mm.matmul(a, b)
        if not backend.interpreting():
            torch.cuda.synchronize()
    print(f"ran {MUTANT} (K = 40, BLOCK_K = {block_k}); max |out| = {out.abs().max().item():.3g}")
    print("memcheck should have reported invalid __global__ reads above")
    return 0


if __name__ == "__main__":
    sys.exit(main())
