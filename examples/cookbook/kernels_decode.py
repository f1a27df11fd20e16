"""A two-stage split-K decode kernel over a paged KV cache, in plain torch.

The interface is the one vLLM's and SGLang's Triton ``decode_attention_fwd``
expose: one query token per sequence, ``q`` (B, Hq, D), against a paged cache
``k_buffer`` (num_pages, page_size, Hkv, D) whose pages ``req_to_token[b, i]``
hold sequence ``b``'s keys ``i * page_size`` onwards, ``b_seq_len[b]`` of them;
Hq may be a multiple of Hkv (GQA).

Stage 1 splits each sequence's keys into ``num_kv_splits`` contiguous chunks
and writes, per chunk, the chunk's softmax-normalised partial output and its
log-sum-exp into the fp32 workspace ``attn_logits`` (B, Hq, num_kv_splits,
Dv + 1); a chunk without keys has LSE -inf.  Stage 2 merges the chunks, each
weighted by ``exp(lse - max lse)``, into ``o`` (B, Hq, Dv) and ``lse`` (B, Hq).

``decode_attention_fwd_buggy`` plants a bug in the merge: it averages the
chunks' partial outputs, ignoring their LSEs, which is right only where every
chunk happens to carry the same softmax mass.
"""

from __future__ import annotations

import functools
import math

import torch


def _stage1(q, k_buffer, v_buffer, req_to_token, b_seq_len, attn_logits, sm_scale, page_size):
    splits, dv = attn_logits.shape[2], attn_logits.shape[3] - 1
    group = q.shape[1] // k_buffer.shape[2]
    attn_logits[..., dv] = float("-inf")
    for b in range(q.shape[0]):
        seq = int(b_seq_len[b])
        chunk = max(1, math.ceil(seq / splits))
        for s in range(splits):
            pos = torch.arange(min(seq, s * chunk), min(seq, (s + 1) * chunk), device=q.device)
            if pos.numel() == 0:
                continue
            pages = req_to_token[b, pos // page_size].long()
            k, v = (t[pages, pos % page_size].float().repeat_interleave(group, dim=1)
                    for t in (k_buffer, v_buffer))  # (n, Hq, D)
            logits = torch.einsum("hd,nhd->hn", q[b].float(), k) * sm_scale
            attn_logits[b, :, s, :dv] = torch.einsum("hn,nhd->hd", logits.softmax(-1), v)
            attn_logits[b, :, s, dv] = logits.logsumexp(-1)


def _stage2(attn_logits, o, lse, ignore_lse):
    partial, chunk_lse = attn_logits[..., :-1], attn_logits[..., -1]  # (B, Hq, S, Dv), (B, Hq, S)
    empty = chunk_lse == float("-inf")
    # An empty chunk's partial output was never written: it may hold anything.
    partial = partial.masked_fill(empty[..., None], 0.0)
    top = chunk_lse.max(dim=-1, keepdim=True).values
    weights = torch.exp(chunk_lse - top)  # an empty chunk weighs 0
    if ignore_lse:
        weights = (~empty).float()
    total = weights.sum(-1, keepdim=True)
    o.copy_(((weights / total)[..., None] * partial).sum(-2))
    lse.copy_((top + total.log()).squeeze(-1))


def _decode_attention_fwd(q, k_buffer, v_buffer, o, lse, req_to_token, b_seq_len, attn_logits,
                          num_kv_splits, sm_scale, page_size, *, ignore_lse):
    if q.dim() != 3 or k_buffer.dim() != 4 or q.shape[1] % k_buffer.shape[2]:
        raise ValueError("q must be (B, Hq, D) and k_buffer (pages, page_size, Hkv, D), "
                         "Hkv dividing Hq")
    if attn_logits.shape != (*q.shape[:2], num_kv_splits, v_buffer.shape[-1] + 1):
        raise ValueError("attn_logits must be (B, Hq, num_kv_splits, Dv + 1)")
    if int(b_seq_len.min()) < 1:
        raise ValueError("every sequence needs a key: b_seq_len >= 1")
    _stage1(q, k_buffer, v_buffer, req_to_token, b_seq_len, attn_logits, sm_scale, page_size)
    _stage2(attn_logits, o, lse, ignore_lse)


def decode_attention_fwd(q: torch.Tensor, k_buffer: torch.Tensor, v_buffer: torch.Tensor,
                         o: torch.Tensor, lse: torch.Tensor, req_to_token: torch.Tensor,
                         b_seq_len: torch.Tensor, attn_logits: torch.Tensor, num_kv_splits: int,
                         sm_scale: float, page_size: int = 1) -> None:
    """Decode attention of one query per sequence, split over the keys and merged."""
    _decode_attention_fwd(q, k_buffer, v_buffer, o, lse, req_to_token, b_seq_len, attn_logits,
                          num_kv_splits, sm_scale, page_size, ignore_lse=False)


decode_attention_fwd_buggy = functools.partial(_decode_attention_fwd, ignore_lse=True)
