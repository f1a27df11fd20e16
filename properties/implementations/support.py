"""What an attention implementation declares it supports.

A ``Support`` bounds the case space an implementation is fuzzed on: the
harness draws only cases it ``admits``, and separately draws cases just
outside it (one declared limit broken at a time, ``strategies.outside``),
which the implementation must refuse with an exception or answer correctly.
A kernel that silently returns garbage for a head dim it does not support is
a finding; one that raises is behaving as declared.

The same declaration is written in Python (``Support(head_dims=(64, 128),
gqa=False)``) or as a spec string on the command line and in implementation
names (``"head_dims=64,128;gqa=no"``, see ``parse``), so a dump's
implementation name rebuilds it in a new process.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from attnfuzz.properties.model.cases import ALIGNMENTS
from attnfuzz.properties.model.cases import DTYPES as _TORCH_DTYPES
from attnfuzz.properties.model.layouts import NAMES

DTYPES = tuple(_TORCH_DTYPES)
# Named groups of layouts a kernel may accept, besides single layout names.
LAYOUT_SETS = {
    "any": NAMES,
    "last_dim_contiguous": tuple(n for n in NAMES if n != "d_major"),
    "no_broadcast": tuple(n for n in NAMES if not n.startswith("expand")),
}


@dataclass(frozen=True)
class Support:
    """The declared case space; every field's default is "no limit"."""

    dtypes: tuple[str, ...] = DTYPES
    head_dims: tuple[int, ...] | None = None  # head dims D it computes; None: any
    distinct_value_dim: bool = True  # Dv != D
    gqa: bool = True  # Hq a multiple of Hkv > 1 (MQA included)
    alignments: tuple[str, ...] = ALIGNMENTS  # causal alignments; () means no causal
    cross: bool = True  # Sq != Sk
    layouts: tuple[str, ...] = NAMES  # physical input layouts it accepts
    lse: bool = False  # returns the log-sum-exp beside the output
    max_seq: int | None = None  # longest Sq and Sk
    max_magnitude: float | None = None  # largest |input| it is meant for
    backward: bool = False  # differentiable: autograd gives dq, dk, dv
    windows: bool = False  # sliding windows: takes window=(left, right)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtypes", _names(self.dtypes, "dtypes", DTYPES))
        object.__setattr__(self, "alignments",
                           _names(self.alignments, "alignments", ALIGNMENTS, empty=True))
        layouts = tuple(self.layouts) if not isinstance(self.layouts, str) else (self.layouts,)
        expanded = tuple(n for name in layouts for n in LAYOUT_SETS.get(name, (name,)))
        known = (*NAMES, *LAYOUT_SETS)
        object.__setattr__(self, "layouts",
                           _names(tuple(dict.fromkeys(expanded)), "layouts", known))
        if self.head_dims is not None:
            dims = tuple(self.head_dims)
            if not dims or any(isinstance(d, bool) or not isinstance(d, int) or d < 1
                               for d in dims):
                raise ValueError(f"head_dims must be positive ints or None, got {dims!r}")
            object.__setattr__(self, "head_dims", tuple(sorted(set(dims))))
        for name in ("distinct_value_dim", "gqa", "cross", "lse", "backward", "windows"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, got {getattr(self, name)!r}")
        if self.max_seq is not None and (
            isinstance(self.max_seq, bool) or not isinstance(self.max_seq, int)
            or self.max_seq < 1
        ):
            raise ValueError(f"max_seq must be a positive int or None, got {self.max_seq!r}")
        m = self.max_magnitude
        if m is not None and (isinstance(m, bool) or not isinstance(m, int | float)
                              or not math.isfinite(m) or m <= 0):
            raise ValueError(f"max_magnitude must be a finite number > 0 or None, got {m!r}")

    def admits(self, case) -> str | None:
        """The first declared limit an attention case breaks, in words; None if none."""
        for name, broken in _LIMITS.items():
            if broken(self, case):
                return name
        return None

    def spec(self) -> str:
        """The declaration as a spec string (only what differs from the defaults)."""
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value == f.default:
                continue
            if isinstance(value, bool):
                text = "yes" if value else "no"
            elif f.name == "layouts" and value in LAYOUT_SETS.values():
                text = next(k for k, v in LAYOUT_SETS.items() if v == value)
            elif isinstance(value, tuple):
                text = ",".join(str(v) for v in value) or "none"
            else:
                text = f"{value:g}" if isinstance(value, float) else str(value)
            parts.append(f"{f.name}={text}")
        return ";".join(parts)


# A declared limit and whether a case breaks it, in the order ``admits`` reports them.
_LIMITS = {
    "dtype": lambda s, c: c.dtype not in s.dtypes,
    "head_dim": lambda s, c: s.head_dims is not None and c.d not in s.head_dims,
    "value_dim": lambda s, c: not s.distinct_value_dim and c.dv != c.d,
    "gqa": lambda s, c: not s.gqa and c.hq != c.hkv,
    "causal alignment": lambda s, c: c.causal and c.alignment not in s.alignments,
    "sq != sk": lambda s, c: not s.cross and c.sq != c.sk,
    "layout": lambda s, c: any(lay.name not in s.layouts for lay in c.layouts().values()),
    "max_seq": lambda s, c: s.max_seq is not None and max(c.sq, c.sk) > s.max_seq,
    "window": lambda s, c: not s.windows and c.window is not None,
    "max_magnitude": lambda s, c: (s.max_magnitude is not None
                                   and (c.values.limit is None
                                        or c.values.limit > s.max_magnitude)),
}


def _names(values, name: str, known: tuple[str, ...], *, empty: bool = False) -> tuple[str, ...]:
    values = (values,) if isinstance(values, str) else tuple(values)
    unknown = [v for v in values if v not in known]
    if unknown or (not values and not empty):
        raise ValueError(f"{name} must be {'' if empty else 'a non-empty '}selection of "
                         f"{', '.join(known)}, got {values!r}")
    return values


def _flag(text: str, key: str) -> bool:
    if text in ("yes", "true", "1"):
        return True
    if text in ("no", "false", "0"):
        return False
    raise ValueError(f"support {key}= takes yes or no, got {text!r}")


def _list(text: str) -> tuple[str, ...]:
    return () if text == "none" else tuple(t for t in text.split(",") if t)


def _ints(text: str, key: str) -> tuple[int, ...]:
    try:
        return tuple(int(t) for t in _list(text))
    except ValueError:
        raise ValueError(f"support {key}= takes comma-separated ints, got {text!r}") from None


def _number(text: str, key: str, kind: type) -> int | float:
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"support {key}= takes a number, got {text!r}") from None


