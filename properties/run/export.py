"""``attnfuzz replay DUMP --export FILE``: a dump as one self-contained Python script.

The script is meant to be attached to an upstream bug report, so it imports
torch and the standard library only, never attnfuzz (an imported
``MODULE:FUNCTION`` dump also imports that user's module, the code under
test).  It reads top to bottom:

1. a header comment saying in plain words what the script shows: the case
   (``case.describe()``), its mask, the property, the implementation, the
   versions the finding was made with and what attnfuzz recorded;
2. the case's settings (``CAUSAL``, ``SCALE``, ``DEVICE``...), and for an
   imported function ``MODULE`` and ``FUNCTION``, which a reader may edit to
   try a fixed version;
3. the data: each input's whole NaN-filled buffer with its dtype, shape,
   strides and storage offset (``INPUTS``; a gradients dump's dO too), then
   attnfuzz's float64 expected output and LSE (``WANT``; and dq, dk, dv for
   a gradients dump) and their per-element bounds (``BOUND``), all computed
   by attnfuzz's own oracles at export time.  A buffer is its raw
   little-endian bytes, zlib-compressed and base64-encoded: every value,
   NaN, inf, fp16 and bf16 included, comes back bit for bit;
4. ``inputs(device)``: the exact views again, by ``torch.as_strided`` on
   the buffer rebuilt on that device (a copy to the GPU would not keep a
   layout); importing the script runs nothing else, so it is testable alone;
5. ``call(q, k, v)``: the implementation called as the harness calls it,
   written out in plain torch; for a gradients dump also ``backward(q, k,
   v, do)``: the call on leaves made from the exact views, differentiated
   by ``torch.autograd.grad`` with dO, as the harness differentiates it;
6. ``reference(q, k, v)``: attention from its definition in float64 (and
   ``reference_grads``: float64 autograd through it), which the script
   checks against the embedded expected values to 1e-9, so that a reader
   need not trust attnfuzz's oracles unseen;
7. ``main()``: runs the call (or the backward), prints for the output (and
   each gradient) got / want / bound / error at the worst element, how many
   elements are outside the bound and how many are not finite, checks that
   the inputs are unchanged, and ends with an assert: exit status 1 while
   the bug is present, 0 ("OK: within bound") once it is fixed, 2 where it
   cannot run (no CUDA GPU for a GPU dump).

Exported are oracle and gradients dumps (other properties compare runs with
each other, which only attnfuzz can redo) of PyTorch's SDPA backends
(``sdpa_*``), of FlexAttention (``flex``) and of imported
``MODULE:FUNCTION@CONVENTION`` functions.
attnfuzz's own kernels are refused: their upstream is this project, and
``attnfuzz replay`` is their reproducer.  A crash dump's script makes the
call and lets the exception show; a dump written when the GPU faulted (no
result was recorded) does the same, with a note on how to pin the fault
down.
"""

from __future__ import annotations

import base64
import json
import textwrap
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import torch

from ...reference import oracle
from ..checks.execution import GRADS
from ..checks.gradients import arithmetic, gradient_oracle
from ..checks.oracle import expected
from ..implementations import conventions, sdpa
from ..model.cases import AttentionCase, with_inputs
from . import export_code as script_code
from .harness import DumpError, load_dump

if TYPE_CHECKING:
    from ..implementations.support import Support

WIDTH = 96  # of the script's lines (the project's limit is 100)
CHUNK = 76  # base64 characters a line
# A script of a few MB is still something to attach; a larger dump (the
# tests of > 2**31-element tensors) is not, and would take minutes to write.
MAX_BYTES = 16 << 20
# The properties a script can redo alone, each judging one run against an oracle.
EXPORTED = {
    "oracle": "every output within its derived error bound of the float64 reference",
    "gradients": "after a backward with the dO below, the output and dq, dk, dv each within "
                 "its derived error bound of the float64 reference",
}


class ExportError(DumpError):
    """A dump that has no script (or a script that cannot be written); one line."""


