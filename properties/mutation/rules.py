"""Mutants derived mechanically from the kernel sources, by rules.

The hand-written catalogues hold bugs someone thought of, so their kill rate
flatters the harness.  ``generate`` applies small syntactic rules (swap two
strides, drop a mask term, ``<`` for ``<=``, an off-by-one loop end, ...) at
every site where they fit in ``kernels/``, giving a kill rate on bugs nobody
picked.  Rules know no semantics: some mutants are equivalent, and the
survivors are the ones to read.
"""

from __future__ import annotations

import ast
import bisect
import io
import re
import tokenize
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from .mutant import Mutant, targets_of


class Edit(NamedTuple):
    """Replace source characters [start, end) with ``text``; ``what`` describes it."""

    start: int
    end: int
    text: str
    what: str


class Source:
    """One kernel file: its text, tokens and AST, addressed by character offset."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tree = ast.parse(text)
        self.lines = text.splitlines(keepends=True)
        self.line_starts = [0]
        for line in self.lines:
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.ops: list[tuple[int, int, str]] = []  # (start, end, string) of OP tokens
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.OP:
                self.ops.append((self.offset(*tok.start), self.offset(*tok.end), tok.string))
        self.op_starts = [start for start, _, _ in self.ops]
        self.nodes = list(ast.walk(self.tree))
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in self.nodes:
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        # Names unpacked from ``t.stride()`` (``sb, sh, sn, sk = b.stride()``) are strides too.
        self.stride_names = {
            elt.id
            for node in self.nodes
            if isinstance(node, ast.Assign) and _is_stride_call(node.value)
            for target in node.targets
            if isinstance(target, ast.Tuple)
            for elt in target.elts
            if isinstance(elt, ast.Name)
        }
        # Top-level statements (decorators included) as [start, end) offsets:
        # a mutant is parsed within its own statement, not the whole file.
        self.statements: list[tuple[int, int]] = []
        for stmt in self.tree.body:
            first = min(n.lineno for n in (stmt, *getattr(stmt, "decorator_list", ())))
            self.statements.append((self.line_starts[first - 1], self.line_starts[stmt.end_lineno]))
        self.statement_starts = [start for start, _ in self.statements]

    def parses_with(self, edit: Edit) -> bool:
        """Whether the file still parses with ``edit`` made."""
        i = bisect.bisect_right(self.statement_starts, edit.start) - 1
        lo, hi = self.statements[i] if i >= 0 else (0, len(self.text))
        if not lo <= edit.start <= edit.end <= hi:
            lo, hi = 0, len(self.text)
        try:
            ast.parse(self.text[lo:edit.start] + edit.text + self.text[edit.end:hi])
        except SyntaxError:
            return False
        return True

    def offset(self, lineno: int, col: int) -> int:
        """Character offset of a tokenize (line, character column) position."""
        return self.line_starts[lineno - 1] + col

    def _node_offset(self, lineno: int, col_bytes: int) -> int:
        # ast columns count UTF-8 bytes, tokenize's count characters.
        line = self.lines[lineno - 1]
        return self.line_starts[lineno - 1] + len(line.encode()[:col_bytes].decode())

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (self._node_offset(node.lineno, node.col_offset),
                self._node_offset(node.end_lineno, node.end_col_offset))

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.text[start:end]

    def op_between(self, lo: int, hi: int, strings: set[str]) -> tuple[int, int, str] | None:
        """The first OP token among ``strings`` inside [lo, hi)."""
        for i in range(bisect.bisect_left(self.op_starts, lo), len(self.ops)):
            start, end, string = self.ops[i]
            if start >= hi:
                break
            if string in strings:
                return start, end, string
        return None

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)


# --------------------------------------------------------------------------
# Syntax helpers
# --------------------------------------------------------------------------

_BINOP_PREC = {
    ast.BitOr: 5, ast.BitXor: 6, ast.BitAnd: 7, ast.LShift: 8, ast.RShift: 8,
    ast.Add: 9, ast.Sub: 9, ast.Mult: 10, ast.MatMult: 10, ast.Div: 10, ast.FloorDiv: 10,
    ast.Mod: 10, ast.Pow: 12,
}
_ADD = 9
_MUL = 10
_ATOM = 14


def _prec(node: ast.AST) -> int:
    """Python's binding strength of an expression (higher binds tighter)."""
    if isinstance(node, (ast.Lambda, ast.IfExp, ast.NamedExpr)):
        return 0
    if isinstance(node, ast.BoolOp):
        return 1 if isinstance(node.op, ast.Or) else 2
    if isinstance(node, ast.UnaryOp):
        return 3 if isinstance(node.op, ast.Not) else 11
    if isinstance(node, ast.Compare):
        return 4
    if isinstance(node, ast.BinOp):
        return _BINOP_PREC[type(node.op)]
    return _ATOM


