"""What an attention implementation declares it supports.

A ``Support`` bounds the case space an implementation is fuzzed on: the
harness draws only cases that break none (``first_broken_limit``), and separately draws cases just
outside it (one declared limit broken at a time, ``outside_support.outside``),
which the implementation must refuse with an exception or answer correctly.
A kernel that silently returns garbage for a head dim it does not support is
a finding; one that raises is behaving as declared.

The same declaration is written in Python (``Support(head_dims="16..256",
gqa=False)``) or as a spec string on the command line and in implementation
names (``"head_dims=16..256;gqa=no"``, see ``parse``), so a dump's
implementation name rebuilds it in a new process.  ``KEYS`` is the one table
of what can be declared: the dataclass's defaults, the parser, the
``--supports`` help and the README's table all come from it, and each Python
argument also takes its spec text.

Sets of ints (head dims, GQA groups, page sizes) are written as ranges:
``16..256`` is every int from 16 to 256, ``16..256+16`` the multiples of 16
among them, ``1..16*2`` the powers of two 1, 2, 4, 8, 16; items are joined
by commas (``1,3,8..16``).  A declaration prints in that compact form.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, fields

from ...reference.bounds import LOGITS
from ...reference.gradient_bounds import DELTA_FROM, GROUP_SUMS
from ..model.cases import ALIGNMENTS
from ..model.cases import DTYPES as _TORCH_DTYPES
from ..model.layouts import NAMES

DTYPES = tuple(_TORCH_DTYPES)
# Named groups of layouts a kernel may accept, besides single layout names.
LAYOUT_SETS = {
    "any": NAMES,
    "last_dim_contiguous": tuple(n for n in NAMES if n != "d_major"),
    "no_broadcast": tuple(n for n in NAMES if not n.startswith("expand")),
}
CAUSAL = ("yes", "no", "only")
SCALES = ("any", "positive", "default")
# Where a sequence's queries sit among its keys: anywhere the mask says, or as
# its last keys (a prefix-cached prefill: Sq <= Sk, masks bottom-right).
QUERIES = ("any", "last_keys")
# What a paged call's block_table may hold past each sequence's pages.
UNUSED_PAGES = ("valid", "any")
# Whether its serving entries check the metadata they are given against their
# tensors (prefix sums, page tables, cache lengths, the longest sequence).
METADATA = ("trusted", "checked")
# The largest int a range may hold: a declared set is a tuple of its members.
MAX_RANGE = 1 << 16


# --- kinds of value: how each is written, read from text, checked and printed ---------------

class _Kind:
    syntax = ""

    def read(self, text: str, key: str) -> object:
        raise NotImplementedError

    def check(self, value: object, key: str) -> object:
        """The value, normalised; text is read as the spec reads it."""
        return self.read(value.strip(), key) if isinstance(value, str) else self.valid(value, key)

    def valid(self, value: object, key: str) -> object:
        return value

    def show(self, value: object) -> str:
        return str(value)


class _Flag(_Kind):
    syntax = "yes|no"

    def read(self, text, key):
        if text in ("yes", "true", "1"):
            return True
        if text in ("no", "false", "0"):
            return False
        raise ValueError(f"support {key}= takes yes or no, got {text!r}")

    def valid(self, value, key):
        if not isinstance(value, bool):
            raise TypeError(f"{key} must be a bool (or yes/no), got {value!r}")
        return value

    def show(self, value):
        return "yes" if value else "no"


@dataclass(frozen=True)
class _Choice(_Kind):
    options: tuple[str, ...]
    bools: bool = False  # True and False stand for yes and no

    @property
    def syntax(self):
        return "|".join(self.options)

    def read(self, text, key):
        if text not in self.options:
            raise ValueError(f"support {key}= takes {' or '.join(self.options)}, got {text!r}")
        return text

    def valid(self, value, key):
        if self.bools and isinstance(value, bool):
            return "yes" if value else "no"
        raise TypeError(f"{key} must be one of {', '.join(self.options)}, got {value!r}")


@dataclass(frozen=True)
class _Names(_Kind):
    known: tuple[str, ...]
    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()  # named groups of names
    empty: bool = False  # "none" is a selection

    @property
    def syntax(self):
        return "NAME,..." + (" or none" if self.empty else "")

    def read(self, text, key):
        return self.valid(() if text == "none" else tuple(t.strip() for t in text.split(",")
                                                           if t.strip()), key)

    def valid(self, value, key):
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise TypeError(f"{key} must be names (a tuple or comma-separated text), "
                            f"got {value!r}")
        sets = dict(self.sets)
        names = tuple(dict.fromkeys(n for v in value for n in sets.get(v, (v,))))
        unknown = [v for v in names if v not in self.known]
        if unknown or (not names and not self.empty):
            known = ", ".join((*self.known, *sets))
            raise ValueError(f"{key} must be {'' if self.empty else 'a non-empty '}selection of "
                             f"{known}, got {tuple(value)!r}")
        return names

    def show(self, value):
        group = next((k for k, v in self.sets if v == value), None)
        return group or ",".join(value) or "none"


class _Ints(_Kind):
    """A set of positive ints, as ranges (module docstring); None: any."""

    syntax = "INTS or any"

    def read(self, text, key):
        if text == "any":
            return None
        members: set[int] = set()
        for item in (t.strip() for t in text.split(",")):
            members.update(_range(item, key))
        return self.valid(members, key)

    def valid(self, value, key):
        if value is None:
            return None
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise TypeError(f"{key} must be ints (a tuple, a range or text), got {value!r}")
        values = tuple(value)
        if not values or any(isinstance(v, bool) or not isinstance(v, int) or v < 1
                             for v in values):
            raise ValueError(f"{key} must be positive ints or None, got {values!r}")
        return tuple(sorted(set(values)))

    def show(self, value):
        return "any" if value is None else compact(value)


@dataclass(frozen=True)
class _Int(_Kind):
    low: int
    optional: bool = False  # None: no limit

    @property
    def syntax(self):
        return "N" + (" or none" if self.optional else "")

    def read(self, text, key):
        if self.optional and text == "none":
            return None
        try:
            return self.valid(int(text), key)
        except ValueError:
            raise ValueError(f"support {key}= takes an int >= {self.low}, got {text!r}") from None

    def valid(self, value, key):
        if value is None and self.optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < self.low:
            raise ValueError(f"{key} must be an int >= {self.low}"
                             f"{' or None' if self.optional else ''}, got {value!r}")
        return value

    def show(self, value):
        return "none" if value is None else str(value)


class _Magnitude(_Kind):
    syntax = "X or none"

    def read(self, text, key):
        if text == "none":
            return None
        try:
            return self.valid(float(text), key)
        except ValueError:
            raise ValueError(f"support {key}= takes a number > 0, got {text!r}") from None

    def valid(self, value, key):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or not math.isfinite(value) or value <= 0):
            raise ValueError(f"{key} must be a finite number > 0 or None, got {value!r}")
        return value

    def show(self, value):
        return "none" if value is None else f"{value:g}"


def _range(item: str, key: str) -> range | list[int]:
    """The members of one item of a set of ints: N, A..B, A..B+STEP or A..B*RATIO."""
    bad = ValueError(f"support {key}= takes ints and ranges N, A..B, A..B+STEP, A..B*RATIO "
                     f"joined by commas, got {item!r}")
    low, dots, rest = item.partition("..")
    try:
        if not dots:
            return [int(low)]
        op = "+" if "+" in rest else "*" if "*" in rest else ""
        high, _, by = rest.partition(op) if op else (rest, "", "1")
        a, b, n = int(low), int(high), int(by)
    except ValueError:
        raise bad from None
    if a < 1 or b < a or b > MAX_RANGE or n < 1 or (op == "*" and n < 2):
        raise ValueError(f"support {key}= range {item!r}: needs 1 <= A <= B <= {MAX_RANGE} "
                         "and a step >= 1 (a ratio >= 2)")
    if op == "*":
        return [a * n**i for i in range(int(math.log(b / a, n)) + 2) if a * n**i <= b]
    return range(a, b + 1, n)


def compact(values: tuple[int, ...]) -> str:
    """Sorted distinct positive ints as ranges (``_range``'s items), each run
    of three or more members the longest progression from its first."""
    items, i = [], 0
    while i < len(values):
        best, text = 1, str(values[i])
        if i + 2 < len(values):
            a, b = values[i], values[i + 1]
            for op, nxt in (("+", lambda x, d=b - a: x + d),
                            ("*", (lambda x, r=b // a: x * r) if b % a == 0 and b > a else None)):
                if nxt is None:
                    continue
                j = i + 1
                while j + 1 < len(values) and values[j + 1] == nxt(values[j]):
                    j += 1
                if j - i + 1 >= 3 and j - i + 1 > best:
                    by = "" if op == "+" and b - a == 1 else f"{op}{b - a if op == '+' else b // a}"
                    best, text = j - i + 1, f"{a}..{values[j]}{by}"
        items.append(text)
        i += best
    return ",".join(items)


@dataclass(frozen=True)
class Key:
    """One thing a support declares: its spec key (also the ``Support`` field),
    how its value is written, its default and what it limits."""

    name: str
    kind: _Kind
    default: object
    meaning: str

    @property
    def syntax(self) -> str:
        return self.kind.syntax

    def default_text(self) -> str:
        return self.kind.show(self.default)


# The one table of declarable limits, in the order ``first_broken_limit`` reports them.
KEYS = {k.name: k for k in (
    Key("dtypes", _Names(DTYPES), DTYPES, "input dtypes"),
    Key("head_dims", _Ints(), None, "head dims D (and Dv) it computes"),
    Key("distinct_value_dim", _Flag(), True, "Dv may differ from D (no: Dv = D)"),
    Key("gqa", _Flag(), True, "Hq may be a multiple of Hkv > 1, MQA included (no: Hq = Hkv)"),
    Key("groups", _Ints(), None, "GQA group sizes Hq / Hkv (e.g. 1..16*2: powers of two)"),
    Key("causal", _Choice(CAUSAL, bools=True), "yes",
        "causal masks: yes (either way), no (never), only (every case causal)"),
    Key("alignments", _Names(ALIGNMENTS, empty=True), ALIGNMENTS,
        "causal alignments: bottom_right (KV cache), top_left"),
    Key("cross", _Flag(), True, "Sq may differ from Sk (no: Sq = Sk)"),
    Key("queries", _Choice(QUERIES), "any",
        "last_keys: each sequence's queries are its last keys (a prefix-cached prefill: "
        "Sq <= Sk, causal masks bottom-right only)"),
    Key("max_seq", _Int(1, optional=True), None, "longest Sq and Sk"),
    Key("min_sq", _Int(0), 0, "fewest queries Sq"),
    Key("max_sq", _Int(1, optional=True), None, "most queries Sq (1: decode only)"),
    Key("min_sk", _Int(0), 0, "fewest keys Sk (1: never an empty cache)"),
    Key("sq_multiple", _Int(1), 1, "Sq a multiple of N"),
    Key("sk_multiple", _Int(1), 1, "Sk a multiple of N"),
    Key("layouts", _Names(NAMES, tuple(LAYOUT_SETS.items())), NAMES,
        f"input layouts: {', '.join(NAMES)}, or {', '.join(LAYOUT_SETS)}"),
    Key("mixed_layouts", _Flag(), True,
        "q, k, v and out may each have a layout of their own (no: one shared layout, so "
        "tensors of one shape have the same strides)"),
    Key("scale", _Choice(SCALES), "any",
        "softmax scales: any, positive (> 0), default (1/sqrt(D) only: a hard-coded scale)"),
    Key("max_magnitude", _Magnitude(), None,
        "largest |input| it is meant for (values are scaled to fit; never refused)"),
    Key("page_sizes", _Ints(), None, "page sizes of a paged KV cache"),
    Key("unused_pages", _Choice(UNUSED_PAGES), "valid",
        "block_table entries past a sequence's pages: valid (pages of the cache, as zero "
        "padding), any (also -1 and numbers past the cache: never read)"),
    Key("metadata", _Choice(METADATA), "trusted",
        "serving metadata (cu_seqlens, block_table, cache_seqlens, max_seqlen): trusted (the "
        "caller's promise, read as given), checked (metadata that does not describe its "
        "tensors is refused with a ValueError or TypeError: bad_metadata draws it)"),
    Key("lse", _Flag(), False, "returns the log-sum-exp beside the output, as (out, lse)"),
    Key("backward", _Flag(), False, "differentiable: the gradient properties run too"),
    Key("backward_delta", _Choice(("any", *DELTA_FROM)), "any",
        "how its backward forms delta = rowsum(dO O): output (from the output it returned, "
        "as FlashAttention-2), probs (rowsum(P dP)); said, 16-bit dQ and dK are held to "
        "bounds that know dS's rounding"),
    Key("group_sum", _Choice(("any", *GROUP_SUMS)), "any",
        "how its backward sums a KV head's dK and dV over its group of query heads (GQA): "
        "fp32 (in the kernel, partial sums unrounded), rounded (each query head's rounded "
        "to the input dtype, then summed, as FlashAttention-2's expanded dK, dV); said fp32, "
        "they are held to the tighter bound"),
    Key("logits", _Choice(LOGITS), "fp32",
        "the dtype its logits scale * q k^T take before the softmax: fp32 (as fused kernels "
        "keep them), rounded (rounded to the input dtype, as eager attention's q @ k^T in "
        "fp16 or bf16 is, and SDPA's math path); said rounded, the bounds allow that rounding"),
    Key("windows", _Flag(), False, "takes window=(left, right): a third of the cases draw one"),
)}


def _default(name: str):
    return KEYS[name].default


@dataclass(frozen=True)
class Support:
    # Each field's type, default and meaning are ``KEYS``' (see ``table``).
    dtypes: tuple[str, ...] = _default("dtypes")
    head_dims: tuple[int, ...] | None = _default("head_dims")
    distinct_value_dim: bool = _default("distinct_value_dim")
    gqa: bool = _default("gqa")
    groups: tuple[int, ...] | None = _default("groups")
    causal: str = _default("causal")
    alignments: tuple[str, ...] = _default("alignments")
    cross: bool = _default("cross")
    queries: str = _default("queries")
    max_seq: int | None = _default("max_seq")
    min_sq: int = _default("min_sq")
    max_sq: int | None = _default("max_sq")
    min_sk: int = _default("min_sk")
    sq_multiple: int = _default("sq_multiple")
    sk_multiple: int = _default("sk_multiple")
    layouts: tuple[str, ...] = _default("layouts")
    mixed_layouts: bool = _default("mixed_layouts")
    scale: str = _default("scale")
    max_magnitude: float | None = _default("max_magnitude")
    page_sizes: tuple[int, ...] | None = _default("page_sizes")
    unused_pages: str = _default("unused_pages")
    metadata: str = _default("metadata")
    lse: bool = _default("lse")
    backward: bool = _default("backward")
    backward_delta: str = _default("backward_delta")
    group_sum: str = _default("group_sum")
    logits: str = _default("logits")
    windows: bool = _default("windows")

    def __post_init__(self) -> None:
        for key in KEYS.values():
            object.__setattr__(self, key.name, key.kind.check(getattr(self, key.name), key.name))
        # Two ways to say one thing, made one: no causal mask is no alignment,
        # and no GQA is groups of one.
        if self.queries == "last_keys":  # the queries' keys end where theirs do
            object.__setattr__(self, "alignments",
                               tuple(a for a in self.alignments if a == "bottom_right"))
        if self.causal == "no" or not self.alignments:
            if self.causal == "only":
                raise ValueError("causal='only' needs an alignment, got alignments=()")
            object.__setattr__(self, "causal", "no")
            object.__setattr__(self, "alignments", ())
        if self.groups == (1,) or not self.gqa:
            if self.groups not in (None, (1,)):
                raise ValueError(f"gqa=False admits groups of 1 only, got groups={self.groups!r}")
            object.__setattr__(self, "gqa", False)
            object.__setattr__(self, "groups", (1,))
        for which in ("sq", "sk"):
            if not self.lengths(which, 1):
                raise ValueError(f"no {which.upper()} satisfies {self._length_spec(which)}")
        if not self.cross:
            self._common(1)

    # --- what it admits ------------------------------------------------------------------

    def first_broken_limit(self, case) -> str | None:
        """The first declared limit an attention case breaks, in words; None if none."""
        for name, broken in _LIMITS.items():
            if broken(self, case):
                return name
        return None

    def broken_length(self, sq: int, sk: int) -> str | None:
        """The first declared length limit Sq queries over Sk keys break; None if none.
        For a sequence packed beside others (varlen, paged)."""
        for which, n in (("sq", sq), ("sk", sk)):
            broken = self._length(which, n)
            if broken:
                return broken
        return None

    def admits_page_size(self, size: int) -> bool:
        """Whether a paged cache may have pages of ``size`` tokens."""
        return self.page_sizes is None or size in self.page_sizes

    def lengths(self, which: str, count: int, start: int = 0) -> list[int]:
        """The first ``count`` admitted lengths of ``which`` ('sq' or 'sk') from
        ``start`` up (fewer where the declared maximum ends them)."""
        low, high, step = self.length_bounds(which)
        first = max(low, start)
        first += -first % step
        top = high if high is not None else first + step * count
        return list(range(first, top + 1, step))[:count]

    def fit_length(self, which: str, n: int) -> int:
        """The admitted length of ``which`` nearest ``n`` from above (from below past
        the declared maximum): where a drawn length lands inside the support."""
        low, high, step = self.length_bounds(which)
        up = self.lengths(which, 1, n)
        if up:
            return up[0]
        return (high // step) * step  # __post_init__ made sure one is >= low

    def fit_lengths(self, sq: int, sk: int, *, keys_cover_queries: bool = False
                    ) -> tuple[int, int]:
        """(Sq, Sk) moved to the nearest admitted pair (``fit_length`` each), equal
        where ``cross`` is off and with Sq <= Sk where ``keys_cover_queries`` (or
        the queries are declared the last keys)."""
        sq, sk = self.fit_length("sq", sq), self.fit_length("sk", sk)
        if not self.cross:
            n = self._common(max(sq, sk))
            return n, n
        if (keys_cover_queries or self.queries == "last_keys") and sq > sk:
            sk = self.fit_length("sk", sq)
            if sk < sq:  # no admitted Sk reaches Sq: the queries come down instead
                sq = max([n for n in self.lengths("sq", sk + 1) if n <= sk] or [sq])
        return sq, sk

    def _common(self, start: int) -> int:
        # The least length from ``start`` up admitted as both Sq and Sk (else from 1).
        for first in (start, 1):
            for n in self.lengths("sq", 1 << 14, first):
                if self._length("sk", n) is None:
                    return n
        raise ValueError(f"no length satisfies both Sq and Sk limits of {self.spec()}")

    def length_bounds(self, which: str) -> tuple[int, int | None, int]:
        """(fewest, most or None, multiple) for ``which`` ('sq' or 'sk')."""
        if which not in ("sq", "sk"):
            raise ValueError(f"which must be 'sq' or 'sk', got {which!r}")
        high = self.max_seq
        if which == "sq" and self.max_sq is not None:
            high = self.max_sq if high is None else min(high, self.max_sq)
        # Every call has a query: Sq = 0 is never drawn, whatever min_sq says.
        low = max(self.min_sq, 1) if which == "sq" else self.min_sk
        return low, high, self.sq_multiple if which == "sq" else self.sk_multiple

    def _length(self, which: str, n: int) -> str | None:
        low, _, step = self.length_bounds(which)
        if self.max_seq is not None and n > self.max_seq:
            return "max_seq"
        if which == "sq" and self.max_sq is not None and n > self.max_sq:
            return "max_sq"
        if n < low:
            return f"min_{which}"
        if n % step:
            return f"{which}_multiple"
        return None

    def _length_spec(self, which: str) -> str:
        return ";".join(f"{k}={KEYS[k].kind.show(getattr(self, k))}"
                        for k in ("max_seq", f"min_{which}", f"{which}_multiple")
                        + (("max_sq",) if which == "sq" else ()))

    # --- as text ---------------------------------------------------------------------------

    def spec(self) -> str:
        """The declaration as a spec string (only what differs from the defaults)."""
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value == KEYS[f.name].default:
                continue
            # Implied by another key (``__post_init__``): said once.
            if (f.name == "alignments" and self.causal == "no") or (
                    f.name == "groups" and not self.gqa):
                continue
            parts.append(f"{f.name}={KEYS[f.name].kind.show(value)}")
        return ";".join(parts)


def _other_scale(s: Support, c) -> bool:
    if c.scale is None or s.scale == "any":
        return False
    if s.scale == "positive":
        return not c.scale > 0
    return not math.isclose(c.scale, c.d**-0.5, rel_tol=1e-12)


# A declared limit and whether a case breaks it, in the order ``first_broken_limit`` reports them.
_LIMITS = {
    "dtype": lambda s, c: c.dtype not in s.dtypes,
    "head_dim": lambda s, c: s.head_dims is not None and (c.d not in s.head_dims
                                                          or c.dv not in s.head_dims),
    "value_dim": lambda s, c: not s.distinct_value_dim and c.dv != c.d,
    "gqa": lambda s, c: not s.gqa and c.hq != c.hkv,
    "group": lambda s, c: s.groups is not None and c.group not in s.groups,
    "non-causal": lambda s, c: s.causal == "only" and not c.causal,
    "causal alignment": lambda s, c: c.causal and c.alignment not in s.alignments,
    "sq != sk": lambda s, c: not s.cross and c.sq != c.sk,
    "queries": lambda s, c: s.queries == "last_keys" and c.sq > c.sk,
    "layout": lambda s, c: any(lay.name not in s.layouts for lay in c.layouts().values()),
    "mixed layouts": lambda s, c: not s.mixed_layouts and len(
        {lay.stride_key for lay in (*c.layouts().values(), c.out_layout)}) > 1,
    "max_seq": lambda s, c: s.max_seq is not None and max(c.sq, c.sk) > s.max_seq,
    "max_sq": lambda s, c: s.max_sq is not None and c.sq > s.max_sq,
    "min_sq": lambda s, c: c.sq < s.min_sq,
    "min_sk": lambda s, c: c.sk < s.min_sk,
    "sq_multiple": lambda s, c: c.sq % s.sq_multiple != 0,
    "sk_multiple": lambda s, c: c.sk % s.sk_multiple != 0,
    "scale": _other_scale,
    "window": lambda s, c: not s.windows and c.window is not None,
    "page_size": lambda s, c: c.page_size is not None and not s.admits_page_size(c.page_size),
    "max_magnitude": lambda s, c: (s.max_magnitude is not None
                                   and (c.values.limit is None
                                        or c.values.limit > s.max_magnitude)),
}


def parse(spec: str) -> Support:
    """A ``Support`` from ``"key=value;key=value"``, keys and values as ``KEYS`` says."""
    if not isinstance(spec, str):
        raise TypeError(f"support spec must be a str, got {type(spec).__name__}")
    values: dict[str, object] = {}
    for item in (i.strip() for i in spec.split(";")):
        if not item:
            continue
        key, eq, text = (s.strip() for s in item.partition("="))
        if not eq or key not in KEYS:
            raise ValueError(f"support spec item {item!r}: expected KEY=VALUE with KEY one of "
                             f"{', '.join(KEYS)}")
        values[key] = KEYS[key].kind.read(text, key)
    return Support(**values)


INTS = ("INTS: ints and ranges joined by commas: N, A..B (every int from A to B), "
        "A..B+STEP (A, A+STEP, ...), A..B*RATIO (A, A*RATIO, ...); e.g. 1..16*2 is "
        "1,2,4,8,16")


def table(markdown: bool = False) -> str:
    """``KEYS`` as a table: key, value syntax, default, meaning (a Markdown one for
    the README, or one line per key), and what INTS are."""
    rows = [(k.name, k.syntax, k.default_text(), k.meaning) for k in KEYS.values()]
    if markdown:
        def cell(text: str) -> str:
            return text.replace("|", "\\|")

        head = "| key (`Support(key=...)`, `--supports key=...`) | values | default | meaning |"
        lines = [head, "| --- | --- | --- | --- |"]
        lines += [f"| `{n}` | `{cell(s)}` | `{d}` | {cell(m)} |" for n, s, d, m in rows]
        return "\n".join([*lines, "", INTS])
    return "\n".join([*(f"{n}={s} (default {d}): {m}" for n, s, d, m in rows), INTS])


def help_text() -> str:
    """The ``--supports`` keys and their values on one line, for a command's help."""
    return "; ".join(f"{k.name}={k.syntax}" for k in KEYS.values()) + f" ({INTS})"


Support.__doc__ = (
    "The declared case space.  Each argument takes its typed value or its spec "
    "text (``Support(head_dims='16..256')``); unset, it is the default below.\n\n"
    + table()
)
