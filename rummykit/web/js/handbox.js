// One's own hand: the arranged groups with what each is worth or why it is no meld, the loose
// cards, the place to drop a new group, and the keys that move through it.
import { t } from "./i18n.js";
import { h, listen } from "./ui.js";
import { cardElement, parseCard, pretty, rankNumber } from "./cards.js";
import { checkMeld, meldSpan } from "./melds.js";
import { Arrangement } from "./hand.js";
import { isMyTurn, outOfGame, rulesOf } from "./tablestate.js";

export function handBox(S, actions) {
  const v = S.view;
  const arr = S.arrangement;
  if (!arr) return null;
  const rules = rulesOf(v);
  const wild = rankNumber(v.wild_rank);
  // a house rule may say otherwise than the variant (the view's options name it)
  const jokersZero = v.options?.jokers_zero ?? v.variant === "rami71";
  const cardBtn = (id, gi) => {
    const text = Arrangement.textOf(id);
    const c = parseCard(text);
    const selected = S.selected.has(id);
    const el = cardElement(c, { tag: "button", t, wild: wild && c.rank === wild });
    el.type = "button";
    el.classList.add("hand-card");
    if (selected) el.classList.add("selected");
    if (arr.fresh.has(id)) el.classList.add("fresh");
    if (v.turn && v.turn.owes && v.turn.owes.includes(text) && isMyTurn(S)) el.classList.add("owed");
    el.dataset.id = id;
    el.dataset.key = `card-${id}`;
    el.dataset.drag = "card";
    el.dataset.drop = "hand-card";
    el.dataset.group = gi;
    el.setAttribute("aria-pressed", selected ? "true" : "false");
    el.tabIndex = -1;
    listen(el, "click", () => {
      if (S.selected.has(id)) S.selected.delete(id);
      else S.selected.add(id);
      actions.renderSelection();
    });
    return el;
  };
  const groups = arr.groups.map((g, gi) => {
    const cards = arr.cards(g);
    const check = checkMeld(cards, rules, jokersZero);
    let label;
    let cls = "bad";
    if (check.ok) {
      cls = "good";
      if (v.variant === "indian") label = check.kind === "run" ? (check.pure ? t("meld.kind.pure") : t("meld.kind.impure")) : t("meld.kind.set");
      else label = t("meld.good", { kind: t(`meld.kind.${check.kind}`), span: meldSpan(check), points: check.value });
    } else {
      label = t(`meld.why.${check.code}`, { ...check.params, suit: check.params.suit !== undefined ? t(`suit.${["spades", "hearts", "diamonds", "clubs"][check.params.suit]}`) : "",
        card: check.params.card ? pretty(check.params.card) : "", prev: check.params.prev ? pretty(check.params.prev) : "" });
    }
    return h(`div.group.${cls}`, { "data-drop": "group", "data-group": gi, role: "group", "aria-label": label },
      h("div.group-label", { "data-drag": "group", "data-group": gi, title: t("hand.dragGroup") },
        h("span.group-mark", { "aria-hidden": "true", text: check.ok ? "✓" : "✗" }),
        // cut to a line on a phone held sideways (app.css): whole in the title, as in the name
        h("span.group-text", { "data-group-label": gi, title: label, text: label }),
        h("button.group-x", { type: "button", "aria-label": t("hand.ungroup"), title: t("hand.ungroup"), text: "×",
          onclick: (e) => { e.stopPropagation(); arr.ungroup(gi); actions.render(); } })),
      h("div.group-cards", {}, g.map((id) => cardBtn(id, gi))));
  });
  // a pool player out of the game is dealt no more cards: "Your hand (0)" over nothing read as
  // a hand lost, or still to come. The line that says they watch stands in its place, between
  // deals too, and is what H reaches (meterBar in meter.js leaves it to the hand)
  if (outOfGame(v, S.you) && arr.all().length === 0) {
    return h("div.hand.hand-out", { role: "group", "aria-label": t("hand.label"), tabindex: 0, "data-key": "hand" },
      h("div.meter.out", { "data-out": "eliminated" }, h("span", { text: t("table.outOfGame") })));
  }
  const loose = h("div.group.loose", { "data-drop": "group", "data-group": -1, role: "group", "aria-label": t("hand.loose") },
    h("div.group-label", {}, h("span.group-text", { text: arr.groups.length ? t("hand.loose") : t("hand.yourHand", { n: arr.all().length }) })),
    h("div.group-cards", {}, arr.loose.map((id) => cardBtn(id, -1))));
  const newZone = h("div.new-group", { "data-drop": "new-group", "aria-hidden": "true" }, h("span", { text: t("hand.dropNewGroup") }));
  const hand = h("div.hand", { "data-drop": "hand", role: "group", "aria-label": t("hand.label"), tabindex: 0, "data-key": "hand",
    onkeydown: (e) => handKeys(e, S, actions) }, groups, loose, newZone);
  return hand;
}

function handKeys(e, S, actions) {
  const arr = S.arrangement;
  const ids = arr.all();
  const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.id;
  let i = focused ? ids.indexOf(focused) : -1;
  const focusAt = (k) => {
    const id = ids[Math.max(0, Math.min(ids.length - 1, k))];
    const el = document.querySelector(`[data-id="${CSS.escape(id)}"]`);
    if (el) el.focus();
  };
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    const dir = e.key === "ArrowRight" ? 1 : -1;
    if (e.shiftKey && focused) {
      arr.nudge(focused, dir);
      actions.render();
      const el = document.querySelector(`[data-id="${CSS.escape(focused)}"]`);
      if (el) el.focus();
    } else focusAt(i < 0 ? 0 : i + dir);
    e.preventDefault();
    e.stopPropagation();
  } else if (e.key === "Home" || e.key === "End") {
    focusAt(e.key === "Home" ? 0 : ids.length - 1);
    e.preventDefault();
  } else if ((e.key === " " || e.key === "Enter") && focused) {
    if (S.selected.has(focused)) S.selected.delete(focused);
    else S.selected.add(focused);
    actions.renderSelection();
    const el = document.querySelector(`[data-id="${CSS.escape(focused)}"]`);
    if (el) el.focus();
    e.preventDefault();
    e.stopPropagation();
  } else if (e.target.classList.contains("hand") && !focused && ids.length && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
    focusAt(0);
    e.preventDefault();
  }
}