def _paren(text: str, prec: int, wanted: int) -> str:
    return f"({text})" if prec < wanted else text


def _fit(src: Source, node: ast.AST, text: str, prec: int) -> str:
    """``text`` (binding ``prec``) parenthesised as needed to stand where ``node`` stood."""
    parent = src.parents.get(node)
    if isinstance(parent, ast.BinOp):
        outer = _prec(parent)
        return _paren(text, prec, outer if parent.left is node else outer + 1)
    if isinstance(parent, (ast.UnaryOp, ast.Compare)):
        return _paren(text, prec, _prec(parent) + 1)
    if isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is node:
        return _paren(text, prec, _ATOM)
    if isinstance(parent, ast.Call) and parent.func is node:
        return _paren(text, prec, _ATOM)
    return text


def _operand(src: Source, node: ast.AST, wanted: int) -> str:
    return _paren(src.segment(node), _prec(node), wanted)


def _callee(node: ast.AST) -> str | None:
    """The called name: ``f`` for ``f(...)``, ``attr`` for ``x.attr(...)``."""
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _is_stride_call(node: ast.AST) -> bool:
    return _callee(node) == "stride" and isinstance(node.func, ast.Attribute)


_STRIDE_NAME = re.compile(r"^s_\w+$|stride")


def _is_stride(src: Source, node: ast.AST) -> bool:
    if isinstance(node, ast.Starred):
        return _is_stride(src, node.value)
    if isinstance(node, ast.arg):
        name = node.arg
    elif isinstance(node, ast.Name):
        name = node.id
    else:
        return _is_stride_call(node)
    return bool(_STRIDE_NAME.search(name)) or name in src.stride_names


