// Drag and drop with pointer events: cards and groups within the hand, onto the pile or a
// meld, the stock or the pile into the hand; the ghost that follows the pointer.
import { t } from "./i18n.js";
import { listen, toast } from "./ui.js";
import { cardElement } from "./cards.js";
import { Arrangement } from "./hand.js";
import { can, isMyTurn, rulesOf, selectedIds } from "./tablestate.js";
import { meldOrder } from "./meldfit.js";
import { doDiscard, layOff, openingOf } from "./moves.js";

let suppressClick = false;

document.addEventListener("click", (e) => {
  // the click a browser fires right after a drag's pointerup is not a tap
  if (suppressClick && e.isTrusted) {
    e.stopPropagation();
    e.preventDefault();
  }
}, true);

export function setupDrag(root, S, actions) {
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
