"""Where the compiled paged and varlen kernels differ in bits from the prefill alone.

The serving property expects a sequence's paged and varlen results to be the
bits of ``flash_prefill`` on that sequence alone wherever the prefill is
untuned (the same tiles and blocks).  This sweeps shapes, page sizes, head
dims, dtypes and causality on one GPU and prints, for each combination, how
many output elements differ and by how much.

    python3 benchmarks/results/gpu-serving-2026-12-02/paged_vs_prefill.py
"""

from __future__ import annotations

import itertools

import torch

from attnfuzz.kernels import flash_attention_paged, flash_attention_varlen, flash_prefill
from attnfuzz.properties.checks.serving import paged_cache


def differ(a: torch.Tensor, b: torch.Tensor) -> str:
    bad = (a != b) & ~(a.isnan() & b.isnan())
    if not bad.any():
        return "same"
    rel = ((a.double() - b.double()).abs() / b.double().abs().clamp_min(1e-30))[bad]
    rows = bad.flatten(0, -2).any(-1).nonzero().flatten().tolist()
    return f"{int(bad.sum())}/{bad.numel()} differ, max rel {rel.max().item():.2e}, rows {rows[:6]}"


def main() -> None:
    gen = torch.Generator(device="cuda").manual_seed(0)
    hq, hkv = 4, 2
    combos = itertools.product((torch.float16, torch.bfloat16), (128, 64), (False, True),
                               ((511, 1024), (64, 1024), (511, 600), (100, 513), (17, 200),
                                (64, 64)))
    for dtype, d, causal, (sq, sk) in combos:
        q = torch.randn(1, hq, sq, d, device="cuda", dtype=dtype, generator=gen)
        k = torch.randn(1, hkv, sk, d, device="cuda", dtype=dtype, generator=gen)
        v = torch.randn(1, hkv, sk, d, device="cuda", dtype=dtype, generator=gen)
        alone, alone_lse = flash_prefill(q, k, v, causal=causal, alignment="bottom_right",
                                         return_lse=True)
        line = [f"{str(dtype)[6:]:8} D={d:3} causal={causal!s:5} {sq:4}x{sk:<4}"]
        for page in (1, 16, 256, sk):
            kc, vc, table = paged_cache(k, v, [sk], page, seed=1)
            seqlens = torch.tensor([sk], dtype=torch.int32, device="cuda")
            out, lse = flash_attention_paged(q, kc, vc, table, seqlens, causal=causal,
                                             return_lse=True)
            line.append(f"page {page}: out {differ(out, alone)}; lse {differ(lse, alone_lse)}")
        cu = [torch.tensor([0, n], dtype=torch.int32, device="cuda") for n in (sq, sk)]
        out, lse = flash_attention_varlen(q[0].transpose(0, 1), k[0].transpose(0, 1),
                                          v[0].transpose(0, 1), *cu, causal=causal,
                                          return_lse=True)
        line.append(f"varlen: out {differ(out.transpose(0, 1)[None], alone)}")
        print("\n    ".join(line), flush=True)


if __name__ == "__main__":
    main()