def _is_int(node: ast.AST, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def _is_int64(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "int64"


def _binop_token(src: Source, node: ast.BinOp, string: str) -> tuple[int, int, str] | None:
    return src.op_between(src.span(node.left)[1], src.span(node.right)[0], {string})


# --------------------------------------------------------------------------
# Rules: each takes a node of a file and yields the edits it makes there.
# --------------------------------------------------------------------------


def swap_strides(src: Source, node: ast.AST) -> Iterator[Edit]:
    """Swap two adjacent stride arguments (of a call, a tuple or a kernel's parameters)."""
    if isinstance(node, ast.Call):
        items = node.args
    elif isinstance(node, (ast.Tuple, ast.List)):
        items = node.elts
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        items = [*node.args.posonlyargs, *node.args.args]
    else:
        return
    for a, b in pairwise(items):
        if _is_stride(src, a) and _is_stride(src, b):
            (a0, a1), (b0, b1) = src.span(a), src.span(b)
            ta, tb = src.text[a0:a1], src.text[b0:b1]
            yield Edit(a0, b1, tb + src.text[a1:b0] + ta, f"`{ta}` and `{tb}` swapped")


def _conjunction_terms(src: Source, node: ast.BinOp) -> list[ast.AST]:
    left = node.left
    # A parenthesised left conjunction is one term: its parens lie between the
    # chain's start and its own.
    if (isinstance(left, ast.BinOp) and isinstance(left.op, ast.BitAnd)
            and src.span(left)[0] == src.span(node)[0]):
        return [*_conjunction_terms(src, left), node.right]
    return [left, node.right]


def drop_mask_term(src: Source, node: ast.AST) -> Iterator[Edit]:
    """Drop each term of a mask conjunction ``a & b & c`` in turn."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)):
        return
    parent = src.parents.get(node)
    if (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitAnd)
            and parent.left is node and src.span(parent)[0] == src.span(node)[0]):
        return  # inside a longer chain, which is the site
    terms = _conjunction_terms(src, node)
    start, end = src.span(node)
    cuts = [start]
    for left, right in pairwise(terms):
        tok = src.op_between(src.span(left)[1], src.span(right)[0], {"&"})
        cuts += [tok[0], tok[1]]
    cuts.append(end)
    # Each term with its own parentheses: the text between two ``&``.
    parts = [src.text[cuts[i]:cuts[i + 1]].strip() for i in range(0, len(cuts), 2)]
    for i, dropped in enumerate(parts):
        kept = " & ".join(parts[:i] + parts[i + 1:])
        yield Edit(start, end, kept, f"mask term `{dropped}` dropped")


def _swap_binop(old: type, new: str, old_s: str) -> Callable[[Source, ast.AST], Iterator[Edit]]:
    def rule(src: Source, node: ast.AST) -> Iterator[Edit]:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, old)):
            return
        left = node.left
        if isinstance(left, ast.JoinedStr) or (isinstance(left, ast.Constant)
                                               and isinstance(left.value, str)):
            return  # ``"..." % x`` is formatting, not arithmetic
        tok = _binop_token(src, node, old_s)
        if tok:
            yield Edit(tok[0], tok[1], new, f"`{old_s}` -> `{new}`")

    rule.__doc__ = f"``{old_s}`` -> ``{new}`` in index arithmetic."
    return rule


floordiv_to_mod = _swap_binop(ast.FloorDiv, "%", "//")
mod_to_floordiv = _swap_binop(ast.Mod, "//", "%")


def _swap_compare(old: type, old_s: str, new: str) -> Callable[[Source, ast.AST], Iterator[Edit]]:
    def rule(src: Source, node: ast.AST) -> Iterator[Edit]:
        if not isinstance(node, ast.Compare):
            return
        operands = [node.left, *node.comparators]
        for op, (left, right) in zip(node.ops, pairwise(operands), strict=True):
            if isinstance(op, old):
                tok = src.op_between(src.span(left)[1], src.span(right)[0], {old_s})
                if tok:
                    yield Edit(tok[0], tok[1], new, f"`{old_s}` -> `{new}`")

    rule.__doc__ = f"``{old_s}`` -> ``{new}`` in a comparison."
    return rule


le_to_lt = _swap_compare(ast.LtE, "<=", "<")
lt_to_le = _swap_compare(ast.Lt, "<", "<=")
ge_to_gt = _swap_compare(ast.GtE, ">=", ">")
gt_to_ge = _swap_compare(ast.Gt, ">", ">=")
# Not in the classic list, but the kernels test for -inf maxima and the last
# finishing split with ``==``, and the launchers pick paths with ``==``/``!=``.
eq_to_ne = _swap_compare(ast.Eq, "==", "!=")
ne_to_eq = _swap_compare(ast.NotEq, "!=", "==")


def _range_stop(node: ast.AST) -> ast.AST | None:
    if _callee(node) != "range" or not node.args or node.keywords:
        return None
    return node.args[1] if len(node.args) >= 2 else node.args[0]


def _shift_range_end(sign: str) -> Callable[[Source, ast.AST], Iterator[Edit]]:
    def rule(src: Source, node: ast.AST) -> Iterator[Edit]:
        stop = _range_stop(node)
        if stop is None:
            return
        start, end = src.span(stop)
        text = f"{_operand(src, stop, _ADD)} {sign} 1"
        yield Edit(start, end, text, f"loop end `{src.segment(stop)}` -> `{text}`")

    rule.__doc__ = f"``range(a, b)`` / ``tl.range(a, b, ...)``: ``b`` -> ``b {sign} 1``."
    return rule


range_end_minus_one = _shift_range_end("-")
range_end_plus_one = _shift_range_end("+")


def cdiv_to_floordiv(src: Source, node: ast.AST) -> Iterator[Edit]:
    """``tl.cdiv(x, B)`` (or ``triton.cdiv``, ``_cdiv``) -> ``x // B``: a size rounded down."""
    if _callee(node) not in ("cdiv", "_cdiv") or len(node.args) != 2 or node.keywords:
        return
    x, b = node.args
    text = _fit(src, node, f"{_operand(src, x, _MUL)} // {_operand(src, b, _MUL + 1)}", _MUL)
    start, end = src.span(node)
    yield Edit(start, end, text, f"`{src.segment(node)}` -> `{text}`")


def _drop_one(op: type, sign: str) -> Callable[[Source, ast.AST], Iterator[Edit]]:
    def rule(src: Source, node: ast.AST) -> Iterator[Edit]:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, op)):
            return
        start, end = src.span(node)
        tok = _binop_token(src, node, sign)
        if tok is None:
            return
        if _is_int(node.right, 1):
            kept = src.text[start:tok[0]].rstrip()  # the left operand with its parentheses
        elif op is ast.Add and _is_int(node.left, 1):
            kept = src.text[tok[1]:end].strip()
        else:
            return
        yield Edit(start, end, kept, f"`{src.text[start:end]}` -> `{kept}`")

    rule.__doc__ = f"Remove a ``{sign} 1``."
    return rule


