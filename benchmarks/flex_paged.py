"""FlexAttention's paged path, as a function of ``flash_attention_paged``'s convention.

PyTorch serves FlexAttention over a paged KV cache with
``torch.nn.attention.experimental._paged_attention.PagedAttention``: keys live
in one physical buffer of pages, a page table maps each sequence's logical
pages to physical ones, ``convert_logical_block_mask`` rewrites a block mask
(whose key blocks are pages) into physical pages, and the rewritten
``mask_mod`` maps each physical key back to its logical index and hides keys
past the sequence's length.  This function sets that up from attnfuzz's paged
arguments, so the paged property and the ``serving`` property fuzz it:

    attnfuzz run --impl benchmarks/flex_paged.py:flex_paged --convention paged \\
        --supports "dtypes=float32,float16;head_dims=16,32,64,128;windows=yes;lse=yes"

Compiled (``torch.compile``) on CUDA, as served; on the CPU FlexAttention runs
its reference path.
"""

from __future__ import annotations

import functools
import warnings

import torch
from torch.nn.attention import flex_attention as flex
from torch.nn.attention.experimental._paged_attention import PagedAttention


@functools.cache
def _compiled():
    return torch.compile(flex.flex_attention, dynamic=False, fullgraph=True)


def flex_paged(
    q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, block_table: torch.Tensor,
    cache_seqlens: torch.Tensor, *, causal: bool = False, scale: float | None = None,
    window: tuple[int | None, int | None] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(out, lse) of q (B, Hq, Sq, D) over the paged cache (pages, page size, Hkv, D)."""
    b, hq, sq, d = q.shape
    n_pages, page, hkv, _ = k_cache.shape
    dev = q.device
    lens = cache_seqlens.long()
    table = block_table.long()
    width = table.shape[1]
    used = torch.arange(width, device=dev) * page < lens[:, None]
    paged = PagedAttention(n_pages, page, b, device=dev)
    paged.page_table[:, :width] = torch.where(used, table, -1)
    rows = torch.arange(b, device=dev)[:, None].expand(b, width)
    cols = torch.arange(width, device=dev)[None, :].expand(b, width)
    paged.physical_to_logical[rows[used], table[used]] = cols[used]

    left, right = window or (None, None)

    def visible(bi, h, qi, kj):  # logical indices; the new tokens are the last Sq keys
        rel = kj - (qi + lens[bi] - sq)
        seen = rel <= 0 if causal else rel == rel
        if left is not None:
            seen = seen & (rel >= -left)
        if right is not None:
            seen = seen & (rel <= right)
        return seen

    logical = flex.create_block_mask(visible, b, None, sq, width * page, device=dev,
                                     BLOCK_SIZE=(128, page))
    mask = paged.convert_logical_block_mask(logical, kv_len=lens)
    # The physical buffer: (1, Hkv, pages * page size, D), shared by every sequence.
    k_phys, v_phys = (c.permute(2, 0, 1, 3).reshape(1, hkv, n_pages * page, c.shape[-1])
                      .expand(b, -1, -1, -1) for c in (k_cache, v_cache))
    kwargs = dict(block_mask=mask, scale=scale, enable_gqa=hq != hkv,
                  return_aux=flex.AuxRequest(lse=True))
    if q.is_cuda:
        out, aux = _compiled()(q, k_phys, v_phys, **kwargs)
    else:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="flex_attention called without")
            out, aux = flex.flex_attention(q, k_phys, v_phys, **kwargs)
    return out, aux.lse
