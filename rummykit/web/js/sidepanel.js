// The side panel: the scores, what the game is played to, each deal's line, the score sheet
// after each deal, and the log with its Say button.
import { t } from "./i18n.js";
import { h, withJokerNames } from "./ui.js";
import { houseRulesLine, optionsSummary } from "./lobby.js";
import { outOfGame, seatName, teamsGame } from "./tablestate.js";
import { panelLog } from "./tablelog.js";
import { dealSummary } from "./results.js";
import { openPastDeal } from "./pastdeal.js";

// A number for each line of the log, the same at every drawing: the lines are the log's own
// objects (S.log), kept from move to move.
const lineIds = new WeakMap();
let lines = 0;
function lineId(line) {
  if (!lineIds.has(line)) lineIds.set(line, ++lines);
  return lineIds.get(line);
}

export function sidePanel(S, actions) {
  const v = S.view;
  const teams = teamsGame(v);
  const rows = [];
  if (teams) {
    for (let side = 0; side < 2; side++) {
      // one's own name first, as "You (Ana)" comes in any seat: in seat 3 or 4 it came second,
      // capitalised inside the phrase ("Ana et Vous (Ben)", "Ana y Tú (Ben)")
      const mine = S.you === side || S.you === side + 2;
      const [a, b] = S.you === side + 2 ? [side + 2, side] : [side, side + 2];
      rows.push(h(`tr${mine ? ".mine" : ""}`, { "data-score-side": side },
        h("th", { scope: "row", text: t("score.side", { a: seatName(S, a), b: seatName(S, b) }) }),
        h("td", { text: String(v.scores[side] ?? 0) })));
    }
  } else {
    for (let s = 0; s < v.players; s++) {
      // a pool player out of the game keeps their total: marked in words, as the end screen
      // does, it no longer read as a rival still in the race
      const gone = outOfGame(v, s);
      rows.push(h(`tr${s === S.you ? ".mine" : ""}${gone ? ".out" : ""}`, {},
        h("th", { scope: "row" }, seatName(S, s), gone ? " " : null, gone ? h("span.badge.out", { "data-out-mark": s, text: t("seat.out.eliminated") }) : null),
        h("td", { "data-score-seat": s, text: String(v.scores[s] ?? 0) })));
    }
  }
  // until the score sheet shows (its rows open each deal's results), the deal's line has a
  // button of its own: in the second deal, the first one's hands were out of reach
  const sheet = scoreSheet(S, teams);
  const deals = (v.results || []).map((r, i) => h("li", { "data-deal-result": r.deal },
    t("table.dealResult", { n: r.deal, result: dealSummary(S, r) }),
    r.double ? h("span.badge.double", { text: t("end.double") }) : null,
    r.blocked ? h("span.badge.blocked", { text: t("end.blocked") }) : null,
    sheet ? null : [" ", h("button.btn.small.ghost.deal-open", { type: "button", "data-key": `deal-open-${i}`, "data-past-deal": i, "aria-haspopup": "dialog",
      "aria-label": t("past.open", { n: r.deal }), text: t("past.button"), onclick: () => openPastDeal(S, i, `deal-open-${i}`) })]));
  // it scrolls, so the keyboard can reach it (kept through redraws while it has the focus)
  // each line marked as itself (data-anchor), so one read in a scrolled log stays in sight as
  // the others' moves come above it (scrollBack in ui.js)
  const log = h("ol.log", { "aria-label": t("table.log"), tabindex: "0", "data-key": "log", "data-keep": "content", "data-scroll": "" }, panelLog(S.log).map((l) => (l.deal || l.before
    ? h("li.log-deal", l.before ? { "data-log-before": "", "data-anchor": lineId(l), text: l.text } : { "data-log-deal": l.deal, "data-anchor": lineId(l), text: l.text })
    : h(`li${l.seat === S.you ? ".mine" : ""}${l.said ? ".said-line" : ""}`, { "data-anchor": lineId(l) }, l.said ? l.text : withJokerNames(l.text)))));
  return h("aside.side", {},
    h("div.panel.scores", {},
      h("h2", { text: t("table.scores") }),
      h("p.muted.small", { text: `${t(`variant.${v.variant}.name`)} · ${t("table.dealN", { n: v.deal })} · ${optionsSummary(v.variant, v.options)}` }),
      // Rami: the total that loses the game, as the engine's view gives it
      gameGoal(v, teams),
      v.dealer !== null && v.dealer !== undefined ? h("p.muted.small", { "data-dealer-legend": v.dealer, text: t("table.dealerIs", { short: t("seat.dealerShort"), name: seatName(S, v.dealer) }) }) : null,
      houseRulesLine(v.variant, v.options, S.variants, "p.muted.small.house-line"),
      h("table", {}, h("tbody", {}, rows)),
      deals.length ? h("ol.deal-list", { "aria-label": t("table.deals") }, deals) : null,
      sheet),
    h("div.panel.log-panel", {}, h("div.log-head", {}, h("h2", { text: t("table.log") }),
      // quick messages are a seated person's: a spectator watches
      S.you !== null && S.you !== undefined
        ? h("button.btn.small.ghost", { type: "button", "data-action": "say", "data-key": "say", text: t("say.button"), onclick: () => actions.say() })
        : null), log));
}

