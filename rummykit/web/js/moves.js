// The moves that ask or check before they go to the server: discard, lay down the selection,
// lay off on a meld (which end, or a joker swap), declare (with the cost of a wrong one), drop.
// It draws nothing but its dialogs.
import { t } from "./i18n.js";
import { chooseDialog, confirmDialog, toast } from "./ui.js";
import { pretty } from "./cards.js";
import { Arrangement } from "./hand.js";
import { translateReason } from "./reasons.js";
import { can, dropCost, rulesOf, selectedIds, selectedTexts } from "./tablestate.js";
import { fits, meldOrder } from "./meldfit.js";

export async function doDiscard(S, actions, id) {
  if (!id) {
    toast(t("action.pickOne"));
    return;
  }
  // this very card leaves the hand (not its twin of the other deck, wherever that one lies)
  S.arrangement.expectGone([id]);
  await actions.play(`discard ${Arrangement.textOf(id)}`);
  S.selected.clear();
  actions.render();
}

/** The opening action for these card ids: every arranged group holding some of them is one
 * meld, the loose ones one more (an opening is usually several melds). */
export function openingOf(S, ids) {
  const arr = S.arrangement;
  const rules = rulesOf(S.view);
  const chosen = new Set(ids);
  const melds = [];
  for (const g of arr.groups) {
    const picked = g.filter((id) => chosen.has(id)).map(Arrangement.textOf);
    if (picked.length) melds.push(meldOrder(picked, rules));
  }
  const loose = arr.loose.filter((id) => chosen.has(id)).map(Arrangement.textOf);
  if (loose.length) melds.push(meldOrder(loose, rules));
  return `open ${melds.map((m) => m.join(" ")).join(" / ")}`;
}

export async function openSelected(S, actions) {
  const ids = selectedIds(S);
  // these very cards leave the hand, not their twins of the other deck (see doDiscard)
  S.arrangement.expectGone(ids);
  const ok = await actions.play(openingOf(S, ids));
  if (ok) S.selected.clear();
  actions.render();
}

export async function layOff(S, actions, meld, id) {
  const v = S.view;
  const text = Arrangement.textOf(id);
  const f = fits(meld, text, v);
  const options = [];
  if (can(S, "layoff")) {
    if (f.ends.length > 1) {
      for (const end of f.ends) options.push({ label: t(`action.layoffEnd.${end}`, { card: pretty(text) }), value: `layoff ${meld.number} ${text} ${end}` });
    } else if (f.ends.length === 1) options.push({ label: t("action.layoffTo", { card: pretty(text), n: meld.number }), value: `layoff ${meld.number} ${text}` });
  }
  if (can(S, "swap") && f.swap) options.push({ label: t("action.swapJoker", { card: pretty(text) }), value: `swap ${meld.number} ${text}` });
  let action;
  if (!options.length) action = can(S, "layoff") ? `layoff ${meld.number} ${text}` : `swap ${meld.number} ${text}`;
  else if (options.length === 1) action = options[0].value;
  else action = await chooseDialog(t("action.chooseHow"), options);
  if (!action) return;
  S.arrangement.expectGone([id]);
  const ok = await actions.play(action);
  if (ok) S.selected.clear();
  actions.render();
}

export async function doDeclare(S, actions) {
  const d = S.view.declaration;
  if (d && d.valid && d.action) {
    const yes = await confirmDialog(t("declare.confirmTitle"), t("declare.confirmBody", { card: d.discard ? pretty(d.discard) : "" }), t("action.declare"), false);
    if (yes) await actions.play(d.action);
    return;
  }
  // the reason as a sentence of its own after the cost ("… leave the deal. Your cards …")
  const why = d && d.reason ? sentence(translateReason(d.reason)) : "";
  const warn = await confirmDialog(t("declare.wrongTitle"), `${wrongDeclarationCost(S.view)} ${why}`.trim(), t("declare.anyway"), true);
  if (!warn) return;
  // build the declaration from the arranged groups; the one card left out is the discard
  const arr = S.arrangement;
  const melds = arr.groups.map((g) => g.map(Arrangement.textOf));
  let left = arr.loose.map(Arrangement.textOf);
  if (left.length !== 1) {
    const sel = selectedTexts(S);
    if (sel.length === 1) {
      melds.forEach((m, i) => { const k = m.indexOf(sel[0]); if (k >= 0) melds[i].splice(k, 1); });
      left = sel;
    }
  }
  if (!melds.length) {
    toast(t("declare.arrangeFirst"), "error");
    return;
  }
  await actions.play(`declare ${melds.filter((m) => m.length).map((m) => m.join(" ")).join(" / ")}`);
}

/** What a wrong declaration costs at this table: the declarer leaves the deal, which goes on,
 * or under the house rule wrong_declaration_ends the deal ends there with no winner. The points
 * are the view's (a ruleset value a house rule may change), not a number the page knows. */
export function wrongDeclarationCost(view) {
  const ends = !!(view && view.options && view.options.wrong_declaration_ends);
  return t(ends ? "declare.wrongBodyEnds" : "declare.wrongBody", { n: view ? view.wrong_declaration : undefined });
}

/** A reason (a clause in lower case) as a sentence: a capital first letter and a full stop. */
export function sentence(text) {
  const s = String(text).trim();
  if (!s) return s;
  return s[0].toLocaleUpperCase() + s.slice(1) + (/[.!?…]$/.test(s) ? "" : ".");
}

export async function doDrop(S, actions) {
  const cost = dropCost(S);
  const yes = await confirmDialog(t("drop.title"), t("drop.body", { n: cost }), t("action.drop", { n: cost }), true);
  if (yes) await actions.play("drop");
}
