"""A launch replayed by ``LaunchCache`` is the launch Triton would have made.

``kernels._launch.LaunchCache`` skips ``JITFunction.run`` on a repeated launch:
it reuses the compiled kernel and the arguments of an earlier launch with the
same key.  That is right only if the key fixes everything Triton specialises
on and everything the launcher computes; a key missing a stride would launch
the previous call's strides, a key blind to pointer alignment a binary that
assumes aligned loads.

Each launch here runs twice, through the cache and straight through
``JITFunction.run``, and the tests compare what reaches the compiled kernel's
launcher: which compiled kernel (Triton's own cache key), the grid, the stream
and every argument.  No GPU is needed: a stand-in driver answers for device
and stream, and the compile step returns a recorder instead of a binary, so
nothing runs.
"""

from __future__ import annotations

import dataclasses
import types

import pytest
import torch
import triton.language as tl
from hypothesis import given
from hypothesis import strategies as st
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia import driver as nvidia
from triton.runtime import driver
from triton.runtime.jit import JITFunction

import attnfuzz.kernels._launch as launch
import attnfuzz.kernels.flash as fa
import attnfuzz.kernels.flash_backward as fb
import attnfuzz.kernels.hopper_backward as hb
import attnfuzz.kernels.hopper_prefill as hp
import attnfuzz.kernels.split_decode as sd
from attnfuzz.kernels._checks import check_attention_inputs
from attnfuzz.properties import backend, implementations

STREAM = 7


class _Driver:
    def __init__(self) -> None:
        # The TMA descriptor "encoding": what it was given, to compare.
        self.utils = types.SimpleNamespace(fill_tma_descriptor=lambda *a: ("tensormap", a))

    def get_current_device(self) -> int:
        return 0

    def get_current_stream(self, device: int | None = None) -> int:
        return STREAM

    def get_current_target(self) -> GPUTarget:
        return GPUTarget("cuda", 90, 32)


def _descriptor_meta(index: int, signature: str) -> dict:
    # Made-up encodings, distinct per descriptor; element types 8-10 are the
    # ones Triton renumbers for cuTensorMapEncodeTiled.
    block = [int(n) for n in signature[signature.index("[") + 1:signature.index("]")].split(",")]
    return {"swizzle": 32 * (index + 1), "elem_size": 2, "elem_type": 8 + index % 3,
            "block_size": block, "fp4_padded": False}


class _Recorder:
    """Stands in for a compiled kernel: Triton's CUDA launcher, whose compiled
    entry point logs its launches under Triton's cache key."""

    def __init__(self, key: object, log: list, signature: dict) -> None:
        self.key, self.log = key, log
        self.function, self.packed_metadata = 0, None
        self.src = types.SimpleNamespace(signature=signature)
        descriptors = [sig for sig in signature.values()
                       if isinstance(sig, str) and sig.startswith("tensordesc")]
        self.metadata = types.SimpleNamespace(
            tensordesc_meta=[_descriptor_meta(i, s) for i, s in enumerate(descriptors)] or None)
        run = object.__new__(nvidia.CudaLauncher)
        run.launch = nvidia.wrap_handle_tensordesc(self._entry, signature,
                                                   self.metadata.tensordesc_meta)
        run.num_ctas, run.launch_cooperative_grid, run.launch_pdl = 1, False, False
        run.global_scratch_size = run.profile_scratch_size = 0
        run.global_scratch_align = run.profile_scratch_align = 1
        self.run = run

    def launch_metadata(self, grid, stream, *args):
        return None

    def _entry(self, g0, g1, g2, stream, function, cooperative, pdl, scratch, profile_scratch,
               packed, metadata, enter, exit, *args):
        self.log.append((self.key, (g0, g1, g2), stream, tuple(map(_comparable, args))))


def _comparable(arg: object) -> object:
    # Tensors by address and dtype (both paths get the same objects); a TMA
    # descriptor arrives encoded (the stand-in's record of what it was
    # encoded from), a list or tuple by its items; other values by type and
    # ==, so that an int 1 and a float 1.0 differ.
    if isinstance(arg, torch.Tensor):
        return ("tensor", arg.data_ptr(), arg.dtype)
    if isinstance(arg, tuple | list):
        return ("sequence", tuple(map(_comparable, arg)))
    return (type(arg).__name__, arg)


