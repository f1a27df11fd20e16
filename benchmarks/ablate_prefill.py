"""Where the fused prefill's time goes: kernel variants that leave one stage
out (or do it twice), timed against the kernel as it is and cuDNN, one run.

Each variant is a source edit of ``kernels/_row_tile.py`` (``FILE``), the
fused prefill's row tile, planted the way the
mutation runner plants a bug (``properties.mutation.runner.apply``) into a
copy of the package, and timed in its own process, each with its own
autotuning over the prefill's tile table.  The answers of a variant are
wrong by design; only its time means anything.  Differences between times
place the work inside one kernel without hardware counters: if the kernel
without its exponentials is as fast as cuDNN, the exponentials are the gap.
Points: bf16, B = 4, Hq = 16, Hkv = 8, D = 128, S = Sq = Sk.

    python benchmarks/ablate_prefill.py [--quick] [--out DIR] [--variants a,b]

Prints one line per (variant, point): TFLOP/s (4 * D FLOPs per visible
(query, key) pair and head), the ratio to the kernel as it is and to cuDNN.
Writes ``ablate_prefill_<gpu>.json`` under ``--out`` (default
``attnfuzz-records/`` in the current directory, ``_records.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Last on the path: a variant's process finds its edited copy (PYTHONPATH) first.
sys.path.append(str(ROOT))

B, HQ, HKV, D = 4, 16, 8, 128
POINTS = ((4096, False), (4096, True), (16384, False), (1024, False))
QUICK_POINTS = POINTS[:2]
# The kernel file the variants edit: the row tile's block step.
FILE = "_row_tile.py"

# The unmasked block step's exponentials, its whole softmax, the P @ V GEMM;
# and a candidate change, measured the same way.  (Q @ K^T cannot be left out
# alone: any stand-in for the logits that still reads K costs more than it.)
# Masked (diagonal and edge) blocks keep theirs: they are a small share of
# the work from S = 1k on.
_EXP = "        p = tl.math.exp2(qk * qk_scale - (m_new + p_shift)[:, None])\n"
_MAX = (
    "        if NEG_SCALE:\n"
    "            m_new = tl.maximum(m_i, tl.min(qk, 1) * qk_scale)\n"
    "        else:\n"
    "            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)\n"
)
_ALPHA = "        alpha = tl.math.exp2(m_i - m_new)\n    l_i ="
_WEIGHTS = "qk * qk_scale - (m_new + p_shift"
_PV = "    acc = tl.dot(p.to(v.dtype), v, acc, input_precision=PRECISION)\n"

# FlashAttention-4's offload of exponentials from the MUFU to the FMA units:
# half of each block's weights from a polynomial (2^x = 2^floor(x) * 2^frac,
# the fraction by Taylor to degree 6, the integer part added to the exponent).
_POLY = (
    "@triton.jit\ndef attend_block(",
    "@triton.jit\n"
    "def _exp2_poly(x):\n"
    "    x = tl.maximum(x, -126.0)\n"
    "    j = tl.floor(x)\n"
    "    f = x - j\n"
    "    p = 1.5403530e-4 * f + 1.3333558e-3\n"
    "    p = p * f + 9.6181291e-3\n"
    "    p = p * f + 5.5504109e-2\n"
    "    p = p * f + 2.4022651e-1\n"
    "    p = p * f + 6.9314718e-1\n"
    "    p = p * f + 1.0\n"
    "    bits = p.to(tl.int32, bitcast=True) + (j.to(tl.int32) << 23)\n"
    "    return bits.to(tl.float32, bitcast=True)\n\n\n"
    "@triton.jit\ndef attend_block(",
)
_HALF_POLY = (
    _EXP,
    f"        x = {_WEIGHTS})[:, None]\n"
    "        xa, xb = tl.split(tl.reshape(x, (x.shape[0], x.shape[1] // 2, 2)))\n"
    "        p = tl.reshape(tl.join(tl.math.exp2(xa), _exp2_poly(xb)), (x.shape[0], x.shape[1]))\n",
)

VARIANTS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "as is": ("the kernel unchanged", ()),
    "no exp": ("unmasked weights without exp2 (the FMA kept)",
               ((_EXP, "        p = qk * qk_scale - (m_new + p_shift)[:, None]\n"),)),
    "exp twice": ("unmasked weights with a second exp2 added (twice the MUFU work)",
                  ((_EXP, f"{_EXP}        p += tl.math.exp2({_WEIGHTS} + 1.0)[:, None])\n"),)),
    "no softmax": ("unmasked blocks: no row max, no exp2, no rescale; the two GEMMs and loads",
                   ((_MAX, "        m_new = m_i\n"),
                    (_EXP, "        p = qk\n"),
                    (_ALPHA, "        alpha = tl.full(m_i.shape, 1.0, tl.float32)\n    l_i ="))),
    "no PV": ("no V loads and no P @ V GEMM (row sums of P added instead)",
              ((_PV, "    acc = acc + tl.sum(p, 1)[:, None]\n"),)),
    "half poly": ("unmasked blocks: half the weights from an FMA polynomial instead of exp2",
                  (_POLY, _HALF_POLY)),
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from _records import add_out_argument

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="two points (S = 4k, causal and not)")
    p.add_argument("--variants", default=",".join(VARIANTS),
                   help=f"comma-separated, of: {', '.join(VARIANTS)}")
    add_out_argument(p)
    p.add_argument("--worker", help=argparse.SUPPRESS)  # a variant's own process
    p.add_argument("--points", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def _flops(s: int, causal: bool) -> float:
    pairs = s * (s + 1) / 2 if causal else s * s
    return 4.0 * D * pairs * B * HQ


def _time_points(points: tuple[tuple[int, bool], ...], *, with_cudnn: bool) -> list[dict]:
    """Time ``attnfuzz.kernels.flash_attention`` (whichever copy is first on the
    path) and, if asked, SDPA's cuDNN backend at each point."""
    import torch
    import torch.nn.functional as F
    import triton
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from attnfuzz import kernels

    flash_attention = kernels.flash_attention

    def calls(s: int, causal: bool) -> dict:
        g = torch.Generator(device="cuda").manual_seed(0)
        q = torch.randn(B, HQ, s, D, device="cuda", dtype=torch.bfloat16, generator=g)
        k = torch.randn(B, HKV, s, D, device="cuda", dtype=torch.bfloat16, generator=g)
        v = torch.randn(B, HKV, s, D, device="cuda", dtype=torch.bfloat16, generator=g)

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)

        fns = {"triton": lambda: flash_attention(q, k, v, causal=causal)}
        return {**fns, "cudnn": cudnn} if with_cudnn else fns

    rows = []
    for s, causal in points:
        for name, fn in calls(s, causal).items():
            fn()  # compile and tune outside the timed region
            torch.cuda.synchronize()
            ms = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
            rows.append({"impl": name, "S": s, "causal": causal, "ms": ms,
                         "TFLOP/s": _flops(s, causal) / ms / 1e9, "kernels": kernels.__file__})
    return rows


