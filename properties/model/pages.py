"""Paged KV caches: keys and values in shuffled pages, as serving stores them.

``paged_cache`` lays a dense (B, Hkv, Sk, D) batch out as a
``flash_attention_paged`` cache: each sequence's keys in pages of its own,
in a shuffled order, with NaN in every slot and page no sequence uses, so a
read past a sequence's keys reaches an output as NaN.
"""

from __future__ import annotations

import torch

from .cases import UNUSED_ENTRIES

# Page sizes drawn: one key, a prime, the usual serving sizes.
PAGE_SIZES = (1, 3, 16, 64, 256)


def page_size(seed: int, declared: tuple[int, ...] | None = None) -> int:
    """The page size of a cache made with ``seed``: one of PAGE_SIZES, among
    those ``declared`` (an implementation's supported sizes) where it says;
    of the declared ones themselves if none of PAGE_SIZES is among them."""
    sizes = PAGE_SIZES if declared is None else (
        tuple(p for p in PAGE_SIZES if p in declared) or tuple(sorted(declared)[:len(PAGE_SIZES)]))
    return sizes[seed % len(sizes)]


def paged_cache(k: torch.Tensor, v: torch.Tensor, lens: list[int], page: int, seed: int,
                shared: bool = False, unused: str = "spare_page",
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(k_cache, v_cache, block_table) holding each sequence's first lens[b]
    keys of k, v (B, Hkv, Sk, D) in shuffled pages, NaN everywhere else, and
    every unused table entry (every sequence has one: the last column at
    least) holding ``unused`` (``cases.UNUSED_ENTRIES``): a spare page of NaN,
    -1, or the number of pages.  With ``shared``, sequence 1 reuses sequence
    0's first page (the caller makes those keys equal: a shared prompt prefix)."""
    b, hkv = k.shape[:2]
    counts = [-(-n // page) for n in lens]
    gen = torch.Generator().manual_seed(seed)
    order = torch.randperm(sum(counts) + 1 - shared, generator=gen).tolist()  # last: NaN
    caches = [torch.full((len(order), page, hkv, t.shape[-1]), float("nan"), dtype=t.dtype,
                         device=t.device) for t in (k, v)]
    if unused not in UNUSED_ENTRIES:
        raise ValueError(f"unused must be one of {', '.join(UNUSED_ENTRIES)}, got {unused!r}")
    fill = dict(zip(UNUSED_ENTRIES, (order[-1], -1, len(order)), strict=True))[unused]
    table = torch.full((b, max(counts, default=0) + 1), fill, dtype=torch.int32)
    fresh = iter(order)
    for i, n_keys in enumerate(lens):
        for j in range(counts[i]):
            p = int(table[0, 0]) if shared and i == 1 and j == 0 else next(fresh)
            table[i, j] = p
            n = min(page, n_keys - j * page)
            for cache, t in zip(caches, (k, v), strict=True):
                cache[p, :n] = t[i, :, j * page:j * page + n].transpose(0, 1)
    return (*caches, table.to(k.device))