def _recording(jit_fn: object, log: list) -> JITFunction:
    """A fresh JITFunction of ``jit_fn``'s source (a Gluon one for a Gluon
    kernel, which the interpreter leaves as it is) whose compile step records."""
    fn = (type(jit_fn) if isinstance(jit_fn, JITFunction) else JITFunction)(jit_fn.fn)

    def _do_compile(self, key, signature, device, constexprs, options, attrs, warmup):
        kernel = _Recorder(key, log, signature)
        self.device_caches[device][0][key] = kernel
        return kernel

    fn._do_compile = types.MethodType(_do_compile, fn)
    return fn


class _Paired:
    """Launches through a LaunchCache, then the same launch (same tensors,
    scratch buffers included) straight through JITFunction.run."""

    def __init__(self, fn: JITFunction, log: list, leading=None) -> None:
        self.fn, self.log = fn, log
        self.cache = launch.LaunchCache(fn, leading=leading)
        self.pairs: list[tuple[list, list]] = []

    def launch(self, plan, tensors, build) -> None:
        self.cache.launch(plan, tensors, build)
        cached = self.log[:]
        del self.log[:]
        grid, args, meta = build()
        self.fn.run(*self.cache.leading(tensors, False), *args, grid=grid, warmup=False, **meta)
        self.pairs.append((cached, self.log[:]))
        del self.log[:]


def _stand_in_gpu(monkeypatch) -> None:
    """A compiled backend that answers for device and stream and runs nothing."""
    monkeypatch.setattr(driver, "_active", _Driver())
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch._C, "_cuda_getCurrentRawStream", lambda device: STREAM, raising=False)
    monkeypatch.setattr(launch, "interpreting", lambda: False)
    # The stand-in's encodings must not outlive the test in a process that has a GPU.
    monkeypatch.setattr(launch, "_ENCODED", {})


@pytest.fixture
def launchers(monkeypatch) -> tuple[_Paired, _Paired]:
    """The prefill and decode launchers, paired, on a stand-in compiled backend."""
    _stand_in_gpu(monkeypatch)
    log: list = []
    prefill = _Paired(_recording(fa._flash_fwd_kernel, log), log)
    decode = _Paired(_recording(sd._flash_decode_kernel, log), log)
    monkeypatch.setattr(fa, "_PREFILL", prefill)
    monkeypatch.setattr(sd, "_DECODE", decode)
    return prefill, decode


@dataclasses.dataclass(frozen=True)
class Case:
    decode: bool
    dtype: torch.dtype
    precision: str
    b: int
    hkv: int
    group: int
    sq: int
    sk: int
    d: int
    dv: int
    causal: bool
    alignment: str
    scale: float | None
    lse: bool
    # per tensor: storage order of its (B, H, S, D) dims, and its offset in
    # elements (1 misaligns a 16-bit or fp32 pointer, 8 does not)
    layout_q: tuple[int, ...]
    layout_k: tuple[int, ...]
    layout_v: tuple[int, ...]
    layout_out: tuple[int, ...]
    offset_q: int
    offset_k: int
    offset_v: int
    offset_out: int
    config: fa.Config | None
    num_splits: int | None
    debug: bool  # Triton's TRITON_DEBUG setting, an option of every launch


_ORDERS = ((0, 1, 2, 3), (0, 2, 1, 3), (1, 0, 3, 2))
# The values each field takes: few, and chosen to cross what a key could
# conflate (integers equal to 1 or a multiple of 16, decode lengths on both
# sides of a key block).
_FIELDS: dict[str, list] = {
    "dtype": [torch.float16, torch.bfloat16, torch.float32],
    "precision": ["ieee", "tf32"],
    "b": [1, 2],
    "hkv": [1, 2],
    "group": [1, 2, 3],
    "sq": [1, 2, 5, 16, 17, 40],
    "sk": [1, 2, 17, 63, 64, 65, 130, 160],
    "d": [8, 16, 24],
    "dv": [8, 16, 24],
    "causal": [False, True],
    "alignment": ["bottom_right", "top_left"],
    "scale": [None, 0.5, -0.25, 2.0],
    "lse": [False, True],
    **{f"layout_{t}": list(_ORDERS) for t in ("q", "k", "v", "out")},
    **{f"offset_{t}": [0, 1, 8] for t in ("q", "k", "v", "out")},
    "config": [None, fa.Config(16, 32, 4, 1), fa.Config(32, 16, 4, 1)],
    "num_splits": [None, 1, 2, 3, 4],
    "debug": [False, True],
}


