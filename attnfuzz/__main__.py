"""``python -m attnfuzz``: the ``attnfuzz`` command."""

import sys

from attnfuzz.properties.run.cli import main

# Guarded: a worker started by "spawn" imports the parent's main module again
# (as ``__mp_main__``), and must not run the command inside itself.
if __name__ == "__main__":
    sys.exit(main())
