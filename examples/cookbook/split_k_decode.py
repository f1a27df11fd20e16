"""Fuzz a two-stage split-K decode kernel (vLLM / SGLang ``decode_attention_fwd``).

attnfuzz's ``paged`` convention hands over one query per sequence (``max_sq=1``
declares decode only) and a paged cache, which the kernel takes as it is: the
block table is its ``req_to_token`` and the page size its ``page_size``.  It
returns the merged LSE too (``lse=yes``), so a merge that gets the weights
right by luck but the LSE wrong is caught as well.  One query over its whole
cache is what a bottom-right causal mask lets it see, so ``causal`` changes
nothing here.

    python fuzz.py split_k_decode.py --seconds 60
"""

import torch
from kernels_decode import decode_attention_fwd

CONVENTION = "paged"
SUPPORTS = "max_sq=1;lse=yes;dtypes=float32,float16"
NUM_KV_SPLITS = 4


def split_k_decode(q, k_cache, v_cache, block_table, cache_seqlens, *, causal, scale):
    if q.shape[2] != 1:
        raise ValueError(f"decode only: one query per sequence, got Sq={q.shape[2]}")
    (b, hq, _, d), dv = q.shape, v_cache.shape[-1]
    o, lse = q.new_empty(b, hq, dv), torch.empty(b, hq, device=q.device)
    attn_logits = torch.empty(b, hq, NUM_KV_SPLITS, dv + 1, device=q.device)
    decode_attention_fwd(q[:, :, 0], k_cache, v_cache, o, lse, block_table, cache_seqlens,
                         attn_logits, NUM_KV_SPLITS, d ** -0.5 if scale is None else scale,
                         page_size=k_cache.shape[1])
    return o[:, :, None], lse[:, :, None]
