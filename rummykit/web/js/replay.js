// Looking back at a finished game, move by move, every hand face up: the server builds the
// positions (GET /api/replay/{code}-{game}?deal=k, docs/protocol.md) and this page only steps
// through them. Opened from the end-of-game screen; the room stays joined underneath, so a
// rematch that starts meanwhile is one tap away.
import { t } from "./i18n.js";
import { h, placeView, announce } from "./ui.js";
import { cardElement, parseCard, rankNumber, sortBySuit, pretty } from "./cards.js";
import { seatName, seatOut, subjectName } from "./tablestate.js";
import { standsFor } from "./meldfit.js";
import { describeAction, eventAction, eventDetail } from "./tablelog.js";
import { dealSummary } from "./results.js";

/** Open the look back at ``game`` of the room, at ``step`` of ``deal`` (its first deal, as
 * dealt, unless a place kept in the address says otherwise). */
export function openReplay(S, actions, game, deal = 1, step = 0) {
  S.replay = { game, deal, step, data: null, error: null, loading: false, back: document.activeElement };
  keepPlace(S.replay);
  loadDeal(S, actions, deal, step);
}

const PLACE_RE = /^#replay-(\d+)-(\d+)-(\d+)$/;

/** The place in a look back that the address keeps (``#replay-GAME-DEAL-STEP``), or null. */
export function replayPlace(hash) {
  const m = PLACE_RE.exec(hash || "");
  if (!m) return null;
  const [game, deal, step] = m.slice(1).map(Number);
  return game >= 1 && deal >= 1 ? { game, deal, step } : null;
}

/** The look back's game, deal and move written in the address's fragment, so that a reload,
 * or Back and Forward through the page's history, open it again where it was (it fell back to
 * the end screen). Replaced, not pushed: a step is no page of the history, and Back leaves the
 * room as it did before. */
function keepPlace(r) {
  const hash = r ? `#replay-${r.game}-${r.deal}-${r.step}` : "";
  if (location.hash === hash) return;
  history.replaceState(history.state, "", location.pathname + location.search + hash);
}

export function closeReplay(S, actions) {
  const back = S.replay && S.replay.back;
  S.replay = null;
  keepPlace(null);
  actions.render();
  // the button that opened it, if the end screen still has it; else where render puts it
  const again = document.querySelector('[data-action="replay"]');
  if (again) again.focus({ preventScroll: true });
  else if (back && back.isConnected) back.focus({ preventScroll: true });
}

async function loadDeal(S, actions, deal, step) {
  const r = S.replay;
  if (!r || !S.room) return;
  r.loading = true;
  r.error = null;
  actions.render();
  let data = null;
  let error = null;
  try {
    const res = await fetch(`/api/replay/${S.room.room}-${r.game}?deal=${deal}`, { cache: "no-store" });
    if (res.ok) data = await res.json();
    else error = res.status === 429 ? "replay.busy" : "replay.error";
  } catch {
    error = "replay.error";
  }
  if (S.replay !== r) return; // closed (or opened again) meanwhile
  r.loading = false;
  if (data) {
    r.data = data;
    r.deal = data.deal;
    r.step = step < 0 ? data.frames.length - 1 : Math.min(step, data.frames.length - 1);
    keepPlace(r);
  } else {
    r.error = error;
  }
  actions.render();
  if (data) announce(moveText(S, r));
}

function goStep(S, actions, step) {
  const r = S.replay;
  if (!r || !r.data) return;
  const last = r.data.frames.length - 1;
  const next = Math.max(0, Math.min(last, step));
  if (next === r.step) return;
  r.step = next;
  keepPlace(r);
  actions.render();
  announce(moveText(S, r));
}

function goDeal(S, actions, deal) {
  const r = S.replay;
  if (!r || !r.data || r.loading || deal < 1 || deal > r.data.deals || deal === r.deal) return;
  loadDeal(S, actions, deal, 0);
}

/** The page's state with the seats named as the game's record names them (``seats`` of the
 * server's answer: who held each seat when the game ended), for the names of the look back. A
 * record stored before records named the seats has none: the room's seats name them then.
 * "You" is the seat one holds now only if the record names the same person there. */
export function asPlayed(S, r) {
  const seats = r.data && r.data.seats;
  if (!Array.isArray(seats) || !S.room) return S;
  const now = S.you !== null && S.you !== undefined ? S.room.seats[S.you] : null;
  const then = now ? seats[S.you] : null;
  const you = then && then.kind === now.kind && then.name === now.name ? S.you : null;
  return { ...S, you, room: { ...S.room, seats } };
}

/** The move's words, as the table's log says them, for the frame shown; a draw names the card
 * drawn, which the look back knows. */
