"""The Hopper backward (``attnfuzz.kernels.hopper_backward``): checked and timed.

At each point: the gradients of the Hopper backward
(``launch_backward(hopper=True)``) and of the portable one, each against
the fp32 answer (and, where it fuses, the fused backward's:
``launch_hopper_backward(fused=True)``); then both timed, with cuDNN's
backward beside them, and each kernel alone (dK/dV, dQ, the fused one)
beside the portable kernel's.

    python benchmarks/gluon_backward.py              # on an H100/H200: check, then time
    python benchmarks/gluon_backward.py --compile dkdv|fused|dq [--causal]   # sm_90 code, no GPU
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
from attnfuzz.kernels import hopper_backward as hb  # noqa: E402
from attnfuzz.kernels._checks import AttentionDims, check_attention_inputs  # noqa: E402
from attnfuzz.kernels.flash_backward import (  # noqa: E402
    backward_config,
    backward_stats,
    launch_backward,
)
from attnfuzz.kernels.hopper_backward import (  # noqa: E402
    _described,
    _dkdv_kernel,
    _dq_kernel,
    launch_hopper_backward,
    launch_plan,
)


def hopper_alone(kernel: str, do, q, k, v, out, lse, stats, dims: AttentionDims, *,
                 causal: bool) -> tuple[torch.Tensor, ...] | None:
    """One Hopper kernel alone: "dq" (with the row statistics it stores into
    ``stats``, (2, B * Hq * Sq) fp32), "stats" (the dQ kernel without dQ),
    "dkdv" (from ``stats`` as the dQ kernel left them), or "fused" (the
    statistics, then dK/dV with dQ: the fused backward whole, whose
    gradients it returns)."""
    if kernel == "fused":
        grads = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        launch_hopper_backward(q, k, v, do, out, lse, *grads, dims, causal=causal, fused=True)
        return grads
    if kernel == "dkdv":
        hb._DKDV.launch((dims, causal, hb.STAGES, False),
                        (q, k, v, do, stats, torch.empty_like(k), torch.empty_like(v),
                         stats[0], stats[1], stats),
                        lambda: launch_plan("dkdv", dims, causal=causal))
        return
    want = kernel == "dq"
    hb._DQ.launch((dims, causal, hb.STAGES, want),
                  (q, k, v, do, torch.empty_like(q) if want else stats, out, lse, stats[0],
                   stats[1]),
                  lambda: launch_plan("dq", dims, causal=causal, dq=want))


def compile_sm90(kernel: str = "dkdv", causal: bool = False) -> dict:
    """Compile ``kernel`` ("dkdv", "fused": dK/dV with dQ, or "dq") for sm_90
    without a GPU: registers, shared memory and a census of the SASS
    instructions that make it warp specialised."""
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
    stats = torch.empty(2, 512, dtype=torch.float32)
    dims = AttentionDims(1, 2, 1, 256, 256, 128, 128, 128**-0.5, 0)
    fused = kernel == "fused"
    _, args, meta = launch_plan("dq" if kernel == "dq" else "dkdv", dims, causal=causal,
                                fused=fused)
    kwargs = {name: meta.pop(name) for name in ("num_warps", "maxnreg")}
    if kernel == "dq":  # dq, out and lse; then lse2 and delta
        leading = _described(4)((q, k, k, q, q, q, stats[0], stats[0], stats[1]), False)
    else:  # dQ's fp32 sums, dk, dv, lse2, delta, the semaphores
        sums = torch.empty(q.shape, dtype=torch.float32) if fused else stats
        sems = torch.zeros(16, dtype=torch.int32)
        leading = _described(5 if fused else 4)((q, k, k, q, sums, k, k, stats[0], stats[1],
                                                 sems), False)
    kernel = _dq_kernel if kernel == "dq" else _dkdv_kernel
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*leading, *args, **meta, **kwargs)
    options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound,
                                                              specialization, options)
    compiled = triton.compile(GluonASTSource(kernel, signature, constexprs, attrs), target=target,
                              options=options.__dict__)
    usage, sass = read_cubin(compiled)
    ops = collections.Counter(re.findall(r"\b([A-Z][A-Z0-9]+)(?:\.[A-Z0-9.]+)?\b", sass))
    return {**usage, "spill_stores": ops["STL"],
            **{op: ops[op] for op in ("HGMMA", "UTMALDG", "UTMAREDG", "USETMAXREG", "MUFU",
                                      "WARPSYNC")}}


def _time_ms(fn) -> float:
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def _max_rel(got: torch.Tensor, ref: torch.Tensor) -> float:
    return float((got.float() - ref.float()).abs().max() / ref.float().abs().max().clamp_min(1e-30))


def _point(dtype: torch.dtype, sq: int, sk: int, causal: bool, hq: int = 16, hkv: int = 8,
           batch: int = 4) -> bool:
    """Both backwards' gradients against the fp32 answer, then both timed,
    with cuDNN's beside them, and each kernel alone."""
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from attnfuzz.kernels import flash_prefill

    g = torch.Generator(device="cuda").manual_seed(0)
    q, k, v = (torch.randn(batch, h, s, 128, device="cuda", dtype=dtype, generator=g)
               for h, s in ((hq, sq), (hkv, sk), (hkv, sk)))
    do = torch.randn(batch, hq, sq, 128, device="cuda", dtype=dtype, generator=g)
    dims = check_attention_inputs(q, k, v, causal=causal, scale=None, alignment="bottom_right")
    out, lse = flash_prefill(q, k, v, causal=causal, return_lse=True)
    ref = [t.float() for t in (q, k, v)]
    for t in ref:
        t.requires_grad_(True)
    flash_prefill(*ref, causal=causal).backward(do.float())

    def backward(hopper: bool, needs=(True, True, True)):
        return launch_backward(do, q, k, v, out, lse, dims, causal=causal, precision="ieee",
                               needs=needs, hopper=hopper)

    ok = True
    errs = []
    for name, a, b, r in zip("qkv", backward(True), backward(False), ref, strict=True):
        e_hopper, e_port = _max_rel(a, r.grad), _max_rel(b, r.grad)
        errs.append(f"d{name} {e_hopper:.1e} ({e_port:.1e})")
        # The same arithmetic in another order: errors of the portable kernel's size.
        ok &= e_hopper <= 2 * e_port + 1e-3
    stats = torch.empty((2, batch * hq * sq), dtype=torch.float32, device="cuda")
    fuses = hb.fuses(dims, q.device.index)
    if fuses:  # dQ summed in the dK/dV kernel: as close to the fp32 answer
        fused = hopper_alone("fused", do, q, k, v, out.contiguous(), lse, stats, dims,
                             causal=causal)
        for name, a, b, r in zip("qkv", fused, backward(False), ref, strict=True):
            e_fused, e_port = _max_rel(a, r.grad), _max_rel(b, r.grad)
            errs.append(f"fused d{name} {e_fused:.1e}")
            ok &= e_fused <= 2 * e_port + 1e-3
    t_hopper, t_port = _time_ms(lambda: backward(True)), _time_ms(lambda: backward(False))
    c = backward_config(q.dtype, "ieee", dims.d, dims.dv)
    t_stats = _time_ms(lambda: backward_stats(do, out, lse, dims, c.dq))
    alone = {kernel: _time_ms(lambda kernel=kernel: hopper_alone(
        kernel, do, q, k, v, out.contiguous(), lse, stats, dims, causal=causal))
        for kernel in ("stats", "dq", "dkdv", "fused")
        if kernel != "fused" or fuses}
    # The portable kernels alone: each with the preprocessing, less its time.
    port_dkdv = _time_ms(lambda: backward(False, (False, True, True))) - t_stats
    port_dq = _time_ms(lambda: backward(False, (True, False, False))) - t_stats
    t_cudnn = float("nan")
    if sq == sk:
        qc, kc, vc = (t.detach().clone().requires_grad_(True) for t in (q, k, v))
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            oc = F.scaled_dot_product_attention(qc, kc, vc, is_causal=causal, enable_gqa=True)
        t_cudnn = _time_ms(lambda: torch.autograd.grad(oc, (qc, kc, vc), do, retain_graph=True))
    print(f"{str(dtype)[6:]:<9} Sq={sq:<6} Sk={sk:<6} causal={causal!s:<5} "
          f"{' '.join(errs)} {'ok' if ok else 'WRONG'} | Hopper {t_hopper:.3f} ms vs portable "
          f"{t_port:.3f} ({t_port / t_hopper:.2f}x), cuDNN {t_cudnn:.3f} "
          f"({t_cudnn / t_hopper:.2f}x) | alone: dK/dV {alone['dkdv']:.3f} (portable "
          f"{port_dkdv:.3f}), dQ with the row statistics {alone['dq']:.3f} ({port_dq:.3f}), "
          f"statistics {alone['stats']:.3f} ({t_stats:.3f}); fused "
          f"{alone.get('fused', float('nan')):.3f}",
          flush=True)
    return ok


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--compile", choices=["dkdv", "fused", "dq"],
                   help="compile this kernel for sm_90 only (no GPU)")
    p.add_argument("--causal", action="store_true", help="with --compile: the causal kernel")
    p.add_argument("--lengths", default="1024,4096")
    args = p.parse_args(argv)
    if args.compile:
        print(json.dumps(compile_sm90(args.compile, args.causal)))
        return 0
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _gpu import missing_gpu

    if (why := missing_gpu("gluon_backward.py")) is not None:
        print(why)
        return 2
    ok = True
    for s in map(int, args.lengths.split(",")):
        for causal in (False, True):
            for dtype in (torch.bfloat16, torch.float16):
                ok &= _point(dtype, s, s, causal)
    ok &= _point(torch.bfloat16, 1000, 1531, True)
    ok &= _point(torch.bfloat16, 1531, 1000, True)
    ok &= _point(torch.bfloat16, 77, 300, False, hq=4, hkv=1, batch=1)
    ok &= _point(torch.float16, 300, 77, True, hq=6, hkv=2, batch=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
