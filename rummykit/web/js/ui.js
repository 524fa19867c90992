// Small DOM helpers shared by the views.
import { t } from "./i18n.js";

/** h("div.card.red", {attrs}, children...) */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "html") el.innerHTML = v;
    else if (k.startsWith("on") && typeof v === "function") listen(el, k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    // through the CSSOM: the page's Content-Security-Policy refuses style attributes
    else if (k === "style") for (const [p, x] of Object.entries(v)) el.style.setProperty(p, String(x));
    else if (k === "class") el.className += ` ${v}`;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// The listeners given here, by element: a node kept through a redraw (placeView) takes on those
// of its equal drawn anew, whose closures hold the new state.
const listeners = new WeakMap();

/** addEventListener, remembered for placeView. */
export function listen(el, type, fn) {
  el.addEventListener(type, fn);
  const list = listeners.get(el);
  if (list) list.push([type, fn]);
  else listeners.set(el, [[type, fn]]);
}

function adoptListeners(kept, fresh) {
  for (const [type, fn] of listeners.get(kept) || []) kept.removeEventListener(type, fn);
  const list = listeners.get(fresh) || [];
  for (const [type, fn] of list) kept.addEventListener(type, fn);
  listeners.set(kept, [...list]);
}

/** Put a view drawn anew in ``root`` in place of the old one, keeping the node that holds the
 * keyboard focus where the new view has its equal under the same ``data-key``: a new node
 * given the focus (``render`` in app.js) is a new focus for a screen reader, which then read
 * it again at every redraw under it (a hand card or a button at each move of the others, a
 * waiting room's button as people sit, an end screen's title at the room's messages). A node
 * marked ``data-keep="content"`` is kept even as its words change (the table's status line:
 * the moves and the turn are announced, not re-read by a refocus). A node inside an end screen
 * is kept for the same end only (``data-end-key``: a rematch's first deal reads alike). */
export function placeView(root, view) {
  const scrolled = scrollsIn(root);
  placeKeepingFocus(root, view);
  // after the view is in the page: a scroll is set on a laid-out box
  scrollBack(root, scrolled);
}

/** Put ``fresh``, a part of a view drawn anew, in the place of ``old``, the same part of the
 * view in the page, the rest of the view left as it is (a card tapped in the hand: only what
 * the selection changes is drawn again, the table's other thousand nodes are neither replaced
 * nor laid out again). As ``placeView`` does for the whole view: a part equal to the old one is
 * kept (it takes on the new one's listeners), as is the node holding the focus where the new
 * part has its equal, and the boxes that scroll keep their scroll. */
export function placePart(old, fresh, scrolled = scrollsIn(old)) {
  if (old.isEqualNode(fresh)) {
    adoptTree(old, fresh);
    return;
  }
  // the part is itself the node holding the focus, kept as its words change (the status line,
  // placeView's rule): it takes the new one's words where it stands
  if (document.activeElement === old && fresh.dataset.keep === "content" && fresh.dataset.key === old.dataset.key
      && typeof old.moveBefore === "function") {
    takeContent(old, fresh);
    return;
  }
  placeAnew(old, fresh, scrolled);
}

/** ``placePart`` for each pair [old, fresh] of ``parts``, the scrolls read before any is placed:
 * a scroll read after a part was replaced lays out the view half placed, a layout more. */
export function placeAllParts(parts) {
  const scrolled = parts.map(([old]) => scrollsIn(old));
  parts.forEach(([old, fresh], i) => placePart(old, fresh, scrolled[i]));
}

/** Where the boxes that scroll of their own (``data-scroll``, named by their ``data-key``) in
 * ``part`` (itself included) stand: the view drawn anew put the log back at its newest line at
 * every move of the others and every card tapped, and a reader reading older moves on a phone
 * lost their place. In a box whose lines are marked ``data-anchor`` (the log, newest first),
 * also the first line in sight and how far below the box's top it starts: a move of the
 * others puts its line above it, and the same scroll showed the line before it, a line further
 * at each move. */
function scrollsIn(part) {
  return [...(part.matches("[data-scroll][data-key]") ? [part] : []), ...part.querySelectorAll("[data-scroll][data-key]")]
    .filter((el) => el.scrollTop || el.scrollLeft)
    .map((el) => [el.dataset.key, el.scrollTop, el.scrollLeft, firstInSight(el)]);
}

/** The first line of ``box`` wholly in sight (else the first in sight in part), as [its
 * ``data-anchor``, how far below the box's top it starts]; null in a box of no such lines. */
function firstInSight(box) {
  const lines = box.querySelectorAll(":scope > [data-anchor]");
  if (!lines.length) return null;
  const top = box.getBoundingClientRect().top;
  let part = null;
  for (const line of lines) {
    const at = line.getBoundingClientRect();
    if (at.bottom <= top) continue;
    if (at.top >= top) return [line.dataset.anchor, at.top - top];
    part = part || [line.dataset.anchor, at.top - top];
  }
  return part;
}

function placeAnew(old, fresh, scrolled) {
  const held = document.activeElement;
  const key = held && held !== old && old.contains(held) ? held.dataset.key : null;
  old.before(fresh);
  const twin = key ? fresh.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  if (twin && typeof fresh.moveBefore === "function" && (twin.dataset.keep === "content" || held.isEqualNode(twin))) {
    keepNode(held, twin, twin.dataset.keep === "content");
  }
  old.remove();
  scrollBack(fresh, scrolled);
}

/** Set the boxes that scroll in ``part`` (itself included) back where ``scrollsIn`` found them. */
function scrollBack(part, scrolled) {
  for (const [key, top, left, inSight] of scrolled) {
    const sel = `[data-key="${CSS.escape(key)}"]`;
    const el = part.matches(sel) ? part : part.querySelector(sel);
    if (el) {
      el.scrollTop = top;
      el.scrollLeft = left;
      // the line that was first in sight back where it stood, if it is still there
      const line = inSight && el.querySelector(`:scope > [data-anchor="${CSS.escape(inSight[0])}"]`);
      if (line) el.scrollTop += line.getBoundingClientRect().top - el.getBoundingClientRect().top - inSight[1];
    }
  }
}

function placeKeepingFocus(root, view) {
  const held = document.activeElement;
  const key = held && root.contains(held) ? held.dataset.key : null;
  const fresh = key ? view.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const endOf = (el) => { const end = el.closest("[data-end-key]"); return end ? end.dataset.endKey : null; };
  const content = !!fresh && fresh.dataset.keep === "content";
  // without moveBefore (older browsers) the new node takes the focus, as it always did
  if (!fresh || typeof root.moveBefore !== "function" || !(content || held.isEqualNode(fresh))
      || endOf(held) !== endOf(fresh)) {
    root.replaceChildren(view);
    return;
  }
  root.append(view);
  keepNode(held, fresh, content);
  for (const old of [...root.children]) if (old !== view) old.remove();
}

/** Put ``kept``, a node of the page, where ``fresh`` stands in the view about to replace it.
 * ``fresh`` must equal ``kept`` (``isEqualNode``), so only the listeners differ: ``kept`` takes
 * those of ``fresh`` and of its descendants. With ``content`` the two may differ: ``kept``
 * takes ``fresh``'s attributes and children (the status line, whose words change with every
 * move). ``moveBefore`` keeps the focus where a removal would lose it; it moves a node within
 * one document only, so ``fresh`` must already be in the page. */
function keepNode(kept, fresh, content) {
  if (content) takeContent(kept, fresh);
  else adoptTree(kept, fresh);
  fresh.parentNode.moveBefore(kept, fresh);
  fresh.remove();
}

/** ``kept`` and each of its descendants take the listeners of their equals in ``fresh`` (a node
 * kept in place of its equal drawn anew). */
function adoptTree(kept, fresh) {
  const a = [kept, ...kept.querySelectorAll("*")];
  const b = [fresh, ...fresh.querySelectorAll("*")];
  a.forEach((el, i) => adoptListeners(el, b[i]));
}

/** ``kept`` takes ``fresh``'s attributes, children and listeners. */
function takeContent(kept, fresh) {
  sameAttributes(kept, fresh);
  kept.replaceChildren(...fresh.childNodes);
  adoptListeners(kept, fresh);
}

function sameAttributes(kept, fresh) {
  for (const a of [...kept.attributes]) if (!fresh.hasAttribute(a.name)) kept.removeAttribute(a.name);
  for (const a of fresh.attributes) if (kept.getAttribute(a.name) !== a.value) kept.setAttribute(a.name, a.value);
}

/** Put ``view``, drawn anew, in place of the view in ``root`` part by part (a state update on
 * the table in the page: another's move), or return false and touch nothing where the two do
 * not match outside their parts. The parts are the elements marked ``data-part``; the rest is
 * the frame, which must be alike in both (the same elements, attributes and words) but for the
 * view's own attributes, which the old one takes. The frame stays; each part is placed as a
 * card tapped places it (``placePart``): one equal to the old one is kept, with its layout and
 * scroll, so the browser lays out and styles again only the parts that changed. False too
 * where the node holding the focus has its equal in another part than its own (placeView
 * would keep it there; a part put in place keeps only what it holds). */
export function placeParts(root, view) {
  const old = root.firstElementChild;
  if (!old || root.childNodes.length !== 1 || old.tagName !== view.tagName) return false;
  const frame = [];
  const parts = [];
  const n = old.childNodes.length;
  if (n !== view.childNodes.length) return false;
  for (let i = 0; i < n; i++) if (!sameFrame(old.childNodes[i], view.childNodes[i], frame, parts)) return false;
  const held = document.activeElement;
  if (held && held !== old && old.contains(held) && held.dataset.key) {
    const twin = view.querySelector(`[data-key="${CSS.escape(held.dataset.key)}"]`);
    const partOf = (el) => { const p = el.closest("[data-part]"); return p ? p.dataset.part : null; };
    if (twin && partOf(held) !== partOf(twin)) return false;
  }
  sameAttributes(old, view);
  adoptListeners(old, view);
  for (const [a, b] of frame) adoptListeners(a, b);
  placeAllParts(parts);
  return true;
}

/** Whether ``a`` and ``b`` are alike outside their parts; gathers the frame's elements and the
 * parts, in pairs. */
function sameFrame(a, b, frame, parts) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return a.isEqualNode(b);
  const name = a.dataset.part;
  if (name !== undefined || b.dataset.part !== undefined) {
    if (name !== b.dataset.part) return false;
    parts.push([a, b]);
    return true;
  }
  if (a.tagName !== b.tagName || a.attributes.length !== b.attributes.length || a.childNodes.length !== b.childNodes.length) return false;
  for (const at of a.attributes) if (b.getAttribute(at.name) !== at.value) return false;
  frame.push([a, b]);
  for (let i = 0; i < a.childNodes.length; i++) if (!sameFrame(a.childNodes[i], b.childNodes[i], frame, parts)) return false;
  return true;
}

