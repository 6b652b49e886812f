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

// a preposition before the article that begins a parameter, as the language writes it:
// "troca o 7 pelo ás", not "por o ás" (the same table as tute.i18n.CONTRACTIONS)
const IT_ARTICLES = { il: "l", lo: "llo", la: "lla", i: "i", gli: "gli", le: "lle", "l'": "ll'" };
const CONTRACTIONS = {
  es: { "de el": "del", "a el": "al" },
  pt: Object.fromEntries([["de", "d"], ["em", "n"], ["por", "pel"]].flatMap(([p, stem]) =>
    ["o", "a", "os", "as"].map((a) => [`${p} ${a}`, `${stem}${a}`]))),
  it: Object.fromEntries([["di", "de"], ["a", "a"], ["da", "da"], ["in", "ne"], ["su", "su"]]
    .flatMap(([p, stem]) => Object.entries(IT_ARTICLES).map(([a, end]) => [`${p} ${a}`, `${stem}${end}`]))),
};
const JOIN = "\u0000";                    // where a parameter begins, while a text is made
const JOINING = Object.fromEntries(Object.entries(CONTRACTIONS).map(([code, table]) => [code,
  new RegExp(`(?<![\\p{L}\\d_'])(${Object.keys(table).sort((a, b) => b.length - a.length)
    .map((k) => k.replace(" ", ` ${JOIN}`) + (k.endsWith("'") ? "" : "(?![\\p{L}\\d_'])")).join("|")})`, "gu")]));
function contract(text) {
  const pattern = JOINING[lang];
  if (pattern && text.includes(JOIN)) {
    text = text.replace(pattern, (m) => CONTRACTIONS[lang][m.replace(JOIN, "")]);
  }
  return text.replaceAll(JOIN, "");
}

// a key's text with its parameters; the key itself where the catalog lacks it (a test
// reads the page for keys and English words that do not belong there)
export function t(key, params = {}) {
  return contract(plural((TEXT[lang] || {})[`web_${key}`] || key, params)
    .replace(/\{(\w+)\}/g, (_, k) => (typeof params[k] === "string" ? JOIN : "") + String(params[k])));
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
