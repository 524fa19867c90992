// The table's questions to the state, which every part of it asks: who sits in a seat and by
// what name or mark, whose turn it is and what it may do, the cards selected, who is out, a
// seat's score. It draws nothing.
import { t } from "./i18n.js";
import { rankNumber } from "./cards.js";
import { meldRules } from "./melds.js";
import { Arrangement } from "./hand.js";
import { botName, initial, seatMarks } from "./lobby.js";

const RAMI = ["rami51", "rami71", "simple"];

export function seatName(S, seat) {
  if (seat === null || seat === undefined) return "";
  const s = S.room && S.room.seats[seat];
  if (!s) return t("lobby.seatN", { n: seat + 1 });
  if (seat === S.you) return t("seat.youName", { name: s.name || "" });
  if (s.kind === "bot") return botName(s);
  return s.name || t("lobby.seatN", { n: seat + 1 });
}

/** A seat's name as the subject of a sentence ("{who} discarded 7♥"): your own name without
 * "You (…)", which takes no third-person verb in any of the languages ("Tú (Ana) descartó"). */
export function subjectName(S, seat) {
  const s = S.room && S.room.seats[seat];
  if (seat === S.you && s && s.name) return s.name;
  return seatName(S, seat);
}

/** Simple Rami: no opening, its one lay-down is the whole hand (the close), whose points count
 * for nothing; the page words its meter, button and hints so. */
export function laysDownOnlyAtOnce(view) {
  return view.variant === "simple";
}

export function teamsGame(view) {
  return RAMI.includes(view.variant) && view.players === 4;
}

export function rulesOf(view) {
  return meldRules(view.variant, rankNumber(view.wild_rank));
}

export function isMyTurn(S) {
  const v = S.view;
  return !!(v && v.turn && S.you !== null && v.seat === S.you && v.turn.seat === S.you);
}

export function can(S, verb) {
  return isMyTurn(S) && !S.pending && Array.isArray(S.view.turn.can) && S.view.turn.can.includes(verb);
}

export function selectedIds(S) {
  if (!S.arrangement) return [];
  return S.arrangement.all().filter((id) => S.selected.has(id));
}

export function selectedTexts(S) {
  return selectedIds(S).map(Arrangement.textOf);
}

/** The cost of dropping now (Indian): the engine's own figure, in the view of a seat still in
 * the deal (20 before its first draw, 40 after; 20 too for a first player dealt the extra card
 * under the house rule first_extra, who starts by discarding, having drawn nothing). */
export function dropCost(S) {
  return S.view.drop_cost;
}

export function scoreOf(v, s) {
  if (!Array.isArray(v.scores)) return null;
  if (teamsGame(v) && v.scores.length === 2) return v.scores[s % 2];
  return v.scores[s] ?? null;
}

/** A seat's name in few letters: "Bot 2" without its level, "you" for one's own seat. */
export function shortName(S, s) {
  const rs = S.room && S.room.seats[s];
  if (s === S.you) return t("room.you");
  if (rs && rs.kind === "bot") return t("seat.botNumbered", { n: s + 1 });
  return seatName(S, s);
}

export function isBot(S, s) {
  return !!(S.room && S.room.seats[s] && S.room.seats[s].kind === "bot");
}

/** A seat's mark in a letter or two: a person's initial, as on their avatar, and a bot's
 * initial in the reader's language ("B", "R" for "Robot") with its seat's number, as every
 * bot's avatar shows that initial. */
export function ownerMark(S, s) {
  if (isBot(S, s)) return t("seat.botMark", { n: s + 1 });
  return personMark(S, s);
}

/** A person's mark, told apart from the others' at the table (``seatMarks``): their avatar's
 * letters and their melds' mark. */
export function personMark(S, s) {
  const seats = S.room && S.room.seats;
  const mark = seats ? seatMarks(seats).get(s) : null;
  return mark || initial(seats && seats[s] ? seats[s].name : seatName(S, s));
}

/** Why a seat is out (``eliminated`` from a pool game, else the deal's ``dropped`` …), or
 * nothing: the engine's list of the eliminated has those the finished deal put out too, whose
 * seats are still the deal's until the next one. */
export function seatOut(v, s) {
  if (Array.isArray(v.eliminated) && v.eliminated.includes(s)) return "eliminated";
  return v.seats[s] ? v.seats[s].out : undefined;
}

/** Whether a pool player is out of the game (:func:`seatOut`). */
export function outOfGame(v, s) {
  return seatOut(v, s) === "eliminated";
}
