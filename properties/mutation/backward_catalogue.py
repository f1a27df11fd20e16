"""Mutants of the backward kernels: the three-kernel backward (``three_kernel_attention``,
``row_softmax``'s softmax backward) and the fused one (``flash_backward``), and of
the sliding windows all the attention kernels take; see ``runner``.

Each plants a bug of a class that public attention backwards have had: a
missing delta term, GQA gradients not summed over the group, dS not scaled,
a causal mask wrong in the backward only, dO read through another tensor's
strides, P recomputed in the wrong base, rows that see no key turned into
NaN, tails of a block stored or summed unmasked, a 16-bit intermediate.
"""

from __future__ import annotations

from .mutant import (
    FLASH_BACKWARD,
    NAIVE_BACKWARD,
    SOFTMAX_WINDOWS,
    STATEFUL,
    WINDOWS,
    Mutant,
)
from .mutant import mutant as _m

NAIVE_BACKWARD_MUTANTS: tuple[Mutant, ...] = (
    _m("naive_bwd.delta_missing", "row_softmax.py",
       ("dx = y.to(tl.float32) * (dy.to(tl.float32) - row_dot[:, None]) * scale",
        "dx = y.to(tl.float32) * dy.to(tl.float32) * scale"),
       "softmax backward without the delta term: dS = P dP", NAIVE_BACKWARD),
    _m("naive_bwd.causal_lt_in_backward", "row_softmax.py",
       ("        seen = inside\n        if CAUSAL:\n"
        "            seen = seen & (cols[None, :] <= rows[:, None] + DIAGONAL)",
        "        seen = inside\n        if CAUSAL:\n"
        "            seen = seen & (cols[None, :] < rows[:, None] + DIAGONAL)"),
       "the causal mask off by one in the backward only (< for <=)", NAIVE_BACKWARD),
    _m("naive_bwd.dv_not_summed_over_group", "three_kernel_attention.py",
       ("k=group * dims.sq, group=1, scale=1.0", "k=dims.sq, group=1, scale=1.0"),
       "dV of a KV head from its group's first query head only", NAIVE_BACKWARD),
    _m("naive_bwd.dk_not_summed_over_group", "three_kernel_attention.py",
       ("k=group * dims.sq, group=1, scale=dims.scale", "k=dims.sq, group=1, scale=dims.scale"),
       "dK of a KV head from its group's first query head only", NAIVE_BACKWARD),
    _m("naive_bwd.dq_unscaled", "three_kernel_attention.py",
       ("k=dims.sk, group=group, scale=dims.scale", "k=dims.sk, group=group, scale=1.0"),
       "dQ = dS K without the softmax scale", NAIVE_BACKWARD),
    _m("naive_bwd.dp_from_contiguous_strides", "three_kernel_attention.py",
       ("launch_matmul_nt(d_out, v, ds,",
        "launch_matmul_nt(d_out.as_strided(d_out.shape, ds.new_empty(d_out.shape).stride()),"
        " v, ds,"),
       "dO read as if contiguous (strides assumed, not read)", NAIVE_BACKWARD),
)

_LSE2 = 'lse2 = tl.where(lse == float("-inf"), float("inf"), lse * _LOG2E)'

