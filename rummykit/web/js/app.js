// rummykit web client: boot, connection, state and routing. Views live in lobby.js and table.js
// (which draws the table from its parts: players.js, piles.js, meldtiles.js, status.js, …).
import { Connection } from "./net.js";
import { detectLanguage, loadLanguage, language, t, has, translateStatic } from "./i18n.js";
import { Arrangement } from "./hand.js";
import { toast, announce, clearAnnouncements, tapActed, chooseDialog, chime, alertsShown } from "./ui.js";
import { renderLobby, renderWaiting } from "./lobby.js";
import { renderTable } from "./table.js";
import { seatName, laysDownOnlyAtOnce } from "./tablestate.js";
import { describeAction, eventAction, eventDetail, keepLog } from "./tablelog.js";
import { tickClock, owesText } from "./status.js";
import { closePastDeal } from "./pastdeal.js";
import { endFocus, dealOverWithRoom } from "./endscreen.js";
import { handleKey } from "./shortcuts.js";
import { helpHtml } from "./help.js";
import { renderReplay, replayKey, openReplay, replayPlace } from "./replay.js";
import { translateReason } from "./reasons.js";
import { pretty } from "./cards.js";

const CODE_RE = /^[A-HJ-NP-Z2-9]{6}$/;
/** The quick messages the server takes (``say``, docs/protocol.md), in the order offered. */
const PHRASES = ["hello", "good_luck", "well_played", "thanks", "oops", "one_moment", "good_game", "bye"];

export const S = {
  conn: null,
  status: "connecting",
  variants: null,
  route: { name: "lobby", code: null },
  room: null,
  you: null,
  state: null,
  view: null,
  dealOver: null,
  gameOver: null,
  peekEnd: null,
  endFocused: null, // the end screen that took the focus (endFocus in endscreen.js)
  endHadFocus: false,
  pending: false,
  selected: new Set(),
  arrangement: null,
  log: [],
  clock: null,
  events: [],
  prefs: loadPrefs(),
  joined: false,
  replay: null, // a finished game looked back at (replay.js), shown in the table's place
  said: {}, // seat -> {phrase, until}: the quick messages shown on the seats' chips
};

function loadPrefs() {
  try {
    return { fourColor: false, bigCards: false, name: "", quiet: false, sound: false, ...JSON.parse(localStorage.getItem("rk.prefs") || "{}") };
  } catch {
    return { fourColor: false, bigCards: false, name: "", quiet: false, sound: false };
  }
}

export function savePrefs() {
  localStorage.setItem("rk.prefs", JSON.stringify(S.prefs));
  applyPrefs();
}

function applyPrefs() {
  document.body.classList.toggle("four-color", !!S.prefs.fourColor);
  document.body.classList.toggle("big-cards", !!S.prefs.bigCards);
}

// ---- seat tokens (localStorage, keyed by room code) ----
export function seats() {
  try {
    return JSON.parse(localStorage.getItem("rk.seats") || "{}");
  } catch {
    return {};
  }
}
function saveSeat(code, seat, token) {
  const all = seats();
  all[code] = { seat, token, time: Date.now(), variant: S.room?.variant || null };
  localStorage.setItem("rk.seats", JSON.stringify(all));
}
function forgetSeat(code) {
  const all = seats();
  delete all[code];
  localStorage.setItem("rk.seats", JSON.stringify(all));
}

// ---- routing ----
function parseRoute() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)\/?$/);
  // a game looked back at keeps its place in the fragment (replay.js): opened again once the
  // room is known
  if (m) return { name: "room", code: m[1].toUpperCase(), replay: replayPlace(location.hash) };
  return { name: "lobby", code: null };
}

export function go(path) {
  if (location.pathname !== path) history.pushState({}, "", path);
  onRoute();
}

