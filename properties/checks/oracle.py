"""Agreement with the float64 oracle, within the bounds ``reference`` derives.

``EXPECTED`` maps each case kind to what the oracle says of it: for every
output an implementation may return, the exact value, its per-element bound
and the dtype it is rounded to.  The oracle works on ``Built.exact``, so on
the oracle's device (``backend.oracle_device``), and so do the comparisons.
"""

from __future__ import annotations

import dataclasses
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
from ..implementations import Implementation, Support
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


def attention_oracle(case: AttentionCase, built: Built, logits_dtype: str = "fp32"
                     ) -> tuple[dict, dict]:
    """The oracle's parts (out, probs, lse, visible, ...) and their bounds, for
    an implementation whose logits take ``logits_dtype`` (``Support.logits``)."""
    q, k, v = (built.exact[r] for r in ("q", "k", "v"))
    scale = case.effective_scale
    parts = attention_parts(q, k, v, causal=case.causal, scale=scale, alignment=case.alignment,
                            window=case.window)
    bounds = attention_bounds(q, k, v, parts, scale=scale, input_precision=case.input_precision,
                              dtype=case.torch_dtype, logits_dtype=logits_dtype)
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


def _attention(case: AttentionCase, built: Built, logits_dtype: str = "fp32") -> Expected:
    parts, bounds = attention_oracle(case, built, logits_dtype)
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


def expected(case: Case, built: Built, support: Support) -> Expected:
    """``EXPECTED`` for the case, for an implementation with that support:
    an attention's bounds follow the dtype it says its logits take."""
    if case.kind == AttentionCase.kind:
        return _attention(case, built, support.logits)
    return EXPECTED[case.kind](case, built)


ROUNDED_LOGITS_NOTE = ("within the bound for logits rounded to {dtype}: if the implementation "
                       "rounds its logits, as eager attention's q @ k^T in {dtype} does, say "
                       "so with --supports logits=rounded; if it keeps them in float32, the "
                       "error is its own (that setting would loosen its bounds)")


def _said_how_if_rounded_logits(impl: Implementation, case: Case, built: Built,
                                results: dict[str, torch.Tensor],
                                verdicts: list[Verdict]) -> list[Verdict]:
    """``verdicts``, the failing ones noted where every wrong answer is within
    the bounds of logits rounded to the inputs' 16-bit dtype, which the
    implementation did not say (``Support.logits``): its findings say how to."""
    wrong = [v for v in verdicts if not v.ok]
    if (not wrong or case.kind != AttentionCase.kind or impl.support.logits == "rounded"
            or case.torch_dtype == torch.float32
            or any(v.kind != "wrong" or v.check not in results for v in wrong)):
        return verdicts
    rounded = _attention(case, built, "rounded")
    if not all(compare(v.check, results[v.check], *rounded[v.check][:2],
                       dtype=rounded[v.check][2]).ok for v in wrong):
        return verdicts
    note = ROUNDED_LOGITS_NOTE.format(dtype=case.dtype)
    return [v if v.ok else dataclasses.replace(v, note=note) for v in verdicts]


def against_oracle(impl: Implementation, case: Case, built: Built | None = None) -> list[Verdict]:
    """Every output the implementation returns (out, probs, lse) within its bound."""
    built = built or build(case, backend.device())
    run = execute(impl, case, built)
    oracle = expected(case, built, impl.support)
    verdicts = list(run.safety)
    for name, got in run.results.items():
        if name in oracle:
            want, bound, dtype = oracle[name]
            verdicts.append(compare(name, got, want, bound, dtype=dtype))
    verdicts = _said_how_if_rounded_logits(impl, case, built, run.results, verdicts)
    asked = dict(case.options).get("return_lse", True)
    if impl.op == "attention" and impl.support.lse and asked and "lse" not in run.results:
        nan = math.nan
        # A function that returns the LSE only when asked for it is declared
        # lse=no: the harness's conventions never ask.
        verdicts.append(Verdict("lse declared (lse=yes) but the call returned out alone, "
                                "not (out, lse)", math.inf, nan, nan, (), nan, nan))
    return verdicts
