"""Calls an implementation must refuse with an exception, or answer right.

Cases outside a declared support (``refused_or_right``), and outputs no
kernel can write (``bad_out_refused``: an ``out=`` overlapping an input or
itself), or that a conservative overlap check refuses (an ``out=`` whose rows
sit between an input's: spans that meet, elements that do not).

A kernel may support less than the whole case space, and say so (``Support``).
Outside what it declares, raising is the correct answer; answering is allowed
only if the answer is right, since a caller who passes an unsupported head
dim and gets garbage back has no way to tell.  So a case that breaks one
declared limit passes if the implementation raises, or if every output it
returns agrees with the oracle; a wrong answer is a ``not refused`` finding,
and a malformed one (an out of the wrong shape, say) a ``contract`` finding:
the call answered, it did not refuse.
"""

from __future__ import annotations

import dataclasses
import math
import re

import torch

from ...reference import Verdict, compare
from .. import backend
from ..implementations import Implementation
from ..implementations.implementation import ContractViolation
from ..model.cases import AttentionCase, Built, Case, build
from .execution import (
    context_killer,
    contiguous_strides,
    extent,
    flag,
    overlaps_itself,
    same_bits,
)
from .oracle import against_oracle, expected


class Raised(Exception):
    """What the implementation under test raised, on its way out of a call the
    harness wraps (to tell it from what the harness itself raises)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def refused_or_right(
    impl: Implementation, case: AttentionCase, built: Built | None = None
) -> list[Verdict]:
    """One passing verdict if ``impl`` raises on ``case``; else the oracle's verdicts,
    failing ones marked ``not refused``."""
    broken = impl.support.first_broken_limit(case) or "nothing"

    def run(*args, **kwargs):
        try:
            return impl.run(*args, **kwargs)
        except ContractViolation:
            raise  # its convention judged a result it returned: an answer, not a refusal
        except Exception as exc:
            raise Raised(exc) from exc

    try:
        verdicts = against_oracle(dataclasses.replace(impl, run=run), case, built)
    except Raised as raised:
        if context_killer(raised.error):
            raise raised.error from None  # a fault, not a refusal: the harness reports it
        # A harness wrapper may hold the implementation's own error.
        error = getattr(raised.error, "error", raised.error)
        nan = math.nan
        return [Verdict(f"refused {broken} ({type(error).__name__})", 0.0, 0.0, 0.0, (), nan,
                        nan)]
    return [
        v if v.ok else dataclasses.replace(
            v, check=f"{v.check}, outside the declared support ({broken}), not refused",
            kind="not refused",
        )
        for v in verdicts
    ]


def refused(what: str, exc: Exception, note: str = "") -> list[Verdict]:
    """The passing verdict of a call that raised ``exc``; a fault (a lost CUDA
    context) is re-raised, for the harness to report."""
    if context_killer(exc):
        raise exc
    error = getattr(exc, "error", exc)  # a harness wrapper holds the implementation's own
    nan = math.nan
    return [Verdict(f"{what}: refused ({type(error).__name__}){note}", 0.0, 0.0, 0.0, (), nan,
                    nan)]


# --- outputs no kernel can write ---------------------------------------------------------
#
# An ``out=`` whose elements overlap an input, or each other, races: programs
# read what others write.  Each entry makes one from a case's built inputs
# (None where the case has no room for it).
def _overlapping_an_input(case: Case, built: Built) -> torch.Tensor | None:
    shape = case.out_shape()

    def span(t: torch.Tensor) -> int:  # elements of memory from its first to its last
        lo, hi = extent(t)
        return (hi - lo) // t.element_size()

    fits = [t for t in built.inputs.values() if span(t) >= math.prod(shape) > 0]
    if not fits:
        return None
    t = max(fits, key=span)
    # Over the input's first elements, laid out as torch lays out a new tensor.
    return t.as_strided(shape, contiguous_strides(shape), t.storage_offset())


def _over_an_input_dims_reversed(case: Case, built: Built) -> torch.Tensor | None:
    """The same elements as ``_overlapping_an_input``, its dims laid out in
    reverse (the last outermost).  Its first rows then cover memory that the
    input's later rows, batches and heads live in: a kernel that accepts it
    reads what it already wrote once its programs pass the first, and on the
    interpreter, whose programs run in order, only such an out shows that.
    Over an input in the natural order, it is that input seen through other
    strides, the same address and shape: an in-place check must tell it apart."""
    out = _overlapping_an_input(case, built)
    if out is None or out.dim() < 2:
        return None
    reversed_strides = contiguous_strides(tuple(out.shape)[::-1])[::-1]
    return out.as_strided(out.shape, reversed_strides, out.storage_offset())


def _sharing_an_inputs_last_element(case: Case, built: Built) -> tuple[list, torch.Tensor] | None:
    """The last input (of the out's dtype, not expanded) copied into a buffer
    with room after it, and an out whose first element is that input's last:
    the one shared element a span check that stops short of an input's last
    element misses.  The first program writes it, later ones read it (on the
    interpreter, in order, too)."""
    shape = case.out_shape()
    roles = list(case.shapes())
    n = math.prod(shape)
    # An expanded input cannot be copied into a buffer of its own strides.
    fits = [r for r in roles if built.inputs[r].numel() and not overlaps_itself(built.inputs[r])
            and built.inputs[r].dtype == case.torch_dtype]
    if not n or not fits:
        return None
    role = fits[-1]
    t = built.inputs[role]
    last = sum((size - 1) * stride for size, stride in zip(t.shape, t.stride(), strict=True))
    buf = torch.full((last + n,), math.nan, dtype=t.dtype, device=t.device)
    inside = buf.as_strided(t.shape, t.stride(), 0)
    inside.copy_(t)
    out = buf.as_strided(shape, contiguous_strides(shape), last)
    return [inside if r == role else built.inputs[r] for r in roles], out


def _overlapping_itself(case: Case, built: Built) -> torch.Tensor | None:
    shape = case.out_shape()
    wide = [i for i, n in enumerate(shape) if n > 1]
    if not wide:
        return None
    one = list(shape)
    one[wide[0]] = 1  # one element along that dim, broadcast: stride 0
    device = next(iter(built.inputs.values())).device
    return torch.full(one, math.nan, dtype=case.torch_dtype, device=device).expand(shape)


def _interleaved_with_an_input(case: Case, built: Built) -> tuple[list, torch.Tensor] | None:
    """The first input and the out in one allocation, each row of one followed by
    the same row of the other: their spans intersect, their elements do not.
    Where the out's rows are not the input's (leading dims differ), None."""
    shape = case.out_shape()
    roles = list(case.shapes())
    t = built.inputs[roles[0]]
    if tuple(t.shape[:-1]) != tuple(shape[:-1]) or not math.prod(shape):
        return None
    width = t.shape[-1]
    buf = torch.full((*shape[:-1], width + shape[-1]), math.nan, dtype=t.dtype, device=t.device)
    buf[..., :width].copy_(t)
    return [buf[..., :width], *(built.inputs[r] for r in roles[1:])], buf[..., width:]


BAD_OUTS = {
    "overlapping an input": _overlapping_an_input,
    "overlapping an input, dims reversed": _over_an_input_dims_reversed,
    "sharing an input's last element": _sharing_an_inputs_last_element,
    "overlapping itself": _overlapping_itself,
    "interleaved with an input": _interleaved_with_an_input,
}
# Outs of BAD_OUTS that share no element with an input: a kernel may answer
# (right), or refuse, since checking spans for overlap, not elements, is the
# usual conservative test; the refusal is then named a needless one.  An out
# in the same allocation but whose span meets no input's (execution's
# SHARED_OUTS) must be accepted.
NEEDLESSLY_REFUSED = ("interleaved with an input",)


def bad_out_refused(impl: Implementation, case: Case, built: Built | None = None) -> list[Verdict]:
    """An ``out`` of ``BAD_OUTS`` (named by the case's ``out`` option) is refused
    with an exception, or the answer is right anyway (softmax may run in place,
    ``out=x``); a wrong answer is a ``not refused`` finding."""
    built = built or build(case, backend.device())
    options = dict(case.options)
    kind = str(options.pop("out", ""))
    if kind not in BAD_OUTS:
        raise ValueError(f"the case's out option must be one of {', '.join(BAD_OUTS)}, "
                         f"got {kind!r}")
    made = BAD_OUTS[kind](case, built)
    nan = math.nan
    if made is None:
        return [Verdict(f"out {kind}: not possible for this shape", 0.0, 0.0, 0.0, (), nan, nan)]
    # An entry gives the out alone, or the inputs it made beside it too.
    inputs, out = made if isinstance(made, tuple) else (
        [built.inputs[role] for role in case.shapes()], made)
    before = [t.clone() for t in inputs]
    try:
        results = impl.run(*inputs, out, **case.kwargs(), **options)
    except ContractViolation:
        raise  # its convention judged a result it returned: an answer, not a refusal
    except Exception as exc:
        needless = " though no element is shared (a needless refusal, accepted)" if (
            kind in NEEDLESSLY_REFUSED) else ""
        return refused(f"out {kind}", exc, needless)
    want, bound, dtype = expected(case, built, impl.support)["out"]
    verdict = compare(f"out {kind}", results["out"], want, bound, dtype=dtype)
    verdicts = [verdict if verdict.ok or kind in NEEDLESSLY_REFUSED else dataclasses.replace(
        verdict, check=f"{verdict.check}, not refused", kind="not refused")]
    if kind in NEEDLESSLY_REFUSED:  # a writable out: its inputs must stay as they were
        for role, t, was in zip(case.shapes(), inputs, before, strict=True):
            verdicts.append(flag(f"out {kind}: input {role} modified", ~same_bits(was, t), t,
                                 kind="memory", want=was))
    return verdicts


# --- an input in another dtype -----------------------------------------------------------
#
# The output takes the first input's dtype, and so does its bound.  The other
# dtype holds the same values: a float32 case's input is rounded to 16 bits
# (the oracle sees the rounded values, which float32 holds exactly), a 16-bit
# case's is widened to float32 (exactly).  So an implementation that computes
# in the output's dtype, or converts the odd input to it, answers right; one
# that lets the odd input's dtype set its arithmetic (a float32 call computed
# at 16 bits) or misreads its memory does not, and refusing is always right.
def other_input_dtypes(dtype: str) -> tuple[str, ...]:
    """The dtypes an input of a ``dtype`` case may come in, the same values held."""
    if dtype != "float32":
        return ("float32",)
    return ("float16", "bfloat16") if backend.supports_bf16() else ("float16",)


def mixed_dtype_refused(impl: Implementation, case: Case, built: Built | None = None
                        ) -> list[Verdict]:
    """The case's input named by its ``mixed`` option ("ROLE DTYPE", never the
    first input) in that dtype: refused with an exception, or the output right
    within the bound of the case's own dtype; a wrong answer is ``not refused``."""
    built = built or build(case, backend.device())
    options = dict(case.options)
    given = str(options.pop("mixed", ""))
    role, _, dtype = given.partition(" ")
    roles = list(case.shapes())
    if role not in roles[1:] or dtype not in other_input_dtypes(case.dtype):
        raise ValueError(f"the case's mixed option must be 'ROLE DTYPE' with ROLE one of "
                         f"{', '.join(roles[1:])} and DTYPE one of "
                         f"{', '.join(other_input_dtypes(case.dtype))}, got {given!r}")
    # Values past the other dtype's range (a float32 near_max case in float16)
    # would arrive as inf, where no answer is right: they come at its largest.
    held, into = built.inputs[role], getattr(torch, dtype)
    top = torch.finfo(into).max
    if top < torch.finfo(held.dtype).max:
        held = held.clamp(-top, top)
    odd = held.to(into)
    exact = dict(built.exact)
    exact[role] = odd.to(device=exact[role].device, dtype=torch.float64)
    inputs = [odd if r == role else built.inputs[r] for r in roles]
    what = f"{role} in {dtype}"
    try:
        results = impl.run(*inputs, None, **case.kwargs(), **options)
    except ContractViolation:
        raise
    except Exception as exc:
        return refused(what, exc)
    seen = dataclasses.replace(built, exact=exact)
    want, bound, out_dtype = expected(case, seen, impl.support)["out"]
    verdict = compare(what, results["out"], want, bound, dtype=out_dtype)
    return [verdict if verdict.ok else dataclasses.replace(
        verdict, check=f"{what}, not refused", kind="not refused")]


# --- inputs whose shapes disagree ----------------------------------------------------------
#
# Each entry grows the dim of one input (or two) that must equal another's, by
# one element (zeros): no answer is right, so the call must raise.  Only dims
# that no convention broadcasts are grown: never a batch dim, and heads only
# where neither side has one (SDPA broadcasts a size of 1 there, and its
# answer is then right).
def _grown(t: torch.Tensor, dim: int) -> torch.Tensor:
    one = list(t.shape)
    one[dim] = 1
    return torch.cat([t, t.new_zeros(one)], dim)


def _shape_breaks(case: Case) -> dict[str, dict[str, int]]:
    """Name -> {role: dim grown by one} for the case's kind."""
    if isinstance(case, AttentionCase):
        # Matmuls never broadcast their inner dims; a head count of 1 broadcasts.
        breaks = {"v with one more key than k": {"v": 2},
                  "k with one more key than v": {"k": 2},
                  "k with one more head dim than q": {"k": 3},
                  "q with one more head dim than k": {"q": 3}}
        if case.hkv > 1:
            breaks["v with one more head than k"] = {"v": 1}
        if case.hq > 1 and case.hq % (case.hkv + 1):
            breaks["k and v with heads that do not divide q's"] = {"k": 1, "v": 1}
        return breaks
    if getattr(case, "transpose_b", None) is not None:
        return {"a with one more element along the shared dim": {"a": -1},
                "b with one more element along the shared dim":
                {"b": -1 if case.transpose_b else -2}}
    return {}


SHAPE_CONVENTIONS = ("attnfuzz", "sdpa", "flash_attn")  # one tensor per input, no packing


def shape_breaks(case: Case) -> tuple[str, ...]:
    """The names of the ways ``bad_shapes`` can break ``case``."""
    return tuple(_shape_breaks(case))


def bad_shapes_refused(impl: Implementation, case: Case, built: Built | None = None
                       ) -> list[Verdict]:
    """The case with the inputs named by its ``shapes`` option grown by one
    along a dim another input must match: refused with an exception; any
    answer is a ``not refused`` finding."""
    built = built or build(case, backend.device())
    options = dict(case.options)
    name = str(options.pop("shapes", ""))
    breaks = _shape_breaks(case)
    if name not in breaks:
        raise ValueError(f"the case's shapes option must be one of {', '.join(breaks)}, "
                         f"got {name!r}")
    inputs = [_grown(built.inputs[r], breaks[name][r]) if r in breaks[name] else built.inputs[r]
              for r in case.shapes()]
    try:
        impl.run(*inputs, None, **case.kwargs(), **options)
    except ContractViolation:
        raise  # it answered, and its convention judged the answer
    except Exception as exc:
        return refused(name, exc)
    nan = math.nan
    return [Verdict(f"{name}: answered, not refused", math.inf, nan, nan, (), nan, nan,
                    kind="not refused")]


# --- an option just outside its declared values ----------------------------------------
#
# An implementation declares the values of its integer options that it takes
# (``Implementation.options``: split counts, program caps).  One below the
# least of them, and -1, are the values a caller's off-by-one passes: they
# must be refused with a ValueError or TypeError that names the option (the
# error a caller can act on), or answered right (a kernel may read 0 as "its
# own choice").  Another error, or one that names no option, is ``unclear``:
# a count of 0 that dies in a division inside the planning says nothing.
def option_edges(options: tuple[tuple[str, tuple], ...]) -> tuple[str, ...]:
    """``NAME=VALUE`` for each integer option (its values ints, or None) whose
    least value is 0 or more: one below that least value, and -1."""
    edges = []
    for name, values in options:
        given = [v for v in values if v is not None]
        if not given or not all(isinstance(v, int) and not isinstance(v, bool) for v in given):
            continue
        if min(given) >= 0:
            edges += [f"{name}={bad}" for bad in dict.fromkeys((min(given) - 1, -1))]
    return tuple(edges)


def bad_option_refused(impl: Implementation, case: Case, built: Built | None = None
                       ) -> list[Verdict]:
    """The case called with its ``bad_option`` (``NAME=VALUE``, of
    ``option_edges``): refused with a ValueError or TypeError naming NAME, or
    every output right; another refusal is an ``unclear`` finding."""
    options = dict(case.options)
    given = str(options.pop("bad_option", ""))
    if given not in option_edges(impl.options):
        raise ValueError(f"the case's bad_option must be one of "
                         f"{', '.join(option_edges(impl.options)) or 'none'}, got {given!r}")
    name, _, value = given.partition("=")
    options.pop(name, None)

    def run(*args, **kwargs):
        # Passed here: the harness passes only an option's declared values.
        try:
            return impl.run(*args, **{**kwargs, name: int(value)})
        except ContractViolation:
            raise
        except Exception as exc:
            raise Raised(exc) from exc

    try:
        verdicts = against_oracle(dataclasses.replace(impl, run=run),
                                  dataclasses.replace(case, options=tuple(options.items())), built)
    except Raised as raised:
        error = getattr(raised.error, "error", raised.error)
        if isinstance(error, (ValueError, TypeError)) and re.search(
                rf"\b{re.escape(name)}\b", str(error)):
            return refused(given, raised.error)
        if context_killer(raised.error):
            raise raised.error from None
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        nan = math.nan
        return [Verdict(f"{given}: refused with {type(error).__name__}({first!r}), not a "
                        f"ValueError or TypeError that names {name}", math.inf, nan, nan, (),
                        nan, nan, kind="unclear")]
    return [v if v.ok else dataclasses.replace(v, check=f"{v.check}, with {given}")
            for v in verdicts]
