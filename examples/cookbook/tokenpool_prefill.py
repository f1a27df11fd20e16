"""Fuzz a token-pool prefill kernel (SGLang / lightllm ``context_attention_fwd``).

attnfuzz's ``paged`` convention hands over a paged cache whose last Sq keys of
each sequence are the new tokens.  Its slots, flattened, are a token pool, and
``req_to_token`` is the block table unrolled to one pool row per position; the
prompt-cache prefix is every key before the new tokens.  Requests sit in the
pool's table in reverse batch order, so ``b_req_idx`` is really read.

    python fuzz.py tokenpool_prefill.py --seconds 60
"""

import torch
from kernels_tokenpool import context_attention_fwd

CONVENTION = "paged"
SUPPORTS = "dtypes=float32,float16"  # GQA, any head dim, page size and scale, causal or not


def tokenpool_prefill(q, k_cache, v_cache, block_table, cache_seqlens, *, causal, scale):
    (b, hq, sq, d), page = q.shape, k_cache.shape[1]
    rows, pos = (torch.arange(n, device=q.device) for n in (b, block_table.shape[1] * page))
    req_to_token = (block_table[:, pos // page] * page + pos % page).flip(0)
    o = q.new_empty(b * sq, hq, v_cache.shape[-1])
    context_attention_fwd(q.transpose(1, 2).reshape(b * sq, hq, d), o, k_cache.flatten(0, 1),
                          v_cache.flatten(0, 1), req_to_token, rows.flip(0), rows * sq,
                          cache_seqlens, cache_seqlens - sq, is_causal=causal,
                          sm_scale=d ** -0.5 if scale is None else scale)
    return o.reshape(b, sq, hq, -1).transpose(1, 2)
