"""The float64 oracle, its per-element error bounds, and the comparison."""

from attnfuzz.reference.bounds import attention_bounds, matmul_bound, softmax_bound
from attnfuzz.reference.oracle import attention, attention_parts, matmul, softmax, visible
from attnfuzz.reference.verdict import Verdict, compare

__all__ = [
    "Verdict",
    "attention",
    "attention_bounds",
    "attention_parts",
    "compare",
    "matmul",
    "matmul_bound",
    "softmax",
    "softmax_bound",
    "visible",
]