FLASH_BACKWARD_MUTANTS: tuple[Mutant, ...] = (
    _m("flash_bwd.delta_missing", "flash_backward.py",
       (("ds_t = p_t * (dp_t - delta[None, :])", "ds_t = p_t * dp_t"),
        ("ds = p * (dp - delta[:, None])", "ds = p * dp")),
       "dS = P dP: the delta (rowsum(dO * O)) term left out", FLASH_BACKWARD),
    _m("flash_bwd.delta_of_do_squared", "flash_backward.py",
       ("delta = tl.sum(o.to(tl.float32) * do.to(tl.float32), 1)",
        "delta = tl.sum(do.to(tl.float32) * do.to(tl.float32), 1)"),
       "delta from dO alone (O's pointer mixed up with dO's)", FLASH_BACKWARD),
    _m("flash_bwd.lse_natural_base", "flash_backward.py",
       (_LSE2, 'lse2 = tl.where(lse == float("-inf"), float("inf"), lse)'),
       "P recomputed with the natural-log LSE in a base-2 exponent", FLASH_BACKWARD),
    _m("flash_bwd.blind_rows_nan", "flash_backward.py", (_LSE2, "lse2 = lse * _LOG2E"),
       "a row that sees no key (LSE -inf) recomputes p = exp2(+inf): NaN gradients",
       FLASH_BACKWARD,
       equivalent="a row that sees no key is causal with every key past its diagonal, so "
       "each of its tiles is a masked one and p is set to 0 after the exponent; the +inf "
       "shift only matters for rows past Sq, whose loads default to +inf on their own"),
    _m("flash_bwd.dkdv_first_group_head", "flash_backward.py",
       ("for g in tl.range(0, GROUP):", "for g in tl.range(0, 1):"),
       "dK and dV of a KV head from the first query head of its group only", FLASH_BACKWARD),
    _m("flash_bwd.group_heads_interleaved", "flash_backward.py",
       ("head32 = kv_head * GROUP + g", "head32 = kv_head + g * HKV"),
       "the query heads of a KV head taken as h % Hkv (the other GQA convention)",
       FLASH_BACKWARD),
    _m("flash_bwd.stats_row_without_group", "flash_backward.py",
       ("stats_row = (batch * HKV * GROUP + head) * Sq", "stats_row = (batch * HKV + head) * Sq"),
       "the LSE and delta of a batch element indexed by KV heads, not query heads",
       FLASH_BACKWARD),
    _m("flash_bwd.do_strides_from_out", "flash_backward.py",
       ("common = (*q.stride(), *k.stride(), *v.stride(), *do.stride())",
        "common = (*q.stride(), *k.stride(), *v.stride(), *out.stride())"),
       "dO addressed through O's strides (right only when both are laid out alike)",
       FLASH_BACKWARD),
    _m("flash_bwd.dp_half_in_dq", "flash_backward.py",
       ("    ds = p * (dp - delta[:, None])",
        "    ds = p * (dp.to(k.dtype).to(tl.float32) - delta[:, None])"),
       "dP rounded to the inputs' dtype before dS in dQ's pass: a 16-bit step where the "
       "arithmetic keeps fp32 (a no-op in fp32)", FLASH_BACKWARD),
    _m("flash_bwd.dk_unscaled", "flash_backward.py",
       ("(dk * scale).to(dk_ptr.dtype.element_ty)", "dk.to(dk_ptr.dtype.element_ty)"),
       "dK = dS^T Q without the softmax scale", FLASH_BACKWARD),
    _m("flash_bwd.dq_causal_lt", "flash_backward.py",
       ("rows[:, None], diagonal, lo_diag,", "rows[:, None], diagonal - 1, lo_diag,"),
       "the causal mask off by one in dQ's pass only", FLASH_BACKWARD),
    _m("flash_bwd.causal_skips_a_query_block", "flash_backward.py",
       ("m_lo = tl.where(first < Sq, first // BLOCK_M * BLOCK_M, m_end)",
        "m_lo = tl.where(first < Sq, (first // BLOCK_M + 1) * BLOCK_M, m_end)"),
       "causal block skipping one query block too far: rows on the diagonal lost",
       FLASH_BACKWARD),
    _m("flash_bwd.dq_misses_diagonal_key", "flash_backward.py",
       ("last = tl.minimum(first + BLOCK_M, Sq) - 1", "last = tl.minimum(first + BLOCK_M, Sq) - 2"),
       "dQ's key range ends one key short of the last row's diagonal", FLASH_BACKWARD),
    _m("flash_bwd.tma_start_unaligned", "_launch.py",
       ("s2 * size % 16 or t.data_ptr() % 16))", "s2 * size % 16))"),
       "TMA loads chosen for an input whose start is not 16-byte aligned",
       (("gradient_relations", "flash", "float16"), *FLASH_BACKWARD)),
    _m("flash_bwd.dk_tail_unmasked", "flash_backward.py",
       ("n_ok = kv_idx64[:, None] < Sk", "n_ok = kv_idx64[:, None] >= 0"),
       "the last key block's dK/dV rows stored past Sk", FLASH_BACKWARD),
    _m("flash_bwd.dq_pad_unmasked", "flash_backward.py",
       ("dq_mask = row_ok[:, None] & (offs_d[None, :] < HEAD_D)", "dq_mask = row_ok[:, None]"),
       "dQ's padded head-dim columns stored (a head dim that is no power of two)",
       FLASH_BACKWARD),
    _m("flash_bwd.launch_key_omits_causal", "flash_backward.py",
       ("        plan = (dims, common, causal, precision, win)\n",
        "        plan = (dims, common, precision, win)\n"),
       "the backward's launch caches keyed without the causal flag", STATEFUL,
       equivalent="on the interpreter: LaunchCache.launch rebuilds every launch there and "
       "never reads its key; compiled, the stateful property's differentiated calls and "
       "their causal neighbour are the check"),
)

