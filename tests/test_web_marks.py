"""People's marks at a table (docs/web.md, *People's marks are told apart*): a person's mark
unlike every other seat's in the page's language, the bots' included (a person named "B2"
beside Bea took the mark of the bot in seat 2, and a lone Ben beside a bot the bots' avatar
letter), and one style for all the people of an initial (Ana, Anabel and Alberto read "A1",
"A2" and "Al"): as ``seatMarks`` gives them, as the table draws them, in the waiting
room, and over many random tables."""

from __future__ import annotations

from typing import Any

from rummykit.engine import Game
from tests.test_web_past_deals import MARKS, draw
from tests.web_support import (
    js_errors,
    modules_page,  # noqa: F401 -- the module's `page`
    with_drawn_root,
)

# ``seatMarks`` for each list of names in ``lang``: "BOT" a bot, None an empty seat
MARKS_OF = """async ([lang, cases]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const { seatMarks } = await import('/static/js/lobby.js');
  return cases.map((names) => Object.fromEntries(seatMarks(names.map((name, seat) =>
    name === 'BOT' ? { seat, kind: 'bot', name: 'Bot', level: 'medium' }
    : name === null ? { seat, kind: 'empty', name: null } : { seat, kind: 'human', name }))));
}"""

# the waiting room drawn by the page's own code, ``you`` in an empty seat as just taken (the
# row before the server's room says so); the avatars' marks, seat by seat
WAITING = with_drawn_root("""async ([lang, names, you, name]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const { renderWaiting } = await import('/static/js/lobby.js');
  const seats = names.map((n, seat) => n === 'BOT'
    ? { seat, kind: 'bot', name: 'Bot', level: 'medium' }
    : n === null ? { seat, kind: 'empty', name: null }
    : { seat, kind: 'human', name: n, connected: true });
  const S = { you, prefs: { name }, said: {}, variants: null,
              room: { room: 'MARK42', variant: 'rummy', players: names.length, options: {}, seats,
                      spectators: 0, status: 'waiting' } };
${DRAWN_ROOT}
  renderWaiting(root, S, { sit() {}, addBot() {}, removeBot() {}, leave() {}, say() {} });
  return [...root.querySelectorAll('.seat-row .avatar')].map((a) => a.textContent);
}""")

