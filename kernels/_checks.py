"""Input validation shared by every launcher.

A launcher must never hand Triton a tensor it cannot read correctly: a wrong
shape or a CPU tensor on a GPU run would give a silent wrong answer or crash
the process, so each failure here raises ``TypeError`` (wrong kind of thing)
or ``ValueError`` (right kind, wrong value) naming the argument.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import torch

SUPPORTED_DTYPES = (torch.float32, torch.float16, torch.bfloat16)
ALIGNMENTS = ("bottom_right", "top_left")
PRECISIONS = ("ieee", "tf32")
MAX_HEAD_DIM = 256


# Read once: ``@triton.jit`` reads it when this package's kernels are
# decorated, so a later change of the variable cannot change where they run,
# and a short launch is bound by host time that an environment lookup per
# check adds to.
_INTERPRETING = os.environ.get("TRITON_INTERPRET", "0") == "1"


def interpreting() -> bool:
    """True when kernels run under Triton's CPU interpreter."""
    return _INTERPRETING


def check_tensor(name: str, t: object, *, ndim: int | tuple[int, ...]) -> torch.Tensor:
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(t).__name__}")
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if t.dim() not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise ValueError(f"{name} must have {want} dimensions, got shape {tuple(t.shape)}")
    if t.dtype not in SUPPORTED_DTYPES:
        raise TypeError(
            f"{name} has dtype {t.dtype}; expected one of float32, float16, bfloat16"
        )
    # ``is_cpu`` / ``is_cuda``, not ``device.type``: a short call's host time
    # counts, and each ``device`` builds an object.
    if interpreting():
        if not t.is_cpu:
            raise ValueError(
                f"{name} is on {t.device}; under TRITON_INTERPRET=1 kernels take CPU tensors"
            )
    elif not t.is_cuda:
        raise ValueError(
            f"{name} is on {t.device}; compiled Triton kernels need a CUDA tensor "
            "(set TRITON_INTERPRET=1 before importing kernels to run on the CPU)"
        )
    return t


def check_same_dtype_device(names: tuple[str, ...], tensors: tuple[torch.Tensor, ...]) -> None:
    first_name, first = names[0], tensors[0]
    for name, t in zip(names[1:], tensors[1:], strict=True):
        if t.dtype != first.dtype:
            raise TypeError(
                f"{name} has dtype {t.dtype} but {first_name} has {first.dtype}; "
                "inputs must share one dtype"
            )
        if t.get_device() != first.get_device() or t.is_cuda != first.is_cuda:
            raise ValueError(
                f"{name} is on {t.device} but {first_name} is on {first.device}; "
                "inputs must share one device"
            )


def check_scale(scale: object, *, name: str = "scale") -> float:
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise TypeError(f"{name} must be a real number, got {type(scale).__name__}")
    if not math.isfinite(scale):
        raise ValueError(f"{name} must be finite, got {scale}")
    return float(scale)


Window = tuple[int | None, int | None]


def check_window(window: object) -> Window | None:
    """A sliding window ``(left, right)``: key j is visible to query i iff
    ``i + off - left <= j <= i + off + right`` (``off`` the alignment's
    offset, as for causal masks); None on either side is unlimited, and
    ``None`` or ``(None, None)`` is no window (returned as None)."""
    if window is None:
        return None
    if not isinstance(window, tuple | list) or len(window) != 2:
        raise TypeError(f"window must be None or a (left, right) pair, got {window!r}")
    for side, n in zip(("left", "right"), window, strict=True):
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise ValueError(f"window {side} must be an int >= 0 or None, got {n!r}")
    left, right = window
    return None if left is None and right is None else (left, right)


def check_flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return value


def check_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value  # type: ignore[return-value]


def causal_diagonal(m: int, n: int, alignment: str) -> int:
    """Offset such that entry (i, j) is visible iff j <= i + offset."""
    return n - m if alignment == "bottom_right" else 0


@dataclass(frozen=True)
class AttentionDims:
    batch: int
    hq: int
    hkv: int
    sq: int
    sk: int
    d: int
    dv: int
    scale: float
    diagonal: int  # causal visibility offset, see causal_diagonal

    @property
    def group(self) -> int:
        return self.hq // self.hkv