@st.composite
def case_families(draw) -> tuple[Case, ...]:
    """A case, then for each field one case that differs from it in that field
    alone; each of them on the prefill and on the decode launcher.

    A launcher whose key leaves out what a field changes replays the first
    case's launch for that field's case, which the comparison then sees.
    """
    first = {name: draw(st.sampled_from(values)) for name, values in _FIELDS.items()}
    family = [first] + [
        {**first, name: draw(st.sampled_from([x for x in values if x != first[name]]))}
        for name, values in _FIELDS.items()
    ]
    return tuple(Case(decode=decode, **fields) for decode in (False, True) for fields in family)


def _tensor(shape: tuple[int, ...], order: tuple[int, ...], offset: int, dtype) -> torch.Tensor:
    stored = [shape[i] for i in order]
    flat = torch.zeros(offset + torch.Size(stored).numel(), dtype=dtype, device=backend.device())
    view = flat[offset:].view(stored)
    return view.permute(*[order.index(i) for i in range(4)])


def _call(case: Case):
    """A launch of ``case`` on fresh tensors (new addresses, same alignment)."""
    hq = case.hkv * case.group
    shapes = ((case.b, hq, case.sq, case.d), (case.b, case.hkv, case.sk, case.d),
              (case.b, case.hkv, case.sk, case.dv), (case.b, hq, case.sq, case.dv))
    layouts = (case.layout_q, case.layout_k, case.layout_v, case.layout_out)
    offsets = (case.offset_q, case.offset_k, case.offset_v, case.offset_out)
    q, k, v, out = (_tensor(s, o, off, case.dtype)
                    for s, o, off in zip(shapes, layouts, offsets, strict=True))
    precision = case.precision if case.dtype == torch.float32 else "ieee"
    dims = check_attention_inputs(q, k, v, causal=case.causal, scale=case.scale,
                                  alignment=case.alignment, input_precision=precision)
    lse = torch.empty((case.b, hq, case.sq), device=q.device) if case.lse else None

    def call() -> None:
        with knobs.runtime.scope():
            knobs.runtime.debug = case.debug
            launch_case()

    def launch_case() -> None:
        if case.decode:
            sd.launch_decode(q, k, v, out, lse, dims, causal=case.causal, precision=precision,
                             num_splits=case.num_splits)
        else:
            fa.launch_prefill(q, k, v, out, lse, dims, causal=case.causal, precision=precision,
                              config=case.config)

    return call


@given(family=case_families())
def test_a_replayed_launch_is_the_launch_triton_makes(launchers, family):
    for paired in launchers:
        paired.pairs.clear()
    for round_ in range(2):
        before = [p.cache.direct_launches for p in launchers]
        for case in family:
            _call(case)()
        if round_ == 1:  # the same cases again, on new tensors: all replays
            assert [p.cache.direct_launches for p in launchers] == before
    for paired in launchers:
        _through_the_entry_point(paired.cache)
        for cached, direct in paired.pairs:
            assert cached == direct, f"{family}:\n cache  {cached}\n direct {direct}"


def _through_the_entry_point(cache: launch.LaunchCache) -> None:
    # The stand-in is Triton 3.6's launcher: replays skip its Python layers.
    assert cache.entries
    assert all(isinstance(e[3], launch.DirectLaunch) for e in cache.entries.values())


