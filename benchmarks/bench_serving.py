"""Benchmark the serving kernels on one GPU, each against its dense peer in the same run.

Three comparisons, bf16, Qwen3-like heads (Hq = 16, Hkv = 8, D = 128), timed
with ``triton.testing.do_bench`` (median, L2 cleared between runs):

* **varlen prefill** (causal): ``flash_attention_varlen`` over 16k packed
  tokens, as 8 equal sequences and as 8 mixed lengths, against dense
  ``flash_attention`` over 8 x 2048.  TFLOP/s count the visible (query, key)
  pairs, 4 * D FLOPs each per head, so mixed lengths compare on work done.
* **paged decode** (Sq = 1): ``flash_attention_paged`` over shuffled pages of
  16, 64 and 256 keys against ``flash_decode`` and SDPA's cuDNN backend on the
  same keys contiguous.  Bandwidth is the K and V bytes every call must read.
  The paged call is also timed with a plan (``plan_paged``: checked once,
  no sync a call) and the paged kernel alone (``launch_decode``, without the
  launcher's checks), to tell the kernel's share of a gap from the
  launcher's; so are the varlen call (``plan_varlen``) and kernel
  (``launch_varlen``).
* **windowed prefill**: ``window=(W, 0)`` causal against dense causal at the
  same length, both as TFLOP/s of visible pairs (a window skips whole blocks,
  so at best it runs as fast per visible key as the dense kernel).

    python benchmarks/bench_serving.py [--quick] [--out DIR]

Writes ``serving_<gpu>.json`` under ``--out`` (default ``attnfuzz-records/`` in
the current directory, ``_records.py``) and prints one line per point with its
ratios.  ``--tiny`` runs every point at toy sizes on any backend (a check
that the script runs, not a measurement).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HQ, HKV, D = 16, 8, 128
PAGE_SIZES = (16, 64, 256)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from _records import add_out_argument

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer points and shorter timing")
    p.add_argument("--tiny", action="store_true", help="toy sizes on any backend (no timing)")
    add_out_argument(p)
    return p.parse_args(argv)


class Bench:
    def __init__(self, torch, *, quick: bool, tiny: bool) -> None:
        self.torch, self.quick, self.tiny = torch, quick, tiny
        self.device = "cpu" if tiny else "cuda"
        self.dtype = torch.float32 if tiny else torch.bfloat16
        self.gen = torch.Generator(device=self.device).manual_seed(0)
        self.heads = (2, 1, 16) if tiny else (HQ, HKV, D)
        self.rows: list[dict] = []

    def rand(self, *shape):
        return self.torch.randn(*shape, device=self.device, dtype=self.dtype, generator=self.gen)

    def time_ms(self, fn: Callable[[], object]) -> float:
        fn()
        if self.tiny:
            start = time.perf_counter()
            fn()
            return (time.perf_counter() - start) * 1e3
        import triton

        self.torch.cuda.synchronize()
        return triton.testing.do_bench(fn, warmup=25, rep=30 if self.quick else 100,
                                       return_mode="median")

    def record(self, kind: str, point: dict, impl: str, fn: Callable[[], object], work: float,
               unit: str) -> dict:
        row = {"kind": kind, **point, "impl": impl, "unit": unit}
        try:
            ms = self.time_ms(fn)
            row["ms"], row["rate"] = ms, work / (ms * 1e-3) / 1e12
        except Exception as e:  # a failed peer is a result, not a crash
            row["note"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
        self.rows.append(row)
        return row

    # -- varlen prefill --------------------------------------------------------------------

    def varlen(self) -> None:
        from attnfuzz.kernels import flash_attention, flash_attention_varlen, plan_varlen

        torch = self.torch
        hq, hkv, d = self.heads
        unit = 2048 // 32 if self.tiny else 2048
        equal = [unit] * 8
        mixed = [2 * unit, unit, unit // 2, unit // 4, unit // 4, 2 * unit, unit + unit // 2,
                 unit // 2]

        def causal_pairs(n: int) -> int:
            return n * (n + 1) // 2

        q, k, v = (self.rand(8, h, unit, d) for h in (hq, hkv, hkv))
        dense_work = 4 * d * hq * 8 * causal_pairs(unit)
        point = {"tokens": 8 * unit, "lengths": "8 x dense"}
        base = self.record("varlen", point, "flash_attention",
                           lambda: flash_attention(q, k, v, causal=True), dense_work, "TFLOP/s")
        for name, lengths in (("equal", equal), ("mixed", mixed)):
            total = sum(lengths)
            qp, kp, vp = (self.rand(total, h, d) for h in (hq, hkv, hkv))
            cu = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], dtype=torch.int32,
                              device=self.device)
            work = 4 * d * hq * sum(causal_pairs(n) for n in lengths)
            longest = max(lengths)
            row = self.record(
                "varlen", {"tokens": total, "lengths": name}, "flash_attention_varlen",
                lambda qp=qp, kp=kp, vp=vp, cu=cu, n=longest: flash_attention_varlen(
                    qp, kp, vp, cu, cu, max_seqlen_q=n, max_seqlen_k=n, causal=True),
                work, "TFLOP/s")
            self.ratio(row, base, "vs_dense")
            plan = plan_varlen(cu, cu)
            planned = self.record(
                "varlen", {"tokens": total, "lengths": name}, "varlen, planned",
                lambda qp=qp, kp=kp, vp=vp, cu=cu, n=longest, plan=plan:
                    flash_attention_varlen(qp, kp, vp, cu, cu, max_seqlen_q=n, max_seqlen_k=n,
                                           causal=True, plan=plan),
                work, "TFLOP/s")
            self.ratio(planned, base, "vs_dense")
            alone = self.record("varlen", {"tokens": total, "lengths": name},
                                "varlen kernel alone",
                                self.varlen_kernel(qp, kp, vp, cu, lengths), work, "TFLOP/s")
            self.ratio(alone, base, "vs_dense")

    def varlen_kernel(self, q, k, v, cu, lengths) -> Callable[[], object]:
        """The varlen launch without the launcher's checks and their sync."""
        from attnfuzz.kernels._checks import dot_precision
        from attnfuzz.kernels._tiles import _on_device_of
        from attnfuzz.kernels.serving import launch_varlen

        out = self.torch.empty_like(q)
        n = max(lengths)
        precision = dot_precision(q.dtype, "ieee")

        def run():
            with _on_device_of(q):
                launch_varlen(q, k, v, out, None, cu, cu, list(lengths), n, n, causal=True,
                              scale=q.shape[-1] ** -0.5, top_left=False, window=None,
                              precision=precision)
            return out
        return run

    # -- paged decode ----------------------------------------------------------------------

    def paged(self) -> None:
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel

        from attnfuzz.kernels import flash_attention_paged, flash_decode, plan_paged

        torch = self.torch
        hq, hkv, d = self.heads
        batch = 8
        lengths = (256, 512) if self.tiny else ((32768,) if self.quick else (8192, 32768))
        for sk in lengths:
            q = self.rand(batch, hq, 1, d)
            k, v = (self.rand(batch, hkv, sk, d) for _ in range(2))
            nbytes = 2 * batch * hkv * sk * d * k.element_size()
            point = {"B": batch, "Sk": sk}
            base = self.record("decode", {**point, "page": 0}, "flash_decode",
                               lambda q=q, k=k, v=v: flash_decode(q, k, v), nbytes, "TB/s")

            def cudnn(q=q, k=k, v=v):
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)

            peer = (self.record("decode", {**point, "page": 0}, "sdpa-cudnn", cudnn, nbytes,
                                "TB/s") if not self.tiny else None)
            for page in PAGE_SIZES:
                pages = batch * (sk // page)
                order = torch.randperm(pages, generator=torch.Generator().manual_seed(page))
                table = order.view(batch, sk // page).to(torch.int32).to(self.device)
                caches = []
                for t in (k, v):  # (B, Hkv, Sk, D) -> pages (B * Sk / page, page, Hkv, D)
                    dense = t.transpose(1, 2).reshape(pages, page, hkv, d)
                    cache = torch.empty_like(dense)
                    cache[order.to(self.device)] = dense
                    caches.append(cache)
                seqlens = torch.full((batch,), sk, dtype=torch.int32, device=self.device)
                row = self.record(
                    "decode", {**point, "page": page}, "flash_attention_paged",
                    lambda q=q, caches=caches, table=table, seqlens=seqlens:
                        flash_attention_paged(q, *caches, table, seqlens),
                    nbytes, "TB/s")
                self.ratio(row, base, "vs_flash_decode")
                # Planned once, as a step's layers share one plan: no sync a call.
                plan = plan_paged(table, seqlens, sq=1, page_size=page, num_pages=pages)
                planned = self.record(
                    "decode", {**point, "page": page}, "paged, planned",
                    lambda q=q, caches=caches, table=table, seqlens=seqlens, plan=plan:
                        flash_attention_paged(q, *caches, table, seqlens, plan=plan),
                    nbytes, "TB/s")
                self.ratio(planned, base, "vs_flash_decode")
                # The paged kernel alone (no checks, no sync): what of the gap
                # is the kernel's and what the launcher's.
                alone = self.record(
                    "decode", {**point, "page": page}, "paged kernel alone",
                    self.paged_kernel(q, caches, table, seqlens), nbytes, "TB/s")
                self.ratio(alone, base, "vs_flash_decode")
                # The same keys: the paged answer must be flash_decode's.
                got = flash_attention_paged(q, *caches, table, seqlens)
                row["diff"] = (got.float() - flash_decode(q, k, v).float()).abs().max().item()
                if peer is not None:
                    self.ratio(row, peer, "vs_cudnn")

    def paged_kernel(self, q, caches, table, seqlens) -> Callable[[], object]:
        from attnfuzz.kernels._checks import AttentionDims, dot_precision
        from attnfuzz.kernels._tiles import _on_device_of
        from attnfuzz.kernels.flash import PagedKeys, launch_decode

        b, hq, sq, d = q.shape
        lens = tuple(seqlens.tolist())
        dims = AttentionDims(b, hq, caches[0].shape[2], sq, max(lens), d, d, d**-0.5, 0)
        out = self.torch.empty_like(q)
        keys = PagedKeys(table, seqlens, lens)
        precision = dot_precision(q.dtype, "ieee")

        def run():
            with _on_device_of(q):
                launch_decode(q, *caches, out, None, dims, causal=False, precision=precision,
                              paged=keys)
            return out
        return run

    # -- windowed prefill ------------------------------------------------------------------

    def windowed(self) -> None:
        from attnfuzz.kernels import flash_attention

        hq, hkv, d = self.heads
        batch, s = (1, 512) if self.tiny else (4, 16384)
        windows = (64,) if self.tiny else ((1024,) if self.quick else (1024, 4096))
        q, k, v = (self.rand(batch, h, s, d) for h in (hq, hkv, hkv))
        dense_pairs = s * (s + 1) // 2
        base = self.record("window", {"S": s, "window": None}, "flash_attention",
                           lambda: flash_attention(q, k, v, causal=True),
                           4 * d * hq * batch * dense_pairs, "TFLOP/s")
        for w in windows:
            # Row i sees keys max(0, i - w) .. i.
            pairs = sum(min(i, w) + 1 for i in range(s))
            row = self.record("window", {"S": s, "window": w}, "flash_attention",
                              lambda w=w: flash_attention(q, k, v, causal=True, window=(w, 0)),
                              4 * d * hq * batch * pairs, "TFLOP/s")
            self.ratio(row, base, "vs_dense")

    @staticmethod
    def ratio(row: dict, base: dict | None, key: str) -> None:
        if base and row.get("rate") and base.get("rate"):
            row[key] = row["rate"] / base["rate"]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch

    interpreted = os.environ.get("TRITON_INTERPRET", "0") == "1"
    if not args.tiny and (interpreted or not torch.cuda.is_available()):
        print("this benchmark needs compiled kernels on a GPU (or --tiny to check it runs)")
        return 2
    bench = Bench(torch, quick=args.quick, tiny=args.tiny)
    for part in (bench.varlen, bench.paged, bench.windowed):
        part()
    for r in bench.rows:
        ratios = "  ".join(f"{k} {r[k]:.2f}" for k in ("vs_dense", "vs_flash_decode", "vs_cudnn")
                           if k in r)
        shown = {k: r[k] for k in ("tokens", "lengths", "B", "Sk", "page", "S", "window")
                 if k in r}
        rate = f"{r['rate']:.2f} {r['unit']}" if "rate" in r else r.get("note", "")
        diff = f"  max |paged - flash_decode| {r['diff']:.1e}" if "diff" in r else ""
        print(f"{r['kind']:<7} {r['impl']:<22} {json.dumps(shown):<48} {rate:>14}  {ratios}"
              f"{diff}")
    if args.tiny:
        return 0
    gpu = torch.cuda.get_device_name()
    args.out.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9]+", "_", gpu).strip("_")
    path = args.out / f"serving_{slug}.json"
    import triton

    path.write_text(json.dumps({"gpu": gpu, "torch": torch.__version__,
                                "triton": triton.__version__, "rows": bench.rows}, indent=2))
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
