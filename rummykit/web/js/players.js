// The other players' strip: a chip a seat (name, avatar, cards held, score, badges, the turn's
// clock, what it took from the pile, a quick message) and how many watch.
import { t } from "./i18n.js";
import { h, spoken } from "./ui.js";
import { pretty } from "./cards.js";
import { avatar, botLevel } from "./lobby.js";
import { laysDownOnlyAtOnce, personMark, scoreOf, seatName } from "./tablestate.js";

/** A phone held sideways, or a short window: app.css lays the table out for it. */
const SIDEWAYS = "(max-height: 520px) and (min-width: 561px) and (orientation: landscape)";

/** The other players' chips, in the order of play after one's own seat (a spectator's in
 * seat order), and how many people watch. */
export function opponentsBox(S, mine, teams) {
  const v = S.view;
  const order = [];
  for (let i = 1; i <= v.players; i++) order.push(((mine ? S.you : -1) + i + v.players) % v.players);
  if (!mine) order.sort((a, b) => a - b);
  // the players and the melds scroll in boxes of their own on a phone held sideways (app.css):
  // their scroll is kept through the redraws (data-scroll), as the log's is, and the players'
  // box, which holds no control, is in the keyboard's reach there (the melds are buttons)
  const opponents = h("div.opponents", { role: "list", "aria-label": t("table.players"), "data-key": "opponents", "data-scroll": "",
    tabindex: matchMedia(SIDEWAYS).matches ? "0" : null },
    order.filter((s) => !mine || s !== S.you).map((s) => seatChip(S, s, teams)));
  const watching = (S.room && S.room.spectators) || 0;
  if (watching) {
    opponents.append(h("span.watchers", { role: "listitem", "data-spectators": watching, title: t("room.spectators", { n: watching }) },
      eyeIcon(), t("room.spectators", { n: watching })));
  }
  return opponents;
}

/** An eye drawn as a picture: an emoji needs a colour-emoji font, which many systems (Debian's
 * Chromium among them) lack, and then shows as an empty box. */
function eyeIcon() {
  return h("span.eye", { "aria-hidden": "true", html:
    '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">'
    + '<path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z"/><circle cx="12" cy="12" r="3"/></svg>' });
}