def test_launches_while_a_hook_is_installed_go_through_triton(launchers):
    """Profilers hook launches; a replay would hide them."""
    cache = launchers[0].cache
    case = Case(False, torch.float16, "ieee", 1, 1, 2, 8, 8, 16, 16, False, "bottom_right",
                None, False, *(_ORDERS[0],) * 4, *(0,) * 4, None, None, False)
    call = _call(case)
    call()
    call()
    assert cache.direct_launches == 1, "the second launch should replay"
    seen: list = []
    knobs.runtime.launch_enter_hook.add(seen.append)
    try:
        call()
        call()
    finally:
        knobs.runtime.launch_enter_hook.remove(seen.append)
    assert cache.direct_launches == 3
    call()
    assert cache.direct_launches == 3


_TRITON_DTYPES = {torch.float16: "*fp16", torch.bfloat16: "*bf16", torch.float32: "*fp32",
                  torch.int32: "*i32"}


def test_a_kernel_whose_globals_changed_goes_through_triton(launchers):
    """Triton refuses to launch a kernel whose globals changed since it was
    compiled; a replay must leave that refusal to it, also after it has seen
    the same globals many times."""
    cache = launchers[0].cache
    case = Case(False, torch.float16, "ieee", 1, 1, 2, 8, 8, 16, 16, False, "bottom_right",
                None, False, *(_ORDERS[0],) * 4, *(0,) * 4, None, None, False)
    call = _call(case)
    scope = {"WIDTH": tl.constexpr(64)}
    # As Triton keeps a global it compiled with: a copy, and the scope it came from.
    cache.fn.used_global_vals[("WIDTH", id(scope))] = (tl.constexpr(64), scope)
    for _ in range(3):
        call()
    assert cache.direct_launches == 1, "equal globals: the later launches replay"
    scope["WIDTH"] = tl.constexpr(32)
    with pytest.raises(RuntimeError, match="WIDTH"):
        call()
    # Raised by the cache's own launch, not only by the paired one after it.
    assert cache.direct_launches == 2


def test_pointer_key_sees_what_triton_specialises_a_tensor_on():
    """The installed Triton specialises a tensor argument on its dtype and on
    whether its address is a multiple of 16, which is all ``pointer_key`` keeps."""
    from triton._C.libtriton import native_specialize_impl
    from triton.compiler import make_backend

    target = make_backend(_Driver().get_current_target())
    views = [torch.zeros(64, dtype=dtype)[offset:]
             for dtype in _TRITON_DTYPES for offset in range(17)]
    for a in views:
        for b in views:
            ours = launch.pointer_key(a) == launch.pointer_key(b)
            theirs = (native_specialize_impl(target, a, False, True, True)
                      == native_specialize_impl(target, b, False, True, True))
            assert ours == theirs, (a.dtype, a.data_ptr() % 64, b.dtype, b.data_ptr() % 64)


@pytest.fixture
def backward_launchers(monkeypatch) -> tuple[_Paired, _Paired, _Paired]:
    """The backward's three launchers, paired, on a stand-in compiled backend."""
    _stand_in_gpu(monkeypatch)
    log: list = []
    paired = []
    for name, kernel in (("_PREPROCESS", fb._bwd_preprocess_kernel),
                         ("_DKDV", fb._bwd_dkdv_kernel), ("_DQ", fb._bwd_dq_kernel)):
        one = _Paired(_recording(kernel, log), log)
        monkeypatch.setattr(fb, name, one)
        paired.append(one)
    return tuple(paired)


_BACKWARD_FIELDS: dict[str, list] = {
    **{n: _FIELDS[n] for n in ("dtype", "precision", "b", "hkv", "group", "sq", "d", "dv",
                               "causal", "alignment", "scale", "debug")},
    # 65 keys already span three of the backward's largest key blocks (32), and
    # every case runs its kernels on the interpreter: no longer ones.
    "sk": [n for n in _FIELDS["sk"] if n <= 65],
    **{f"layout_{t}": list(_ORDERS) for t in ("q", "k", "v", "do")},
    **{f"offset_{t}": [0, 1, 8] for t in ("q", "k", "v", "do")},
    "config": [None, fb.BackwardConfig(fa.Config(16, 32, 4, 1), fa.Config(32, 16, 4, 1)),
               fb.BackwardConfig(fa.Config(32, 16, 4, 2), fa.Config(16, 32, 8, 1))],
    "window": [None, (3, 0), (None, 2), (1, 5)],
    "needs": [(True, True, True), (True, False, False), (False, True, True)],
}


