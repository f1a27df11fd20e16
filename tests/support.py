"""Helpers shared by the test modules."""

from __future__ import annotations

import pytest
import torch

from attnfuzz.properties import backend
from attnfuzz.properties.run import plugin
from attnfuzz.reference import attention_bounds, attention_parts, compare
from attnfuzz.reference.gradient_bounds import attention_grad_bounds
from attnfuzz.reference.gradients import attention_grads

BF16_REASON = (
    "KNOWN BACKEND LIMITATION: Triton's interpreter stores bf16 as raw uint16, so bf16 "
    "tl.dot/add/sum are wrong there; bf16 is tested on the GPU "
    "(see tests/test_interpreter_limits.py)"
)


# bf16 is skipped by a mark, before Hypothesis runs (a skip raised inside an
# explicit @example would be reported as a failing example first).
DTYPES = tuple(
    pytest.param(
        d,
        marks=pytest.mark.skipif(
            d == "bfloat16" and not backend.supports_bf16(), reason=BF16_REASON
        ),
    )
    for d in ("float32", "float16", "bfloat16")
)


def require_dtype(dtype: str) -> None:
    """Skip, visibly, dtypes the current backend cannot compute."""
    if dtype == "bfloat16" and not backend.supports_bf16():
        pytest.skip(BF16_REASON)


# A pytest started outside the checkout finds the plugin only through its entry
# point, which a checkout on PYTHONPATH (``.ci/gpu``) does not have; CI installs it.
needs_installed_plugin = pytest.mark.skipif(
    not plugin.installed(), reason="attnfuzz is not installed: no entry point loads the plugin"
)


def assert_gradients_within_bounds(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                                   do: torch.Tensor, got: tuple[torch.Tensor, ...],
                                   **call: object) -> None:
    """``got`` (dq, dk, dv) against the float64 oracle's gradients of the call
    (``causal``, ``scale``, ``alignment``), within the bounds of the arithmetic."""
    exact = attention_grads(q, k, v, do, **call)
    forward = attention_bounds(q, k, v, attention_parts(q, k, v, **call), scale=call["scale"])
    bounds = attention_grad_bounds(q, k, v, do, exact, forward, scale=call["scale"])
    for name, g in zip(("dq", "dk", "dv"), got, strict=True):
        verdict = compare(name, g, exact[name], bounds[name], dtype=q.dtype)
        assert verdict.ok, verdict.describe()
