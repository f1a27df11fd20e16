"""A token-pool prefill ("extend") kernel, in plain torch.

The interface is the one SGLang's and lightllm's ``context_attention_fwd`` /
``extend_attention_fwd`` expose: keys and values live in a token pool
``k_buffer[num_tokens, Hkv, D]`` shared by every request, and
``req_to_token[req, pos]`` is the pool row of request ``req``'s token ``pos``.
A batch entry ``r`` is request ``b_req_idx[r]``: its first ``b_prefix_len[r]``
tokens are already in the pool (a prompt-cache hit), the rest,
``b_seq_len[r] - b_prefix_len[r]`` new tokens, are its queries, packed in ``q``
from row ``b_start_loc[r]``.  New token ``i`` sees the prefix and the new
tokens up to itself (``is_causal``), or every token of its request.
The result is written into ``o`` (total new tokens, Hq, Dv); nothing is returned.

``context_attention_fwd_buggy`` is the same kernel with a planted bug: it reads
batch entry ``r``'s tokens from ``req_to_token[r]``, not from its request's row
``req_to_token[b_req_idx[r]]``, a slip that passes while requests happen to sit
in the pool's first rows in batch order.
"""

from __future__ import annotations

import functools

import torch


def _attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, visible: torch.Tensor | None,
            scale: float) -> torch.Tensor:
    """Softmax attention of q (n, Hq, D) over k, v (m, Hkv, D) in fp32, GQA by
    repeating each KV head over its group of query heads; (n, Hq, Dv)."""
    group = q.shape[1] // k.shape[1]
    k, v = (t.float().repeat_interleave(group, dim=1) for t in (k, v))
    logits = torch.einsum("qhd,khd->hqk", q.float(), k) * scale
    if visible is not None:
        logits = logits.masked_fill(~visible, float("-inf"))
    # A row that sees no key has no softmax: its output is 0.
    weights = torch.softmax(logits, dim=-1).nan_to_num(0.0)
    return torch.einsum("hqk,khd->qhd", weights, v)


def _context_attention_fwd(q, o, k_buffer, v_buffer, req_to_token, b_req_idx, b_start_loc,
                           b_seq_len, b_prefix_len, *, sm_scale, is_causal, row_bug):
    if q.dim() != 3 or k_buffer.dim() != 3 or q.shape[1] % k_buffer.shape[1]:
        raise ValueError("q must be (tokens, Hq, D) and k_buffer (pool, Hkv, D), Hkv dividing Hq")
    for r in range(b_req_idx.shape[0]):
        seq, prefix, start = int(b_seq_len[r]), int(b_prefix_len[r]), int(b_start_loc[r])
        new = seq - prefix
        if not 0 <= prefix <= seq:
            raise ValueError(f"b_prefix_len[{r}]={prefix} outside 0..b_seq_len[{r}]={seq}")
        row = r if row_bug else int(b_req_idx[r])
        tokens = req_to_token[row, :seq].long()
        visible = None
        if is_causal:  # new token i sits at position prefix + i
            pos = torch.arange(seq, device=q.device)
            visible = pos[None, :] <= prefix + pos[:new, None]
        o[start:start + new] = _attend(q[start:start + new], k_buffer[tokens], v_buffer[tokens],
                                       visible, sm_scale).to(o.dtype)


def context_attention_fwd(q: torch.Tensor, o: torch.Tensor, k_buffer: torch.Tensor,
                          v_buffer: torch.Tensor, req_to_token: torch.Tensor,
                          b_req_idx: torch.Tensor, b_start_loc: torch.Tensor,
                          b_seq_len: torch.Tensor, b_prefix_len: torch.Tensor, *,
                          sm_scale: float, is_causal: bool = True) -> None:
    """Prefill attention of the new tokens of each request over its pooled tokens."""
    _context_attention_fwd(q, o, k_buffer, v_buffer, req_to_token, b_req_idx, b_start_loc,
                           b_seq_len, b_prefix_len, sm_scale=sm_scale, is_causal=is_causal,
                           row_bug=False)


context_attention_fwd_buggy = functools.partial(_context_attention_fwd, row_bug=True)