let toastTimer = null;
/** A short message at the bottom of the screen; kind "error" or "info". */
// A joker is written "★", as on its card, and a screen reader said "star" (or "black star"):
// where words are read, it is named.
const JOKER = "★";

/** ``text`` with each joker named, for an aria-label or the live region. */
export function spoken(text) {
  return String(text).split(JOKER).join(t("card.joker"));
}

/** ``text`` as nodes that show "★" and read the joker's name. */
export function withJokerNames(text) {
  const parts = String(text).split(JOKER);
  return parts.flatMap((part, i) => (i === 0 ? [part]
    : [h("span", { "aria-hidden": "true", text: JOKER }), h("span.visually-hidden", { text: t("card.joker") }), part]))
    .filter((n) => n !== "");
}

export function toast(message, kind = "info", ms = 5000) {
  const el = document.getElementById("toast");
  el.replaceChildren(...withJokerNames(message));
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  // an alert of its own (role="alert"), said assertively, but for under a modal dialog
  pageAlert(null, message, true);
}

// What is to be said at the next update of the live region: the messages of one moment (the
// other's discard and "Your turn", from one state) are said as one text, since a screen reader
// may say only the last of several quick changes.
let toSay = [];

/** Every live region of the page: the page's own, and one in each dialog. */
function liveRegions() {
  return [document.getElementById("announcer"), ...document.querySelectorAll("dialog [data-announcer]")];
}