class FileExistsExportError(ExportError):
    """``out_file`` exists and ``force`` was not given; ``path`` is that file."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path}: the file exists (force=True overwrites it)")
        self.path = path


def export(path: str | Path, out_file: str | Path, *, force: bool = False) -> Path:
    """Write the dump at ``path`` as a self-contained reproducer script ``out_file``.

    Nothing is run: a GPU dump exports on a CPU machine.  An existing
    ``out_file`` is left as it is (``FileExistsExportError``) unless ``force``.
    Raises ``DumpError`` for what is not a dump and ``ExportError`` (a
    ``DumpError``) for a dump that cannot be exported or a file that cannot be
    written; the message says why in one line.  Returns ``out_file`` as a ``Path``.
    """
    out = Path(out_file)
    text = script(path, name=out.name)
    # "x" creates the file or fails, in one system call: a file that appears
    # between a check and the write (the user's, or another export's) is never
    # truncated.  The name is a user's choice, often that of the kernel under test.
    try:
        f = out.open("w" if force else "x", encoding="utf-8")
    except FileExistsError:
        if out.is_dir():
            raise ExportError(f"{out}: cannot write the script (a directory)") from None
        raise FileExistsExportError(out) from None
    except IsADirectoryError:
        raise ExportError(f"{out}: cannot write the script (a directory)") from None
    except OSError as exc:
        raise ExportError(f"{out}: cannot write the script ({exc.strerror or exc})") from None
    try:
        with f:
            f.write(text)
    except OSError as exc:
        if not force:  # the file is this call's: a half script would block the retry
            out.unlink(missing_ok=True)
        raise ExportError(f"{out}: cannot write the script ({exc.strerror or exc})") from None
    return out


def script(path: str | Path, *, name: str = "repro.py") -> str:
    """The reproducer's text for the dump at ``path`` (``export`` without the file)."""
    folder = Path(path) if Path(path).is_dir() else Path(path).parent
    if (folder / "sequence.json").is_file() and not (folder / "case.json").is_file():
        raise ExportError(
            f"{path}: a call sequence's dump: --export writes scripts for oracle and gradients "
            "dumps only (a sequence's calls share state that only attnfuzz redoes; use "
            "attnfuzz replay)")
    where, record, case, saved = load_dump(path)
    prop, impl = record["property"], record["implementation"]
    if prop not in EXPORTED:
        raise ExportError(
            f"{where}: a {prop} dump: --export writes scripts for oracle and gradients dumps "
            "only (this property compares runs that only attnfuzz can redo; use attnfuzz replay)"
        )
    target = _target(impl)
    if target is None or not isinstance(case, AttentionCase):
        raise ExportError(
            f"{where}: {impl} is not exported (use attnfuzz replay); --export writes scripts "
            "for sdpa_* backends, flex and MODULE:FUNCTION functions"
        )
    if case.window is not None and target[0] == "imported" and target[3] == "sdpa":
        raise ExportError(f"{where}: a sliding-window case of the sdpa convention, which has "
                          "no window (use attnfuzz replay)")
    size = sum(t.untyped_storage().nbytes() for t in saved.values())
    if size > MAX_BYTES:
        raise ExportError(f"{where}: its inputs are {size >> 20} MiB, too large to embed in a "
                          f"script (at most {MAX_BYTES >> 20} MiB)")
    backward = prop == "gradients"
    if backward and "do" not in saved:
        raise ExportError(f"{where}: a gradients dump without a dO (not a backward case)")
    if backward and "grad_of" in dict(case.options):
        raise ExportError(f"{where}: a gradients dump where only {dict(case.options)['grad_of']} "
                          "required grad; the script differentiates q, k and v alike "
                          "(use attnfuzz replay)")
    built = with_inputs(case, saved)
    declared = _declared(impl)
    oracle = expected(case, built, declared)
    if backward:  # rounded to the inputs' dtype, as attnfuzz judges them
        if declared.backward_delta == "output":
            raise ExportError(
                f"{where}: {impl} forms its backward's delta from its output "
                "(backward_delta=output), and its gradients' bounds need that output, which "
                "only a run gives: use attnfuzz replay")
        grads = gradient_oracle(case, built, **arithmetic(declared))
        oracle.update({n: (*grads[n], case.torch_dtype) for n in GRADS})
    found_on_gpu = (record.get("versions") or {}).get("backend") == "gpu"
    gpu_only = target[0] == "sdpa" and target[1] != "sdpa_math"
    device = "cuda" if found_on_gpu or gpu_only else "cpu"
    parts = [
        _header(where, record, case, target, name, saved, declared.page_sizes),
        _imports(case, target),
        _settings(case, target, device, declared.page_sizes),
        _data(saved, oracle),
        script_code.INPUTS,
        script_code.VISIBILITY,
        _call(case, target),
        _layout(target),
        *([script_code.BACKWARD] if backward else []),
        script_code.CHECK,
        *([script_code.GRADIENT_CHECK] if backward else []),
        _main(record, name, backward),
    ]
    # One blank line after the header and between the settings; two between the rest (PEP 8).
    head, code = parts[:3], parts[3:]
    text = "\n\n".join(p.strip("\n") for p in head)
    return text + "\n\n\n" + "\n\n\n".join(p.strip("\n") for p in code) + "\n"


