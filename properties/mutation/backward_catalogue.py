"""Mutants of the backward kernels: the three-kernel backward (``three_kernel_attention``,
``row_softmax``'s softmax backward) and the fused one (``flash_backward``); see ``runner``.

Each plants a bug of a class that public attention backwards have had: a
missing delta term, GQA gradients not summed over the group, dS not scaled,
a causal mask wrong in the backward only, dO read through another tensor's
strides, P recomputed in the wrong base, rows that see no key turned into
NaN, tails of a block stored or summed unmasked.
"""

from __future__ import annotations

from attnfuzz.properties.mutation.mutant import NAIVE_BACKWARD, Mutant
from attnfuzz.properties.mutation.mutant import mutant as _m

NAIVE_BACKWARD_MUTANTS: tuple[Mutant, ...] = (
    _m("naive_bwd.delta_missing", "row_softmax.py",
       ("dx = y.to(tl.float32) * (dy.to(tl.float32) - row_dot[:, None]) * scale",
        "dx = y.to(tl.float32) * dy.to(tl.float32) * scale"),
       "softmax backward without the delta term: dS = P dP", NAIVE_BACKWARD),
    _m("naive_bwd.causal_lt_in_backward", "row_softmax.py",
       ("        seen = inside\n        if CAUSAL:\n"
        "            seen = seen & (cols[None, :] <= rows[:, None] + DIAGONAL)",
        "        seen = inside\n        if CAUSAL:\n"
        "            seen = seen & (cols[None, :] < rows[:, None] + DIAGONAL)"),
       "the causal mask off by one in the backward only (< for <=)", NAIVE_BACKWARD),
    _m("naive_bwd.dv_not_summed_over_group", "three_kernel_attention.py",
       ("k=group * dims.sq, group=1, scale=1.0", "k=dims.sq, group=1, scale=1.0"),
       "dV of a KV head from its group's first query head only", NAIVE_BACKWARD),
    _m("naive_bwd.dk_not_summed_over_group", "three_kernel_attention.py",
       ("k=group * dims.sq, group=1, scale=dims.scale", "k=dims.sq, group=1, scale=dims.scale"),
       "dK of a KV head from its group's first query head only", NAIVE_BACKWARD),
    _m("naive_bwd.dq_unscaled", "three_kernel_attention.py",
       ("k=dims.sk, group=group, scale=dims.scale", "k=dims.sk, group=group, scale=1.0"),
       "dQ = dS K without the softmax scale", NAIVE_BACKWARD),
    _m("naive_bwd.dp_from_contiguous_strides", "three_kernel_attention.py",
       ("launch_matmul_nt(d_out, v, ds,",
        "launch_matmul_nt(d_out.as_strided(d_out.shape, ds.new_empty(d_out.shape).stride()),"
        " v, ds,"),
       "dO read as if contiguous (strides assumed, not read)", NAIVE_BACKWARD),
)

BACKWARD_MUTANTS: tuple[Mutant, ...] = (*NAIVE_BACKWARD_MUTANTS,)
