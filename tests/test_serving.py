"""Serving kernels: packed variable-length batches and paged KV caches.

Each sequence is checked against the float64 oracle within its derived
bounds, and against ``flash_prefill`` run on that sequence alone, bit for
bit (the same tiles, block boundaries and overflow guard: the bits must
agree).  Paged caches (``model.pages.paged_cache``, as the ``serving``
property builds them) get shuffled pages, pages shared between sequences,
table entries past a sequence's pages that name a NaN-filled page, and NaN
in every slot past a sequence's length: none of it may reach an output.
"""

from __future__ import annotations

import itertools

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attnfuzz.kernels import (
    flash_attention_paged,
    flash_attention_varlen,
    flash_decode,
    flash_prefill,
    plan_paged,
    plan_varlen,
)
from attnfuzz.kernels._checks import dot_precision
from attnfuzz.kernels.flash import decode_config, uses_decode_path
from attnfuzz.properties import backend
from attnfuzz.properties.model.pages import paged_cache
from attnfuzz.reference import attention_bounds, attention_parts, compare

from .support import DTYPES, require_dtype

DEV = backend.device()
# Interpreted launches cost per program and loop trip: few, small examples.
SERVING = settings(max_examples=8 if backend.interpreting() else 60, deadline=None,
                   database=None)
# 0 and 1, one past and one short of a 64-key block, and one long sequence.
LENGTHS = st.one_of(st.sampled_from([0, 1, 2, 63, 64, 65]), st.integers(0, 20),
                    st.integers(66, 140))
GQA = st.sampled_from([(1, 1), (2, 1), (4, 2), (3, 1), (6, 2)])
DIMS = st.sampled_from([(16, 16), (24, 16), (40, 24), (8, 32)])
WINDOWS = st.one_of(st.none(), st.tuples(st.sampled_from([None, 0, 1, 7, 70]),
                                         st.sampled_from([None, 0, 3])))


def _prefix(lengths: list[int]) -> torch.Tensor:
    return torch.tensor([0, *itertools.accumulate(lengths)], dtype=torch.int32, device=DEV)


def _within_oracle(got, lse, q, k, v, *, causal, scale, alignment, window, dtype):
    """got (1, Hq, Sq, Dv) and its LSE within their bounds of the float64 oracle."""
    parts = attention_parts(q.double().cpu(), k.double().cpu(), v.double().cpu(), causal=causal,
                            scale=scale, alignment=alignment, window=window)
    bounds = attention_bounds(q, k, v, parts, scale=scale)
    for verdict in (compare("out", got, parts["out"], bounds["out"], dtype=dtype),
                    compare("lse", lse, parts["lse"], bounds["lse"])):
        assert verdict.ok, verdict.describe()


def _same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    return bool(((a == b) | (a.isnan() & b.isnan())).all()) and a.shape == b.shape


@pytest.mark.parametrize("dtype", DTYPES)
@SERVING
@given(data=st.data())
def test_varlen_is_each_sequence_alone(dtype, data):
    require_dtype(dtype)
    dt = getattr(torch, dtype)
    lens_q = data.draw(st.lists(LENGTHS, min_size=0, max_size=4), label="lens_q")
    lens_k = data.draw(st.lists(LENGTHS, min_size=len(lens_q), max_size=len(lens_q)),
                       label="lens_k")
    (group, hkv), (d, dv) = data.draw(GQA, label="gqa"), data.draw(DIMS, label="dims")
    hq = group * hkv
    causal = data.draw(st.booleans(), label="causal")
    alignment = data.draw(st.sampled_from(["bottom_right", "top_left"]), label="alignment")
    window = data.draw(WINDOWS, label="window")
    gen = torch.Generator(device=DEV).manual_seed(data.draw(st.integers(0, 2**31), label="seed"))
    total_q, total_k = sum(lens_q), sum(lens_k)
    # q's rows padded (a slice of a wider buffer), k stored head-major, v packed.
    q = torch.randn(total_q, hq, d + 3, generator=gen, device=DEV).to(dt)[..., :d]
    k = torch.randn(hkv, total_k, d, generator=gen, device=DEV).to(dt).transpose(0, 1)
    v = torch.randn(total_k, hkv, dv, generator=gen, device=DEV).to(dt)
    out, lse = flash_attention_varlen(q, k, v, _prefix(lens_q), _prefix(lens_k), causal=causal,
                                      alignment=alignment, window=window, return_lse=True)
    assert out.shape == (total_q, hq, dv) and lse.shape == (hq, total_q)
    scale = d**-0.5
    starts = zip(itertools.accumulate([0, *lens_q]), itertools.accumulate([0, *lens_k]),
                 strict=True)
    for a, b, (qa, ka) in zip(lens_q, lens_k, starts, strict=False):
        one = [t[s:s + n].transpose(0, 1)[None] for t, s, n in ((q, qa, a), (k, ka, b),
                                                                (v, ka, b))]
        got = out[qa:qa + a].transpose(0, 1)[None]
        got_lse = lse[:, qa:qa + a][None]
        alone, alone_lse = flash_prefill(*one, causal=causal, alignment=alignment, window=window,
                                         return_lse=True)
        assert _same_bits(got, alone) and _same_bits(got_lse, alone_lse), (a, b)
        _within_oracle(got, got_lse, *one, causal=causal, scale=scale, alignment=alignment,
                       window=window, dtype=dt)