function onRoute() {
  const r = parseRoute();
  const changed = r.code !== S.route.code;
  // the browser's Back (or Forward) out of a room still waiting gives its seat up on the server,
  // as Leave does: its token goes too, or the lobby listed the table and going back to it
  // said the seat was lost
  if (changed) forgetSeatIfWaiting();
  S.route = r;
  if (changed) {
    if (S.route.code === null && S.room) S.conn.send({ type: "leave" }, false);
    resetRoom();
    if (r.name === "room") enterRoom();
  } else if (S.room) {
    // the same room, another place in it: a look back's fragment, or none (the end screen)
    if (r.replay) reopenReplay();
    else S.replay = null;
  }
  render();
}

/** The look back the address asks for, at its place, once the room is known and playing (its
 * game over, or a rematch begun): nothing to look back at from a waiting room. */
function reopenReplay() {
  const want = S.route.replay;
  S.route.replay = null;
  if (!want || !S.room) return;
  if (S.room.status === "waiting") {
    history.replaceState(history.state, "", location.pathname + location.search);
    return;
  }
  const r = S.replay;
  if (r && r.game === want.game && r.deal === want.deal && r.step === want.step) return;
  openReplay(S, actions, want.game, want.deal, want.step);
  const title = document.getElementById("replay-title");
  if (title && !document.querySelector("dialog[open]")) title.focus({ preventScroll: true });
}

function resetRoom() {
  S.room = null;
  S.you = null;
  S.state = null;
  S.view = null;
  S.dealOver = null;
  S.gameOver = null;
  S.peekEnd = null;
  S.endFocused = null;
  S.endHadFocus = false;
  S.pending = false;
  S.selected = new Set();
  S.arrangement = null;
  S.log = [];
  S.clock = null;
  S.events = [];
  S.joined = false;
  S.replay = null;
  S.said = {};
}

/** Enter the room of the route: resume the seat if we hold its token, else watch. */
function enterRoom() {
  const code = S.route.code;
  if (!code || !S.conn.open) return;
  if (!CODE_RE.test(code)) {
    toast(t("error.no_room"), "error");
    return;
  }
  const mine = seats()[code];
  if (mine && mine.token) {
    S.conn.send({ type: "resume", room: code, token: mine.token }).catch(() => {});
  } else {
    S.conn.send({ type: "join", room: code }).catch(() => {});
  }
}

