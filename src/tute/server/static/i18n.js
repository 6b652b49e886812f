// The page's words: the server's catalogs (the same files Python reads), /i18n/es.json ...
// Nothing player-facing is written in the page's code: every text is a catalog key.
export const LANGS = ["es", "pt", "it", "en"];
const TEXT = {};
let lang = "es";

export async function loadText(code) {
  if (!TEXT[code]) {
    const res = await fetch(`/i18n/${code}.json`, { credentials: "same-origin" });
    TEXT[code] = (await res.json()).web;
  }
}

export function setLang(code) { lang = LANGS.includes(code) ? code : "es"; }
export function getLang() { return lang; }

// ICU's plural as the catalogs use it: {n, plural, one {# baza} other {# bazas}}
const plural = (text, params) => text.replace(
  /\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}/g,
  (_, k, one, other) => (params[k] === 1 ? one : other).replace(/#/g, String(params[k])));

// a key's text with its parameters; the key itself where the catalog lacks it (a test
// reads the page for keys and English words that do not belong there)
export function t(key, params = {}) {
  return plural((TEXT[lang] || {})[`web_${key}`] || key, params)
    .replace(/\{(\w+)\}/g, (_, k) => String(params[k]));
}

export const suitName = (letter) => t(`suit_${letter}`);

// "el 7 de oros", "la sota de copas"
export function cardWords(code) {
  const rank = code.slice(0, -1);
  const said = "ASCR".includes(rank) ? t(`rank_${rank}`) : t("rank_n", { n: rank });
  return t("card", { rank: said, suit: suitName(code.slice(-1)) });
}

// every element with data-t gets its key's text; data-t-label its aria-label
export function translate(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-label]")) {
    el.setAttribute("aria-label", t(el.dataset.tLabel));
  }
}
