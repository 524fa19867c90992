// The end-of-deal and end-of-game screens over the table (results, countdown, rematch, replay,
// the screen set aside to see the table) and where the keyboard focus goes as they come and go.
import { t } from "./i18n.js";
import { h } from "./ui.js";
import { seatName, teamsGame } from "./tablestate.js";
import { dealResults, fromResult } from "./results.js";
import { nextDealText, rematchGoneText } from "./status.js";

/** The end-of-deal message as the end card reads it once a ``room`` message came: the room
 * says when the next deal starts (none while the room is held, because everyone at it is
 * away or gone; a new time once somebody is back), and the deal_over message kept from the
 * deal's end would show no countdown, or a stale one, after a hold. */
export function dealOverWithRoom(dealOver, room) {
  if (!dealOver || !room || room.status !== "between-deals" || !("next_deal_at" in room)) return dealOver;
  if (dealOver.next_deal_at === room.next_deal_at) return dealOver;
  return { ...dealOver, next_deal_at: room.next_deal_at };
}

export function endOverlay(S, actions) {
  const v = S.view;
  // game_over and deal_over are sent once; a page that (re)joins later rebuilds them from the
  // view and the room (the record's address follows protocol.md)
  let go = S.gameOver;
  if (!go && v.over && S.room) {
    go = { winner: v.winner, scores: v.scores, game: S.room.game, record: `/records/${S.room.room}-${S.room.game}.json` };
  }
  let dealMsg = S.dealOver;
  if (!dealMsg && !v.turn && !v.over && S.room && S.room.next_deal_at) dealMsg = { next_deal_at: S.room.next_deal_at };
  const phaseOver = !v.turn;
  if (!go && !dealMsg && !phaseOver) return null;
  const result = (dealMsg && dealMsg.result) || (v.results && v.results[v.results.length - 1]);
  if (!result) return null;
  const teams = teamsGame(v);
  const scores = (go && go.scores) || (dealMsg && dealMsg.scores) || v.scores;
  // the hands are the finished deal's, and so is the view's wild rank until the next deal
  const { summary, table } = dealResults(S, result, { totals: scores, ...fromResult(result) });
  // the title takes the keyboard focus when the screen shows itself (endFocus)
  const title = h("h2", { id: "end-title", tabindex: -1, "data-key": "end-title", "data-end": go ? "game" : "deal", text: go ? t("end.gameOver") : t("end.dealOverN", { n: result.deal ?? v.deal }) });
  // the screen can be set aside to see the table under it (the melds laid, the hand held) and
  // brought back; set aside, it keeps its title and the countdown as a bar. The choice holds
  // for this end only: the next one shows itself whole.
  const endKey = `${S.room ? S.room.game : ""}.${go ? "game" : result.deal ?? v.deal}`;
  const peek = S.peekEnd === endKey;
  const toggle = h("button.btn.ghost.end-peek", {
    type: "button", "data-action": "peek", "data-key": "end-peek",
    text: peek ? t("end.showResults") : t("end.showTable"),
    onclick: () => { S.peekEnd = peek ? null : endKey; actions.render(); },
  });
  const countdown = !go && dealMsg && dealMsg.next_deal_at
    ? h("p.muted", { "data-next-deal": "1", "data-countdown": dealMsg.next_deal_at, text: nextDealText(S, dealMsg.next_deal_at) })
    : null;
  const asked = go ? (S.room.seats || []).filter((s) => s.rematch).map((s) => s.seat) : [];
  // a seated player may ask for the rematch from the bar too, without bringing the results back
  const seated = S.you !== null && S.you !== undefined;
  const rematch = go && seated ? rematchButton(S, actions, asked.includes(S.you)) : null;
  // who asked for the rematch, on the whole screen and on the bar set aside alike
  // one's own name first: "You (Ben)" after another's put its capital inside the list
  const askedFirst = [...asked].sort((a, b) => (b === S.you) - (a === S.you));
  const askedBy = () => h("p.muted", { "data-rematch-who": asked.join(" "),
    text: asked.length ? t("end.rematchWho", { who: askedFirst.map((s) => seatName(S, s)).join(", ") }) : "" });
  // the server's rematch clock: it runs while the rematch waits only for people who are gone,
  // and the new game starts without them when it runs out (docs/server.md)
  const rematchAt = go && S.room.rematch_at ? S.room.rematch_at : null;
  const waitedFor = rematchAt ? (S.room.seats || []).filter((s) => s.kind === "human" && !s.rematch).map((s) => seatName(S, s.seat)).join(", ") : "";
  const goneLine = () => rematchAt
    ? h("p.muted", { "data-rematch-at": rematchAt, "data-rematch-gone": waitedFor, text: rematchGoneText(S, rematchAt, waitedFor) })
    : null;
  if (peek) {
    return h("div.overlay.peek", { role: "region", "aria-labelledby": "end-title", "data-end-key": endKey },
      h("div.end-card", { id: "end-card" }, h("div.end-bar", {}, title, countdown, asked.length ? askedBy() : null, goneLine(), rematch, toggle)));
  }
  const body = [
    h("div.end-head", {}, title, toggle),
    h("p.end-winner", { id: "end-summary" }, summary),
    // a wide table of results scrolls sideways on a phone: kept where it was through a redraw
    h("div.table-scroll", { "data-key": `results-${endKey}`, "data-scroll": "" }, table),
  ];
  // The end is when people say "Good game!", and the screen covered the chips and the log
  // that show it and the log panel's Say button: what is being said shows here too (seen
  // only: the live region says it), and a seated person can answer from here.
  const saying = Object.entries(S.said || {}).sort((a, b) => a[1].until - b[1].until).map(([seat, x]) =>
    t("say.line", { who: seatName(S, Number(seat)), phrase: t(`say.phrase.${x.phrase}`) }));
  if (saying.length) body.push(h("p.end-said", { "aria-hidden": "true", "data-end-said": saying.length, text: saying.join("  ·  ") }));
  const say = seated
    ? h("button.btn.ghost", { type: "button", "data-action": "say", "data-key": "end-say", text: t("say.button"), onclick: () => actions.say() })
    : null;
  if (go) {
    const w = go.winner;
    let who;
    if (w === null || w === undefined) who = t("end.noWinner");
    // "You (Ana) and Bot 3 win" takes no verb in Spanish or French ("Tú (Ana) y Bot 3
    // ganan"): the person's own side is told in the second person
    else if (teams && seated && S.you % 2 === w) who = t("end.yourSideWins", { partner: seatName(S, (S.you + 2) % 4) });
    else if (teams) who = t("end.sideWins", { a: seatName(S, w), b: seatName(S, w + 2) });
    else if (w === S.you) who = t("end.youWinGame");
    else who = t("end.gameWinner", { who: seatName(S, w) });
    body.splice(1, 0, h("p.end-champion", { id: "end-champion", "data-winner": w, text: who }));
    const buttons = [];
    if (go.record) buttons.push(h("a.btn", { href: go.record, download: `${S.room.room}-${go.game}.json`, "data-action": "record", text: t("end.download") }));
    // the game move by move, every hand face up: the server serves it once the game is over
    if (go.record) buttons.push(h("button.btn", { type: "button", "data-action": "replay", "data-key": "end-replay", text: t("end.replay"), onclick: () => actions.openReplay(go.game) }));
    if (rematch) buttons.push(rematch);
    if (say) buttons.push(say);
    buttons.push(h("a.btn.ghost", { href: "/", text: t("end.lobby") }));
    body.push(askedBy());
    const gone = goneLine();
    if (gone) body.push(gone);
    body.push(h("div.row", {}, buttons));
  } else {
    if (countdown) body.push(countdown);
    if (say) body.push(h("div.row", {}, say));
  }
  // the dialog's description is what a screen reader says with its name when the focus enters
  return h("div.overlay", { role: "dialog", "aria-modal": "false", "aria-labelledby": "end-title",
    "aria-describedby": go ? "end-champion end-summary" : "end-summary", "data-end-key": endKey },
  h("div.end-card", { id: "end-card" }, body));
}

