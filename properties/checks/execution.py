"""Running an implementation on a case, and the memory-safety verdicts of every run.

The interpreter does not detect out-of-bounds accesses, so every run is
checked here: inputs sit in NaN-filled buffers (an out-of-bounds read poisons
the output), the output is NaN-poisoned before the launch (an unwritten
element stays NaN) and lies in a NaN buffer whose guard region must still be
NaN afterwards (an out-of-bounds write shows up), and input buffers must be
bit-for-bit unchanged.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, replace

import torch

from attnfuzz.properties import backend
from attnfuzz.properties.checks.accesses import watching
from attnfuzz.properties.implementations import Implementation
from attnfuzz.properties.model.cases import Built, Case, build
from attnfuzz.properties.model.layouts import materialize
from attnfuzz.reference import Verdict

# Errors after which a process's CUDA context is lost: no later kernel can run.
CONTEXT_KILLERS = ("illegal memory access", "misaligned address")


@dataclass
class Run:
    results: dict[str, torch.Tensor]
    safety: list[Verdict]


def flag(
    check: str, bad: torch.Tensor, got: torch.Tensor | None = None, kind: str = "wrong"
) -> Verdict:
    """A verdict for an all-or-nothing condition: ratio inf at the first bad element."""
    if not bool(bad.any()):
        return Verdict(check, 0.0, 0.0, 0.0, (), 0.0, 0.0, kind)
    flat = int(torch.nonzero(bad.flatten())[0])
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), bad.shape))
    value = float(got.flatten()[flat]) if got is not None else math.nan
    return Verdict(check, math.inf, math.inf, 0.0, index, value, math.nan, kind)


def same_bits(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Element-wise 'identical', NaN equal to NaN."""
    return (a == b) | (torch.isnan(a) & torch.isnan(b))


def bitwise(check: str, got: torch.Tensor, want: torch.Tensor) -> Verdict:
    return flag(check, ~same_bits(got.cpu(), want.cpu()), got.cpu())


# How far (in multiples of the output's size) a stray store may land and still
# be caught on the interpreter.  A store through a tile padded past a dim of n
# elements misses the output by fewer than ``tile`` strides of that dim, and
# that stride is at most size / n: with tiles of up to 64 along a dim of one
# element (a 64-row tile over Sq = 1), the miss stays within 64 sizes.
STORE_REACH = 64
# The widest margin, in elements (1 MB of fp32 a side; about a millisecond of
# filling and checking per run).  Outputs of up to 4096 elements get the full
# reach, and the outputs that tiles overshoot the furthest (a dim of one
# element) are small ones.
MAX_MARGIN = 1 << 18


def store_margin(count: int) -> int:
    """NaN elements on each side of an output of ``count`` elements, beyond its layout's own.

    On the interpreter an out-of-bounds store writes process memory: past the
    layout's small guard it corrupts the heap and kills the worker instead of
    failing the check.  There the output gets ``STORE_REACH`` times its size
    on each side (at most ``MAX_MARGIN``), in whole 64-element steps so that
    the base keeps its alignment.  Compiled kernels get none: a wild store
    there faults or is found by compute-sanitizer.
    """
    if not backend.interpreting():
        return 0
    return -(-min(STORE_REACH * count, MAX_MARGIN) // 64) * 64


def execute(impl: Implementation, case: Case, built: Built | None = None) -> Run:
    """Run ``impl`` on ``case`` with a poisoned, guarded output; check memory safety."""
    built = built or build(case, backend.device())
    device = next(iter(built.inputs.values())).device
    shape = case.out_shape()
    drawn = case.out_layout
    margin = store_margin(math.prod(shape))
    layout = replace(drawn, front=drawn.front + margin, guard=drawn.guard + margin)
    poisoned = torch.full(shape, math.nan, dtype=case.torch_dtype, device=device)
    placed = materialize(poisoned, layout)
    covered = materialize(torch.ones(shape), drawn, fill=0.0).buffer.to(device) != 0
    before = {r: b.clone() for r, b in built.buffers.items()}

    out = placed.tensor if impl.writes_out else None
    inputs = [built.inputs[role] for role in case.shapes()]
    with watching() if backend.interpreting() else contextlib.nullcontext([]) as accesses:
        results = impl.run(*inputs, out, **case.kwargs())

    _check_returned(impl, results, shape, case.torch_dtype, device)
    safety = [Verdict(a.describe(), math.inf, math.inf, 0.0, (), math.nan, math.nan, "memory")
              for a in accesses[:1]]
    if impl.writes_out:
        if results["out"].data_ptr() != placed.tensor.data_ptr():
            raise AssertionError(f"{impl.name} did not return the out tensor it was given")
        buf = placed.buffer
        inner = buf[margin : buf.numel() - margin]  # the buffer of the drawn layout
        guard = torch.cat([buf[:margin], inner[~covered], buf[buf.numel() - margin :]])
        safety.append(flag("guard region written (out-of-bounds store)", ~torch.isnan(guard),
                           kind="memory"))
    for role, buf in built.buffers.items():
        changed = ~same_bits(before[role], buf)
        safety.append(flag(f"input {role} modified", changed, buf, kind="memory"))
    return Run(results, safety)


def _check_returned(
    impl: Implementation, results: dict, shape: tuple[int, ...], dtype: torch.dtype, device
) -> None:
    """The output an implementation returns must be a tensor of the case's shape,
    dtype and device: a result in another dtype or on another device would
    otherwise be converted silently by the comparison."""
    out = results.get("out")
    if not isinstance(out, torch.Tensor):
        raise AssertionError(f"{impl.name} returned {type(out).__name__} as out, not a tensor")
    for what, got, want in (("shape", tuple(out.shape), shape), ("dtype", out.dtype, dtype),
                            ("device", out.device, device)):
        if got != want:
            raise AssertionError(f"{impl.name} returned {what} {got}, expected {want}")


def run_clean(impl: Implementation, case: Case, inputs: dict[str, torch.Tensor]) -> dict:
    """Results of a run on given tensors, which must pass every memory-safety check."""
    run = execute(impl, case, Built(inputs, {}, dict(inputs)))
    bad = [vd for vd in run.safety if not vd.ok]
    if bad:
        raise AssertionError("; ".join(vd.describe() for vd in bad))
    return run.results


def failures(verdicts: list[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if not v.ok]


def worst(verdicts: list[Verdict]) -> Verdict | None:
    return max(verdicts, key=lambda v: v.ratio, default=None)
