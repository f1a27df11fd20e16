"""Where the benchmarks write what they measure when no ``--out`` is given.

Records are kept out of the source tree: by default they go to
``attnfuzz-records/`` in the current directory (ignored by git), and the
records worth keeping are committed to the ``records`` branch by hand.
"""

from __future__ import annotations

import argparse
from pathlib import Path

RECORDS = Path("attnfuzz-records")


def add_out_argument(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` the ``--out DIR`` option every benchmark that writes records takes."""
    parser.add_argument("--out", type=Path, default=RECORDS,
                        help=f"output directory (default: ./{RECORDS}/ in the current directory)")
