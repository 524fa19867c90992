// The action buttons of a turn (draw, take, lay down, discard, declare, drop…) and the hand's
// tools (group, clear, the sorts).
import { t } from "./i18n.js";
import { h, spoken } from "./ui.js";
import { pretty } from "./cards.js";
import { can, dropCost, rulesOf, selectedIds, selectedTexts } from "./tablestate.js";
import { meldOrder } from "./meldfit.js";
import { doDeclare, doDiscard, doDrop, openSelected } from "./moves.js";

export function actionBar(S, actions) {
  const v = S.view;
  const sel = selectedTexts(S);
  const btns = [];
  const b = (name, label, onclick, opts = {}) => h(`button.btn${opts.primary ? ".primary" : ""}${opts.danger ? ".danger" : ""}`, {
    type: "button", "data-action": name, "data-key": `act-${name}`, text: label, onclick, disabled: opts.disabled || false,
    title: opts.title || null, "aria-keyshortcuts": opts.key || null,
    "aria-label": label.includes("★") ? spoken(label) : null,
  });
  if (can(S, "draw")) btns.push(b("draw", t("action.draw"), () => actions.play("draw"), { primary: true, key: "D" }));
  if (can(S, "take")) btns.push(b("take", t("action.take", { card: v.pile.length ? pretty(v.pile[v.pile.length - 1]) : "" }), () => actions.play("take"), { key: "T" }));
  if (can(S, "return")) btns.push(b("return-btn", t("action.return"), () => actions.play("return"), { key: "R" }));
  const rules = rulesOf(v);
  if (can(S, "open") && sel.length >= 3) btns.push(b("open", t("action.openSelected"), () => openSelected(S, actions), { primary: true, key: "O" }));
  if (can(S, "meld") && sel.length >= 3) btns.push(b("meld", t("action.meld"), () => { S.arrangement.expectGone(selectedIds(S)); actions.play(`meld ${meldOrder(sel, rules).join(" ")}`); }, { primary: true, key: "M" }));
  // told to screen readers only: shown, it came with the first card tapped and, a line or more
  // long, pushed the hand down under the finger (and back up at the second). The melds that take
  // the card are outlined, and the opened player's meter already says "lay off on any meld".
  if ((can(S, "layoff") || can(S, "swap")) && sel.length === 1 && v.table.length) btns.push(h("span.hint.visually-hidden", { text: t("action.layoffHint") }));
  if (can(S, "discard")) btns.push(b("discard", sel.length === 1 ? t("action.discardCard", { card: pretty(sel[0]) }) : t("action.discard"),
    () => doDiscard(S, actions, selectedIds(S)[0]), { disabled: sel.length !== 1, key: "X", primary: sel.length === 1 }));
  // "declare" is in turn.can only when a valid declaration exists; a wrong one is still a move
  // the rules allow (it costs the view's wrong_declaration), so the button is there on every
  // play phase, with a warning
  const mayDeclare = can(S, "declare") || (v.variant === "indian" && can(S, "discard"));
  if (mayDeclare) btns.push(b("declare", t("action.declare"), () => doDeclare(S, actions), { primary: !!(v.declaration && v.declaration.valid) }));
  if (can(S, "drop")) btns.push(b("drop", t("action.drop", { n: dropCost(S) }), () => doDrop(S, actions), { danger: true }));
  // hand tools: those for the selected cards first, then the sorts. Those for a selection are
  // there without one too, disabled and "idle": a phone's row wraps, and tools that came with the
  // first card tapped added a line that pushed the hand down under the finger. Wider screens hide
  // idle tools (app.css): there the row shares its line with the turn's buttons, and two more
  // pushed the hand below the first screen of a phone held sideways.
  const tools = [];
  // an empty hand (a pool player out of the game watches the others with none) has nothing to
  // group or sort: the four tools were there, two of them pressable, doing nothing
  const empty = !S.arrangement || S.arrangement.all().length === 0;
  const none = sel.length === 0;
  const idle = (el) => { if (none) el.classList.add("idle"); return el; };
  // the sort the loose cards keep as cards are drawn (Arrangement.sorted) is shown pressed: a
  // card moved by hand ends it, and neither is pressed
  const sorting = (el, mode) => {
    el.setAttribute("aria-pressed", S.arrangement && S.arrangement.sorted && S.arrangement.sortMode === mode ? "true" : "false");
    return el;
  };
  if (!empty) tools.push(
    idle(b("group", t("hand.group"), () => { S.arrangement.group(selectedIds(S)); S.selected.clear(); actions.render(); }, { key: "G", disabled: none })),
    idle(b("clear", t("hand.clearSelection"), () => { S.selected.clear(); actions.renderSelection(); }, { disabled: none })),
    sorting(b("sort-suit", t("hand.sortSuit"), () => { S.arrangement.sortLoose("suit"); actions.render(); }), "suit"),
    sorting(b("sort-rank", t("hand.sortRank"), () => { S.arrangement.sortLoose("rank"); actions.render(); }), "rank"),
  );
  if (S.arrangement && S.arrangement.groups.length) tools.push(b("ungroup", t("hand.ungroupAll"), () => { S.arrangement.ungroupAll(); actions.render(); }));
  return h("div.actions", { role: "toolbar", "aria-label": t("action.toolbar") },
    h("div.verbs", {}, btns), h("div.tools", {}, tools));
}
