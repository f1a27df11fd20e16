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
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import torch

from ...reference import Verdict
from .. import backend
from ..implementations import Implementation, conventions, short_name
from ..implementations.implementation import (
    ContractViolation,
    ImplementationCrash,
)
from ..model.cases import Built, Case, build
from ..model.layouts import materialize
from .accesses import watching

# Errors after which a process's CUDA context is lost: no later kernel can run.
CONTEXT_KILLERS = ("illegal memory access", "misaligned address")


def context_killer(exc: BaseException) -> str | None:
    """Which of ``CONTEXT_KILLERS`` an error says, if any (that of the
    implementation where ``exc`` is the harness's ``ImplementationCrash``)."""
    error = exc.error if isinstance(exc, ImplementationCrash) else exc
    return next((k for k in CONTEXT_KILLERS if k in str(error)), None)


def classify(exc: BaseException, impl_name: str) -> tuple[str, str]:
    """(kind of finding, one line saying it) for what a call raised: ``contract``
    for a malformed result, ``memory`` for a fault that killed the CUDA context
    (which may surface in the harness's next CUDA call), ``crash`` for any
    other exception, whoever raised it (the traceback in a dump says whose)."""
    if isinstance(exc, ContractViolation):
        lines = str(exc).strip().splitlines()
        return "contract", lines[0][:300] if lines else exc.check
    error = exc.error if isinstance(exc, ImplementationCrash) else exc
    fault = context_killer(exc)
    if fault is not None:
        return "memory", f"{impl_name} faulted on the GPU ({fault})"
    lines = str(error).strip().splitlines()
    first = f"{type(error).__name__}: {lines[0][:300]}" if lines else type(error).__name__
    return "crash", f"{impl_name} crashed: {first}"


@dataclass
class Run:
    results: dict[str, torch.Tensor]
    safety: list[Verdict]


def flag(
    check: str, bad: torch.Tensor, got: torch.Tensor | None = None, kind: str = "wrong",
    want: torch.Tensor | None = None,
) -> Verdict:
    """A verdict for an all-or-nothing condition: ratio inf at the first bad element."""
    if not bool(bad.any()):
        return Verdict(check, 0.0, 0.0, 0.0, (), 0.0, 0.0, kind)
    flat = int(torch.nonzero(bad.flatten())[0])
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), bad.shape))
    value = lambda t: float(t.flatten()[flat]) if t is not None else math.nan  # noqa: E731
    return Verdict(check, math.inf, math.inf, 0.0, index, value(got), value(want), kind)


def memory(check: str) -> Verdict:
    """A failing memory-safety verdict that names what happened and no element."""
    return Verdict(check, math.inf, math.inf, 0.0, (), math.nan, math.nan, "memory")


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The strides torch gives a new tensor of ``shape``."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return tuple(strides)


