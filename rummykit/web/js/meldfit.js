// Melds on the table as the page hints them (the server decides): the order a selection is
// sent in, where a card fits a meld, the card a printed joker stands for. It draws nothing.
import { parseCard } from "./cards.js";
import { checkMeld } from "./melds.js";
import { rulesOf } from "./tablestate.js";

// Each variant's joker swaps (rules.py); a house rule in the view's options says otherwise.
const SWAPS = { rummy: "any", rami51: "fourth", rami71: "fourth", simple: "none", indian: "none" };

/** Put cards in an order the server reads as a meld: as they are, or sorted with jokers in the gaps. */
export function meldOrder(texts, rules) {
  const cards = texts.map(parseCard);
  if (checkMeld(cards, rules).ok) return texts;
  const isJ = (c) => c.rank === 0 || (rules.wild && c.rank === rules.wild);
  const jokers = cards.filter(isJ);
  const real = cards.filter((c) => !isJ(c));
  const asSet = [...real, ...jokers];
  if (checkMeld(asSet, rules).ok) return asSet.map((c) => c.text);
  for (const aceHigh of [false, true]) {
    const key = (c) => (c.rank === 1 && aceHigh ? 14 : c.rank);
    const sorted = [...real].sort((a, b) => key(a) - key(b));
    const js = [...jokers];
    const out = [];
    sorted.forEach((c, i) => {
      if (i > 0) {
        let gap = key(c) - key(sorted[i - 1]) - 1;
        while (gap > 0 && js.length) { out.push(js.pop()); gap--; }
      }
      out.push(c);
    });
    while (js.length) {
      const last = out[out.length - 1];
      if (last && key(last) + 1 <= 14 && !isJ(last)) out.push(js.pop());
      else if (out.length && key(out.find((c) => !isJ(c))) > 1) out.unshift(js.pop());
      else out.push(js.pop());
    }
    if (checkMeld(out, rules).ok) return out.map((c) => c.text);
  }
  return texts;
}

/** Where a card fits a table meld: {ends: [null|"low"|"high"], swap: bool} (a hint; the server decides). */
export function fits(meld, text, view) {
  const rules = rulesOf(view);
  const c = parseCard(text);
  const cards = meld.cards.map(parseCard);
  const m = checkMeld(cards, rules);
  const out = { ends: [], swap: false };
  if (!m.ok) return out;
  const swaps = view.options?.swap ?? SWAPS[view.variant] ?? "any";
  const isJ = (x) => x.rank === 0 || (rules.wild && x.rank === rules.wild);
  const jokerCount = m.jokers.filter(Boolean).length;
  const realCount = cards.length - jokerCount;
  if (m.kind === "set") {
    const have = new Set(cards.filter((x, i) => !m.jokers[i]).map((x) => x.suit));
    if (cards.length < 4) {
      if (!isJ(c) && c.rank === m.rank && !have.has(c.suit)) out.ends.push(null);
      if (isJ(c) && realCount >= rules.minReal) out.ends.push(null);
    }
    const fourth = swaps === "fourth";
    if (swaps !== "none" && !isJ(c) && c.rank === m.rank && !have.has(c.suit) && jokerCount > 0 && (!fourth || (cards.length === 4 && jokerCount === 1))) out.swap = true;
    return out;
  }
  const low = m.rank;
  const high = m.rank + cards.length - 1;
  const natural = (r) => c.suit === m.suit && c.rank === (r === 14 ? 1 : r);
  const fitsAt = (r, neighbourJoker) => natural(r) || (isJ(c) && !(neighbourJoker && !rules.adjacent) && realCount >= rules.minReal);
  if (cards.length < 13) {
    if (low > 1 && fitsAt(low - 1, m.jokers[0])) out.ends.push("low");
    if (high < 14 && fitsAt(high + 1, m.jokers[m.jokers.length - 1])) out.ends.push("high");
  }
  if (!isJ(c) && swaps !== "none") m.jokers.forEach((j, i) => { if (j && natural(low + i)) out.swap = true; });
  return out;
}

export function rankLetter(n) {
  return "A23456789TJQK"[(n - 1 + 13) % 13];
}

/** The card a printed joker of a table run stands for (its place), or null. */
export function standsFor(meld, i, view) {
  if (meld.cards[i] !== "X" || meld.kind !== "run") return null;
  const m = checkMeld(meld.cards.map(parseCard), rulesOf(view));
  if (!m.ok || m.kind !== "run") return null;
  const r = m.rank + i;
  return `${rankLetter(r === 14 ? 1 : r)}${"SHDC"[m.suit]}`;
}
