// The table: other players, melds, stock and pile, the hand, the actions, the clock and the end
// of deal / game screens. Everything is redrawn from the latest state; the hand's arrangement
// and the selection live in the client.
import { language, t } from "./i18n.js";
import { h, listen, placePart, placeView, toast } from "./ui.js";
import { cardElement } from "./cards.js";
import { Arrangement } from "./hand.js";
import { can, isMyTurn, rulesOf, selectedIds, teamsGame } from "./tablestate.js";
import { meldOrder } from "./meldfit.js";
import { heldBannerKey, statusBar, tickClock } from "./status.js";
import { doDiscard, layOff, openingOf } from "./moves.js";
import { opponentsBox } from "./players.js";
import { pileHistory, pilesBox } from "./piles.js";
import { meldsBox } from "./meldtiles.js";
import { meterBar } from "./meter.js";
import { actionBar } from "./actionbar.js";
import { handBox } from "./handbox.js";
import { pastDealWatch } from "./pastdeal.js";
import { sidePanel } from "./sidepanel.js";
import { endOverlay } from "./endscreen.js";
// what the table's importers (app.js, replay.js, the browser tests) took from here before it was split
export { laysDownOnlyAtOnce, seatName, seatOut, subjectName } from "./tablestate.js";
export { fits, meldOrder, standsFor } from "./meldfit.js";
export { describeAction, eventAction, eventDetail, keepLog, panelLog } from "./tablelog.js";
export { dealResults, dealSummary } from "./results.js";
export { heldBannerKey, owesText, tickClock } from "./status.js";
export { sentence, wrongDeclarationCost } from "./moves.js";
export { takenFromPile } from "./players.js";
export { pileThrowers } from "./piles.js";
export { closePastDeal, openPastDeal } from "./pastdeal.js";
export { dealOverWithRoom, endFocus } from "./endscreen.js";
export { handleKey } from "./shortcuts.js";

// ---------------------------------------------------------------- helpers over the state

// ---------------------------------------------------------------- rendering
// The parts of the table a change of the selection alone draws again (redrawSelection), each
// marked data-part: the piles (the pile discards the one card selected), the melds (those the
// card fits), the meter, the action buttons and the hand.
const SELECTION_PARTS = { piles: pilesBox, melds: meldsBox, meter: meterBar, actions: actionBar, hand: handBox };

function part(name, S, actions) {
  const el = SELECTION_PARTS[name](S, actions);
  if (el) el.dataset.part = name;
  return el;
}

// What the table in the page was drawn from: a change of the selection alone is drawn by
// redrawSelection while all of it is the same
let drawnFrom = [];
const drawing = (S) => [S.view, S.room, S.state, S.status, S.pending, S.dealOver, S.gameOver, S.replay, S.you, S.arrangement, language()];

/** A card tapped (or selected with Space, or the selection cleared) draws again only what the
 * selection changes: the whole table drawn anew, some 1,200 nodes at a full one, was laid out
 * and styled again as well, and a card tapped showed selected 200–300 ms later on a slow phone.
 * False where the table in the page is not the one the state would draw (a state come while a
 * finger was down, its redraw owed), or has an end screen: the whole table is drawn then. */
function redrawSelection(root, S, actions) {
  const section = root.firstElementChild;
  if (!section || !section.matches("section.table-view") || root.children.length !== 1 || section.querySelector(".overlay")) return false;
  const now = drawing(S);
  if (now.length !== drawnFrom.length || now.some((x, i) => x !== drawnFrom[i])) return false;
  const parts = [];
  for (const name of Object.keys(SELECTION_PARTS)) {
    const old = section.querySelector(`[data-part="${name}"]`);
    const fresh = part(name, S, actions);
    if (!old !== !fresh) return false;
    if (fresh) parts.push([old, fresh]);
  }
  // before the parts are placed: a node kept there takes on the listeners of its new equal
  for (const [, fresh] of parts) setupDrag(fresh, S, actions);
  for (const [old, fresh] of parts) placePart(old, fresh);
  return true;
}

