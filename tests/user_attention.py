"""Attention functions as a user would write them, one per calling convention,
each also with a planted bug (the last key of every row is dropped; the varlen
and paged ones read past their sequence's keys): what ``--impl MODULE:FUNCTION
--convention NAME`` is tested on."""

import torch


def _attend(q, k, v, scale, visible, drop_last=False):
    # q (B, H, Sq, D), k and v (B, H, Sk, D) with H already matched; fp32 math.
    logits = (q.float() @ k.float().transpose(-1, -2)) * scale
    if drop_last and k.shape[2] > 1:
        visible = visible.clone()
        visible[:, -1] = False
    logits = logits.masked_fill(~visible, float("-inf"))
    p = torch.softmax(logits, dim=-1).nan_to_num(0.0)
    return (p @ v.float()).to(q.dtype)


def _visible(sq, sk, causal, offset, device):
    if not causal:
        return torch.ones(sq, sk, dtype=torch.bool, device=device)
    i = torch.arange(sq, device=device)[:, None]
    j = torch.arange(sk, device=device)[None, :]
    return j <= i + offset


def _gqa(q, k, v):
    g = q.shape[1] // k.shape[1]
    return k.repeat_interleave(g, 1), v.repeat_interleave(g, 1)


def _scale(q, scale):
    return q.shape[-1] ** -0.5 if scale is None else scale


def mine(q, k, v, *, causal=False, scale=None, alignment="bottom_right", bug=False):
    scale = _scale(q, scale)
    k, v = _gqa(q, k, v)
    sq, sk = q.shape[2], k.shape[2]
    off = sk - sq if alignment == "bottom_right" else 0
    return _attend(q, k, v, scale, _visible(sq, sk, causal, off, q.device), bug)


def mine_buggy(q, k, v, **kw):
    return mine(q, k, v, bug=True, **kw)


def sdpa_like(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
              enable_gqa=False, bug=False):
    return mine(q, k, v, causal=is_causal, scale=scale, alignment="top_left", bug=bug)


def sdpa_like_without_gqa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False,
                          scale=None):
    """SDPA's signature before ``enable_gqa``: equal head counts only."""
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"k: expected {q.shape[1]} heads as q has, got {k.shape[1]}")
    return sdpa_like(q, k, v, is_causal=is_causal, scale=scale)


def sdpa_like_tiling_heads(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False,
                           scale=None):
    """SDPA's signature before ``enable_gqa``, answering other head counts by
    tiling the KV heads (query head h reads KV head h % Hkv; GQA reads
    h // (Hq // Hkv)): wrong, where it should refuse."""
    if q.shape[1] != k.shape[1]:
        tiles = q.shape[1] // k.shape[1]
        k, v = k.repeat(1, tiles, 1, 1), v.repeat(1, tiles, 1, 1)
    return sdpa_like(q, k, v, is_causal=is_causal, scale=scale)


def flash_like_without_scale(q, k, v, causal=False):
    """A flash_attn function that takes no ``softmax_scale``."""
    return flash_like(q, k, v, causal=causal)


def flash_like_raising_type_error(q, k, v, **kw):
    """Takes the call, then raises a TypeError of its own."""
    raise TypeError("unsupported operand type(s) for +: 'Tensor' and 'str'")


def sdpa_like_buggy(q, k, v, **kw):
    return sdpa_like(q, k, v, bug=True, **kw)


def flash_like(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, bug=False):
    """(B, S, H, D) tensors, as flash_attn_func takes them."""
    out = mine(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=causal,
               scale=softmax_scale, alignment="bottom_right", bug=bug)
    return out.transpose(1, 2)


def flash_like_buggy(q, k, v, **kw):
    return flash_like(q, k, v, bug=True, **kw)


def varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, *, max_seqlen_q, max_seqlen_k,
                causal=False, scale=None, alignment="bottom_right", bug=False):
    """Packed sequences, as flash_attention_varlen takes them: q (total_q, H, D).
    The bug: every sequence's keys run to the longest sequence's length (past its
    own end, into the next sequence's keys), which equal lengths never show."""
    out = q.new_empty(q.shape[0], q.shape[1], v.shape[-1])
    starts_q, starts_k = cu_seqlens_q.tolist(), cu_seqlens_k.tolist()
    for i in range(len(starts_q) - 1):
        q0, q1, k0, k1 = starts_q[i], starts_q[i + 1], starts_k[i], starts_k[i + 1]
        if bug:
            k1 = min(k0 + max_seqlen_k, k.shape[0])
        one = [t[a:b].transpose(0, 1)[None] for t, a, b in ((q, q0, q1), (k, k0, k1), (v, k0, k1))]
        out[q0:q1] = mine(*one, causal=causal, scale=scale, alignment=alignment)[0].transpose(0, 1)
    return out


def varlen_like_buggy(*args, **kw):
    return varlen_like(*args, bug=True, **kw)


def paged_like(q, k_cache, v_cache, block_table, cache_seqlens, *, causal=False, scale=None,
               bug=False):
    """A paged KV cache, as flash_attention_paged takes it: q (B, H, Sq, D), caches
    (blocks, page, H, D); the Sq queries are the last of each sequence's keys.
    The bug: every sequence's keys run to the end of its last page, which
    lengths that fill whole pages never show."""
    page = k_cache.shape[1]
    out = q.new_empty(*q.shape[:3], v_cache.shape[-1])
    for b, n in enumerate(cache_seqlens.tolist()):
        pages = block_table[b, : -(-n // page)].long()
        keys = -(-n // page) * page if bug else n
        k, v = (c[pages].reshape(-1, *c.shape[2:])[:keys].transpose(0, 1)[None]
                for c in (k_cache, v_cache))
        out[b] = mine(q[b:b + 1], k, v, causal=causal, scale=scale, alignment="bottom_right")[0]
    return out


def paged_like_buggy(*args, **kw):
    return paged_like(*args, bug=True, **kw)


def paged_like_one_block(q, k_cache, v_cache, block_table, cache_seqlens, **kw):
    """Reads at most the first 64 keys of every sequence's cache (its first key
    block, as a kernel whose loop over blocks never advances would)."""
    return paged_like(q, k_cache, v_cache, block_table, cache_seqlens.clamp(max=64), **kw)


# Functions of the flash_attn convention that break in one way each, for
# findings that must be reported in the function's (B, S, H, D) layout.
ONE_ELEMENT = (0, 2, 1, 14)  # (b, s, h, d) of the user's own out


def flash_like_one_element(q, k, v, **kw):
    """Right but for one element of its (B, S, H, D) out (where the shape has it)."""
    out = flash_like(q, k, v, **kw)
    if all(i < n for i, n in zip(ONE_ELEMENT, out.shape, strict=True)):
        out = out.clone()
        out[ONE_ELEMENT] += 1.0
    return out


def flash_like_one_element_nan(q, k, v, **kw):
    """NaN at one element of its (B, S, H, D) out (where the shape has it)."""
    out = flash_like(q, k, v, **kw)
    if all(i < n for i, n in zip(ONE_ELEMENT, out.shape, strict=True)):
        out = out.clone()
        out[ONE_ELEMENT] = float("nan")
    return out


def flash_like_heads_first(q, k, v, **kw):
    """Returns its out as (B, H, S, D), not flash_attn's (B, S, H, D)."""
    return flash_like(q, k, v, **kw).transpose(1, 2).contiguous()


def flash_like_float64(q, k, v, **kw):
    return flash_like(q, k, v, **kw).double()


class _OneGradWrong(torch.autograd.Function):
    """Identity forward; the backward adds 1 to one element of dq, indexed in
    the function's (B, S, H, D) layout."""

    @staticmethod
    def forward(ctx, q):
        return q.view_as(q)

    @staticmethod
    def backward(ctx, grad):
        grad = grad.clone()
        if all(i < n for i, n in zip(ONE_ELEMENT, grad.shape, strict=True)):
            grad[ONE_ELEMENT] += 1.0
        return grad


def flash_like_bad_backward(q, k, v, **kw):
    return flash_like(_OneGradWrong.apply(q), k, v, **kw)


def flash_like_detached(q, k, v, **kw):
    """Declared differentiable, but its out is cut off from autograd."""
    return flash_like(q, k, v, **kw).detach()


def varlen_row_three_wrong(*args, **kw):
    """Right but for the packed output's row 3, one more than it should be."""
    out = varlen_like(*args, **kw)
    if out.shape[0] > 3:
        out[3] += 1.0
    return out


def paged_varlen_like(q, k_cache, v_cache, block_table, cu_seqlens_q, seq_lens, *,
                      max_seqlen_q, max_seqlen_k, causal=False, scale=None, bug=None):
    """Packed queries over a paged cache (chunked prefill): q (total_q, H, D), each
    sequence's queries its last seq_lens keys' tokens.  The bugs: "top_left", each
    sequence's causal mask aligned top-left, as if its queries were its first
    keys, which sequences of as many queries as keys never show; "longest", each
    sequence's mask aligned as if it had max_seqlen_q queries, which batches of
    sequences with equal query counts never show."""
    page = k_cache.shape[1]
    out = q.new_empty(q.shape[0], q.shape[1], v_cache.shape[-1])
    starts = cu_seqlens_q.tolist()
    for b, n in enumerate(seq_lens.tolist()):
        pages = block_table[b, : -(-n // page)].long()
        k, v = (c[pages].reshape(-1, *c.shape[2:])[:n].transpose(0, 1)[None]
                for c in (k_cache, v_cache))
        rows = q[starts[b]:starts[b + 1]].transpose(0, 1)[None]
        if bug == "top_left":
            got = mine(rows, k, v, causal=causal, scale=scale, alignment="top_left")
        elif bug == "longest" and causal:
            visible = _visible(rows.shape[2], n, True, n - max_seqlen_q, q.device)
            got = _attend(rows, *_gqa(rows, k, v), _scale(rows, scale), visible)
        else:
            got = mine(rows, k, v, causal=causal, scale=scale, alignment="bottom_right")
        out[starts[b]:starts[b + 1]] = got[0].transpose(0, 1)
    return out


def paged_varlen_like_buggy(*args, **kw):
    return paged_varlen_like(*args, bug="top_left", **kw)


def paged_varlen_like_longest(*args, **kw):
    return paged_varlen_like(*args, bug="longest", **kw)


def _default_scale_one_over_d(fn):
    """``fn`` with the default scale 1/D instead of 1/sqrt(D): a serving entry
    point whose own default went wrong, which an explicit scale never shows."""
    def twin(q, *args, scale=None, **kw):
        return fn(q, *args, scale=1.0 / q.shape[-1] if scale is None else scale, **kw)
    return twin


varlen_like_default_scale = _default_scale_one_over_d(varlen_like)
paged_like_default_scale = _default_scale_one_over_d(paged_like)
paged_varlen_like_default_scale = _default_scale_one_over_d(paged_varlen_like)


def mine_lenient(q, k, v, **kw):
    """``mine`` that never checks its inputs agree: keys past the shorter of k
    and v, and head dims past q's, are dropped without a word."""
    n = min(k.shape[2], v.shape[2])
    return mine(q, k[:, :, :n, :q.shape[-1]], v[:, :, :n], **kw)


def mine_grad_needs_q(q, k, v, **kw):
    """``mine`` that takes its differentiable path only when q requires grad:
    a call where only k or v does gets an output autograd cannot follow."""
    if q.requires_grad:
        return mine(q, k, v, **kw)
    with torch.no_grad():
        return mine(q, k, v, **kw)


def varlen_like_exact_max_seqlen(q, k, v, cu_seqlens_q, cu_seqlens_k, *, max_seqlen_q,
                                 max_seqlen_k, **kw):
    """``varlen_like`` that refuses a max_seqlen above the longest sequence (a
    check written the wrong way round): valid input, a padded bucket, refused."""
    for name, given, cu in (("max_seqlen_q", max_seqlen_q, cu_seqlens_q),
                            ("max_seqlen_k", max_seqlen_k, cu_seqlens_k)):
        longest = int((cu[1:] - cu[:-1]).max()) if cu.numel() > 1 else 0
        if given != longest:
            raise ValueError(f"{name} must be the longest sequence's length, {longest}")
    return varlen_like(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q=max_seqlen_q,
                       max_seqlen_k=max_seqlen_k, **kw)


class _OutOnCtx(torch.autograd.Function):
    """Attention (no mask, heads matched) whose backward forms delta =
    rowsum(dO * O) from an output kept on ``ctx`` (the planted bug) or, with
    ``saved``, from one kept by ``save_for_backward``."""

    @staticmethod
    def forward(ctx, q, k, v, scale, saved):
        p = torch.softmax((q.float() @ k.float().transpose(-1, -2)) * scale, dim=-1)
        out = (p @ v.float()).to(q.dtype)
        if saved:
            ctx.save_for_backward(q, k, v, out)
        else:
            ctx.save_for_backward(q, k, v)
            ctx.out = out
        ctx.scale, ctx.saved = scale, saved
        return out

    @staticmethod
    def backward(ctx, do):
        q, k, v, *kept = ctx.saved_tensors
        out = kept[0] if ctx.saved else ctx.out
        q, k, v, do, out = (t.float() for t in (q, k, v, do, out))
        p = torch.softmax((q @ k.transpose(-1, -2)) * ctx.scale, dim=-1)
        dv = p.transpose(-1, -2) @ do
        ds = p * (do @ v.transpose(-1, -2) - (do * out).sum(-1, keepdim=True))
        dq, dk = ctx.scale * ds @ k, ctx.scale * ds.transpose(-1, -2) @ q
        return dq.to(do.dtype), dk.to(do.dtype), dv.to(do.dtype), None, None


def out_on_ctx(q, k, v, *, causal=False, scale=None, alignment="bottom_right", saved=False):
    return _OutOnCtx.apply(q, k, v, _scale(q, scale), saved)


def out_saved(q, k, v, **kw):
    return out_on_ctx(q, k, v, saved=True, **kw)


def _as_if_aligned(t):
    """``t`` read from the 16-byte boundary at or below its start, as a kernel
    told its pointers are aligned (``tl.multiple_of``) reads them."""
    back = t.data_ptr() % 16 // t.element_size()
    return t.as_strided(t.shape, t.stride(), t.storage_offset() - back)


def mine_assumes_aligned(q, k, v, **kw):
    """``mine`` reading every input as if it started on a 16-byte boundary."""
    return mine(_as_if_aligned(q), _as_if_aligned(k), _as_if_aligned(v), **kw)


def eager(q, k, v, *, causal=False, scale=None, alignment="bottom_right", bug=False):
    """Eager attention as tensor ops in q's dtype: q k^T rounded to it, then
    its product with the scale; the softmax in fp32, P rounded back."""
    scale = _scale(q, scale)
    k, v = _gqa(q, k, v)
    sq, sk = q.shape[2], k.shape[2]
    visible = _visible(sq, sk, causal, sk - sq if alignment == "bottom_right" else 0, q.device)
    if bug and sk > 1:
        visible = visible.clone()
        visible[:, -1] = False
    logits = (q @ k.transpose(-1, -2)) * scale
    logits = logits.masked_fill(~visible, float("-inf"))
    p = torch.softmax(logits, dim=-1, dtype=torch.float32).nan_to_num(0.0)
    return p.to(q.dtype) @ v


def eager_buggy(q, k, v, **kw):
    return eager(q, k, v, bug=True, **kw)
