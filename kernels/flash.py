"""Fused (flash) attention: one pass over K and V, the score matrix never stored.

The public entry points and the dense prefill.  The prefill kernel gives one
program BLOCK_M query rows of one (batch, head) and runs the row tile on them
(``_row_tile.attend_rows``: the online softmax, the causal and window key
ranges, rows that see no key, the overflow guard); its tiles come from
``_tuning``, which autotunes long launches on the GPU.  Few query rows over
many keys (``uses_decode_path``) run the split-K decode of
``split_decode.py`` instead, which packs the GQA group into one tile and
splits the keys into ranges that the last program of a tile merges.

Strides.  Every tensor is addressed through all four of its strides, with the
(batch, head) program index split into a batch and a head index, so
transposed, sliced, expanded (stride 0) and non-unit-last-stride views work
without a copy.  Offsets that grow with the tensor are int64.  Head dims are
padded to a power of two (at least 16, the smallest ``tl.dot`` operand) and the
padding is masked on load, so no byte outside a tensor is read.

Hopper.  On an sm_90 GPU a prefill of fp16 or bf16 at D = Dv = 128 without a
window, with the work to cover its launch (``uses_hopper_path``), runs
``hopper_prefill.py``'s warp-specialised kernel instead, with the same
arithmetic in another order (``flash_hopper`` forces it, ``flash_prefill``
the portable kernel).

Backward.  When q, k or v requires grad, the forward runs through an
autograd Function that also keeps the LSE, from which ``flash_backward.py``
recomputes P (FlashAttention-2's backward); a call whose forward ran the
Hopper kernel gets its gradients from ``hopper_backward.py``'s.  Its forward
launches the same kernels with the same tiles, the LSE stored too, so its
output is bit for bit that of a call without autograd.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from ._checks import (
    AttentionDims,
    Window,
    check_attention_inputs,
    check_computable,
    check_differentiable_out,
    check_flag,
    check_window,
    dot_precision,
    interpreting,
    needs_grad,
    prepare_out,
)
from ._launch import LaunchCache
from ._row_tile import attend_rows, weight_shift
from ._tiles import (
    LOG2E,
    Config,
    _cdiv,
    _head_meta,
    _load_2d,
    _on_device_of,
    launch_window,
    window_args,
)
from ._tuning import (
    PREFILL_CONFIGS,
    autotuning,
    length_bucket,
    prefill_config,
    prefill_tuner,
    tuned_config,
)
from .flash_backward import launch_backward
from .hopper_prefill import launch_hopper
from .hopper_prefill import refusal as hopper_refusal
from .split_decode import (  # noqa: F401  (the decode path's names, read from here too)
    _COUNTERS,
    _DECODE,
    DecodePlan,
    PagedKeys,
    _flash_decode_kernel,
    decode_config,
    decode_plan,
    launch_decode,
    plan_splits,
)

# The prefill tile table and the autotuning switch, read from here by
# benchmarks and property checks under these names.
_CONFIGS = PREFILL_CONFIGS
_autotuning = autotuning

# Speculative decoding verifies a handful of drafted tokens at once; up to this
# many query rows the decode kernel's small packed tiles beat BLOCK_M-row tiles.
DECODE_MAX_SQ = 16
# Up to this many keys flash_attention keeps the prefill kernel for any Sq.
DECODE_MIN_SK = 64
# From this many (query, key) pairs over all heads on, flash_attention runs the
# Hopper kernel where it can: 1.10-1.27x the portable kernel from Sq = Sk = 1k
# at B * Hq = 64 (2**26 pairs) up, but below it a call is bound by host time,
# of which the Hopper launch takes more (benchmarks/NOTES.md, g4).
HOPPER_MIN_PAIRS = 2**26


# Sizes vary from case to case and are not specialised on (== 1, % 16), or
# fuzzing would compile a binary per case; the head dims are runtime values for
# the same reason, only their padding is compile-time.  Strides stay
# specialised: their divisibility by 16 is what proves rows 16-byte aligned,
# which vectorised (cp.async) K/V loads need.
_SIZES = ["Sq", "Sk", "H", "GROUP", "DIAGONAL", "HEAD_D", "HEAD_DV", "WIN_LEFT", "WIN_RIGHT"]


@triton.jit(do_not_specialize=[*_SIZES, "TUNE_SQ", "TUNE_SK"])
def _flash_fwd_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr,
    Sq, Sk, H, GROUP, DIAGONAL, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT,
    s_qb, s_qh, s_qm, s_qd,
    s_kb, s_kh, s_kn, s_kd,
    s_vb, s_vh, s_vn, s_vd,
    s_ob, s_oh, s_om, s_od,
    qk_scale, p_shift,
    TUNE_SQ, TUNE_SK,  # autotuning key only (length buckets)
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, NEG_SCALE: tl.constexpr, STORE_LSE: tl.constexpr,
    PRECISION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
):
    # One flat grid axis: B * Hq can exceed the 65535 limit of axes 1 and 2.
    # Query blocks of one head are adjacent so they share K/V in L2; causal
    # runs each head's heaviest (last) query block first to even out the tail.
    pid = tl.program_id(0)
    num_m = tl.cdiv(Sq, BLOCK_M)
    m_blk = pid % num_m
    if CAUSAL:
        m_blk = num_m - 1 - m_blk
    pid_bh = pid // num_m
    batch = (pid_bh // H).to(tl.int64)
    head = pid_bh % H
    kv_head = (head // GROUP).to(tl.int64)
    head = head.to(tl.int64)

    rows = m_blk * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    offs_dv = tl.arange(0, BLOCK_DV)
    q_ptrs = (
        q_ptr + batch * s_qb + head * s_qh
        + rows[:, None].to(tl.int64) * s_qm + offs_d[None, :].to(tl.int64) * s_qd
    )
    q = _load_2d(q_ptrs, rows, Sq, offs_d, HEAD_D, True, PAD_D)
    k_tile = (
        k_ptr + batch * s_kb + kv_head * s_kh
        + offs_n[:, None].to(tl.int64) * s_kn + offs_d[None, :].to(tl.int64) * s_kd
    )
    v_tile = (
        v_ptr + batch * s_vb + kv_head * s_vh
        + offs_n[:, None].to(tl.int64) * s_vn + offs_dv[None, :].to(tl.int64) * s_vd
    )

    out, lse = attend_rows(
        q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn, rows=rows,
        first=m_blk * BLOCK_M, Sq=Sq, Sk=Sk, DIAGONAL=DIAGONAL, WIN_LEFT=WIN_LEFT,
        WIN_RIGHT=WIN_RIGHT, qk_scale=qk_scale, p_shift=p_shift, HEAD_D=HEAD_D, HEAD_DV=HEAD_DV,
        table=k_tile, s_kpage=0, s_vpage=0, PAGE=0,  # dense keys: the table is never read
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D,
        PAD_DV=PAD_DV, CAUSAL=CAUSAL, HAS_LEFT=HAS_LEFT, HAS_RIGHT=HAS_RIGHT,
        NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=False,
    )
    o_ptrs = (
        o_ptr + batch * s_ob + head * s_oh
        + rows[:, None].to(tl.int64) * s_om + offs_dv[None, :].to(tl.int64) * s_od
    )
    # A mask on the head dim compares against a runtime value (HEAD_DV is not
    # specialised), which turns the store into one scalar store per element;
    # only padded heads need it.
    if PAD_DV:
        o_mask = (rows[:, None] < Sq) & (offs_dv[None, :] < HEAD_DV)
    else:
        o_mask = rows[:, None] < Sq
    tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=o_mask)
    if STORE_LSE:
        # lse is allocated here, contiguous (B, Hq, Sq).
        tl.store(lse_ptr + pid_bh.to(tl.int64) * Sq + rows, lse, mask=rows < Sq)


_flash_fwd_tuned = prefill_tuner(
    _flash_fwd_kernel, ["HEAD_D", "HEAD_DV", "CAUSAL", "PRECISION", "HAS_LEFT", "HAS_RIGHT"])


# --------------------------------------------------------------------------
# Which kernel a call runs
# --------------------------------------------------------------------------


def uses_decode_path(sq: int, sk: int) -> bool:
    """Whether ``flash_attention`` runs the split-K decode kernels for these lengths.

    Few query rows over more than one key block.  On the GPU this holds
    whether or not ``B * Hq`` programs would fill the SMs: the decode kernel
    also packs the GQA group into one tile and reads each K/V byte once per KV
    head, and when the tiles already fill the GPU it uses one split and skips
    the merge.  Under the interpreter the rule is the same; its decode blocks
    are 64 keys, so Sk > 64 gives at least two blocks to split and CPU tests
    reach the path on small shapes.
    """
    return 0 < sq <= DECODE_MAX_SQ and sk > DECODE_MIN_SK


def uses_hopper_path(q: torch.Tensor, dims: AttentionDims, window: Window | None) -> bool:
    """Whether ``flash_attention`` runs a prefill on the Hopper kernel: one it
    can compute, with enough work to cover its launch's host time."""
    pairs = dims.batch * dims.hq * dims.sq * dims.sk
    return pairs >= HOPPER_MIN_PAIRS and hopper_refusal(q, dims, window=window) is None