/** Where what happens is said: the live region of the dialog open over the page, if one is
 * (index.html gives each its own). A modal dialog makes the rest of the page inert, its live
 * region included, and what the others played while the help or a past deal was open went
 * unsaid. */
function liveRegion() {
  const open = [...document.querySelectorAll("dialog[open]")].pop();
  return (open && open.querySelector("[data-announcer]")) || document.getElementById("announcer");
}

// A dialog's region is emptied as the dialog closes: its words stayed in it, and the dialog
// opened again (the help, a past deal) showed a move long made to a screen reader reading it.
document.addEventListener("close", (e) => {
  const region = e.target instanceof HTMLDialogElement ? e.target.querySelector("[data-announcer]") : null;
  if (region) region.textContent = "";
}, true);

// The alerts of the page up now (pageAlert), by key.
const alertsUp = new Set();

/** Say the words of an alert of the page as it comes up: a toast, a banner of the table (away,
 * held), the connection lost. They are said by the page's live region, or by the live region
 * of the dialog open over the page: a modal dialog makes the rest of the page inert, its
 * alerts included, and the banner saying one was away came unsaid to a player reading the
 * help as the clock ran out. An alert named by ``key`` is said once, as it comes up, until it
 * goes (``text`` null): a banner is drawn anew at every redraw of the table, and a banner that
 * was an alert of its own (``role="alert"``) was said again at every move of the others. A
 * ``key`` null is a message of one moment (a toast), said each time; with ``own`` its node is
 * a live region of its own (the toast, an assertive alert), which says it while no modal
 * dialog is open. */
