"""Benchmark the Triton attention kernels against PyTorch on one GPU, in one run.

Implementations, all timed in the same process with ``triton.testing.do_bench``
(median of repeated runs, L2 cleared between runs):

* ``triton-flash``: ``attnfuzz.kernels.flash_attention`` (on an sm_90 GPU the
  Hopper prefill kernel, elsewhere the portable one; the split-K decode kernel
  for Sq = 1), GQA read in place.
* ``triton-portable``: ``flash_prefill``, the portable kernel, at the prefill
  points where ``triton-flash`` ran the Hopper kernel.
* ``sdpa-flash``, ``sdpa-cudnn``, ``sdpa-efficient``:
  ``torch.nn.functional.scaled_dot_product_attention`` pinned to one backend
  with ``torch.nn.attention.sdpa_kernel``.  GQA goes through ``enable_gqa=True``
  where the backend accepts it ("gqa"), else K and V are repeat_interleave'd to
  Hq heads before timing ("expanded": the kernel then reads Hq/Hkv times the
  K/V bytes).  The mode used is recorded per point.
* ``eager``: matmul, softmax, matmul in the input dtype (scores materialised;
  GQA by broadcasting, no copy).  Skipped above S = 8192 (memory and time).
* ``copy-kv`` (decode points): a device copy of K and V, the memory ceiling
  measured in the same run (rated on bytes read + written).
* ``triton-naive``: ``attnfuzz.kernels.naive_attention`` (three kernels,
  fp32 scores) at S = 1024 and 2048 only.

Short points (prefill S <= 2048, every decode point) also time Triton flash and
each SDPA backend as CUDA-graph replays (mode ``...+graph``, compared with
sdpa-flash's replay): GPU time without the host's per-call cost, whose value
per call (``host_us``) goes in the note.  The gap between a stream and a graph
row says how much of a short point is launch overhead.

Work: prefill FLOPs are ``4 * B * Hq * Sq * Sk * D`` (two matmuls), halved for
causal; decode (Sq = 1) is reported as bytes of K and V read (``2 * B * Hkv *
Sk * D * itemsize``) per second, the memory floor of one decode step.

Shapes are Qwen3-like: B = 4, Hq = 16, Hkv = 8, D = 128.

Usage (repository root, on a GPU machine; the script sets nothing about
clocks)::

    python benchmarks/bench_attention.py [--quick] [--out DIR]

Writes ``attention_<gpu>.json`` and ``attention_<gpu>.png`` under ``--out``
(default ``attnfuzz-records/`` in the current directory, ``_records.py``) and
prints the table last.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

B, HQ, HKV, D = 4, 16, 8, 128
PREFILL_S = (1024, 2048, 4096, 8192, 16384)
DECODE_SK = (4096, 32768, 131072)
NAIVE_S = (1024, 2048)
EAGER_MAX_S = 8192
GRAPH_MAX_S = 2048  # prefill points also timed as CUDA-graph replays
QUICK_PREFILL_S = (1024, 4096)
QUICK_DECODE_SK = (4096, 32768)


def flash_module():
    """The fused kernels' module, ``attnfuzz.kernels.flash``."""
    return importlib.import_module("attnfuzz.kernels.flash")


def per_call_us(fn: Callable[[], object], calls: int) -> tuple[float, float]:
    """(host time to issue one call, wall time per call) in microseconds, over
    ``calls`` calls issued back to back with no synchronisation between them."""
    import time

    import torch

    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    t2 = time.perf_counter()
    return (t1 - t0) / calls * 1e6, (t2 - t0) / calls * 1e6


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    from _records import add_out_argument

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer points and shorter timing")
    add_out_argument(p)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from _gpu import missing_gpu

    if (why := missing_gpu()) is not None:
        print(why)
        return 2

    bench = Bench(quick=args.quick)
    bench.run_all()
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"attention_{bench.gpu_slug}"
    json_path = args.out / f"{stem}.json"
    json_path.write_text(json.dumps(bench.report(), indent=2))
    png_path = args.out / f"{stem}.png"
    plot_message = plot(bench.rows, png_path, bench.gpu)
    print(f"\nwrote {json_path}")
    print(plot_message)
    print()
    print(format_table(bench.rows))
    return 0