# --------------------------------------------------------------------------
# Launcher
# --------------------------------------------------------------------------


_PREFILL = LaunchCache(_flash_fwd_kernel)


def launch_prefill(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
    lse: torch.Tensor | None, dims: AttentionDims, *,
    causal: bool, precision: str, config: Config | None = None, window: Window | None = None,
) -> None:
    """Run the fused forward kernel into ``out`` (and contiguous fp32 ``lse``).

    ``config`` forces a tile shape (tests sweep it); by default long launches
    are autotuned on the GPU and everything else takes ``prefill_config``.
    ``window`` is ``check_window``'s sliding window.
    """
    window = launch_window(window, causal, dims.sq + dims.sk)
    sizes, flags = window_args(window)
    strides = (*q.stride(), *k.stride(), *v.stride(), *out.stride())
    tensors = (q, k, v, out, lse if lse is not None else out)

    def build() -> tuple[tuple[int, ...], tuple, dict] | None:
        qk_scale = dims.scale * LOG2E
        bucket_sq, bucket_sk = length_bucket(dims.sq), length_bucket(dims.sk)
        args = (
            dims.sq, dims.sk, dims.hq, dims.group, dims.diagonal, dims.d, dims.dv, *sizes,
            *strides, qk_scale, weight_shift(v.dtype, dims.sk), bucket_sq, bucket_sk,
        )
        meta = dict(
            **_head_meta(dims),
            CAUSAL=causal, NEG_SCALE=qk_scale < 0, STORE_LSE=lse is not None,
            PRECISION=precision, **flags,
        )
        bh = dims.batch * dims.hq
        c = config
        if c is None and autotuning(dims.sq, dims.sk):
            key = (bucket_sq, bucket_sk, dims.d, dims.dv, causal, precision, q.dtype, out.dtype,
                   flags["HAS_LEFT"], flags["HAS_RIGHT"])
            c = tuned_config(_flash_fwd_tuned, key, lambda block_m: (_cdiv(dims.sq, block_m) * bh,),
                             (*tensors, *args), meta)
            if c is None:
                return None
        c = c or prefill_config(q.dtype, precision, dims.d, dims.dv)
        meta.update(BLOCK_M=c.block_m, BLOCK_N=c.block_n,
                    num_warps=c.num_warps, num_stages=c.num_stages)
        return (_cdiv(dims.sq, c.block_m) * bh,), args, meta

    # Everything build() computes follows from this plan and the tensors'
    # dtypes (the tuner's choice too: once made, it stays).
    _PREFILL.launch((dims, strides, causal, precision, config, lse is not None, window),
                    tensors, build)


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def _check_count(value: object, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    return value


def _v_for_pv_dot(v: torch.Tensor) -> torch.Tensor:
    """V as the P @ V dot can take it on this backend.

    On the GPU, causal 16-bit launches intermittently faulted with an illegal
    address on sm_90, and the first faulting cases the fuzzer found on the H200
    all had a V whose head dim is not its contiguous dim (last-dim stride != 1);
    a replay of one under memcheck ran clean, so the fault depends on more than
    the inputs and its cause is not established (see also ``_head_meta``).
    Such a V is copied to a dense layout first (one copy of V, only then).
    """
    if interpreting() or v.dtype == torch.float32 or v.stride(-1) == 1 or v.shape[-1] == 1:
        return v
    return v.contiguous()


def _chosen_path(path: str, q: torch.Tensor, dims: AttentionDims,
                 window: Window | None) -> str:
    """The kernel a call on ``path`` runs: "auto" resolved by size."""
    if path != "auto":
        return path
    return ("decode" if uses_decode_path(dims.sq, dims.sk)
            else "hopper" if uses_hopper_path(q, dims, window) else "prefill")


def _forward(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
    lse: torch.Tensor | None, dims: AttentionDims, *,
    causal: bool, precision: str, path: str, splits: int | None, programs: int | None = None,
    window: Window | None = None,
) -> None:
    """Attention into ``out`` (and ``lse`` if given) on the chosen path."""
    if out.numel() == 0 or dims.sk == 0:  # no row sees a key
        out.zero_()
        if lse is not None:
            lse.fill_(float("-inf"))
        return
    v = _v_for_pv_dot(v)
    path = _chosen_path(path, q, dims, window)
    with _on_device_of(q):
        if path == "decode":
            launch_decode(
                q, k, v, out, lse, dims, causal=causal, precision=precision, num_splits=splits,
                window=window,
            )
        elif path == "hopper":
            launch_hopper(q, k, v, out, lse, dims, causal=causal,
                          p_shift=weight_shift(v.dtype, dims.sk), programs=programs)
        else:
            launch_prefill(q, k, v, out, lse, dims, causal=causal, precision=precision,
                           window=window)


class _FlashAttention(torch.autograd.Function):
    """The forward's kernels, with the LSE the backward recomputes P from.

    q, k, v and the output are saved with ``save_for_backward``, so autograd's
    version counters catch an in-place change to any of them before the
    backward reads it.  The LSE is returned (the caller drops it unless asked
    for) but is not differentiable.
    """

    @staticmethod
    def forward(ctx, q, k, v, dims, causal, precision, path, splits, programs, window,
                fused_backward):
        rows = (dims.batch, dims.hq, dims.sq)
        out = torch.empty((*rows, dims.dv), dtype=q.dtype, device=q.device)
        lse = torch.empty(rows, dtype=torch.float32, device=q.device)
        _forward(q, k, v, out, lse, dims, causal=causal, precision=precision, path=path,
                 splits=splits, programs=programs, window=window)
        ctx.save_for_backward(q, k, v, out, lse)
        ctx.mark_non_differentiable(lse)
        # The LSE's gradient is never read: without this, autograd fills a
        # zero tensor for it every backward (a launch of a short step's host
        # time).  The output's always arrives: it is the one differentiable output.
        ctx.set_materialize_grads(False)
        ctx.dims, ctx.causal, ctx.precision, ctx.window = dims, causal, precision, window
        # A forward on the Hopper kernel gets its gradients from the Hopper
        # backward: one choice for both, made without reading strides.
        ctx.hopper = _chosen_path(path, q, dims, window) == "hopper"
        ctx.fused = fused_backward
        return out, lse

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, d_out, _d_lse):
        q, k, v, out, lse = ctx.saved_tensors
        grads = launch_backward(
            d_out, q, k, v, out, lse, ctx.dims, causal=ctx.causal, precision=ctx.precision,
            needs=tuple(ctx.needs_input_grad[:3]), window=ctx.window, hopper=ctx.hopper,
            fused=ctx.fused,
        )
        return (*grads, None, None, None, None, None, None, None, None)


