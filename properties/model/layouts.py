"""Physical layouts: the same logical tensor stored in many ways.

A ``Layout`` says how a logical tensor of some shape sits in memory: the order
of its dims in memory, a step (stride multiplier) per dim for strided slices,
padding per dim (extra rows or columns that belong to something else), dims
that are broadcast with stride 0, and a storage offset.  ``materialize``
places the values inside a larger buffer filled with NaN, so a kernel that
reads one element outside its tensor picks up a NaN and the comparison fails,
even under the interpreter, which does not detect out-of-bounds accesses.

Named layouts for 4-D attention tensors (B, H, S, D):

- ``contiguous``    (B, H, S, D) row-major.
- ``bshd``          the projection layout (B, S, H, D) viewed as (B, H, S, D).
- ``fused_qkv``     heads carved out of one fused QKV projection buffer
                    (B, S, 3H, D): S-stride covers all three projections.
- ``expand_batch``  batch broadcast with stride 0 (all batches share values).
- ``expand_heads``  heads broadcast with stride 0 (all heads share values).
- ``slice_s``       every ``step``-th row of a longer sequence.
- ``slice_d``       the leading D columns of a wider head dim.
- ``d_major``       stored as (B, H, D, S): the last dim has stride S, not 1.
- ``offset``        contiguous, at a non-zero storage offset.

Any layout may also give every dim of size one a stride of its own
(``unit_stride``): a dim of one element is addressed at index 0 alone, so its
stride is free, and torch leaves all sorts there (a slice's stride, a view's,
0 from ``expand``, 1).  A kernel that reads layout from those strides (a
contiguity test, a TMA descriptor, an overlap or broadcast check) sees them.

Packed (T, H, D) tensors of serving batches take ``bshd`` as the head-major
pack (H, T, D) and ``fused_qkv`` as one head group of a (T, 3H, D) fused
projection; the other names apply to them as to any tensor.

Index tensors (prefix sums, block tables, cache lengths) are drawn as views
too (``index_view``): part-way into a larger buffer, every other element, or
a table stored column-major, with the elements between them holding values
that a kernel reading them by the wrong strides would act on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

NAMES = (
    "contiguous",
    "bshd",
    "fused_qkv",
    "expand_batch",
    "expand_heads",
    "slice_s",
    "slice_d",
    "d_major",
    "offset",
)


@dataclass(frozen=True)
class Layout:
    name: str = "contiguous"
    order: tuple[int, ...] = ()  # memory order of dims, outermost first; () = natural
    steps: tuple[int, ...] = ()  # stride multiplier per dim; () = all 1
    pads: tuple[int, ...] = ()  # extra physical elements per dim; () = none
    starts: tuple[int, ...] = ()  # first physical index used per dim (<= pad)
    expanded: tuple[int, ...] = ()  # dims broadcast with stride 0
    front: int = 0  # storage offset of the physical block in its buffer
    unit_stride: int | None = None  # the stride of every dim of size one; None: as laid out
    guard: int = 16  # NaN elements after the block

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> Layout:
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})

    @property
    def stride_key(self) -> tuple:
        """What sets its strides on any shape (the storage offset aside): two
        layouts with one key give every shape the same strides."""
        return self.order, self.steps, self.pads, self.expanded, self.unit_stride

    @property
    def label(self) -> str:
        """Its name, and the size-one dims' stride where it sets one."""
        if self.unit_stride is None:
            return self.name
        return f"{self.name} (stride {self.unit_stride} on dims of size 1)"


@dataclass
class Placed:
    """A tensor materialised in a layout, with the buffer around it."""

    tensor: torch.Tensor
    buffer: torch.Tensor = field(repr=False)


# Contiguous, one element into its buffer: buffers start on a 16-byte
# boundary, so in every dtype the tensor starts off one.
OFF_BOUNDARY = Layout(front=1)


def off_boundary(values: torch.Tensor) -> torch.Tensor:
    """``values`` stored contiguously in ``OFF_BOUNDARY``."""
    return materialize(values, OFF_BOUNDARY).tensor


def constrain(values: torch.Tensor, layout: Layout) -> torch.Tensor:
    """The logical values a layout can hold: stride-0 dims repeat index 0."""
    for dim in layout.expanded:
        values = values.narrow(dim, 0, 1).expand_as(values)
    return values.contiguous()


