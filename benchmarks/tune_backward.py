"""Sweep the fused backward's tiles on one GPU: each kernel's candidates timed alone.

The dK/dV kernel's candidates are timed with the dQ kernel left out
(``needs=(False, True, True)``) and the dQ kernel's with dK/dV left out, each
at the default tiles of the other; both include the preprocessing kernel,
which the dQ tiles shape.  SDPA's flash and cuDNN backwards are timed in the
same run, so each candidate reads as a share of a peer's time.  Every
candidate's gradients are compared with the first candidate's (a sanity
check against a tile shape the kernel mishandles; the property tests are the
correctness check of whatever the table holds).  On the H200 the difference
is 0: each accumulation runs along its rows in the same order whatever the
tile, so tiles change no bit there.

Compiling dominates a sweep, so ``--jobs`` processes compile every candidate
first (Triton's on-disk cache keeps them), and one process then times them.

    python benchmarks/tune_backward.py [--seqs 4096] [--jobs 12] [--tma on] [--out FILE.json]

Shapes are Qwen3-like, as ``bench_backward.py``'s: B = 4, Hq = 16, Hkv = 8, D = 128.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

B, HQ, HKV, D = 4, 16, 8, 128
DEVICE = "cuda"
# (BLOCK_M, BLOCK_N, num_warps, num_stages).  dK/dV: BLOCK_N keys per
# program, BLOCK_M query rows a step; dQ: BLOCK_M rows per program, BLOCK_N
# keys a step.
DKDV = [(16, 128, 8, 2), (16, 128, 8, 3), (16, 128, 4, 2), (32, 128, 8, 2), (32, 128, 8, 3),
        (32, 128, 4, 2), (64, 128, 8, 2), (32, 64, 4, 2), (32, 64, 4, 3), (64, 64, 4, 2),
        (64, 64, 4, 3), (64, 64, 8, 2), (16, 64, 4, 3), (128, 64, 8, 2), (128, 128, 8, 2)]
DQ = [(64, 64, 8, 2), (64, 64, 4, 2), (64, 64, 4, 3), (128, 64, 8, 2), (128, 64, 8, 3),
      (128, 32, 8, 2), (128, 32, 4, 3), (64, 32, 4, 3), (128, 128, 8, 2), (64, 128, 8, 2),
      (64, 128, 4, 2), (128, 32, 8, 3)]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seqs", default="4096", help="comma-separated sequence lengths")
    p.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16"))
    p.add_argument("--jobs", type=int, default=8, help="compiling processes")
    p.add_argument("--rep", type=int, default=100, help="do_bench's rep, in ms")
    p.add_argument("--tma", choices=("auto", "on", "off"), default="auto",
                   help="the kernels' loads: through TMA descriptors (on), pointers (off), "
                   "or as launch_backward chooses (auto)")
    p.add_argument("--out", type=Path, help="write the rows as JSON here")
    p.add_argument("--worker", help=argparse.SUPPRESS)  # "i/n": compile every n-th job from i
    return p.parse_args(argv)


def jobs(seqs: list[int]) -> list[tuple[str, tuple[int, ...], bool, int]]:
    return [(kind, cfg, causal, s) for s in seqs for causal in (False, True)
            for kind, table in (("dkdv", DKDV), ("dq", DQ)) for cfg in table]


def setup(torch, dtype, s: int, causal: bool):
    """Inputs and the forward's output and LSE of one point (seeded, on the GPU)."""
    from attnfuzz.kernels import flash_attention

    gen = torch.Generator(device=DEVICE).manual_seed(s + causal)
    q, k, v = (torch.randn(B, h, s, D, device=DEVICE, dtype=dtype, generator=gen)
               for h in (HQ, HKV, HKV))
    do = torch.randn(B, HQ, s, D, device=DEVICE, dtype=dtype, generator=gen)
    out, lse = flash_attention(q, k, v, causal=causal, return_lse=True)
    return q, k, v, do, out, lse


TMA = {"auto": None, "on": True, "off": False}


def backward(torch, point, kind: str, cfg: tuple[int, ...], causal: bool, tma: str = "auto"):
    """A function running the chosen kernel (and the preprocessing) at ``cfg``."""
    from attnfuzz.kernels._checks import check_attention_inputs
    from attnfuzz.kernels._tiles import Config
    from attnfuzz.kernels.flash_backward import BackwardConfig, backward_config, launch_backward

    q, k, v, do, out, lse = point
    dims = check_attention_inputs(q, k, v, causal=causal, scale=None, alignment="bottom_right")
    default = backward_config(q.dtype, "ieee", D, D)
    config = (BackwardConfig(Config(*cfg), default.dq) if kind == "dkdv"
              else BackwardConfig(default.dkdv, Config(*cfg)))
    needs = (False, True, True) if kind == "dkdv" else (True, False, False)
    return lambda: launch_backward(do, q, k, v, out, lse, dims, causal=causal,
                                   precision="ieee", needs=needs, config=config, tma=TMA[tma])