function seatChip(S, s, teams) {
  const v = S.view;
  const info = v.seats[s] || {};
  const rs = (S.room && S.room.seats[s]) || {};
  const turn = v.turn && v.turn.seat === s;
  // a held room's clock stands still and is not sent: no clock to show, rather than a full bar
  const clock = turn && !(S.room && S.room.held);
  const partner = teams && S.you !== null && S.you !== undefined && s !== S.you && (s % 2) === (S.you % 2);
  const badges = [];
  // the short mark is seen, the word is read: a title alone reached no phone nor screen reader
  // (the scores panel says what the mark means, in words)
  if (s === v.dealer) {
    badges.push(h("span.badge.dealer", { title: t("seat.dealer"), "data-dealer": s },
      h("span", { "aria-hidden": "true", text: t("seat.dealerShort") }),
      h("span.visually-hidden", { text: t("seat.dealer") })));
  }
  if (partner) badges.push(h("span.badge.partner", { text: t("seat.partner") }));
  if (v.variant !== "indian" && !laysDownOnlyAtOnce(v)) {
    badges.push(info.opened ? h("span.badge.opened", { text: t("seat.opened") }) : h("span.badge.closed", { text: t("seat.notOpened") }));
  }
  if (info.out) badges.push(h("span.badge.out", { text: t(`seat.out.${info.out}`) }));
  if (rs.kind === "human" && !rs.connected) badges.push(h("span.badge.off", { text: t("seat.offline") }));
  if (rs.away) badges.push(h("span.badge.away", { text: t("seat.away") }));
  // a quick message, for a few seconds (onSaid in app.js): the log keeps it, a screen reader
  // was told it as it came
  const said = S.said && S.said[s];
  if (said) badges.push(h("span.said", { "data-said": said.phrase, "aria-hidden": "true", text: t("say.quoted", { phrase: t(`say.phrase.${said.phrase}`) }) }));
  const took = takenFromPile(S.events, s);
  if (took.length) {
    const cards = took.map((c) => pretty(c)).join(" ");
    badges.push(h("span.badge.took", { "data-took": took.join(" "), title: t("seat.tookLong", { cards }) },
      h("span", { "aria-hidden": "true", text: t("seat.took", { cards }) }),
      h("span.visually-hidden", { text: spoken(t("seat.tookLong", { cards })) })));
  }
  const score = scoreOf(v, s);
  const backs = h("span.mini-backs", { "aria-hidden": "true" },
    Array.from({ length: Math.min(info.cards || 0, 8) }, () => h("span.mini-back")));
  return h(`div.seat-chip${turn ? ".turn" : ""}${partner ? ".partner" : ""}`, { role: "listitem", "data-seat": s, "data-cards": info.cards },
    h("div.chip-top", {},
      avatar(rs.kind === "bot" ? t("seat.botInitial") : personMark(S, s), rs.kind === "bot"),
      chipName(S, s, rs),
      clock ? h("span.chip-clock", { "data-clock": "text", "data-clock-seat": s }) : null),
    h("div.chip-mid", {}, backs,
      // a name on a plain span is no name (it has no role to carry one): a screen reader read
      // the chip as "13 star 0". The words are there to be read, the figures to be seen.
      h("span.count", {}, h("span", { "aria-hidden": "true", text: String(info.cards ?? "") }),
        h("span.visually-hidden", { text: t("seat.cardsInHand", { n: info.cards }) })),
      // the score says "pts": a star before it, the jokers' own mark, read as a count of jokers
      score !== null ? h("span.chip-score", { title: t("table.score") }, h("span", { "aria-hidden": "true", text: t("table.scoreShort", { n: score }) }),
        h("span.visually-hidden", { text: t("common.labelValue", { label: t("table.score"), value: score }) })) : null),
    h("div.chip-badges", {}, badges),
    clock ? h("div.clock-bar", { "data-clock": "bar", "data-clock-seat": s }, h("span")) : null);
}

/** The name on a seat's chip. A bot's level goes on a line of its own, smaller: beside the
 * turn clock on a phone a chip leaves the name some 70 px, and "Bot 2 (medium)" was cut to
 * "Bot 2 (m…", two bots of different levels then reading alike. The full name is the title. */
function chipName(S, s, rs) {
  const name = seatName(S, s);
  if (rs.kind !== "bot" || !rs.level) return h("span.chip-name", { title: name, text: name });
  return h("span.chip-name", { title: name },
    t("seat.botNumbered", { n: rs.seat + 1 }), h("span.chip-level", { text: botLevel(rs) }));
}

/** The cards a seat took from the discard pile this deal and may still hold, oldest first, from
 * the deal's public events: a card taken and then returned, discarded (the same face), laid on
 * the table or sent back by the clock's undo is no longer counted. Where a taken card must be
 * laid at once (taken_card_duty) the list empties within the turn; in Indian rummy it stays,
 * and what a player picked up is what a seasoned player watches (it was in the log only,
 * twelve lines long). */
export function takenFromPile(events, seat) {
  const held = [];
  const drop = (card) => {
    const i = held.lastIndexOf(card);
    if (i >= 0) held.splice(i, 1);
  };
  let last = null;
  for (const e of events || []) {
    if (e.seat !== seat) continue;
    if (e.action === "take" && e.card) {
      held.push(e.card);
      last = e.card;
    } else if (e.action === "return") {
      drop(e.card || last);
      last = null;
    } else if (e.action === "discard" || e.action === "timeout") {
      // the clock's undo puts a card owed back on the pile before it discards
      if (e.action === "timeout" && e.undone && last) drop(last);
      if (e.card) drop(e.card);
      last = null;
    } else if (e.action === "layoff" || e.action === "swap") {
      drop(e.card);
    } else if (e.action === "meld" || e.action === "open") {
      const melds = e.action === "meld" ? [e.meld] : e.melds || [];
      for (const m of melds) for (const c of String(m).split(/\s+/)) drop(c);
    } else if (e.action === "drop" || e.action === "declare") {
      held.length = 0;
    }
  }
  return held;
}
