// The engine explains a refused move in English (the server passes its reason on as it is). The
// page shows it in the player's language: each sentence the engine can say is recognised by a
// pattern, its cards and numbers become the placeholders of a catalog entry (cards shown as the
// page shows them). A sentence no pattern knows is shown as the server sent it.
import { t } from "./i18n.js";
import { pretty } from "./cards.js";

const C = "(?:[A2-9TJQK][SHDC]|10[SHDC]|X)";
const CARD = `(${C})`;
const CARDS = `(${C}(?: ${C})*)`;
const N = "(\\d+)";
const END = "(low|high)";
const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const WHAT = { discard: "discard", "lay down": "layDown", meld: "meld", "lay off": "layOff", "swap a joker": "swap", declare: "declare" };

const card = (s) => pretty(s); // a joker shows as ★, as on the table
const cards = (s) => s.split(" ").map(card).join(" ");
const lower = (s) => s.charAt(0).toLowerCase() + s.slice(1);
const end = (s) => t(`reason.end.${s}`);

// [pattern, catalog key, names of the captured groups (with how to show them)]
// name:kind — kind is card, cards, n (as is), end, what, suit or reason (translated again)
const RULES = [
  // whose move it is, the phases of a turn
  ["the game is over", "reason.gameOver"],
  [`deal ${N} is over`, "reason.dealOver", ["n:n"]],
  [`draw or take a card before you (discard|lay down|meld|lay off|swap a joker|declare)`, "reason.drawFirst", ["what:what"]],
  ["you have already drawn this turn", "reason.alreadyDrawn"],
  ["after returning the card, draw from the stock", "reason.drawAfterReturn"],
  ["the discard pile is empty", "reason.pileEmpty"],
  [`${CARD} is a joker: this room does not let jokers be taken`, "reason.noJokerTake", ["card:card"]],
  ["return is not part of this game", "reason.noReturn"],
  ["return puts back a card just taken from the pile", "reason.returnWhat"],
  ["return must come before anything else in the turn", "reason.returnFirst"],
  // cards in hand, discarding
  [`you do not hold ${CARD}`, "reason.notHeld", ["card:card"]],
  [`you hold only ${N} ${CARD}, not ${N}`, "reason.holdOnly", ["have:n", "card:card", "n:n"]],
  ["you must keep a card to discard: a deal is won by discarding", "reason.keepOne"],
  [`lay the ${CARD} you took from the pile before discarding`, "reason.layTaken", ["card:card"]],
  [`that would leave only the ${CARD} you took from the pile, which you may not discard this turn: (.+)`, "reason.onlyTakenLeft", ["card:card", "why:reason"]],
  [`that would leave the ${CARD} you took from the pile with no place to go: lay it first`, "reason.strandTaken", ["card:card"]],
  [`that would leave the ${CARD} you took from the pile with no place to go: (.+)`, "reason.strandTakenWhy", ["card:card", "why:reason"]],
  ["that would leave the freed joker with no place to go: (.+)", "reason.strandFreed", ["why:reason"]],
  ["no meld on the table could take it and no two cards left in your hand could meld with it", "reason.jokerNoPlace"],
  ["nothing may be laid off at this table and no two cards left in your hand could meld with it", "reason.jokerNoPlaceNoLayoffs"],
  ["a card must stay in your hand to discard", "reason.keepToDiscard"],
  ["no sequence of moves left could lay it this turn", "reason.noWayLeft"],
  ["lay the freed joker on the table before discarding", "reason.layFreed"],
  [`${CARD} was just taken from the pile: keep it this turn`, "reason.keepTaken", ["card:card"]],
  [`${CARD} was just taken from the pile: declare with it in a meld`, "reason.keepTakenDeclare", ["card:card"]],
  // the first lay-down
  [`lay every card but one at once: this leaves ${N} cards in your hand`, "reason.closeAll", ["n:n"]],
  ["the lay-down needs at least one run and one set", "reason.runAndSet"],
  [`the ${CARD} you took from the pile must be part of it`, "reason.takenInOpening", ["card:card"]],
  ["a first lay-down needs a run and a set without jokers", "reason.cleanRunSet"],
  [`one run without jokers must be made without the ${CARD} you took`, "reason.cleanRunWithout", ["card:card"]],
  [`opening is worth ${N} without jokers; the minimum is ${N}`, "reason.worthNoJokers", ["worth:n", "min:n"]],
  [`opening is worth ${N}; the minimum is ${N}`, "reason.worth", ["worth:n", "min:n"]],
  ["nothing is laid on the table in this game: declare instead", "reason.declareInstead"],
  ["you have already opened: lay more melds with meld", "reason.alreadyOpened"],
  ["melds are laid only with the lay-down in this game", "reason.onlyLayDown"],
  [`open first: your first melds must reach ${N}`, "reason.openFirst", ["n:n"]],
  ["lay down first", "reason.layDownFirst"],
  // the table's melds: lay-offs and joker swaps
  [`there is no meld ${N} on the table \\(melds 1 to ${N}\\)`, "reason.noMeld", ["n:n", "last:n"]],
  [`there is no meld ${N} on the table \\(the table is empty\\)`, "reason.noMeldEmpty", ["n:n"]],
  ["cards are not laid off in this game", "reason.noLayoff"],
  ["jokers are not swapped in this game", "reason.noSwap"],
  [`a joker leaves a set only as its fourth card: lay ${CARD} off`, "reason.fourthOnly", ["card:card"]],
  [`${CARD} does not take the place of a joker in meld ${N}`, "reason.noJokerPlace", ["card:card", "n:n"]],
  [`meld ${N}: (.+)`, "reason.onMeld", ["n:n", "why:reason"]],
  [`${CARD} does not fit the ${END} end of ${CARDS}`, "reason.notThisEnd", ["card:card", "end:end", "meld:cards"]],
  [`${CARD} fits both ends of ${CARDS}: say low or high`, "reason.bothEnds", ["card:card", "meld:cards"]],
  [`${CARDS} is a set: it has no ${END} end`, "reason.setNoEnd", ["meld:cards", "end:end"]],
  [`${CARD} does not fit ${CARDS}`, "reason.noFit", ["card:card", "meld:cards"]],
  // Indian rummy
  ["declare belongs to Indian rummy", "reason.indianDeclare"],
  ["drop belongs to Indian rummy", "reason.indianDrop"],
  [`a declaration shows ${N} cards in melds; this shows ${N}`, "reason.declareCount", ["n:n", "got:n"]],
  ["these cards cannot be declared yet: they do not all fit in melds with two sequences, one of them pure", "declare.notYetWhy"],
  // one meld's own fault: "<cards>: <why>", the same sentences as the hand's group labels
  [`${CARDS}: a meld needs at least 3 cards`, "meld.why.short", [], true],
  // an opening of no melds at all (the engine names no cards)
  ["no cards: a meld needs at least 3 cards", "meld.why.short"],
  [`${CARDS}: neither one rank \\(a set\\) nor one suit \\(a run\\)`, "meld.why.mixed", [], true],
  [`${CARDS}: a meld needs at least one card that is not a joker`, "meld.why.noReal", [], true],
  [`${CARDS}: too many jokers: a meld needs at least ${N} real cards`, "meld.why.jokers", ["n:n"], true],
  [`${CARDS}: a set has at most ${N} cards`, "meld.why.setSize", ["n:n"], true],
  [`${CARDS}: the suit ([SHDC]) appears twice`, "meld.why.suitTwice", ["suit:suit"], true],
  [`${CARDS}: a run has at most ${N} cards`, "meld.why.runSize", ["n:n"], true],
  [`${CARDS}: nothing comes below the ace in a run`, "meld.why.belowAce", [], true],
  [`${CARDS}: a run cannot go past the ace \\(runs never wrap\\)`, "meld.why.pastAce", [], true],
  [`${CARDS}: ${CARD} cannot start this run`, "meld.why.cannotStart", ["card:card"], true],
  [`${CARDS}: ${CARD} cannot follow ${CARD} in a run`, "meld.why.cannotFollow", ["card:card", "prev:card"], true],
  [`${CARDS}: two jokers side by side`, "meld.why.adjacent", [], true],
].map(([pattern, key, names = [], meldFirst = false]) => ({ re: new RegExp(`^${pattern}$`), key, names, meldFirst }));

