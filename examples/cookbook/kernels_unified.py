"""A "unified" paged attention kernel with sliding windows, in plain torch.

The interface is the one vLLM's Triton ``unified_attention`` exposes: queries
of several sequences packed along one dim, ``q`` (total_q, Hq, D), sequence
``b``'s rows ``cu_seqlens_q[b]:cu_seqlens_q[b + 1]`` (the query start
locations); a paged cache ``k`` (num_blocks, block_size, Hkv, D) whose blocks
``block_table[b, i]`` hold sequence ``b``'s keys ``i * block_size`` onwards,
``seqused_k[b]`` of them, the last of which are the queries' own tokens (so a
prefill chunk and a decode step mix in one batch).  The mask is causal and
bottom-right: query ``i`` of ``n`` sits at position ``seqused_k[b] - n + i``
and sees keys up to it, and ``window_size=(left, right)`` (-1: unlimited)
keeps keys from ``left`` before it to ``right`` after it.  The result goes
into ``out`` (total_q, Hq, Dv).

``unified_attention_buggy`` plants an off-by-one in the window: a query sees
``left - 1`` keys before it, not ``left``.
"""

from __future__ import annotations

import functools

import torch


def _unified_attention(q, k, v, out, cu_seqlens_q, max_seqlen_q, seqused_k, max_seqlen_k,
                       softmax_scale, causal, window_size, block_table, *, window_bug):
    if not causal:
        raise ValueError("unified_attention is causal only: causal=True")
    if q.dim() != 3 or k.dim() != 4 or q.shape[1] % k.shape[2]:
        raise ValueError("q must be (total_q, Hq, D) and k (blocks, block_size, Hkv, D), "
                         "Hkv dividing Hq")
    left, right = window_size
    block_size, group = k.shape[1], q.shape[1] // k.shape[2]
    for b in range(cu_seqlens_q.shape[0] - 1):
        start, end, seq = int(cu_seqlens_q[b]), int(cu_seqlens_q[b + 1]), int(seqused_k[b])
        if not 0 <= end - start <= seq:
            raise ValueError(f"sequence {b} has {end - start} queries but {seq} keys")
        pos = torch.arange(seq, device=q.device)
        blocks = block_table[b, pos // block_size].long()
        keys, values = (t[blocks, pos % block_size].float().repeat_interleave(group, dim=1)
                        for t in (k, v))
        at = pos[seq - (end - start):, None]  # each query's own position
        visible = pos[None, :] <= at
        if left >= 0:
            visible &= pos[None, :] > at - left if window_bug else pos[None, :] >= at - left
        if right >= 0:
            visible &= pos[None, :] <= at + right
        logits = torch.einsum("qhd,khd->hqk", q[start:end].float(), keys) * softmax_scale
        weights = logits.masked_fill(~visible, float("-inf")).softmax(-1).nan_to_num(0.0)
        out[start:end] = torch.einsum("hqk,khd->qhd", weights, values).to(out.dtype)


def unified_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
                      cu_seqlens_q: torch.Tensor, max_seqlen_q: int, seqused_k: torch.Tensor,
                      max_seqlen_k: int, softmax_scale: float, causal: bool,
                      window_size: tuple[int, int], block_table: torch.Tensor) -> None:
    """Causal attention of packed queries over a paged cache, within a sliding window."""
    _unified_attention(q, k, v, out, cu_seqlens_q, max_seqlen_q, seqused_k, max_seqlen_k,
                       softmax_scale, causal, window_size, block_table, window_bug=False)


unified_attention_buggy = functools.partial(_unified_attention, window_bug=True)