/** Draw the table; ``selection``: only the selection changed since it was last drawn. */
export function renderTable(root, S, actions, selection = false) {
  if (selection && S.view && redrawSelection(root, S, actions)) return;
  const v = S.view;
  if (!v) {
    root.replaceChildren(h("p.loading", { text: t("room.waitingForDeal") }));
    return;
  }
  const mine = S.you !== null && S.you !== undefined && v.seat === S.you;
  const myTurn = isMyTurn(S);
  const teams = teamsGame(v);
  const section = h("section.table-view", {
    "data-variant": v.variant, "data-version": S.state.version, "data-deal": v.deal,
    "data-my-turn": myTurn ? "true" : "false", "data-phase": v.turn ? v.turn.phase : v.over ? "game-over" : "deal-over",
    "data-seat": mine ? S.you : "spectator", "data-pending": S.pending ? "true" : "false",
    "data-over": v.over ? "true" : "false",
  });
  if (myTurn) section.classList.add("my-turn");
  // the page's one top heading, for a screen reader's list of headings (the lobby and the
  // waiting room show theirs)
  section.append(h("h1.visually-hidden", { text: `${t(`variant.${v.variant}.name`)} · ${t("table.dealN", { n: v.deal })}` }));

  // --- the other players
  const opponents = opponentsBox(S, mine, teams);

  // --- the felt: stock, pile, indicator, melds
  const felt = h("div.felt", {}, part("piles", S, actions), part("melds", S, actions), pileHistory(S));

  // --- me: status, clock, meter, actions, hand
  const me = mine ? h("div.my-area", {}, statusBar(S, actions), part("meter", S, actions), part("actions", S, actions), part("hand", S, actions))
    : h("div.my-area.spectating", {}, statusBar(S, actions), h("p.spectator-note", { text: t("table.spectating") }));

  const side = sidePanel(S, actions);
  const board = h("div.board", {}, opponents, felt, me);
  section.append(board, side);
  const overlay = endOverlay(S, actions);
  if (overlay) section.append(overlay);
  // Under a whole end screen the table is out of reach: Shift+Tab from its title went into the
  // dimmed table behind it (the log, the hand, the sorts: twenty stops, their focus ring under
  // the screen). "Show the table" sets the screen aside to look at it; the top bar stays.
  if (overlay && !overlay.classList.contains("peek")) {
    board.inert = true;
    side.inert = true;
  }
  // room below the bar of a screen set aside, so the end of the hand can be scrolled into view
  if (overlay && overlay.classList.contains("peek")) section.classList.add("peeking");
  // every seated person is away: the server holds the game (no clock) until one comes back
  // The banners are alerts of the page (data-alert), said once as they come (alertsShown in
  // ui.js, after the drawing), in the live region of a dialog open over the table if one is;
  // none is a live region of its own, since each is drawn anew at every redraw
  if (S.room && S.room.held) section.prepend(h("div.banner.held", { "data-alert": "held" }, t(heldBannerKey(S))));
  const away = mine && S.room.seats[S.you] && S.room.seats[S.you].away;
  if (away) {
    section.prepend(h("div.banner.away", {}, h("span", { "data-alert": "away", text: t("table.awayBanner") }),
      h("button.btn.primary", { type: "button", "data-action": "back", text: t("table.imBack"), onclick: () => actions.back() })));
  }
  if (S.status !== "online") {
    // one alert with the top bar's status (app.js), said in these words
    section.prepend(h("div.banner.offline", { "data-alert": "conn" }, t("conn.reconnectingLong")));
  }
  // before the table is placed: a node kept there takes on the listeners of its new equal
  // (placeView)
  setupDrag(section, S, actions);
  placeView(root, section);
  drawnFrom = drawing(S);
  document.title = myTurn ? `● ${t("turn.yours")} — rummykit` : `${t(`variant.${v.variant}.name`)} — rummykit`;
  tickClock(S);
  pastDealWatch(S);
}

// ---------------------------------------------------------------- a past deal, looked back at

// ---------------------------------------------------------------- end of deal / game

// ---------------------------------------------------------------- actions with questions

// ---------------------------------------------------------------- the clock

// ---------------------------------------------------------------- keyboard

// ---------------------------------------------------------------- drag and drop (pointer events)
let suppressClick = false;
document.addEventListener("click", (e) => {
  // the click a browser fires right after a drag's pointerup is not a tap
  if (suppressClick && e.isTrusted) {
    e.stopPropagation();
    e.preventDefault();
  }
}, true);

function setupDrag(root, S, actions) {
  root.querySelectorAll("[data-drag]").forEach((src) => {
    // the node the pointer went down on: a node kept through a redraw takes on this listener
    listen(src, "pointerdown", (e) => startDrag(e, e.currentTarget, S, actions));
  });
}