# --- what is called ----------------------------------------------------------------------


def _target(impl: str) -> tuple[str, ...] | None:
    """("sdpa", name, backend), ("flex", "flex"), ("imported", module, function,
    convention) or None."""
    if impl in sdpa.BACKENDS:
        return ("sdpa", impl, sdpa.BACKENDS[impl])
    if impl == "flex":
        return ("flex", impl)
    if ":" not in impl:
        return None
    target = impl.partition("#")[0]  # a declared support spec does not change the call
    target, _, convention = target.partition("@")
    module, _, function = target.partition(":")
    if module.endswith(".py"):
        # load_dump imported it relative to the current directory: so does nobody later.
        module = str(Path(module).resolve())
    return ("imported", module, function, convention or "attnfuzz")


def _describe_target(target: tuple[str, ...]) -> str:
    if target[0] == "sdpa":
        return (f"{target[1]}: torch.nn.functional.scaled_dot_product_attention, pinned to "
                f"SDPBackend.{target[2]} with torch.nn.attention.sdpa_kernel")
    if target[0] == "flex":
        return ("flex: torch.nn.attention.flex_attention.flex_attention, compiled with "
                "torch.compile (dynamic=False, fullgraph=True) on CUDA and uncompiled (its "
                "reference path) on the CPU; the mask a BlockMask from create_block_mask, GQA "
                "by enable_gqa=True, the LSE requested with the output")
    _, module, function, convention = target
    how = conventions.CONVENTIONS[convention].description
    return f"{function} from {module}, called by the {convention} convention ({how})"


NBSP = "\u00a0"  # a space that wrapping keeps: formulas and commands stay on one line


def _keep(text: str) -> str:
    """``text`` unbroken by wrapping, unless it could not fit on one line anyway."""
    return text.replace(" ", NBSP) if len(text) < WIDTH // 2 else text


def _blind_rows(case: AttentionCase) -> int:
    """How many query rows see no key under the case's mask."""
    if case.sk == 0:
        return case.sq
    seen = oracle.visible(case.sq, case.sk, case.alignment, causal=case.causal,
                          window=case.window)
    return int((~seen.any(dim=1)).sum())


class _Length(str):
    """A length by name: given two, the oracle's ``offset`` writes its formula."""

    def __sub__(self, other: str) -> _Length:
        return _Length(f"({self} - {other})")


def _diagonal(alignment: str) -> str:
    """Query i's causal diagonal, the key ``i + o`` with o the oracle's own offset
    written out (``i + (Sk - Sq)``, or ``i`` where it is 0), so that what a script
    says of its mask is what its embedded rule does."""
    o = oracle.offset(_Length("Sq"), _Length("Sk"), alignment)
    return f"i + {o}" if o != 0 else "i"


def _mask_words(case: AttentionCase) -> str:
    if not case.causal:
        words = "no mask: every query sees every key"
    else:
        how = ("bottom-right aligned (the KV-cache convention)"
               if case.alignment == "bottom_right" else "top-left aligned (is_causal=True)")
        words = (f"causal, {how}: query i sees key j "
                 + _keep(f"iff j <= {_diagonal(case.alignment)}"))
    if case.window is not None:
        left, right = case.window
        diagonal = _diagonal(case.alignment)
        edges = [f"j >= {diagonal} - {left}" if left is not None else "",
                 f"j <= {diagonal} + {right}" if right is not None else ""]
        words += ("; and a sliding window " + _keep(f"(left={left}, right={right})")
                  + ": only keys with " + " and ".join(_keep(e) for e in edges if e))
    blind = _blind_rows(case)
    if blind:
        words += f"; so the first {blind} of the {case.sq} query rows see no key"
    return words


