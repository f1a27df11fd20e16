"""attnfuzz's own kernels as implementations under test.

Kernels are imported when an adapter first runs, so the backend can be chosen first.
"""

from __future__ import annotations

from .implementation import Implementation, Support


def _results(got, second: str) -> dict:
    return {"out": got[0], second: got[1]} if isinstance(got, tuple) else {"out": got}


def _naive(q, k, v, out, *, return_probs=True, **kw):
    from ...kernels import naive_attention

    return _results(naive_attention(q, k, v, return_probs=return_probs, out=out, **kw), "probs")


def _flash(q, k, v, out, *, return_lse=True, **kw):
    from ...kernels import flash_attention

    return _results(flash_attention(q, k, v, return_lse=return_lse, out=out, **kw), "lse")


# flash_decode's own plan gives the small keys of fuzzed cases one range on a
# GPU (it wants >= 256 keys a range), which would leave the split-K merge
# untested there: found when a mutant that double-counts keys across ranges
# survived 120 H200 examples.  Four ranges make every case with more than one
# key block split, on every backend (the interpreter's plan already did).
DECODE_SPLITS = 4


# The Hopper kernel's persistent grid gives a fuzzed case's few row tiles one
# program each, which would leave a program's second tile (Q's reload, the
# ring carried over, the accumulator reset) untested outside the schedule
# test.  Two programs make every non-causal case of three tiles or more take
# that path, striding as a full grid does; any cap gives the same bits
# (test_gluon_prefill).
HOPPER_PROGRAMS = 2


def _hopper(q, k, v, out, *, return_lse=True, programs=HOPPER_PROGRAMS, **kw):
    from ...kernels import flash_hopper

    got = flash_hopper(q, k, v, return_lse=return_lse, out=out, programs=programs, **kw)
    return _results(got, "lse")


def _hopper_unavailable() -> str | None:
    from ...kernels.hopper_prefill import unavailable

    return unavailable()


def _decode(q, k, v, out, *, return_lse=True, num_splits=DECODE_SPLITS, **kw):
    from ...kernels import flash_decode

    got = flash_decode(q, k, v, return_lse=return_lse, out=out, num_splits=num_splits, **kw)
    return _results(got, "lse")


def _served(got, return_lse: bool) -> tuple:
    return got if return_lse else (got, None)


def _varlen(q, k, v, cu_q, cu_k, planned=False, return_lse=True, **kw):
    from ...kernels import flash_attention_varlen, plan_varlen

    plan = plan_varlen(cu_q, cu_k) if planned else None
    return _served(flash_attention_varlen(q, k, v, cu_q, cu_k, return_lse=return_lse,
                                          plan=plan, **kw), return_lse)


def _paged(q, k_cache, v_cache, table, seqlens, planned=False, return_lse=True, **kw):
    from ...kernels import flash_attention_paged, plan_paged

    plan = plan_paged(table, seqlens, sq=q.shape[2], page_size=k_cache.shape[1],
                      num_pages=k_cache.shape[0]) if planned else None
    return _served(flash_attention_paged(q, k_cache, v_cache, table, seqlens,
                                         return_lse=return_lse, plan=plan, **kw), return_lse)


def _reset_flash() -> None:
    # Compiled launches (every launch cache of the kernels, the Hopper
    # backward's and the TMA ones made per tile shape too) and the decode
    # merge's tile counters; not the autotuner's choices, whose retuning
    # costs seconds per shape.
    from ...kernels import _launch, flash

    _launch.clear_launch_caches()
    flash._COUNTERS.clear()


def _matmul(a, b, out, **kw):
    from ...kernels import matmul

    return {"out": matmul(a, b, out=out, **kw)}


def _matmul_nt(a, b, out, **kw):
    from ...kernels import matmul_nt

    return {"out": matmul_nt(a, b, out=out, **kw)}


def _softmax(x, out, **kw):
    from ...kernels import softmax

    return {"out": softmax(x, out=out, **kw)}


# The harness's out=, the kernel's own allocation, or an out in the same
# allocation as an input, right after the first or right before the last
# (which the overlap checks must accept).
OUT = ("out", (True, False, "after an input", "before an input"))
# softmax also runs in place (out=x): an overlap check must let it.
SOFTMAX_OUT = ("out", (True, False, "in place", "after an input", "before an input"))
LSE = ("return_lse", (True, False))
# Split counts: the fixed four, the kernel's own plan (None), one range (no
# merge) and counts that divide no block count evenly.
SPLITS = ("num_splits", (DECODE_SPLITS, None, 1, 2, 3, 5, 7))
# Program caps: the fixed two, one per SM (None), one program for all tiles, and three.
PROGRAMS = ("programs", (HOPPER_PROGRAMS, None, 1, 3))
# The Hopper backward's dQ: its own kernel below 2k keys by default (None), so
# that drawn sizes reach the fused one only when asked for it (True).
FUSED_BACKWARD = ("fused_backward", (None, True, False))

# Autograd differentiates the attention kernels (their own backward kernels),
# and they take sliding windows, as the softmax does.  The fused backward
# forms delta from the output it saved, the three-kernel one from P and dP;
# both sum a KV head's dK and dV over its group in fp32, in the kernel.  The
# serving kernels read only the table entries a sequence's keys use, and
# check the metadata they are given.
FUSED = Support(backward=True, windows=True, backward_delta="output", group_sum="fp32",
                unused_pages="any", metadata="checked")
THREE_KERNEL = Support(backward=True, windows=True, backward_delta="probs", group_sum="fp32")

# The Hopper kernel: 16-bit, D = Dv = 128, no window; its backward is flash's.
HOPPER = Support(dtypes=("float16", "bfloat16"), head_dims=(128,), distinct_value_dim=False,
                 backward=True, group_sum="fp32")

IMPLEMENTATIONS = (
    Implementation("naive", "attention", _naive, description="three-kernel attention",
                   campaign=True, bitwise_layouts=True, support=THREE_KERNEL,
                   options=(OUT, ("return_probs", (True, False)))),
    Implementation("flash", "attention", _flash, description="fused FlashAttention forward",
                   campaign=True, bitwise_layouts=True, support=FUSED, options=(OUT, LSE),
                   reset=_reset_flash, varlen=_varlen, paged=_paged, serving_bits=True,
                   serving_out=True),
    Implementation("decode", "attention", _decode, description="split-K decode, 4 key ranges",
                   decode=True, campaign=True, bitwise_layouts=True, support=FUSED,
                   options=(OUT, LSE, SPLITS), reset=_reset_flash),
    Implementation("matmul", "matmul", _matmul, description="tiled matmul", campaign=True,
                   bitwise_layouts=True, options=(OUT,)),
    Implementation("matmul_nt", "matmul_nt", _matmul_nt, description="transpose-free a@b.T",
                   campaign=True, bitwise_layouts=True, options=(OUT,)),
    Implementation("softmax", "softmax", _softmax, description="row softmax", campaign=True,
                   bitwise_layouts=True, support=Support(windows=True, backward=True),
                   options=(SOFTMAX_OUT,)),
    Implementation("hopper", "attention", _hopper,
                   description="warp-specialised Gluon prefill, Hopper GPUs only",
                   bitwise_layouts=True, support=HOPPER,
                   options=(OUT, LSE, PROGRAMS, FUSED_BACKWARD),
                   reset=_reset_flash, unavailable=_hopper_unavailable),
)