def same_bits(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Element-wise 'identical', NaN equal to NaN."""
    return (a == b) | (torch.isnan(a) & torch.isnan(b))


def bitwise(check: str, got: torch.Tensor, want: torch.Tensor) -> Verdict:
    return flag(check, ~same_bits(got.cpu(), want.cpu()), got.cpu(), want=want.cpu())


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
    """Run ``impl`` on ``case`` with a poisoned, guarded output (when the case
    passes one); check memory safety and the tensors it returns."""
    built = built or build(case, backend.device())
    device = next(iter(built.inputs.values())).device
    shape = case.out_shape()
    # The options this implementation declares: a relation or a peer may run
    # another implementation's case.
    declared = dict(impl.options)
    options = {n: v for n, v in case.options if n in declared and v in declared[n]}
    choice = options.pop("out", True)
    shared = SHARED_OUTS[choice](case, built) if choice in SHARED_OUTS else None
    if shared is not None and impl.writes_out:
        return _execute_shared(impl, case, built, shared, options)
    given = bool(choice) and impl.writes_out
    drawn = case.out_layout
    margin = store_margin(math.prod(shape))
    layout = replace(drawn, front=drawn.front + margin, guard=drawn.guard + margin)
    placed = None
    if given:
        poisoned = torch.full(shape, math.nan, dtype=case.torch_dtype, device=device)
        placed = materialize(poisoned, layout)
    before = {r: b.clone() for r, b in built.buffers.items()}

    inputs = [built.inputs[role] for role in case.shapes()]
    with watched() as accesses, _poisoned_allocations(case, device):
        results = impl.run(*inputs, placed.tensor if given else None, **case.kwargs(), **options)

    _check_returned(impl, results, case, device)
    safety = [memory(a.describe()) for a in accesses[:1]]
    if given:
        _same_out(impl, results["out"], placed.tensor)
        covered = materialize(torch.ones(shape), drawn, fill=0.0).buffer.to(device) != 0
        buf = placed.buffer
        inner = buf[margin : buf.numel() - margin]  # the buffer of the drawn layout
        guard = torch.cat([buf[:margin], inner[~covered], buf[buf.numel() - margin :]])
        safety.append(flag("guard region written (out-of-bounds store)", ~torch.isnan(guard),
                           kind="memory"))
    safety += _returned_memory(impl, results, built, given)
    for role, buf in built.buffers.items():
        changed = ~same_bits(before[role], buf)
        safety.append(flag(f"input {role} modified", changed, buf, kind="memory",
                           want=before[role]))
    return Run(results, safety)


@dataclass
class BackwardRun:
    results: dict[str, torch.Tensor]  # the forward's outputs
    grads: dict[str, torch.Tensor]  # those of dq, dk, dv asked for (zeros where none came)
    safety: list[Verdict]


GRADS = {"dq": "q", "dk": "k", "dv": "v"}
# A backward case's ``grad_of`` option: the inputs that require grad, the
# others passed as plain tensors (a call where only v requires grad still owes
# dV, and must not take a path without a backward).
ALL_GRADS = "q,k,v"


def grads_of(case: Case) -> tuple[str, ...]:
    """The gradient names (dq, dk, dv) the case asks for."""
    roles = str(dict(case.options).get("grad_of", ALL_GRADS)).split(",")
    return tuple(name for name, role in GRADS.items() if role in roles)


def execute_backward(impl: Implementation, case: Case, built: Built | None = None, *,
                     change_out: Callable[[torch.Tensor], object] | None = None) -> BackwardRun:
    """Differentiate ``impl`` on a backward case: q, k, v as leaves in their
    drawn layouts (``detach`` keeps a view's strides), the output's gradient
    the case's dO; memory checked as for ``execute``, the gradients too.
    ``change_out``: done to the output in place, outside autograd, between
    the forward and the backward (as a caller may)."""
    built = built or build(case, backend.device())
    declared = dict(impl.options)
    options = {n: v for n, v in case.options
               if n in declared and v in declared[n] and n != "out"}
    wanted = grads_of(case)
    leaves = [built.inputs[r].detach().requires_grad_(name in wanted)
              for name, r in GRADS.items()]
    asked = [leaf for name, leaf in zip(GRADS, leaves, strict=True) if name in wanted]
    do = built.inputs["do"]
    before = {r: b.clone() for r, b in built.buffers.items()}
    with watched() as accesses, _poisoned_allocations(case, do.device):
        results = impl.run(*leaves, None, **case.kwargs(), **options)
        out = results.get("out")
        if not isinstance(out, torch.Tensor) or not out.requires_grad:
            _check_returned(impl, results, case, do.device)  # a wrong result says so first
            raise ContractViolation(f"{short_name(impl.name)} declares a backward, but its out "
                                    "does not require grad: autograd cannot differentiate it",
                                    impl.name, "out", "grad")
        if change_out is not None:
            with torch.no_grad():
                change_out(out)
        got = torch.autograd.grad(out, asked, do, allow_unused=True)
    results = {name: t.detach() for name, t in results.items()}
    _check_returned(impl, results, case, do.device)
    grads = {}
    for name, leaf, g in zip(wanted, asked, got, strict=True):
        # No gradient is a zero gradient (an output that does not depend on the input).
        g = torch.zeros(leaf.shape, dtype=leaf.dtype, device=leaf.device) if g is None else g
        for what, value, want in (("shape", tuple(g.shape), tuple(leaf.shape)),
                                  ("dtype", g.dtype, leaf.dtype), ("device", g.device, do.device)):
            if value != want:
                raise conventions.contract(impl, case, name, what, value, want)
        grads[name] = g
    safety = [memory(a.describe()) for a in accesses[:1]]
    safety += _returned_memory(impl, results, built, False)
    # Autograd may hand back a broadcast gradient (a view that overlaps
    # itself), but none may share memory with an input or dO.
    for name, g in grads.items():
        lo, hi = extent(g)
        for role, buf in built.buffers.items():
            a, b = extent(buf)
            if lo < b and a < hi:
                safety.append(memory(f"returned {name}: its memory overlaps input {role}"))
    for role, buf in built.buffers.items():
        changed = ~same_bits(before[role], buf)
        safety.append(flag(f"input {role} modified", changed, buf, kind="memory",
                           want=before[role]))
    return BackwardRun(results, grads, safety)


# Outputs a caller may pass that share memory with an input legitimately, which
# a kernel's overlap check must accept: (case, built) -> (inputs, out, roles of
# the inputs it may write), or None where the case allows none (then the
# harness passes its own out).
def _in_place(case: Case, built: Built) -> tuple[list, torch.Tensor, set[str]] | None:
    (role,) = case.shapes()  # softmax(x, out=x)
    x = built.inputs[role]
    if overlaps_itself(x):
        return None  # a broadcast x is no out: the harness's own out instead
    return [x], x, {role}


def _beside(case: Case, built: Built, at: int, before: bool,
            ) -> tuple[list, torch.Tensor, set[str]]:
    """Input ``at`` (an index into the case's inputs) copied to a new allocation
    (same strides), and the out right after its last element, or right before
    its first, in the same allocation: disjoint, so a refusal is a finding."""
    roles = list(case.shapes())
    t = built.inputs[roles[at]]
    lo, hi = extent(t)
    span = (hi - lo) // t.element_size()
    shape = case.out_shape()
    count = math.prod(shape)
    buf = torch.full((span + count,), math.nan, dtype=t.dtype, device=t.device)
    start = count if before else 0
    if span:
        buf[start:start + span].copy_(t.as_strided((span,), (1,), t.storage_offset()))
    copy = buf.as_strided(t.shape, t.stride(), start)
    out = buf.as_strided(shape, contiguous_strides(shape), 0 if before else span)
    return [copy if r == roles[at] else built.inputs[r] for r in roles], out, set()


SHARED_OUTS = {"in place": _in_place,
               "after an input": lambda case, built: _beside(case, built, 0, before=False),
               "before an input": lambda case, built: _beside(case, built, -1, before=True)}


def _execute_shared(impl: Implementation, case: Case, built: Built, shared, options) -> Run:
    inputs, out, written = shared
    before = [t.clone() for t in inputs]
    with watched() as accesses, _poisoned_allocations(case, out.device):
        results = impl.run(*inputs, out, **case.kwargs(), **options)
    _check_returned(impl, results, case, out.device)
    _same_out(impl, results["out"], out)
    safety = [memory(a.describe()) for a in accesses[:1]]
    for role, t, was in zip(case.shapes(), inputs, before, strict=True):
        if role not in written:
            safety.append(flag(f"input {role} modified", ~same_bits(was, t), t,
                               kind="memory", want=was))
    return Run(results, safety)


def watched() -> contextlib.AbstractContextManager:
    """The interpreter's access check (a GPU has compute-sanitizer instead)."""
    return watching() if backend.interpreting() else contextlib.nullcontext([])


@contextlib.contextmanager
def _poisoned_allocations(case: Case, device: torch.device) -> Iterator[None]:
    """Memory an implementation allocates for its own outputs starts as NaN, so an
    element it never writes shows up as it does in the harness's poisoned out.

    On the CPU, torch fills uninitialized memory with NaN in deterministic
    mode (warn-only, so no operation is refused).  On a GPU that mode would
    change the implementation under test (cuBLAS and SDPA choose other
    algorithms), so the caching allocator is handed back NaN blocks of the
    outputs' sizes instead, which the implementation's allocations most
    likely reuse.
    """
    if device.type != "cpu":
        for shape in case.returns().values():
            torch.full(shape, math.nan, dtype=torch.float32, device=device)
            torch.full(shape, math.nan, dtype=case.torch_dtype, device=device)
        yield
        return
    state = (torch.are_deterministic_algorithms_enabled(),
             torch.is_deterministic_algorithms_warn_only_enabled(),
             torch.utils.deterministic.fill_uninitialized_memory)
    _deterministic(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        yield
    finally:
        _deterministic(state[0], warn_only=state[1])
        torch.utils.deterministic.fill_uninitialized_memory = state[2]


def _deterministic(mode: bool, *, warn_only: bool) -> None:
    """ATen's deterministic mode, which is what fills uninitialized memory.

    ``torch.use_deterministic_algorithms`` also sets the compiler's
    ``deterministic`` option, which would change a compiled implementation
    under test, and imports the compiler's configuration to do it: two
    seconds in every process's first case.  Where torch has no ATen switch of
    its own under this name, the public one.
    """
    aten = getattr(torch._C, "_set_deterministic_algorithms", None)
    if aten is None:
        torch.use_deterministic_algorithms(mode, warn_only=warn_only)
    else:
        aten(mode, warn_only=warn_only)


def _check_returned(
    impl: Implementation, results: dict, case: Case, device: torch.device
) -> None:
    """Every output an implementation returns must be a tensor of the case's
    shape (and the output of its dtype) on its device: a result in another
    dtype or on another device would otherwise be converted silently by the
    comparison."""
    shapes = case.returns()
    for name, got in {"out": results.get("out"), **results}.items():
        if not isinstance(got, torch.Tensor):
            raise ContractViolation(f"{short_name(impl.name)} returned {type(got).__name__} as "
                                    f"{name}, not a tensor", impl.name, name, "type")
        want = [("shape", tuple(got.shape), shapes.get(name)), ("device", got.device, device)]
        if name == "out":
            want.append(("dtype", got.dtype, case.torch_dtype))
        for what, value, expected in want:
            if expected is not None and value != expected:
                raise conventions.contract(impl, case, name, what, value, expected)


def _same_out(impl: Implementation, got: torch.Tensor, given: torch.Tensor) -> None:
    if got.data_ptr() != given.data_ptr():
        raise ContractViolation(f"{short_name(impl.name)} did not return the out tensor it was "
                                "given", impl.name, "out", "identity")


def extent(t: torch.Tensor) -> tuple[int, int]:
    """The bytes a tensor's elements span: [first, past the last)."""
    if t.numel() == 0:
        return t.data_ptr(), t.data_ptr()
    span = sum((n - 1) * s for n, s in zip(t.shape, t.stride(), strict=True))
    return t.data_ptr(), t.data_ptr() + (span + 1) * t.element_size()


def overlaps_itself(t: torch.Tensor) -> bool:
    """Whether two elements of ``t`` share an address (a stride 0, or strides too
    small for the dims inside them), as ``empty_strided`` with an expanded
    input's strides gives: every write to one is a write to the other."""
    inner = 0
    for stride, size in sorted((s, n) for s, n in zip(t.stride(), t.shape, strict=True)
                               if n > 1):
        if stride <= inner:
            return True
        inner += (size - 1) * stride
    return False


def _returned_memory(impl: Implementation, results: dict, built: Built,
                     given: bool) -> list[Verdict]:
    """Returned outputs own their memory: none overlaps itself, another output or
    an input (an output laid out like an input, or a view of one)."""
    verdicts = []
    seen = [(f"input {role}", extent(buf)) for role, buf in built.buffers.items()]
    for name, t in results.items():
        if name == "out" and given:
            seen.append(("out", extent(t)))  # the harness's own tensor
            continue
        lo, hi = extent(t)
        shared = [what for what, (a, b) in seen if lo < b and a < hi]
        problems = (["its elements overlap each other"] if overlaps_itself(t) else []) + [
            f"its memory overlaps {what}" for what in shared]
        for problem in problems:
            verdicts.append(memory(f"returned {name}: {problem} "
                                   f"({conventions.user_strides(impl, name, t.stride())})"))
        seen.append((name, (lo, hi)))
    return verdicts


class UnsafeRun(AssertionError):
    """A run inside a check (a relation's second run, say) that failed its
    memory-safety checks: its ``verdicts`` are the check's finding."""

    def __init__(self, message: str, verdicts: list[Verdict]) -> None:
        super().__init__(message)
        self.verdicts = verdicts


def run_clean(impl: Implementation, case: Case, inputs: dict[str, torch.Tensor]) -> dict:
    """Results of a run on given tensors, which must pass every memory-safety check
    (``UnsafeRun`` if not)."""
    run = execute(impl, case, Built(inputs, {}, dict(inputs)))
    bad = [vd for vd in run.safety if not vd.ok]
    if bad:
        raise UnsafeRun("; ".join(conventions.describe(vd, impl, case) for vd in bad), bad)
    return run.results


def failures(verdicts: list[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if not v.ok]


def worst(verdicts: list[Verdict]) -> Verdict | None:
    return max(verdicts, key=lambda v: v.ratio, default=None)


# Past this a ratio is a failure anyway; ``target`` refuses infinities.
TARGET_CAP = 1e9


def steering(verdicts: list[Verdict]) -> dict[str, float]:
    """What ``check`` hands ``target``: the worst error/bound ratio of the case
    (label ``error/bound``) and the worst of each check (``error/bound: dq``).

    One label per check, because Hypothesis keeps the best example of each
    label and mutates it: under one label a case near the bound of ``out``
    hides a case drifting towards the bound of ``dk``, whose ratio is lower.
    Bitwise and memory checks (ratio 0 or infinite) have nothing to climb."""
    most = worst(verdicts)
    if most is None:
        return {}
    labels = {"error/bound": min(most.ratio, TARGET_CAP)}
    for v in verdicts:
        if 0 < v.ratio < math.inf:
            label = f"error/bound: {v.check}"
            labels[label] = max(labels.get(label, 0.0), min(v.ratio, TARGET_CAP))
    return labels


def out_of_memory(error: BaseException) -> bool:
    """Whether a call failed for want of device memory: PyTorch's
    ``OutOfMemoryError``, a CUDA "out of memory" another library (Triton's
    launcher) raises, or cuBLAS failing to allocate its workspace.  On a GPU
    that several workers share, that is the case's size against what the
    others hold at that moment, not an answer of the implementation's."""
    if isinstance(error, ImplementationCrash):
        error = error.error
    if isinstance(error, torch.OutOfMemoryError):
        return True
    text = str(error).lower()
    # cuBLAS reports a failed allocation of its workspace under its own name.
    return isinstance(error, RuntimeError) and (
        ("out of memory" in text and "cuda" in text) or "cublas_status_alloc_failed" in text)


def refusal_key(error: BaseException) -> str:
    """An exception by its type and first line, numbers aside: the same refusal
    of other shapes ("head dim 24 unsupported", "... 40 ...") has one key."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: " + re.sub(r"\d+", "#", lines[0][:300] if lines else "")