# --- the script's parts ------------------------------------------------------------------


def _comment(text: str, indent: str = "", hang: str = "") -> list[str]:
    """``text`` as wrapped comment lines; a non-printable character would end the comment."""
    text = "".join(c if c.isprintable() or c == NBSP else " " for c in text)
    prefix = f"{indent}# "
    lines = textwrap.wrap(text, WIDTH - len(prefix), break_long_words=False,
                          break_on_hyphens=False, subsequent_indent=hang)
    lines = [f"{prefix}{line}".replace(NBSP, " ").rstrip() for line in lines] or [prefix.rstrip()]
    # A word longer than a line (a path, an implementation spec) stays whole: a
    # linter run over a repository that keeps the script is told so.
    return [line + "  # noqa: E501" if len(line) > WIDTH else line for line in lines]


def _first_line(text: object) -> str:
    lines = str(text).strip().splitlines()
    return lines[0][:300] if lines else ""


def _faulted(record: dict) -> bool:
    """A dump written when the GPU faulted: it records neither a diagnosis nor a crash."""
    gpu = (record.get("versions") or {}).get("backend") == "gpu"
    return gpu and not record.get("diagnosis") and not record.get("crash")


def _finding(record: dict) -> tuple[str, str]:
    """(what attnfuzz recorded, what the script shows), in plain words."""
    if record.get("crash"):
        crash = _first_line(record["crash"])
        return (f"the call raised {crash}",
                "Passed the inputs below, the implementation raises instead of returning; "
                "the script makes the call and lets the exception show.")
    if record.get("contract"):
        return (f"the call broke its contract: {_first_line(record['contract'])}",
                "Passed the inputs below, the implementation returns a result of the wrong "
                "shape, dtype or device; the script checks what it returns as attnfuzz does.")
    diagnosis = [d for d in record.get("diagnosis") or [] if isinstance(d, dict)]
    if not diagnosis and not _faulted(record):
        return ("no failure (a dump written by hand, of a case that passed)",
                "Passed the inputs below, the implementation is checked as attnfuzz checks it.")
    if not diagnosis:
        return ("no result: the call faulted on the GPU (an illegal memory access or a "
                "misaligned address), which ends the process's CUDA context",
                "Passed the inputs below, the implementation faulted on the GPU when attnfuzz "
                "ran it; the script makes the call and lets the CUDA error show.")
    said = []
    for d in diagnosis:
        index = tuple(d.get("index") or ())
        theirs = f" ({d['user_layout']})" if d.get("user_layout") else ""
        said.append(f"{d.get('check')}: error/bound = {_num(d.get('ratio'))} at index {index}"
                    f"{theirs}: got {d.get('got')}, want {d.get('want')}, |error| "
                    f"{_num(d.get('error'))}, bound {_num(d.get('bound'))}")
    checks = ", ".join(dict.fromkeys(str(d.get("check")) for d in diagnosis))
    how = " and differentiated with the dO below" if record["property"] == "gradients" else ""
    return ("; ".join(said),
            f"Passed the inputs below{how}, the implementation returns a result ({checks}) "
            "with elements outside the error bound that attnfuzz derives for this dtype, these "
            "lengths and these values.")


def _num(x: object) -> str:
    return f"{x:.3g}" if isinstance(x, float) else str(x)


def _received(case: AttentionCase, saved: dict, target: tuple[str, ...],
              sizes: tuple[int, ...] | None) -> str | None:
    """How the function receives q, k, v (shapes and strides) where its layout is not
    attnfuzz's (B, H, S, D), in which INPUTS below holds them; ``sizes``: its
    declared page sizes."""
    said = (conventions.received(target[3], case, saved, sizes) if target[0] == "imported"
            else None)
    if said is None:
        return None
    return (f"The function receives {said} (INPUTS below holds attnfuzz's (B, H, S, D) "
            "views, which call() lays out so).")


