"""Fuzz a paged "unified" kernel with sliding windows (vLLM ``unified_attention``).

attnfuzz's ``paged`` convention hands over q (B, H, Sq, D) and a paged cache
whose last Sq keys of each sequence are the queries' tokens; packed, the
queries start every Sq rows (``cu_seqlens_q``, vLLM's ``query_start_loc``),
and the cache lengths are the kernel's ``seqused_k``.  The kernel is causal
only (``causal=only``: non-causal cases must be refused) and takes a window
(``windows=yes``) as ``window_size``, -1 for an unlimited side.

    python fuzz.py unified_paged.py --seconds 60
"""

import torch
from kernels_unified import unified_attention

CONVENTION = "paged"
SUPPORTS = "causal=only;windows=yes;dtypes=float32,float16"


def unified_paged(q, k_cache, v_cache, block_table, cache_seqlens, *, causal, scale, window=None):
    b, hq, sq, d = q.shape
    out = q.new_empty(b * sq, hq, v_cache.shape[-1])
    unified_attention(q.transpose(1, 2).reshape(b * sq, hq, d), k_cache, v_cache, out,
                      cu_seqlens_q=torch.arange(b + 1, dtype=torch.int32, device=q.device) * sq,
                      max_seqlen_q=sq, seqused_k=cache_seqlens,
                      max_seqlen_k=int(cache_seqlens.max()), causal=causal,
                      softmax_scale=d ** -0.5 if scale is None else scale,
                      window_size=tuple(-1 if w is None else w for w in window or (None, None)),
                      block_table=block_table)
    return out.reshape(b, sq, hq, -1).transpose(1, 2)