function startDrag(e, src, S, actions) {
  if (e.button !== 0) return;
  if (e.target.closest(".group-x")) return;
  const startX = e.clientX;
  const startY = e.clientY;
  let ghost = null;
  let over = null;
  const kind = src.dataset.drag;
  let ids = [];
  if (kind === "card") {
    const id = src.dataset.id;
    ids = S.selected.has(id) && S.selected.size > 1 ? selectedIds(S) : [id];
  } else if (kind === "group") {
    ids = [...S.arrangement.groups[Number(src.dataset.group)]];
  }
  const move = (ev) => {
    const dx = ev.clientX - startX;
    const dy = ev.clientY - startY;
    if (!ghost) {
      if (Math.hypot(dx, dy) < 8) return;
      ghost = makeGhost(kind, ids, src);
      document.body.classList.add("dragging");
      src.classList.add("drag-source");
    }
    ghost.style.transform = `translate(${ev.clientX - 30}px, ${ev.clientY - 40}px)`;
    const target = dropTarget(ev.clientX, ev.clientY);
    if (target !== over) {
      if (over) over.classList.remove("drop-over");
      over = target;
      if (over) over.classList.add("drop-over");
    }
    ev.preventDefault();
  };
  const up = (ev) => {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", up);
    document.removeEventListener("pointercancel", up);
    if (!ghost) return;
    // where it lands, read while the boxes shown for the drag only are there (the new group's;
    // on a phone held sideways the empty loose cards'): read after, the point fell on the hand
    // behind them, and a card let go on the loose cards went into a group of its own
    const target = ev.type === "pointerup" ? dropTarget(ev.clientX, ev.clientY) : null;
    ghost.remove();
    document.body.classList.remove("dragging");
    src.classList.remove("drag-source");
    if (over) over.classList.remove("drop-over");
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    if (ev.type === "pointerup") drop(kind, ids, target, ev, S, actions);
  };
  document.addEventListener("pointermove", move, { passive: false });
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", up);
}

function makeGhost(kind, ids, src) {
  const g = document.createElement("div");
  g.className = "drag-ghost";
  if (kind === "stock") g.append(cardElement("X", { faceDown: true }));
  else if (kind === "pile") g.append(cardElement(src.dataset.top || "X", { t }));
  else ids.forEach((id) => g.append(cardElement(Arrangement.textOf(id), { t })));
  document.body.append(g);
  return g;
}

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  return el ? el.closest("[data-drop]") : null;
}

function drop(kind, ids, target, ev, S, actions) {
  if (!target) return;
  const where = target.dataset.drop;
  const v = S.view;
  const arr = S.arrangement;
  if (kind === "stock" || kind === "pile") {
    if (["hand", "hand-card", "group", "new-group"].includes(where)) actions.play(kind === "stock" ? "draw" : "take");
    return;
  }
  const texts = ids.map(Arrangement.textOf);
  switch (where) {
    case "hand-card": {
      const targetId = target.dataset.id;
      if (ids.includes(targetId)) return;
      const loc = arr.locate(targetId);
      const r = target.getBoundingClientRect();
      const after = ev.clientX > r.left + r.width / 2;
      const list = arr.list(loc.group);
      const before = after ? list[list.indexOf(targetId) + 1] || null : targetId;
      arr.move(ids, loc.group, before);
      actions.render();
      return;
    }
    case "group":
      arr.move(ids, Number(target.dataset.group), null);
      actions.render();
      return;
    case "new-group":
    case "hand":
      arr.group(ids);
      S.selected.clear();
      actions.render();
      return;
    case "pile":
      // the card just taken, dragged back onto the pile, is returned (devolver)
      if (ids.length === 1 && can(S, "return") && v.turn.taken === texts[0]) {
        arr.expectGone(ids);
        actions.play("return");
      }
      else if (ids.length === 1 && can(S, "discard")) doDiscard(S, actions, ids[0]);
      else if (ids.length !== 1) toast(t("action.pickOne"), "error");
      else if (isMyTurn(S)) actions.play(`discard ${texts[0]}`);
      return;
    case "meld": {
      const meld = v.table.find((m) => m.number === Number(target.dataset.meld));
      if (meld && ids.length === 1) {
        layOff(S, actions, meld, ids[0]);
        return;
      }
    }
    // several cards dropped on a meld go down as a new meld, like anywhere on the table
    // falls through
    case "table": {
      const rules = rulesOf(v);
      if (texts.length < 3) return;
      if (can(S, "meld") || can(S, "open")) arr.expectGone(ids);
      if (can(S, "meld")) actions.play(`meld ${meldOrder(texts, rules).join(" ")}`).then((ok) => { if (ok) { S.selected.clear(); actions.render(); } });
      // dragged as the Open button lays them: each group its own meld
      else if (can(S, "open")) actions.play(openingOf(S, ids)).then((ok) => { if (ok) { S.selected.clear(); actions.render(); } });
      return;
    }
    default:
  }
}
