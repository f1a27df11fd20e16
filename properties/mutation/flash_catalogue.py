"""Mutants of the fused kernels (``kernels/flash.py``, the row tile they share
(``_row_tile.py``) and the split-K decode (``split_decode.py``)); see ``runner``."""

from __future__ import annotations

from .mutant import DECODE, FLASH, STATEFUL, mutant

F = "flash.py"
R = "_row_tile.py"
D = "split_decode.py"
FLASH_DECODE = (*FLASH[:2], *DECODE[:2], FLASH[2])


def _m(name, edits, mimics, targets=FLASH, equivalent=None):
    return mutant(name, F, edits, mimics, targets, equivalent)


def _r(name, edits, mimics, targets=FLASH, equivalent=None):
    """A mutant of the row tile every fused forward kernel runs (``_row_tile.py``)."""
    return mutant(name, R, edits, mimics, targets, equivalent)


def _d(name, edits, mimics, targets=DECODE, equivalent=None):
    """A mutant of the split-K decode (``split_decode.py``)."""
    return mutant(name, D, edits, mimics, targets, equivalent)


def _t(name, edits, mimics, targets=FLASH, equivalent=None):
    """A mutant of the key ranges and masks the fused kernels share (``_tiles.py``)."""
    return mutant(name, "_tiles.py", edits, mimics, targets, equivalent)