def _attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *,
    causal: bool, scale: float | None, alignment: str, input_precision: str,
    return_lse: bool, out: torch.Tensor | None, path: str, num_splits: object = None,
    programs: object = None, window: object = None, fused_backward: object = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    dims = check_attention_inputs(
        q, k, v, causal=causal, scale=scale, alignment=alignment, input_precision=input_precision
    )
    inputs = (("q", q), ("k", k), ("v", v))
    check_computable(inputs, differentiable=True)
    check_flag(return_lse, "return_lse")
    splits = _check_count(num_splits, "num_splits")
    programs = _check_count(programs, "programs")
    if fused_backward is not None:
        check_flag(fused_backward, "fused_backward")
    win = launch_window(check_window(window), causal, dims.sq + dims.sk)
    precision = dot_precision(q.dtype, input_precision)
    if path == "hopper" and (why := hopper_refusal(q, dims, window=win)) is not None:
        raise ValueError(f"flash_hopper cannot compute this call: {why}")
    if needs_grad((q, k, v)):
        check_differentiable_out(out, inputs)
        out, lse = _FlashAttention.apply(q, k, v, dims, causal, precision, path, splits, programs,
                                         win, fused_backward)
        return (out, lse) if return_lse else out
    rows = (dims.batch, dims.hq, dims.sq)
    out = prepare_out(out, (*rows, dims.dv), q, inputs=inputs)
    lse = torch.empty(rows, dtype=torch.float32, device=q.device) if return_lse else None
    _forward(q, k, v, out, lse, dims, causal=causal, precision=precision, path=path,
             splits=splits, programs=programs, window=win)
    return (out, lse) if return_lse else out


