// Cards in the project's notation: rank A 2-9 T J Q K + suit S H D C, "X" for a printed joker.
// A card object here is {text, rank, suit}: rank 1..13 (0 for a joker), suit 0..3 (-1 for a joker).

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const SUIT_SYMBOLS = ["♠", "♥", "♦", "♣"];
export const SUIT_KEYS = ["spades", "hearts", "diamonds", "clubs"];
const SYMBOL_TO_SUIT = { "♠": 0, "♥": 1, "♦": 2, "♣": 3 };

export function parseCard(text) {
  let t = String(text).trim().toUpperCase();
  if (t === "X" || t === "*") return { text: "X", rank: 0, suit: -1 };
  if (t.length < 2) throw new Error(`not a card: ${text}`);
  let rankText = t.slice(0, -1);
  const suitText = t.slice(-1);
  let suit = SUITS.indexOf(suitText);
  if (suit < 0 && suitText in SYMBOL_TO_SUIT) suit = SYMBOL_TO_SUIT[suitText];
  if (rankText === "10") rankText = "T";
  const rank = RANKS.indexOf(rankText) + 1;
  if (suit < 0 || rank < 1 || rankText.length !== 1) throw new Error(`not a card: ${text}`);
  return { text: RANKS[rank - 1] + SUITS[suit], rank, suit };
}

export function parseCards(text) {
  return String(text).replace(/,/g, " ").split(/\s+/).filter(Boolean).map(parseCard);
}

export function rankLabel(rank) {
  if (rank === 0) return "★";
  if (rank === 10) return "10";
  return RANKS[(rank - 1) % 13];
}

/** "7♥", "10♠", "★" */
export function pretty(text) {
  const c = typeof text === "string" ? parseCard(text) : text;
  if (c.rank === 0) return "★";
  return rankLabel(c.rank) + SUIT_SYMBOLS[c.suit];
}

/** Normalise a wild rank as the view may carry it (an int 1..13 or a rank letter) to an int. */
export function rankNumber(value) {
  if (value === null || value === undefined || value === "") return 0;
  if (typeof value === "number") return value === 14 ? 1 : value;
  const s = String(value).toUpperCase();
  if (s === "10") return 10;
  const i = RANKS.indexOf(s);
  if (i >= 0) return i + 1;
  const n = parseInt(s, 10);
  return Number.isFinite(n) ? n : 0;
}

export function sortBySuit(a, b) {
  const ka = a.rank === 0 ? 4 : a.suit;
  const kb = b.rank === 0 ? 4 : b.suit;
  return ka - kb || a.rank - b.rank;
}

export function sortByRank(a, b) {
  const ka = a.rank === 0 ? 14 : a.rank;
  const kb = b.rank === 0 ? 14 : b.rank;
  return ka - kb || a.suit - b.suit;
}

/** The accessible name of a card in the current language. */
export function cardName(c, t) {
  if (typeof c === "string") c = parseCard(c);
  if (c.rank === 0) return t("card.joker");
  return t("card.name", { rank: t(`rank.${c.rank}`), suit: t(`suit.${SUIT_KEYS[c.suit]}`) });
}

/**
 * A card element. opts: {tag, id, selected, wild, small, faceDown, standsFor, t}
 * The visible face is made of a corner (rank over suit) and a big pip, so a card stays readable
 * when cards overlap and only the left strip shows. Whatever says "joker" lives in that corner
 * too: a joker's word runs down under its star, a joker on the table adds a star under the card
 * it stands for, and an Indian wild card a star under its suit.
 */
export function cardElement(text, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = "card";
  if (opts.small) el.classList.add("small");
  if (opts.faceDown) {
    el.classList.add("back");
    el.setAttribute("aria-hidden", "true");
    return el;
  }
  const c = typeof text === "string" ? parseCard(text) : text;
  const stands = c.rank === 0 && opts.standsFor ? parseCard(opts.standsFor) : null;
  el.dataset.card = c.text;
  if (c.rank === 0) {
    el.classList.add("joker");
  } else {
    el.classList.add(`suit-${SUITS[c.suit].toLowerCase()}`);
  }
  if (opts.wild) el.classList.add("wild");
  if (stands) el.classList.add("stands");
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const span = (cls, textContent) => {
    const e = document.createElement("span");
    e.className = cls;
    e.textContent = textContent;
    return e;
  };
  if (stands) {
    corner.append(span("rank", rankLabel(stands.rank)), span("suit", SUIT_SYMBOLS[stands.suit]), span("joker-mark", "★"));
  } else if (c.rank === 0) {
    corner.append(span("rank", "★"));
    if (opts.t) corner.append(span("joker-word", opts.t("card.jokerShort")));
  } else {
    corner.append(span("rank", rankLabel(c.rank)), span("suit", SUIT_SYMBOLS[c.suit]));
    if (opts.wild) corner.append(span("wild-mark", "★"));
  }
  const pip = span("pip", c.rank === 0 ? "★" : SUIT_SYMBOLS[c.suit]);
  pip.setAttribute("aria-hidden", "true");
  el.append(corner, pip);
  if (opts.t) {
    // a card that is no button is a picture with a name: a name on a bare div is not read
    if (el.tagName !== "BUTTON") el.setAttribute("role", "img");
    let label = cardName(c, opts.t) + (opts.wild ? ` (${opts.t("card.wild")})` : "");
    if (stands) label = opts.t("card.jokerAs", { card: cardName(stands, opts.t) });
    el.setAttribute("aria-label", label);
    if (stands) el.title = label;
  }
  return el;
}
