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
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
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

let toastTimer = null;
/** A short message at the bottom of the screen; kind "error" or "info". */
export function toast(message, kind = "info", ms = 5000) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}

export function announce(message) {
  const el = document.getElementById("announcer");
  el.textContent = "";
  setTimeout(() => { el.textContent = message; }, 30);
}

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
    dlg.showModal();
  });
}

export function formatSeconds(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 60) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return String(s);
}
