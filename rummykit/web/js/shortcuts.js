// The table's keyboard shortcuts (D draw, T take, O lay down, X discard, 1–9 a meld, H the
// hand…), ignored while typing or while a dialog is open.
import { t } from "./i18n.js";
import { toast } from "./ui.js";
import { can, selectedIds } from "./tablestate.js";
import { layOff } from "./moves.js";

/** Shortcuts of the whole table (ignored while typing in a field or a dialog is open). */
export function handleKey(e, S, actions) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || document.querySelector("dialog[open]")) return;
  if (!S.view || !S.arrangement || S.route.name !== "room") return;
  const k = e.key.toLowerCase();
  const click = (name) => {
    const b = document.querySelector(`[data-action="${name}"]:not([disabled])`);
    if (b) {
      b.click();
      e.preventDefault();
      return true;
    }
    return false;
  };
  // a key whose move wants another selection: the button it stands for is disabled or not
  // there, which is seen but was not said (the key did nothing)
  const pick = (key) => { toast(t(key), "error"); e.preventDefault(); };
  const few = (verb) => can(S, verb) && selectedIds(S).length < 3;
  if (/^[1-9]$/.test(k)) {
    const sel = selectedIds(S);
    const meld = S.view.table.find((m) => m.number === Number(k));
    if (meld && sel.length === 1) {
      layOff(S, actions, meld, sel[0]);
      e.preventDefault();
    } else if (meld && (can(S, "layoff") || can(S, "swap"))) pick("action.pickOneLayoff");
    return;
  }
  switch (k) {
    case "d": click("draw"); break;
    case "t": click("take"); break;
    case "r": click("return-btn"); break;
    // cards selected to open with are the player's choice: the button for them carries the key
    // (aria-keyshortcuts), and O laid the meter's opening instead
    case "o": if (!click("open") && !click("open-meter") && few("open")) pick("action.pickThree"); break;
    case "m": if (!click("meld") && few("meld")) pick("action.pickThree"); break;
    case "x": if (!click("discard") && can(S, "discard")) pick("action.pickOne"); break;
    case "g": click("group"); break;
    case "p": click("pile-history"); break;
    // S sorts again by the hand's sort when a card was moved by hand since, else switches sort
    case "s": click((S.arrangement.sortMode === "suit") === S.arrangement.sorted ? "sort-rank" : "sort-suit"); break;
    case "h": {
      const hand = document.querySelector(".hand");
      if (hand) { hand.focus(); e.preventDefault(); }
      break;
    }
    case "escape": S.selected.clear(); actions.renderSelection(); break;
    default: break;
  }
}