@pytest.mark.parametrize("dtype", DTYPES)
@SERVING
@given(data=st.data())
def test_paged_is_the_contiguous_cache(dtype, data):
    require_dtype(dtype)
    dt = getattr(torch, dtype)
    b = data.draw(st.integers(1, 3), label="batch")
    sq = data.draw(st.sampled_from([1, 2, 5, 17]), label="sq")
    lens = data.draw(st.lists(st.one_of(st.sampled_from([sq, 63, 64, 65]), st.integers(sq, 140)),
                              min_size=b, max_size=b), label="cache_seqlens")
    page = data.draw(st.sampled_from([1, 3, 16, 64, 256]), label="page_size")
    shared = b >= 2 and min(lens[:2]) > page and data.draw(st.booleans(), label="shared")
    (group, hkv), (d, dv) = data.draw(GQA, label="gqa"), data.draw(DIMS, label="dims")
    hq = group * hkv
    causal = data.draw(st.booleans(), label="causal")
    window = data.draw(WINDOWS, label="window")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    gen = torch.Generator(device=DEV).manual_seed(seed)
    # Each sequence's keys, NaN past its own length (never read).
    keys = torch.randn(b, hkv, max(lens), d, generator=gen, device=DEV).to(dt)
    vals = torch.randn(b, hkv, max(lens), dv, generator=gen, device=DEV).to(dt)
    for i, n in enumerate(lens):
        keys[i, :, n:], vals[i, :, n:] = float("nan"), float("nan")
    if shared:
        keys[1, :, :page], vals[1, :, :page] = keys[0, :, :page], vals[0, :, :page]
    kc, vc, table = paged_cache(keys, vals, lens, page, seed, shared=shared)
    q = torch.randn(b, hq, sq, d, generator=gen, device=DEV).to(dt)
    seqlens = torch.tensor(lens, dtype=torch.int32, device=DEV)
    out, lse = flash_attention_paged(q, kc, vc, table, seqlens, causal=causal, window=window,
                                     return_lse=True)
    split = uses_decode_path(sq, max(lens))
    # The same key ranges as flash_decode plans for the dense batch: its bits,
    # where the paged loop also has its tiles (on a GPU it has more warps,
    # which sum in another order; the interpreter runs both alike).
    precision = dot_precision(dt, "ieee")
    same_tiles = (decode_config(dt, precision, d, dv, group, sq, paged=True)
                  == decode_config(dt, precision, d, dv, group, sq))
    if split and len(set(lens)) == 1 and same_tiles:
        dense = flash_decode(q, keys, vals, causal=causal, window=window, return_lse=True)
        assert _same_bits(out, dense[0]) and _same_bits(lse, dense[1])
    for i in range(b):
        one = (q[i:i + 1], keys[i:i + 1, :, :lens[i]], vals[i:i + 1, :, :lens[i]])
        if not split:  # one pass over the keys, as the prefill alone makes
            alone, alone_lse = flash_prefill(*one, causal=causal, window=window, return_lse=True)
            assert _same_bits(out[i:i + 1], alone) and _same_bits(lse[i:i + 1], alone_lse), i
        _within_oracle(out[i:i + 1], lse[i:i + 1], *one, causal=causal, scale=d**-0.5,
                       alignment="bottom_right", window=window, dtype=dt)
    # The same cache with its pages in another order, and the table with them.
    perm = torch.randperm(kc.shape[0], generator=torch.Generator().manual_seed(1)).to(DEV)
    inverse = torch.empty_like(perm)
    inverse[perm] = torch.arange(perm.numel(), device=DEV)
    moved = flash_attention_paged(q, kc[perm], vc[perm], inverse[table.long()].int(), seqlens,
                                  causal=causal, window=window)
    assert _same_bits(moved, out)


