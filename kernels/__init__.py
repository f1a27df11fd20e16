"""Triton attention kernels under test.

``TRITON_INTERPRET=1`` must be set before this package is imported to run the
kernels on the CPU (the root ``conftest.py`` and the ``attnfuzz`` command do).
"""

from kernels.matmul import matmul
from kernels.matmul_nt import matmul_nt
from kernels.naive_attention import naive_attention
from kernels.softmax import softmax

__all__ = ["matmul", "matmul_nt", "naive_attention", "softmax"]
