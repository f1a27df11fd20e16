"""Did a mutant's code run at all?

A mutant that survives its targets means something only if its edited lines
ran: an edit in code no target calls, or in a branch only a compiled kernel
takes (``if not interpreting(): ...``), cannot be killed on this backend
whatever the properties check.  ``Watch`` names the lines of a mutated file
whose execution shows the edit ran, and ``backend_only`` tells an edit that
sits in a branch of one backend (compiled or interpreted) from one no target
happened to reach.  ``tracing`` records the watched lines in the worker
(the Triton interpreter runs a kernel's own lines, under their own file
name and numbers, so kernels are traced like host code).
"""

from __future__ import annotations

import ast
import contextlib
import os
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# CPython 3.11's parser is not safe to run in two threads at once (its AST
# constructor's recursion counter is shared: "recursion depth mismatch"), and
# the runner checks mutants in a thread pool.
_PARSING = threading.Lock()


def _parse(text: str) -> ast.Module:
    with _PARSING:
        return ast.parse(text)


@dataclass(frozen=True)
class Watch:
    """What shows that a mutated file's edit ran: one of ``lines`` executed,
    or a function whose first line is in ``calls`` was called (an edit to a
    ``def`` line changes how every call binds its arguments).  ``always``: the
    edit is module-level code, run when the kernels are imported."""

    path: str  # the mutated file, its real path
    lines: frozenset[int]
    calls: frozenset[int]
    always: bool = False


def changed_lines(old: str, new: str, at: int) -> range:
    """The lines (1-based) of the mutated file that differ, for an edit that
    put ``new`` (in place of ``old``) at line ``at``: the common leading and
    trailing lines are not the mutation.  A pure deletion gives the line after it."""
    a, b = old.splitlines(), new.splitlines()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    first, last = at + head, at + len(b) - tail - 1
    return range(first, max(first, last) + 1)


def _stmts(tree: ast.AST) -> Iterator[ast.stmt]:
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            yield node


def _body_fields(node: ast.stmt) -> list[list[ast.stmt]]:
    return [getattr(node, f) for f in ("body", "orelse", "finalbody", "handlers")
            if isinstance(getattr(node, f, None), list) and getattr(node, f)]


def _header_end(node: ast.stmt) -> int:
    """The last line of a compound statement's header (its own code, not its body)."""
    blocks = _body_fields(node)
    first_body = min(block[0].lineno for block in blocks) if blocks else node.end_lineno + 1
    return max(node.lineno, first_body - 1)


def watch(path: str, text: str, changed: Iterable[int]) -> Watch:
    """The lines and calls whose execution shows that ``changed`` lines of
    ``text`` (the mutated file's source) ran."""
    tree = _parse(text)
    lines: set[int] = set()
    calls: set[int] = set()
    inside_function = False
    want = set(changed)
    for node in _stmts(tree):
        span = set(range(node.lineno, node.end_lineno + 1))
        if not span & want:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside_function = True
            first = min(d.lineno for d in (node, *node.decorator_list))
            if set(range(first, node.body[0].lineno)) & want:
                calls.update({first, node.lineno})
            continue
        if isinstance(node, ast.ClassDef):
            continue
        if _body_fields(node):
            header = set(range(node.lineno, _header_end(node) + 1))
            if header & want:
                lines |= header
        else:
            lines |= span
    if not inside_function:  # no function holds the edit: module-level, run on import
        return Watch(path, frozenset(), frozenset(), always=True)
    return Watch(os.path.realpath(path), frozenset(lines or want), frozenset(calls))


