"""The package's layers import only the layers before them (README, "Layout")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import rummykit

PACKAGE = Path(rummykit.__file__).parent

#: Layer of each module or subpackage; ``errors`` is shared by all, ``rules_table`` renders
#: the rules' docs, the package itself and ``__main__`` are entry points over everything;
#: ``_startup`` (the command's Ctrl-C while it starts) imports nothing of the package.
RANKS = {
    "_startup": 0, "errors": 0, "cards": 1, "melds": 2, "solver": 3, "rules": 4, "rules_table": 4,
    "analysis": 4, "engine": 5, "bots": 6, "server": 7, "cli": 8,
}
ENTRY_POINTS = {"__init__", "__main__"}


def _part(module: str) -> str:
    """``rummykit.solver.api`` -> ``solver``."""
    return module.split(".")[1]


def _imports(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found += [(node.lineno, n) for n in names if n.startswith("rummykit.")]
    return found


MODULES = sorted(
    p for p in PACKAGE.rglob("*.py")
    if p.relative_to(PACKAGE).parts[0].removesuffix(".py") not in ENTRY_POINTS
)


def test_every_module_has_a_layer() -> None:
    parts = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in MODULES}
    assert parts <= set(RANKS), sorted(parts - set(RANKS))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_imports_no_later_layer(path: Path) -> None:
    here = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    later = [
        f"line {line}: {name}" for line, name in _imports(path)
        # the analysis sits beside the rules and uses them, never the other way round
        if RANKS[_part(name)] > RANKS[here] or (here, _part(name)) == ("rules", "analysis")
    ]
    assert not later, f"{here} imports a later layer: {later}"


def test_the_check_sees_a_later_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f() -> None:\n    from rummykit.cli.serve import run\n")
    assert _imports(bad) == [(2, "rummykit.cli.serve")]