def _varlen_args(**change):
    q = torch.zeros(5, 2, 8, device=DEV)
    k = torch.zeros(7, 1, 8, device=DEV)
    args = dict(q=q, k=k, v=torch.zeros(7, 1, 8, device=DEV),
                cu_seqlens_q=_prefix([2, 3]), cu_seqlens_k=_prefix([3, 4]))
    args.update(change)
    return args


VARLEN_MISTAKES = [
    (dict(cu_seqlens_q=_prefix([2, 3]).long()), TypeError, "cu_seqlens_q has dtype"),
    (dict(cu_seqlens_q=_prefix([2, 3])[1:]), ValueError, "must start at 0"),
    (dict(cu_seqlens_k=torch.tensor([0, 5, 4, 7], dtype=torch.int32, device=DEV)), ValueError,
     "must not decrease"),
    (dict(cu_seqlens_k=_prefix([3, 3])), ValueError, "ends at 6, but the packed tensor has 7"),
    (dict(cu_seqlens_k=_prefix([3, 2, 2])), ValueError, r"both are B \+ 1"),
    (dict(cu_seqlens_q=[0, 2, 5]), TypeError, "cu_seqlens_q must be a torch.Tensor"),
    (dict(max_seqlen_q=2), ValueError, "max_seqlen_q is 2, but a sequence has 3"),
    (dict(max_seqlen_k=4.0), TypeError, "max_seqlen_k must be an int"),
    (dict(q=torch.zeros(5, 3, 8, device=DEV), k=torch.zeros(7, 2, 8, device=DEV),
          v=torch.zeros(7, 2, 8, device=DEV)), ValueError, "not a multiple of k's 2 heads"),
    (dict(q=torch.zeros(2, 5, 2, 8, device=DEV)), ValueError, "q must have 3 dimensions"),
    (dict(v=torch.zeros(6, 1, 8, device=DEV)), ValueError, "v has 6 keys but k has 7"),
]


@pytest.mark.parametrize(("change", "error", "message"), VARLEN_MISTAKES)
def test_varlen_mistakes_are_named(change, error, message):
    with pytest.raises(error, match=message):
        flash_attention_varlen(**_varlen_args(**change))


# The prefix sums' own mistakes (a plan knows no packed tensor: a call checks
# the totals against the plan).
PREFIX_MISTAKES = [m for m in VARLEN_MISTAKES if set(m[0]) <= {"cu_seqlens_q", "cu_seqlens_k"}
                   and "packed tensor" not in m[2]]


@pytest.mark.parametrize(("change", "error", "message"), PREFIX_MISTAKES)
def test_a_varlen_plan_checks_what_a_call_checks(change, error, message):
    args = _varlen_args(**change)
    with pytest.raises(error, match=message):
        plan_varlen(args["cu_seqlens_q"], args["cu_seqlens_k"])


def test_a_plans_tensors_share_a_device_and_its_error_says_whose():
    cu = _prefix([2, 3])
    elsewhere = cu.to("meta")
    with pytest.raises(ValueError, match="cu_seqlens_k is on meta; expected .*, the device of "
                                         "cu_seqlens_q"):
        plan_varlen(cu, elsewhere)
    table = torch.tensor([[0, 1], [2, 3]], dtype=torch.int32, device=DEV)
    with pytest.raises(ValueError, match="cache_seqlens is on meta; expected .*, the device "
                                         "of block_table"):
        plan_paged(table, elsewhere[:2], sq=1, page_size=4, num_pages=4)


