"""Fuzz a cookbook adapter by its own declaration: ``python fuzz.py ADAPTER.py [OPTIONS]``.

The adapter file names its function after itself and declares ``CONVENTION``
and ``SUPPORTS``; any further options go to ``attnfuzz run`` (``--seconds``,
``--dtype``, ``--seed``, ``--property``...).
"""

import runpy
import sys
from pathlib import Path

from attnfuzz.properties.run.cli import main

if __name__ == "__main__":
    if len(sys.argv) < 2 or not sys.argv[1].endswith(".py"):
        sys.exit("usage: python fuzz.py ADAPTER.py [attnfuzz run options]")
    path = Path(sys.argv[1])
    declared = runpy.run_path(str(path))
    for name in ("CONVENTION", "SUPPORTS"):
        if not isinstance(declared.get(name), str):
            sys.exit(f"fuzz.py: {path} declares no {name} (a string)")
    sys.exit(main(["run", "--impl", f"{path}:{path.stem}", "--convention",
                   declared["CONVENTION"], "--supports", declared["SUPPORTS"], *sys.argv[2:]]))