# spec key -> the Support field's value from its text.
_PARSE = {
    "dtypes": lambda t, k: _list(t),
    "head_dims": _ints,
    "distinct_value_dim": _flag,
    "gqa": _flag,
    "alignments": lambda t, k: _list(t),
    "causal": lambda t, k: ALIGNMENTS if _flag(t, k) else (),
    "cross": _flag,
    "layouts": lambda t, k: _list(t),
    "lse": _flag,
    "max_seq": lambda t, k: _number(t, k, int),
    "max_magnitude": lambda t, k: _number(t, k, float),
    "backward": _flag,
    "windows": _flag,
}


def parse(spec: str) -> Support:
    """A ``Support`` from ``"key=value;key=value"`` (keys: the fields, and ``causal=no``)."""
    if not isinstance(spec, str):
        raise TypeError(f"support spec must be a str, got {type(spec).__name__}")
    values: dict[str, object] = {}
    for item in (i.strip() for i in spec.split(";")):
        if not item:
            continue
        key, eq, text = (s.strip() for s in item.partition("="))
        if not eq or key not in _PARSE:
            raise ValueError(f"support spec item {item!r}: expected KEY=VALUE with KEY one of "
                             f"{', '.join(_PARSE)}")
        values["alignments" if key == "causal" else key] = _PARSE[key](text, key)
    return Support(**values)