def check_attention_inputs(
    q: object,
    k: object,
    v: object,
    *,
    causal: object,
    scale: object,
    alignment: object,
    input_precision: object = "ieee",
) -> AttentionDims:
    """Validate q (B, Hq, Sq, D), k (B, Hkv, Sk, D), v (B, Hkv, Sk, Dv)."""
    q = check_tensor("q", q, ndim=4)
    k = check_tensor("k", k, ndim=4)
    v = check_tensor("v", v, ndim=4)
    check_same_dtype_device(("q", "k", "v"), (q, k, v))
    check_flag(causal, "causal")
    check_choice(alignment, "alignment", ALIGNMENTS)
    check_choice(input_precision, "input_precision", PRECISIONS)
    b, hq, sq, d = q.shape
    bk, hkv, sk, dk = k.shape
    bv, hv, skv, dv = v.shape
    if bk != b or bv != b:
        raise ValueError(f"batch sizes differ: q has {b}, k has {bk}, v has {bv}")
    if hv != hkv:
        raise ValueError(f"v has {hv} heads but k has {hkv}; k and v must share their heads")
    if hkv == 0 and hq != 0:
        raise ValueError(f"k has 0 heads but q has {hq}; k needs at least one head")
    if hkv and hq % hkv:
        raise ValueError(
            f"q has {hq} heads, not a multiple of k's {hkv} heads (GQA needs Hq % Hkv == 0)"
        )
    if dk != d:
        raise ValueError(f"k has head dim {dk} but q has {d}; q and k must share D")
    if skv != sk:
        raise ValueError(f"v has {skv} keys but k has {sk}; k and v must share Sk")
    for name, dim in (("q/k head dim D", d), ("v head dim Dv", dv)):
        if not 1 <= dim <= MAX_HEAD_DIM:
            raise ValueError(f"{name} is {dim}; supported head dims are 1 to {MAX_HEAD_DIM}")
    if input_precision == "tf32" and q.dtype != torch.float32:
        raise ValueError("input_precision='tf32' applies only to float32 inputs")
    if scale is None:
        scale_f = d**-0.5
    else:
        scale_f = check_scale(scale)
    diagonal = causal_diagonal(sq, sk, alignment)  # type: ignore[arg-type]
    return AttentionDims(b, hq, hkv, sq, sk, d, dv, scale_f, diagonal)


def dot_precision(dtype: torch.dtype, input_precision: str) -> str:
    """The ``input_precision`` handed to ``tl.dot``: only float32 has a choice."""
    return input_precision if dtype == torch.float32 else "ieee"


_GRAD_MESSAGE = (
    "{name} requires grad, but this kernel has no backward; pass a tensor that "
    "does not require grad (e.g. {name}.detach())"
)


def needs_grad(tensors: tuple[torch.Tensor, ...]) -> bool:
    """Whether autograd will ask for gradients of any of ``tensors``."""
    return torch.is_grad_enabled() and any(t.requires_grad for t in tensors)


def check_differentiable_out(
    out: object, inputs: tuple[tuple[str, torch.Tensor], ...]
) -> None:
    """A differentiable call returns a new tensor: ``out`` would hide it from autograd."""
    if out is not None:
        names = ", ".join(name for name, t in inputs if t.requires_grad)
        raise ValueError(
            f"out must be None when an input requires grad ({names} does): the result of a "
            "differentiable call is a new tensor; call without out=, or under torch.no_grad()"
        )


def check_computable(
    inputs: tuple[tuple[str, torch.Tensor], ...], *, differentiable: bool = False
) -> None:
    """Reject (name, tensor) inputs a kernel reads correctly but answers wrongly for.

    A kernel without a backward (``differentiable=False``) would detach a
    tensor that requires grad silently.  The interpreter stores bf16 as raw
    uint16, so its bf16 arithmetic is off by orders of magnitude.
    """
    for name, t in inputs:
        if t.requires_grad and not differentiable:
            raise ValueError(_GRAD_MESSAGE.format(name=name))
        if _INTERPRETING and t.dtype == torch.bfloat16:
            raise TypeError(
                f"{name} is bfloat16, which Triton's interpreter does not compute correctly "
                "(it stores bf16 as raw uint16); bf16 must run on a GPU"
            )


