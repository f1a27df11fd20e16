"""Does a compiled launch replayed on an input 8 bytes past a 16-byte boundary go wrong?

The independent mutant ``pointer-key-align-8`` keys the launch cache on
``data_ptr() % 8`` instead of ``% 16``, so a kernel compiled for an aligned
input is replayed for the same shapes with one input 8 bytes on.  For each
input role, head dim and kernel this runs the aligned call, then the moved
one, and compares the moved call's output bit for bit with the same call
launched through ``JITFunction.run`` (launch caches emptied), which
specialises it right.  Each probe runs in its own process: a fault loses
the CUDA context.

    python3 align_probe.py            # every probe, a line each
"""

from __future__ import annotations

import subprocess
import sys

ROLES = ("q", "k", "v", "out")
HEAD_DIMS = (64, 128)
KERNELS = ("prefill", "decode")


def probe(kernel: str, role: str, d: int) -> str:
    import torch

    from attnfuzz.kernels import flash, flash_attention, flash_decode

    g = torch.Generator(device="cuda").manual_seed(0)
    sq = 1 if kernel == "decode" else 256
    shapes = {"q": (2, 4, sq, d), "k": (2, 2, 512, d), "v": (2, 2, 512, d), "out": (2, 4, sq, d)}

    def placed(name: str, moved: bool) -> torch.Tensor:
        n = 1
        for s in shapes[name]:
            n *= s
        buf = torch.randn(n + 8, generator=g, device="cuda", dtype=torch.float16)
        start = 4 if moved else 0  # 4 fp16 elements: 8 bytes past the boundary
        return buf[start:start + n].view(shapes[name])

    fn = flash_decode if kernel == "decode" else flash_attention

    def call(moved: bool) -> torch.Tensor:
        t = {n: placed(n, moved and n == role) for n in ROLES}
        t["out"].fill_(float("nan"))
        fn(t["q"], t["k"], t["v"], out=t["out"])
        return t

    call(False)  # compiles and caches the aligned launch
    g.manual_seed(1)
    moved = call(True)
    torch.cuda.synchronize()
    got = moved["out"].clone()
    flash._PREFILL.entries.clear()
    flash._DECODE.entries.clear()
    fn(moved["q"], moved["k"], moved["v"], out=moved["out"])
    want = moved["out"]
    same = torch.equal(torch.nan_to_num(got, 7.0), torch.nan_to_num(want, 7.0))
    if same:
        return "same bits"
    return f"DIFFERENT: max |diff| {(got - want).abs().nan_to_num(1e9).max().item():.3g}"


if __name__ == "__main__":
    if len(sys.argv) == 4:
        print(probe(sys.argv[1], sys.argv[2], int(sys.argv[3])))
        sys.exit(0)
    for kernel in KERNELS:
        for d in HEAD_DIMS:
            for role in ROLES:
                r = subprocess.run([sys.executable, __file__, kernel, role, str(d)],
                                   capture_output=True, text=True, timeout=300)
                last = (r.stdout.strip().splitlines() or [""])[-1]
                err = next((l for l in r.stderr.splitlines() if "Error" in l), "")
                print(f"{kernel:8} D={d:<4} {role:4} moved 8 bytes: {last or 'FAULT ' + err[:160]}",
                      flush=True)
