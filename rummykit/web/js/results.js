// A finished deal's results: the line saying who won and what it was worth, and the table of
// hands, points and totals that the end-of-deal screen (endscreen.js) and the look back at a
// past deal (pastdeal.js) draw alike.
import { t } from "./i18n.js";
import { h } from "./ui.js";
import { cardElement, parseCard, rankNumber } from "./cards.js";
import { seatName, teamsGame } from "./tablestate.js";

/** Who won a deal, and what it was worth: the winner's points in rummy, what the others pay in
 * Rami and Indian rummy (there the winner scores nothing). */
export function dealSummary(S, r) {
  const nobody = r.winner === null || r.winner === undefined;
  const won = nobody ? t("end.noWinner")
    : r.winner === S.you ? t("end.youWinDeal") : t("end.dealWinner", { who: seatName(S, r.winner) });
  if (r.points === undefined) return won;
  // With no winner nobody collects: only a wrong declaration that ended the deal (Indian, the
  // house rule wrong_declaration_ends) costs anything, and only its declarer pays. "The others
  // pay 80 points" told the players who paid nothing that they had.
  if (nobody) return r.how === "wrong-declaration" ? `${won} ${t("end.wrongPaid", { n: r.points })}` : won;
  // "Points: 4." beside a total of 0 read as the newcomer's own 4 points: in rummy the winner
  // collects what the cards left in the other hands are worth
  if (S.view.variant === "rummy") return `${won} ${t("end.points", { n: r.points })}`;
  // in 2 v 2 the winner's partner pays nothing: "the others" would take it in
  if (teamsGame(S.view)) return `${won} ${t("end.rivalsPaid", { n: r.points })}`;
  // "The others pay 80 points" read as 80 each: the points are what the losers pay together,
  // so a lone payer is named and several are said to pay it in all
  const payers = (r.penalties || []).map((p, seat) => (seat !== r.winner && p > 0 ? seat : null)).filter((s) => s !== null);
  if (payers.length === 1) {
    const who = payers[0];
    return `${won} ${who === S.you ? t("end.youPaid", { n: r.points }) : t("end.onePaid", { who: seatName(S, who), n: r.points })}`;
  }
  return `${won} ${t("end.paid", { n: r.points })}`;
}

/** A seat's name in a row of the results: a bot's level kept whole ("(moyen)"). The name may
 * break anywhere on a phone (a long name without spaces must), and at a 2 v 2 table of a 320 px
 * French phone "Robot 2 (moyen)" broke before its last character, ")" alone on a line. */
function rowName(S, s) {
  const name = seatName(S, s);
  const seat = S.room && S.room.seats[s];
  const m = seat && seat.kind === "bot" ? /^(.*\s)(\([^()\s]+\))$/.exec(name) : null;
  return m ? [m[1], h("span.name-level", { text: m[2] })] : name;
}

/** A finished deal's results as the end screens show them: who won and what it was worth,
 * then a row a seat with the hand left, its points and the total after the deal. The end of a
 * deal's screen and the look back at a past deal (``openPastDeal``) draw it alike. ``totals``
 * are the totals to show (one a side in 2 v 2); ``wild`` the deal's wild rank, if known;
 * ``declaredBy(seat)`` the ``declare`` event whose melds a hand is shown in, or null;
 * ``out(seat)`` why a seat is out, if it is; ``notDealt(seat)`` whether it was dealt no cards. */
export function dealResults(S, result, { totals, wild = null, declaredBy = () => null, out = () => undefined, notDealt = () => false }) {
  const v = S.view;
  const teams = teamsGame(v);
  const marks = [];
  if (result.double) marks.push(h("span.badge.double", { text: t("end.double") }));
  if (result.blocked) marks.push(h("span.badge.blocked", { text: t("end.blocked") }));
  const cardsOf = (cards) => cards.map((c) => cardElement(c, { t, small: true, wild: wild && parseCard(c).rank === wild }));
  const rows = [];
  for (let s = 0; s < v.players; s++) {
    const hand = (result.hands && result.hands[s]) || [];
    const declared = declaredBy(s);
    const groups = declared ? declared.melds : null;
    const pen = result.penalties && !notDealt(s) ? result.penalties[s] : null;
    const total = teams && totals.length === 2 ? totals[s % 2] : totals[s];
    const why = out(s);
    rows.push(h(`tr${s === result.winner ? ".winner" : ""}`, { "data-result-seat": s },
      h("th", { scope: "row" }, rowName(S, s), s === result.winner ? h("span.badge.win", { text: t("end.winnerMark") }) : null,
        why ? h("span.badge.out", { text: t(`seat.out.${why}`) }) : null),
      // the flex box inside the cell: a flex cell is no table cell, and its row's borders and
      // colour then stopped short of it
      h("td", {}, groups
        ? h("div.end-hand.grouped", { "data-declared": declared.valid === false ? "wrong" : "valid" }, groups.map((m) => h("span.end-group", {}, cardsOf(String(m).split(/\s+/)))))
        : h("div.end-hand", {}, cardsOf(hand))),
      h("td", { "data-penalty": s, text: pen === null || pen === undefined ? "\u2014" : String(pen) }),
      // a total below zero (collected points under a wrong declaration) in the minus sign the
      // page writes elsewhere, not a hyphen
      h("td", { text: total === undefined ? "" : String(total).replace("-", "\u2212") })));
  }
  const table = h("table.results", {},
    h("thead", {}, h("tr", {}, h("th", { text: t("end.player") }), h("th", { text: t("end.hand") }), h("th", { text: t("end.penalty") }), h("th", { text: teams ? t("end.sideTotal") : t("end.total") }))),
    h("tbody", {}, rows));
  return { summary: [dealSummary(S, result), " ", ...marks], table };
}

/** ``dealResults``' options for a finished deal, from its result alone (the engine keeps in
 * each what showing the deal again needs, docs/engine.md): its wild rank, why each seat was out
 * (out of the game once the deal was scored, else dropped or declared wrongly), a seat out of
 * the game before it not dealt in (nothing to pay, no 0), and the melds of its declarations: a
 * wrong one, and the winner's when the deal ended with it. */
export function fromResult(result) {
  const outs = Array.isArray(result.out) ? result.out : [];
  const gone = Array.isArray(result.eliminated) ? result.eliminated : [];
  const declared = Array.isArray(result.declarations) ? result.declarations : [];
  return {
    wild: rankNumber(result.wild_rank),
    // a seat declares once: a wrong declaration puts it out of the deal, a valid one ends it
    declaredBy: (s) => declared.find((x) => x.seat === s && Array.isArray(x.melds)) || null,
    out: (s) => (gone.includes(s) ? "eliminated" : outs[s] || undefined),
    notDealt: (s) => outs[s] === "eliminated",
  };
}