def _on(test: ast.expr, interpreted: bool) -> bool | None:
    """The value of ``test`` on the backend (True/False where only
    ``interpreting()`` decides it, None where something else may)."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) \
            and test.func.id == "interpreting" and not test.args:
        return interpreted
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        value = _on(test.operand, interpreted)
        return None if value is None else not value
    if isinstance(test, ast.BoolOp):
        values = [_on(v, interpreted) for v in test.values]
        decisive = isinstance(test.op, ast.Or)  # True decides an or, False an and
        if decisive in values:
            return decisive
        return None if None in values else not decisive
    return None


def _exits(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _skipped(block: list[ast.stmt], line: int, interpreted: bool) -> bool:
    """Whether ``line`` (in ``block`` or below it) never runs on the backend."""
    for stmt in block:
        if stmt.lineno > line:
            return False
        if stmt.end_lineno < line:
            # ``if interpreting(): return ...`` leaves the rest of the block to the other backend.
            if isinstance(stmt, ast.If) and _on(stmt.test, interpreted) is True \
                    and _exits(stmt.body):
                return True
            if isinstance(stmt, ast.If) and _on(stmt.test, interpreted) is False \
                    and stmt.orelse and _exits(stmt.orelse):
                return True
            continue
        if isinstance(stmt, ast.If):
            value = _on(stmt.test, interpreted)
            if stmt.body[0].lineno <= line <= stmt.body[-1].end_lineno:
                return value is False or _skipped(stmt.body, line, interpreted)
            if stmt.orelse and stmt.orelse[0].lineno <= line <= stmt.orelse[-1].end_lineno:
                return value is True or _skipped(stmt.orelse, line, interpreted)
            return False
        return any(_skipped(b, line, interpreted) for b in _body_fields(stmt)
                   if b[0].lineno <= line <= b[-1].end_lineno)
    return False


def _deciding_prefix(tree: ast.AST, line: int, interpreted: bool) -> str | None:
    """For ``line`` in the header of an ``if``/``while`` whose condition the
    backend decides early (``not interpreting() and ...``): the operands up to
    the deciding one, as a dump; the operands after it are never evaluated."""
    for node in ast.walk(tree):
        if not (isinstance(node, (ast.If, ast.While)) and isinstance(node.test, ast.BoolOp)
                and node.lineno <= line <= _header_end(node)):
            continue
        decisive = isinstance(node.test.op, ast.Or)
        for i, value in enumerate(node.test.values):
            if _on(value, interpreted) is decisive:
                return ast.dump(ast.BoolOp(node.test.op, node.test.values[:i + 1]))
    return None


def backend_only(text: str, lines: Iterable[int], interpreted: bool, original: str | None = None
                 ) -> bool:
    """Whether the edit at ``lines`` of ``text`` (the mutated source; ``original``
    the source before it) sits where this backend (the interpreter if
    ``interpreted``, else compiled kernels) never goes: a branch on
    ``interpreting()`` taken only by the other one, or an operand of a
    condition that ``interpreting()`` decides before it is evaluated."""
    tree = _parse(text)
    if all(_skipped(tree.body, line, interpreted) for line in lines):
        return True
    if original is None:
        return False
    before = _parse(original)
    for line in lines:
        prefix = _deciding_prefix(tree, line, interpreted)
        if prefix is None or prefix != _deciding_prefix(before, line, interpreted):
            return False
    return True


@contextlib.contextmanager
def tracing(w: Watch | None) -> Iterator[list[bool]]:
    """Record, in the yielded one-element list, whether ``w`` ran inside the block."""
    hit = [w is None or w.always]
    if hit[0]:
        yield hit
        return

    def local(frame, event, arg):
        if event == "line" and frame.f_lineno in w.lines:
            hit[0] = True
            sys.settrace(None)
            return None
        return local

    ours: dict[str, bool] = {}  # file name as a code object spells it -> is the mutated file

    def calls(frame, event, arg):
        name = frame.f_code.co_filename
        if name not in ours:
            ours[name] = os.path.realpath(name) == w.path
        if not ours[name]:
            return None
        if frame.f_code.co_firstlineno in w.calls:
            hit[0] = True
            sys.settrace(None)
            return None
        return local if w.lines else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        with _backwards_in_this_thread():
            yield hit
    finally:
        sys.settrace(previous)


@contextlib.contextmanager
def _backwards_in_this_thread() -> Iterator[None]:
    """``sys.settrace`` sees the calling thread only, and autograd runs the
    backward of a GPU tensor (a kernel's backward launcher with it) in a thread
    of its own per device: inside, a backward runs in the thread that asks for it."""
    import torch

    with torch.autograd.set_multithreading_enabled(False):
        yield