@st.composite
def field_families(draw, fields: dict[str, list]) -> tuple[dict, ...]:
    """As ``case_families``, as dicts of ``fields``: a draw, then one neighbour
    per field that differs from it in that field alone."""
    first = {name: draw(st.sampled_from(values)) for name, values in fields.items()}
    return (first, *(
        {**first, name: draw(st.sampled_from([x for x in values if x != first[name]]))}
        for name, values in fields.items()
    ))


def _backward_call(case: dict):
    hq = case["hkv"] * case["group"]
    b, sq, sk, d, dv = (case[n] for n in ("b", "sq", "sk", "d", "dv"))
    shapes = {"q": (b, hq, sq, d), "k": (b, case["hkv"], sk, d), "v": (b, case["hkv"], sk, dv),
              "do": (b, hq, sq, dv)}
    q, k, v, do = (_tensor(shape, case[f"layout_{t}"], case[f"offset_{t}"], case["dtype"])
                   for t, shape in shapes.items())
    out = _tensor(shapes["do"], _ORDERS[0], 0, case["dtype"])
    lse = torch.zeros((b, hq, sq), device=q.device)
    precision = case["precision"] if case["dtype"] == torch.float32 else "ieee"
    dims = check_attention_inputs(q, k, v, causal=case["causal"], scale=case["scale"],
                                  alignment=case["alignment"], input_precision=precision)

    def call() -> None:
        with knobs.runtime.scope():
            knobs.runtime.debug = case["debug"]
            fb.launch_backward(do, q, k, v, out, lse, dims, causal=case["causal"],
                               precision=precision, needs=case["needs"], config=case["config"],
                               window=case["window"])

    return call


@given(family=field_families(_BACKWARD_FIELDS))
def test_a_replayed_backward_launch_is_the_launch_triton_makes(backward_launchers, family):
    for round_ in range(2):
        before = [p.cache.direct_launches for p in backward_launchers]
        for case in family:
            _backward_call(case)()
        if round_ == 1:  # the same cases again, on new tensors: all replays
            assert [p.cache.direct_launches for p in backward_launchers] == before
    for paired in backward_launchers:
        assert paired.pairs
        for cached, direct in paired.pairs:
            assert cached == direct, f"{family}:\n cache  {cached}\n direct {direct}"


_HOPPER_FIELDS: dict[str, list] = {
    **{n: _FIELDS[n] for n in ("b", "hkv", "group", "sq", "sk", "causal", "alignment", "lse")},
    "dtype": [torch.float16, torch.bfloat16],
    "scale": [None, 0.5, -0.25, 0.0],
    # Offsets of 8 elements keep TMA's 16-byte alignment, 1 breaks it (a copy).
    **{f"layout_{t}": list(_ORDERS) for t in ("q", "k", "v", "out")},
    **{f"offset_{t}": [0, 1, 8] for t in ("q", "k", "v", "out")},
    "pipeline": [True, False],
    "persistent": [None, False],  # None: the grid launch_hopper picks (persistent where it may)
}


@pytest.fixture
def hopper_launcher(monkeypatch) -> _Paired:
    """The Hopper launcher, paired, on a stand-in compiled backend."""
    _stand_in_gpu(monkeypatch)
    log: list = []
    paired = _Paired(_recording(hp._attention_kernel, log), log, leading=hp._leading)
    monkeypatch.setattr(hp, "_HOPPER", paired)
    monkeypatch.setattr(hp, "num_sms", lambda device_index: 3)  # fewer programs than tiles
    return paired


