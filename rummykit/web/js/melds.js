// A small meld check for the labels of the groups a player arranges in the hand.
// The server stays the judge of every action; this only says what a group is worth or why it is
// no meld, with reasons as catalog codes so they can be shown in the player's language.

import { RANKS, SUITS } from "./cards.js";

/** Meld limits of a variant: min real cards, adjacent jokers allowed, wild rank (Indian). */
export function meldRules(variant, wildRank = 0) {
  if (variant === "indian") return { minReal: 1, adjacent: true, maxSet: 4, maxRun: 13, wild: wildRank || 0 };
  return { minReal: 2, adjacent: false, maxSet: 4, maxRun: 13, wild: 0 };
}

const isJoker = (c, rules) => c.rank === 0 || (rules.wild && c.rank === rules.wild);

class MeldError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

function openingValue(rank) {
  if (rank === 1) return 1;
  if (rank === 14) return 11;
  return Math.min(rank, 10);
}

/**
 * Check cards as a meld. Returns {ok: true, kind, value, pure, jokers} or
 * {ok: false, code, params} where code names a catalog entry under "meld.why.".
 */
export function checkMeld(cards, rules, jokersZero = false) {
  try {
    const m = makeMeld(cards, rules);
    return { ok: true, ...m, value: meldValue(m, jokersZero) };
  } catch (e) {
    if (e instanceof MeldError) return { ok: false, code: e.code, params: e.params };
    throw e;
  }
}

export function meldValue(m, jokersZero = false) {
  if (m.kind === "set") {
    const each = m.rank === 1 ? 11 : Math.min(m.rank, 10);
    const n = m.cards.length - (jokersZero ? m.jokers.filter(Boolean).length : 0);
    return each * n;
  }
  let v = 0;
  m.jokers.forEach((j, i) => {
    if (!(jokersZero && j)) v += openingValue(m.rank + i);
  });
  return v;
}

function makeMeld(cards, rules) {
  const n = cards.length;
  if (n < 3) throw new MeldError("short");
  const fixed = cards.filter((c) => !isJoker(c, rules));
  const sameSuit = new Set(fixed.map((c) => c.suit)).size <= 1;
  const sameRank = new Set(fixed.map((c) => c.rank)).size <= 1;
  if (!sameSuit && !sameRank) throw new MeldError("mixed");
  if (sameSuit) {
    try {
      return makeRun(cards, fixed, rules);
    } catch (e) {
      if (!sameRank) throw e;
      try {
        return makeSet(cards, fixed, rules);
      } catch (e2) {
        if (fixed.length >= 2) throw e2;
      }
      throw e;
    }
  }
  return makeSet(cards, fixed, rules);
}

function tooFewReal(rules) {
  return rules.minReal === 1 ? new MeldError("noReal") : new MeldError("jokers", { n: rules.minReal });
}

function makeSet(cards, fixed, rules) {
  const n = cards.length;
  if (n > rules.maxSet) throw new MeldError("setSize", { n: rules.maxSet });
  let rank;
  if (fixed.length) rank = fixed[0].rank;
  else if (rules.wild) rank = rules.wild;
  else throw tooFewReal(rules);
  const seen = new Set();
  const jokers = [];
  for (const c of cards) {
    const natural = c.rank === rank && !seen.has(c.suit);
    if (c.rank === rank && seen.has(c.suit) && !isJoker(c, rules)) {
      throw new MeldError("suitTwice", { suit: c.suit });
    }
    if (natural) seen.add(c.suit);
    jokers.push(!natural);
  }
  if (n - jokers.filter(Boolean).length < rules.minReal) throw tooFewReal(rules);
  return { kind: "set", cards, rank, suit: -1, jokers, pure: !jokers.some(Boolean) };
}

function makeRun(cards, fixed, rules) {
  const n = cards.length;
  if (n > rules.maxRun) throw new MeldError("runSize", { n: rules.maxRun });
  const candidates = [];
  let anchors = [];
  for (let i = 0; i < n; i++) if (!isJoker(cards[i], rules)) { anchors = [[i, cards[i]]]; break; }
  if (!anchors.length) anchors = cards.map((c, i) => [i, c]).filter(([, c]) => c.rank !== 0);
  for (const [i, c] of anchors) {
    for (const r of c.rank === 1 ? [1, 14] : [c.rank]) {
      if (!candidates.some(([s, su]) => s === r - i && su === c.suit)) candidates.push([r - i, c.suit]);
    }
  }
  if (!candidates.length) throw tooFewReal(rules);
  let best = null;
  let error = null;
  for (const [start, suit] of candidates) {
    try {
      const m = runAt(cards, start, suit, rules);
      if (!best || m.jokers.filter(Boolean).length < best.jokers.filter(Boolean).length) best = m;
    } catch (e) {
      if (!(e instanceof MeldError)) throw e;
      error = error || e;
    }
  }
  if (!best) throw error;
  return best;
}

function runAt(cards, start, suit, rules) {
  const n = cards.length;
  if (start < 1) throw new MeldError("belowAce");
  if (start + n - 1 > 14) throw new MeldError("pastAce");
  const jokers = [];
  cards.forEach((c, i) => {
    const r = start + i;
    if (c.suit === suit && c.rank === (r === 14 ? 1 : r)) jokers.push(false);
    else if (isJoker(c, rules)) jokers.push(true);
    else if (i === 0) throw new MeldError("cannotStart", { card: c.text });
    else throw new MeldError("cannotFollow", { card: c.text, prev: cards[i - 1].text });
  });
  if (n - jokers.filter(Boolean).length < rules.minReal) throw tooFewReal(rules);
  if (!rules.adjacent) {
    for (let i = 1; i < n; i++) if (jokers[i] && jokers[i - 1]) throw new MeldError("adjacent");
  }
  return { kind: "run", cards, rank: start, suit, jokers, pure: !jokers.some(Boolean) };
}

/** "5–9" style span of a run, or the rank of a set, for labels. */
export function meldSpan(m) {
  const rt = (r) => (r === 10 ? "10" : RANKS[(r - 1) % 13]);
  if (m.kind === "set") return rt(m.rank);
  return `${rt(m.rank)}–${rt(m.rank + m.cards.length - 1)}`;
}

export { SUITS };