def _header(where: Path, record: dict, case: AttentionCase, target: tuple[str, ...],
            name: str, saved: dict, sizes: tuple[int, ...] | None) -> str:
    recorded, shows = _finding(record)
    versions = record.get("versions") or {}
    found = ", ".join(f"{k} {v}" for k, v in versions.items()) or "not recorded"
    needs = " and the module under test" if target[0] == "imported" else ""
    prop = record["property"]
    said = [
        f"Case: {case.describe()}",
        f"Mask: {_mask_words(case)}",
        f"Property: {prop} ({EXPORTED[prop]})",
        f"Implementation: {_describe_target(target)}",
        *filter(None, [_received(case, saved, target, sizes)]),
        f"Found with: {found}",
        f"attnfuzz recorded: {recorded}",
    ]
    if record.get("reproduce"):
        said.append("Found by: " + _keep(str(record["reproduce"])))
    said.append(f"Exported from the dump {where.name} by: "
                + _keep(f"attnfuzz replay DUMP --export {name}"))
    run = (f"Run: {_keep(f'python3 {name}')}. Exit status 1 while the bug is present (FAIL "
           'lines, then an AssertionError), 0 once it is fixed ("OK: within bound"), 2 where '
           "it cannot run (no CUDA GPU for a GPU dump).")
    lines = [
        "# Reproducer of an attention finding of attnfuzz, a differential fuzzer that checks",
        "# attention implementations against a float64 reference within derived error bounds.",
        f"# It needs only PyTorch{needs}.",
        "#",
        *(line for text in said for line in _comment(text, hang="    ")),
        "#",
        *_comment(f"What it shows: {shows}", hang="    "),
        *_comment("Expected: output within the bound; rows that see no key are 0; the inputs "
                  "unchanged." if prop == "oracle" else "Expected: output, dq, dk, dv within "
                  "their bounds; rows that see no key are 0 in the output and dq and add "
                  "nothing to dk, dv; the inputs and dO unchanged.", hang="    "),
        "#",
        *_comment(run, hang="    "),
    ]
    return "\n".join(lines)


def _imports(case: AttentionCase, target: tuple[str, ...]) -> str:
    plain = ["base64", "math", "sys", "zlib"]
    if target[0] == "imported":
        plain += ["importlib.util", "inspect", "os", "pathlib"]
    lines = [f"import {m}" for m in sorted(plain)] + ["", "import torch"]
    if target[0] == "sdpa":
        lines.append("import torch.nn.functional as F")
        lines.append("from torch.nn.attention import SDPBackend, sdpa_kernel")
        if case.causal and case.window is None:
            variant = sdpa.CAUSAL_VARIANT[case.alignment]
            lines.append(f"from torch.nn.attention.bias import {variant}")
    if target[0] == "flex":
        lines.append("from torch.nn.attention import flex_attention as flex")
    return "\n".join(lines)


def _literal(name: str, value: str, indent: str = "") -> list[str]:
    """``name = "value"``, split over lines in parentheses where it is long."""
    one = f"{indent}{name} = {json.dumps(value)}"
    if len(one) <= WIDTH:
        return [one]
    step = WIDTH - len(indent) - 8
    pieces = [value[i : i + step] for i in range(0, len(value), step)]
    return [f"{indent}{name} = (", *(f"{indent}    {json.dumps(p)}" for p in pieces), f"{indent})"]


def _declared(impl: str) -> Support:
    """The support an implementation's name declares (its ``#SPEC``), read
    without importing it."""
    from ..implementations import support

    return support.parse(impl.partition("#")[2])