class Bench:
    """Runs every point and keeps one row (a dict) per (point, implementation)."""

    def __init__(self, *, quick: bool) -> None:
        import torch
        import triton

        self.torch = torch
        self.triton = triton
        self.quick = quick
        self.device = torch.device("cuda")
        self.gpu = torch.cuda.get_device_name(self.device)
        self.gpu_slug = re.sub(r"[^A-Za-z0-9]+", "_", self.gpu).strip("_")
        self.rows: list[dict] = []
        self.rep_ms = 30 if quick else 100

    # ----------------------------------------------------------------- timing

    def time_ms(self, fn: Callable[[], object]) -> float:
        fn()  # compile / autotune outside the timed region
        self.torch.cuda.synchronize()
        return float(
            self.triton.testing.do_bench(fn, warmup=25, rep=self.rep_ms, return_mode="median")
        )

    def graph_ms(self, fn: Callable[[], object]) -> float:
        """GPU time alone: ``fn`` captured in a CUDA graph and replayed, so the
        host's launch cost (Python, argument binding) drops out."""
        fn()
        self.torch.cuda.synchronize()
        return float(self.triton.testing.do_bench_cudagraph(fn, rep=self.rep_ms,
                                                            return_mode="median"))

    def host_us(self, fn: Callable[[], object], calls: int = 200) -> float:
        """Host time per call when calls are issued back to back: when it
        exceeds the GPU time, stream timing measures the host, not the kernel."""
        return per_call_us(fn, calls)[0]

    def record(self, point: dict, impl: str, mode: str, fn: Callable[[], object] | None,
               work: float, unit: str, note: str = "", *, graph: bool = False) -> None:
        """Time ``fn`` and append a row; errors (unsupported, OOM) become a row too.

        ``graph``: time the CUDA-graph replay instead (mode gets a ``+graph``
        suffix) and note the host time per call.
        """
        if graph:
            mode += "+graph"
        row = {**point, "impl": impl, "mode": mode, "ms": None, unit: None, "note": note}
        if fn is not None:
            try:
                if graph:
                    ms = self.graph_ms(fn)
                    row["host_us"] = self.host_us(fn)
                    row["note"] = f"host {row['host_us']:.0f} us/call; {note}".rstrip("; ")
                else:
                    ms = self.time_ms(fn)
                row["ms"] = ms
                row[unit] = work / (ms * 1e-3) / 1e12
            except Exception as e:  # a failed backend is a result, not a crash
                row["note"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
                self.torch.cuda.empty_cache()
        self.rows.append(row)
        shown = "-" if row[unit] is None else f"{row[unit]:.1f} {unit}"
        print(f"  {impl:<15} {mode:<9} {shown:>16}  {row['note']}", flush=True)

    # ------------------------------------------------------------ SDPA helpers

    def sdpa_fn(self, backend: object, q, k, v, *, causal: bool):
        """A closure running SDPA on ``backend`` and its GQA mode, or (None, reason)."""
        import torch.nn.functional as F
        from torch.nn.attention import sdpa_kernel

        torch = self.torch
        group = q.shape[1] // k.shape[1]

        def make(kk, vv, gqa: bool):
            def fn():
                with sdpa_kernel(backend):
                    return F.scaled_dot_product_attention(q, kk, vv, is_causal=causal,
                                                          enable_gqa=gqa)

            return fn

        reasons = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                fn = make(k, v, True)
                fn()
                torch.cuda.synchronize()
                return fn, "gqa", None
            except Exception as e:  # "No available kernel", NotImplementedError, ...
                reasons.append(str(e).splitlines()[0][:80])
            try:
                ke = k.repeat_interleave(group, dim=1)
                ve = v.repeat_interleave(group, dim=1)
                fn = make(ke, ve, False)
                fn()
                torch.cuda.synchronize()
                return fn, "expanded", None
            except Exception as e:
                reasons.append(str(e).splitlines()[0][:80])
        torch.cuda.empty_cache()
        return None, "-", "; ".join(dict.fromkeys(reasons))

    def eager_fn(self, q, k, v, *, causal: bool):
        torch = self.torch
        b, hq, sq, d = q.shape
        hkv, sk = k.shape[1], k.shape[2]
        scale = d**-0.5
        qg = q.view(b, hkv, hq // hkv, sq, d)
        kt = k.unsqueeze(2).transpose(-1, -2)
        vg = v.unsqueeze(2)
        hidden = None
        if causal:
            i = torch.arange(sq, device=q.device)[:, None]
            j = torch.arange(sk, device=q.device)[None, :]
            hidden = j > i + (sk - sq)  # bottom-right, as flash_attention's default

        def fn():
            s = torch.matmul(qg, kt) * scale
            if hidden is not None:
                s.masked_fill_(hidden, float("-inf"))
            p = torch.softmax(s, dim=-1)
            return torch.matmul(p, vg).view(b, hq, sq, -1)

        return fn

    # ------------------------------------------------------------------ points

    def backends(self) -> list[tuple[str, object]]:
        from torch.nn.attention import SDPBackend

        out = []
        for name, attr in (("sdpa-flash", "FLASH_ATTENTION"), ("sdpa-cudnn", "CUDNN_ATTENTION"),
                           ("sdpa-efficient", "EFFICIENT_ATTENTION")):
            if hasattr(SDPBackend, attr):
                out.append((name, getattr(SDPBackend, attr)))
        return out

    def inputs(self, dtype, sq: int, sk: int):
        torch = self.torch
        g = torch.Generator(device=self.device).manual_seed(0)
        q = torch.randn(B, HQ, sq, D, dtype=dtype, device=self.device, generator=g)
        k = torch.randn(B, HKV, sk, D, dtype=dtype, device=self.device, generator=g)
        v = torch.randn(B, HKV, sk, D, dtype=dtype, device=self.device, generator=g)
        return q, k, v

    def compare(self, point: dict, q, k, v, *, causal: bool, work: float, unit: str,
                describe: Callable[[], str]) -> None:
        """Time triton-flash and every SDPA backend on one input.

        The first working SDPA backend is also the reference for a max|diff|
        sanity check of the Triton output; ``describe`` adds what Triton ran.
        """
        fa = flash_module()

        def ours():
            return fa.flash_attention(q, k, v, causal=causal)

        ref = None
        sdpa = []
        for name, backend in self.backends():
            fn, mode, why = self.sdpa_fn(backend, q, k, v, causal=causal)
            sdpa.append((name, fn, mode, why))
            if ref is None and fn is not None:
                ref = fn()
        note = ""
        try:
            out = ours()
            if ref is not None:
                note = f"max|diff| vs SDPA {(out.float() - ref.float()).abs().max().item():.2e}"
            note += describe()
        except Exception as e:
            note = f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
        del ref
        self.record(point, "triton-flash", "gqa", ours, work, unit, note)
        for name, fn, mode, why in sdpa:
            self.record(point, name, mode, fn, work, unit, why or "")
        if point["kind"] == "decode" or point["Sq"] <= GRAPH_MAX_S:
            # Short launches: is the gap to SDPA the kernel or the host?
            self.record(point, "triton-flash", "gqa", ours, work, unit, graph=True)
            for name, fn, mode, _ in sdpa:
                if fn is not None:
                    self.record(point, name, mode, fn, work, unit, graph=True)

    def prefill_point(self, dtype, s: int, causal: bool) -> None:
        from attnfuzz.kernels._checks import check_attention_inputs

        fa = flash_module()
        dname = str(dtype).removeprefix("torch.")
        print(f"prefill {dname} causal={causal} S={s}", flush=True)
        point = {"kind": "prefill", "dtype": dname, "causal": causal, "B": B, "Hq": HQ,
                 "Hkv": HKV, "Sq": s, "Sk": s, "D": D}
        flops = 4.0 * B * HQ * s * s * D * (0.5 if causal else 1.0)
        q, k, v = self.inputs(dtype, s, s)
        dims = check_attention_inputs(q, k, v, causal=causal, scale=None, alignment="bottom_right")
        hopper = fa.uses_hopper_path(q, dims, None)

        def describe() -> str:
            if hopper:
                return "; Hopper kernel (hopper_prefill.py)"
            tuned = getattr(fa._flash_fwd_tuned, "best_config", None)
            if not fa._autotuning(s, s) or tuned is None:
                return "; untuned default config"
            kw = tuned.kwargs
            return (f"; tuned BLOCK_M/N {kw['BLOCK_M']}/{kw['BLOCK_N']} "
                    f"w{tuned.num_warps} s{tuned.num_stages}")

        self.compare(point, q, k, v, causal=causal, work=flops, unit="TFLOP/s", describe=describe)
        if hopper:  # triton-flash ran the Hopper kernel: the portable one beside it
            self.record(point, "triton-portable", "gqa",
                        lambda: fa.flash_prefill(q, k, v, causal=causal), flops, "TFLOP/s")
        if s <= EAGER_MAX_S:
            self.record(point, "eager", "gqa", self.eager_fn(q, k, v, causal=causal), flops,
                        "TFLOP/s")
        else:
            self.record(point, "eager", "-", None, flops, "TFLOP/s", f"skipped: S > {EAGER_MAX_S}")
        if s in NAIVE_S:
            from attnfuzz.kernels import naive_attention

            def naive():
                return naive_attention(q, k, v, causal=causal)

            self.record(point, "triton-naive", "gqa", naive, flops, "TFLOP/s")

    def decode_point(self, dtype, sk: int) -> None:
        from attnfuzz.kernels._checks import check_attention_inputs

        fa = flash_module()
        dname = str(dtype).removeprefix("torch.")
        print(f"decode {dname} Sq=1 Sk={sk}", flush=True)
        point = {"kind": "decode", "dtype": dname, "causal": False, "B": B, "Hq": HQ,
                 "Hkv": HKV, "Sq": 1, "Sk": sk, "D": D}
        kv_bytes = 2.0 * B * HKV * sk * D * self.torch.finfo(dtype).bits / 8
        q, k, v = self.inputs(dtype, 1, sk)

        def describe() -> str:
            if not fa.uses_decode_path(1, sk):
                return "; prefill kernel"
            dims = check_attention_inputs(q, k, v, causal=False, scale=None,
                                          alignment="bottom_right")
            c = fa.decode_config(dtype, "ieee", D, D, HQ // HKV, 1)
            splits = fa.plan_splits(dims, sk, c.block_m, c.block_n, q.device)
            return (f"; decode BLOCK_M/N {c.block_m}/{c.block_n} w{c.num_warps} "
                    f"s{c.num_stages}, {splits} splits")

        self.compare(point, q, k, v, causal=False, work=kv_bytes, unit="TB/s", describe=describe)
        self.record(point, "eager", "gqa", self.eager_fn(q, k, v, causal=False), kv_bytes, "TB/s")
        # The memory ceiling in the same run: a device copy of K and V, rated on
        # the bytes it reads plus writes (how copy bandwidth is usually quoted).
        k2, v2 = self.torch.empty_like(k), self.torch.empty_like(v)

        def copy_kv():
            k2.copy_(k)
            v2.copy_(v)

        self.record(point, "copy-kv", "-", copy_kv, 2 * kv_bytes, "TB/s",
                    "device copy of K and V; rate = bytes read + written")

    def run_all(self) -> None:
        torch = self.torch
        prefill_s = QUICK_PREFILL_S if self.quick else PREFILL_S
        decode_sk = QUICK_DECODE_SK if self.quick else DECODE_SK
        print(f"GPU: {self.gpu}; torch {torch.__version__}; triton {self.triton.__version__}")
        for dtype in (torch.bfloat16, torch.float16):
            for causal in (False, True):
                for s in prefill_s:
                    self.prefill_point(dtype, s, causal)
                    torch.cuda.empty_cache()
            for sk in decode_sk:
                self.decode_point(dtype, sk)
                torch.cuda.empty_cache()

    def report(self) -> dict:
        torch = self.torch
        props = torch.cuda.get_device_properties(self.device)
        return {
            "gpu": self.gpu,
            "sm_count": props.multi_processor_count,
            "compute_capability": f"{props.major}.{props.minor}",
            "torch": torch.__version__,
            "triton": self.triton.__version__,
            "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(),
            "python": platform.python_version(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "quick": self.quick,
            "timing": "triton.testing.do_bench, return_mode='median', warmup 25 ms, "
            f"rep {self.rep_ms} ms, L2 cleared between runs; '+graph' rows: "
            "triton.testing.do_bench_cudagraph (median), host_us = host time per call "
            "over 200 calls issued back to back",
            "flops": "4*B*Hq*Sq*Sk*D, halved for causal prefill (same count for every impl)",
            "decode_bytes": "2*B*Hkv*Sk*D*itemsize: unique K and V bytes, whatever the mode",
            "autotune": os.environ.get("ATTNFUZZ_AUTOTUNE", "1"),
            "rows": self.rows,
        }


# ---------------------------------------------------------------------- output


def format_table(rows: list[dict]) -> str:
    """One line per row, with the ratio to sdpa-flash at the same point."""
    head = (f"{'kind':<8}{'dtype':<10}{'causal':<7}{'S/Sk':>7}  {'impl':<15}{'mode':<10}"
            f"{'ms':>9}{'rate':>10} {'unit':<8}{'/flash':>7}  note")
    lines = [head, "-" * len(head)]

    def key(r: dict) -> tuple:  # graph replays compare with graph replays
        return (r["kind"], r["dtype"], r["causal"], r["Sk"], r["mode"].endswith("+graph"))

    flash = {key(r): r for r in rows if r["impl"] == "sdpa-flash"}
    for r in rows:
        unit = "TFLOP/s" if r["kind"] == "prefill" else "TB/s"
        rate = r.get(unit)
        base = flash.get(key(r), {}).get(unit)
        ratio = f"{rate / base:.2f}x" if rate and base else "-"
        ms = f"{r['ms']:.3f}" if r["ms"] is not None else "-"
        shown = f"{rate:.2f}" if rate is not None else "-"
        lines.append(
            f"{r['kind']:<8}{r['dtype']:<10}{str(r['causal']):<7}{r['Sk']:>7}  {r['impl']:<15}"
            f"{r['mode']:<10}{ms:>9}{shown:>10} {unit:<8}{ratio:>7}  {r['note'][:90]}"
        )
    return "\n".join(lines)


def plot(rows: list[dict], path: Path, gpu: str) -> str:
    """TFLOP/s vs S per (dtype, causal), plus decode TB/s vs Sk; needs matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed: skipped the PNG (pip install matplotlib)"
    dtypes = sorted({r["dtype"] for r in rows})
    panels = [
        ("prefill", False, "TFLOP/s"),
        ("prefill", True, "TFLOP/s"),
        ("decode", False, "TB/s"),
    ]
    fig, axes = plt.subplots(len(dtypes), len(panels), figsize=(16, 4.5 * len(dtypes)),
                             squeeze=False)
    for i, dtype in enumerate(dtypes):
        for j, (kind, causal, unit) in enumerate(panels):
            ax = axes[i][j]
            sel = [r for r in rows if r["kind"] == kind and r["dtype"] == dtype
                   and r["causal"] == causal and r.get(unit) is not None
                   and not r["mode"].endswith("+graph")]
            for impl in dict.fromkeys(r["impl"] for r in sel):
                pts = sorted((r["Sk"], r[unit], r["mode"]) for r in sel if r["impl"] == impl)
                label = impl + (" (expanded KV)" if any(m == "expanded" for _, _, m in pts) else "")
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("S (Sq = Sk)" if kind == "prefill" else "Sk (Sq = 1)")
            ax.set_ylabel(unit)
            title = f"{kind} {dtype}" + (f" causal={causal}" if kind == "prefill" else "")
            ax.set_title(title)
            ax.grid(True, alpha=0.3)
            if sel:
                ax.legend(fontsize=8)
    fig.suptitle(f"Attention on {gpu}: B={B} Hq={HQ} Hkv={HKV} D={D}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return f"wrote {path}"


if __name__ == "__main__":
    sys.exit(main())
