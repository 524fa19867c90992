"""The table at its heaviest (docs/web.md, *Heavy tables*): a redraw draws again only the meld
tiles whose meld, or what their look depends on, changed, and shows the same as a table drawn
afresh. Drawn by the page's own code from an engine view of a game bots played, its table
filled up with copies of its own melds as scripts/web_heavy.py does."""

from __future__ import annotations

from typing import Any

from tests.helpers import medium_game
from tests.web_support import (
    PHONE,
    modules_page,  # noqa: F401 -- the module's `page`
    with_drawn_root,
)

# ``window.__draw(view, you)``: a state object for ``view`` (Ana at ``you``, bots elsewhere)
# and its ``render``, drawn into a root of its own; ``window.__made(fn)``: how many elements
# the page's code makes while ``fn`` runs (document.createElement counted).
SETUP = with_drawn_root("""async () => {
  const i18n = await import('/static/js/i18n.js');
  const table = await import('/static/js/table.js');
  const { Arrangement } = await import('/static/js/hand.js');
  await i18n.loadLanguage('en');
${DRAWN_ROOT}
  window.__lang = (lang) => i18n.loadLanguage(lang);
  window.__draw = (view, you) => {
    const seats = view.seats.map((s) => s.seat === you
      ? { seat: s.seat, kind: 'human', name: 'Ana', connected: true }
      : { seat: s.seat, kind: 'bot', name: 'Bot', level: 'medium' });
    const S = { you, view, room: { room: 'HEAVY1', game: 1, status: 'playing', seats },
                state: { version: view.version }, status: 'online', selected: new Set(),
                log: [], events: [], clock: null, prefs: {}, pending: false, variants: null,
                route: { name: 'room' } };
    S.arrangement = new Arrangement(null);
    S.arrangement.reconcile(view.hand || [], '1.1');
    const actions = { render() { table.renderTable(root, S, actions); },
                      renderSelection() { table.renderTable(root, S, actions, true); },
                      play() {}, say() {} };
    actions.render();
    return { S, actions };
  };
  window.__made = (fn) => {
    const make = document.createElement;
    let n = 0;
    document.createElement = function (...a) { n += 1; return make.apply(this, a); };
    try { fn(); } finally { document.createElement = make; }
    return n;
  };
  window.__melds = () => document.querySelector('#drawn .melds').outerHTML;
}""")


def heavy_view(melds: int) -> dict[str, Any]:
    """A rami71 view of seat 1 on its turn to lay off, the table filled up to ``melds``."""
    game = medium_game("rami71", 2, 1, deal_next=False)
    view = game.view(1)
    table = view["table"]
    assert table, "the deal left no meld on the table"
    extra = [{**table[i % len(table)], "number": len(table) + i + 1}
             for i in range(melds - len(table))]
    # a hand of its own: the deal is over, and its last hands are empty or nearly
    hand = [f"{r}{s}" for s in "HS" for r in "A23456789TJQK"][:14]
    return {**view, "table": table + extra, "hand": hand,
            "turn": {"seat": 1, "phase": "play", "can": ["layoff", "discard"], "owes": []}}


def test_a_redraw_makes_no_element_for_the_melds_that_did_not_change(page: Any) -> None:
    """At every move of the others and every card tapped the table was drawn anew, its melds
    too: at 24 melds a redraw made some 270 elements more than at 12. It makes as many at
    either: an unchanged meld's tile is a copy of the one drawn before."""
    page.set_viewport_size(PHONE)
    page.evaluate(SETUP)
    made = []
    for melds in (12, 24):
        made.append(page.evaluate(
            """(view) => { const d = window.__draw(view, 1);
                 return window.__made(() => d.actions.render()); }""",
            heavy_view(melds),
        ))
    assert made[0] == made[1], made


def test_the_melds_redrawn_are_those_drawn_afresh(page: Any) -> None:
    """What a redraw shows of the melds is what a table drawn afresh shows: after a card is
    selected (the melds it fits outlined and named so), unselected, the language changed and a
    bot's seat taken by a person."""
    page.set_viewport_size(PHONE)
    page.evaluate(SETUP)
    view = heavy_view(24)
    page.evaluate("(view) => { window.__kept = window.__draw(view, 1); }", view)
    same = """async ([view, lang, name, pick]) => {
      await window.__lang(lang);
      const kept = window.__kept;
      const seat0 = name === 'Bot' ? null : { seat: 0, kind: 'human', name, connected: true };
      if (seat0) kept.S.room.seats[0] = seat0;
      kept.S.selected = new Set(pick ? [pick] : []);
      kept.actions.render();
      const redrawn = window.__melds();
      const fresh = window.__draw(view, 1);
      if (seat0) fresh.S.room.seats[0] = { ...seat0 };
      fresh.S.selected = new Set(pick ? [pick] : []);
      fresh.actions.render();
      const drawn = window.__melds();
      window.__kept.actions.render();  // the kept one's root again, for the next step
      return { same: redrawn === drawn, fits: document.querySelectorAll('.meld-tile.fits').length };
    }"""
    ids = page.evaluate("() => window.__kept.S.arrangement.all()")
    fitted = 0
    for card_id in ids:
        got = page.evaluate(same, [view, "en", "Bot", card_id])
        assert got["same"], card_id
        fitted += got["fits"]
    assert fitted > 0  # some card of the hand fits some meld: the outlined tiles were compared
    for lang, name, pick in (("en", "Bot", None), ("fr", "Bot", None), ("fr", "Robi", None),
                             ("es", "Robi", ids[0])):
        assert page.evaluate(same, [view, lang, name, pick])["same"], (lang, name, pick)


TAPS_JS = """(view) => {
  const d = window.__draw(view, 1);
  const root = document.getElementById('drawn');
  const at = (sel) => root.querySelector(sel);
  const out = [];
  for (const id of d.S.arrangement.all()) {
    d.S.selected.clear();
    d.actions.render();
    const before = { players: at('.opponents'), side: at('.side'), status: at('.status'),
                     melds: at('.melds') };
    at(`[data-id="${CSS.escape(id)}"]`).click();
    const tapped = root.innerHTML;
    const r = { id, pressed: at(`[data-id="${CSS.escape(id)}"]`).getAttribute('aria-pressed'),
                fits: root.querySelectorAll('.meld-tile.fits').length };
    for (const [name, el] of Object.entries(before)) r[name] = el === at(`.${el.classList[0]}`);
    d.actions.render();
    r.same = tapped === root.innerHTML;
    out.push(r);
  }
  return out;
}"""


def test_a_card_tapped_draws_again_only_what_the_selection_changes(page: Any) -> None:
    """A card tapped drew the whole table anew, some 1,200 nodes laid out and styled again
    (200-300 ms at four times slower to show it selected): it draws again only the piles, the
    melds, the meter, the actions and the hand, and the melds only where a tile's look changed
    (the card fits it). What it shows is what the table drawn whole shows."""
    page.set_viewport_size(PHONE)
    page.evaluate(SETUP)
    taps = page.evaluate(TAPS_JS, heavy_view(24))
    assert len(taps) == 14
    for tap in taps:
        assert tap["pressed"] == "true" and tap["same"], tap
        assert tap["players"] and tap["side"] and tap["status"], tap
        # a card that fits no meld changes no tile: the melds' box is the same node
        if not tap["fits"]:
            assert tap["melds"], tap
    assert any(tap["fits"] for tap in taps) and not all(tap["fits"] for tap in taps)
