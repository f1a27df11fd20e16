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
# Their validation: metadata that does not describe the tensors is refused (a
# refusal costs the drawing alone, so it runs first).
BAD_METADATA = (("bad_metadata", "flash", "float32"),)
# And an out= sharing an input's last element is refused (or answered right).
BAD_SERVING_OUT = (("bad_serving_out", "flash", "float32"),)
# Launch caches, plans and tuning keep state between calls: sequences of calls
# see what one call cannot (tried last: only survivors pay for them).  In
# float16 too: its dtype neighbour is bfloat16, of the same element size.
STATEFUL = (("stateful", "flash", "float32"), ("stateful", "decode", "float32"),
            ("stateful", "flash", "float16"), ("stateful", "decode", "float16"))
# The Hopper kernel: only on an sm_90 GPU (elsewhere its mutants are not run).
HOPPER = (("oracle", "hopper", "float16"), ("oracle", "hopper", "bfloat16"),
          ("metamorphic", "hopper", "float16"), ("stateful", "hopper", "float16"))
# Its backward's two kernels: the gradients of the Hopper calls.
HOPPER_BACKWARD = (("gradients", "hopper", "float16"), ("gradients", "hopper", "bfloat16"),
                   ("stateful", "hopper", "float16"))
# Input validation: an out= that overlaps an input or itself must be refused;
# so must inputs of two dtypes that a kernel would compute at the odd one's.
BAD_OUT = (("bad_out", "softmax", "float32"), ("bad_out", "flash", "float32"))
MIXED = (("mixed_dtypes", "naive", "float32"), ("mixed_dtypes", "flash", "float32"))
# Integer options (split counts, program caps) one below their least value.
BAD_OPTIONS = (("bad_options", "decode", "float32"),)

# Which properties reach the code of each file of ``kernels/``: the default
# targets of a mutant that names none (the rule-generated ones, a ``--from``
# JSON's).  A file's entry calls every entry point that runs its code, the
# forward (prefill and decode), the backward (gradients), the serving entries
# (varlen and paged) and the stateful sequences, cheapest first: a mutant
# stops at its first kill, so only survivors pay for the long tail.  Sliding
# windows need no entry of their own: the oracle and gradients properties of
# the fused kernels draw them in a quarter of their cases.
_GRAD_NAIVE = (("gradients", "naive", "float32"),)


def _refusals(impl: str) -> tuple[tuple[str, str, str], ...]:
    # A matmul file's own wrapper checks its shapes and its out=.
    return (("bad_shapes", impl, "float32"), ("bad_out", impl, "float32"))


_GRAD_FLASH = (("gradients", "flash", "float32"), ("gradients", "decode", "float32"))
FILE_TARGETS: dict[str, tuple[tuple[str, str, str], ...]] = {
    # The three-kernel attention's forward and backward run both matmuls.
    "tiled_matmul.py": (*MATMUL, *_GRAD_NAIVE, *_refusals("matmul")),
    "nt_matmul.py": (*MATMUL, *_GRAD_NAIVE, *_refusals("matmul_nt")),
    # The softmax's backward kernel runs only inside the three-kernel backward.
    "row_softmax.py": (*SOFTMAX, *NAIVE_BACKWARD, ("softmax_gradients", "softmax", "float32"),
                       ("softmax_gradients", "softmax", "float16")),
    "three_kernel_attention.py": (*NAIVE, *NAIVE_BACKWARD),
    # flash.py holds the entry points (the autograd function, the decode and
    # serving path choice) and the prefill kernel.
    "flash.py": (*FLASH, *DECODE, *BAD_OPTIONS, *FLASH_BACKWARD, SERVING[0], *STATEFUL),
    "_row_tile.py": (*FLASH, *DECODE, *SERVING, *STATEFUL),
    # Its paged path runs only under the serving property: before the slow
    # metamorphic relations.
    "split_decode.py": (*DECODE[:2], FLASH[0], SERVING[0], DECODE[2], SERVING[1],
                        *BAD_OPTIONS, *_GRAD_FLASH, *STATEFUL),
    "_tiles.py": (*FLASH[:2], *DECODE[:2], *FLASH_BACKWARD, *SERVING, *STATEFUL),
    "_tuning.py": (*FLASH, *DECODE[:2], *SERVING, *STATEFUL),
    "flash_backward.py": FLASH_BACKWARD,
    "serving.py": (*BAD_METADATA, *SERVING, *BAD_SERVING_OUT),
    "_checks.py": (*ALL_ATTENTION, *BAD_OUT, *MIXED, *_GRAD_NAIVE, *_GRAD_FLASH, SERVING[0],
                   ("oracle", "matmul", "float32"), ("bad_shapes", "naive", "float32"),
                   ("bad_shapes", "matmul", "float32")),
    # The backward's TMA path takes 16-bit inputs alone.
    "_launch.py": (*ALL_ATTENTION, *_GRAD_NAIVE, *_GRAD_FLASH,
                   ("gradient_relations", "flash", "float16"), SERVING[0], *STATEFUL),
    "hopper_prefill.py": (*HOPPER, ("bad_options", "hopper", "float16")),
    "hopper_backward.py": HOPPER_BACKWARD,
}
# A file missing from the table (a kernel file added later) is still run, on
# every entry point at once, rather than skipped.
EVERY_ENTRY = tuple(dict.fromkeys(t for ts in FILE_TARGETS.values() for t in ts))


def targets_of(file: str) -> tuple[tuple[str, str, str], ...]:
    """The properties that reach the code of ``file`` (a name under ``kernels/``)."""
    return FILE_TARGETS.get(file, EVERY_ENTRY)


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
