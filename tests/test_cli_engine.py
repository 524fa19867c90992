"""The command line of the engine: `rummykit replay` (golden records, bad records) and
`rummykit check` (one meld, a batch from standard input)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli.main import main
from rummykit.engine import Game

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def write(tmp_path: Path, record: Any, name: str = "rec.json") -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


# -- golden records ---------------------------------------------------------------------------


def test_there_are_golden_records() -> None:
    assert len(RECORDS) >= 6


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_record_replays_to_the_expected_answer(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == expected
    # The record replays in the engine to the same record.
    record = json.loads(path.read_text())
    assert Game.from_record(record).record() == record


# Hand-checked numbers of each golden game (see tests/golden/generate.py).
HAND_CHECKED = {
    "rummy-69": ([(0, 69, False, False)], [69, 0], 0),
    "rummy-de-mano-138": ([(0, 138, True, False)], [138, 0], 0),
    "rummy-to-200": ([(1, 120, True, False), (0, 120, True, False), (1, 120, True, False)],
                     [120, 240], 1),
    "rummy-blocked": ([(2, 15, False, True)], [0, 0, 15], 2),
    "rami51-limit": ([(1, 180, False, False), (1, 180, False, False)], [360, 0], 1),
    "simple-2v2": ([(1, 200, False, False)], [200, 0], None),
    "indian-pool101": ([(1, 160, False, False), (2, 160, False, False), (1, 80, False, False)],
                       [160, 80, 160], 1),
    "indian-wrong-declaration": ([(0, 120, False, False)], [120, 0, 0], 0),
}


@pytest.mark.parametrize("name", sorted(HAND_CHECKED))
def test_golden_answers_are_the_hand_checked_ones(name: str) -> None:
    deals, scores, winner = HAND_CHECKED[name]
    answer = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    got = [(d["winner"], d["points"], d["double"], d["blocked"]) for d in answer["deals"]]
    assert got == deals
    assert answer["scores"] == scores and answer["winner"] == winner
    assert answer["over"] is (winner is not None)


def test_golden_penalties_per_seat() -> None:
    pool = json.loads((GOLDEN / "indian-pool101.expected.json").read_text())
    assert [d["penalties"] for d in pool["deals"]] == [[80, 0, 80], [80, 80, 0], [0, 0, 80]]
    wrong = json.loads((GOLDEN / "indian-wrong-declaration.expected.json").read_text())
    assert wrong["deals"][0]["penalties"] == [0, 80, 40]
    teams = json.loads((GOLDEN / "simple-2v2.expected.json").read_text())
    assert teams["deals"][0]["penalties"] == [100, 0, 100, 0]
    blocked = json.loads((GOLDEN / "rummy-blocked.expected.json").read_text())
    assert blocked["deals"][0]["penalties"] == [24, 25, 17]


def test_replay_through_a_subprocess() -> None:
    path = GOLDEN / "rummy-69.json"
    proc = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "replay", str(path), "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    expected = json.loads((GOLDEN / "rummy-69.expected.json").read_text())
    assert json.loads(proc.stdout) == expected


def test_replay_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(GOLDEN / "rummy-de-mano-138.json"))
    assert code == 0 and "138" in out and "double" in out


def test_replay_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (GOLDEN / "simple-2v2.json").read_text()
    code, out, _ = run(capsys, "replay", "-", "--json", stdin=text, monkeypatch=monkeypatch)
    assert code == 0 and json.loads(out)["scores"] == [200, 0]


def test_replay_of_a_game_in_progress(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:4]
    code, out, _ = run(capsys, "replay", write(tmp_path, rec), "--json")
    answer = json.loads(out)
    assert code == 0 and answer["over"] is False and answer["deals"] == []


# -- bad records --------------------------------------------------------------------------------


def one_line_error(code: int, out: str, err: str) -> str:
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_an_illegal_action_names_deal_number_action_and_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    rec["deals"][0]["actions"][2] = "discard KD"
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec), "--json"))
    assert "deal 1" in msg and "action 3" in msg and "discard KD" in msg
    assert "you do not hold KD" in msg


def test_an_illegal_action_in_a_later_deal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-to-200")
    rec["deals"][1]["actions"] = ["take", "discard QC"]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "deal 2, action 2 'discard QC'" in msg and "QC" in msg


def test_bad_notation_in_an_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rec = load("rummy-69")
    rec["deals"][0]["actions"][0] = "dance"
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "action 1 'dance'" in msg and "unknown action" in msg


@pytest.mark.parametrize("action", ["layoff ² AH", "layoff 1 ,"])
def test_a_malformed_layoff_is_bad_notation_not_a_crash(
    action: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    rec["deals"][0]["actions"][0] = action
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert f"action 1 {action!r}" in msg


def test_invalid_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, '{"variant": "rummy",')))
    assert "not valid JSON" in msg


@pytest.mark.parametrize("field", ["variant", "players", "deals"])
def test_missing_top_level_fields(
    field: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    del rec[field]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert field in msg


@pytest.mark.parametrize("field", ["deck", "actions"])
def test_missing_deal_fields(
    field: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    del rec["deals"][0][field]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "deal 1" in msg and field in msg


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"variant": "canasta"}, "unknown variant"),
        ({"players": 9}, "players"),
        ({"options": {"opening": 45}}, "opening"),
        ({"deals": []}, "deals"),
        ({"deals": "none"}, "deals"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_bad_record_fields(
    change: dict[str, Any], words: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = {**load("rummy-69"), **change}
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert words in msg


def test_a_deck_that_is_not_the_variants(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    rec = load("rummy-69")
    rec["deals"][0]["deck"] = rec["deals"][0]["deck"][:-1]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "deal 1" in msg and "108" in msg
    rec["deals"][0]["deck"] = [*rec["deals"][0]["deck"], "ZZ"]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "ZZ" in msg


def test_a_wrong_dealer_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rec = load("rummy-to-200")
    rec["deals"][1]["dealer"] = 0
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "deal 2" in msg and "deals" in msg


def test_an_action_after_the_game_is_over_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    n = len(rec["deals"][0]["actions"])
    rec["deals"][0]["actions"].append("draw")
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert f"deal 1, action {n + 1} 'draw'" in msg and "over" in msg


def test_a_deal_after_the_game_is_over_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    rec["deals"].append(dict(rec["deals"][0], dealer=1, actions=[]))
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "deal 2" in msg and "over" in msg


def test_a_deal_that_starts_before_the_last_one_ended_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-to-200")
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:1]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "deal 2" in msg and "deal 1" in msg


def test_rebuilt_stocks_replay_from_the_listed_orders_without_a_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-blocked")
    assert len(rec["deals"][0]["restocks"]) == 2
    del rec["seed"]
    code, out, _ = run(capsys, "replay", write(tmp_path, rec), "--json")
    assert code == 0 and json.loads(out)["deals"][0]["points"] == 15
    del rec["deals"][0]["restocks"]
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, rec)))
    assert "seed" in msg and "restock" in msg


def test_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    msg = one_line_error(*run(capsys, "replay", str(tmp_path / "nope.json")))
    assert "nope.json" in msg


# -- check ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "variant", "answer"),
    [
        ("7S 7H X X", "rummy", {"valid": True, "kind": "set", "points": 28}),
        ("5H X 7H X 9H", "rummy", {"valid": True, "kind": "run", "points": 35}),
        ("AS AH AD", "rummy", {"valid": True, "kind": "set", "points": 33}),
        ("QS KS AS", "rami51", {"valid": True, "kind": "run", "points": 31}),
        ("AC 2C 3C", "simple", {"valid": True, "kind": "run", "points": 6}),
        ("KS KH X", "rami71", {"valid": True, "kind": "set", "points": 20}),
        ("9S X JS", "indian", {"valid": True, "kind": "run", "points": 29, "pure": False}),
    ],
)
def test_check_a_valid_meld(meld: str, variant: str, answer: dict[str, Any],
                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", meld, "--variant", variant, "--json")
    assert code == 0 and json.loads(out) == answer


@pytest.mark.parametrize(
    ("meld", "reason"),
    [("5H X X 8H", "side by side"), ("7S 7S 7D", "7S 7S 7D: the suit S appears twice"),
     ("KS AS 2S", ""), ("7S 7H", "at least 3")],
)
def test_check_an_invalid_meld_exits_1(meld: str, reason: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", meld, "--variant", "rummy", "--json")
    answer = json.loads(out)
    assert code == 1 and answer["valid"] is False and reason in answer["reason"]


def test_check_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "7S 7H X X")
    assert code == 0 and "28" in out
    code, out, _ = run(capsys, "check", "KS AS 2S")
    assert code == 1 and "not a meld" in out


def test_check_bad_notation_or_variant_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(*run(capsys, "check", "7S 7Z 7D", "--json"))
    msg = one_line_error(*run(capsys, "check", "7S 7H 7D", "--variant", "gin"))
    assert "unknown variant" in msg


def test_check_indian_wild_rank(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "6D 7D 8D", "--variant", "indian", "--wild", "7",
                       "--json")
    assert code == 0 and json.loads(out)["pure"] is True
    code, out, _ = run(capsys, "check", "QC QH 7S", "--variant", "indian", "--wild", "7",
                       "--json")
    assert code == 0 and json.loads(out)["kind"] == "set"
    one_line_error(*run(capsys, "check", "QC QH 7S", "--variant", "rummy", "--wild", "7"))


@pytest.mark.parametrize(("wild", "rank"), [("1", "A"), ("X", "A"), ("12", "Q"), ("10", "T")])
def test_check_reads_the_wild_rank_as_analyze_does(
    wild: str, rank: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", f"5S 6S {rank}H", "--variant", "indian", "--wild", wild,
                       "--json")
    assert code == 0 and json.loads(out)["pure"] is False


@pytest.mark.parametrize("wild", ["Z", "7H", "0"])
def test_check_names_a_bad_wild_rank_as_written(
    wild: str, capsys: pytest.CaptureFixture[str]
) -> None:
    msg = one_line_error(*run(capsys, "check", "5S 6S 7S", "--variant", "indian", "--wild", wild))
    assert f"{wild!r} is not a rank for --wild" in msg


@pytest.mark.parametrize(
    ("lines", "code", "answers"),
    [
        ("7S 7H 7D\n5H 6H 7H\n", 0, [True, True]),
        ("7S 7H 7D\n7S 7S 7D\n\nQS KS AS\n", 1, [True, False, True]),
        ("7S 7H 7D\nZZ\n7S 7S 7D\n", 2, [True, None, False]),
    ],
)
def test_check_batch_from_standard_input(
    lines: str, code: int, answers: list[bool | None],
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    got, out, _ = run(capsys, "check", "-", "--json", stdin=lines, monkeypatch=monkeypatch)
    assert got == code
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(answers)
    for row, want in zip(rows, answers, strict=True):
        if want is None:
            assert "error" in row and row["line"] == "ZZ"
        else:
            assert row["valid"] is want


def test_check_batch_for_people(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, "check", "-", stdin="7S 7H 7D\nZZ\n", monkeypatch=monkeypatch)
    assert code == 2 and "21" in out and "ZZ" in err


def test_replay_for_people_of_a_game_in_progress(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rec = load("rummy-69")
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:3]
    code, out, _ = run(capsys, "replay", write(tmp_path, rec))
    assert code == 0 and "in progress" in out and "seat 1 to move" in out


def test_replay_for_people_between_two_deals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(GOLDEN / "simple-2v2.json"))
    assert code == 0 and "deal 1 is over, the next is not dealt yet" in out and "None" not in out


@pytest.mark.parametrize("text", ["[1, 2]", '"rummy"', "null"])
def test_a_record_that_is_not_an_object(
    text: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    msg = one_line_error(*run(capsys, "replay", write(tmp_path, text)))
    assert "object" in msg


def test_every_help_page_reads_as_written() -> None:
    """Every command's --help formats: no doubled percent signs, no leftover format codes."""
    import argparse

    from rummykit.cli.main import build_parser

    parser = build_parser()
    pages = [parser.format_help()]
    for action in parser._actions:  # the subcommands' parsers
        if isinstance(action, argparse._SubParsersAction):
            pages += [p.format_help() for p in action.choices.values()]
    assert len(pages) > 5
    for page in pages:
        assert "%%" not in page and "%(" not in page, page


@pytest.mark.parametrize("argv", [
    ("analyze", "--opening", "abc", "KS KH KD"),
    ("frobnicate",),
    ("replay",),
    ("check", "7S 7H 7D", "--colour"),
])
def test_bad_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith("rummykit") and "--help" in err
