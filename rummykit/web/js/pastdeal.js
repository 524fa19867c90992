// The look back at a past deal: its results in a dialog over the table (#past-deal of
// index.html), closed when the turn becomes one's own or another game starts.
import { t } from "./i18n.js";
import { announce, h, tapActed } from "./ui.js";
import { isMyTurn } from "./tablestate.js";
import { dealResults, fromResult } from "./results.js";

/** The results of the deal at ``index`` of the view's ``results``, as its end screen showed
 * them, in a dialog over the table (``#past-deal`` of index.html): a game of several deals
 * left no way back to an earlier deal's hands once its screen was gone. Each result carries
 * what its screen showed (the hands, public once the deal was over, the wild rank, the
 * declarations, who was out and why), so the look back is drawn from it alone. ``key`` is the
 * ``data-key`` of the control that opened it, which takes the focus back as it closes. */
export function openPastDeal(S, index, key) {
  const v = S.view;
  const dlg = document.getElementById("past-deal");
  const results = (v && v.results) || [];
  const result = results[index];
  if (!dlg || !result || dlg.open) return;
  const { summary, table } = dealResults(S, result, { totals: Array.isArray(result.totals) ? result.totals : [], ...fromResult(result) });
  document.getElementById("past-deal-title").textContent = t("past.title", { n: result.deal });
  // in the table's language as it is now (the page's static words follow a change of it)
  dlg.querySelector("[data-action=past-close]").textContent = t("common.close");
  document.getElementById("past-deal-summary").replaceChildren(...summary);
  document.getElementById("past-deal-body").replaceChildren(h("div.table-scroll", {}, table));
  dlg.dataset.deal = String(result.deal);
  // the game it belongs to: a rematch (the rematch clock's, or the players' while a spectator
  // looks) brings another game's results under the same numbers
  S.pastDeal = { index, key, myTurn: isMyTurn(S), game: S.room ? S.room.game : null };
  dlg.addEventListener("close", () => {
    S.pastDeal = null;
    // emptied: its rows are the end screen's, and the page's lookups of those found two
    document.getElementById("past-deal-summary").replaceChildren();
    document.getElementById("past-deal-body").replaceChildren();
    // the control that opened it was drawn anew meanwhile (every state redraws the table):
    // its equal takes the focus, unless an end screen came and took the table out of reach
    // (a new game has no such row: the focus goes where the player is, not the page's start)
    const view = document.querySelector(".table-view");
    const back = (key ? document.querySelector(`.table-view [data-key="${CSS.escape(key)}"]`) : null)
      || (view && (view.querySelector(".hand .hand-card") || view.querySelector(".hand") || view.querySelector(".status")));
    if (back && !back.closest("[inert]") && !document.querySelector("dialog[open]")) back.focus({ preventScroll: true });
  }, { once: true });
  dlg.showModal();
  tapActed.yes = true;
  document.getElementById("past-deal-title").focus({ preventScroll: true });
}

/** After each drawing of the table: the look back closes itself when the turn becomes one's
 * own (docs/web.md, the decision), as it would hide the clock and the buttons while the
 * clock runs; a turn that was one's own as it was opened leaves it open. */
export function pastDealWatch(S) {
  const dlg = document.getElementById("past-deal");
  if (!dlg || !dlg.open || !S.pastDeal) return;
  if ((S.room ? S.room.game : null) !== S.pastDeal.game) {
    announce(t("past.closedForGame", { n: dlg.dataset.deal }));
    dlg.close();
    return;
  }
  const mine = isMyTurn(S);
  if (mine && !S.pastDeal.myTurn) {
    announce(t("past.closedForTurn", { n: dlg.dataset.deal }));
    dlg.close();
  } else {
    S.pastDeal.myTurn = mine;
  }
}

/** The look back closed as the table goes (the lobby, a replay): it belongs to the table. */
export function closePastDeal() {
  const dlg = document.getElementById("past-deal");
  if (dlg && dlg.open) dlg.close();
}
