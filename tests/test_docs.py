"""Generated documentation stays in step with the code."""

from pathlib import Path

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
