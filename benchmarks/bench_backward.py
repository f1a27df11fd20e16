"""Benchmark attention backwards on one GPU, in one run: ours against SDPA's.

Implementations, timed in the same process with ``triton.testing.do_bench``
(median of repeated runs, L2 cleared between runs):

* ``triton-flash``: the fused backward of ``attnfuzz.kernels.flash_attention``
  (GQA read in place);
* ``sdpa-flash``, ``sdpa-cudnn``: SDPA's backward pinned to one backend,
  GQA through ``enable_gqa=True``, or K and V repeated where the backend
  refuses it (the mode is recorded per point).

Two timings per point: the backward alone (``torch.autograd.grad`` of one
forward's graph, kept with ``retain_graph``) and forward + backward.  Work:
the forward's FLOPs are ``4 * B * Hq * S * S * D``, halved for causal; the
backward is counted as 2.5 times the forward's (five matmuls to two), so
forward + backward is 3.5 times.

Each point also records the host's time to issue one forward + backward
(``host_us``, the median of steps issued while a sleep kernel holds the
GPU, so that nothing the host waits on is the GPU's; ``host_mean_us``) and,
for ours, the launches that went through ``JITFunction.run`` while it was
timed (``slow_launches``: 0 where every launch replayed, ``LaunchCache``),
at S <= 2k: a short step whose host time exceeds its GPU time is timed as
the host's.

Shapes are Qwen3-like: B = 4, Hq = 16, Hkv = 8, D = 128.

Usage (repository root, on a GPU machine; the script sets nothing about
clocks)::

    python benchmarks/bench_backward.py [--quick] [--out DIR]

Writes ``backward_<gpu>.json`` under ``--out`` (default ``attnfuzz-records/``
in the current directory, ``_records.py``) and prints the table, with each
point's ratio to sdpa-flash and to cuDNN.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

B, HQ, HKV, D = 4, 16, 8, 128
SEQS = (1024, 2048, 4096, 8192, 16384)
QUICK_SEQS = (1024, 4096)
BACKWARD_FLOPS = 2.5  # times the forward's


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from _records import add_out_argument

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer points and shorter timing")
    add_out_argument(p)
    return p.parse_args(argv)


def forward_flops(s: int, causal: bool) -> float:
    flops = 4.0 * B * HQ * s * s * D
    return flops / 2 if causal else flops


def runners(torch, q, k, v, causal: bool) -> dict[str, tuple[str, Callable]]:
    """name -> (GQA mode, forward function of (q, k, v))."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from attnfuzz.kernels import flash_attention

    group = HQ // HKV
    out = {"triton-flash": ("gqa", lambda q, k, v: flash_attention(q, k, v, causal=causal))}
    for name, backend in (("sdpa-flash", SDPBackend.FLASH_ATTENTION),
                          ("sdpa-cudnn", SDPBackend.CUDNN_ATTENTION)):
        def gqa(q, k, v, backend=backend):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)

        def expanded(q, k, v, backend=backend):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(
                    q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1),
                    is_causal=causal)

        try:
            gqa(q, k, v).backward(torch.ones_like(q))
            out[name] = ("gqa", gqa)
        except RuntimeError:
            out[name] = ("expanded", expanded)
        for t in (q, k, v):
            t.grad = None
    return out


SLEEP_CYCLES_PER_MS = 2_000_000  # torch.cuda._sleep counts clock cycles; H100/H200 boost near 2 GHz
HOST_STEPS = 50
HOST_MAX_S = 2048  # longer steps take the GPU far longer than the host: not timed


def host_us(torch, fn: Callable) -> tuple[float, float, float]:
    """(median and mean microseconds the host takes to issue one call of
    ``fn``, milliseconds the GPU was still busy after the last): issued
    behind a sleep kernel long enough for all of them, so that the GPU never
    waits for the host.  The mean also holds the host's rare stalls
    (garbage collection, a thread's wake-up), which the median leaves out."""
    import statistics
    import time

    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    torch.cuda._sleep(100 * SLEEP_CYCLES_PER_MS)
    stamps = [time.perf_counter()]
    for _ in range(HOST_STEPS):
        fn()
        stamps.append(time.perf_counter())
    torch.cuda.synchronize()
    left = (time.perf_counter() - stamps[-1]) * 1e3
    each = [(b - a) * 1e6 for a, b in zip(stamps, stamps[1:], strict=False)]
    return statistics.median(each), statistics.fmean(each), left


def slow_launches() -> int:
    """Launches so far that went through ``JITFunction.run`` (compiles and
    first launches of a key), over every launch cache."""
    from attnfuzz.kernels import _launch

    return sum(cache.direct_launches for cache in list(_launch._EVERY))