def flash_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """softmax(scale * q k^T [+ causal mask]) v, fused, in one pass over K and V.

    q (B, Hq, Sq, D), k (B, Hkv, Sk, D), v (B, Hkv, Sk, Dv) with Hq % Hkv == 0
    (query head h reads KV head h // (Hq // Hkv)), any strides; returns
    (B, Hq, Sq, Dv) in q's dtype.  ``scale`` defaults to D**-0.5.  Causal:
    key j is visible to query i iff j <= i + (Sk - Sq) (``bottom_right``) or
    j <= i (``top_left``).  ``window=(left, right)`` (``check_window``) also
    limits query i to keys ``i + off - left <= j <= i + off + right`` (``off``
    the same alignment offset, Sk - Sq or 0; None on a side: no limit), with
    or without causal.  A query that sees no key outputs zeros.

    With ``return_lse`` also returns the fp32 (B, Hq, Sq) natural-log
    log-sum-exp of the scaled visible logits (``-inf`` where none is visible).
    ``out`` (any strides) receives the result if given.

    Few query rows (``uses_decode_path``) run ``flash_decode``; the rest run
    the Hopper kernel (``flash_hopper``) where it computes the call (an sm_90
    GPU, fp16 or bf16, D = Dv = 128, no window) and the call is long enough
    (``uses_hopper_path``), else the portable prefill kernel (``flash_prefill``).
    Differentiable in q, k and v (then without ``out``); the LSE is not
    differentiable.
    """
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="auto",
        window=window,
    )