# Many random tables of two to six seats (people, bots, empty seats) whose names mix the
# letters that clash: each person's mark is of one or two characters as drawn, unlike every
# other person's and every bot's (its avatar's letter, its meld mark, a lower-case l read as
# a 1) and an empty seat's; the people of one initial have marks of one style (all numbered
# or none, all of one length); the seats in another order give the same marks. The first
# tables found wrong, with what is wrong.
RANDOM_TABLES = """async ([lang, count]) => {
  const i18n = await import('/static/js/i18n.js');
  await i18n.loadLanguage(lang);
  const { seatMarks } = await import('/static/js/lobby.js');
  const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const drawn = (m) => Array.from(seg.segment(m), (p) => p.segment);
  const fold = (m) => m.replace(/l/g, '1');
  let x = 20261202;
  const pick = (list) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return list[(x >>> 8) % list.length];
  };
  const firsts = ['A', 'a', 'B', 'b', 'R', 'r', 'L', 'l', 'Á', 'ß', '1', '2', '\\u{1F600}',
                  '\\u00b7', 'e\\u0301', '\\u03a9', '\\uac00'];
  const rests = ['', 'n', 'l', 'a', 'o', 'b', 'r', '1', '2', '3', '4', 'e\\u0301', '\\u{1F600}',
                 'ß', ' x'];
  const wrong = [];
  for (let c = 0; c < count && wrong.length < 5; c++) {
    const n = pick([2, 3, 4, 5, 6]);
    const seats = [];
    for (let seat = 0; seat < n; seat++) {
      const kind = pick(['human', 'human', 'human', 'bot', 'empty']);
      const name = pick(firsts) + pick(rests) + pick(rests) + pick(rests);
      seats.push(kind === 'human' ? { seat, kind, name } : kind === 'bot'
        ? { seat, kind, name: 'Bot', level: 'medium' } : { seat, kind, name: null });
    }
    const marks = seatMarks(seats);
    const others = [];
    for (const s of seats) {
      if (s.kind === 'bot') {
        others.push(i18n.t('seat.botInitial'), i18n.t('seat.botMark', { n: s.seat + 1 }));
      }
      if (s.kind === 'empty') others.push('\\u00b7');
    }
    const people = seats.filter((s) => s.kind === 'human');
    const got = people.map((s) => marks.get(s.seat));
    const why = [];
    if (marks.size !== people.length || got.some((m) => typeof m !== 'string')) {
      why.push('a person without a mark');
    } else {
      if (got.some((m) => drawn(m).length < 1 || drawn(m).length > 2)) {
        why.push('not of one or two characters');
      }
      if (new Set(got).size !== got.length) why.push('two people alike');
      if (got.some((m) => others.some((o) => fold(o) === fold(m)))) {
        why.push("alike another seat's");
      }
      const styles = new Map();
      for (const m of got) {
        const d = drawn(m);
        const style = `${d.length}${/^[0-9]$/.test(d[d.length - 1]) ? 'n' : ''}`;
        styles.set(d[0], [...(styles.get(d[0]) || []), style]);
      }
      if ([...styles.values()].some((s) => new Set(s).size > 1)) {
        why.push('two styles of one initial');
      }
      const again = seatMarks([...seats].reverse());
      if (people.some((s) => again.get(s.seat) !== marks.get(s.seat))) {
        why.push('another order, other marks');
      }
    }
    if (why.length) {
      wrong.push({ why, seats: seats.map((s) => (s.kind === 'human' ? s.name : s.kind)),
                   marks: Object.fromEntries(marks) });
    }
  }
  return wrong;
}"""


def marks_of(page: Any, lang: str, cases: list[list[str | None]]) -> list[dict[str, str]]:
    result: list[dict[str, str]] = page.evaluate(MARKS_OF, [lang, cases])
    return result


def test_a_persons_mark_differs_from_every_bots(page: Any) -> None:
    """A person named "B2" with Bea beside the bot in seat 2 took "B2", the bot's meld mark;
    "R2" the same in French, whose bots' marks are "R" and "R2". A next character that is no
    letter now counts as none: the people of that initial are numbered by their seats. A lone
    Ben beside a bot took "B", the bot's avatar letter (French bots' is "R": Ben keeps "B"
    there, Robert takes "Ro"), and Blanca's "Bl" read as the bot in seat 1's "B1"."""
    en = marks_of(page, "en", [["Bea", "BOT", "B2", "Ana"], ["Rémi", "BOT", "R2", "Ana"],
                               ["Ben", "BOT", "Ana"], ["Robert", "BOT", "Ana"],
                               ["B2", "BOT", "Ana"], ["BOT", "Blanca", "Bob"]])
    assert en == [{"0": "B1", "2": "B3", "3": "A"}, {"0": "R1", "2": "R3", "3": "A"},
                  {"0": "Be", "2": "A"}, {"0": "R", "2": "A"},
                  {"0": "B1", "2": "A"}, {"1": "B2", "2": "B3"}], en
    fr = marks_of(page, "fr", [["Rémi", "BOT", "R2", "Ana"], ["Bea", "BOT", "B2", "Ana"],
                               ["Ben", "BOT", "Ana"], ["Robert", "BOT", "Ana"],
                               ["R2", "BOT", "Ana"], ["BOT", "Rlo", "Rob"]])
    assert fr == [{"0": "R1", "2": "R3", "3": "A"}, {"0": "B1", "2": "B3", "3": "A"},
                  {"0": "B", "2": "A"}, {"0": "Ro", "2": "A"},
                  {"0": "R1", "2": "A"}, {"1": "R2", "2": "R3"}], fr