function show(kind, value) {
  switch (kind) {
    case "card": return card(value);
    case "cards": return cards(value);
    case "end": return end(value);
    case "what": return t(`reason.what.${WHAT[value]}`);
    case "suit": return t(`suit.${SUITS[value]}`);
    case "reason": return translateReason(value);
    default: return value;
  }
}

/** The engine's reason in the page's language, or as it came when no pattern knows it. */
export function translateReason(text) {
  const found = reasonMatch(text);
  return found === null ? String(text || "") : found;
}

/** The translated reason, or null when the sentence is not one the page knows. */
export function reasonMatch(text) {
  const s = String(text || "").trim();
  for (const rule of RULES) {
    const m = rule.re.exec(s);
    if (!m) continue;
    const groups = m.slice(1);
    const params = {};
    const meld = rule.meldFirst ? cards(groups.shift()) : null;
    rule.names.forEach((spec, i) => {
      const [name, kind] = spec.split(":");
      params[name] = show(kind, groups[i]);
    });
    if (rule.key === "reason.onMeld" && params.why === groups[1]) return null;
    // a meld's own fault reads as the hand's group label does, after the meld's cards
    // (its first word in lower case, but never a card put first: "J♠ cannot follow", not "j♠")
    if (meld !== null) {
      const why = t(rule.key, params);
      return t("reason.meldFault", { meld, why: t(rule.key).startsWith("{") ? why : lower(why) });
    }
    return t(rule.key, params);
  }
  return null;
}
