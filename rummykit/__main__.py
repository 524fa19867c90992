"""``python -m rummykit ...``: the ``rummykit`` command, for when its script is not on the path."""

from __future__ import annotations

import sys

from rummykit.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
