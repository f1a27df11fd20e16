"""The Hopper prefill (``attnfuzz.kernels.hopper_prefill``): its versions, checked and timed.

The kernel's versions (``VERSIONS``; ``benchmarks/NOTES.md``, g1-g6) are
options of one kernel: causal masking, a consumer loop that overlaps each
block's softmax with the previous block's P @ V (with 3 stages), and a
persistent grid that streams its tiles' blocks; ``flash_attention`` uses the
pipelined loop, on the persistent grid where not causal.  Each is checked
against the fp32 answer (its error and LSE error next to the portable
kernel's) and timed against the portable kernel and cuDNN, at Sq = Sk from
512 to 16k and at ragged, unequal lengths.

    python benchmarks/gluon_prefill.py              # on an H100/H200: check, then time
    python benchmarks/gluon_prefill.py --compile [--version V]   # sm_90 code, no GPU
    python benchmarks/gluon_prefill.py --host-profile   # a short call's host time, by function
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from attnfuzz.kernels import flash_attention, flash_prefill  # noqa: E402
from attnfuzz.kernels._checks import AttentionDims, check_attention_inputs  # noqa: E402
from attnfuzz.kernels.flash import weight_shift  # noqa: E402
from attnfuzz.kernels.hopper_prefill import (  # noqa: E402
    _HOPPER,
    _attention_kernel,
    _leading,
    launch_hopper,
    launch_plan,
)

# (CAUSAL, PIPELINE, STAGES, PERSISTENT) of each version timed (NOTES, g3-g6).
VERSIONS = {"plain": (False, False, 2, False), "causal": (True, False, 2, False),
            "pipelined": (False, True, 3, False), "pipelined causal": (True, True, 3, False),
            "persistent": (False, True, 3, True)}


def run(version: str, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *,
        scale: float | None = None, return_lse: bool = False):
    """One version of the kernel on (B, H, S, 128) fp16/bf16 tensors, bottom-right causal."""
    causal, pipeline, stages, persistent = VERSIONS[version]
    dims = check_attention_inputs(q, k, v, causal=causal, scale=scale, alignment="bottom_right")
    out = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    lse = torch.empty(q.shape[:3], dtype=torch.float32, device=q.device) if return_lse else None
    launch_hopper(q, k, v, out, lse, dims, causal=causal,
                  p_shift=weight_shift(v.dtype, dims.sk), pipeline=pipeline, stages=stages,
                  persistent=persistent)
    return (out, lse) if return_lse else out


def compile_sm90(version: str = "plain", scale: float | None = None) -> dict:
    """Compile ``version`` for sm_90 without a GPU: registers, shared memory
    and a census of the SASS instructions that make it warp specialised."""
    import collections
    import re

    from triton.backends.compiler import GPUTarget
    from triton.compiler import make_backend
    from triton.experimental.gluon._runtime import GluonASTSource
    from triton.runtime.jit import create_function_from_signature

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from sm90_codegen import SM90, read_cubin

    target = GPUTarget(*SM90)
    backend = make_backend(target)
    q = torch.empty(1, 2, 256, 128, dtype=torch.bfloat16)
    k = torch.empty(1, 1, 256, 128, dtype=torch.bfloat16)
    lse = torch.empty(1, 2, 256, dtype=torch.float32)
    causal, pipeline, stages, persistent = VERSIONS[version]
    # Not check_attention_inputs: compiled, it refuses CPU tensors.
    dims = AttentionDims(1, 2, 1, 256, 256, 128, 128, 128**-0.5 if scale is None else scale, 0)
    _, args, meta = launch_plan(dims, causal=causal, store_lse=True, p_shift=8.0,
                                pipeline=pipeline, stages=stages, persistent=persistent, sms=132)
    kernel = _attention_kernel
    kwargs = {name: meta.pop(name) for name in ("num_warps", "maxnreg")}
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    out = torch.empty_like(q)
    leading = _leading((q, k, k, out, lse, out), False)
    bound, specialization, options = binder(*leading, *args, **meta, **kwargs)
    options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound,
                                                              specialization, options)
    compiled = triton.compile(GluonASTSource(kernel, signature, constexprs, attrs), target=target,
                              options=options.__dict__)
    usage, sass = read_cubin(compiled)
    ops = collections.Counter(re.findall(r"\b([A-Z][A-Z0-9]+)(?:\.[A-Z0-9.]+)?\b", sass))
    return {**usage,
            **{op: ops[op] for op in ("HGMMA", "UTMALDG", "USETMAXREG", "SYNCS", "BAR", "MUFU")}}


def _time_ms(fn) -> float:
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def _visible_pairs(sq: int, sk: int, causal: bool) -> int:
    if not causal:
        return sq * sk
    rows = torch.arange(sq, dtype=torch.int64) + (sk - sq)  # bottom-right diagonal
    return int((rows + 1).clamp(0, sk).sum())


def _max_err(got: torch.Tensor, ref: torch.Tensor) -> float:
    """max |got - ref|, equal infinities (an LSE of -inf) counting as 0."""
    got, ref = got.float(), ref.float()
    same = (got == ref) | (torch.isnan(got) & torch.isnan(ref))
    return float(torch.where(same, 0.0, (got - ref).abs().nan_to_num(float("inf"))).max())


def _point(dtype: torch.dtype, sq: int, sk: int, causal: bool, versions: list[str]) -> bool:
    """Each version of this causality at one point: its error (output and
    LSE) against the fp32 answer, and its time against the portable kernel's,
    ``flash_attention``'s (the whole call: checks, then the Hopper kernel) and
    cuDNN's."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(4, 16, sq, 128, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(4, 8, sk, 128, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(4, 8, sk, 128, device="cuda", dtype=dtype, generator=g)
    ref, ref_lse = flash_prefill(q.float(), k.float(), v.float(), causal=causal,
                                 return_lse=True)
    ours, ours_lse = flash_prefill(q, k, v, causal=causal, return_lse=True)
    err_portable, lse_err_portable = _max_err(ours, ref), _max_err(ours_lse, ref_lse)

    def cudnn():
        # SDPA's causal diagonal is top-left: the same as ours only when Sq == Sk.
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)

    t_portable = _time_ms(lambda: flash_prefill(q, k, v, causal=causal))
    t_auto = _time_ms(lambda: flash_attention(q, k, v, causal=causal))
    t_cudnn = _time_ms(cudnn) if sq == sk else float("nan")
    flops = 4 * 128 * 4 * 16 * _visible_pairs(sq, sk, causal)
    print(f"{'flash_attention':<17} {str(dtype)[6:]:<9} Sq={sq:<6} Sk={sk:<6} causal={causal!s:<5} "
          f"{t_auto:.3f} ms  vs portable {t_portable / t_auto:.2f}x  vs cuDNN "
          f"{t_cudnn / t_auto:.2f}x", flush=True)
    all_ok = True
    for name in versions:
        if VERSIONS[name][0] != causal:
            continue
        got, got_lse = run(name, q, k, v, return_lse=True)
        err, lse_err = _max_err(got, ref), _max_err(got_lse, ref_lse)
        # The same arithmetic as the portable kernel (fp32 scores and sums,
        # 16-bit P), in another order: its errors should be of the same size.
        ok = err <= 2 * err_portable + 1e-3 and lse_err <= 2 * lse_err_portable + 1e-4
        all_ok &= ok
        ms = _time_ms(lambda name=name: run(name, q, k, v))
        print(f"{name:<17} {str(dtype)[6:]:<9} Sq={sq:<6} Sk={sk:<6} max|err| {err:.2e} "
              f"(portable {err_portable:.2e}) lse {lse_err:.1e} ({lse_err_portable:.1e}) "
              f"{'ok' if ok else 'WRONG'}  {ms:.3f} ms {flops / ms / 1e9:.0f} TFLOP/s"
              f"  vs portable {t_portable / ms:.2f}x  vs cuDNN {t_cudnn / ms:.2f}x", flush=True)
    return all_ok


