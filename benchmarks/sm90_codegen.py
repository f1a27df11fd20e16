"""What ptxas makes of the fused kernels for the H200 (sm_90), on any machine.

Triton's CUDA backend compiles to a cubin without a GPU, with the ``ptxas``
it bundles; the bundled ``cuobjdump`` and ``nvdisasm`` then give registers,
spills (local memory), shared memory and the SASS.  This reads the code that
timing alone only hints at: a store that became one instruction per element,
a config that spills registers to the stack.  Kernels are compiled as Triton's runtime specialises
them for contiguous (B, H, S, D) tensors with D = Dv = 128 in 16-bit
dtypes (pointers 16-byte aligned, strides divisible by 16, the last-dim
strides equal to 1 and so constant).

    python benchmarks/sm90_codegen.py          # one table row per kernel config
    python benchmarks/sm90_codegen.py --json   # the same as JSON

Run it without ``TRITON_INTERPRET=1``: interpreted kernels have no code.
"""

from __future__ import annotations

import argparse
import collections
import inspect
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAD_DIM = 128
SM90 = ("cuda", 90, 32)  # backend, compute capability, warp size (as the CUDA driver reports)
_FP32_POINTERS = {"lse_ptr", "part_ptr", "part_lse_ptr"}
_INT_POINTERS = {"count_ptr", "table_ptr", "seqlens_ptr"}
_LAST_DIM_STRIDES = {"s_qd", "s_kd", "s_vd", "s_od"}


def _tool(name: str) -> str:
    import triton

    path = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: this Triton install bundles no {name}")
    return str(path)


def _signature(kernel, dtype: str, constexprs: dict) -> tuple[dict, dict, dict]:
    """(signature, constexprs by index, attributes) as the runtime would specialise."""
    names = list(inspect.signature(kernel.fn).parameters)
    unspecialised = set(kernel.do_not_specialize)
    sig, attrs, consts = {}, {}, dict(constexprs)
    for i, name in enumerate(names):
        if name in consts:
            sig[name] = "constexpr"
        elif name.endswith("_ptr"):
            element = ("fp32" if name in _FP32_POINTERS else "i32" if name in _INT_POINTERS
                       else dtype)
            sig[name] = "*" + element
            attrs[(i,)] = [["tt.divisibility", 16]]
        elif name in _LAST_DIM_STRIDES:
            sig[name], consts[name] = "constexpr", 1
        elif name.startswith("s_"):
            sig[name] = "i32"
            attrs[(i,)] = [["tt.divisibility", 16]]
        elif name in unspecialised:
            sig[name] = "i32"
        else:
            sig[name] = "fp32"  # qk_scale, p_shift, w_shift
    return sig, {(names.index(k),): v for k, v in consts.items()}, attrs


def compile_sm90(kernel, dtype: str, constexprs: dict, num_warps: int, num_stages: int) -> dict:
    """Compile ``kernel`` for sm_90; return its resource use and its global stores by width."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    sig, consts, attrs = _signature(kernel, dtype, constexprs)
    compiled = triton.compile(
        ASTSource(kernel, sig, constexprs=consts, attrs=attrs),
        target=GPUTarget(*SM90),
        options={"num_warps": num_warps, "num_stages": num_stages},
    )
    usage, sass = read_cubin(compiled)
    stores = collections.Counter(re.findall(r"\b(STG\.[A-Z0-9.]+)", sass))
    # Spilled registers live in the stack frame, written by STL (store local).
    return {
        **usage,
        "spill_stores": len(re.findall(r"\bSTL\b", sass)),
        "stores": dict(sorted(stores.items())),
    }


def read_cubin(compiled) -> tuple[dict, str]:
    """Registers, stack and shared bytes of a kernel compiled for sm_90, and its SASS."""
    with tempfile.TemporaryDirectory() as tmp:
        cubin = Path(tmp) / "kernel.cubin"
        cubin.write_bytes(compiled.asm["cubin"])
        usage = subprocess.run([_tool("cuobjdump"), "-res-usage", str(cubin)],
                               capture_output=True, text=True, check=True).stdout
        sass = subprocess.run([_tool("nvdisasm"), "-c", str(cubin)],
                              capture_output=True, text=True, check=True).stdout
    found = re.search(r"REG:(\d+)\s+STACK:(\d+)", usage)
    if found is None:
        raise RuntimeError(f"cannot read cuobjdump's resource usage:\n{usage}")
    return {"registers": int(found[1]), "stack_bytes": int(found[2]),
            "shared_bytes": compiled.metadata.shared}, sass


def _head_constexprs() -> dict:
    # No sliding window: the kernels as they run for plain and causal attention.
    return {"BLOCK_D": HEAD_DIM, "BLOCK_DV": HEAD_DIM, "PAD_D": False, "PAD_DV": False,
            "HAS_LEFT": False, "HAS_RIGHT": False}


def report() -> list[dict]:
    """Every 16-bit D = 128 prefill config of the tuning table, and the decode configs."""
    sys.path.insert(0, str(ROOT))
    # Compiled kernels (importing attnfuzz on a machine without CUDA would
    # otherwise choose the interpreter, whose kernels have no code).
    os.environ["TRITON_INTERPRET"] = "0"
    import torch

    import attnfuzz.kernels.flash as fa

    rows = []
    for cfg in fa._CONFIGS[("16bit", HEAD_DIM)]:
        for causal in (False, True):
            consts = {**_head_constexprs(), "CAUSAL": causal, "NEG_SCALE": False,
                      "STORE_LSE": False, "PRECISION": "ieee",
                      "BLOCK_M": cfg.block_m, "BLOCK_N": cfg.block_n}
            got = compile_sm90(fa._flash_fwd_kernel, "bf16", consts, cfg.num_warps, cfg.num_stages)
            rows.append({"kernel": "prefill", "causal": causal, "config": list(cfg), **got})
    # The decode kernel over dense keys and over a paged cache (serving's split path).
    for block_m, paged in itertools.product((16, 32, 64), (False, True)):
        # A GQA group of block_m rows, one query each, gets tiles of block_m rows.
        _, block_n, warps, stages = fa.decode_config(torch.bfloat16, "ieee", HEAD_DIM, HEAD_DIM,
                                                     block_m, 1, paged)
        consts = {**_head_constexprs(), "CAUSAL": False, "STORE_LSE": False, "PRECISION": "ieee",
                  "BLOCK_M": block_m, "BLOCK_N": block_n, "MERGE": True, "PAGED": paged}
        got = compile_sm90(fa._flash_decode_kernel, "bf16", consts, warps, stages)
        rows.append({"kernel": "paged decode" if paged else "decode", "causal": False,
                     "config": [block_m, block_n, warps, stages], **got})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = p.parse_args(argv)
    if os.environ.get("TRITON_INTERPRET", "0") == "1":
        print("TRITON_INTERPRET=1 is set: interpreted kernels are not compiled")
        return 2
    rows = report()
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'kernel':<8} {'causal':<6} {'BLOCK_M/N w s':<16} {'regs':>4} {'stack B':>7} "
          f"{'STL':>4} {'smem KB':>7}  global stores")
    for r in rows:
        m, n, w, s = r["config"]
        stores = ", ".join(f"{k} x{v}" for k, v in r["stores"].items())
        print(f"{r['kernel']:<8} {r['causal']!s:<6} {f'{m}/{n} w{w} s{s}':<16} "
              f"{r['registers']:>4} {r['stack_bytes']:>7} {r['spill_stores']:>4} "
              f"{r['shared_bytes'] / 1024:>7.0f}  "
              f"{stores}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