/** The keyboard focus and an end screen, after each render (``render`` in app.js) and as one
 * of the page's dialogs closes: a screen that shows itself whole for the first time takes the
 * focus on its title, so a keyboard or screen-reader player learns that the deal is over (a
 * dialog's name and description are read as the focus enters it; nothing else announces it)
 * and Tab reaches its buttons first; once the screen is gone (the next deal, a rematch) the
 * focus it held, or the bar set aside held, goes back to the table: the hand, or for a
 * spectator, who has none, the status line saying whose turn it is (what a spectator follows),
 * rather than nowhere (the body). Not while a dialog is open (they are modal: the screen behind
 * is inert): the end takes the focus when it closes. */
export function endFocus(root, S) {
  const end = root.querySelector(".overlay[data-end-key]");
  const whole = end && !end.classList.contains("peek");
  if (whole && S.endFocused !== end.dataset.endKey && !document.querySelector("dialog[open]")) {
    S.endFocused = end.dataset.endKey;
    end.querySelector("#end-title").focus({ preventScroll: true });
  }
  const active = document.activeElement;
  if (!end && S.endHadFocus && (!active || active === document.body)) {
    const back = root.querySelector(".hand .hand-card") || root.querySelector(".hand") || root.querySelector(".status");
    // not scrolled to: a phone's page would jump to the hand at every deal
    if (back) back.focus({ preventScroll: true });
  }
  S.endHadFocus = !!(end && active && end.contains(active));
}

/** Rematch, or that it was asked (the button then waits for the others). */
function rematchButton(S, actions, iAsked) {
  return h("button.btn.primary", { type: "button", "data-action": "rematch", "data-key": "rematch", disabled: iAsked,
    text: iAsked ? t("end.rematchAsked") : t("end.rematch"), onclick: () => actions.rematch() });
}
