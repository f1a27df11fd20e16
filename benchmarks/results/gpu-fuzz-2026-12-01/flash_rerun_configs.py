"""Which prefill tile configs rerun bit-identically, and are the odd reruns wrong?

Run from the repository root on a GPU:
``python3 benchmarks/results/gpu-fuzz-2026-12-01/flash_rerun_configs.py [RERUNS]``.

For head dims around the case ``stateful`` found (D = 192, padded to 256) and
controls (128, 256: unpadded), causal bottom-right and not, every config of
the width's table entry is launched RERUNS times (default 12) on the same
inputs.  Prints, per (D, mask, config), how many reruns differ from the first
run and the worst error/bound ratio against the oracle over all reruns.
"""

import os
import sys

import torch

sys.path.insert(0, os.getcwd())

from attnfuzz.kernels import flash  # noqa: E402
from attnfuzz.kernels._checks import check_attention_inputs  # noqa: E402
from attnfuzz.kernels._tiles import _tile_kind  # noqa: E402
from attnfuzz.properties.checks.oracle import attention_oracle  # noqa: E402
from attnfuzz.properties.model.cases import AttentionCase, build  # noqa: E402
from attnfuzz.properties.model.values import Values  # noqa: E402
from attnfuzz.reference import compare  # noqa: E402

RERUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 12


def differing(a: torch.Tensor, b: torch.Tensor) -> int:
    return int((~((a == b) | (a.isnan() & b.isnan()))).sum())


for d in (192, 160, 256, 128):
    for causal in (True, False):
        case = AttentionCase(batch=1, hq=16, hkv=2, sq=66, sk=64, d=d, dv=d, dtype="float16",
                             causal=causal, alignment="bottom_right",
                             values=Values(family="spike"))
        built = build(case, "cuda")
        q, k, v = (built.inputs[r] for r in "qkv")
        parts, bounds = attention_oracle(case, built)
        dims = check_attention_inputs(q, k, v, causal=causal, scale=None, alignment="bottom_right")
        kind = _tile_kind(q.dtype, "ieee", d, d)
        for config in flash._CONFIGS[kind]:
            runs, worst = [], 0.0
            for _ in range(RERUNS):
                out = torch.full(case.out_shape(), float("nan"), dtype=q.dtype, device="cuda")
                lse = torch.empty(1, 16, 66, dtype=torch.float32, device="cuda")
                flash.launch_prefill(q, k, v, out, lse, dims, causal=causal, precision="ieee",
                                     config=config)
                torch.cuda.synchronize()
                runs.append(out.clone())
                worst = max(worst, compare("out", out, parts["out"], bounds["out"],
                                           dtype=q.dtype).ratio)
            diffs = [differing(r, runs[0]) for r in runs[1:]]
            print(f"D={d} causal={causal} {config}: reruns differing {sum(x > 0 for x in diffs)}"
                  f"/{len(diffs)} (elements {max(diffs)}), worst error/bound {worst:.3g}",
                  flush=True)
