"""What a fresh look at ``rummykit replay FILE --deal K --at N`` found, each kept
(docs/engine.md)."""

from __future__ import annotations

from pathlib import Path

from tests.cli_support import cli

GOLDEN = Path(__file__).parent / "golden"


def seat_line(out: str, seat: int) -> str:
    return next(x for x in out.splitlines() if f"seat {seat} " in x and "│" in x)


def test_a_position_marks_the_seats_out_and_gives_the_totals() -> None:
    """Indian pool: a seat put out of the game read as a seat with an empty hand, one put out
    by the last deal as a seat in play; a drop and a wrong declaration were not marked; the
    totals, which the web page's look back shows, were not given."""
    pool = str(GOLDEN / "indian-pool101.json")
    code, out, err = cli(["replay", pool, "--deal", "3", "--at", "0"])
    assert code == 0 and err == ""
    assert "(eliminated)" in seat_line(out, 1) and "(eliminated)" not in seat_line(out, 3)
    assert "Scores: seat 1: 160, seat 2: 80, seat 3: 80" in out
    # the deal's end put seat 3 over 101: out of the game, as the end screen says
    code, out, _ = cli(["replay", pool, "--deal", "3", "--at", "2"])
    assert "(eliminated)" in seat_line(out, 3) and "(eliminated)" not in seat_line(out, 2)
    assert "Scores: seat 1: 160, seat 2: 80, seat 3: 160" in out
    code, out, _ = cli(["replay", str(GOLDEN / "indian-wrong-declaration.json"), "--at", "7"])
    assert "(declared wrongly)" in seat_line(out, 2) and "(dropped)" in seat_line(out, 3)
    assert "(" not in seat_line(out, 1)
    # 2 v 2: the sides' totals
    code, out, _ = cli(["replay", str(GOLDEN / "simple-2v2.json"), "--at", "1"])
    assert "Scores: side 1: 0, side 2: 0" in out


def test_a_position_counts_its_cards_in_words() -> None:
    """*Pile: 1 cards*, and an empty pile *Pile: 0 cards, — on top*; a meld's owner in 2 v 2
    read *Meld 3 (seat 2 (side 2))*."""
    _, out, _ = cli(["replay", str(GOLDEN / "rami51-limit.json"), "--deal", "2", "--at", "3"])
    assert "Pile: 1 card, 5♠ on top." in out
    _, out, _ = cli(["replay", str(GOLDEN / "simple-2v2.json"), "--at", "1"])
    assert "Pile: empty." in out and "— on top" not in out
    assert "Meld 3, seat 2 (side 2): " in out and "((" not in out and "))" not in out