def flash_prefill(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``flash_attention`` forced onto the prefill kernel, whatever the shape."""
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="prefill",
        window=window,
    )


def flash_hopper(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
    programs: int | None = None,
    fused_backward: bool | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``flash_attention`` forced onto the Hopper kernel (``hopper_prefill.py``),
    whatever the shape; raises ``ValueError`` for a call it cannot compute (not
    on an sm_90 GPU, not fp16 or bf16, D or Dv not 128, a window).

    ``programs`` caps a non-causal call's persistent grid (default: one
    program per SM), so that each program takes several row tiles in turn;
    any cap gives the same bits.  Causal calls run a program per tile.

    ``fused_backward``: whether the backward sums dQ inside the dK/dV kernel
    (``hopper_backward.py``): True wherever that can run (``fuses``), False
    never, None (default) where it is the faster, from ``FUSED_MIN_KEYS``
    keys.  Elsewhere dQ has its own kernel.  Either way reruns give the same bits."""
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="hopper",
        programs=programs, window=window, fused_backward=fused_backward,
    )


def flash_decode(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
    num_splits: int | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """``flash_attention`` forced onto the split-K decode kernels, whatever the shape.

    ``num_splits`` asks for that many key ranges (default: ``plan_splits``);
    ranges are whole key blocks, so fewer may be used when the visible keys
    span fewer blocks.  One range writes the output directly, with no merge.
    Any Sq works (rows are tiled), but the kernel is built for Sq <= 16.
    """
    return _attention(
        q, k, v, causal=causal, scale=scale, alignment=alignment,
        input_precision=input_precision, return_lse=return_lse, out=out, path="decode",
        num_splits=num_splits, window=window,
    )
