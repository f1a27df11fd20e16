"""The ``Mutant`` record and the target lists the catalogues share (plain data).

A mutant is one source edit to a file of ``kernels/`` that plants a bug of a
known real-world class; its targets are the (property, implementation,
dtype) triples tried in order until one kills it.
"""

from __future__ import annotations

from dataclasses import dataclass

# (property, implementation, dtype), tried in order until one kills the mutant.
MATMUL = (("oracle", "matmul", "float32"), ("oracle", "matmul_nt", "float32"),
          ("oracle", "naive", "float32"), ("oracle", "matmul", "float16"))
SOFTMAX = (("oracle", "softmax", "float32"), ("softmax_invariants", "softmax", "float32"),
           ("oracle", "naive", "float32"), ("oracle", "softmax", "float16"))
NAIVE = (("oracle", "naive", "float32"), ("oracle", "naive", "float16"),
         ("metamorphic", "naive", "float32"))
FLASH = (("oracle", "flash", "float32"), ("oracle", "flash", "float16"),
         ("metamorphic", "flash", "float32"))
DECODE = (("oracle", "decode", "float32"), ("oracle", "decode", "float16"),
          ("metamorphic", "decode", "float32"))
ALL_ATTENTION = (*NAIVE[:1], *FLASH[:1], *DECODE[:1], ("oracle", "softmax", "float32"))
# Backward kernels: the gradients against the oracle, then the relations (GQA
# as repeated heads, layouts of dO, reruns).
NAIVE_BACKWARD = (("gradients", "naive", "float32"), ("gradients", "naive", "float16"),
                  ("gradient_relations", "naive", "float32"))
FLASH_BACKWARD = (("gradients", "flash", "float32"), ("gradients", "flash", "float16"),
                  ("gradient_relations", "flash", "float32"), ("gradients", "decode", "float32"))
# Sliding windows: drawn in a quarter of the cases of the implementations
# that declare them.
WINDOWS = (("oracle", "flash", "float32"), ("oracle", "decode", "float32"),
           ("gradients", "flash", "float32"), ("oracle", "flash", "float16"))
SOFTMAX_WINDOWS = (("oracle", "softmax", "float32"), ("oracle", "naive", "float32"),
                   ("gradients", "naive", "float32"))
# Serving kernels: checked on the fused kernels' cases, packed and paged.
SERVING = (("serving", "flash", "float32"), ("serving", "flash", "float16"))
# Launch caches, plans and tuning keep state between calls: sequences of calls
# see what one call cannot (tried last: only survivors pay for them).  In
# float16 too: its dtype neighbour is bfloat16, of the same element size.
STATEFUL = (("stateful", "flash", "float32"), ("stateful", "decode", "float32"),
            ("stateful", "flash", "float16"), ("stateful", "decode", "float16"))
# The Hopper kernel: only on an sm_90 GPU (elsewhere its mutants are not run).
HOPPER = (("oracle", "hopper", "float16"), ("oracle", "hopper", "bfloat16"),
          ("metamorphic", "hopper", "float16"), ("stateful", "hopper", "float16"))
# Input validation: an out= that overlaps an input or itself must be refused.
BAD_OUT = (("bad_out", "softmax", "float32"), ("bad_out", "flash", "float32"))


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str  # under kernels/
    edits: tuple[tuple[str, str], ...]  # (old, new); each old must occur exactly once
    mimics: str
    targets: tuple[tuple[str, str, str], ...]
    equivalent: str | None = None  # why no input can tell it apart, if so


def mutant(
    name: str,
    file: str,
    edits: tuple[str, str] | tuple[tuple[str, str], ...],
    mimics: str,
    targets: tuple[tuple[str, str, str], ...],
    equivalent: str | None = None,
) -> Mutant:
    """A Mutant; ``edits`` may be one (old, new) pair."""
    if isinstance(edits[0], str):
        edits = (edits,)
    return Mutant(name, file, tuple(edits), mimics, targets, equivalent)
