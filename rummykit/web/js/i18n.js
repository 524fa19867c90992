// Catalogs live in /i18n/<lang>.json. Every string the page shows comes from them.
// Keys are dotted paths; "{name}" placeholders are filled from params.

export const LANGS = ["es", "en", "fr"];
const catalogs = {};
let current = "en";

/** The language to start with: a saved choice, else the browser's first preferred one we have. */
export function detectLanguage() {
  const saved = localStorage.getItem("rk.lang");
  if (saved && LANGS.includes(saved)) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export async function loadLanguage(lang) {
  if (!LANGS.includes(lang)) lang = "en";
  if (!catalogs[lang]) {
    const res = await fetch(`/static/i18n/${lang}.json`, { cache: "no-cache" });
    if (!res.ok) throw new Error(`catalog ${lang}: HTTP ${res.status}`);
    catalogs[lang] = await res.json();
  }
  if (!catalogs.en && lang !== "en") {
    try {
      const res = await fetch(`/static/i18n/en.json`, { cache: "no-cache" });
      if (res.ok) catalogs.en = await res.json();
    } catch { /* English is only the fallback */ }
  }
  current = lang;
  document.documentElement.lang = lang;
  localStorage.setItem("rk.lang", lang);
  return lang;
}

export function language() {
  return current;
}

function lookup(cat, key) {
  let node = cat;
  for (const part of key.split(".")) {
    if (node == null || typeof node !== "object") return undefined;
    node = node[part];
  }
  return node;
}

// French sets a space before : ; ! ? » and after «: a line must not break there (a lone "!" or
// ": non" starting a line). The catalogs keep plain spaces, so their keys stay easy to write.
// As French printers set them: a word space (no-break) before the colon and inside the
// guillemets, a thin one (narrow no-break, U+202F) before ; ! ?.
const TYPOGRAPHY = {
  fr: (s) => s.replace(/ ([:»])/g, "\u00a0$1").replace(/ ([;!?])/g, "\u202f$1").replace(/« /g, "«\u00a0"),
};

// Which form a count takes is the language's own rule: French counts 0 as singular ("0 carte",
// "0 point") where English and Spanish say "0 cards", "0 cartas". So every "one" form of the
// catalogs shows {n} rather than a written "1".
const plurals = {};
function pluralOne(lang, n) {
  if (typeof n !== "number") return false;
  if (!plurals[lang]) plurals[lang] = new Intl.PluralRules(lang);
  return plurals[lang].select(n) === "one";
}

/** Translate key; a missing key shows itself (so tests and people notice). */
export function t(key, params = {}) {
  let s = lookup(catalogs[current] || {}, key);
  let lang = current;
  if (s === undefined && catalogs.en) {
    s = lookup(catalogs.en, key);
    lang = "en";
  }
  if (s === undefined) return key;
  if (typeof s === "object" && "one" in s) {
    s = pluralOne(lang, params.n) ? s.one : s.other;
  }
  const text = TYPOGRAPHY[lang] ? TYPOGRAPHY[lang](String(s)) : String(s);
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Whether the catalog has a key (used to translate server codes when there is one). */
export function has(key) {
  return lookup(catalogs[current] || {}, key) !== undefined;
}

/** Fill the static page: data-i18n (text), data-i18n-title, data-i18n-aria, data-i18n-placeholder. */
export function translateStatic(root = document) {
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
  root.querySelectorAll("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAria)); });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
}
