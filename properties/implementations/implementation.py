"""The ``Implementation`` record: one callable adapted to the harness's calling convention.

- attention: ``run(q, k, v, out, *, causal, scale, alignment, input_precision)``
  returns ``{"out": ..., "probs"?: ..., "lse"?: ...}``, where ``out`` is a
  poisoned, possibly strided tensor the implementation must fill (or
  ``None`` if it cannot write into a given tensor);
- matmul / matmul_nt: ``run(a, b, out, *, scale, input_precision) -> {"out": ...}``;
- softmax: ``run(x, out, *, scale, causal, alignment) -> {"out": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch

OPS = ("attention", "matmul", "matmul_nt", "softmax")
DTYPES = ("float32", "float16", "bfloat16")
ALIGNMENTS = ("bottom_right", "top_left")


@dataclass(frozen=True)
class Implementation:
    name: str
    op: str
    run: Callable[..., dict[str, torch.Tensor]]
    writes_out: bool = True  # fills a caller-provided out tensor
    description: str = ""
    dtypes: tuple[str, ...] = DTYPES
    decode: bool = False  # draws decode-shaped cases (a few queries over many keys)
    campaign: bool = False  # fuzzed by a plain ``attnfuzz run``
    alignments: tuple[str, ...] = ALIGNMENTS  # causal alignments it computes

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"op must be one of {', '.join(OPS)}, got {self.op!r}")
        unknown = [d for d in self.dtypes if d not in DTYPES]
        if unknown:
            raise ValueError(f"dtypes must be among {', '.join(DTYPES)}, got {unknown}")
        if not self.alignments or any(a not in ALIGNMENTS for a in self.alignments):
            raise ValueError(f"alignments must be among {', '.join(ALIGNMENTS)}, "
                             f"got {self.alignments}")
