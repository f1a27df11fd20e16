"""The ``Implementation`` record: one callable adapted to the harness's calling convention.

- attention: ``run(q, k, v, out, *, causal, scale, alignment, input_precision)``
  returns ``{"out": ..., "probs"?: ..., "lse"?: ...}``, where ``out`` is a
  poisoned, possibly strided tensor the implementation must fill (or
  ``None`` if it cannot write into a given tensor);
- matmul / matmul_nt: ``run(a, b, out, *, scale, input_precision) -> {"out": ...}``;
- softmax: ``run(x, out, *, scale, causal, alignment) -> {"out": ...}``.

What it supports (dtypes, head dims, masks, layouts, sizes, magnitudes) is
its ``support`` (see ``support``); ``expressible`` are the causal alignments
its calling convention can ask for at all, so a declared limit is only
tested for refusal where the convention could pass it.  ``options`` are the
optional arguments a case draws (``out`` given or not, the LSE asked for or
not, a split count), so the calls users make most are fuzzed too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from .support import ALIGNMENTS, DTYPES, Support

OPS = ("attention", "matmul", "matmul_nt", "softmax")


# The fields of an ``Implementation`` that hold serving entry points.
SERVING_CALLS = ("varlen", "paged", "paged_varlen")


@dataclass(frozen=True)
class Implementation:
    name: str
    op: str
    run: Callable[..., dict[str, torch.Tensor]]
    writes_out: bool = True  # fills a caller-provided out tensor
    description: str = ""
    decode: bool = False  # draws decode-shaped cases (a few queries over many keys)
    campaign: bool = False  # fuzzed by a plain ``attnfuzz run``
    support: Support = field(default_factory=Support)
    expressible: tuple[str, ...] = ALIGNMENTS  # causal alignments its convention can ask for
    # Its queries are the last Sq keys' tokens (a paged cache's new tokens),
    # so its convention can ask only for 1 <= Sq <= Sk.
    new_tokens: bool = False
    # The same bits whatever the inputs' layouts.  attnfuzz's kernels promise
    # it; a library may pick another GEMM for another stride (cuBLAS does), so
    # relations that change a layout hold others to their bounds instead.
    bitwise_layouts: bool = False
    # Serving entry points that the ``serving`` property packs this one's cases
    # through (``SERVING_CALLS``): ``varlen`` called as
    # ``flash_attention_varlen`` is, ``paged`` as ``flash_attention_paged`` is,
    # ``paged_varlen`` with packed queries over a paged cache, each returning
    # (out, lse or None).  With ``serving_bits`` each sequence must also be, bit
    # for bit, what ``flash_prefill`` gives it alone (attnfuzz's kernels share
    # a row tile).
    varlen: Callable[..., tuple] | None = None
    paged: Callable[..., tuple] | None = None
    paged_varlen: Callable[..., tuple] | None = None
    serving_bits: bool = False
    # Its serving calls take ``out=`` (any strides, written and returned) and
    # ``return_lse`` as ``flash_attention_varlen``'s do: the ``serving``
    # property then passes both as its case draws them.
    serving_out: bool = False
    # Optional arguments drawn both ways: (name, choices), the default first
    # (the one shrinking goes to).  "out" chooses whether the harness passes
    # its own output tensor; the others are passed to ``run`` by name.
    options: tuple[tuple[str, tuple], ...] = ()
    # Forgets the state the implementation keeps between calls (caches,
    # counters), so that each sequence of the stateful property starts as a
    # fresh process does; None: it keeps none that can be reset.
    reset: Callable[[], None] | None = None
    # Why it cannot run on this backend, in words (None: it can), asked
    # before any case is drawn: a kernel for one GPU generation, say.
    unavailable: Callable[[], str | None] | None = None
    # The calling convention it was adapted from (``conventions``): how the
    # tensors the harness holds in (B, H, S, D) are laid out where the user's
    # function takes and returns them, for messages in the user's own terms.
    convention: str = "attnfuzz"

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"op must be one of {', '.join(OPS)}, got {self.op!r}")
        if not isinstance(self.support, Support):
            raise TypeError(f"support must be a Support, got {type(self.support).__name__}")

    def serving_calls(self) -> dict[str, Callable[..., tuple]]:
        """Its serving entry points, by field name (none: no ``serving`` property)."""
        return {n: getattr(self, n) for n in SERVING_CALLS if getattr(self, n) is not None}

    def cannot_run(self) -> str | None:
        """Why it cannot run on this backend (``unavailable``), or None."""
        return None if self.unavailable is None else self.unavailable()

    @property
    def dtypes(self) -> tuple[str, ...]:
        return self.support.dtypes

    @property
    def alignments(self) -> tuple[str, ...]:
        """Causal alignments drawn: those declared that the convention can express."""
        return tuple(a for a in self.support.alignments if a in self.expressible)


class ImplementationCrash(Exception):
    """An implementation under test raised instead of returning."""

    def __init__(self, implementation: str, error: BaseException) -> None:
        self.implementation, self.error = implementation, error
        lines = str(error).strip().splitlines()
        first = f"{type(error).__name__}: {lines[0][:300]}" if lines else type(error).__name__
        super().__init__(f"{implementation} crashed: {first}")


class ContractViolation(AssertionError):
    """A result that breaks the call's contract: not a tensor, or of the wrong
    shape, dtype or device, not the ``out`` it was given, or not differentiable.
    A finding (kind ``contract``) of the implementation, not a crash of it: an
    ``AssertionError``, so Hypothesis shrinks it.  The message is in the user's
    own layout (the convention's) and attnfuzz's."""

    def __init__(self, message: str, implementation: str, result: str, what: str) -> None:
        super().__init__(message)
        self.implementation = implementation
        self.result = result  # out, lse, dq...
        self.what = what  # shape, dtype, device, type, identity, grad

    @property
    def check(self) -> str:
        """The verdict's name for it: ``contract: out shape``."""
        return f"contract: {self.result} {self.what}"


def short_name(name: str) -> str:
    """An implementation's name without its declared support spec and, for a
    file's function, without the file's folder: what stays the same wherever
    the file is (dump folders are named by it, and target seeds hash it)."""
    return name.partition("#")[0].rsplit("/", 1)[-1]


__all__ = ["ALIGNMENTS", "DTYPES", "OPS", "ContractViolation", "Implementation",
           "ImplementationCrash", "Support", "short_name"]