def test_the_people_of_one_initial_have_one_style(page: Any) -> None:
    """Ana, Anabel and Alberto read "A1", "A2" and "Al": two styles for one letter, "Al" and
    "A1" almost alike. Once one of an initial needs a number, all of it are numbered; where
    none does, the two letters stay (Ana and Alberto), and other initials are left alone."""
    for lang in ("en", "fr"):
        got = marks_of(page, lang, [["Ana", "Anabel", "Alberto"], ["Alberto", "Ana", "Ana", "Bea"],
                                    ["Ana", "Alberto", "Bea"], ["Ana", "A2", "Alberto"]])
        assert got == [{"0": "A1", "1": "A2", "2": "A3"},
                       {"0": "A1", "1": "A2", "2": "A3", "3": "B"},
                       {"0": "An", "1": "Al", "2": "B"},
                       {"0": "A1", "1": "A2", "2": "A3"}], (lang, got)


def four_owners(page: Any) -> dict[str, Any]:
    """A four-seat table's view on a 390 px phone with a meld laid by each seat (the drawing
    reads only its owner)."""
    page.set_viewport_size({"width": 390, "height": 844})
    view = Game.new("rummy", players=4, seed=3).view(0)
    view["table"] = [{"number": n + 1, "kind": "set", "cards": ["7H", "7S", "7D"], "owner": n}
                     for n in range(4)]
    return view


def test_the_table_draws_the_marks_apart(page: Any) -> None:
    """At the table on a phone, the avatars and the marks under the melds: Bea and "B2" beside
    the bot in seat 2 (in French Rémi and "R2"), Ana, Anabel and Alberto beside a bot."""
    view = four_owners(page)
    draw(page, "en", view, 0, ["Bea", "BOT", "B2", "Ana"])
    marks = page.evaluate(MARKS)
    assert marks == {"avatars": {"1": "B", "2": "B3", "3": "A"},
                     "melds": ["B1", "B2", "B3", "A"]}, marks
    draw(page, "fr", view, 0, ["Rémi", "BOT", "R2", "Ana"])
    marks = page.evaluate(MARKS)
    assert marks == {"avatars": {"1": "R", "2": "R3", "3": "A"},
                     "melds": ["R1", "R2", "R3", "A"]}, marks
    for lang, bot in (("en", "B4"), ("fr", "R4")):
        draw(page, lang, view, 0, ["Ana", "Anabel", "Alberto", "BOT"])
        marks = page.evaluate(MARKS)
        assert marks["melds"] == ["A1", "A2", "A3", bot], (lang, marks)


def test_the_waiting_rooms_marks_differ(page: Any) -> None:
    """In the waiting room, no person's avatar reads as another seat's: a lone Ben beside a bot
    read "B" as the bot's avatar does (in French Robert, "R"); the seat just taken, its
    person's name from the settings, counts as that person's."""
    got = page.evaluate(WAITING, ["en", ["Ben", "BOT", "B2", None], 0, "Ben"])
    assert got == ["B1", "B", "B3", "·"], got
    got = page.evaluate(WAITING, ["en", ["BOT", "Ana", None, None], 2, "Bo"])
    assert got == ["B", "A", "Bo", "·"], got
    got = page.evaluate(WAITING, ["fr", ["Robert", "BOT", None], 0, "Robert"])
    assert got == ["Ro", "R", "·"], got
    got = page.evaluate(WAITING, ["fr", ["Ben", "BOT", None], 0, "Ben"])
    assert got == ["B", "R", "·"], got
    assert not js_errors(page), page.js_errors


def test_random_tables_mark_everyone_apart(page: Any) -> None:
    """Over 400 random tables in each language, names mixing the letters that clash (B, R, l,
    1, 2, a digit or an emoji after the initial, "ß" whose capital is two letters): every
    person's mark of one or two characters, unlike every other seat's, one style per initial,
    the same whatever the seats' order."""
    for lang in ("en", "fr", "es"):
        wrong = page.evaluate(RANDOM_TABLES, [lang, 400])
        assert wrong == [], (lang, wrong)