def host_profile(s: int = 1024, calls: int = 1000) -> None:
    """Where a short call's host time goes: each path's host time per call
    (calls issued back to back, bench_attention's ``per_call_us``), then
    cProfile of ``flash_attention``'s calls, the functions with the most own
    time first."""
    import cProfile
    import pstats

    import torch.nn.functional as F
    from bench_attention import per_call_us
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from triton.backends.nvidia.driver import make_tensordesc_arg

    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(4, 16, s, 128, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(4, 8, s, 128, device="cuda", dtype=torch.bfloat16, generator=g)

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(q, k, k, enable_gqa=True)

    dims = check_attention_inputs(q, k, k, causal=False, scale=None, alignment="bottom_right")
    out = torch.empty_like(q)
    shift = weight_shift(k.dtype, dims.sk)
    launch_hopper(q, k, k, out, None, dims, causal=False, p_shift=shift)
    # The replayed launch, peeled layer by layer: what each adds is the
    # difference between neighbouring rows.
    (kernel, grid, args, direct), = _HOPPER.entries.values()
    stream = torch.cuda.current_stream().cuda_stream
    descs = _leading((q, k, k, out, out, out), True)
    tensordesc_meta = kernel.metadata.tensordesc_meta

    def replay():
        kernel.run(*grid, stream, kernel.function, kernel.packed_metadata, None, None, None,
                   *descs, *args)

    def replay_entry():
        direct.entry(*grid, stream, *direct.head, *direct.arguments(descs), *args)

    def encode():
        for d, meta in zip(descs[:4], tensordesc_meta, strict=True):
            make_tensordesc_arg(d, meta)

    paths = {"flash_attention": lambda: flash_attention(q, k, k),
             "flash_prefill (portable)": lambda: flash_prefill(q, k, k),
             "cuDNN": cudnn,
             "run('pipelined') (no public checks)": lambda: run("pipelined", q, k, k),
             "check_attention_inputs": lambda: check_attention_inputs(
                 q, k, k, causal=False, scale=None, alignment="bottom_right"),
             "launch_hopper": lambda: launch_hopper(q, k, k, out, None, dims, causal=False,
                                                    p_shift=shift),
             "kernel.run, descriptors given": replay,
             "its compiled entry, descriptors given": replay_entry,
             "4 TMA descriptors encoded": encode}
    if direct is None:  # not Triton 3.6's CUDA launcher: replays go through kernel.run
        del paths["its compiled entry, descriptors given"]
    # The host's pace moves from run to run: each path's median of five rounds.
    for name, fn in paths.items():
        rounds = sorted(per_call_us(fn, calls // 5) for _ in range(5))
        host, wall = rounds[2]
        print(f"S={s} {name:<38} host {host:6.1f} us/call  wall {wall:6.1f} us/call  "
              f"(host over rounds {rounds[0][0]:.1f}-{rounds[-1][0]:.1f})", flush=True)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(calls):
        flash_attention(q, k, k)
    profile.disable()
    torch.cuda.synchronize()
    pstats.Stats(profile).sort_stats("tottime").print_stats(30)
    pstats.Stats(profile).sort_stats("cumtime").print_stats(30)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compile", action="store_true", help="compile for sm_90 only (no GPU)")
    p.add_argument("--version", default="plain", choices=list(VERSIONS),
                   help="with --compile: which version (default plain)")
    p.add_argument("--scale", type=float, default=None,
                   help="with --compile: the scale (negative and zero ones compile other paths)")
    p.add_argument("--lengths", default="512,1024,2048,4096,16384",
                   help="Sq = Sk points, comma-separated (bf16; fp16 at 4096)")
    p.add_argument("--versions", default=",".join(VERSIONS),
                   help="the versions checked and timed, comma-separated (default all)")
    p.add_argument("--host-profile", action="store_true",
                   help="instead: where a call's host time goes at Sq = Sk = 1k")
    args = p.parse_args(argv)
    versions = args.versions.split(",")
    if unknown := set(versions) - set(VERSIONS):
        p.error(f"--versions: expected names from {', '.join(VERSIONS)}, got {sorted(unknown)}")
    if args.compile:
        print(json.dumps(compile_sm90(args.version, args.scale)))
        return 0
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _gpu import missing_gpu

    if (why := missing_gpu()) is not None:
        print(why)
        return 2
    if args.host_profile:
        host_profile()
        return 0
    # Sq = Sk points against cuDNN; the ragged, unequal ones check the edges.
    points = [(torch.bfloat16, n, n) for n in map(int, args.lengths.split(","))]
    points += [(torch.float16, 4096, 4096), (torch.bfloat16, 1000, 1531),
               (torch.float16, 1531, 1000), (torch.bfloat16, 1, 77)]
    ok = True
    for dtype, sq, sk in points:
        for causal in (False, True):
            ok &= _point(dtype, sq, sk, causal, versions)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