// ---- actions used by the views ----
export const actions = {
  openReplay(game) {
    openReplay(S, actions, game);
    const title = document.getElementById("replay-title");
    if (title) title.focus({ preventScroll: true });
  },
  /** A quick message to the table: one of the server's fixed phrases, chosen in a dialog. */
  async say() {
    const phrase = await chooseDialog(t("say.title"), PHRASES.map((p) => ({ label: t(`say.phrase.${p}`), value: p })));
    if (phrase) S.conn.send({ type: "say", phrase }, false);
  },
  savePrefs() {
    savePrefs();
  },
  async create(variant, players, options, name) {
    S.prefs.name = name;
    savePrefs();
    try {
      await S.conn.send({ type: "create", variant, players, options });
      await S.conn.send({ type: "sit", seat: 0, name });
    } catch (e) {
      /* errors are shown by the message handler */
    }
  },
  join(code) {
    // the code as typed (spaces in it, as read out), or the table's link pasted whole: what
    // follows /r/, up to a slash, a query or the end
    let c = String(code || "").trim();
    const link = c.match(/\/r\/([^/?#\s]+)/i);
    if (link) c = link[1];
    c = c.replace(/[\s-]+/g, "").toUpperCase();
    if (!CODE_RE.test(c)) {
      toast(t("lobby.badCode"), "error");
      return;
    }
    go(`/r/${c}`);
  },
  sit(seat) {
    let name = (S.prefs.name || "").trim();
    if (!name) name = t("lobby.defaultName");
    S.conn.send({ type: "sit", seat, name: name.slice(0, 24) }).catch(() => {});
  },
  addBot(seat, level) {
    S.conn.send({ type: "add_bot", seat, level }, false);
  },
  removeBot(seat) {
    S.conn.send({ type: "remove_bot", seat }, false);
  },
  leave() {
    if (S.route.code) forgetSeatIfWaiting();
    go("/");
  },
  back() {
    S.conn.send({ type: "back" }, false);
  },
  rematch() {
    S.conn.send({ type: "rematch" }, false);
  },
  /** Send one action (notation text) for our seat; at most one in flight. */
  async play(text) {
    // cards marked as leaving (Arrangement.expectGone) stay when the action is not played
    const unsent = () => {
      if (S.arrangement) S.arrangement.expectGone([]);
      return false;
    };
    if (S.pending || !S.state) return unsent();
    tapActed.yes = true;
    S.pending = true;
    render();
    try {
      await S.conn.send({ type: "action", version: S.state.version, action: text });
      return true;
    } catch (e) {
      return unsent();
    } finally {
      S.pending = false;
      render();
    }
  },
  render: () => render(),
  // a change of the selection alone (a card tapped): only what it changes is drawn again
  renderSelection: () => render(true),
};

function forgetSeatIfWaiting() {
  // only a page that holds the seat gives it up: a page replaced by another tab (watching) leaves
  // nothing on the server, and the stored token is that tab's
  if (S.room && S.room.status === "waiting" && S.you !== null && S.you !== undefined) forgetSeat(S.route.code);
}

// ---- messages ----
function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      break;
    case "room": {
      if (S.route.code && msg.room !== S.route.code) {
        S.route = { name: "room", code: msg.room };
        history.replaceState({}, "", `/r/${msg.room}`);
      } else if (!S.route.code) {
        S.route = { name: "room", code: msg.room };
        history.pushState({}, "", `/r/${msg.room}`);
      }
      const prevGame = S.room ? S.room.game : null;
      S.room = msg;
      S.joined = true;
      if (msg.you && "seat" in msg.you) S.you = msg.you.seat;
      if (prevGame !== null && msg.game !== prevGame) {
        S.gameOver = null;
        S.dealOver = null;
      }
      if (msg.status === "playing") S.dealOver = S.dealOver && S.view && S.view.phase === "deal-over" ? S.dealOver : null;
      S.dealOver = dealOverWithRoom(S.dealOver, msg);
      if (S.route.replay) reopenReplay();
      render();
      break;
    }
    case "seated":
      saveSeat(msg.room, msg.seat, msg.token);
      S.you = msg.seat;
      render();
      break;
    case "state":
      onState(msg);
      break;
    // no announcement of the end: its screen takes the focus on its title (endFocus in
    // endscreen.js), and a screen reader says the dialog's name and summary as it does; the live
    // region said "Deal over" as well, twice in all
    case "deal_over":
      S.dealOver = msg;
      render();
      break;
    case "game_over":
      S.gameOver = msg;
      render();
      break;
    case "said":
      onSaid(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

function onState(msg) {
  // a new game in the room (a rematch) starts the page afresh: its deal 1 may follow a game
  // that had only one deal, and the log is the game's (the last game's moves are its record)
  const newGame = !!S.state && msg.game !== S.state.game;
  if (newGame) S.log = [];
  const prev = newGame ? null : S.view;
  S.state = msg;
  S.view = msg.view;
  const v = msg.view;
  if (newGame || (prev && v.deal !== prev.deal)) {
    S.events = [];
    S.selected = new Set();
  }
  if (S.dealOver && v.deal > S.dealOver.deal && v.phase !== "deal-over") S.dealOver = null;
  // a connection that comes back within the deal (a dropped network, a phone asleep) gets the
  // deal's whole history again: the moves made while it was gone, past the events this page
  // already has, go to the log as an open page had them (the status line's last move with them)
  if (prev && v.deal === prev.deal && msg.last === null && Array.isArray(msg.events)) {
    logEvents(msg.events.slice(S.events.length));
  }
  if (Array.isArray(msg.events)) {
    // entering a room, a reconnection and a new deal bring the deal's whole history
    if (msg.last === null) S.events = [...msg.events];
    else S.events.push(...msg.events);
  }
  // a deal's moves follow a line naming it: the page's first state, a new game's and a new
  // deal's. A page entering mid-deal (a reload, an opened link) then tells the deal's moves it
  // did not see, as a page that stayed open told them (earlier deals are not in the state), and
  // so does a new game's first state (a bot may have moved already)
  if (!prev || v.deal !== prev.deal) {
    S.log.push(dealHeading(v.deal));
    logEvents(msg.last === null && Array.isArray(msg.events) ? msg.events : []);
  }
  if (Array.isArray(v.hand)) {
    const key = `rk.hand.${msg.room}.${v.seat}`;
    if (!S.arrangement || S.arrangement.key !== key) {
      S.arrangement = new Arrangement(key);
      S.arrangement.load();
    }
    S.arrangement.reconcile(v.hand, `${msg.game}.${v.deal}`);
    // a selected card that left the hand is no longer selected
    const all = new Set(S.arrangement.all());
    S.selected = new Set([...S.selected].filter((id) => all.has(id)));
  }
  if (msg.last) {
    // this state's own event (the latest of its kind): what a take took, what the clock did
    const verb = String(msg.last.action).split(/\s+/)[0];
    const ev = ["draw", "take", "return", "timeout", "declare", "drop", "open"].includes(verb) ? [...S.events].reverse().find((e) => e.action === verb) : null;
    const entry = logEntry(msg.last, ev ? eventDetail(ev) : null);
    S.log.push(entry);
    // the stock rebuilt from the pile as the turn ended comes with the move's own event
    for (const e of Array.isArray(msg.events) ? msg.events : []) {
      if (e.action === "restock") S.log.push(logEntry(eventAction(e), null));
    }
    S.log = keepLog(S.log);
    // one's own moves go unsaid, but for what the server played for the seat (the clock ran
    // out, or the seat was away): silence then left a screen reader's player wondering why the
    // turn had passed
    if (msg.last.seat !== S.you || msg.last.auto) announce(entry.text);
    // the card drawn from the stock is outlined in the hand, which a screen reader cannot see:
    // it is said, or found only by reading the whole hand again
    else if (verb === "draw" && S.arrangement && S.arrangement.fresh.size === 1) {
      announce(t("turn.youDrew", { card: pretty(Arrangement.textOf([...S.arrangement.fresh][0])) }));
    }
  }
  S.clock = msg.clock
    ? { seat: msg.clock.seat, endAt: performance.now() + (msg.clock.remaining ?? msg.clock.deadline - S.conn.now()), duration: msg.clock.duration }
    : null;
  if (v.turn && v.turn.seat === S.you && v.seat === S.you && (!prev || !prev.turn || prev.turn.seat !== S.you)) {
    announce(t("turn.yours"));
    // Chromium refuses (and logs an error) before the page has been touched, as after a reload
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (!document.hidden && navigator.vibrate && touched) navigator.vibrate(60);
    // heard from another tab or window too: that is when a player needs it
    if (S.prefs.sound && touched) chime();
  }
  // a card owed (the discard taken, a joker freed) is named in the status line, which is no
  // live region: said as it comes, or the player heard nothing of the rule until a refusal
  const owes = owedNow(v);
  if (owes && owes !== (prev ? owedNow(prev) : null)) {
    announce(owesText(v.turn.owes, v.turn.can || []));
  }
  // the opening meter reaching what an opening needs shows an Open button and a bar turned
  // green, neither of which is said: said once, as the Open button comes
  if (canOpenNow(v) && !(prev && canOpenNow(prev))) {
    announce(laysDownOnlyAtOnce(v) ? t("turn.canCloseAll") : t("turn.canOpen", { points: v.opening.meter.points }));
  }
  // and so is the Indian declaration check finding a valid declaration (its line turned green)
  if (canDeclareNow(v) && !(prev && canDeclareNow(prev))) {
    announce(t("declare.ready", { card: v.declaration.discard ? pretty(v.declaration.discard) : "" }));
  }
  render();
}

/** The meter's one-tap opening is on offer to this page's player (its Open button shows). */
function canOpenNow(v) {
  const o = v && v.opening;
  return !!(v.turn && v.turn.seat === S.you && v.seat === S.you && Array.isArray(v.turn.can) && v.turn.can.includes("open")
    && o && !o.opened && o.meter && o.meter.action);
}

/** The cards this page's player owes on their turn (to lay before discarding), as one string. */
function owedNow(v) {
  const mine = v.turn && v.turn.seat === S.you && v.seat === S.you;
  return mine && Array.isArray(v.turn.owes) && v.turn.owes.length ? v.turn.owes.join(" ") : null;
}

/** The engine found a valid declaration for this page's player, on their turn. */
function canDeclareNow(v) {
  return !!(v.turn && v.turn.seat === S.you && v.seat === S.you && Array.isArray(v.turn.can) && v.turn.can.includes("declare")
    && v.declaration && v.declaration.valid);
}

/** A line of the log: worded when shown, so a change of language rewords the whole log.
 * ``detail`` is what the action's history event adds to its text (``eventDetail``), kept with
 * the line: the deal's events are gone by the time a later deal words it again. */
function logEntry(last, detail) {
  return { seat: last.seat, auto: !!last.auto, get text() { return describeAction(last, S, detail); } };
}

/** The log's lines of history events the page did not see as they happened. */
function logEvents(events) {
  for (const e of events) {
    const last = eventAction(e);
    if (last) S.log.push(logEntry(last, eventDetail(e)));
  }
  S.log = keepLog(S.log);
}

/** How long a quick message shows on its seat's chip. */
const SAID_MS = 6000;

/** A quick message (``said``): on the seat's chip for a few seconds, a line in the log, said to
 * a screen reader; none of it for a person who turned them off in the settings (one's own still
 * shows: it was sent). */
function onSaid(msg) {
  if (S.prefs.quiet && msg.seat !== S.you) return;
  const seat = msg.seat;
  const phrase = msg.phrase;
  const until = Date.now() + SAID_MS;
  S.said[seat] = { phrase, until };
  const line = { seat, said: true, get text() { return t("say.line", { who: seatName(S, seat), phrase: t(`say.phrase.${phrase}`) }); } };
  S.log.push(line);
  S.log = keepLog(S.log);
  if (seat !== S.you) announce(line.text);
  render();
  setTimeout(() => {
    if (S.said[seat] && S.said[seat].until === until) {
      delete S.said[seat];
      render();
    }
  }, SAID_MS);
}

/** The log's line where a deal starts: nobody's move, so it has no seat. */
function dealHeading(deal) {
  return { deal, get text() { return t("log.deal", { n: deal }); } };
}

/** The text of a server error: a translated label, and the engine's reason in the player's
 * language (as the server gave it when the page does not know the sentence). */
export function errorText(msg) {
  const code = msg.code || "internal";
  // the colon is the catalog's: French puts a space before it
  if (code === "illegal_action") return t("common.labelValue", { label: t("error.illegal"), value: translateReason(msg.message) });
  // a name refused for the marks stacked on a letter, not for reading as a bot's
  if (code === "bad_name" && msg.reason === "marks") return t("error.bad_name_marks");
  // a code refused for the address's guesses, not for the messages' pace
  if (code === "rate_limited" && msg.reason === "codes") return t("error.rate_limited_codes");
  // quick messages sent too fast: the player may go on playing
  if (code === "rate_limited" && msg.reason === "say") return t("say.tooMany");
  if (has(`error.${code}`)) return t(`error.${code}`);
  return t("common.labelValue", { label: t("error.generic"), value: msg.message || code });
}

function onError(msg) {
  if (msg.code === "rate_limited" && msg.reason === "codes" && S.route.name === "room" && !S.room) {
    // the room's door refused, not the room: the seat's token stays for a later try
    toast(errorText(msg), "error", 7000);
    resetRoom();
    S.route = { name: "lobby", code: null };
    history.replaceState({}, "", "/");
    render();
    return;
  }
  switch (msg.code) {
    case "bad_token":
      forgetSeat(S.route.code);
      S.conn.send({ type: "join", room: S.route.code }).catch(() => {});
      toast(t("error.bad_token"), "error");
      return;
    case "no_room":
      toast(t("error.no_room"), "error");
      forgetSeat(S.route.code);
      resetRoom();
      S.route = { name: "lobby", code: null };
      history.replaceState({}, "", "/");
      render();
      return;
    case "replaced":
      S.you = null;
      toast(t("error.replaced"), "error", 8000);
      render();
      return;
    case "stale_version":
      // the newer state is on its way (or here): nothing to tell the player
      return;
    default:
      toast(errorText(msg), "error", msg.code === "illegal_action" ? 7000 : 5000);
  }
}

// ---- rendering ----
const viewRoot = () => document.getElementById("view");

// A redraw while a finger (or the mouse button) is down lost the tap: Chromium fires no click
// on a pressed node that was taken out of its place, even one kept and put back with moveBefore
// (placeView), so Draw tapped as a resume's seated/room/state messages came sent nothing. A
// redraw waits for the press to end and comes right after its click (a timeout: the click is
// dispatched in the same task as the pointerup). A press held longer than PRESS_WAIT is no tap:
// the page then redraws anyway, so a pointer stuck down cannot freeze it.
const PRESS_WAIT = 1500;
const press = { down: false, owed: false, timer: null };

function pressEnded() {
  if (!press.down) return;
  press.down = false;
  clearTimeout(press.timer);
  if (press.owed) {
    press.owed = false;
    setTimeout(render, 0);
  }
}

function pressStarted() {
  press.down = true;
  clearTimeout(press.timer);
  press.timer = setTimeout(pressEnded, PRESS_WAIT);
}

window.addEventListener("pointerdown", (e) => {
  if (e.isPrimary && e.button === 0) pressStarted();
}, true);
for (const type of ["pointerup", "pointercancel"]) window.addEventListener(type, (e) => { if (e.isPrimary) pressEnded(); }, true);
// Space clicks a button on the key's release, so it is a press like a finger's (Enter clicks
// at once and needs nothing). Heard last, as it bubbles: a Space the page handles itself (a hand
// card's selection) makes no click and is drawn at once.
const spaceClicks = (el) => el instanceof Element && el.closest("button, [role=button]") !== null;
window.addEventListener("keydown", (e) => {
  if (e.key === " " && !e.repeat && !e.defaultPrevented && spaceClicks(e.target)) pressStarted();
});
window.addEventListener("keyup", (e) => { if (e.key === " ") pressEnded(); }, true);
window.addEventListener("blur", pressEnded);

// The second tap of a double tap (a hand that shakes, a habit from other apps) on a control
// that acted is no tap of its own: the redraw, or a question, had put another control under the
// finger. Draw tapped twice with a card selected drew and discarded it (Discard takes Draw's
// place), Take tapped twice took the card and gave it back, Drop tapped twice confirmed itself
// (the question's "Drop (−20)" lies where Drop was, on a phone). The browser counts the taps of
// a double tap or click (the click's detail: 2, 3…, by the platform's own time and distance),
// so a tap counted so after one that acted (tapActed, ui.js) is dropped; a tap counted 1 starts
// afresh, and the keyboard's clicks (detail 0) are always let through.
window.addEventListener("click", (e) => {
  if (!e.isTrusted || e.detail === 0) return;
  if (e.detail === 1) tapActed.yes = false;
  else if (tapActed.yes) {
    e.stopPropagation();
    e.preventDefault();
  }
}, true);

// The focus lost from the view with nowhere to go yet (see render).
let focusOwed = false;

/** Where the keyboard focus goes when the control holding it went away: an end screen's title
 * (Rematch pressed, now disabled while the others decide) or its bar's button, the hand (or a
 * spectator's status line), a waiting room's next "Add a bot", else its link; the lobby's
 * Create (a waiting room left). */
function focusHome(root) {
  // the replay's », «, ▶ and ◀ pressed with Enter go disabled at the deal's end or start (and
  // every button while a deal loads): the slider, which says where one is, else the title
  return root.querySelector(".replay .replay-slider:not([disabled])") || root.querySelector(".replay #replay-title")
    || root.querySelector(".overlay:not(.peek) #end-title") || root.querySelector(".overlay.peek [data-action=peek]")
    || root.querySelector(".hand .hand-card") || root.querySelector(".hand") || root.querySelector(".status")
    || root.querySelector("[data-action=add-bot]") || root.querySelector("[data-action=copy-link]")
    || root.querySelector("[data-action=create]:not([disabled])");
}

export function render(selection = false) {
  if (press.down) {
    press.owed = true;
    return;
  }
  const root = viewRoot();
  root.setAttribute("aria-busy", "false");
  renderTopbar();
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const lost = !document.activeElement || document.activeElement === document.body;
  const focusInView = (!!document.activeElement && !lost && root.contains(document.activeElement)) || (focusOwed && lost);
  focusOwed = false;
  if (S.route.name === "lobby") {
    renderLobby(root, S, actions);
  } else if (!S.room) {
    root.replaceChildren();
    const p = document.createElement("p");
    p.className = "loading";
    p.textContent = S.status === "online" ? t("room.joining") : t("conn.connecting");
    root.append(p);
  } else if (S.room.status === "waiting") {
    renderWaiting(root, S, actions);
  } else if (S.replay) {
    renderReplay(root, S, actions);
  } else {
    renderTable(root, S, actions, selection);
  }
  // the look back at a past deal belongs to the table it was opened over
  if (S.route.name !== "room" || !S.room || S.room.status === "waiting" || S.replay) closePastDeal();
  if (focusKey) {
    let el = root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    // a card that left the hand (discarded, laid) hands the keyboard focus to the hand
    if (!el && focusKey.startsWith("card-")) el = root.querySelector(".hand .hand-card") || root.querySelector(".hand");
    if (el && el !== document.activeElement) el.focus({ preventScroll: true });
  }
  // An action that took its own control away (Draw, Discard or Meld pressed with Enter, the
  // pile gone disabled, a group's × ungrouping it, Rematch disabled once asked, a waiting
  // room's "Add a bot") left the focus on the page's start: Tab then began again at the top
  // bar, and a screen reader lost its place. It goes where the player is (focusHome).
  if (focusInView && (!document.activeElement || document.activeElement === document.body)) {
    const back = focusHome(root);
    if (back) back.focus({ preventScroll: true });
    // nothing to take it yet (the last bot seated, the table's first state still to come): the
    // next drawing owes it
    else focusOwed = true;
  }
  if (S.room && S.room.status !== "waiting" && S.view && !S.replay) endFocus(root, S);
  alertsShown();
}

function renderTopbar() {
  const conn = document.getElementById("conn");
  conn.dataset.status = S.status;
  conn.textContent = S.status === "online" ? "" : t(`conn.${S.status}`);
  // no live region, an alert of the page (alertsShown in ui.js): inert under a modal dialog, it
  // went unsaid while the help was open, and at a table the banner said it too. The first
  // connection of the page is no alert: nothing was lost.
  if (S.status === "reconnecting") conn.dataset.alert = "conn";
  else delete conn.dataset.alert;
  const box = document.getElementById("topbar-room");
  if (S.room && S.route.name === "room") {
    box.hidden = false;
    box.textContent = `${t(`variant.${S.room.variant}.name`)} · ${S.room.room}`;
  } else {
    box.hidden = true;
  }
}

/** The help's text, in the page's language, for the game of the table being shown (in the
 * lobby, for every game): drawn again each time it opens, since a table's game can change. */
function fillHelp() {
  const variant = S.room && S.route && S.route.name === "room" ? S.room.variant : null;
  document.getElementById("help-body").innerHTML = helpHtml(t, variant);
}

async function setLanguage(lang) {
  const before = language();
  await loadLanguage(lang);
  if (language() !== before) clearAnnouncements();
  document.getElementById("lang").value = language();
  translateStatic();
  fillHelp();
  render();
}

async function boot() {
  applyPrefs();
  await setLanguage(detectLanguage());
  document.getElementById("lang").addEventListener("change", (e) => setLanguage(e.target.value).catch(() => {
    // its words could not be fetched (no network): the page keeps its language, and the menu
    // names that one, not the choice left half made (chosen again once back, it changed nothing)
    document.getElementById("lang").value = language();
    toast(t("settings.languageUnavailable"), "error");
  }));
  const settings = document.getElementById("settings");
  document.getElementById("settings-btn").addEventListener("click", () => {
    document.getElementById("opt-fourcolor").checked = !!S.prefs.fourColor;
    document.getElementById("opt-bigcards").checked = !!S.prefs.bigCards;
    document.getElementById("opt-quick").checked = !S.prefs.quiet;
    document.getElementById("opt-sound").checked = !!S.prefs.sound;
    document.getElementById("opt-name").value = S.prefs.name || "";
    settings.showModal();
  });
  settings.addEventListener("close", () => {
    S.prefs.quiet = !document.getElementById("opt-quick").checked;
    S.prefs.sound = document.getElementById("opt-sound").checked;
    if (S.prefs.quiet) S.said = {};
    S.prefs.fourColor = document.getElementById("opt-fourcolor").checked;
    S.prefs.bigCards = document.getElementById("opt-bigcards").checked;
    S.prefs.name = document.getElementById("opt-name").value.trim().slice(0, 24);
    savePrefs();
    render();
  });
  document.getElementById("help-btn").addEventListener("click", () => {
    const help = document.getElementById("help");
    fillHelp();
    help.showModal();
    // its Close button, at the foot, takes the focus and scrolled a phone's dialog down to the
    // keyboard's table: it opens at its start, how to play by touch
    help.scrollTop = 0;
  });
  // An end that came while one of the page's dialogs was open waited for it (endFocus): the
  // dialogs are modal, so the screen behind is inert, and taking the focus out of the help or
  // a question being read would lose the reader's place. It takes the focus as the dialog
  // closes: "close" comes after the browser has given the focus back to the dialog's opener.
  for (const dlg of document.querySelectorAll("dialog")) {
    dlg.addEventListener("close", () => { if (S.room && S.room.status !== "waiting" && S.view && !S.replay) endFocus(viewRoot(), S); });
  }
  window.addEventListener("popstate", onRoute);
  // the look back at a game has keys of its own, and the table's (D to draw…) none meanwhile
  document.addEventListener("keydown", (e) => (S.replay ? replayKey(e, S, actions) : handleKey(e, S, actions)));
  S.route = parseRoute();
  S.conn = new Connection({
    onMessage,
    onStatus: (s) => {
      S.status = s;
      renderTopbar();
      // the table's banner says it is reconnecting, and goes when it is back: drawn as the
      // status changes, since no state comes while the socket is down (it showed only at a
      // redraw of the page's own, a tap, and stayed until the next state once back)
      if (S.route.name === "room") render();
      alertsShown();
    },
    onOpen: () => {
      if (S.route.name === "room") enterRoom();
      render();
    },
  });
  S.conn.connect();
  document.addEventListener("visibilitychange", () => { if (!document.hidden) S.conn.nudge(); });
  window.addEventListener("online", () => S.conn.nudge());
  // no network, no socket: given up at once (it said "online" until a ping went unanswered),
  // and tried again as the network returns
  window.addEventListener("offline", () => S.conn.drop());
  setInterval(() => tickClock(S), 250);
  fetch("/api/variants")
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (data && data.variants) {
        S.variants = data.variants;
        if (S.route.name === "lobby") render();
      }
    })
    .catch(() => {});
  render();
  window.rummykit = { S, actions, version: 1 };
}

boot();