def _hopper_call(case: dict):
    hq = case["hkv"] * case["group"]
    b, sq, sk = case["b"], case["sq"], case["sk"]
    shapes = {"q": (b, hq, sq, 128), "k": (b, case["hkv"], sk, 128),
              "v": (b, case["hkv"], sk, 128), "out": (b, hq, sq, 128)}
    q, k, v, out = (_tensor(shape, case[f"layout_{t}"], case[f"offset_{t}"], case["dtype"])
                    for t, shape in shapes.items())
    lse = torch.empty((b, hq, sq), device=q.device) if case["lse"] else None
    dims = check_attention_inputs(q, k, v, causal=case["causal"], scale=case["scale"],
                                  alignment=case["alignment"])

    def call() -> None:
        hp.launch_hopper(q, k, v, out, lse, dims, causal=case["causal"],
                         p_shift=fa.weight_shift(v.dtype, sk), pipeline=case["pipeline"],
                         stages=3 if case["pipeline"] else 2, persistent=case["persistent"])

    return call


@given(family=field_families(_HOPPER_FIELDS))
def test_a_replayed_hopper_launch_is_the_launch_triton_makes(hopper_launcher, family):
    """The replay encodes HostDescriptors where Triton encodes
    TensorDescriptors: the same base, shape, strides and padding, with the
    compiled kernel's encoding of each."""
    for round_ in range(2):
        before = hopper_launcher.cache.direct_launches
        for case in family:
            _hopper_call(case)()
        if round_ == 1:  # the same cases again, on new tensors: all replays
            assert hopper_launcher.cache.direct_launches == before
    assert hopper_launcher.pairs
    _through_the_entry_point(hopper_launcher.cache)
    for cached, direct in hopper_launcher.pairs:
        assert cached == direct, f"{family}:\n cache  {cached}\n direct {direct}"


_HOPPER_BACKWARD_FIELDS: dict[str, list] = {
    **{n: _HOPPER_FIELDS[n] for n in ("b", "hkv", "group", "sq", "sk", "causal", "alignment",
                                      "dtype", "scale")},
    **{f"layout_{t}": list(_ORDERS) for t in ("q", "k", "v", "do")},
    **{f"offset_{t}": [0, 1, 8] for t in ("q", "k", "v", "do")},
    "fused": [False, True],  # the dK/dV kernel with dQ's fp32 tiles, where it fuses
}


@pytest.fixture
def hopper_backward_launchers(monkeypatch) -> dict[str, _Paired]:
    """The Hopper backward's launchers, paired, on a stand-in compiled
    backend: dK/dV, fused dK/dV, dQ, and the fused backward's last pass."""
    _stand_in_gpu(monkeypatch)
    monkeypatch.setattr(hb, "num_sms", lambda index: 132)
    launchers = {}
    for name, kernel, leading in (("_DKDV", hb._dkdv_kernel, hb._described(4)),
                                  ("_FUSED", hb._dkdv_kernel, hb._described(5)),
                                  ("_DQ", hb._dq_kernel, hb._described(4)),
                                  ("_SCALED", hb._scaled_kernel, None)):
        log: list = []
        paired = _Paired(_recording(kernel, log), log, leading=leading)
        monkeypatch.setattr(hb, name, paired)
        launchers[name] = paired
    return launchers


def _hopper_backward_call(case: dict):
    hq = case["hkv"] * case["group"]
    b, sq, sk = case["b"], case["sq"], case["sk"]
    shapes = {"q": (b, hq, sq, 128), "k": (b, case["hkv"], sk, 128),
              "v": (b, case["hkv"], sk, 128), "do": (b, hq, sq, 128)}
    q, k, v, do = (_tensor(shape, case[f"layout_{t}"], case[f"offset_{t}"], case["dtype"])
                   for t, shape in shapes.items())
    # Contiguous, as flash_attention's backward allocates them (the launcher refuses others).
    dq, dk, dv = (torch.empty(t.shape, dtype=t.dtype, device=t.device) for t in (q, k, v))
    out, lse = torch.zeros((b, hq, sq, 128), dtype=q.dtype, device=q.device), torch.zeros(
        (b, hq, sq), device=q.device)
    dims = check_attention_inputs(q, k, v, causal=case["causal"], scale=case["scale"],
                                  alignment=case["alignment"])

    fused = case["fused"] and hb.fuses(dims, 0)

    def call() -> None:
        hb.launch_hopper_backward(q, k, v, do, out, lse, dq, dk, dv, dims,
                                  causal=case["causal"], fused=fused)

    return call