drop_plus_one = _drop_one(ast.Add, "+")
drop_minus_one = _drop_one(ast.Sub, "-")

_MIN_MAX = {"min": "max", "max": "min", "minimum": "maximum", "maximum": "minimum"}


def swap_min_max(src: Source, node: ast.AST) -> Iterator[Edit]:
    """``min`` <-> ``max`` (builtins, ``tl.minimum``/``tl.maximum``, ``tl.min``/``tl.max``)."""
    name = _callee(node)
    if name not in _MIN_MAX:
        return
    if isinstance(node.func, ast.Attribute) and name in ("min", "max") and not (
            isinstance(node.func.value, ast.Name) and node.func.value.id == "tl"):
        return  # ``t.min()`` of a tensor on the host, which the rule does not mean
    end = src.span(node.func)[1]
    yield Edit(end - len(name), end, _MIN_MAX[name], f"`{name}` -> `{_MIN_MAX[name]}`")


def _is_neg_inf(node: ast.AST) -> bool:
    return (_callee(node) == "float" and isinstance(node.func, ast.Name) and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant) and node.args[0].value == "-inf")


def neg_inf_to_zero(src: Source, node: ast.AST) -> Iterator[Edit]:
    """``float("-inf")`` -> ``0.0`` as a masked value (``other=`` or a ``tl.where`` branch)."""
    if not _is_neg_inf(node):
        return
    parent = src.parents.get(node)
    as_other = isinstance(parent, ast.keyword) and parent.arg == "other"
    as_branch = _callee(parent) == "where" and node in parent.args[1:]
    if as_other or as_branch:
        start, end = src.span(node)
        where = "`other=`" if as_other else "a `tl.where` branch"
        yield Edit(start, end, "0.0", f"`float(\"-inf\")` -> `0.0` in {where}")


def drop_int64(src: Source, node: ast.AST) -> Iterator[Edit]:
    """Drop an int64 widening: ``x.to(tl.int64)`` or ``tl.cast(x, tl.int64)`` -> ``x``."""
    name = _callee(node)
    if name not in ("to", "cast"):
        return
    start, end = src.span(node)
    if (name == "to" and isinstance(node.func, ast.Attribute) and len(node.args) == 1
            and _is_int64(node.args[0]) and not node.keywords):
        dot = src.op_between(src.span(node.func.value)[1], end, {"."})
        kept = src.text[start:dot[0]].rstrip()  # the receiver with its parentheses
    elif name == "cast" and len(node.args) == 2 and _is_int64(node.args[1]):
        kept = _fit(src, node, src.segment(node.args[0]), _prec(node.args[0]))
    else:
        return
    yield Edit(start, end, kept, f"int64 widening dropped from `{kept}`")


def swap_program_id(src: Source, node: ast.AST) -> Iterator[Edit]:
    """``program_id(0)`` <-> ``program_id(1)``: the grid's axes confused."""
    if _callee(node) != "program_id" or len(node.args) != 1:
        return
    (axis,) = node.args
    for old, new in ((0, 1), (1, 0)):
        if _is_int(axis, old):
            start, end = src.span(axis)
            yield Edit(start, end, str(new), f"`program_id({old})` -> `program_id({new})`")


