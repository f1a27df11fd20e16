"""Where dumps go and how their JSON is written: what every writer of dumps shares.

Dumps are strict JSON (``json.dumps(..., allow_nan=False)`` accepts them):
non-finite numbers are the strings "inf", "-inf" and "nan".
"""

from __future__ import annotations

import math
import os
from pathlib import Path

DEFAULT_DUMP_DIR = ".attnfuzz/failures"
_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def dump_root() -> Path:
    """The folder dumps go to: ``ATTNFUZZ_DUMP_DIR``, else ``DEFAULT_DUMP_DIR``."""
    return Path(os.environ.get("ATTNFUZZ_DUMP_DIR", DEFAULT_DUMP_DIR))


def made_directory(path: str | Path, what: str) -> Path:
    """``path`` as a directory, made if missing; ``ValueError`` naming ``what``
    (an option, say) in one line if it is a file or cannot be made."""
    given = str(path)
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{what} {given!r} is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{what} {given!r}: cannot create it ({exc.strerror})") from None
    return path.resolve()


def fresh_dir(path: Path) -> Path:
    """Create ``path``, or ``path-2``, ``path-3``...: two dumps in one second keep both."""
    candidate, n = path, 1
    while True:
        try:
            candidate.mkdir(parents=True)
            return candidate
        except FileExistsError:
            n += 1
            candidate = path.with_name(f"{path.name}-{n}")


def strict(o: object) -> object:
    """``o`` with non-finite floats as the strings "inf", "-inf", "nan" (JSON has none)."""
    if isinstance(o, float) and not math.isfinite(o):
        return repr(o)
    if isinstance(o, dict):
        return {k: strict(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [strict(v) for v in o]
    return o


def lenient(o: object) -> object:
    """The inverse of ``strict``, for parts of a record whose strings are never these."""
    if isinstance(o, str) and o in _NON_FINITE:
        return _NON_FINITE[o]
    if isinstance(o, dict):
        return {k: lenient(v) for k, v in o.items()}
    if isinstance(o, list):
        return [lenient(v) for v in o]
    return o


__all__ = ["DEFAULT_DUMP_DIR", "dump_root", "fresh_dir", "lenient", "made_directory", "strict"]