_SOFTMAX_LEFT = "visible = visible & (cols[None, :] >= rows[:, None] + DIAGONAL - WIN_LEFT)"

WINDOW_MUTANTS: tuple[Mutant, ...] = (
    _m("window.softmax_left_edge_gt", "row_softmax.py",
       (f"        visible = in_bounds\n        if HAS_LEFT:\n            {_SOFTMAX_LEFT}",
        f"        visible = in_bounds\n        if HAS_LEFT:\n            "
        f"{_SOFTMAX_LEFT.replace('>=', '>')}"),
       "a window's left edge '>' for '>=' (the softmax's write pass)", SOFTMAX_WINDOWS),
    _m("window.softmax_right_edge_ignored", "row_softmax.py",
       ("        visible = in_bounds\n        if HAS_LEFT:\n            "
        f"{_SOFTMAX_LEFT}\n        if HAS_RIGHT:",
        "        visible = in_bounds\n        if HAS_LEFT:\n            "
        f"{_SOFTMAX_LEFT}\n        if False:"),
       "the right edge of a window not applied (the softmax's write pass)", SOFTMAX_WINDOWS),
    _m("window.band_left_edge_gt", "_tiles.py",
       ("visible = visible & (kv >= q + lo_diag)", "visible = visible & (kv > q + lo_diag)"),
       "a window's left edge '>' for '>=' in the fused kernels", WINDOWS),
    _m("window.right_side_dropped", "_tiles.py",
       ("        up_diag = diagonal + win_right", "        up_diag = diagonal"),
       "a right window read as a causal mask (its width ignored)", WINDOWS),
    _m("window.first_block_skipped", "_tiles.py",
       ("lo = tl.maximum(first + lo_diag, 0) // BLOCK_N * BLOCK_N",
        "lo = tl.maximum(first + lo_diag, 0) // BLOCK_N * BLOCK_N + BLOCK_N"),
       "the skip of key blocks left of the window one block too far", WINDOWS),
    _m("window.decode_plan_ignores_left", "split_decode.py",
       ("n = max(0, n - max(diagonal - left, 0) // c.block_n * c.block_n)",
        "n = max(0, n - max(diagonal - left, 0))"),
       "decode planned over the keys after the window's first key, not its block",
       (("oracle", "decode", "float32"), ("oracle", "decode", "float16"))),
    _m("window.prefill_key_omits_window", "flash.py",
       ("_PREFILL.launch((dims, strides, causal, precision, config, lse is not None, window),",
        "_PREFILL.launch((dims, strides, causal, precision, config, lse is not None),"),
       "the prefill launch cache keyed without the window", STATEFUL,
       equivalent="on the interpreter: LaunchCache.launch rebuilds every launch there and "
       "never reads its key; compiled, the stateful property's window neighbour is the check"),
)

BACKWARD_MUTANTS: tuple[Mutant, ...] = (
    *NAIVE_BACKWARD_MUTANTS, *FLASH_BACKWARD_MUTANTS, *WINDOW_MUTANTS
)
