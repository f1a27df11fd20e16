"""Mutants of the seed kernels (matmul, matmul_nt, softmax, three-kernel attention)
and of the validation they share; see ``runner``."""

from __future__ import annotations

from .mutant import (
    ALL_ATTENTION,
    MATMUL,
    NAIVE,
    SOFTMAX,
    Mutant,
)
from .mutant import (
    mutant as _m,
)

CATALOGUE: tuple[Mutant, ...] = (
    # --- matmul / matmul_nt ------------------------------------------------------------
    _m("matmul.bh_flat_one_stride", "tiled_matmul.py",
       ("a_ptr + batch * s_ab + head * s_ah", "a_ptr + (batch * H + head) * s_ah"),
       "batch x head flattened into one index times the head stride "
       "(right only for contiguous tensors)", MATMUL),
    _m("matmul.gqa_h_mod_groups", "tiled_matmul.py",
       ("head_b = head // GROUP", "head_b = head % GROUP"),
       "GQA head mapping h % groups instead of h // (Hq/Hkv)", NAIVE),
    _m("matmul.gqa_h_div_hkv", "tiled_matmul.py",
       ("head_b = head // GROUP", "head_b = head // (H // GROUP)"),
       "GQA head mapping h // Hkv (right only when Hkv equals the group size)", NAIVE),
    _m("matmul.k_tail_unmasked", "tiled_matmul.py",
       ("mask_k = offs_k < K - k0", "mask_k = offs_k < BLOCK_K"),
       "K-loop tail loaded without its mask", MATMUL),
    _m("matmul.stride_of_a_for_b", "tiled_matmul.py",
       ("offs_k[:, None].to(tl.int64) * s_bk", "offs_k[:, None].to(tl.int64) * s_ak"),
       "a stride of one tensor used for another", MATMUL),
    _m("matmul.scale_twice", "tiled_matmul.py", ("acc = acc * scale", "acc = acc * scale * scale"),
       "scale applied twice", MATMUL),
    _m("matmul.scale_missing", "tiled_matmul.py", ("acc = acc * scale", "acc = acc * 1.0"),
       "scale not applied", MATMUL),
    _m("matmul.fp16_running_sum", "tiled_matmul.py",
       ("        a_ptrs += BLOCK_K * s_ak\n",
        "        acc = acc.to(tl.float16).to(tl.float32)\n        a_ptrs += BLOCK_K * s_ak\n"),
       "accumulating in fp16", MATMUL),
    _m("matmul.out_row_stride_for_col", "tiled_matmul.py",
       ("offs_n[None, :].to(tl.int64) * s_cn", "offs_n[None, :].to(tl.int64) * s_cm"),
       "output written through the wrong stride", MATMUL),
    _m("matmul_nt.strides_not_swapped", "nt_matmul.py",
       ("a, (sb, sh, sk, sn), b, c", "a, (sb, sh, sn, sk), b, c"),
       "K read as (K, N) instead of (N, K): a missing transpose", MATMUL[1:]),
    # --- softmax ------------------------------------------------------------------------
    _m("softmax.no_max_subtraction", "row_softmax.py",
       (("shift = tl.where(new_max == float(\"-inf\"), 0.0, new_max)", "shift = new_max * 0.0"),
        ("shift = tl.where(row_max == float(\"-inf\"), 0.0, row_max)", "shift = row_max * 0.0")),
       "no max subtraction: exp overflows for large logits", SOFTMAX),
    _m("softmax.padding_as_zero", "row_softmax.py",
       (("logits = tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n"
         "        new_max", "logits = tl.where(visible, x.to(tl.float32) * scale, 0.0)\n"
         "        new_max"),),
       "padding / masked lanes loaded as 0 instead of -inf", SOFTMAX),
    _m("softmax.causal_lt", "row_softmax.py",
       (("visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL)\n        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        new_max",
         "visible = visible & (cols[None, :] < rows[:, None] + DIAGONAL)\n        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        new_max"),),
       "'<' for '<=' in the causal mask (first pass only)", SOFTMAX),
    _m("softmax.causal_flat_row", "row_softmax.py",
       (("visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL)\n        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        p =",
         "visible = visible & (cols[None, :] <= (rows + pid_bh * M)[:, None] + DIAGONAL)\n"
         "        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        p ="),),
       "causal mask from the flattened row index instead of the row within its sequence",
       (*SOFTMAX[:1], *NAIVE)),
    _m("softmax.nan_on_empty_rows", "row_softmax.py",
       ("inv_sum = tl.where(row_sum > 0.0, 1.0 / tl.where(row_sum > 0.0, row_sum, 1.0), 0.0)",
        "inv_sum = 1.0 / row_sum"),
       "NaN for rows that see no key", SOFTMAX),
    _m("softmax.scale_missing", "row_softmax.py",
       ("logits = tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        p =",
        "logits = tl.where(visible, x.to(tl.float32) * 1.0, float(\"-inf\"))\n        p ="),
       "scale not applied in the second pass", SOFTMAX),
    _m("softmax.sum_not_rescaled", "row_softmax.py",
       ("row_sum = row_sum * tl.exp(row_max - shift) +", "row_sum = row_sum +"),
       "online sum not rescaled when the running max changes", SOFTMAX),
    _m("softmax.mask_extra_lanes_in_bounds", "row_softmax.py",
       ("        visible = in_bounds\n", "        visible = in_bounds & row_ok[:, None]\n"),
       "a redundant mask term", SOFTMAX,
       equivalent="in_bounds already includes row_ok: the mask is unchanged for every input"),
    # --- causal alignment (shared by every kernel) ---------------------------------------
    _m("checks.bottom_right_sign", "_checks.py",
       ("return n - m if alignment == \"bottom_right\" else 0",
        "return m - n if alignment == \"bottom_right\" else 0"),
       "bottom-right causal offset with the wrong sign", ALL_ATTENTION),
    _m("checks.bottom_right_missing", "_checks.py",
       ("return n - m if alignment == \"bottom_right\" else 0", "return 0"),
       "bottom-right causal offset missing (top-left used for the KV-cache convention)",
       ALL_ATTENTION),
    _m("checks.default_scale", "_checks.py", ("scale_f = d**-0.5", "scale_f = 1.0 / d"),
       "default scale 1/D instead of 1/sqrt(D)", ALL_ATTENTION),
    _m("checks.out_like_q", "_checks.py",
       ("return torch.empty(shape, dtype=dtype, device=like.device)",
        "return torch.empty_strided(shape, like.stride(), dtype=dtype, device=like.device)"),
       "an output allocated with its input's strides (overlapping itself where that input "
       "is broadcast, or Dv > D)", ALL_ATTENTION),
    # --- naive attention -------------------------------------------------------------------
    _m("naive.pv_ignores_gqa", "three_kernel_attention.py",
       ("k=dims.sk, group=dims.group, scale=1.0", "k=dims.sk, group=1, scale=1.0"),
       "P V reads V with the query head index (GQA mapping lost)", NAIVE),
    _m("naive.scale_twice", "three_kernel_attention.py",
       ("launch_softmax(probs, probs, scale=1.0,",
        "launch_softmax(probs, probs, scale=dims.scale,"),
       "scale applied twice (in Q K^T and in the softmax)", NAIVE),
)
