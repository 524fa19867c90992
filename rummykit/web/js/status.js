// The status line above one's hand (whose turn, what a turn owes, the other's last move, one's
// score), the held banner's words, and the clocks: the turn's on the status line and the chips,
// the end screen's countdowns, ticked every second.
import { t } from "./i18n.js";
import { announce, formatSeconds, h } from "./ui.js";
import { pretty } from "./cards.js";
import { can, isMyTurn, scoreOf, seatName } from "./tablestate.js";

/** "You must lay 7♣ before you discard": the cards a turn owes (a joker freed is "X"). The card
 * just taken may be given back instead (``can`` has "return"): a newcomer who took it and could
 * not lay it read only "Lay down A♥ before you discard", with no word of the way out. */
export function owesText(owes, can = []) {
  if (owes.length === 1 && owes[0] !== "X" && can.includes("return")) return t("turn.owesReturn", { cards: pretty(owes[0]) });
  return t("turn.owes", { cards: owes.map((c) => (c === "X" ? t("card.joker") : pretty(c))).join(", ") });
}

export function statusBar(S, actions) {
  const v = S.view;
  let text;
  if (!v.turn) text = v.over ? t("end.gameOver") : t("end.dealOver");
  else if (isMyTurn(S)) {
    const tr = v.turn;
    if (tr.owes && tr.owes.length) text = owesText(tr.owes, tr.can || []);
    else if (tr.phase === "draw") text = v.pile.length && tr.can.includes("take") ? t("turn.drawOrTake") : t("turn.draw");
    else text = v.variant === "indian" ? t("turn.playIndian") : t("turn.play");
  } else if (S.room && S.room.held) text = t("turn.theirsPaused", { who: seatName(S, v.turn.seat) });
  else text = t("turn.theirs", { who: seatName(S, v.turn.seat) });
  const held = !!(S.room && S.room.held);
  const score = S.you !== null && S.you !== undefined ? scoreOf(v, S.you) : null;
  // the other's last move of this deal: the deal's line ends the search, so a new deal shows
  // none yet, whether the page saw the last deal or was just opened
  let lastOther = null;
  for (let i = S.log.length - 1; i >= 0 && !S.log[i].deal; i--) {
    // a quick message is no move: the status line keeps the last move (the chip shows it)
    if (S.log[i].said) continue;
    // a restock is nobody's move: the other's discard before it is what the turn may take
    if (S.log[i].seat !== S.you && S.log[i].seat !== null) {
      lastOther = S.log[i];
      break;
    }
  }
  // focusable from script only, and named by its key, so the focus an end screen hands to a
  // spectator's status line (endFocus in endscreen.js) stays on it through the redraws that
  // follow. No live region: the moves and the turn are announced (app.js), and the turn clock
  // in it would be read out every second.
  return h(`div.status${isMyTurn(S) ? ".mine" : ""}`, { tabindex: -1, "data-key": "status", "data-keep": "content" },
    h("span.status-text", { "data-status": "turn", text }),
    lastOther ? h("span.last-action", { text: lastOther.text }) : null,
    isMyTurn(S) && !held ? h("span.my-clock", { "data-clock": "text", "data-clock-seat": S.you }) : null,
    score !== null ? h("span.my-score", { text: t("table.yourScore", { n: score }) }) : null,
    isMyTurn(S) && !held ? h("div.clock-bar.mine", { "data-clock": "bar", "data-clock-seat": S.you }, h("span")) : null);
}

/** The held banner's words: a person out of a pool game (eliminated) is at the table, not
 * away, and only watches; the room is held because everyone still in the game is away. */
export function heldBannerKey(S) {
  const v = S.view;
  const mine = S.you !== null && S.you !== undefined && v && v.seats && v.seats[S.you];
  return mine && mine.out === "eliminated" ? "table.heldBannerOut" : "table.heldBanner";
}

const LOW_CLOCK = 10000;

export function tickClock(S) {
  const c = S.clock;
  // said once as one's own clock runs low (the clock is no live region); a clock that comes
  // already low (a reload, the turn's next state) was not seen to cross, so says nothing
  if (c && S.you !== null && S.you !== undefined && c.seat === S.you) {
    const left = c.endAt - performance.now();
    if (c.lastLeft !== undefined && c.lastLeft >= LOW_CLOCK && left < LOW_CLOCK) announce(t("turn.clockLow", { s: LOW_CLOCK / 1000 }));
    c.lastLeft = left;
  }
  const els = document.querySelectorAll("[data-clock]");
  els.forEach((el) => {
    if (!c || Number(el.dataset.clockSeat) !== c.seat) return;
    const left = Math.max(0, c.endAt - performance.now());
    if (el.dataset.clock === "text") {
      // the clock's sign is drawn by the stylesheet, as a picture a screen reader does not name
      el.textContent = formatSeconds(left);
      el.classList.toggle("low", left < LOW_CLOCK);
    } else {
      const bar = el.firstElementChild;
      if (bar) bar.style.width = `${c.duration ? Math.max(0, Math.min(100, (left / c.duration) * 100)) : 0}%`;
      el.classList.toggle("low", left < LOW_CLOCK);
    }
  });
  document.querySelectorAll("[data-countdown]").forEach((el) => {
    el.textContent = nextDealText(S, Number(el.dataset.countdown));
  });
  document.querySelectorAll("[data-rematch-at]").forEach((el) => {
    el.textContent = rematchGoneText(S, Number(el.dataset.rematchAt), el.dataset.rematchGone);
  });
}

/** "New game in 30 s without waiting for Ben", or that it is starting once the clock ran out
 * (the server's messages follow). */
export function rematchGoneText(S, at, who) {
  const left = at - S.conn.now();
  return left > 0 ? t("end.rematchGone", { s: Math.ceil(left / 1000), who }) : t("end.rematchGoneNow");
}

/** "Next deal in 3 s", or that it is on its way once the pause is over (the server's state
 * follows). */
export function nextDealText(S, at) {
  const left = at - S.conn.now();
  return left > 0 ? t("end.nextDeal", { s: Math.ceil(left / 1000) }) : t("end.nextDealNow");
}