def _settings(case: AttentionCase, target: tuple[str, ...], device: str,
              sizes: tuple[int, ...] | None = None) -> str:
    # One line of code, not a wrapped comment: no characters that keep words together.
    alignment = f"query i sees key j iff j <= {_diagonal(case.alignment)}"
    lines = [
        "# The case, as attnfuzz drew it.",
        *_literal("CASE", case.describe()),
        *_literal("IMPLEMENTATION", target[1] if target[0] != "imported" else
                  f"{target[1]}:{target[2]}@{target[3]}"),
        f"CAUSAL = {case.causal}",
        f"ALIGNMENT = {json.dumps(case.alignment)}  # if CAUSAL or WINDOW: {alignment}",
        f"WINDOW = {tuple(case.window) if case.window is not None else None!r}"
        "  # (left, right): keys i + o - left .. i + o + right; None: unlimited",
        f"SCALE = {case.scale!r}  # None: the default, D ** -0.5",
        f"DTYPE = {case.torch_dtype}",
        f"INPUT_PRECISION = {json.dumps(case.input_precision)}  # \"tf32\": TF32 matmuls allowed",
        "# Where the call runs: where attnfuzz found the finding"
        + (" (this SDPA backend is GPU-only)." if target[0] == "sdpa" and device == "cuda"
           and target[1] != "sdpa_math" else "."),
        f"DEVICE = {json.dumps(device)}",
    ]
    if target[0] == "imported":
        lines += [
            "",
            "# The function under test.  MODULE is a module name (importable from PYTHONPATH or",
            "# the current directory) or the path of a .py file: edit these to try a fix.",
            *_literal("MODULE", target[1]),
            *_literal("FUNCTION", target[2]),
        ]
        if conventions.get(target[3]).pages:
            page, seed = conventions.paged_layout(case.sq, case.sk, case.d, sizes)
            page = page if case.page_size is None else case.page_size  # outside the declared
            lines += [f"PAGE = {page}  # slots per page of the cache, and the seed of their order",
                      f"PAGE_SEED = {seed}"]
    return "\n".join(lines)


def _raw(t: torch.Tensor) -> bytes:
    """The bytes of ``t``'s whole storage: every element of its buffer, view or not."""
    storage = t.untyped_storage()
    return torch.empty(0, dtype=torch.uint8).set_(storage).numpy().tobytes()


def _spec(t: torch.Tensor, indent: str) -> list[str]:
    """An embedded tensor: the dict ``_tensor`` reads back."""
    raw = _raw(t)
    numel = len(raw) // t.element_size()
    nan = int(torch.isnan(torch.as_strided(t, (numel,), (1,), 0)).sum()) if numel else 0
    encoded = base64.b64encode(zlib.compress(raw, 9)).decode("ascii")
    chunks = [encoded[i : i + CHUNK] for i in range(0, len(encoded), CHUNK)] or [""]
    inner = indent + "    "
    return [
        "{",
        f'{inner}"dtype": {t.dtype}, "shape": {tuple(t.shape)}, "stride": {tuple(t.stride())},',
        f'{inner}"offset": {t.storage_offset()}, "numel": {numel},  # {nan} of them NaN',
        f'{inner}"data": (',
        *(f'{inner}    "{c}"' for c in chunks),
        f"{inner}),",
        f"{indent}}},",
    ]


def _table(name: str, tensors: dict[str, torch.Tensor]) -> list[str]:
    lines = [f"{name} = {{"]
    for key, t in tensors.items():
        spec = _spec(t, "    ")
        lines += [f'    "{key}": {spec[0]}', *spec[1:]]
    return lines + ["}"]


def _dtypes(expected: dict, names: list[str]) -> list[str]:
    """``RESULT_DTYPE``: the dtype each result is rounded to, one line while it fits."""
    items = [f'"{n}": {expected[n][2]}' for n in names]
    one = "RESULT_DTYPE = {" + ", ".join(items) + "}"
    return [one] if len(one) <= WIDTH else ["RESULT_DTYPE = {", *(f"    {i}," for i in items), "}"]


def _data(saved: dict[str, torch.Tensor], expected: dict) -> str:
    names = [n for n in ("out", "lse", *GRADS) if n in expected]
    # Fresh contiguous float64 copies on the CPU (the oracle's device may be a
    # GPU): a view of the oracle's would embed its whole storage.
    fresh = torch.contiguous_format
    want = {n: expected[n][0].detach().cpu().double().clone(memory_format=fresh)
            for n in names}
    bound = {n: expected[n][1].detach().cpu().double().clone(memory_format=fresh)
             for n in names}
    backward = "dq" in expected
    lines = [
        "# The inputs" + (" and dO, the gradient of the output that the backward is given." if
                          backward else "."),
        "# Each is a view into a larger buffer that holds NaN besides the view's elements, so a",
        "# read outside the view would show as NaN in the result.  A buffer is its raw",
        "# little-endian bytes, zlib-compressed and base64-encoded: every value comes back bit",
        "# for bit.  inputs() below rebuilds the views with torch.as_strided.",
        *_table("INPUTS", dict(saved)),
        "",
        "# attnfuzz's float64 oracle, computed when this script was written: the exact results",
        "# (reference() below recomputes them plainly and must agree to 1e-9) and the bound",
        "# on each element's error, derived from the dtype, the lengths of the sums and the",
        "# values.  The LSE is checked if the implementation returns one.",
        *(["# dq, dk, dv are attnfuzz's gradient oracle's; reference_grads() recomputes them",
           "# by float64 autograd and must agree to 1e-9 of the size of their terms."]
          if backward else []),
        *_table("WANT", want),
        *_dtypes(expected, names),
        *_table("BOUND", bound),
    ]
    return "\n".join(lines)


