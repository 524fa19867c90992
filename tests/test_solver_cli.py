"""``rummykit analyze`` through its module's ``add_parser``/``run`` (no main needed)."""

from __future__ import annotations

import argparse
import io
import json

from rummykit.cli import analyze as cli


def call(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="rummykit")
    cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["analyze", *argv])
    out, err = io.StringIO(), io.StringIO()
    status = cli.run(args, io.StringIO(stdin), out, err)
    return status, out.getvalue(), err.getvalue()


def test_json_answer_shape() -> None:
    status, out, err = call(["KS KH KD 5H 6H 7H 9C", "--json"])
    assert status == 0 and err == ""
    j = json.loads(out)
    assert j["opening"]["points"] == 48
    assert sorted(map(sorted, j["opening"]["melds"])) == [["5H", "6H", "7H"], ["KD", "KH", "KS"]]
    assert j["penalty"] == {"points": 9, "melds": j["penalty"]["melds"], "left": ["9C"]}
    assert "declaration" not in j


def test_hand_as_several_arguments_and_options() -> None:
    status, out, _ = call(["KS", "KH", "KD", "5H", "6H", "7H", "9C", "--json", "--opening", "51"])
    assert status == 0
    j = json.loads(out)
    assert j["opening"]["minimum"] == 51 and j["opening"]["valid"] is True  # close: 9C left
    status, out, _ = call(["KS KH KD 5H 6H 7H 9C", "--json", "--must-include", "9C"])
    assert json.loads(out)["opening"]["valid"] is False


def test_indian_declaration_json() -> None:
    hand = "4H 5H 6H 9S TS JS AD 2D 3D QC QH QD 7S KH"
    status, out, _ = call([hand, "--variant", "indian", "--wild", "7", "--json"])
    assert status == 0
    j = json.loads(out)
    assert j["opening"] is None
    assert j["declaration"]["valid"] is True and j["declaration"]["discard"] == "KH"
    assert j["declaration"]["reason"] is None


def test_for_people_uses_suit_symbols() -> None:
    status, out, _ = call(["KS KH KD 5H 6H 7H"])
    assert status == 0
    assert "K♠" in out and "can open" in out


def test_batch_goes_on_after_a_bad_line() -> None:
    stdin = "KS KH KD\n7H 7H 7H\n\n2S 3S 4S\nnonsense\n"
    status, out, _ = call(["-", "--variant", "rummy"], stdin)
    assert status == 2
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 4
    assert lines[0]["opening"]["points"] == 30
    assert lines[1]["line"] == 2 and "third copy of 7H" in lines[1]["error"]
    assert lines[2]["opening"]["points"] == 9
    assert lines[3]["line"] == 5 and "not a card" in lines[3]["error"]
    status, out, _ = call(["-"], "KS KH KD\n")
    assert status == 0 and len(out.splitlines()) == 1


def test_bad_input_is_one_line_on_stderr() -> None:
    for argv in (["7H 7H 7H"], ["7H", "--variant", "gin"], ["2S 3S 4S", "--variant", "indian"],
                 ["2S", "--wild", "Z", "--variant", "indian"], ["2S", "--must-include", "3S"],
                 ["Q"], ["2S 3S 4S", "--wild", "7"],
                 ["2S", "--opening", "40", "--variant", "simple"]):
        status, out, err = call(argv)
        assert status == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("rummykit analyze: ")
        assert "Traceback" not in err


def test_rules_are_parsed_by_type_and_reported() -> None:
    hand = "KS KH KD X 5H 6H 7H 2C 9D"
    status, out, _ = call([hand, "--variant", "rami51", "--json", "--rule", "jokers_zero=yes",
                           "--rule", "clock=30"])
    assert status == 0
    j = json.loads(out)
    assert j["opening"]["valid"] is False  # 48 without the joker, below 51
    assert j["rules"] == {"applied": {"jokers_zero": True}, "no_effect": ["clock"]}
    status, out, _ = call([hand, "--variant", "rami51", "--json", "--rule", "jokers_zero=no"])
    assert json.loads(out)["opening"]["valid"] is True
    status, out, _ = call([hand, "--variant", "rami51", "--rule", "opening=48"])
    assert status == 0 and "rules applied: opening=48" in out and "can open" in out
    one_pure = "4H 5H 6H QC QH QD KS KH KD 2C 3D 4S 5C"
    for rule, points in (("two_sequences", 80), ("pure_sequence", 74), ("all_cards", 80)):
        status, out, _ = call([one_pure, "--variant", "indian", "--wild", "7", "--json",
                               "--rule", f"loser_melds={rule}"])
        assert status == 0 and json.loads(out)["penalty"]["points"] == points
    status, out, _ = call([one_pure, "--variant", "indian", "--json", "--rule", "cap=100",
                           "--rule", "loser_melds=all_cards", "--wild", "7"])
    assert json.loads(out)["penalty"]["points"] == 89


def test_rules_apply_to_every_line_of_a_batch() -> None:
    stdin = "KS KH KD 5H X 7H 2C 9D\nnonsense\nKS KH KD 5H 6H 7H 2C 9D\n"
    status, out, _ = call(["-", "--rule", "clean_run_and_set=yes"], stdin)
    assert status == 2
    lines = [json.loads(x) for x in out.splitlines()]
    assert [x["opening"]["valid"] for x in (lines[0], lines[2])] == [False, True]
    assert lines[0]["rules"]["applied"] == {"clean_run_and_set": True}
    assert "error" in lines[1]


def test_bad_rules_are_one_line_on_stderr() -> None:
    cases = {
        ("--rule", "colour=red"): "rummy has no rule 'colour': the rules that change",
        ("--rule", "jokers_zero"): "--rule takes NAME=VALUE, not 'jokers_zero'",
        ("--rule", "jokers_zero=maybe"): "rule 'jokers_zero' takes yes or no, not 'maybe'",
        ("--rule", "jokers=three"): "rule 'jokers' takes a whole number, not 'three'",
        ("--rule", "jokers=٣"): "takes a whole number",
        ("--rule", "swap=some"): "house rule 'swap' cannot be 'some': choose one of any",
        ("--rule", "clock=31"): "option 'clock' cannot be 31",
        ("--rule", "jokers=9"): "from 0 to 8",
        ("--rule", "loser_melds=all_cards"): "house rule 'loser_melds' belongs to indian",
        ("--rule", "lay_mode=close"): "would make rummy another game",
        ("--rule", "opening=30", "--opening", "40"): "give one",
        ("--rule", "jokers=2", "--rule", "jokers=3"): "rule 'jokers' is given twice",
    }
    for extra, message in cases.items():
        for hand in ("KS KH KD", "-"):
            status, out, err = call([hand, *extra], "KS KH KD\n")
            assert status == 2 and out == "", extra
            assert err.count("\n") == 1 and err.startswith("rummykit analyze: ")
            assert message in err, (extra, err)
    status, _, err = call(["2S", "--variant", "simple", "--rule", "opening_minimum=30"])
    assert status == 2 and "its only lay-down is the close" in err
    # names every rule that changes the indian analysis
    status, _, err = call(["-", "--variant", "indian", "--rule", "drop=1"])
    assert "jokers, hand_size, min_real, adjacent_jokers, cap, loser_melds;" in err