def _span(t: torch.Tensor) -> tuple[int, int]:
    """The [first, past-last) byte addresses ``t`` reaches (torch strides are >= 0)."""
    first = t.data_ptr()
    last = 0
    for n, s in zip(t.shape, t.stride(), strict=True):
        last += (n - 1) * s
    return first, first + (last + 1) * t.element_size()


def _check_no_overlap(
    out: torch.Tensor, inputs: tuple[tuple[str, torch.Tensor], ...], in_place: bool
) -> None:
    # Programs read inputs while others write out, so a shared byte gives a
    # wrong answer.  The test is conservative (intersecting spans, not shared
    # elements) and cheap: only tensors in one storage (or storages sharing
    # memory) get their spans computed, from attributes, with no tensor op.
    if out.numel() == 0:
        return
    store = out.untyped_storage()
    store_lo = store.data_ptr()
    store_hi = store_lo + store.nbytes()
    span = None
    for name, t in inputs:
        t_store = t.untyped_storage()
        t_store_lo = t_store.data_ptr()
        if t_store_lo >= store_hi or store_lo >= t_store_lo + t_store.nbytes() or not t.numel():
            continue
        lo, hi = span = span or _span(out)
        t_lo, t_hi = _span(t)
        if t_lo >= hi or lo >= t_hi:
            continue
        if in_place and t_lo == lo and t.shape == out.shape and t.stride() == out.stride():
            continue
        want = f"be {name} itself or share" if in_place else "share"
        raise ValueError(f"out overlaps {name} in memory; out must {want} no memory with {name}")


def prepare_out(
    out: object,
    shape: tuple[int, ...],
    like: torch.Tensor,
    *,
    dtype: torch.dtype | None = None,
    inputs: tuple[tuple[str, torch.Tensor], ...] = (),
    in_place: bool = False,
) -> torch.Tensor:
    """The caller's ``out`` after checking it, or a fresh tensor.

    ``out`` may have any strides (it is written through them), but it must
    not overlap itself: two output elements sharing an address would race.
    Nor may it overlap any of the named ``inputs``, except, with
    ``in_place``, by being exactly one of them (same address, shape and
    strides), for a kernel written to run in place.
    """
    dtype = dtype or like.dtype
    if out is None:
        return torch.empty(shape, dtype=dtype, device=like.device)
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"out must be a torch.Tensor or None, got {type(out).__name__}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"out has shape {tuple(out.shape)}; expected {tuple(shape)}")
    if out.dtype != dtype:
        raise TypeError(f"out has dtype {out.dtype}; expected {dtype}")
    if out.device != like.device:
        raise ValueError(f"out is on {out.device}; expected {like.device}")
    if out.requires_grad:
        raise ValueError(_GRAD_MESSAGE.format(name="out"))
    if any(s == 0 and n > 1 for s, n in zip(out.stride(), out.shape, strict=True)):
        raise ValueError("out has a stride-0 (expanded) dim; it must not overlap itself")
    _check_no_overlap(out, inputs, in_place)
    return out


def as_4d(t: torch.Tensor) -> tuple[torch.Tensor, int]:
    """View a (..., R, C) tensor with 0-2 leading dims as (B, H, R, C) (no copy)."""
    lead = t.dim() - 2
    for _ in range(2 - lead):
        t = t.unsqueeze(0)
    return t, lead


def check_matmul_operands(a: object, b: object) -> tuple[torch.Tensor, torch.Tensor]:
    a = check_tensor("a", a, ndim=(2, 3, 4))
    b = check_tensor("b", b, ndim=(2, 3, 4))
    check_same_dtype_device(("a", "b"), (a, b))
    if a.shape[:-2] != b.shape[:-2]:
        raise ValueError(
            f"a and b must share their leading (batch) dims, got {tuple(a.shape)} and "
            f"{tuple(b.shape)}"
        )
    return a, b
