// The table as a whole: it lays out its parts, drawn by modules of their own (players.js, the
// other players; piles.js, the stock and the pile; meldtiles.js, the melds laid; status.js,
// meter.js, actionbar.js and handbox.js, one's own area; sidepanel.js, the scores and the log;
// endscreen.js, the end of a deal or the game), the banners over them; it draws again only
// what a change of the selection changes, and puts a table drawn anew on the one in the page
// part by part, those that did not change kept. Everything is redrawn from the latest state;
// the hand's arrangement and the selection live in the client.
import { language, t } from "./i18n.js";
import { h, placeAllParts, placeParts, placeView } from "./ui.js";
import { isMyTurn, teamsGame } from "./tablestate.js";
import { heldBannerKey, statusBar, tickClock } from "./status.js";
import { opponentsBox } from "./players.js";
import { pileHistory, pilesBox } from "./piles.js";
import { meldsBox } from "./meldtiles.js";
import { meterBar } from "./meter.js";
import { actionBar } from "./actionbar.js";
import { handBox } from "./handbox.js";
import { pastDealWatch } from "./pastdeal.js";
import { sidePanel } from "./sidepanel.js";
import { endOverlay } from "./endscreen.js";
import { setupDrag } from "./drag.js";

// The parts of the table a change of the selection alone draws again (redrawSelection), each
// marked data-part: the piles (the pile discards the one card selected), the melds (those the
// card fits), the meter, the action buttons and the hand.
const SELECTION_PARTS = { piles: pilesBox, melds: meldsBox, meter: meterBar, actions: actionBar, hand: handBox };

/** ``el`` marked as the part ``name`` of the table (placeParts in ui.js), if there is one. */
function marked(el, name) {
  if (el) el.dataset.part = name;
  return el;
}

/** The part ``name`` of SELECTION_PARTS drawn anew, marked. */
const part = (name, S, actions) => marked(SELECTION_PARTS[name](S, actions), name);

// Which table the page shows, its end screen aside: a state update on it (another's move) puts
// in place only the parts that changed (placeParts in ui.js). The whole table is drawn anew for
// another room, game, seat, deal or language, and over or after an end screen (its focus rule,
// endFocus, and the table made inert under it are the full drawing's).
let drawnTable = null;
const tableOf = (S) => JSON.stringify([S.room && S.room.room, S.room && S.room.game, S.you, S.view.variant, S.view.deal, language()]);

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
  placeAllParts(parts);
  return true;
}

/** Draw the table; ``selection``: only the selection changed since it was last drawn. */
export function renderTable(root, S, actions, selection = false) {
  if (selection && S.view && redrawSelection(root, S, actions)) return;
  const v = S.view;
  if (!v) {
    root.replaceChildren(h("p.loading", { text: t("room.waitingForDeal") }));
    drawnTable = null;
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
  const opponents = marked(opponentsBox(S, mine, teams), "players");

  // --- the felt: stock, pile, indicator, melds
  const felt = h("div.felt", {}, part("piles", S, actions), part("melds", S, actions), marked(pileHistory(S), "history"));

  // --- me: status, clock, meter, actions, hand
  const status = marked(statusBar(S, actions), "status");
  const me = mine ? h("div.my-area", {}, status, part("meter", S, actions), part("actions", S, actions), part("hand", S, actions))
    : h("div.my-area.spectating", {}, status, h("p.spectator-note", { text: t("table.spectating") }));

  const side = sidePanel(S, actions);
  // the scores change at a deal's end, the log at every move
  marked(side.querySelector(".panel.scores"), "scores");
  marked(side.querySelector(".panel.log-panel"), "log");
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
  const table = tableOf(S);
  const shown = root.firstElementChild;
  if (overlay || table !== drawnTable || !shown || !shown.matches("section.table-view") || !placeParts(root, section)) placeView(root, section);
  drawnTable = overlay ? null : table;
  drawnFrom = drawing(S);
  document.title = myTurn ? `● ${t("turn.yours")} — rummykit` : `${t(`variant.${v.variant}.name`)} — rummykit`;
  tickClock(S);
  pastDealWatch(S);
}
