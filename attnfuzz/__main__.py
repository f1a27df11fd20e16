"""``python -m attnfuzz``: the ``attnfuzz`` command."""

import sys

from attnfuzz.properties.run.cli import main

sys.exit(main())