export function moveText(S0, r) {
  const S = asPlayed(S0, r);
  const frames = r.data.frames;
  const frame = frames[r.step];
  if (r.step === 0) return t("replay.dealt", { n: r.deal });
  const before = frames[r.step - 1];
  const who = { room: S.room, you: S.you, events: [] };
  const lines = [];
  for (const e of frame.events) {
    if (e.action === "end") {
      // who won it and what it was worth, as the end screen said it then
      const result = (r.data.results || []).find((x) => x.deal === r.deal);
      lines.push(result && S.view ? `${t("end.dealOver")}. ${dealSummary(S, result)}` : t("end.dealOver"));
      continue;
    }
    if (e.action === "draw" && !e.card && e.seat !== null && e.seat !== undefined) {
      const drawn = newCard(before.hands[e.seat], frame.hands[e.seat]);
      if (drawn) {
        lines.push(t("replay.drew", { who: subjectName(S, e.seat), card: pretty(drawn) }));
        continue;
      }
    }
    const act = eventAction(e);
    if (act) lines.push(describeAction(act, who, eventDetail(e)));
  }
  // a move's line ends with no stop in the log, where it stands alone: here it runs into the
  // next ("Ana discarded 2♠ The deal is over"), so each line ends as a sentence
  return lines.map((l) => (/[.!?…»”]$/.test(l) ? l : `${l}.`)).join(" ") || String(frame.action || "");
}

/** The card a hand gained between two frames (a draw adds one and takes none away). */
function newCard(before, after) {
  const left = [...before];
  for (const c of after) {
    const i = left.indexOf(c);
    if (i < 0) return c;
    left.splice(i, 1);
  }
  return null;
}

export function replayKey(e, S, actions) {
  const r = S.replay;
  if (!r) return false;
  if (document.querySelector("dialog[open]")) return false;
  if (e.altKey || e.ctrlKey || e.metaKey) return false;
  // the slider moves itself with the arrows (and says so); the page's keys are for the rest
  const onSlider = e.target instanceof Element && e.target.matches("input[type=range]");
  const step = r.step;
  switch (e.key) {
    case "ArrowRight": if (onSlider) return false; goStep(S, actions, step + 1); break;
    case "ArrowLeft": if (onSlider) return false; goStep(S, actions, step - 1); break;
    case "Home": if (onSlider) return false; goStep(S, actions, 0); break;
    case "End": if (onSlider) return false; goStep(S, actions, Infinity); break;
    case "PageDown": goDeal(S, actions, r.deal + 1); break;
    case "PageUp": goDeal(S, actions, r.deal - 1); break;
    case "Escape": closeReplay(S, actions); break;
    default: return false;
  }
  e.preventDefault();
  return true;
}

