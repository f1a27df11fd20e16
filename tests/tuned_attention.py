"""An attention kernel file as GPU authors write them: at import it asks the
Triton driver and torch.cuda about the device, and its kernel is autotuned
over several configs.  On the interpreter (no GPU) attnfuzz's stand-ins
answer for the device and run the first config; ``test_interpreter_stand_ins``
fuzzes it through ``attnfuzz run``.  The attnfuzz convention, without causal
masks or GQA."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_current_device()
SHARED_MEMORY = triton.runtime.driver.active.utils.get_device_properties(DEVICE)["max_shared_mem"]
SMS = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
CAPABILITY = torch.cuda.get_device_capability()
BLOCK_M = 16


@triton.autotune(configs=[triton.Config({"BLOCK_N": 16}, num_warps=4),
                          triton.Config({"BLOCK_N": 32}, num_warps=8)], key=["sk", "D"])
@triton.jit
def _attention(q, k, v, o, sq, sk, heads, scale,
               s_qb, s_qh, s_qs, s_qd, s_kb, s_kh, s_ks, s_kd,
               s_vb, s_vh, s_vs, s_vd, s_ob, s_oh, s_os, s_od,
               D: tl.constexpr, DV: tl.constexpr, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr):
    b, h = tl.program_id(0) // heads, tl.program_id(0) % heads
    rows = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    dims, vdims = tl.arange(0, D), tl.arange(0, DV)
    qt = tl.load(q + b * s_qb + h * s_qh + rows[:, None] * s_qs + dims[None, :] * s_qd,
                 mask=rows[:, None] < sq, other=0.0).to(tl.float32)
    m = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    total = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, DV), tl.float32)
    for start in range(0, sk, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        kt = tl.load(k + b * s_kb + h * s_kh + cols[None, :] * s_ks + dims[:, None] * s_kd,
                     mask=cols[None, :] < sk, other=0.0).to(tl.float32)
        vt = tl.load(v + b * s_vb + h * s_vh + cols[:, None] * s_vs + vdims[None, :] * s_vd,
                     mask=cols[:, None] < sk, other=0.0).to(tl.float32)
        logits = tl.where(cols[None, :] < sk, tl.dot(qt, kt) * scale, float("-inf"))
        new_m = tl.maximum(m, tl.max(logits, 1))
        safe = tl.where(new_m == float("-inf"), 0.0, new_m)
        p = tl.exp(logits - safe[:, None])
        rescale = tl.exp(m - safe)
        total = total * rescale + tl.sum(p, 1)
        acc = acc * rescale[:, None] + tl.dot(p, vt)
        m = new_m
    out = acc / tl.where(total == 0.0, 1.0, total)[:, None]
    tl.store(o + b * s_ob + h * s_oh + rows[:, None] * s_os + vdims[None, :] * s_od,
             out.to(o.dtype.element_ty), mask=rows[:, None] < sq)


def attention(q, k, v, *, causal=False, scale=None, alignment="bottom_right"):
    if causal:
        raise ValueError("causal: not supported (declare causal=no)")
    d, dv = q.shape[-1], v.shape[-1]
    if q.shape[1] != k.shape[1] or d not in (16, 32) or dv not in (16, 32):
        raise ValueError(f"q, k, v: needs Hq == Hkv and D, Dv in (16, 32), got {q.shape}, "
                         f"{k.shape}, {v.shape}")
    batch, heads, sq, sk = q.shape[0], q.shape[1], q.shape[2], k.shape[2]
    o = torch.empty(batch, heads, sq, dv, dtype=q.dtype, device=q.device)
    if o.numel() == 0:
        return o
    scale = d ** -0.5 if scale is None else scale
    _attention[(batch * heads, triton.cdiv(sq, BLOCK_M))](
        q, k, v, o, sq, sk, heads, scale, *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        D=d, DV=dv, BLOCK_M=BLOCK_M)
    return o
