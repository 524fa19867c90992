"""``python -m rummykit.server``: the same as ``rummykit serve``."""

from __future__ import annotations

import argparse
import sys

from rummykit.cli.serve import add_arguments, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rummykit.server")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
