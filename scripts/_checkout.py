"""Imported first by every script here: this checkout's ``rummykit`` goes ahead of any
installed copy, for the script and for the processes it starts, so a benchmark measures the
code beside it (an editable install may point at another clone of the repository)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[:1] != [ROOT]:
    sys.path.insert(0, ROOT)
_rest = os.environ.get("PYTHONPATH")
os.environ["PYTHONPATH"] = ROOT + (os.pathsep + _rest if _rest else "")