/** The game's sheet: the totals after each deal (the engine's ``results[].totals``), one
 * column a player (a side in 2 v 2), from the second deal on (with one, the totals above say it
 * all). It scrolls sideways on a phone at a table of six rather than push the panel wider. */
function scoreSheet(S, teams) {
  const v = S.view;
  // each with its place in the view's results, which the look back at it reads
  const results = (v.results || []).map((r, i) => ({ ...r, index: i })).filter((r) => Array.isArray(r.totals) && r.totals.length);
  if (results.length < 2) return null;
  const columns = teams && results[0].totals.length === 2
    ? [0, 1].map((side) => ({ key: side, name: t("score.side", { a: seatName(S, side), b: seatName(S, side + 2) }), mine: S.you === side || S.you === side + 2 }))
    : Array.from({ length: v.players }, (_, s) => ({ key: s, name: seatName(S, s), mine: s === S.you, out: outOfGame(v, s) }));
  const head = h("tr", {}, h("th", { scope: "col", text: t("table.sheetDeal") }),
    columns.map((c) => h(`th${c.mine ? ".mine" : ""}`, { scope: "col", title: c.name }, h("span.sheet-name", { text: c.name }),
      c.out ? " " : null, c.out ? h("span.badge.out", { "data-out-mark": c.key, text: t("seat.out.eliminated") }) : null)));
  // a row opens its deal's results (openPastDeal in pastdeal.js): a tap anywhere on it, and
  // its number is the button that the keyboard and a screen reader reach, named for what it
  // opens
  const rows = results.map((r) => h("tr.sheet-row", { "data-sheet-deal": r.deal, onclick: () => openPastDeal(S, r.index, `sheet-deal-${r.index}`) },
    h("th", { scope: "row" }, h("button.sheet-open", { type: "button", "data-key": `sheet-deal-${r.index}`, "data-past-deal": r.index,
      "aria-haspopup": "dialog", "aria-label": t("past.open", { n: r.deal }), title: t("past.open", { n: r.deal }), text: String(r.deal) })),
    columns.map((c) => h(`td${c.mine ? ".mine" : ""}`, { text: String(r.totals[c.key] ?? "").replace("-", "\u2212") }))));
  // the title is above the box and names the table: a caption is as wide as its table, and at
  // six seats on a phone it was cut at the box's edge with the columns ("…après chaque don");
  // the box that may scroll is in the keyboard's reach, and named for it
  return h("div.sheet-box", {},
    h("p.sheet-title", { id: "sheet-title", text: t("table.sheet") }),
    h("div.sheet-wrap", { "data-key": "sheet", "data-scroll": "", tabindex: "0", role: "region", "aria-label": t("table.sheet") },
      h("table.sheet", { "aria-labelledby": "sheet-title" }, h("thead", {}, head), h("tbody", {}, rows))));
}

/** What the game is played to, from the engine's view (a house rule may change any of it): the
 * lobby's words are not seen by a friend who opens the table's link. */
function gameGoal(v, teams) {
  if (typeof v.limit === "number") {
    // Rami: a side loses at the limit; an Indian pool: a player is out past it
    const key = v.variant === "indian" ? "table.poolLimit" : teams ? "table.limitSide" : "table.limit";
    return h("p.muted.small", { "data-limit": v.limit, "data-goal": "limit", text: t(key, { n: v.limit }) });
  }
  if (typeof v.target === "number") {
    return h("p.muted.small", { "data-goal": "target", text: t("table.target", { n: v.target }) });
  }
  const c = v.deal_count;
  if (c && typeof c.total === "number") {
    if (c.total === 1) return h("p.muted.small", { "data-goal": "one-deal", text: t("table.oneDeal") });
    // between deals the finished one has counted already; a void deal is played again
    const n = Math.min(c.total, v.turn ? c.played + 1 : Math.max(1, c.played));
    return h("p.muted.small", { "data-goal": "deals", text: t("table.dealOf", { n, total: c.total }) });
  }
  return null;
}