def test_a_varlen_plan_is_used_and_refused_as_a_paged_one(monkeypatch):
    from attnfuzz.kernels import serving

    g = torch.Generator(device=DEV).manual_seed(5)
    args = _varlen_args(**{r: torch.randn(n, h, 8, generator=g, device=DEV)
                           for r, n, h in (("q", 5, 2), ("k", 7, 1), ("v", 7, 1))})
    cu_q, cu_k = args["cu_seqlens_q"], args["cu_seqlens_k"]
    plan = plan_varlen(cu_q, cu_k)
    unplanned = flash_attention_varlen(**args)
    refused = [
        (dict(cu_seqlens_q=cu_q.clone()), "made for another cu_seqlens_q or cu_seqlens_k"),
        (dict(q=torch.zeros(4, 2, 8, device=DEV)), "made for total_q=5, but this call has "
         "total_q=4"),
        (dict(k=torch.zeros(6, 1, 8, device=DEV), v=torch.zeros(6, 1, 8, device=DEV)),
         "made for total_k=7"),
    ]
    for change, message in refused:
        with pytest.raises(ValueError, match=message):
            flash_attention_varlen(**{**args, **change}, plan=plan)
    with pytest.raises(TypeError, match="plan must be a VarlenPlan or None, got PagedPlan"):
        paged = _paged_args()
        flash_attention_varlen(**args, plan=plan_paged(paged["block_table"],
                                                       paged["cache_seqlens"], sq=3,
                                                       page_size=4, num_pages=4))

    def checked(*_):
        raise AssertionError("a planned call checked its prefix sums again")

    monkeypatch.setattr(serving, "_check_prefix_sums", checked)
    assert _same_bits(flash_attention_varlen(**args, plan=plan), unplanned)
    cu_k[1] = 2  # a write in place: the lengths the plan holds are stale
    with pytest.raises(ValueError, match="written since the plan was made; plan again"):
        flash_attention_varlen(**args, plan=plan)


def _paged_args(**change):
    args = dict(q=torch.zeros(2, 2, 3, 8, device=DEV),
                k_cache=torch.zeros(4, 4, 1, 8, device=DEV),
                v_cache=torch.zeros(4, 4, 1, 8, device=DEV),
                block_table=torch.tensor([[0, 1], [2, 3]], dtype=torch.int32, device=DEV),
                cache_seqlens=torch.tensor([5, 3], dtype=torch.int32, device=DEV))
    args.update(change)
    return args


PAGED_MISTAKES = [
    (dict(cache_seqlens=torch.tensor([2, 3], dtype=torch.int32, device=DEV)), ValueError,
     r"cache_seqlens\[0\] is 2; expected Sq=3 to 8"),
    (dict(cache_seqlens=torch.tensor([9, 3], dtype=torch.int32, device=DEV)), ValueError,
     r"cache_seqlens\[0\] is 9"),
    (dict(block_table=torch.tensor([[0, 4], [2, 3]], dtype=torch.int32, device=DEV)),
     ValueError, r"block_table\[0\] names a page outside 0..3 \(entry 1 is 4\)"),
    (dict(block_table=torch.tensor([[0, 1], [-1, 3]], dtype=torch.int32, device=DEV)),
     ValueError, r"block_table\[1\] names a page outside 0..3 \(entry 0 is -1\) among the 1"),
    (dict(block_table=torch.tensor([[0, 1], [2, 3]], device=DEV)), TypeError,
     "block_table has dtype"),
    (dict(block_table=torch.tensor([[0, 1]], dtype=torch.int32, device=DEV)), ValueError,
     r"block_table must be \(2, max_pages_per_seq\)"),
    (dict(cache_seqlens=torch.tensor([5], dtype=torch.int32, device=DEV)), ValueError,
     "cache_seqlens has 1 entries; expected 2"),
    (dict(v_cache=torch.zeros(4, 2, 1, 8, device=DEV)), ValueError,
     r"\(num_pages, page_size\) must match"),
]


@pytest.mark.parametrize(("change", "error", "message"), PAGED_MISTAKES)
def test_paged_mistakes_are_named(change, error, message):
    with pytest.raises(error, match=message):
        flash_attention_paged(**_paged_args(**change))


# The table's and the lengths' own mistakes (a plan knows no q, so no batch
# to hold the table to: a table of one row has lengths of two too many).
TABLE_MISTAKES = [m for m in PAGED_MISTAKES
                  if "v_cache" not in m[0] and "must be \\(2," not in m[2]]


@pytest.mark.parametrize(("change", "error", "message"), TABLE_MISTAKES)
def test_a_plan_checks_what_a_call_checks(change, error, message):
    args = _paged_args(**change)
    with pytest.raises(error, match=message):
        plan_paged(args["block_table"], args["cache_seqlens"], sq=3, page_size=4, num_pages=4)


