"""Case specs: plain data that fully determines a test's inputs.

Every case kind has the same methods: ``shapes`` and ``layouts`` of its
inputs (in the order an implementation takes them), ``grad_outputs`` (the
upstream gradients of a backward case, with their layouts), ``kwargs`` for
the call, ``out_shape``, ``returns`` (every output's shape), ``labels`` and
``describe``, so callers never branch on the kind.

Strategies draw specs, never tensors: a spec prints readably when Hypothesis
reports a failure, serialises to JSON for dumps, and ``build`` turns it into
the same tensors on any machine.  Each built input lives in a NaN-filled
buffer (see ``layouts``); ``build`` also returns the values as float64 for
the oracle, equal element for element to what the kernel reads, on the
oracle's device (``backend.oracle_device``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields

import torch

from .. import backend
from .layouts import Layout, materialize
from .values import Values, generate

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
# Causal alignments: bottom-right (the KV-cache convention) and top-left.
ALIGNMENTS = ("bottom_right", "top_left")
# Optional arguments of the call, as (name, value) pairs, where they differ from
# the implementation's default: ``Implementation.options`` lists the choices.
Options = tuple[tuple[str, object], ...]
# A sliding window (left, right): key j is visible to query i iff
# i + off - left <= j <= i + off + right (off: the causal alignment's offset);
# None on a side is unlimited.
Window = tuple[int | None, int | None]
# The order a serving batch's sequences take, by length: shortest first (so a
# read or store past a sequence's end lands in a longer one's rows), longest
# first, or shuffled by the case's value seed.
ORDERS = ("sorted", "longest_first", "shuffled")
# The max_seqlen_q/k a serving call passes: none (where the function computes
# its own), the longest sequence's, or more (a padded bucket, which a
# function whose grid or masks it sizes must take as it takes the exact one).
MAX_SEQLENS = ("computed", "exact", "padded")
# What a paged call's table holds past each sequence's pages: a spare page of
# the cache (NaN in every slot), -1, or the cache's page count (one past its
# last page).  The last two only where the implementation says such entries
# are never read (``Support.unused_pages``).
UNUSED_ENTRIES = ("spare_page", "minus_one", "past_end")


def max_seqlen(choice: str, longest: int) -> int | None:
    """The max_seqlen a serving call passes for ``choice`` of ``MAX_SEQLENS``,
    its longest sequence ``longest`` long: padded is the next power of two
    above it (a bucket)."""
    if choice not in MAX_SEQLENS:
        raise ValueError(f"max_seqlen must be one of {', '.join(MAX_SEQLENS)}, got {choice!r}")
    return {"computed": None, "exact": longest, "padded": 1 << longest.bit_length()}[choice]


@dataclass(frozen=True)
class Serving:
    """How the serving property lays a case's batch out as a packed (varlen)
    batch and as a paged cache; the default is the simple one (every tensor
    contiguous and fresh, sequences shortest first, no guard).

    ``guards``: a guard sequence (one query, no key) after every sequence of
    the pack, so a store past a sequence's end lands in rows whose answer is
    known, whichever sequence is last.  The packed q, k, v and the caches
    each have a layout of their own (a kernel that reads v through k's
    strides, or one cache through the other's, reads the wrong elements);
    ``index`` is how the prefix sums, the block table and the cache lengths
    sit in memory: ``contiguous``, ``offset`` (part-way into a larger
    buffer), ``strided`` (every other element) or ``column_major`` (the
    table's rows strided, its columns adjacent; the 1-D ones strided).
    ``planned``: each call goes through a plan of its metadata made first,
    where the function takes one (attnfuzz's ``plan_varlen`` and
    ``plan_paged``; a user's function is called as ever): the planned path
    reads the lengths the plan holds, not the call's.  ``out``: the name of
    a layout of an ``out=`` the call is given (NaN wherever not written), or
    None; ``lse``: whether the call asks for the LSE (``return_lse``).  Both
    only where the implementation's serving calls take them
    (``Implementation.serving_out``).
    """

    order: str = "sorted"
    guards: bool = False
    q_layout: Layout = field(default_factory=Layout)
    k_layout: Layout = field(default_factory=Layout)
    v_layout: Layout = field(default_factory=Layout)
    k_cache_layout: Layout = field(default_factory=Layout)
    v_cache_layout: Layout = field(default_factory=Layout)
    index: str = "contiguous"
    max_seqlen: str = "computed"
    unused_entries: str = "spare_page"
    planned: bool = False
    out: str | None = None
    lse: bool = True

    def describe(self) -> str:
        """The choices that differ from the simple layout, or ""."""
        parts = [f"{self.order} order"] if self.order != "sorted" else []
        parts += [f"max_seqlen {self.max_seqlen}"] if self.max_seqlen != "computed" else []
        parts += ["guard rows"] if self.guards else []
        roles = (("packed q", self.q_layout), ("packed k", self.k_layout),
                 ("packed v", self.v_layout), ("k cache", self.k_cache_layout),
                 ("v cache", self.v_cache_layout))
        parts += [f"{name}={lay.label}" for name, lay in roles if lay != Layout()]
        parts += [f"index tensors {self.index}"] if self.index != "contiguous" else []
        parts += ([f"unused table entries {self.unused_entries.replace('_', ' ')}"]
                  if self.unused_entries != "spare_page" else [])
        parts += ["a plan of the metadata"] if self.planned else []
        parts += [f"out={self.out}"] if self.out is not None else []
        parts += ["no lse asked"] if not self.lse else []
        return ", ".join(parts)

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> Serving:
        return cls(**{k: Layout.from_dict(v) if k.endswith("layout") else v  # type: ignore[arg-type]
                      for k, v in d.items()})


@dataclass(frozen=True)
class AttentionCase:
    batch: int = 1
    hq: int = 1
    hkv: int = 1
    sq: int = 1
    sk: int = 1
    d: int = 16
    dv: int = 16
    dtype: str = "float32"
    input_precision: str = "ieee"
    causal: bool = False
    alignment: str = "bottom_right"
    scale: float | None = None
    window: Window | None = None  # (left, right) keys around the diagonal; None: all
    q_layout: Layout = field(default_factory=Layout)
    k_layout: Layout = field(default_factory=Layout)
    v_layout: Layout = field(default_factory=Layout)
    values: Values = field(default_factory=Values)
    out_layout: Layout = field(default_factory=Layout)
    options: Options = ()
    # A backward case: the call is differentiated with an upstream gradient dO
    # of the output's shape, in its own layout (built as input "do").
    backward: bool = False
    do_layout: Layout = field(default_factory=Layout)
    # How the serving property packs and pages the batch (other checks ignore it).
    serving: Serving = field(default_factory=Serving)
    # The page size of a paged call's cache; None: the convention's choice,
    # among the declared sizes.  Set only where a case steps outside them.
    page_size: int | None = None

    kind = "attention"

    @property
    def torch_dtype(self) -> torch.dtype:
        return DTYPES[self.dtype]

    @property
    def group(self) -> int:
        return self.hq // self.hkv

    @property
    def effective_scale(self) -> float:
        return self.scale if self.scale is not None else self.d**-0.5

    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {
            "q": (self.batch, self.hq, self.sq, self.d),
            "k": (self.batch, self.hkv, self.sk, self.d),
            "v": (self.batch, self.hkv, self.sk, self.dv),
        }

    def layouts(self) -> dict[str, Layout]:
        return {"q": self.q_layout, "k": self.k_layout, "v": self.v_layout}

    def grad_outputs(self) -> dict[str, tuple[tuple[int, ...], Layout]]:
        return {"do": (self.out_shape(), self.do_layout)} if self.backward else {}

    def kwargs(self) -> dict[str, object]:
        return {
            "causal": self.causal,
            "scale": self.scale,
            "alignment": self.alignment,
            "input_precision": self.input_precision,
            **_window_kwarg(self.window),
            **({} if self.page_size is None else {"page_size": self.page_size}),
        }

    def out_shape(self) -> tuple[int, ...]:
        return (self.batch, self.hq, self.sq, self.dv)

    def returns(self) -> dict[str, tuple[int, ...]]:
        """The shape of each output the call may return (the optional ones too)."""
        rows = (self.batch, self.hq, self.sq)
        return {"out": self.out_shape(), "lse": rows, "probs": (*rows, self.sk)}

    def labels(self) -> list[str]:
        dv = "" if self.dv == self.d else " (Dv differs)"
        return [
            *_common_labels(self),
            f"mask: {self.mask_kind()}",
            f"gqa group: {self.group}",
            f"head dim: {self.d}{dv}",
        ]

    def mask_kind(self) -> str:
        shape = "sq<sk" if self.sq < self.sk else "sq>sk" if self.sq > self.sk else "square"
        if self.window is not None:
            kind = "causal-window" if self.causal else "window"
            return f"{kind}-{self.alignment}-{shape}"
        if not self.causal:
            return "none"
        return f"causal-{self.alignment}-{shape}"

    def describe(self) -> str:
        return (
            f"B={self.batch} Hq={self.hq} Hkv={self.hkv} Sq={self.sq} Sk={self.sk} D={self.d} "
            f"Dv={self.dv} {self.dtype}/{self.input_precision} {self.mask_kind()}"
            f"{window_text(self.window)} scale={self.scale} values={self.values.describe()} "
            f"layouts q={self.q_layout.label} k={self.k_layout.label} v={self.v_layout.label} "
            f"out={self.out_layout.label}{options_text(self.options)}"
            + (f"; backward with dO {self.do_layout.label}" if self.backward else "")
            + (f"; served with {self.serving.describe()}" if self.serving.describe() else "")
            + (f"; pages of {self.page_size}" if self.page_size is not None else "")
        )


@dataclass(frozen=True)
class MatmulCase:
    m: int = 16
    n: int = 16
    k: int = 16
    batch: tuple[int, ...] = ()
    transpose_b: bool = False  # True: matmul_nt, b given as (N, K)
    dtype: str = "float32"
    input_precision: str = "ieee"
    scale: float = 1.0
    a_layout: Layout = field(default_factory=Layout)
    b_layout: Layout = field(default_factory=Layout)
    values: Values = field(default_factory=Values)
    out_layout: Layout = field(default_factory=Layout)
    options: Options = ()

    kind = "matmul"

    @property
    def torch_dtype(self) -> torch.dtype:
        return DTYPES[self.dtype]

    def shapes(self) -> dict[str, tuple[int, ...]]:
        b = (self.n, self.k) if self.transpose_b else (self.k, self.n)
        return {"a": (*self.batch, self.m, self.k), "b": (*self.batch, *b)}

    def layouts(self) -> dict[str, Layout]:
        return {"a": self.a_layout, "b": self.b_layout}

    def grad_outputs(self) -> dict[str, tuple[tuple[int, ...], Layout]]:
        return {}

    def kwargs(self) -> dict[str, object]:
        return {"scale": self.scale, "input_precision": self.input_precision}

    def out_shape(self) -> tuple[int, ...]:
        return (*self.batch, self.m, self.n)

    def returns(self) -> dict[str, tuple[int, ...]]:
        return {"out": self.out_shape()}

    def labels(self) -> list[str]:
        return _common_labels(self)

    def describe(self) -> str:
        op = "a@b.T" if self.transpose_b else "a@b"
        return (
            f"{op} batch={self.batch} M={self.m} N={self.n} K={self.k} "
            f"{self.dtype}/{self.input_precision} scale={self.scale} "
            f"values={self.values.describe()} "
            f"layouts a={self.a_layout.label} b={self.b_layout.label} out={self.out_layout.label}"
            f"{options_text(self.options)}"
        )


@dataclass(frozen=True)
class SoftmaxCase:
    shape: tuple[int, ...] = (1, 16)
    dtype: str = "float32"
    scale: float = 1.0
    causal: bool = False
    alignment: str = "bottom_right"
    window: Window | None = None
    x_layout: Layout = field(default_factory=Layout)
    values: Values = field(default_factory=Values)
    out_layout: Layout = field(default_factory=Layout)
    options: Options = ()

    kind = "softmax"

    @property
    def torch_dtype(self) -> torch.dtype:
        return DTYPES[self.dtype]

    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {"x": self.shape}

    def layouts(self) -> dict[str, Layout]:
        return {"x": self.x_layout}

    def grad_outputs(self) -> dict[str, tuple[tuple[int, ...], Layout]]:
        return {}

    def kwargs(self) -> dict[str, object]:
        return {"scale": self.scale, "causal": self.causal, "alignment": self.alignment,
                **_window_kwarg(self.window)}

    def out_shape(self) -> tuple[int, ...]:
        return self.shape

    def returns(self) -> dict[str, tuple[int, ...]]:
        return {"out": self.out_shape()}

    def labels(self) -> list[str]:
        return [*_common_labels(self), f"mask: {self.mask_kind()}"]

    def mask_kind(self) -> str:
        kind = "causal-window" if self.causal and self.window else "window" if self.window else (
            "causal" if self.causal else "")
        return f"{kind}-{self.alignment}" if kind else "none"

    def describe(self) -> str:
        return (
            f"softmax shape={self.shape} {self.dtype} scale={self.scale} {self.mask_kind()}"
            f"{window_text(self.window)} "
            f"values={self.values.describe()} layout={self.x_layout.label} "
            f"out={self.out_layout.label}{options_text(self.options)}"
        )


Case = AttentionCase | MatmulCase | SoftmaxCase


def _window_kwarg(window: Window | None) -> dict[str, Window]:
    """A window is passed only when there is one: implementations without
    windows never see the argument."""
    return {} if window is None else {"window": window}


def window_text(window: Window | None) -> str:
    return "" if window is None else f" window={window}"


def options_text(options: Options) -> str:
    """"; called with out=None, num_splits=7": the options that differ from the
    default ("out" is False, for none, or names an out of ``refusal.BAD_OUTS`` or
    ``execution.SHARED_OUTS``)."""
    parts = [f"{name}={value}" if name != "out" else "out=None" if value is False
             else f"an out {value}" for name, value in options]
    return f"; called with {', '.join(parts)}" if parts else ""


def _common_labels(case: Case) -> list[str]:
    """Coverage labels (for ``hypothesis.event``) that every case kind has."""
    out = [f"dtype: {case.dtype}", f"values: {case.values.family}"]
    out += [f"layout {role}: {lay.name}" for role, lay in case.layouts().items()]
    out += [f"option {name}: {value}" for name, value in case.options]
    return out

CASE_TYPES = {c.kind: c for c in (AttentionCase, MatmulCase, SoftmaxCase)}


def on_oracle(t: torch.Tensor) -> torch.Tensor:
    """``t``'s values in float64 on the oracle's device: an implementation's
    result is moved there once, and compared there."""
    return t.detach().to(backend.oracle_device(), torch.float64)


class Exact(Mapping[str, torch.Tensor]):
    """Each input's values in float64 on the oracle's device, for the oracle.

    The values are copied when the inputs are built (on the inputs' device, so
    that a kernel that writes into an input afterwards, as an ``out=`` over an
    input may, changes nothing here) and moved to the oracle's device on first
    use, once each.  A Built made only to be saved never touches the oracle's
    device: a dump is written even after a kernel killed the CUDA context.
    """

    def __init__(self, tensors: Mapping[str, torch.Tensor]) -> None:
        self._values = {r: t.detach().to(torch.float64, copy=True) for r, t in tensors.items()}
        self._moved: set[str] = set()

    def __getitem__(self, role: str) -> torch.Tensor:
        if role not in self._moved:  # replaced, so that no copy stays behind on the GPU
            self._values[role] = self._values[role].to(backend.oracle_device())
            self._moved.add(role)
        return self._values[role]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


@dataclass
class Built:
    """Kernel inputs (in their layouts) and the same values in float64 for the
    oracle, on its device (an ``Exact``, or a dict of tensors already there)."""

    inputs: dict[str, torch.Tensor]
    exact: Mapping[str, torch.Tensor]
    buffers: dict[str, torch.Tensor]


def build(case: Case, device: str | torch.device = "cpu") -> Built:
    """Make the case's tensors (its upstream gradients too), each inside a
    NaN-filled buffer on ``device``."""
    inputs, buffers = {}, {}
    layouts = case.layouts()
    tensors = {role: (shape, layouts[role]) for role, shape in case.shapes().items()}
    for role, (shape, layout) in {**tensors, **case.grad_outputs()}.items():
        values = generate(shape, case.torch_dtype, case.values, role)
        placed = materialize(values.to(case.torch_dtype).to(device), layout)
        inputs[role] = placed.tensor
        buffers[role] = placed.buffer
    return Built(inputs, Exact(inputs), buffers)


def with_inputs(case: Case, tensors: dict[str, torch.Tensor]) -> Built:
    """A Built from saved tensors (replay), keeping their exact strides."""
    return Built(dict(tensors), Exact(tensors), dict(tensors))


def to_json(case: Case) -> dict[str, object]:
    return {"kind": case.kind, **asdict(case)}


def from_json(data: dict[str, object]) -> Case:
    data = dict(data)
    cls = CASE_TYPES[data.pop("kind")]  # type: ignore[index]
    kw: dict[str, object] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if f.name.endswith("layout"):
            v = Layout.from_dict(v)  # type: ignore[arg-type]
        elif f.name == "values":
            v = Values(**v)  # type: ignore[arg-type]
        elif f.name == "serving":
            v = Serving.from_dict(v)  # type: ignore[arg-type]
        elif f.name == "options":
            v = tuple((str(name), value) for name, value in v)  # type: ignore[union-attr]
        elif isinstance(v, list):
            v = tuple(v)
        kw[f.name] = v
    return cls(**kw)  # type: ignore[arg-type]


__all__ = [
    "AttentionCase",
    "Built",
    "Case",
    "Exact",
    "MatmulCase",
    "Serving",
    "SoftmaxCase",
    "build",
    "from_json",
    "on_oracle",
    "to_json",
    "with_inputs",
]
