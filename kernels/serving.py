"""Serving attention: packed variable-length batches and paged KV caches.

Both run the fused prefill's row tile (``_row_tile.attend_rows``): one program
owns BLOCK_M query rows of one (sequence, head), walks the keys that some of
its rows see in BLOCK_N blocks, skips the blocks a causal mask or a window
excludes, and masks only the blocks that cross an edge.  What differs is
where a sequence's rows and keys are.

Variable length (``flash_attention_varlen``).  The batch is packed: q is
(total_q, Hq, D), k (total_k, Hkv, D), v (total_k, Hkv, Dv), and sequence
``b`` owns rows ``cu_seqlens_q[b]:cu_seqlens_q[b + 1]`` of q and rows
``cu_seqlens_k[b]:cu_seqlens_k[b + 1]`` of k and v.  The grid covers
``max_seqlen_q`` rows for every sequence; a program whose block starts past
its own sequence's end does nothing.  Each sequence has its own lengths, so
its own causal diagonal (``Sk_b - Sq_b`` bottom-right, 0 top-left) and its
own window.  A sequence without queries writes nothing; one without keys
gets zeros and an LSE of ``-inf``.

Paged (``flash_attention_paged``).  Keys live in pages of ``page_size``
slots: k_cache (num_pages, page_size, Hkv, D), v_cache likewise with Dv.
Key ``j`` of sequence ``b`` is slot ``j % page_size`` of page
``block_table[b, j // page_size]``; sequence ``b`` has
``cache_seqlens[b]`` keys, the last Sq of which are the new tokens of q
(B, Hq, Sq, D), so the causal mask is bottom-right.  Table entries and slots
past a sequence's length are never read: the page index is loaded under the
same mask as the key.  Few new tokens over a long cache
(``flash.uses_decode_path``) go through ``flash_decode``'s kernel instead,
paged: the GQA group's rows packed into one tile and the keys split into
ranges merged by the last program of each tile; the ranges cover the longest
sequence's keys, and a shorter sequence's ranges past its end are empty.

The overflow guard of the fused forward (``weight_shift``) depends on the
number of keys, so it is computed per sequence on the host: a sequence's
result is then the bits ``flash_prefill`` gives it alone, where that is
untuned (on a GPU, lengths past ``TUNE_MIN_SEQ`` are tuned and may take
other tiles).  The launchers copy ``cu_seqlens``/``cache_seqlens`` to the
host to validate them, and check the table entries a sequence uses on the
device (a bad offset would otherwise read another sequence's memory
silently); that costs one device synchronisation per call.  A batch can be
checked once for many calls instead (``plan_varlen``, ``plan_paged``): a
model makes the same call in every layer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import torch
import triton
import triton.language as tl

from ._checks import (
    ALIGNMENTS,
    MAX_HEAD_DIM,
    AttentionDims,
    check_choice,
    check_computable,
    check_flag,
    check_same_dtype_device,
    check_scale,
    check_tensor,
    check_window,
    dot_precision,
    prepare_out,
)
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
from ._tuning import autotuning, length_bucket, prefill_config, prefill_tuner, tuned_config
from .flash import uses_decode_path
from .split_decode import PagedKeys, launch_decode

_SIZES = ["MAX_SQ", "TOTAL_Q", "H", "GROUP", "HEAD_D", "HEAD_DV", "WIN_LEFT", "WIN_RIGHT",
          "TUNE_SQ", "TUNE_SK"]


@triton.jit(do_not_specialize=_SIZES)
def _varlen_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, cu_q_ptr, cu_k_ptr, shift_ptr,
    MAX_SQ, TOTAL_Q, H, GROUP, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT,
    TUNE_SQ, TUNE_SK,  # autotuning key only (length buckets of the longest sequence)
    s_qm, s_qh, s_qd,
    s_kn, s_kh, s_kd,
    s_vn, s_vh, s_vd,
    s_om, s_oh, s_od,
    qk_scale,
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, TOP_LEFT: tl.constexpr, NEG_SCALE: tl.constexpr,
    STORE_LSE: tl.constexpr, PRECISION: tl.constexpr, BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr, HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
):
    pid = tl.program_id(0)
    num_m = tl.cdiv(MAX_SQ, BLOCK_M)
    m_blk = pid % num_m
    if CAUSAL:  # heaviest query block first, as the dense prefill orders them
        m_blk = num_m - 1 - m_blk
    pid_sh = pid // num_m
    seq = pid_sh // H
    head = pid_sh % H
    kv_head = (head // GROUP).to(tl.int64)
    head = head.to(tl.int64)
    q_start = tl.load(cu_q_ptr + seq)
    Sq = tl.load(cu_q_ptr + seq + 1) - q_start
    k_start = tl.load(cu_k_ptr + seq).to(tl.int64)
    Sk = (tl.load(cu_k_ptr + seq + 1) - k_start).to(tl.int32)
    first = m_blk * BLOCK_M
    if first < Sq:
        if TOP_LEFT:
            diagonal = 0
        else:
            diagonal = Sk - Sq
        rows = first + tl.arange(0, BLOCK_M)
        packed = (q_start + rows).to(tl.int64)  # the rows' places in the packed batch
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, BLOCK_D)
        offs_dv = tl.arange(0, BLOCK_DV)
        q_ptrs = q_ptr + head * s_qh + packed[:, None] * s_qm + offs_d[None, :].to(tl.int64) * s_qd
        q = _load_2d(q_ptrs, rows, Sq, offs_d, HEAD_D, True, PAD_D)
        keys = k_start + offs_n.to(tl.int64)
        k_tile = k_ptr + kv_head * s_kh + keys[:, None] * s_kn + offs_d[None, :].to(tl.int64) * s_kd
        v_tile = (v_ptr + kv_head * s_vh + keys[:, None] * s_vn
                  + offs_dv[None, :].to(tl.int64) * s_vd)
        p_shift = tl.load(shift_ptr + seq)
        out, lse = attend_rows(
            q, k_tile=k_tile, v_tile=v_tile, s_kn=s_kn, s_vn=s_vn, rows=rows, first=first,
            Sq=Sq, Sk=Sk, DIAGONAL=diagonal, WIN_LEFT=WIN_LEFT, WIN_RIGHT=WIN_RIGHT,
            qk_scale=qk_scale, p_shift=p_shift, HEAD_D=HEAD_D, HEAD_DV=HEAD_DV,
            table=k_tile, s_kpage=0, s_vpage=0, PAGE=0,  # dense keys: the table is never read
            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D,
            PAD_DV=PAD_DV, CAUSAL=CAUSAL, HAS_LEFT=HAS_LEFT, HAS_RIGHT=HAS_RIGHT,
            NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=False,
        )
        o_ptrs = (o_ptr + head * s_oh + packed[:, None] * s_om
                  + offs_dv[None, :].to(tl.int64) * s_od)
        o_mask = rows[:, None] < Sq
        if PAD_DV:  # a runtime bound on the head dim makes the store one per element
            o_mask = o_mask & (offs_dv[None, :] < HEAD_DV)
        tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=o_mask)
        if STORE_LSE:
            # lse is allocated here, contiguous (Hq, total_q).
            tl.store(lse_ptr + head * TOTAL_Q + packed, lse, mask=rows < Sq)


@triton.jit(do_not_specialize=["Sq", "H", "GROUP", "PAGE", "HEAD_D", "HEAD_DV", "WIN_LEFT",
                               "WIN_RIGHT", "TUNE_SQ", "TUNE_SK"])
def _paged_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr, lse_ptr, table_ptr, seqlens_ptr, shift_ptr,
    Sq, H, GROUP, PAGE, HEAD_D, HEAD_DV, WIN_LEFT, WIN_RIGHT,
    TUNE_SQ, TUNE_SK,  # autotuning key only (length buckets of the longest sequence)
    s_qb, s_qh, s_qm, s_qd,
    s_kp, s_kn, s_kh, s_kd,
    s_vp, s_vn, s_vh, s_vd,
    s_ob, s_oh, s_om, s_od,
    s_tb,
    qk_scale,
    BLOCK_D: tl.constexpr, BLOCK_DV: tl.constexpr, PAD_D: tl.constexpr, PAD_DV: tl.constexpr,
    CAUSAL: tl.constexpr, NEG_SCALE: tl.constexpr, STORE_LSE: tl.constexpr,
    PRECISION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    HAS_LEFT: tl.constexpr, HAS_RIGHT: tl.constexpr,
):
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
    Sk = tl.load(seqlens_ptr + batch)
    first = m_blk * BLOCK_M
    rows = first + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_D)
    offs_dv = tl.arange(0, BLOCK_DV)
    q_ptrs = (q_ptr + batch * s_qb + head * s_qh + rows[:, None].to(tl.int64) * s_qm
              + offs_d[None, :].to(tl.int64) * s_qd)
    q = _load_2d(q_ptrs, rows, Sq, offs_d, HEAD_D, True, PAD_D)
    # Slot 0 of page 0 of this KV head: ``attend_range`` adds each key's page and slot.
    k_base = k_ptr + kv_head * s_kh + offs_d[None, :].to(tl.int64) * s_kd
    v_base = v_ptr + kv_head * s_vh + offs_dv[None, :].to(tl.int64) * s_vd
    table = table_ptr + batch * s_tb
    p_shift = tl.load(shift_ptr + batch)
    out, lse = attend_rows(
        q, k_tile=k_base, v_tile=v_base, s_kn=s_kn, s_vn=s_vn, rows=rows, first=first,
        Sq=Sq, Sk=Sk, DIAGONAL=Sk - Sq, WIN_LEFT=WIN_LEFT, WIN_RIGHT=WIN_RIGHT,
        qk_scale=qk_scale, p_shift=p_shift, HEAD_D=HEAD_D, HEAD_DV=HEAD_DV,
        table=table, s_kpage=s_kp, s_vpage=s_vp, PAGE=PAGE,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, BLOCK_DV=BLOCK_DV, PAD_D=PAD_D,
        PAD_DV=PAD_DV, CAUSAL=CAUSAL, HAS_LEFT=HAS_LEFT, HAS_RIGHT=HAS_RIGHT,
        NEG_SCALE=NEG_SCALE, PRECISION=PRECISION, PAGED=True,
    )
    o_ptrs = (o_ptr + batch * s_ob + head * s_oh + rows[:, None].to(tl.int64) * s_om
              + offs_dv[None, :].to(tl.int64) * s_od)
    o_mask = rows[:, None] < Sq
    if PAD_DV:
        o_mask = o_mask & (offs_dv[None, :] < HEAD_DV)
    tl.store(o_ptrs, out.to(o_ptr.dtype.element_ty), mask=o_mask)
    if STORE_LSE:
        tl.store(lse_ptr + pid_bh.to(tl.int64) * Sq + rows, lse, mask=rows < Sq)


# On the GPU, launches whose longest sequence is long are tuned over the
# prefill's tile table as the dense prefill is (``_tuning.autotuning``), once
# per key; every config computes the same result, so the key could only cost
# speed.  Everything else takes ``prefill_config``.
_TUNE_KEY = ["HEAD_D", "HEAD_DV", "CAUSAL", "PRECISION", "HAS_LEFT", "HAS_RIGHT"]
_varlen_tuned = prefill_tuner(_varlen_kernel, [*_TUNE_KEY, "TOP_LEFT"])
_paged_tuned = prefill_tuner(_paged_kernel, _TUNE_KEY)


def _launch(kernel: triton.JITFunction, tuner: triton.runtime.Autotuner,
            grid: Callable[[int], tuple[int]], tune: tuple | None, default: Config,
            args: tuple, meta: dict) -> None:
    """``kernel`` with ``default``'s tiles, or with the tuned ones of key ``tune``
    (``_tuning.tuned_config``: the first launch of a key is the tuner's);
    ``grid(BLOCK_M)`` is the launch grid."""
    c = default if tune is None else tuned_config(tuner, tune, grid, args, meta)
    if c is not None:
        kernel[grid(c.block_m)](*args, **meta, BLOCK_M=c.block_m, BLOCK_N=c.block_n,
                                num_warps=c.num_warps, num_stages=c.num_stages)


def _tuning_key(name: str, sq: int, sk: int, *rest: object) -> tuple | None:
    """The tuning key of a launch whose longest sequence is (sq, sk), or None
    where it is not tuned."""
    if not autotuning(sq, sk):
        return None
    return (name, length_bucket(sq), length_bucket(sk), *rest)


# --------------------------------------------------------------------------
# Validation and launchers
# --------------------------------------------------------------------------


def _check_index(name: str, t: object, size: int | None, device: torch.device,
                 of: str) -> torch.Tensor:
    """An int32 1-D tensor on ``device``, ``of``'s (of ``size`` entries if given)."""
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    if t.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {tuple(t.shape)}")
    if t.dtype != torch.int32:
        raise TypeError(f"{name} has dtype {t.dtype}; expected torch.int32")
    if t.device != device:
        raise ValueError(f"{name} is on {t.device}; expected {device}, the device of {of}")
    if size is not None and t.shape[0] != size:
        raise ValueError(f"{name} has {t.shape[0]} entries; expected {size}")
    return t


def _check_prefix_sums(cu_seqlens_q: object, cu_seqlens_k: object, total_q: int | None,
                       total_k: int | None, device: torch.device, of: str,
                       ) -> tuple[list[int], list[int]]:
    """Both prefix sums on the host, checked (against the packed tensors'
    rows where given); one copy for both (each copy waits for the device)."""
    tq = _check_index("cu_seqlens_q", cu_seqlens_q, None, device, of)
    tk = _check_index("cu_seqlens_k", cu_seqlens_k, None, device, of)
    both = torch.cat([tq, tk]).tolist()
    cu_q, cu_k = both[:tq.shape[0]], both[tq.shape[0]:]
    for name, cu, total in (("cu_seqlens_q", cu_q, total_q), ("cu_seqlens_k", cu_k, total_k)):
        if not cu or cu[0] != 0:
            raise ValueError(f"{name} must start at 0 (prefix sums of B + 1 entries), "
                             f"got {cu[:1]}")
        if any(b < a for a, b in zip(cu, cu[1:], strict=False)):
            raise ValueError(f"{name} must not decrease (sequence lengths are >= 0)")
        if total is not None and cu[-1] != total:
            raise ValueError(f"{name} ends at {cu[-1]}, but the packed tensor has {total} rows")
    if len(cu_q) != len(cu_k):
        raise ValueError(f"cu_seqlens_q has {len(cu_q)} entries and cu_seqlens_k {len(cu_k)}; "
                         "both are B + 1")
    return cu_q, cu_k


def _check_table(table: torch.Tensor, cache_seqlens: object, sq: int, page: int,
                 num_pages: int) -> list[int]:
    """``cache_seqlens`` on the host, once each sequence's length and the table
    entries its keys use are checked.

    The entries are checked on the device and come back with the lengths in
    one copy: a decode step's table holds thousands of entries, which read and
    checked one by one on the host cost more than the step's kernel.
    """
    batch, width = table.shape
    seqlens = _check_index("cache_seqlens", cache_seqlens, batch, table.device, "block_table")
    used = torch.arange(width, device=table.device) * page < seqlens[:, None]
    wrong = ((table < 0) | (table >= num_pages)) & used
    host = torch.cat([seqlens, wrong.any(1).int()]).tolist()
    for i, (n, bad) in enumerate(zip(host[:batch], host[batch:], strict=True)):
        if not sq <= n <= width * page:
            raise ValueError(f"cache_seqlens[{i}] is {n}; expected Sq={sq} to "
                             f"{width * page} (the table's pages x page_size)")
        if bad:
            col = int(wrong[i].int().argmax())
            raise ValueError(f"block_table[{i}] names a page outside 0..{num_pages - 1} "
                             f"(entry {col} is {table[i, col].item()}) among the "
                             f"{_cdiv(n, page)} its {n} keys use")
    return host[:batch]


def _check_max(name: str, given: object, actual: int) -> int:
    if given is None:
        return actual
    if isinstance(given, bool) or not isinstance(given, int):
        raise TypeError(f"{name} must be an int or None, got {type(given).__name__}")
    if given < actual:
        raise ValueError(f"{name} is {given}, but a sequence has {actual}")
    return given


def _check_heads(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, head_axis: int) -> None:
    hq, hkv, hv = q.shape[head_axis], k.shape[head_axis], v.shape[head_axis]
    if hv != hkv:
        raise ValueError(f"v has {hv} heads but k has {hkv}; k and v must share their heads")
    if hkv == 0 or hq % hkv:
        raise ValueError(f"q has {hq} heads, not a multiple of k's {hkv} heads "
                         "(GQA needs Hq % Hkv == 0, Hkv >= 1)")
    d, dk, dv = q.shape[-1], k.shape[-1], v.shape[-1]
    if dk != d:
        raise ValueError(f"k has head dim {dk} but q has {d}; q and k must share D")
    for what, dim in (("q/k head dim D", d), ("v head dim Dv", dv)):
        if not 1 <= dim <= MAX_HEAD_DIM:
            raise ValueError(f"{what} is {dim}; supported head dims are 1 to {MAX_HEAD_DIM}")


def _shifts(v: torch.Tensor, key_counts: list[int]) -> torch.Tensor:
    """Each sequence's weight shift on v's device.  From pinned memory, so the
    copy does not wait for the device as a copy from pageable memory would."""
    host = torch.tensor([weight_shift(v.dtype, n) for n in key_counts], dtype=torch.float32,
                        pin_memory=v.is_cuda)
    return host.to(v.device, non_blocking=True)


def _results(out: torch.Tensor, lse: torch.Tensor | None, return_lse: bool):
    return (out, lse) if return_lse else out


# --------------------------------------------------------------------------
# Plans: a batch's lengths checked once for the calls of every layer
# --------------------------------------------------------------------------


def _version(t: torch.Tensor) -> int | None:
    """The count of t's in-place writes through torch; None for a tensor made
    under ``torch.inference_mode``, which keeps no count."""
    return None if t.is_inference() else t._version


def _unchanged(plan: object, kind: type, given: tuple[tuple[str, object], ...]) -> None:
    """Refuse a plan of another kind, for other tensors than ``given``'s (name,
    tensor) pairs, or for tensors written since it was made."""
    if not isinstance(plan, kind):
        raise TypeError(f"plan must be a {kind.__name__} or None, got {type(plan).__name__}")
    names = " or ".join(name for name, _ in given)
    if any(t is not p for (_, t), p in zip(given, plan.inputs, strict=True)):
        raise ValueError(f"plan was made for another {names}: pass the tensors it was made "
                         "for, or plan these")
    if tuple(_version(t) for _, t in given) != plan.versions:
        raise ValueError(f"{names} was written since the plan was made; plan again")


def _same(given: dict[str, tuple[int, int]]) -> None:
    """Refuse a plan made for other sizes: name -> (planned, this call's)."""
    for name, (planned, actual) in given.items():
        if planned != actual:
            raise ValueError(f"plan was made for {name}={planned}, but this call has "
                             f"{name}={actual}")


class VarlenPlan(NamedTuple):
    """``plan_varlen``'s result: a packed batch's prefix sums, checked."""

    cu_seqlens_q: torch.Tensor
    cu_seqlens_k: torch.Tensor
    cu_q: tuple[int, ...]  # on the host
    cu_k: tuple[int, ...]
    versions: tuple[int | None, int | None]  # of cu_seqlens_q and cu_seqlens_k when checked

    @property
    def inputs(self) -> tuple[torch.Tensor, torch.Tensor]:
        return self.cu_seqlens_q, self.cu_seqlens_k


def plan_varlen(cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor) -> VarlenPlan:
    """Check a packed batch's ``cu_seqlens_q`` and ``cu_seqlens_k`` once, for
    every ``flash_attention_varlen(..., plan=)`` call over them.

    Unplanned, each call brings them to the host to check them, which waits
    for the device; a model's forward makes the same call in every layer.
    The plan holds while both are unchanged, as ``plan_paged``'s does.
    """
    if not isinstance(cu_seqlens_q, torch.Tensor):
        raise TypeError(f"cu_seqlens_q must be a torch.Tensor, got {type(cu_seqlens_q).__name__}")
    cu_q, cu_k = _check_prefix_sums(cu_seqlens_q, cu_seqlens_k, None, None, cu_seqlens_q.device,
                                    "cu_seqlens_q")
    return VarlenPlan(cu_seqlens_q, cu_seqlens_k, tuple(cu_q), tuple(cu_k),
                      (_version(cu_seqlens_q), _version(cu_seqlens_k)))


def _planned_varlen(plan: object, cu_seqlens_q: object, cu_seqlens_k: object, q: torch.Tensor,
                    total_k: int) -> tuple[list[int], list[int]]:
    _unchanged(plan, VarlenPlan, (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_k", cu_seqlens_k)))
    _same({"total_q": (plan.cu_q[-1], q.shape[0]), "total_k": (plan.cu_k[-1], total_k)})
    if plan.cu_seqlens_q.device != q.device:
        raise ValueError(f"plan's cu_seqlens_q is on {plan.cu_seqlens_q.device}; q is on "
                         f"{q.device}")
    return list(plan.cu_q), list(plan.cu_k)


def flash_attention_varlen(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    cu_seqlens_q: torch.Tensor,
    cu_seqlens_k: torch.Tensor,
    *,
    max_seqlen_q: int | None = None,
    max_seqlen_k: int | None = None,
    causal: bool = False,
    scale: float | None = None,
    alignment: str = "bottom_right",
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
    plan: VarlenPlan | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """Attention over a packed batch of sequences of different lengths.

    q (total_q, Hq, D), k (total_k, Hkv, D), v (total_k, Hkv, Dv), any
    strides; ``cu_seqlens_q``/``cu_seqlens_k`` int32 (B + 1,) prefix sums of
    the sequences' query and key counts (zero-length sequences allowed).
    Sequence b's queries attend to its own keys only, with ``causal``,
    ``alignment`` and ``window`` as ``flash_attention`` applies them to a
    (Sq_b, Sk_b) pair.  ``max_seqlen_*`` (default: computed) must be at
    least the longest sequence.  ``plan``: ``plan_varlen``'s of the two
    prefix sums, which this call then does not check again (nor wait for the
    device).  Returns (total_q, Hq, Dv) in q's dtype, and with
    ``return_lse`` the fp32 (Hq, total_q) LSE.  Not differentiable.
    """
    q = check_tensor("q", q, ndim=3)
    k = check_tensor("k", k, ndim=3)
    v = check_tensor("v", v, ndim=3)
    check_same_dtype_device(("q", "k", "v"), (q, k, v))
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"v has {v.shape[0]} keys but k has {k.shape[0]}; they must match")
    _check_heads(q, k, v, 1)
    check_flag(causal, "causal")
    check_flag(return_lse, "return_lse")
    check_choice(alignment, "alignment", ALIGNMENTS)
    window = check_window(window)
    check_computable((("q", q), ("k", k), ("v", v)))
    if plan is None:
        cu_q, cu_k = _check_prefix_sums(cu_seqlens_q, cu_seqlens_k, q.shape[0], k.shape[0],
                                        q.device, "q")
    else:
        cu_q, cu_k = _planned_varlen(plan, cu_seqlens_q, cu_seqlens_k, q, k.shape[0])
    lens_q = [b - a for a, b in zip(cu_q, cu_q[1:], strict=False)]
    lens_k = [b - a for a, b in zip(cu_k, cu_k[1:], strict=False)]
    max_q = _check_max("max_seqlen_q", max_seqlen_q, max(lens_q, default=0))
    max_k = _check_max("max_seqlen_k", max_seqlen_k, max(lens_k, default=0))
    total_q, hq, d = q.shape
    dv = v.shape[2]
    scale = d**-0.5 if scale is None else check_scale(scale)
    precision = dot_precision(q.dtype, input_precision)
    out = prepare_out(out, (total_q, hq, dv), q,
                      inputs=(("q", q), ("k", k), ("v", v)))
    lse = torch.empty((hq, total_q), dtype=torch.float32, device=q.device) if return_lse else None
    if total_q == 0 or not lens_q:
        return _results(out, lse, return_lse)
    # The kernel reads a prefix sum's entries at unit stride; a view (every
    # other entry of a larger tensor, say) is copied.
    cu_seqlens_q, cu_seqlens_k = cu_seqlens_q.contiguous(), cu_seqlens_k.contiguous()
    with _on_device_of(q):
        launch_varlen(q, k, v, out, lse, cu_seqlens_q, cu_seqlens_k, lens_k, max_q, max_k,
                      causal=causal, scale=scale, top_left=alignment == "top_left",
                      window=window, precision=precision)
    return _results(out, lse, return_lse)


def launch_varlen(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: torch.Tensor,
    lse: torch.Tensor | None, cu_seqlens_q: torch.Tensor, cu_seqlens_k: torch.Tensor,
    lens_k: list[int], max_q: int, max_k: int, *, causal: bool, scale: float, top_left: bool,
    window: tuple[int | None, int | None] | None, precision: str,
) -> None:
    """The varlen kernel over checked inputs, on the current device: the
    lengths are already on the host (``lens_k``, ``max_*``), so nothing here
    waits for the device."""
    total_q, hq, d = q.shape
    hkv, dv = k.shape[1], v.shape[2]
    batch = len(lens_k)
    dims = AttentionDims(batch, hq, hkv, max_q, max_k, d, dv, scale, 0)
    # Clipped by the longest pair: a side that wide excludes no key of any sequence.
    sizes, flags = window_args(launch_window(window, causal, max_q + max_k))
    tune = _tuning_key("varlen", max_q, max_k, d, dv, causal, top_left, precision, q.dtype,
                       out.dtype, *flags.values())
    _launch(
        _varlen_kernel, _varlen_tuned, lambda block_m: (_cdiv(max_q, block_m) * batch * hq,),
        tune, prefill_config(q.dtype, precision, d, dv),
        (q, k, v, out, lse if lse is not None else out, cu_seqlens_q, cu_seqlens_k,
         _shifts(v, lens_k), max_q, total_q, hq, hq // hkv, d, dv, *sizes,
         length_bucket(max_q), length_bucket(max_k),
         *q.stride(), *k.stride(), *v.stride(), *out.stride(), scale * LOG2E),
        dict(**_head_meta(dims), CAUSAL=causal, TOP_LEFT=top_left, NEG_SCALE=scale < 0,
             STORE_LSE=lse is not None, PRECISION=precision, **flags),
    )


class PagedPlan(NamedTuple):
    """``plan_paged``'s result: a paged batch's table and lengths, checked."""

    block_table: torch.Tensor
    cache_seqlens: torch.Tensor
    table: torch.Tensor  # block_table with unit stride along a row, as the kernels read it
    lengths: tuple[int, ...]
    sq: int
    page_size: int
    num_pages: int
    versions: tuple[int | None, int | None]  # of block_table and cache_seqlens when checked

    @property
    def inputs(self) -> tuple[torch.Tensor, torch.Tensor]:
        return self.block_table, self.cache_seqlens


def _table(block_table: object, batch: int | None, device: torch.device | None) -> torch.Tensor:
    if not isinstance(block_table, torch.Tensor) or block_table.ndim != 2:
        raise TypeError("block_table must be a 2-D torch.Tensor (B, max_pages_per_seq)")
    if block_table.dtype != torch.int32:
        raise TypeError(f"block_table has dtype {block_table.dtype}; expected torch.int32")
    if (device is not None and block_table.device != device
            or batch is not None and block_table.shape[0] != batch):
        raise ValueError(f"block_table must be ({batch}, max_pages_per_seq) on {device}; "
                         f"got {tuple(block_table.shape)} on {block_table.device}")
    return block_table.contiguous()  # the kernel reads a row's entries at unit stride


def _positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TypeError(f"{name} must be a positive int, got {value!r}")
    return value


def plan_paged(block_table: torch.Tensor, cache_seqlens: torch.Tensor, *, sq: int,
               page_size: int, num_pages: int) -> PagedPlan:
    """Check a paged batch's ``block_table`` and ``cache_seqlens`` once, for
    every ``flash_attention_paged(..., plan=)`` call over them.

    Unplanned, each call checks them, and the check waits for the device
    (the lengths come to the host).  A decode step makes the same call in
    every layer: planned once, those calls wait for nothing.  ``sq`` is the
    new tokens per sequence, ``page_size`` and ``num_pages`` the caches'.
    The plan holds while both tensors are unchanged: a call refuses it once
    either was written in place through torch; after writing them any
    other way (a custom kernel, a CUDA graph), or writing tensors made under
    ``torch.inference_mode`` (which count no writes), plan again.
    """
    table = _table(block_table, None, None)
    sq, page_size = _positive("sq", sq), _positive("page_size", page_size)
    num_pages = _positive("num_pages", num_pages)
    lens = _check_table(table, cache_seqlens, sq, page_size, num_pages)
    return PagedPlan(block_table, cache_seqlens, table, tuple(lens), sq, page_size, num_pages,
                     (_version(block_table), _version(cache_seqlens)))


def _planned(plan: object, block_table: object, cache_seqlens: object, q: torch.Tensor,
             page: int, num_pages: int) -> PagedPlan:
    """``plan``, once it is known to be for this call's tensors and shapes."""
    _unchanged(plan, PagedPlan, (("block_table", block_table), ("cache_seqlens", cache_seqlens)))
    _same({"sq": (plan.sq, q.shape[2]), "page_size": (plan.page_size, page),
           "num_pages": (plan.num_pages, num_pages)})
    if plan.table.device != q.device or plan.table.shape[0] != q.shape[0]:
        raise ValueError(f"plan's block_table is ({plan.table.shape[0]}, ...) on "
                         f"{plan.table.device}; q has batch {q.shape[0]} on {q.device}")
    return plan


def flash_attention_paged(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_table: torch.Tensor,
    cache_seqlens: torch.Tensor,
    *,
    causal: bool = False,
    scale: float | None = None,
    window: tuple[int | None, int | None] | None = None,
    input_precision: str = "ieee",
    return_lse: bool = False,
    out: torch.Tensor | None = None,
    plan: PagedPlan | None = None,
) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
    """Attention of Sq new tokens per sequence over a paged KV cache.

    q (B, Hq, Sq, D); k_cache (num_pages, page_size, Hkv, D), v_cache
    (num_pages, page_size, Hkv, Dv), any strides; ``block_table`` int32
    (B, max_pages_per_seq): sequence b's key j is slot ``j % page_size`` of
    page ``block_table[b, j // page_size]``; ``cache_seqlens`` int32 (B,):
    sequence b's key count, at least Sq (its last Sq keys are the new
    tokens, so ``causal`` is bottom-right).  ``window`` as in
    ``flash_attention``.  ``plan``: ``plan_paged``'s of ``block_table`` and
    ``cache_seqlens``, which this call then does not check again (nor wait
    for the device).  Returns (B, Hq, Sq, Dv) in q's dtype, and with
    ``return_lse`` the fp32 (B, Hq, Sq) LSE.  Not differentiable.
    """
    q = check_tensor("q", q, ndim=4)
    k_cache = check_tensor("k_cache", k_cache, ndim=4)
    v_cache = check_tensor("v_cache", v_cache, ndim=4)
    check_same_dtype_device(("q", "k_cache", "v_cache"), (q, k_cache, v_cache))
    if k_cache.shape[:2] != v_cache.shape[:2]:
        raise ValueError(f"k_cache has pages {tuple(k_cache.shape[:2])} and v_cache "
                         f"{tuple(v_cache.shape[:2])}; (num_pages, page_size) must match")
    _check_heads(q.transpose(1, 2), k_cache, v_cache, 2)
    check_flag(causal, "causal")
    check_flag(return_lse, "return_lse")
    window = check_window(window)
    check_computable((("q", q), ("k_cache", k_cache), ("v_cache", v_cache)))
    b, hq, sq, d = q.shape
    num_pages, page, hkv, _ = k_cache.shape
    dv = v_cache.shape[-1]
    if plan is None:
        table = _table(block_table, b, q.device)
        lens = _check_table(table, cache_seqlens, sq, page, num_pages)
    else:
        plan = _planned(plan, block_table, cache_seqlens, q, page, num_pages)
        table, lens = plan.table, list(plan.lengths)
    scale = d**-0.5 if scale is None else check_scale(scale)
    precision = dot_precision(q.dtype, input_precision)
    out = prepare_out(out, (b, hq, sq, dv), q,
                      inputs=(("q", q), ("k_cache", k_cache), ("v_cache", v_cache)))
    lse = torch.empty((b, hq, sq), dtype=torch.float32, device=q.device) if return_lse else None
    if out.numel() == 0:
        return _results(out, lse, return_lse)
    cache_seqlens = cache_seqlens.contiguous()  # read at unit stride, as the table is
    dims = AttentionDims(b, hq, hkv, sq, max(lens), d, dv, scale, 0)
    if uses_decode_path(sq, max(lens)):
        with _on_device_of(q):
            launch_decode(q, k_cache, v_cache, out, lse, dims, causal=causal,
                          precision=precision, window=window,
                          paged=PagedKeys(table, cache_seqlens, tuple(lens)))
        return _results(out, lse, return_lse)
    sizes, flags = window_args(launch_window(window, causal, sq + max(lens)))
    longest = max(lens)
    tune = _tuning_key("paged", sq, longest, d, dv, causal, precision, q.dtype, out.dtype,
                       *flags.values())
    with _on_device_of(q):
        _launch(
            _paged_kernel, _paged_tuned, lambda block_m: (_cdiv(sq, block_m) * b * hq,),
            tune, prefill_config(q.dtype, precision, d, dv),
            (q, k_cache, v_cache, out, lse if lse is not None else out, table, cache_seqlens,
             _shifts(v_cache, lens), sq, hq, hq // hkv, page, d, dv, *sizes,
             length_bucket(sq), length_bucket(longest),
             *q.stride(), *k_cache.stride(), *v_cache.stride(), *out.stride(), table.stride(0),
             scale * LOG2E),
            dict(**_head_meta(dims), CAUSAL=causal, NEG_SCALE=scale < 0,
                 STORE_LSE=lse is not None, PRECISION=precision, **flags),
        )
    return _results(out, lse, return_lse)