def materialize(values: torch.Tensor, layout: Layout, *, fill: float = math.nan) -> Placed:
    """Store ``constrain(values, layout)`` in ``layout`` inside a ``fill``-ed buffer."""
    nd = values.dim()
    order = layout.order or tuple(range(nd))
    steps = layout.steps or (1,) * nd
    pads = layout.pads or (0,) * nd
    starts = layout.starts or (0,) * nd
    logical = values.shape
    phys_size = [
        1 if d in layout.expanded else max(1, (logical[d] - 1) * steps[d] + 1 + pads[d])
        if logical[d]
        else pads[d]
        for d in range(nd)
    ]
    phys_shape = [phys_size[d] for d in order]
    count = math.prod(phys_shape)
    buffer = torch.full(
        (layout.front + count + layout.guard,), fill, dtype=values.dtype, device=values.device
    )
    phys = buffer[layout.front : layout.front + count].view(phys_shape)
    view = phys.permute([order.index(d) for d in range(nd)])
    for d in range(nd):
        if d in layout.expanded:
            continue
        stop = starts[d] + (logical[d] - 1) * steps[d] + 1 if logical[d] else starts[d]
        index = (slice(None),) * d + (slice(starts[d], stop, steps[d]),)
        view = view.narrow(d, 0, phys_size[d])[index]
    for d in layout.expanded:
        view = view.expand(*[logical[i] if i == d else -1 for i in range(nd)])
    if layout.unit_stride is not None:
        # Dims of one element only ever add 0 * stride to an address: the same
        # elements, through other strides.
        view = view.as_strided(
            view.shape, [layout.unit_stride if n == 1 else s
                         for n, s in zip(view.shape, view.stride(), strict=True)],
            view.storage_offset())
    src = constrain(values, layout)
    if view.numel():
        writable = view
        for d in layout.expanded:
            writable = writable.narrow(d, 0, 1)
            src = src.narrow(d, 0, 1)
        writable.copy_(src)
    return Placed(view, buffer)


def named(
    name: str, ndim: int = 4, *, step: int = 2, pad: int = 3, front: int = 5, seq_dim: int = 2
) -> Layout:
    """The named layouts of the module docstring, for 4-D (B, H, S, D) tensors.

    For 2-D matrices (rows, cols) the same names apply with rows as S and cols
    as D; head/batch layouts fall back to a transpose.
    """
    nat = tuple(range(ndim))
    last = ndim - 1
    if name == "contiguous":
        return Layout(name)
    if name == "offset":
        return Layout(name, front=front)
    if name == "d_major":
        return Layout(name, order=nat[:-2] + (last, last - 1), front=front)
    if name == "slice_s":
        return Layout(name, steps=_at(ndim, last - 1, step, 1), front=front)
    if name == "slice_d":
        return Layout(
            name, pads=_at(ndim, last, pad, 0), starts=_at(ndim, last, min(1, pad), 0)
        )
    if ndim == 3 and name == "bshd":
        return Layout(name, order=(1, 0, 2))
    if ndim == 3 and name == "fused_qkv":
        return Layout(name, pads=(0, 2 * pad, 0), starts=(0, min(pad, 1), 0))
    if ndim != 4:
        return Layout("d_major", order=nat[:-2] + (last, last - 1), front=front)
    if name == "bshd":
        return Layout(name, order=(0, 2, 1, 3))
    if name == "fused_qkv":
        # (B, S, 3H, D): this tensor is one of the three head groups.
        return Layout(name, order=(0, 2, 1, 3), pads=(0, pad, 0, 0), starts=(0, min(pad, 1), 0, 0))
    if name == "expand_batch":
        return Layout(name, expanded=(0,), front=front)
    if name == "expand_heads":
        return Layout(name, expanded=(1,), front=front)
    raise ValueError(f"unknown layout {name!r}; expected one of {', '.join(NAMES)}")


def _at(ndim: int, dim: int, value: int, default: int) -> tuple[int, ...]:
    return tuple(value if d == dim else default for d in range(ndim))


# How an index tensor sits in memory, simplest first (see ``index_view``).
INDEX_VIEWS = ("contiguous", "offset", "strided", "column_major")


def index_view(t: torch.Tensor, how: str, fill: int) -> torch.Tensor:
    """The 1-D or 2-D index tensor ``t`` as a view of a larger buffer whose
    other elements hold ``fill``: ``contiguous`` is ``t`` itself; ``offset``
    starts part-way into the buffer; ``strided`` takes every other element
    (every other column of a table); ``column_major`` stores a table's
    columns adjacent (a 1-D tensor every third element)."""
    if how not in INDEX_VIEWS:
        raise ValueError(f"unknown index view {how!r}; expected one of {', '.join(INDEX_VIEWS)}")
    if how == "contiguous":
        return t
    nd = t.dim()
    if how == "offset":
        layout = Layout(how, front=3)
    elif how == "strided":
        layout = Layout(how, steps=(1,) * (nd - 1) + (2,), front=1)
    elif nd == 2:
        layout = Layout(how, order=(1, 0), front=1)
    else:
        layout = Layout(how, steps=(3,), front=2)
    return materialize(t, layout, fill=fill).tensor