# (Sq, each sequence's keys): one pass of the prefill kernel, and a decode
# step whose key ranges the plan's lengths set.
PLANNED = {"prefill": (3, [13, 9]), "decode": (1, [70, 65])}


@pytest.mark.parametrize("path", list(PLANNED))
def test_a_planned_call_checks_the_table_no_more(monkeypatch, path):
    """Planned once (as for every layer of a step), the call gives the
    unplanned call's bits without checking the table again."""
    from attnfuzz.kernels import serving

    sq, lens = PLANNED[path]
    assert uses_decode_path(sq, max(lens)) == (path == "decode")
    g = torch.Generator(device=DEV).manual_seed(3)
    page, width = 16, 5
    kc, vc = (torch.randn(2 * width, page, 1, 8, generator=g, device=DEV) for _ in range(2))
    table = torch.randperm(2 * width, generator=torch.Generator().manual_seed(3))
    table = table.view(2, width).to(torch.int32).to(DEV)
    seqlens = torch.tensor(lens, dtype=torch.int32, device=DEV)
    q = torch.randn(2, 2, sq, 8, generator=g, device=DEV)
    call = lambda **plan: flash_attention_paged(q, kc, vc, table, seqlens,  # noqa: E731
                                                causal=True, return_lse=True, **plan)
    unplanned = call()
    plan = plan_paged(table, seqlens, sq=sq, page_size=page, num_pages=2 * width)

    def checked(*_):
        raise AssertionError("a planned call checked its table again")

    monkeypatch.setattr(serving, "_check_table", checked)
    planned = call(plan=plan)
    assert _same_bits(planned[0], unplanned[0]) and _same_bits(planned[1], unplanned[1])


def test_a_plan_is_refused_for_other_tensors_shapes_or_after_a_write():
    args = _paged_args()
    table, lens = args["block_table"], args["cache_seqlens"]
    plan = plan_paged(table, lens, sq=3, page_size=4, num_pages=4)
    k4 = torch.zeros(5, 4, 1, 8, device=DEV)
    refused = [
        (dict(block_table=table.clone()), "made for another block_table"),
        (dict(cache_seqlens=lens.clone()), "made for another block_table or cache_seqlens"),
        (dict(q=torch.zeros(2, 2, 2, 8, device=DEV)), "made for sq=3, but this call has sq=2"),
        (dict(k_cache=k4, v_cache=k4), "made for num_pages=4, but this call has num_pages=5"),
        (dict(k_cache=torch.zeros(2, 8, 1, 8, device=DEV),
              v_cache=torch.zeros(2, 8, 1, 8, device=DEV)), "made for page_size=4"),
    ]
    for change, message in refused:
        with pytest.raises(ValueError, match=message):
            flash_attention_paged(**{**args, **change}, plan=plan)
    with pytest.raises(TypeError, match="plan must be a PagedPlan or None, got tuple"):
        flash_attention_paged(**args, plan=(table, lens))
    for bad in (dict(sq=0), dict(page_size=True), dict(num_pages=2.0)):
        with pytest.raises(TypeError, match="must be a positive int"):
            plan_paged(table, lens, **{"sq": 3, "page_size": 4, "num_pages": 4, **bad})
    lens[1] = 4  # a write in place: the lengths the plan holds are stale
    with pytest.raises(ValueError, match="written since the plan was made; plan again"):
        flash_attention_paged(**args, plan=plan)


def test_an_unused_table_entry_may_name_any_page():
    # Only the entries a sequence's keys use are read (or checked).
    table = torch.tensor([[0, 1], [2, -1]], dtype=torch.int32, device=DEV)
    out = flash_attention_paged(**_paged_args(block_table=table))
    assert out.isfinite().all()


def test_inputs_that_require_grad_are_refused():
    q = torch.zeros(5, 2, 8, device=DEV, requires_grad=True)
    with pytest.raises(ValueError, match="q requires grad"):
        flash_attention_varlen(**_varlen_args(q=q))


