"""Agreement with the float64 oracle, within the bounds ``reference`` derives.

``EXPECTED`` maps each case kind to what the oracle says of it: for every
output an implementation may return, the exact value, its per-element bound
and the dtype it is rounded to.  The oracle works on ``Built.exact``, so on
the oracle's device (``backend.oracle_device``), and so do the comparisons.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

from ...reference import (
    Verdict,
    attention_bounds,
    attention_parts,
    compare,
    matmul,
    matmul_bound,
    softmax,
    softmax_bound,
    visible,
)
from .. import backend
from ..implementations import Implementation
from ..model.cases import (
    AttentionCase,
    Built,
    Case,
    MatmulCase,
    SoftmaxCase,
    build,
)
from .execution import execute

# name -> (exact value, bound, dtype the result is rounded to)
Expected = dict[str, tuple[torch.Tensor, torch.Tensor, torch.dtype]]


def attention_oracle(case: AttentionCase, built: Built) -> tuple[dict, dict]:
    """The oracle's parts (out, probs, lse, visible, ...) and their bounds."""
    q, k, v = (built.exact[r] for r in ("q", "k", "v"))
    scale = case.effective_scale
    parts = attention_parts(q, k, v, causal=case.causal, scale=scale, alignment=case.alignment,
                            window=case.window)
    bounds = attention_bounds(q, k, v, parts, scale=scale, input_precision=case.input_precision,
                              dtype=case.torch_dtype)
    return parts, bounds


def softmax_visible(case: SoftmaxCase, device: torch.device | str = "cpu") -> torch.Tensor:
    m, n = case.shape[-2:]
    seen = visible(m, n, case.alignment, causal=case.causal, window=case.window, device=device)
    return seen.expand(case.shape)


def softmax_expected(case: SoftmaxCase, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """softmax(x) for the case's scale and mask, and its bound."""
    want = softmax(x, scale=case.scale, causal=case.causal, alignment=case.alignment,
                   window=case.window)
    bound = softmax_bound(x, want, softmax_visible(case, x.device), scale=case.scale,
                          out_dtype=case.torch_dtype)
    return want, bound


def _attention(case: AttentionCase, built: Built) -> Expected:
    parts, bounds = attention_oracle(case, built)
    # probs and lse are fp32 whatever the inputs' dtype.
    kinds = {"out": case.torch_dtype, "probs": torch.float32, "lse": torch.float32}
    return {name: (parts[name], bounds[name], kind) for name, kind in kinds.items()}


def _matmul(case: MatmulCase, built: Built) -> Expected:
    a, b = built.exact["a"], built.exact["b"]
    if case.transpose_b:
        b = b.transpose(-1, -2)
    want = matmul(a, b, scale=case.scale)
    bound = matmul_bound(a, b, want, scale=case.scale, out_dtype=case.torch_dtype,
                         input_precision=case.input_precision)
    return {"out": (want, bound, case.torch_dtype)}


def _softmax(case: SoftmaxCase, built: Built) -> Expected:
    want, bound = softmax_expected(case, built.exact["x"])
    return {"out": (want, bound, case.torch_dtype)}


EXPECTED: dict[str, Callable[..., Expected]] = {
    AttentionCase.kind: _attention,
    MatmulCase.kind: _matmul,
    SoftmaxCase.kind: _softmax,
}


def against_oracle(impl: Implementation, case: Case, built: Built | None = None) -> list[Verdict]:
    """Every output the implementation returns (out, probs, lse) within its bound."""
    built = built or build(case, backend.device())
    run = execute(impl, case, built)
    expected = EXPECTED[case.kind](case, built)
    verdicts = list(run.safety)
    for name, got in run.results.items():
        if name in expected:
            want, bound, dtype = expected[name]
            verdicts.append(compare(name, got, want, bound, dtype=dtype))
    asked = dict(case.options).get("return_lse", True)
    if impl.op == "attention" and impl.support.lse and asked and "lse" not in run.results:
        nan = math.nan
        # A function that returns the LSE only when asked for it is declared
        # lse=no: the harness's conventions never ask.
        verdicts.append(Verdict("lse declared (lse=yes) but the call returned out alone, "
                                "not (out, lse)", math.inf, nan, nan, (), nan, nan))
    return verdicts
