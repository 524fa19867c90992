// The stock, the discard pile with its history (who threw each card), the indicator and the
// wild rank it names, and the button that gives back a card taken.
import { t } from "./i18n.js";
import { h, spoken } from "./ui.js";
import { cardElement, parseCard, pretty, rankNumber } from "./cards.js";
import { Arrangement } from "./hand.js";
import { can, selectedIds, shortName } from "./tablestate.js";
import { rankLetter } from "./meldfit.js";
import { doDiscard } from "./moves.js";

export function pilesBox(S, actions) {
  const v = S.view;
  const canDraw = can(S, "draw");
  const canTake = can(S, "take");
  const canReturn = can(S, "return");
  const canDiscard = can(S, "discard");
  const stock = h(`button.stack.stock${canDraw ? ".live" : ""}`, {
    type: "button", "data-drop": "none", "data-drag": canDraw ? "stock" : null, "data-key": "stock",
    "data-action": "draw-stock", "aria-label": t("table.stockLabel", { n: v.stock }), disabled: !canDraw,
    onclick: () => canDraw && actions.play("draw"),
  }, cardElement("X", { faceDown: true }), h("span.stack-count", { text: String(v.stock) }));
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const under = v.pile.length > 1 ? v.pile[v.pile.length - 2] : null;
  const sel = selectedIds(S);
  const wild = rankNumber(v.wild_rank);
  const pileAction = canTake ? "take" : canDiscard && sel.length === 1 ? "discard" : null;
  const pile = h(`button.stack.pile${canTake || (canDiscard && sel.length === 1) ? ".live" : ""}`, {
    type: "button", "data-drop": "pile", "data-drag": canTake ? "pile" : null, "data-key": "pile",
    "data-action": "pile", "data-top": top || "",
    "aria-label": spoken(pileName(top, v.pile.length, pileAction, sel[0])),
    disabled: !pileAction,
    onclick: () => {
      if (pileAction === "take") actions.play("take");
      else if (pileAction === "discard") doDiscard(S, actions, sel[0]);
    },
  },
    under ? cardElement(under, { t, small: false, wild: wild && parseCard(under).rank === wild }) : null,
    top ? cardElement(top, { t, wild: wild && parseCard(top).rank === wild }) : h("span.empty-slot", { text: t("table.discardHere") }),
    h("span.stack-count", { text: String(v.pile.length) }));
  const box = h("div.piles", {},
    h("div.stack-wrap", {}, stock, h("span.stack-label", { text: t("table.stock") })),
    // the pile's label opens its history: every card in it, newest first, with who threw it
    // (the pile showed its top two cards, the rest was in the log's twelve lines at most)
    h("div.stack-wrap", {}, pile, h("button.stack-label.pile-toggle", {
      type: "button", "data-action": "pile-history", "data-key": "pile-history-toggle", "aria-keyshortcuts": "P",
      "aria-expanded": S.prefs && S.prefs.pileHistory ? "true" : "false", "aria-controls": "pile-history",
      title: t("table.pileHistory"),
      onclick: () => { S.prefs.pileHistory = !S.prefs.pileHistory; if (actions.savePrefs) actions.savePrefs(); actions.render(); },
    }, t("table.pile"), h("span.pile-caret", { "aria-hidden": "true", text: S.prefs && S.prefs.pileHistory ? " ▴" : " ▾" }))));
  if (v.indicator) {
    // once drawn from under the stock the indicator is in a hand: only the wild rank it named
    // stays on the table
    box.append(h("div.stack-wrap.indicator", {},
      v.indicator_drawn ? null : cardElement(v.indicator, { t }),
      h("span.stack-label", { "data-wild-label": "1", text: wildLabel(v) })));
  }
  if (canReturn) {
    box.append(h("button.btn.return", { type: "button", "data-action": "return", "data-key": "return", text: t("action.return"), onclick: () => actions.play("return") }));
  }
  return box;
}

/** Who threw each card of the pile (bottom to top, as ``pile``), from the deal's public events:
 * a seat, or null for a card nobody threw (dealt face up). The events are replayed on a stack
 * (a discard pushes, a take pops, a return or the clock's undo puts the taken card back) whose
 * top is matched with the pile's: a restock left only the pile's newest cards. */
export function pileThrowers(events, pile) {
  const stack = [];
  const taken = new Map();
  for (const e of events || []) {
    if (e.action === "discard" || e.action === "timeout") {
      if (e.action === "timeout" && e.undone && taken.has(e.seat)) stack.push(taken.get(e.seat));
      if (e.card) stack.push({ card: e.card, seat: e.seat });
      taken.delete(e.seat);
    } else if (e.action === "take") {
      const top = stack.length && stack[stack.length - 1].card === e.card ? stack.pop() : { card: e.card, seat: null };
      taken.set(e.seat, top);
    } else if (e.action === "return") {
      stack.push(taken.get(e.seat) || { card: e.card, seat: null });
      taken.delete(e.seat);
    }
  }
  const out = [];
  for (let i = pile.length - 1, j = stack.length - 1; i >= 0; i--, j--) {
    out.unshift(j >= 0 && stack[j].card === pile[i] ? stack[j].seat : null);
  }
  return out;
}

/** The pile's history, when opened from its label: every card, newest first, each with the
 * short name of who threw it. */
export function pileHistory(S) {
  const v = S.view;
  if (!S.prefs || !S.prefs.pileHistory) return null;
  const who = pileThrowers(S.events, v.pile);
  const wild = rankNumber(v.wild_rank);
  const items = v.pile.map((c, i) => {
    const s = who[i];
    const name = s === null || s === undefined ? t("table.pileDealt") : shortName(S, s);
    return h("li", { "data-card": c, "data-by": s ?? "" },
      cardElement(c, { t, small: true, wild: wild && parseCard(c).rank === wild }),
      h("span.pile-by", { text: name }));
  }).reverse();
  return h("ol.pile-history", { id: "pile-history", "aria-label": t("table.pileHistory"), tabindex: "0",
    "data-key": "pile-history", "data-scroll": "" },
  items.length ? items : h("li.pile-none", { text: t("table.pileEmpty") }));
}

/** The pile's name, with what pressing it does, as the stock's says "draw": it takes the top
 * card, or discards the selected one, and a screen reader heard only what lay on it. */
function pileName(top, n, pileAction, selectedId) {
  const what = top ? t("table.pileLabel", { card: pretty(top), n }) : t("table.pileEmpty");
  if (pileAction === "take") return t("common.labelValue", { label: what, value: t("action.take", { card: pretty(top) }) });
  if (pileAction === "discard") return t("common.labelValue", { label: what, value: t("action.discardCard", { card: pretty(Arrangement.textOf(selectedId)) }) });
  return what;
}

/** What the indicator names. A printed joker turned up names no rank of its own: the engine
 * makes the aces wild (its wild_rank), and "Wild jokers: A" beside a joker read as a mistake. */
function wildLabel(v) {
  const rank = v.wild_rank ? rankLabelOf(v.wild_rank) : "";
  const joker = parseCard(v.indicator).rank === 0 && rankNumber(v.wild_rank) === 1;
  const text = t(joker ? "table.wildRankJoker" : "table.wildRank", { rank });
  return v.indicator_drawn ? `${text} ${t("table.indicatorDrawn", { card: pretty(v.indicator) })}` : text;
}

function rankLabelOf(w) {
  const n = rankNumber(w);
  return n === 10 ? "10" : rankLetter(n);
}