export function renderReplay(root, S, actions) {
  const r = S.replay;
  // the seats' names as the game was played (the rest of the page is the room's as it is)
  const P = r.data ? asPlayed(S, r) : S;
  const newGame = S.view && !S.view.over && S.room && S.room.game !== r.game;
  const close = h("button.btn" + (newGame ? ".primary" : ".ghost"), {
    type: "button", "data-action": "replay-close", "data-key": "replay-close",
    // the new game's clock runs meanwhile: one's own turn in it is said on the way back
    text: newGame ? t(S.view.turn && S.you !== null && S.you !== undefined && S.view.turn.seat === S.you ? "replay.toNewGameTurn" : "replay.toNewGame") : t("replay.close"),
    onclick: () => closeReplay(S, actions),
  });
  const head = h("div.replay-head", {},
    h("h1", { id: "replay-title", tabindex: -1, "data-key": "replay-title", text: t("replay.title", { n: r.game }) }),
    close);
  const body = [head];
  if (!r.data) {
    body.push(h("p.replay-note", { role: "status", text: r.error ? t(r.error) : t("replay.loading") }));
    if (r.error) body.push(h("button.btn", { type: "button", "data-action": "replay-retry", text: t("replay.retry"), onclick: () => loadDeal(S, actions, r.deal, r.step) }));
    placeView(root, h("section.replay", { "aria-labelledby": "replay-title" }, body));
    return;
  }
  const d = r.data;
  const frames = d.frames;
  const frame = frames[r.step];
  const v = frame.view;
  const last = frames.length - 1;
  const btn = (action, label, key, disabled, onclick) => h("button.btn.small", {
    type: "button", "data-action": action, "data-key": `replay-${action}`, "aria-label": label, title: label,
    disabled: disabled || r.loading, onclick,
  }, key);
  body.push(h("div.replay-deals", { role: "group", "aria-label": t("replay.deals") },
    btn("prev-deal", t("replay.prevDeal"), "◀", r.deal <= 1, () => goDeal(S, actions, r.deal - 1)),
    h("span.replay-deal", { "data-replay-deal": r.deal, text: t("replay.deal", { n: r.deal, total: d.deals }) }),
    btn("next-deal", t("replay.nextDeal"), "▶", r.deal >= d.deals, () => goDeal(S, actions, r.deal + 1))));
  const slider = h("input.replay-slider", {
    type: "range", min: 0, max: last, step: 1, value: r.step, "data-key": "replay-slider",
    "aria-label": t("replay.slider"), "aria-valuetext": t("replay.move", { n: r.step, total: last }),
    disabled: r.loading,
    oninput: (e) => goStep(S, actions, Number(e.target.value)),
  });
  body.push(h("div.replay-steps", { role: "group", "aria-label": t("replay.moves") },
    btn("first", t("replay.first"), "«", r.step === 0, () => goStep(S, actions, 0)),
    btn("prev", t("replay.prev"), "‹", r.step === 0, () => goStep(S, actions, r.step - 1)),
    slider,
    btn("next", t("replay.next"), "›", r.step === last, () => goStep(S, actions, r.step + 1)),
    btn("last", t("replay.last"), "»", r.step === last, () => goStep(S, actions, last)),
    h("span.replay-count", { "data-replay-step": r.step, text: t("replay.move", { n: r.step, total: last }) })));
  body.push(h("p.replay-move", { "data-replay-move": r.step, text: moveText(S, r) }));
  body.push(h("p.replay-hint.muted", { text: t("replay.keys") }));

  // Indian rummy's wild rank marks the cards it makes wild
  const wild = rankNumber(v.wild_rank);
  const cardsOf = (cards, opts = {}) => cards.map((c) => cardElement(c, { t, small: true, wild: wild && parseCard(c).rank === wild, ...opts }));
  const teams = v.players === 4 && Array.isArray(v.scores) && v.scores.length === 2;
  const mover = v.turn ? v.turn.seat : null;
  const seats = [];
  for (let s = 0; s < v.players; s++) {
    const hand = [...frame.hands[s]].map(parseCard).sort(sortBySuit).map((c) => c.text);
    const score = teams ? v.scores[s % 2] : v.scores[s];
    // a pool player the deal's end put over the limit is out of the game at its last move,
    // as the end screen marked them (the view's seats are still the deal's)
    const out = seatOut(v, s);
    seats.push(h(`div.replay-seat${s === mover ? ".turn" : ""}`, { "data-replay-seat": s, role: "group", "aria-label": seatName(P, s) },
      h("div.replay-seat-head", {},
        h("span.replay-name", { text: seatName(P, s) }),
        s === mover ? h("span.badge.win", { text: t("replay.toMove") }) : null,
        out ? h("span.badge.out", { text: t(`seat.out.${out}`) }) : null,
        h("span.replay-score.muted", { text: t("table.scoreShort", { n: score }) })),
      h("div.replay-hand", { "data-replay-hand": s, "aria-label": t("replay.hand", { n: hand.length }) },
        hand.length ? cardsOf(hand) : h("span.muted", { text: "—" }))));
  }
  body.push(h("div.replay-seats", {}, seats));
  const top = v.pile.length ? v.pile[v.pile.length - 1] : null;
  const middle = [
    h("span.replay-stock", { "data-replay-stock": v.stock, text: t("replay.stock", { n: v.stock }) }),
    h("span.replay-pile", { "data-replay-pile": top || "" }, t("replay.pile", { n: v.pile.length }), " ",
      top ? cardsOf([top]) : h("span.muted", { text: "—" })),
  ];
  if (v.indicator) middle.push(h("span.replay-indicator", {}, t("replay.indicator"), " ", cardsOf([v.indicator])));
  body.push(h("div.replay-middle", {}, middle));
  if (v.variant !== "indian") {
    const melds = v.table.map((m) => h("div.replay-meld", { "data-replay-meld": m.number },
      h("span.meld-no", { text: String(m.number) }),
      // a joker of a run shows the card it stands for, as the table's melds show it
      h("span.meld-cards", {}, m.cards.map((c, i) => cardElement(c, { t, small: true, standsFor: standsFor(m, i, v) }))),
      h("span.meld-owner", { text: seatName(P, m.owner) })));
    body.push(h("div.replay-melds", { role: "group", "aria-label": t("table.melds") },
      melds.length ? melds : h("p.melds-empty", { text: t("table.noMelds") })));
  }
  placeView(root, h("section.replay", { "aria-labelledby": "replay-title" }, body));
}
