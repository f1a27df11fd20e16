"""FlexAttention, bf16: an output of 2.1e37 comes back as inf (hand-made repro).

Every key has the same logit, so every weight is 1 and the exact output is V's
value, 2.1e37, well inside bf16's (and fp32's) range of 3.4e38.  A kernel that
sums its unnormalised weights times V in fp32 before dividing by their sum
(FlashAttention's online softmax) reaches 45 * 2.1e37 = 9.5e38 on the way,
past fp32's range: inf.  attnfuzz found the class on the H200 with random
near-max values (replay-flex-bfloat16-overflow.txt); this case makes the sum
deterministic.  Exit status 1 while the output is not finite, 0 once it is,
2 without a CUDA GPU.  On the H200 (torch 2.11.0+cu130) it printed inf and
exited 1 (../gpu-2026-12-03d/repro-flex-bf16-unnormalised-sum.txt).
"""

import sys

import torch
from torch.nn.attention import flex_attention as flex

if not torch.cuda.is_available():
    print("this repro needs a CUDA GPU (FlexAttention compiled)", file=sys.stderr)
    sys.exit(2)
SK, D = 45, 72
VALUE = 2.1e37  # bf16's largest finite value is 3.39e38
q = torch.zeros(1, 1, 1, D, device="cuda", dtype=torch.bfloat16)
k = torch.zeros(1, 1, SK, D, device="cuda", dtype=torch.bfloat16)
v = torch.full((1, 1, SK, D), VALUE, device="cuda", dtype=torch.bfloat16)
out = torch.compile(flex.flex_attention, dynamic=False, fullgraph=True)(q, k, v)
want = v[0, 0, 0, 0].item()
got = out[0, 0, 0, 0].item()
print(f"got {got}, want {want} (every weight equal: the output is V's value)")
sys.exit(0 if torch.isfinite(out).all() else 1)