@given(family=field_families(_HOPPER_BACKWARD_FIELDS))
def test_a_replayed_hopper_backward_launch_is_the_launch_triton_makes(
        hopper_backward_launchers, family):
    """As the forward's: the HostDescriptors (four for dK/dV, five fused,
    four for dQ) encoded as Triton encodes the TensorDescriptors, for each
    launcher that ran (the fused ones only where a case fuses)."""
    for round_ in range(2):
        before = [p.cache.direct_launches for p in hopper_backward_launchers.values()]
        for case in family:
            _hopper_backward_call(case)()
        if round_ == 1:  # the same cases again, on new tensors: all replays
            assert [p.cache.direct_launches
                    for p in hopper_backward_launchers.values()] == before
    for name, paired in hopper_backward_launchers.items():
        if name in ("_FUSED", "_SCALED") and not paired.pairs:
            continue  # no case of the family fused
        assert paired.pairs
        _through_the_entry_point(paired.cache)
        for cached, direct in paired.pairs:
            assert cached == direct, f"{family}:\n cache  {cached}\n direct {direct}"


def test_an_encoded_descriptor_serves_again_only_what_encodes_the_same(monkeypatch):
    # A replay reuses an encoding made for the same base address, shape,
    # strides, padding and kernel-side encoding: each of them changed alone
    # must encode anew, and each repeated must not.
    monkeypatch.setattr(launch, "_ENCODED", {})
    calls: list = []

    def fill(*args):
        calls.append(args)
        return ("tensormap", args)

    base, other = torch.empty(4096, dtype=torch.float16), torch.empty(4096, dtype=torch.float16)
    codes = [(32, 2, 8, (1, 1, 64, 128)), (64, 2, 8, (1, 1, 64, 128)),
             (32, 2, 9, (1, 1, 64, 128)), (32, 2, 8, (1, 1, 32, 128))]
    views = [launch.HostDescriptor(base, (1, 2, 8, 128), (2048, 1024, 128, 1)),
             launch.HostDescriptor(other, (1, 2, 8, 128), (2048, 1024, 128, 1)),
             launch.HostDescriptor(base, (1, 2, 4, 128), (2048, 1024, 128, 1)),
             launch.HostDescriptor(base, (1, 2, 8, 128), (2048, 128, 256, 1)),
             launch.HostDescriptor(base, (1, 2, 8, 128), (2048, 1024, 128, 1), "nan")]
    pairs = [(code, view) for code in codes for view in views]
    for round_ in range(2):
        for code, view in pairs:
            direct = launch.DirectLaunch(None, (), {0: code}, fill)
            encoded, *dims = direct.arguments((view,))
            want = (view.base.data_ptr(), *code, view.shape, view.strides,
                    1 if view.padding == "nan" else 0)
            assert encoded == ("tensormap", want), (code, view)
            assert dims == [*view.shape, *view.strides]
        assert len(calls) == len(pairs), f"round {round_}: {len(calls)} encodings"
    launch.clear_launch_caches()
    launch.DirectLaunch(None, (), {0: codes[0]}, fill).arguments((views[0],))
    assert len(calls) == len(pairs) + 1, "an encoding outlived clear_launch_caches"


def test_the_fused_kernels_reset_forgets_every_launch_cache():
    # The stateful property resets an implementation between sequences and
    # then replays a failing one without the calls before it: a launch cache
    # the reset missed carries state over that the dump does not recreate.
    fb._through_tma(fb._bwd_dkdv_kernel, 64, 64, 64, 64)  # made per tile shape, on demand
    caches = [*fb._THROUGH_TMA.values()]
    caches += [v for m in (fa, fb, hb, hp, sd) for v in vars(m).values()
               if isinstance(v, launch.LaunchCache)]
    assert {id(c) for c in (hb._DKDV, hb._FUSED, hb._DQ, hp._HOPPER, fa._PREFILL)} <= {
        id(c) for c in caches}
    for name in ("flash", "decode", "hopper"):
        for i, cache in enumerate(caches):
            cache.entries[("planted", i)] = ()
        implementations.get(name).reset()
        assert [c for c in caches if c.entries] == [], name
