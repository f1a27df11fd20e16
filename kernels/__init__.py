"""Triton attention kernels: the public functions, one module per kernel family.

Module names differ from the functions they export, so no public name hides
a module.  A helper used by one kernel file lives in that file; one used by
several lives in ``_checks`` (input validation, shapes), ``_launch``
(launching), ``_tiles`` (what the fused forward and backward share),
``_row_tile`` (the fused forward's row tile, which the prefill, decode and
serving kernels run) or ``_tuning`` (the prefill's tile table and autotuning).
Kernel files import only each other (relatively), so a copy of this package
can be loaded under another name (mutation testing does).

``TRITON_INTERPRET=1`` must be set before this package is imported to run the
kernels on the CPU; ``import attnfuzz`` chooses the backend first.
"""

from .flash import flash_attention, flash_decode, flash_hopper, flash_prefill
from .nt_matmul import matmul_nt
from .row_softmax import softmax
from .serving import flash_attention_paged, flash_attention_varlen, plan_paged, plan_varlen
from .three_kernel_attention import naive_attention
from .tiled_matmul import matmul

__all__ = [
    "flash_attention",
    "flash_attention_paged",
    "flash_attention_varlen",
    "flash_decode",
    "flash_hopper",
    "flash_prefill",
    "matmul",
    "matmul_nt",
    "naive_attention",
    "plan_paged",
    "plan_varlen",
    "softmax",
]
