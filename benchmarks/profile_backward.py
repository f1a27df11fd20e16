"""Where a training step's time goes: ours against cuDNN, kernel by kernel.

For each point (bf16, B = 4, Hq = 16, Hkv = 8, D = 128, as
``bench_backward.py``): the forward + backward step's median time
(``triton.testing.do_bench``) for ``flash_attention`` and SDPA's cuDNN
backend; then, for ours, the step's kernels under ``torch.profiler`` (each
kernel's GPU time per step) and the host's time to issue one step (the
calls returned, nothing synchronised).  A step whose kernels add up to far
less than its time waits on the host or on gaps between launches; one
whose kernels add up to it is as fast as its kernels.

Usage (repository root, on a GPU machine)::

    python benchmarks/profile_backward.py [--seqs 1024,4096] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

B, HQ, HKV, D = 4, 16, 8, 128
STEPS = 20  # steps profiled, and steps issued for the host's time


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from _records import add_out_argument

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seqs", default="1024,4096",
                   help="comma-separated sequence lengths (default 1024,4096)")
    p.add_argument("--host", type=int, default=0, metavar="N",
                   help="also print the N Python functions where issuing our step spends "
                   "the most time (cProfile, internal time)")
    add_out_argument(p)
    args = p.parse_args(argv)
    try:
        args.seqs = [int(s) for s in args.seqs.split(",")]
    except ValueError:
        p.error(f"--seqs: comma-separated integers, got {args.seqs!r}")
    if not args.seqs or min(args.seqs) < 1:
        p.error("--seqs: positive lengths")
    return args


def steps(torch, q, k, v, do, causal: bool) -> dict:
    """name -> a function running one forward + backward step."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from attnfuzz.kernels import flash_attention

    group = HQ // HKV

    def ours():
        torch.autograd.grad(flash_attention(q, k, v, causal=causal), (q, k, v), do)

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            out = F.scaled_dot_product_attention(
                q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1),
                is_causal=causal)
        torch.autograd.grad(out, (q, k, v), do)

    return {"triton-flash": ours, "sdpa-cudnn": cudnn}


def kernel_times(torch, fn) -> dict[str, float]:
    """Each kernel's GPU milliseconds per step, over ``STEPS`` profiled steps."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(STEPS):
            fn()
        torch.cuda.synchronize()
    per: dict[str, float] = defaultdict(float)
    for event in prof.key_averages():
        gpu_us = getattr(event, "device_time_total", None) or getattr(event, "cuda_time_total", 0)
        if gpu_us and event.key:
            per[event.key[:60]] += gpu_us / 1e3 / STEPS
    return dict(sorted(per.items(), key=lambda kv: -kv[1]))


def host_ms(torch, fn) -> float:
    """Milliseconds the host takes to issue one step (no synchronisation
    inside; the queue is drained before and after)."""
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(STEPS):
        fn()
    issued = time.perf_counter() - t0
    torch.cuda.synchronize()
    return issued / STEPS * 1e3


def host_profile(fn, top: int) -> None:
    """The ``top`` functions by their own time over ``STEPS`` issued steps."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(STEPS):
        fn()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from _gpu import missing_gpu

    if (why := missing_gpu()) is not None:
        print(why)
        return 2
    import torch
    import triton

    gen = torch.Generator(device="cuda").manual_seed(0)
    rows = []
    for s in args.seqs:
        for causal in (True, False):
            q, k, v = (torch.randn(B, h, s, D, device="cuda", dtype=torch.bfloat16,
                                   generator=gen).requires_grad_() for h in (HQ, HKV, HKV))
            do = torch.randn(B, HQ, s, D, device="cuda", dtype=torch.bfloat16, generator=gen)
            row = {"s": s, "causal": causal}
            for name, fn in steps(torch, q, k, v, do, causal).items():
                fn()
                torch.cuda.synchronize()
                row[f"{name}_ms"] = triton.testing.do_bench(fn, warmup=25, rep=100,
                                                            return_mode="median")
                if name == "triton-flash":
                    row["host_ms"] = host_ms(torch, fn)
                    row["kernels_ms"] = kernel_times(torch, fn)
            rows.append(row)
            kernels = row["kernels_ms"]
            busy = sum(kernels.values())
            print(f"S={s} {'causal' if causal else 'full'}: ours {row['triton-flash_ms']:.3f} ms, "
                  f"cuDNN {row['sdpa-cudnn_ms']:.3f} ms "
                  f"({row['sdpa-cudnn_ms'] / row['triton-flash_ms']:.2f}x); ours' kernels "
                  f"{busy:.3f} ms, host issue {row['host_ms']:.3f} ms", flush=True)
            for name, ms in kernels.items():
                print(f"    {ms:8.3f} ms  {100 * ms / row['triton-flash_ms']:5.1f}%  {name}")
            if args.host:
                host_profile(steps(torch, q, k, v, do, causal)["triton-flash"], args.host)
    gpu = torch.cuda.get_device_name()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"profile_backward_{re.sub(r'[^A-Za-z0-9]+', '_', gpu).strip('_')}.json"
    path.write_text(json.dumps({"gpu": gpu, "torch": torch.__version__,
                                "triton": triton.__version__, "rows": rows}, indent=2))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