@pytest.mark.parametrize("window", [(None, 0), (2, 1)])
def test_a_top_left_window_is_not_checked_as_a_paged_call(window):
    """A paged call's new tokens are the last Sq of its keys, so its window is
    bottom-right: the serving property checked a top-left window with Sq < Sk
    through one (found on the H200 as 511 x 512, D = 129) and failed a right
    kernel.  The varlen call, which takes the alignment, is still checked."""
    from attnfuzz.properties import implementations
    from attnfuzz.properties.checks.serving import serving_relations
    from attnfuzz.properties.model.cases import AttentionCase

    case = AttentionCase(sq=3, sk=5, d=4, dv=4, alignment="top_left", window=window)
    verdicts = serving_relations(implementations.get("flash"), case)
    assert all(v.ok for v in verdicts), [v.describe() for v in verdicts if not v.ok]
    assert any(v.check.startswith("varlen") for v in verdicts)
    assert not any(v.check.startswith("paged") for v in verdicts)


class _Tuner:
    """A stand-in for a Triton autotuner: launches ``kernel`` with ``config``
    and records the grids it was asked for, as the real one would pick."""

    def __init__(self, kernel, config: tuple[int, int, int, int]) -> None:
        import triton

        self.kernel, self.launches = kernel, []
        block_m, block_n, warps, stages = config
        self.best_config = triton.Config({"BLOCK_M": block_m, "BLOCK_N": block_n},
                                         num_warps=warps, num_stages=stages)

    def __getitem__(self, grid):
        def run(*args, **meta):
            c = self.best_config
            self.launches.append(grid(c.kwargs))
            self.kernel[grid(c.kwargs)](*args, **meta, **c.kwargs, num_warps=c.num_warps,
                                        num_stages=c.num_stages)
        return run


@pytest.mark.parametrize("kind", ["varlen", "paged"])
def test_a_long_launch_is_tuned_once_per_key_and_keeps_its_tiles(kind, monkeypatch, tmp_path):
    """The serving launchers tune long launches on the GPU (never on the
    interpreter): here a stand-in tuner picks 32-row tiles.  The first long
    launch goes through it; the next of that key takes its tiles without it,
    so gives its bits (64-row tiles give other bits on this case), and so
    does the first of a new process, from the tuning file."""
    from attnfuzz.kernels import _tuning, serving
    from attnfuzz.kernels._launch import TuningFile

    g = torch.Generator(device=DEV).manual_seed(0)
    if kind == "varlen":
        q, k, v = (torch.randn(n, h, 16, generator=g, device=DEV) for n, h in
                   ((70, 2), (90, 1), (90, 1)))
        cu_q, cu_k = (torch.tensor([0, 30, n], dtype=torch.int32, device=DEV) for n in (70, 90))
        call = lambda: flash_attention_varlen(q, k, v, cu_q, cu_k, causal=True)  # noqa: E731
        kernel, name = serving._varlen_kernel, "_varlen_tuned"
    else:
        q = torch.randn(2, 2, 40, 16, generator=g, device=DEV)
        kc, vc = (torch.randn(12, 8, 1, 16, generator=g, device=DEV) for _ in range(2))
        table = torch.arange(12, dtype=torch.int32, device=DEV).flip(0).view(2, 6)
        lens = torch.tensor([45, 40], dtype=torch.int32, device=DEV)
        call = lambda: flash_attention_paged(q, kc, vc, table, lens, causal=True)  # noqa: E731
        kernel, name = serving._paged_kernel, "_paged_tuned"
    untuned = call()
    tuner = _Tuner(kernel, (32, 64, 4, 1))
    monkeypatch.setattr(serving, name, tuner)
    monkeypatch.setattr(serving, "autotuning", lambda sq, sk: True)
    monkeypatch.setattr(_tuning, "_TUNED", {})
    monkeypatch.setattr(_tuning, "_TUNING_FILE", TuningFile(tmp_path / "tuning.json"))
    first, second = call(), call()
    # 40 rows at most per (sequence, head): 2 row tiles x 2 sequences x 2 heads.
    assert tuner.launches == [(2 * 2 * 2,)]
    assert list(_tuning._TUNED.values()) == [(32, 64, 4, 1)]
    assert torch.equal(second, first)
    assert first.shape == untuned.shape
    # A new process (nothing in memory, the file read afresh) takes the stored
    # tiles without tuning: the tuned bits again.
    monkeypatch.setattr(_tuning, "_TUNED", {})
    monkeypatch.setattr(_tuning, "_TUNING_FILE", TuningFile(tmp_path / "tuning.json"))
    assert torch.equal(call(), first)
    assert tuner.launches == [(2 * 2 * 2,)]