def _run_variant(name: str, points: tuple[tuple[int, bool], ...]) -> list[dict]:
    from attnfuzz.properties.mutation.mutant import mutant
    from attnfuzz.properties.mutation.runner import apply

    edits = VARIANTS[name][1]
    with tempfile.TemporaryDirectory(prefix="attnfuzz-ablate-") as tmp:
        if edits:
            apply(mutant(name, FILE, edits, VARIANTS[name][0], ()), Path(tmp))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([tmp if edits else str(ROOT),
                                             env.get("PYTHONPATH", "")])
        env["ATTNFUZZ_TUNING_CACHE"] = "0"  # variants share the tuning keys of the real kernel
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name,
               "--points", json.dumps(points)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("[")]
        if proc.returncode != 0 or not lines:
            print(f"{name}: failed\n{(proc.stderr or proc.stdout)[-1500:]}", flush=True)
            return []
        rows = json.loads(lines[-1])
        if edits and not all(r["kernels"].startswith(tmp) for r in rows):
            raise RuntimeError(f"{name}: timed {rows[0]['kernels']}, not the copy under {tmp}")
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        points = tuple((s, c) for s, c in json.loads(args.points))
        print(json.dumps(_time_points(points, with_cudnn=args.worker == "as is")))
        return 0
    from _gpu import missing_gpu

    if (why := missing_gpu()) is not None:
        print(why)
        return 2
    import torch

    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        print(f"--variants: unknown {unknown}; expected some of {list(VARIANTS)}")
        return 2
    points = QUICK_POINTS if args.quick else POINTS
    names = ["as is", *(n for n in names if n != "as is")]
    results: dict[str, list[dict]] = {}
    for name in names:
        results[name] = _run_variant(name, points)
        base = {(r["S"], r["causal"]): r for r in results["as is"] if r["impl"] == "triton"}
        peer = {(r["S"], r["causal"]): r for r in results["as is"] if r["impl"] == "cudnn"}
        for r in results[name]:
            key = (r["S"], r["causal"])
            ratios = "" if r["impl"] == "cudnn" or key not in base else (
                f"  vs as-is {base[key]['ms'] / r['ms']:.2f}x"
                f"  vs cuDNN {peer[key]['ms'] / r['ms']:.2f}x" if key in peer else "")
            label = "cuDNN" if r["impl"] == "cudnn" else name
            print(f"{label:<11} S={r['S']:<6} causal={r['causal']!s:<5} {r['ms']:8.3f} ms"
                  f" {r['TFLOP/s']:7.1f} TFLOP/s{ratios}", flush=True)
    gpu = re.sub(r"[^A-Za-z0-9]+", "_", torch.cuda.get_device_name()).strip("_")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"ablate_prefill_{gpu}.json"
    path.write_text(json.dumps({
        "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
        "cudnn": torch.backends.cudnn.version(),
        "shape": {"B": B, "Hq": HQ, "Hkv": HKV, "D": D, "dtype": "bfloat16"},
        "timing": "triton.testing.do_bench, median, warmup 25 ms, rep 100 ms",
        "variants": {n: VARIANTS[n][0] for n in names}, "rows": results,
    }, indent=2))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
