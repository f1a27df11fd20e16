"""Mutants of the Hopper kernels (``kernels/hopper_prefill.py``,
``kernels/hopper_backward.py``); see ``runner``.

They run where the kernels do, on an sm_90 GPU; elsewhere the runner
reports them as not run.  The pipelined consumer loop is the one
``flash_attention`` launches, so the loop's mutants edit that loop.
"""

from __future__ import annotations

from .mutant import HOPPER, HOPPER_BACKWARD, Mutant, mutant

_PIPELINED_RESCALE = (
    "        mbarrier.arrive(kv_empty.index(prev), count=1)\n"
    "        acc = acc * gl.expand_dims(gl.convert_layout(alpha, o_rows), 1)\n"
)


def _h(name, edits, mimics, targets=HOPPER):
    return mutant(name, "hopper_prefill.py", edits, mimics, targets)


def _hb(name, edits, mimics):
    return mutant(name, "hopper_backward.py", edits, mimics, HOPPER_BACKWARD)


HOPPER_MUTANTS: tuple[Mutant, ...] = (
    _h("hopper.kv_head_modulo_group", ("kv_head = head // GROUP", "kv_head = head % GROUP"),
       "the query head's KV head taken modulo the group size instead of divided by it"),
    _h("hopper.key_tail_unmasked", ("visible = gl.expand_dims(cols < sk, 0)",
                                    "visible = gl.expand_dims(cols < sk + 1, 0)"),
       "the key past Sk that TMA zero-fills counted as a key (a score of 0)"),
    _h("hopper.causal_diagonal_excluded",
       ("(gl.expand_dims(cols, 0) <= gl.expand_dims(rows + off, 1))",
        "(gl.expand_dims(cols, 0) < gl.expand_dims(rows + off, 1))"),
       "the causal mask drops each row's own diagonal key"),
    _h("hopper.diagonal_block_unmasked",
       ("gl.maximum(m0 + OFF + 1, 0) // BLOCK_N)", "gl.maximum(m0 + OFF + BLOCK_N, 0) // BLOCK_N)"),
       "the block on the causal diagonal counted among those every row sees fully"),
    _h("hopper.pipelined_acc_not_rescaled",
       (_PIPELINED_RESCALE, "        mbarrier.arrive(kv_empty.index(prev), count=1)\n"),
       "the pipelined loop's accumulator not rescaled when a block raises the running max"),
    _h("hopper.lse_without_weight_shift",
       ("+ gl.log2(gl.where(seen, l_i, 1.0)) + soft[1]) * LN2",
        "+ gl.log2(gl.where(seen, l_i, 1.0))) * LN2"),
       "the LSE left without the weight shift added back (bf16 and more than one key)"),
    # The grid choice follows from the causal flag, so a key without the flag
    # but with the grid cannot replay the wrong kernel: the mutant drops both.
    _h("hopper.launch_key_omits_causal",
       ("    plan = (dims, causal, lse is not None, p_shift, pipeline, stages, persistent,",
        "    plan = (dims, lse is not None, p_shift, pipeline, stages,"),
       "the launch cache keyed without the causal flag (nor the grid it chooses): a causal "
       "call after a non-causal one of the same shape replays the non-causal launch"),
    _h("hopper.next_tile_keeps_acc",
       ("nxt, count, soft, m_n, l_n,\n                                     gl.zeros_like(acc),",
        "nxt, count, soft, m_n, l_n,\n                                     acc,"),
       "a persistent program's next tile starts from the last tile's accumulator"),
    _h("hopper.next_tile_keeps_softmax_state",
       ("p, alpha, m_n, l_n = _softmax(qk, gl.full_like(m_i, float(\"-inf\")), gl.zeros_like(l_i),",
        "p, alpha, m_n, l_n = _softmax(qk, m_i, l_i,"),
       "a persistent program's next tile starts from the last tile's running max and sum"),
    _hb("hopper_bwd.query_head_interleaved",
        ("        head = kv_head * GROUP + g\n        m0 = m * BLOCK_M\n        s = it % STAGES\n",
         "        head = kv_head + g * HKV\n        m0 = m * BLOCK_M\n        s = it % STAGES\n"),
        "the group's query heads taken as KV head + g * HKV (interleaved) instead of "
        "KV head * group + g: Q and dO of another head"),
    _hb("hopper_bwd.causal_diagonal_excluded",
        ("visible = gl.expand_dims(keys, 1) <= gl.expand_dims(rows + DIAG, 0)",
         "visible = gl.expand_dims(keys, 1) < gl.expand_dims(rows + DIAG, 0)"),
        "the causal mask drops each row's own diagonal key"),
    _hb("hopper_bwd.partly_seen_block_unmasked",
        ("full_from = k0 + HALF_N - 1 - DIAG", "full_from = k0 - DIAG"),
        "a query block is left unmasked once its first row sees the half's first key, "
        "not its last"),
    _hb("hopper_bwd.first_rows_skipped",
        ("gl.maximum(n * BLOCK_N - DIAG, 0) // BLOCK_M", "gl.cdiv(gl.maximum(n * BLOCK_N - DIAG, "
         "0), BLOCK_M)"),
        "causal, the walk starts at the first whole query block after the first row that "
        "sees the keys, skipping the rows before it"),
    _hb("hopper_bwd.second_half_masked_as_first",
        ("    keys = k0 + gl.arange(0, HALF_N, keys_of)", "    keys = n * BLOCK_N + gl.arange(0, "
         "HALF_N, keys_of)"),
        "the second consumer masks its keys as if they were the first consumer's"),
    _hb("hopper_bwd.dk_unscaled", ("_store_rows(dk * scale,", "_store_rows(dk,"),
        "dK stored without the softmax scale"),
    _hb("hopper_bwd.ds_without_delta", ("ds = (p * (dpt - gl.expand_dims(delta, 0)))",
                                        "ds = (p * dpt)"),
        "dS taken as P dP, without subtracting delta = rowsum(dO * O)"),
    _hb("hopper_bwd.launch_key_omits_causal",
        ("cache.launch((dims, causal, stages, fused),", "cache.launch((dims, stages, fused),"),
        "the dK/dV launch cached without the causal flag: a causal backward after a "
        "non-causal one of the same shape replays the non-causal launch"),
    _hb("hopper_bwd.dq_diagonal_excluded",
        ("(gl.expand_dims(cols, 0) <= gl.expand_dims(rows + DIAG, 1))",
         "(gl.expand_dims(cols, 0) < gl.expand_dims(rows + DIAG, 1))"),
        "dQ's causal mask drops each row's own diagonal key"),
    _hb("hopper_bwd.dq_diagonal_block_unmasked",
        ("gl.maximum(r0 + DIAG + 1, 0) // BLOCK_KV)", "gl.maximum(r0 + DIAG + BLOCK_KV, 0) // "
         "BLOCK_KV)"),
        "dQ's key block on the causal diagonal counted among those every row sees fully"),
    _hb("hopper_bwd.dq_keys_of_the_first_half",
        ("gl.minimum(m0 + 2 * BLOCK_M, Sq) + DIAG), 0)", "gl.minimum(m0 + BLOCK_M, Sq) + DIAG), "
         "0)"),
        "causal, dQ's program walks the keys its first 64 rows see, short of its last 64's"),
    _hb("hopper_bwd.dq_unscaled", ("_store_rows(dq * soft[1],", "_store_rows(dq,"),
        "dQ stored without the softmax scale"),
    _hb("hopper_bwd.lse_left_natural", ("lse * _LOG2E)", "lse)"),
        "the row statistics keep the forward's natural-log LSE where the exponentials take "
        "base 2"),
    _hb("hopper_bwd.delta_of_the_next_stage",
        ("delta = stat_bufs.index(2 * s + 1).load(rows_of)",
         "delta = stat_bufs.index(2 * ((s + 1) % STAGES) + 1).load(rows_of)"),
        "dK and dV read delta from the ring's next stage: another query block's rows"),
    # The fused backward (reached by cases drawing ``fused_backward=True``).
    _hb("hopper_bwd.fused_dq_unscaled", ("(sums * scale)", "sums"),
        "fused, dQ cast from its sums without the softmax scale"),
    _hb("hopper_bwd.fused_first_share_added",
        ("    if rank == 0:\n        tma.async_copy_shared_to_global(",
         "    if rank < 0:\n        tma.async_copy_shared_to_global("),
        "fused, a query block's first share is added to the sums too, onto whatever the "
        "new buffer held, instead of stored"),
    _hb("hopper_bwd.fused_keyless_rows_zeroed_by_key_block",
        (":-dims.diagonal // BLOCK_M.value * BLOCK_M.value]",
         ":-dims.diagonal // BLOCK_N.value * BLOCK_N.value]"),
        "fused, causal, the query rows no key sees zeroed in 128-row key blocks, not 64-row "
        "query blocks: a last 64 such rows keep what the buffer held"),
)