def swap_broadcast(src: Source, node: ast.AST) -> Iterator[Edit]:
    """``x[:, None]`` <-> ``x[None, :]``: a row vector broadcast as a column (a transposed
    mask or offset), which kernels built from 2-D broadcasts invite."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)):
        return
    elts = node.slice.elts
    if len(elts) != 2:
        return
    full = [isinstance(e, ast.Slice) and e.lower is e.upper is e.step is None for e in elts]
    none = [isinstance(e, ast.Constant) and e.value is None for e in elts]
    if full[0] and none[1]:
        new = "None, :"
    elif none[0] and full[1]:
        new = ":, None"
    else:
        return
    start, end = src.span(elts[0])[0], src.span(elts[1])[1]
    old = src.text[start:end]
    yield Edit(start, end, new, f"`[{old}]` -> `[{new}]`")


RULES: dict[str, Callable[[Source, ast.AST], Iterator[Edit]]] = {
    "swap_strides": swap_strides,
    "drop_mask_term": drop_mask_term,
    "floordiv_to_mod": floordiv_to_mod,
    "mod_to_floordiv": mod_to_floordiv,
    "le_to_lt": le_to_lt,
    "lt_to_le": lt_to_le,
    "ge_to_gt": ge_to_gt,
    "gt_to_ge": gt_to_ge,
    "eq_to_ne": eq_to_ne,
    "ne_to_eq": ne_to_eq,
    "range_end_minus_one": range_end_minus_one,
    "range_end_plus_one": range_end_plus_one,
    "cdiv_to_floordiv": cdiv_to_floordiv,
    "drop_plus_one": drop_plus_one,
    "drop_minus_one": drop_minus_one,
    "swap_min_max": swap_min_max,
    "neg_inf_to_zero": neg_inf_to_zero,
    "drop_int64": drop_int64,
    "swap_program_id": swap_program_id,
    "swap_broadcast": swap_broadcast,
}


# --------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------


def _unique_lines(src: Source, first: int, last: int) -> tuple[int, int]:
    """The smallest run of whole lines around [first, last] (1-based) that occurs once."""
    n = len(src.lines)
    for extra in range(n):
        for above in range(extra + 1):
            lo, hi = first - above, last + extra - above
            if lo < 1 or hi > n:
                continue
            old = src.text[src.line_starts[lo - 1]:src.line_starts[hi]]
            if src.text.count(old) == 1:
                return lo, hi
    raise AssertionError("a whole file occurs once in itself")


def _mutants_of(src: Source, file: str, rule: str) -> list[Mutant]:
    targets = targets_of(file)
    stem = Path(file).stem
    sites: list[tuple[int, str, str, str]] = []  # (line, old, new, mimics)
    seen: set[str] = set()
    # Stable: the edits of one site keep the order their rule gave them.
    edits = sorted((e for node in src.nodes for e in RULES[rule](src, node)),
                   key=lambda e: (e.start, e.end))
    for e in edits:
        mutated = src.text[:e.start] + e.text + src.text[e.end:]
        if mutated == src.text or mutated in seen or not src.parses_with(e):
            continue
        seen.add(mutated)
        line = src.line_of(e.start)
        lo, hi = _unique_lines(src, line, src.line_of(max(e.start, e.end - 1)))
        begin, stop = src.line_starts[lo - 1], src.line_starts[hi]
        old = src.text[begin:stop]
        new = mutated[begin:stop + len(mutated) - len(src.text)]
        code = src.lines[line - 1].strip()
        sites.append((line, old, new, f"line {line}: {e.what} in `{code}`"))
    per_line: dict[int, int] = {}
    for line, *_ in sites:
        per_line[line] = per_line.get(line, 0) + 1
    out: list[Mutant] = []
    k: dict[int, int] = {}
    for line, old, new, mimics in sites:
        name = f"rule.{rule}.{stem}.{line}"
        if per_line[line] > 1:
            k[line] = k.get(line, 0) + 1
            name += f".{k[line]}"
        out.append(Mutant(name, file, ((old, new),), mimics, targets))
    return out


def _spread(items: list[Mutant], n: int | None) -> list[Mutant]:
    """At most ``n`` of ``items``, evenly spaced (the middle of n equal bins)."""
    if n is None or len(items) <= n:
        return items
    return [items[(2 * i + 1) * len(items) // (2 * n)] for i in range(n)]


def generate(kernels_dir: Path | None = None, *, per_rule_file: int | None = None
             ) -> list[Mutant]:
    """Every rule's mutants of every kernel file, ordered by file, rule and position.

    ``per_rule_file`` keeps at most that many per (rule, file), evenly spread
    over the file, so a small sample still touches every file.  Names do not
    depend on it.
    """
    if kernels_dir is None:
        import attnfuzz.kernels

        kernels_dir = Path(attnfuzz.kernels.__file__).parent
    muts: list[Mutant] = []
    for path in sorted(Path(kernels_dir).glob("*.py")):
        if path.name == "__init__.py":
            continue  # re-exports only
        src = Source(path.read_text())
        for rule in RULES:
            muts += _spread(_mutants_of(src, path.name, rule), per_rule_file)
    return muts