def peers(torch, point, causal: bool) -> dict:
    """SDPA's flash and cuDNN backwards at the point, as functions of nothing."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    q, k, v, do, _, _ = point
    made = {}
    for name, chosen in (("sdpa-flash", SDPBackend.FLASH_ATTENTION),
                         ("sdpa-cudnn", SDPBackend.CUDNN_ATTENTION)):
        leaves = [t.detach().clone().requires_grad_() for t in (q, k, v)]
        try:
            with sdpa_kernel(chosen):
                o = F.scaled_dot_product_attention(*leaves, is_causal=causal, enable_gqa=True)
        except RuntimeError:
            continue
        made[name] = (lambda o=o, leaves=leaves:
                      torch.autograd.grad(o, leaves, do, retain_graph=True))
    return made


def compile_worker(args: argparse.Namespace, todo: list) -> int:
    import torch

    dtype = getattr(torch, args.dtype)
    i, n = map(int, args.worker.split("/"))
    points = {}
    for kind, cfg, causal, s in todo[i::n]:
        if (s, causal) not in points:
            points[(s, causal)] = setup(torch, dtype, s, causal)
        try:
            backward(torch, points[(s, causal)], kind, cfg, causal, args.tma)()
        except Exception as e:  # the timing pass reports it
            print(f"{kind} {cfg}: {type(e).__name__}: {str(e).splitlines()[0][:120]}", flush=True)
    torch.cuda.synchronize()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from _gpu import missing_gpu

    if (why := missing_gpu("this sweep")) is not None:
        print(why)
        return 2
    import torch

    seqs = [int(s) for s in args.seqs.split(",")]
    todo = jobs(seqs)
    if args.worker:
        return compile_worker(args, todo)
    import triton

    procs = [subprocess.Popen([sys.executable, __file__, *(argv or sys.argv[1:]),
                               "--worker", f"{i}/{args.jobs}"]) for i in range(args.jobs)]
    for p in procs:
        p.wait()
    dtype = getattr(torch, args.dtype)
    rows = []
    for s in seqs:
        for causal in (False, True):
            point = setup(torch, dtype, s, causal)
            timed = {}
            for name, fn in peers(torch, point, causal).items():
                fn()
                timed[name] = triton.testing.do_bench(fn, warmup=25, rep=args.rep,
                                                      return_mode="median")
            ref = {kind: backward(torch, point, kind, table[0], causal, args.tma)()
                   for kind, table in (("dkdv", DKDV), ("dq", DQ))}
            for kind, table in (("dkdv", DKDV), ("dq", DQ)):
                for cfg in table:
                    row = {"s": s, "causal": causal, "kernel": kind, "config": list(cfg),
                           **{f"{n}_ms": ms for n, ms in timed.items()}}
                    try:
                        fn = backward(torch, point, kind, cfg, causal, args.tma)
                        got = fn()
                        # Largest difference from the default tiles, per max |default|.
                        row["diff"] = max(
                            ((g.float() - r.float()).abs().max() / r.float().abs().max()).item()
                            for g, r in zip(got, ref[kind], strict=True) if r is not None)
                        row["ms"] = triton.testing.do_bench(fn, warmup=25, rep=args.rep,
                                                            return_mode="median")
                    except Exception as e:
                        row["note"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    print(f"\n{'S':>6} {'mask':<6} {'kernel':<5} {'config':<16} {'ms':>8} {'diff':>9}"
          f"  (sdpa-flash, sdpa-cudnn backward ms)")
    for r in rows:
        m, n, w, st = r["config"]
        cells = (f"{r['ms']:8.3f}" if "ms" in r else f"{'-':>8}",
                 f"{r['diff']:9.1e}" if "diff" in r else r.get("note", ""))
        peers_ms = ", ".join(f"{r[k]:.3f}" for k in ("sdpa-flash_ms", "sdpa-cudnn_ms") if k in r)
        print(f"{r['s']:>6} {'causal' if r['causal'] else 'full':<6} {r['kernel']:<5} "
              f"{f'{m}/{n} w{w} s{st}':<16} {cells[0]} {cells[1]:>9}  ({peers_ms})")
    if args.out:
        args.out.write_text(json.dumps({"gpu": torch.cuda.get_device_name(), "tma": args.tma,
                                        "torch": torch.__version__,
                                        "triton": triton.__version__, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
