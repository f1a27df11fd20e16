"""attnfuzz's own kernels as implementations under test.

Kernels are imported when an adapter first runs, so the backend can be chosen first.
"""

from __future__ import annotations

from attnfuzz.properties.implementations.implementation import Implementation


def _naive(q, k, v, out, **kw):
    from attnfuzz.kernels import naive_attention

    o, p = naive_attention(q, k, v, return_probs=True, out=out, **kw)
    return {"out": o, "probs": p}


def _flash(q, k, v, out, **kw):
    from attnfuzz.kernels import flash_attention

    o, lse = flash_attention(q, k, v, return_lse=True, out=out, **kw)
    return {"out": o, "lse": lse}


# flash_decode's own plan gives the small keys of fuzzed cases one range on a
# GPU (it wants >= 256 keys a range), which would leave the split-K merge
# untested there: found when a mutant that double-counts keys across ranges
# survived 120 H200 examples.  Four ranges make every case with more than one
# key block split, on every backend (the interpreter's plan already did).
DECODE_SPLITS = 4


def _decode(q, k, v, out, **kw):
    from attnfuzz.kernels import flash_decode

    kw.setdefault("num_splits", DECODE_SPLITS)
    o, lse = flash_decode(q, k, v, return_lse=True, out=out, **kw)
    return {"out": o, "lse": lse}


def _matmul(a, b, out, **kw):
    from attnfuzz.kernels import matmul

    return {"out": matmul(a, b, out=out, **kw)}


def _matmul_nt(a, b, out, **kw):
    from attnfuzz.kernels import matmul_nt

    return {"out": matmul_nt(a, b, out=out, **kw)}


def _softmax(x, out, **kw):
    from attnfuzz.kernels import softmax

    return {"out": softmax(x, out=out, **kw)}


IMPLEMENTATIONS = (
    Implementation("naive", "attention", _naive, description="three-kernel attention",
                   campaign=True, bitwise_layouts=True),
    Implementation("flash", "attention", _flash, description="fused FlashAttention forward",
                   campaign=True, bitwise_layouts=True),
    Implementation("decode", "attention", _decode, description="split-K decode, 4 key ranges",
                   decode=True, campaign=True, bitwise_layouts=True),
    Implementation("matmul", "matmul", _matmul, description="tiled matmul", campaign=True,
                   bitwise_layouts=True),
    Implementation("matmul_nt", "matmul_nt", _matmul_nt, description="transpose-free a@b.T",
                   campaign=True, bitwise_layouts=True),
    Implementation("softmax", "softmax", _softmax, description="row softmax", campaign=True,
                   bitwise_layouts=True),
)