def _call(case: AttentionCase, target: tuple[str, ...]) -> str:
    if target[0] == "sdpa":
        return _sdpa_call(case, target[2])
    if target[0] == "flex":
        return script_code.FLEX_CALL
    return _imported_call(target[3])


def _sdpa_call(case: AttentionCase, backend: str) -> str:
    lines = [
        "def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:",
        '    """The call under test, as attnfuzz makes it."""',
        "    kwargs = {}",
    ]
    if case.window is not None:
        lines.append("    # The window (causal limit included) as a boolean mask, as attnfuzz has.")
        lines.append("    kwargs[\"attn_mask\"] = visible(q.shape[2], k.shape[2]).to(q.device)")
    elif case.causal:
        variant = sdpa.CAUSAL_VARIANT[case.alignment]
        lines.append(f"    # attnfuzz's {case.alignment.replace('_', '-')} mask: SDPA's {variant}.")
        lines.append(f"    kwargs[\"attn_mask\"] = {variant}(q.shape[2], k.shape[2])")
    lines += [
        "    if q.shape[1] != k.shape[1]:",
        "        kwargs[\"enable_gqa\"] = True  # KV heads are shared, not repeated",
        "    # TF32 for this call only, as attnfuzz sets it: a backward runs with it restored.",
        "    tf32 = torch.backends.cuda.matmul.allow_tf32",
        '    torch.backends.cuda.matmul.allow_tf32 = INPUT_PRECISION == "tf32"',
        "    try:",
        f"        with sdpa_kernel(SDPBackend.{backend}):",
        "            out = F.scaled_dot_product_attention(q, k, v, scale=SCALE, **kwargs)",
        "    finally:",
        "        torch.backends.cuda.matmul.allow_tf32 = tf32",
        '    return {"out": out}',
    ]
    return "\n".join(lines)


def _imported_call(convention: str) -> str:
    call = script_code.CONVENTION_CALLS[convention]
    return script_code.FUNCTION.strip("\n") + "\n\n\n" + call.strip("\n")


def _layout(target: tuple[str, ...]) -> str:
    """``user_index`` and ``user_shape`` for the function's convention."""
    convention = target[3] if target[0] == "imported" else "attnfuzz"
    return script_code.LAYOUT.get(convention, script_code.LAYOUT["attnfuzz"])


def _main(record: dict, name: str, backward: bool = False) -> str:
    if record.get("crash"):
        note = _comment(f"When attnfuzz ran it, this call raised {_first_line(record['crash'])}; "
                        "until that is fixed, the traceback it prints is the finding.", "    ")
    elif _faulted(record):
        note = _comment("When attnfuzz ran it, this call faulted on the GPU (the process's CUDA "
                        "context was lost, so no result was recorded): expect a CUDA error "
                        "here or at the synchronize below. CUDA_LAUNCH_BLOCKING=1 pins it to "
                        f"the launch; compute-sanitizer --tool memcheck python3 {name} names "
                        "the faulting access.", "    ")
    else:
        note = []
    # A gradients dump differentiates the call; its dO is an input besides q, k, v.
    run = ('    got = backward(x["q"], x["k"], x["v"], x["do"])' if backward
           else '    got = call(x["q"], x["k"], x["v"])')
    return (script_code.MAIN.replace("@NOTE@\n", "".join(f"{line}\n" for line in note))
            .replace("@CALL@", run)
            .replace("@AGREE@\n", script_code.GRADIENT_AGREE.lstrip("\n") if backward else ""))


__all__ = ["ExportError", "FileExistsExportError", "export", "script"]
