"""Fuzz a paged "unified" kernel with sliding windows (vLLM ``unified_attention``).

attnfuzz's ``paged_varlen`` convention is this kernel's own call: packed
queries (``cu_seqlens_q``, vLLM's ``query_start_loc``) over a paged cache
whose last keys of each sequence are its queries' tokens; ``seq_lens`` is the
kernel's ``seqused_k``.  Its ``serving`` property packs prefill chunks beside
one-query decode steps.  The kernel is causal only (``causal=only``:
non-causal cases must be refused) and takes a window (``windows=yes``) as
``window_size``, -1 for an unlimited side.

    python fuzz.py unified_paged.py --seconds 60
"""

from kernels_unified import unified_attention

CONVENTION = "paged_varlen"
SUPPORTS = "causal=only;windows=yes;dtypes=float32,float16"


def unified_paged(q, k_cache, v_cache, block_table, cu_seqlens_q, seq_lens, *, max_seqlen_q,
                  max_seqlen_k, causal, scale, window=None):
    out = q.new_empty(*q.shape[:2], v_cache.shape[-1])
    unified_attention(q, k_cache, v_cache, out, cu_seqlens_q=cu_seqlens_q,
                      max_seqlen_q=max_seqlen_q, seqused_k=seq_lens, max_seqlen_k=max_seqlen_k,
                      causal=causal, softmax_scale=q.shape[-1] ** -0.5 if scale is None else scale,
                      window_size=tuple(-1 if w is None else w for w in window or (None, None)),
                      block_table=block_table)
    return out
