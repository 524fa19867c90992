"""Generated documentation stays in step with the code."""

import argparse
import re
from pathlib import Path

from rummykit.cli.serve import add_arguments
from rummykit.rules_table import render

ROOT = Path(__file__).resolve().parent.parent


def test_rules_doc_is_generated_from_the_rulesets() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    stale = "docs/rules.md is stale: python -m rummykit.rules_table > docs/rules.md"
    assert text == render(), stale


def test_every_decision_field_is_documented() -> None:
    from rummykit.rules import decisions

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for name, _ in decisions():
        assert f"`{name}`" in text


def _doc_texts() -> dict[str, str]:
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {p.name: p.read_text(encoding="utf-8") for p in paths}


def test_documents_named_in_the_docs_exist() -> None:
    # A page once pointed at a notation.md that was never written.
    texts = _doc_texts()
    missing = {
        (name, named)
        for name, text in texts.items()
        for named in re.findall(r"\b[\w-]+\.md\b", text)
        if named not in texts
    }
    assert not missing, f"documents named but missing (page, name): {sorted(missing)}"


def test_every_serve_option_is_in_the_server_doc() -> None:
    # The table of docs/server.md is what an operator reads instead of --help.
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    flags = [
        flag
        for action in parser._actions
        if action.help != argparse.SUPPRESS  # a switch for the tests
        for flag in action.option_strings
        if flag.startswith("--") and flag != "--help"
    ]
    missing = [flag for flag in flags if f"`{flag}" not in text]
    assert not missing, f"docs/server.md does not document {missing}"
