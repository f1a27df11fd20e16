"""Host time per ``flash_attention`` call at the benchmark's short points (GPU).

A call that is shorter on the GPU than on the host is timed by the host:
stream timing then measures the launcher (input checks, plans, Triton's
argument binding) rather than the kernel.  This script issues calls back to
back and reports, per point, the host time to issue one call (no sync
inside the loop), the wall time per call (sync at the end), and
``do_bench``'s median for comparison.

    python benchmarks/host_cost.py                      # this checkout's kernels
    python benchmarks/host_cost.py --kernels-from DIR   # the kernels of another checkout

Run both in one session on an otherwise idle machine: host time varies a
lot between machines and with load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from bench_attention import per_call_us

ROOT = Path(__file__).resolve().parents[1]
# (B, Hq, Hkv, Sq, Sk, D): the benchmark's Qwen3 shapes at its short points.
POINTS = {
    "prefill S=1k": (4, 16, 8, 1024, 1024, 128),
    "decode Sk=4k": (4, 16, 8, 1, 4096, 128),
    "decode Sk=32k": (4, 16, 8, 1, 32768, 128),
}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--kernels-from", type=Path, default=ROOT,
        help="checkout whose kernels to time (default: this one)",
    )
    p.add_argument("--calls", type=int, default=300, help="calls per measurement")
    p.add_argument("--repeats", type=int, default=5, help="measurements per point (median)")
    args = p.parse_args(argv)
    import importlib

    import torch
    import triton

    root = args.kernels_from.resolve()
    sys.path.insert(0, str(root))
    # Checkouts before the attnfuzz package had a top-level kernels/flash_attention.py.
    module = "attnfuzz.kernels.flash" if (root / "attnfuzz").is_dir() else "kernels.flash_attention"
    fa = importlib.import_module(module)

    if not torch.cuda.is_available():
        print("host_cost needs a GPU")
        return 2
    print(f"kernels from {Path(fa.__file__).parent}")
    gen = torch.Generator(device="cuda").manual_seed(0)
    for name, (b, hq, hkv, sq, sk, d) in POINTS.items():
        q, k, v = (torch.randn(*s, generator=gen, device="cuda", dtype=torch.bfloat16)
                   for s in ((b, hq, sq, d), (b, hkv, sk, d), (b, hkv, sk, d)))

        def call(q=q, k=k, v=v):
            return fa.flash_attention(q, k, v)

        runs = [per_call_us(call, args.calls) for _ in range(args.repeats)]
        issue = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        bench = triton.testing.do_bench(call, warmup=25, rep=200, return_mode="median") * 1e3
        print(f"{name:14s} host {issue:6.1f} us/call  wall {wall:6.1f} us/call  "
              f"do_bench {bench:6.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