def point(torch, triton, gen, dtype, causal: bool, s: int, rep: int) -> list[dict]:
    """One row per implementation at one (dtype, mask, length)."""
    def rand(h):
        return torch.randn(B, h, s, D, device="cuda", dtype=dtype, generator=gen)

    q, k, v = (rand(h).requires_grad_() for h in (HQ, HKV, HKV))
    do = rand(HQ)
    work = forward_flops(s, causal)
    rows = []
    for name, (mode, fwd) in runners(torch, q, k, v, causal).items():
        row = {"dtype": str(dtype).split(".")[1], "causal": causal, "s": s, "impl": name,
               "gqa": mode}
        try:
            out = fwd(q, k, v)

            def bwd(out=out):
                torch.autograd.grad(out, (q, k, v), do, retain_graph=True)

            def both(fwd=fwd):
                torch.autograd.grad(fwd(q, k, v), (q, k, v), do)

            for key, fn, flops in (("bwd", bwd, BACKWARD_FLOPS * work),
                                   ("fwd_bwd", both, (1 + BACKWARD_FLOPS) * work)):
                fn()
                torch.cuda.synchronize()
                before = slow_launches()
                ms = triton.testing.do_bench(fn, warmup=25, rep=rep, return_mode="median")
                if name == "triton-flash":
                    row[f"{key}_slow_launches"] = slow_launches() - before
                row[f"{key}_ms"] = ms
                row[f"{key}_tflops"] = flops / (ms * 1e-3) / 1e12
            if s <= HOST_MAX_S:
                row["host_us"], row["host_mean_us"], row["host_gpu_left_ms"] = host_us(torch, both)
        except Exception as e:  # a failed backend is a result, not a crash
            row["note"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
            torch.cuda.empty_cache()
        rows.append(row)
        shown = {key: round(x, 1) for key, x in row.items()
                 if key.endswith(("tflops", "host_us", "slow_launches"))}
        print(row["dtype"], "causal" if causal else "full", s, name, mode, shown,
              row.get("note", ""), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from _gpu import missing_gpu

    if (why := missing_gpu()) is not None:
        print(why)
        return 2
    import torch
    import triton

    rep = 30 if args.quick else 100
    gpu = torch.cuda.get_device_name()
    gen = torch.Generator(device="cuda").manual_seed(0)
    rows = []
    for dtype in (torch.bfloat16, torch.float16):
        for causal in (False, True):
            for s in QUICK_SEQS if args.quick else SEQS:
                rows += point(torch, triton, gen, dtype, causal, s, rep)
    for row in rows:
        for peer in ("sdpa-flash", "sdpa-cudnn"):
            other = next((r for r in rows if r["impl"] == peer and all(
                r[c] == row[c] for c in ("dtype", "causal", "s"))), None)
            for key in ("bwd", "fwd_bwd"):
                mine, theirs = row.get(f"{key}_tflops"), (other or {}).get(f"{key}_tflops")
                if mine and theirs:
                    row[f"{key}_vs_{peer}"] = mine / theirs
    args.out.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^A-Za-z0-9]+", "_", gpu).strip("_")
    path = args.out / f"backward_{slug}.json"
    path.write_text(json.dumps({"gpu": gpu, "torch": torch.__version__,
                                "triton": triton.__version__, "rows": rows}, indent=2))
    print(f"\nwrote {path}\n")
    print(f"{'dtype':<9}{'mask':<7}{'S':>6}  {'bwd TFLOP/s':>12} {'vs flash':>9} {'vs cudnn':>9}"
          f"  {'fwd+bwd':>8} {'vs flash':>9} {'vs cudnn':>9}  {'host us':>8} {'cudnn':>6}")
    for r in rows:
        if r["impl"] != "triton-flash":
            continue
        cells = [r.get(k) for k in ("bwd_tflops", "bwd_vs_sdpa-flash", "bwd_vs_sdpa-cudnn",
                                    "fwd_bwd_tflops", "fwd_bwd_vs_sdpa-flash",
                                    "fwd_bwd_vs_sdpa-cudnn")]
        text = ["-" if c is None else f"{c:.2f}" for c in cells]
        cudnn = next((o for o in rows if o["impl"] == "sdpa-cudnn" and all(
            o[c] == r[c] for c in ("dtype", "causal", "s"))), {})
        hosts = ["-" if x is None else f"{x:.0f}" for x in (r.get("host_us"), cudnn.get("host_us"))]
        print(f"{r['dtype']:<9}{'causal' if r['causal'] else 'full':<7}{r['s']:>6}  "
              f"{text[0]:>12} {text[1]:>9} {text[2]:>9}  {text[3]:>8} {text[4]:>9} {text[5]:>9}"
              f"  {hosts[0]:>8} {hosts[1]:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