FLASH_MUTANTS = (
    _r("flash.acc_not_rescaled",
       ("acc = acc * alpha[:, None]\n    v = _load_2d", "acc = acc * 1.0\n    v = _load_2d"),
       "accumulator not rescaled when the running max changes", FLASH_DECODE),
    _r("flash.sum_init_one",
       ("    acc = tl.zeros((BLOCK_M, BLOCK_DV), dtype=tl.float32)\n\n    # Keys [0, full_end)",
        "    acc = tl.zeros((BLOCK_M, BLOCK_DV), dtype=tl.float32)\n    l_i = l_i + 1.0\n\n"
        "    # Keys [0, full_end)"),
       "running sum initialised to 1 instead of 0",
       equivalent="the first key block rescales the running sum by exp2(-inf - m) = 0, which "
       "erases the initial value; a row that sees no key has acc = 0, so 0 / 1 = 0 as before"),
    _r("flash.sum_not_rescaled",
       ("l_i = l_i * alpha + tl.sum(p, 1)", "l_i = l_i + tl.sum(p, 1)"),
       "running sum not rescaled when the running max changes", FLASH_DECODE),
    _r("flash.exp_not_exp2",
       ("p = tl.math.exp2(qk * qk_scale - (m_new + p_shift)[:, None])",
        "p = tl.exp(qk * qk_scale - (m_new + p_shift)[:, None])"),
       "exp instead of exp2 with the log2(e)-folded scale"),
    _t("flash.last_causal_block_skipped",
       ("hi = tl.minimum(tl.maximum(last + up_diag + 1, 0), Sk)",
        "hi = tl.minimum(tl.maximum(last + up_diag + 1 - BLOCK_N, 0), Sk)"),
       "the last (diagonal) causal block skipped"),
    _t("flash.extra_block_masked",
       ("full_end = (full_end // BLOCK_N) * BLOCK_N",
        "full_end = tl.maximum(full_end // BLOCK_N - 1, 0) * BLOCK_N"),
       "one more key block than needed goes through the masked path",
       equivalent="the mask of a fully visible block is all true: the block's softmax terms "
       "are the same up to rounding (FMA contraction), which every bound admits"),
    _r("flash.nan_for_rows_without_keys",
       ("out = acc * tl.where(seen, 1.0 / safe_l, 0.0)[:, None]", "out = acc / l_i[:, None]"),
       "NaN (0/0) for query rows that see no key", FLASH_DECODE),
    _r("flash.lse_in_log2_units",
       ("lse = tl.where(seen, (m_i + tl.math.log2(safe_l) + p_shift) * _LN2, float(\"-inf\"))",
        "lse = tl.where(seen, m_i + tl.math.log2(safe_l) + p_shift, float(\"-inf\"))"),
       "LSE off by the scale (log2 instead of natural log)", FLASH_DECODE),
    _d("decode.partials_combined_without_max",
       (("alpha = tl.math.exp2(m_i - shift)\n        w = tl.math.exp2(lse_s - (shift + w_shift))",
         "alpha = tl.math.exp2(m_i * 0.0)\n        w = tl.math.exp2(lse_s - w_shift)"),),
       "split-K partials combined without subtracting their max (overflows)", DECODE),
    _t("flash.causal_lt",
       ("visible = visible & (kv <= q + up_diag)", "visible = visible & (kv < q + up_diag)"),
       "'<' for '<=' in the causal mask", FLASH_DECODE),
    _m("flash.bh_flat_one_stride",
       ("q_ptr + batch * s_qb + head * s_qh", "q_ptr + (batch * H + head) * s_qh"),
       "batch x head flattened into one index times the head stride"),
    _m("flash.gqa_h_mod_groups",
       ("kv_head = (head // GROUP).to(tl.int64)", "kv_head = (head % GROUP).to(tl.int64)"),
       "GQA head mapping h % groups instead of h // (Hq/Hkv)"),
    _d("decode.split_end_ignored",
       ("kv_end = tl.minimum(kv_lo + SPLIT_LEN, Sk)", "kv_end = Sk"),
       "split-K range end ignored: keys of the next split counted twice", DECODE),
    _d("decode.merge_one_range_early",
       ("if done == NUM_SPLITS - 1:", "if done == NUM_SPLITS - 2:"),
       "the tile's merge runs before its last key range is written", DECODE),
    _d("decode.counter_not_reset",
       ("tl.atomic_xchg(count_ptr + tile, 0, sem=\"relaxed\", scope=\"gpu\")", "pass"),
       "tile counters not reset after the merge: the next launch never merges", DECODE),
    _d("decode.gqa_packing",
       ("head = kv_head * GROUP + (r // Sq).to(tl.int64)",
        "head = kv_head * GROUP + (r % GROUP).to(tl.int64)"),
       "packed GQA rows mapped to the wrong query head", DECODE),
    _d("decode.k_stride_for_v",
       ("v_tile=v_tile, s_kn=s_kn, s_vn=s_vn,", "v_tile=v_tile, s_kn=s_kn, s_vn=s_kn,"),
       "a stride of one tensor used for another (K's for V)", DECODE),
    _r("flash.negative_scale_max",
       ("m_new = tl.maximum(m_i, tl.min(qk, 1) * qk_scale)",
        "m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)"),
       "running max wrong for a negative scale (max(c x) = c min(x) when c < 0)"),
    _r("flash.single_tail_block_skipped",
       ("if full_end < kv_hi:", "if full_end + BLOCK_N < kv_hi:"),
       "the masked loop skipped when its range is a single key block"),
    _m("flash.padded_columns_stored",
       ("    if PAD_DV:\n        o_mask", "    if False:\n        o_mask"),
       "the padded head-dim columns of the output stored past Dv"),
    _d("decode.padded_columns_stored",
       ("    if PAD_DV:\n        tile_mask", "    if False:\n        tile_mask"),
       "the padded head-dim columns of a decode tile stored past Dv", DECODE),
    _d("decode.counter_not_reset",
       ('            tl.atomic_xchg(count_ptr + tile, 0, sem="relaxed", scope="gpu")\n', ""),
       "a tile's merge counter not reset for the next launch: a later decode with the "
       "same tiles never merges (state carried between calls)", (STATEFUL[1], *DECODE)),
    _m("flash.no_keys_not_zeroed",
       ("    if out.numel() == 0 or dims.sk == 0:  # no row sees a key\n        out.zero_()\n",
        "    if out.numel() == 0 or dims.sk == 0:  # no row sees a key\n        pass\n"),
       "the early exit for Sk = 0 leaves the output unwritten", FLASH),
    _t("flash.diagonal_ignored_for_full_blocks",
       ("full_end = tl.minimum(tl.maximum(first + up_diag + 1, 0), Sk)",
        "full_end = tl.minimum(tl.maximum(first + 1, 0), Sk)"),
       "bottom-right offset missing when splitting full and masked blocks"),
)