export function pageAlert(key, text, own = false) {
  if (key !== null) {
    if (!text) {
      alertsUp.delete(key);
      return;
    }
    if (alertsUp.has(key)) return;
    alertsUp.add(key);
  }
  if (own && liveRegion() === document.getElementById("announcer")) return;
  announce(text);
}

/** The banners the page shows now, up or down: each node marked ``data-alert`` (its value the
 * alert's key, its text the words) is an alert of the page (pageAlert), said as it first
 * appears; one no longer shown is down. The banners are no live regions of their own, so a
 * banner drawn anew with the table is not said again. Two nodes of one key are one alert (the
 * top bar's status and the table's banner as the connection goes), said in the last one's
 * words (the table's, the longer). Called after every drawing of the page (``render``) and as
 * the connection's state changes. */
export function alertsShown() {
  const shown = new Map();
  for (const el of document.querySelectorAll("[data-alert]")) shown.set(el.dataset.alert, el.textContent);
  for (const key of [...alertsUp]) if (!shown.has(key)) pageAlert(key, null);
  for (const [key, text] of shown) pageAlert(key, text);
}

export function announce(message) {
  if (!toSay.length) {
    // emptied first, so the same words twice running are said again
    for (const el of liveRegions()) el.textContent = "";
    setTimeout(() => {
      liveRegion().textContent = toSay.map((m, i) => (i < toSay.length - 1 && !/[.!?…:]$/.test(m) ? `${m}.` : m)).join(" ");
      toSay = [];
    }, 30);
  }
  toSay.push(spoken(message));
}

/** A change of language: what the live region and the toast last said is in the old one, and
 * a screen reader reading the page (or the region) again would find it there; they are emptied
 * (said again, an old move would read as a new one), and anything waiting to be said with them. */
export function clearAnnouncements() {
  toSay = [];
  for (const region of liveRegions()) region.textContent = "";
  const el = document.getElementById("toast");
  clearTimeout(toastTimer);
  el.textContent = "";
  el.hidden = true;
}

/** Whether the tap being made, or the last one, acted: made a move (app.js) or opened a
 * question. The second tap of a double tap is then dropped (app.js): a question shows under
 * the finger, and on a phone the confirmation's "Drop (−20)" lay where Drop had been tapped,
 * so a double tap dropped out of the deal without being asked. */
export const tapActed = { yes: false };

/** A yes/no question; resolves true when confirmed. */
export function confirmDialog(title, body, okLabel = null, danger = true) {
  const dlg = document.getElementById("confirm");
  document.getElementById("confirm-title").textContent = title;
  document.getElementById("confirm-body").textContent = body;
  const ok = document.getElementById("confirm-ok");
  ok.textContent = okLabel || t("common.ok");
  ok.className = `btn ${danger ? "danger" : "primary"}`;
  document.getElementById("confirm-cancel").textContent = t("common.cancel");
  return new Promise((resolve) => {
    dlg.addEventListener("close", () => resolve(dlg.returnValue === "ok"), { once: true });
    dlg.returnValue = "";
    tapActed.yes = true;
    dlg.showModal();
  });
}

/** Choose one of several options [{label, value}]; resolves the value or null. */
export function chooseDialog(title, options) {
  const dlg = document.getElementById("choose");
  document.getElementById("choose-title").textContent = title;
  const body = document.getElementById("choose-body");
  body.replaceChildren();
  return new Promise((resolve) => {
    let chosen = null;
    for (const o of options) {
      body.append(h("button.btn.primary", {
        type: "button",
        text: o.label,
        "data-value": String(o.value),
        onclick: () => { chosen = o.value; dlg.close("ok"); },
      }));
    }
    dlg.addEventListener("close", () => resolve(chosen), { once: true });
    tapActed.yes = true;
    dlg.showModal();
  });
}

export function formatSeconds(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 60) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return String(s);
}

let audio = null;

/** Two short soft notes (the settings' sound for one's turn), made by the browser: no sound
 * file to fetch, nothing played before the page was touched (browsers refuse it). */
export function chime() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.01;
    [660, 880].forEach((hz, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const at = start + i * 0.14;
      osc.type = "sine";
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.24);
    });
  } catch {
    /* no audio device: the page says the turn in words as always */
  }
}
