// The melds laid on the table, a tile each (its cards, owner, the hint that the selected card
// fits it), cached between redraws since few change at a time.
import { language, t } from "./i18n.js";
import { h, listen, spoken, toast } from "./ui.js";
import { cardElement, pretty } from "./cards.js";
import { Arrangement } from "./hand.js";
import { can, isBot, ownerMark, seatName, selectedIds } from "./tablestate.js";
import { fits, standsFor } from "./meldfit.js";
import { layOff } from "./moves.js";

// The meld tiles drawn at this redraw and the one before, by what each is drawn from (tileKey),
// for each state object: at a table of 30 melds they were two fifths of a redraw's script, all
// drawn again at every move and every card tapped though few change. A tile is a copy of its
// template (cloneNode), so the page gets new nodes as before, equal to those drawn afresh.
const tileCaches = new WeakMap();

function tileCache(S) {
  let cache = tileCaches.get(S);
  if (!cache) tileCaches.set(S, (cache = { now: new Map(), before: new Map() }));
  // the tiles of two redraws: a card tapped and tapped again draws the melds back as they were
  cache.before = cache.now;
  cache.now = new Map();
  return cache;
}

/** Everything a meld's tile is drawn from, but its click (whose closure is the redraw's). */
function tileKey(m, hintCard, shared) {
  return JSON.stringify([shared, m.number, m.kind, m.cards, m.owner, hintCard]);
}

export function meldsBox(S, actions) {
  const v = S.view;
  if (v.variant === "indian") {
    return h("div.melds.indian-note", {}, h("p", { text: t("table.indianNoTable") }));
  }
  const sel = selectedIds(S);
  const single = sel.length === 1 ? Arrangement.textOf(sel[0]) : null;
  const canLay = can(S, "layoff") || can(S, "swap");
  const canMeld = can(S, "meld") || can(S, "open");
  const cache = tileCache(S);
  // what every tile is drawn from alike: the language, the rules (standsFor), who is who
  const seats = ((S.room && S.room.seats) || []).map((r) => r && [r.kind, r.name, r.level, r.seat]);
  const shared = [language(), v.variant, v.wild_rank, v.options || null, S.you ?? null, seats];
  const tiles = v.table.map((m) => {
    const fit = single ? fits(m, single, v) : null;
    const hint = single && canLay && fit && (fit.ends.length || fit.swap);
    const key = tileKey(m, hint ? single : null, shared);
    let template = cache.now.get(key) || cache.before.get(key);
    if (!template) template = meldTile(S, m, hint, single);
    cache.now.set(key, template);
    const tile = template.cloneNode(true);
    // pressed with no single card selected it did nothing, which a screen reader's player
    // could not tell from a move made: it says what to select, as its number key does
    listen(tile, "click", () => { if (single && canLay) layOff(S, actions, m, sel[0]); else if (canLay) toast(t("action.pickOneLayoff"), "error"); });
    return tile;
  });
  return h(`div.melds${canMeld && sel.length >= 3 ? ".accepting" : ""}`, { "data-drop": "table", role: "group", "aria-label": t("table.melds"), "data-key": "melds", "data-scroll": "" },
    tiles.length ? tiles : h("p.melds-empty", { text: t("table.noMelds") }));
}

/** A meld's tile, without its click; ``hint``: the selected card ``single`` fits it. */
function meldTile(S, m, hint, single) {
  const v = S.view;
  return h(`button.meld-tile${hint ? ".fits" : ""}`, {
    type: "button", "data-drop": "meld", "data-meld": m.number, "data-key": `meld-${m.number}`,
    // the outline of a meld the selected card fits is seen only: its name says it too
    // one's own meld said "laid by you": "laid by You (Ana)" put the name's capital inside
    // the sentence, and in Spanish read "de Tú (Ana)" (of you is "de ti")
    "aria-label": spoken((m.owner === S.you && S.you !== null && S.you !== undefined
      ? t("table.meldLabelMine", { n: m.number, kind: t(`meld.kind.${m.kind}`), cards: m.cards.map((c) => pretty(c)).join(" ") })
      : t("table.meldLabel", { n: m.number, kind: t(`meld.kind.${m.kind}`), cards: m.cards.map((c) => pretty(c)).join(" "), who: seatName(S, m.owner) }))
      + (hint ? `. ${t("table.meldFits", { card: pretty(single) })}` : "")),
  },
    h("span.meld-no", { text: String(m.number) }),
    h("span.meld-cards", {}, m.cards.map((c, i) => cardElement(c, { t, small: true, standsFor: standsFor(m, i, v) }))),
    h("span.meld-owner", { text: seatName(S, m.owner) }),
    // a phone has no room for the name (app.css hides it): the owner's mark, as on their
    // seat's avatar, under the meld's number; the button's name says who in words
    h(`span.meld-mark${m.owner === S.you ? ".mine" : isBot(S, m.owner) ? ".bot" : ""}`, { "aria-hidden": "true", title: seatName(S, m.owner), text: ownerMark(S, m.owner) }));
}
