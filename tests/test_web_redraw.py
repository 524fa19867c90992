"""A state update on the table in the page (docs/web.md, *Heavy tables*): the parts of the table
that did not change stay the same nodes (neither laid out nor styled again), those that did are
drawn anew, and what it shows is what the table drawn whole shows."""

from __future__ import annotations

import copy
from typing import Any

from tests.test_web_heavy import SETUP, heavy_view
from tests.web_support import (
    PHONE,
    modules_page,  # noqa: F401 -- the module's `page`
)

# Draws ``views[0]``, focuses a card of the hand, then hands over each next view as a state
# update (a line more in the log each); after each, which parts are the same nodes as before
# it, where the focus is, and whether the page's HTML is that of the table drawn whole.
UPDATES_JS = """(views) => {
  const root = document.getElementById('drawn');
  root.replaceChildren();
  const d = window.__draw(views[0], 1);
  const names = ['.opponents', '.piles', '.melds', '.status', '.meter', '.actions', '.hand',
                 '.panel.scores', '.panel.log-panel', '.board', '.side'];
  let card = root.querySelector('.hand .hand-card');
  card.focus();
  const out = [];
  views.slice(1).forEach((view, i) => {
    const before = Object.fromEntries(names.map((n) => [n, root.querySelector(n)]));
    d.S.view = view;
    d.S.state = { version: view.version };
    d.S.log.push({ seat: 0, text: `Bot moved ${i}` });
    d.actions.render();
    const kept = Object.fromEntries(
      names.map((n) => [n, !!before[n] && before[n] === root.querySelector(n)]));
    const html = root.innerHTML;
    const focusKept = document.activeElement === card;
    // the table drawn whole from the same state, in a page that showed nothing
    const log = [...d.S.log];
    root.replaceChildren();
    const whole = window.__draw(view, 1);
    whole.S.log = log;
    root.replaceChildren();
    whole.actions.render();
    const same = root.innerHTML === html;
    // the page as it was, for the next update
    root.replaceChildren();
    d.actions.render();
    card = root.querySelector('.hand .hand-card');
    card.focus();
    out.push({ kept, same, focusKept, version: root.querySelector('section').dataset.version });
  });
  return out;
}"""


def opponent_moves() -> list[dict[str, Any]]:
    """Seat 0 to draw; seat 0 drew; seat 0 laid a meld; seat 0 discarded (seat 1 to draw)."""
    base = heavy_view(24)
    v0 = copy.deepcopy(base)
    v0["turn"] = {"seat": 0, "phase": "draw", "can": [], "owes": []}
    v1 = copy.deepcopy(v0)
    v1["version"] += 1
    v1["stock"] -= 1
    v1["seats"][0]["cards"] += 1
    v1["turn"] = {"seat": 0, "phase": "play", "can": [], "owes": []}
    v2 = copy.deepcopy(v1)
    v2["version"] += 1
    v2["seats"][0]["cards"] -= 3
    v2["table"] = v2["table"] + [{**v2["table"][0], "number": len(v2["table"]) + 1}]
    v3 = copy.deepcopy(v2)
    v3["version"] += 1
    v3["seats"][0]["cards"] -= 1
    v3["pile"] = [*v3["pile"], "9C"]
    v3["turn"] = {"seat": 1, "phase": "draw", "can": ["draw", "take"], "owes": []}
    return [v0, v1, v2, v3]


def test_a_state_update_keeps_the_parts_that_did_not_change(page: Any) -> None:
    """Every move of the others drew the whole table anew (some 1,200 elements at a full one,
    all laid out and styled again). A draw keeps the melds, the hand and the scores as the same
    nodes, a meld laid keeps the hand, and the keyboard focus stays on its card; the HTML is
    that of the table drawn whole at each."""
    page.set_viewport_size(PHONE)
    page.evaluate(SETUP)
    drew, laid, discarded = page.evaluate(UPDATES_JS, opponent_moves())
    for update in (drew, laid, discarded):
        assert update["same"], update
        assert update["focusKept"], update
        # the board and the side panel hold parts: their frame stays
        assert update["kept"][".board"] and update["kept"][".side"], update
    assert drew["version"] == str(opponent_moves()[1]["version"])
    kept = drew["kept"]
    assert kept[".melds"] and kept[".hand"] and kept[".panel.scores"], drew
    # what the draw changed is drawn anew: the stock's count, the drawer's cards, the log
    assert not kept[".piles"] and not kept[".opponents"] and not kept[".panel.log-panel"], drew
    assert laid["kept"][".hand"] and not laid["kept"][".melds"], laid
    # one's turn come: the actions and the status line change
    assert not discarded["kept"][".actions"] and not discarded["kept"][".status"], discarded


KEPT_HAND_JS = """(views) => {
  const root = document.getElementById('drawn');
  root.replaceChildren();
  const d = window.__draw(views[0], 1);
  const hand = root.querySelector('.hand');
  d.S.view = views[1];
  d.S.state = { version: views[1].version };
  d.actions.render();
  const kept = hand === root.querySelector('.hand');
  const card = root.querySelector('.hand .hand-card');
  card.click();
  const tapped = root.querySelector('.hand');
  // a new deal: the table is drawn whole
  d.S.view = views[2];
  d.S.state = { version: views[2].version };
  d.actions.render();
  const now = root.querySelector(`[data-id="${CSS.escape(card.dataset.id)}"]`);
  return { kept, pressed: now.getAttribute('aria-pressed'),
           selected: d.S.selected.has(card.dataset.id),
           newDeal: root.querySelector('.hand') !== tapped };
}"""


def test_a_kept_part_answers_taps_and_a_new_deal_draws_the_table_whole(page: Any) -> None:
    """A part kept through a state update takes on the listeners of the one drawn for the new
    state (a card of the kept hand tapped is selected); a new deal draws the table whole."""
    page.set_viewport_size(PHONE)
    page.evaluate(SETUP)
    views = opponent_moves()
    next_deal = copy.deepcopy(views[1])
    next_deal["deal"] += 1
    next_deal["version"] += 1
    got = page.evaluate(KEPT_HAND_JS, [views[0], views[1], next_deal])
    assert got["kept"] and got["selected"] and got["pressed"] == "true" and got["newDeal"], got
