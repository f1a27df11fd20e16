"""Mutants of the serving kernels (``kernels/serving.py``, the paged key loop
in ``kernels/_row_tile.py`` and the split paged path in
``kernels/split_decode.py``); see ``runner``."""

from __future__ import annotations

from .mutant import BAD_METADATA, BAD_SERVING_OUT, SERVING, Mutant, mutant


def _s(name, edits, mimics, file="serving.py", equivalent=None):
    return mutant(name, file, edits, mimics, SERVING, equivalent)


SERVING_MUTANTS: tuple[Mutant, ...] = (
    _s("varlen.diagonal_from_max",
       ("            diagonal = Sk - Sq\n", "            diagonal = Sk - MAX_SQ\n"),
       "a sequence's causal diagonal from the longest sequence's length, not its own"),
    _s("varlen.lse_rows_by_max",
       ("lse_ptr + head * TOTAL_Q + packed", "lse_ptr + head * MAX_SQ + packed"),
       "the packed LSE's head stride taken from the longest sequence, not the total"),
    _s("varlen.one_overflow_guard",
       ("p_shift = tl.load(shift_ptr + seq)", "p_shift = tl.load(shift_ptr)"),
       "the overflow guard of the first sequence's key count used for every sequence"),
    _s("varlen.keys_to_the_next_end",
       ("Sk = (tl.load(cu_k_ptr + seq + 1) - k_start)",
        "Sk = (tl.load(cu_k_ptr + seq + 2) - k_start)"),
       "a sequence's keys run to the next sequence's end (the prefix sums indexed one "
       "too far): it attends to the next one's keys, and the last reads past cu_seqlens_k"),
    _s("paged.page_index_off_by_one",
       ("page = tl.load(table + kv_idx // PAGE,", "page = tl.load(table + (kv_idx + 1) // PAGE,"),
       "a key's page looked up one slot late: the last slot of a page reads the next "
       "page's entry", file="_row_tile.py"),
    _s("paged.slot_by_v_stride",
       ("page * s_kpage + slot * s_kn", "page * s_kpage + slot * s_vn"),
       "K's slots within a page addressed with V's slot stride (right only when Dv == D)",
       file="_row_tile.py"),
    _s("paged_split.diagonal_of_the_first_sequence",
       ("        DIAGONAL = Sk - Sq\n", "        DIAGONAL = tl.load(seqlens_ptr) - Sq\n"),
       "the split paged path's causal diagonal from the first sequence's cache length",
       file="split_decode.py"),
    _s("paged_split.ranges_of_the_last_sequence",
       ("        sk_visible = max((visible(n, n - dims.sq) for n in lengths), default=0)\n",
        "        sk_visible = visible(lengths[-1], lengths[-1] - dims.sq)\n"),
       "the split paged path's key ranges planned for the last sequence only: a longer "
       "one's keys past them are never read", file="split_decode.py"),
    # The checks of the metadata, each letting through one kind that does not
    # describe the tensors.
    mutant("varlen.prefix_sums_may_end_short",
           "serving.py", ("if total is not None and cu[-1] != total:",
                          "if total is not None and cu[-1] > total:"),
           "prefix sums that end before the packed tensor's last row are taken (its last "
           "rows are never written)", BAD_METADATA),
    mutant("varlen.prefix_sums_may_decrease", "serving.py",
           ("if any(b < a for a, b in zip(cu, cu[1:], strict=False)):",
            "if any(b < a - 1 for a, b in zip(cu, cu[1:], strict=False)):"),
           "prefix sums that fall by one are taken (a sequence of -1 rows)", BAD_METADATA),
    mutant("paged.table_may_name_the_page_past_the_cache", "serving.py",
           ("(table >= num_pages)", "(table > num_pages)"),
           "a table entry one past the cache's last page is taken (its keys are read past "
           "the cache)", BAD_METADATA),
    mutant("paged.last_page_unchecked", "serving.py",
           ("used = torch.arange(width, device=table.device) * page < seqlens[:, None]",
            "used = torch.arange(1, width + 1, device=table.device) * page < seqlens[:, None]"),
           "a sequence's last page is not among those checked (one slot later than the keys "
           "it holds)", BAD_METADATA),
    mutant("paged.lengths_past_the_table", "serving.py",
           ("if not sq <= n <= width * page:", "if not sq <= n:"),
           "a cache length past the table's pages is taken (the table is read past its "
           "width)", BAD_METADATA),
    mutant("varlen.max_seqlen_one_short", "serving.py",
           ("    if given < actual:\n", "    if given < actual - 1:\n"),
           "a max_seqlen one below the longest sequence is taken (grids sized by it miss "
           "that sequence's last rows)", BAD_METADATA),
    # The planned paths: the plan's copy of the metadata read as the call's.
    mutant("paged.plan_table_as_given", "serving.py",
           ("table, lens = plan.table, list(plan.lengths)",
            "table, lens = plan.block_table, list(plan.lengths)"),
           "a planned call reads the table as given, not the plan's unit-stride copy (a "
           "strided or column-major table is read at the wrong entries)",
           (*SERVING, *BAD_METADATA)),
    mutant("paged.plan_lengths_of_the_first_sequence", "serving.py",
           ("table, lens = plan.table, list(plan.lengths)",
            "table, lens = plan.table, [plan.lengths[0]] * len(plan.lengths)"),
           "a planned call takes every sequence's length to be the first one's",
           (*SERVING, *BAD_METADATA)),
    mutant("varlen.plan_sums_swapped", "serving.py",
           ("    return list(plan.cu_q), list(plan.cu_k)\n",
            "    return list(plan.cu_k), list(plan.cu_q)\n"),
           "a planned call takes the keys' prefix sums for the queries' and the other way "
           "round (right wherever they are equal: self-attention)", (*SERVING, *BAD_METADATA)),
    mutant("varlen.plan_total_q_unchecked", "serving.py",
           ('_same({"total_q": (plan.cu_q[-1], q.shape[0]), "total_k": (plan.cu_k[-1], total_k)})',
            '_same({"total_k": (plan.cu_k[-1], total_k)})'),
           "a planned call takes packed queries of another total than the plan's prefix sums "
           "end at", BAD_METADATA),
    # What a caller may pass besides the metadata: an out= and no LSE.
    _s("paged.given_out_ignored",
       ("out = prepare_out(out, (b, hq, sq, dv), q,",
        "out = prepare_out(None, (b, hq, sq, dv), q,"),
       "a paged call given an out= writes and returns a new tensor instead"),
    _s("varlen.lse_stored_when_not_asked",
       ("TOP_LEFT=top_left, NEG_SCALE=scale < 0,\n             STORE_LSE=lse is not None",
        "TOP_LEFT=top_left, NEG_SCALE=scale < 0,\n             STORE_LSE=True"),
       "a varlen call asked for no LSE stores it anyway, through the out it passes in its "
       "place"),
    mutant("varlen.out_may_overlap_v", "serving.py",
           ('inputs=(("q", q), ("k", k), ("v", v)))', 'inputs=(("q", q), ("k", k)))'),
           "a varlen call's out= is checked for overlap with q and k, not v",
           (*BAD_SERVING_OUT, *SERVING)),
    mutant("paged.out_may_overlap_the_k_cache", "serving.py",
           ('inputs=(("q", q), ("k_cache", k_cache), ("v_cache", v_cache)))',
            'inputs=(("q", q), ("v_cache", v_cache)))'),
           "a paged call's out= is checked for overlap with q and the V cache, not the K "
           "cache", (*BAD_SERVING_OUT, *SERVING)),
    _s("paged.lengths_of_the_first_sequence",
       ("    Sk = tl.load(seqlens_ptr + batch)\n", "    Sk = tl.load(seqlens_ptr)\n"),
       "every sequence takes the first one's cache length"),
)
