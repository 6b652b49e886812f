// The player's settings, kept in this browser: language, sound, animation speed, the
// deck's style and the cards' size.
import { DECKS } from "/static/cards.js";

const KEY = "tute.settings";
const DEFAULTS = { lang: "es", sound: true, speed: "normal", deck: "classic", size: "normal" };
export const SPEEDS = { slow: 1.8, normal: 1, fast: 0.5 };   // times the normal pauses
export const SIZES = ["small", "normal", "large"];           // the cards' (style.css)

function read() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS };
    if (typeof saved.lang === "string") out.lang = saved.lang;
    if (typeof saved.sound === "boolean") out.sound = saved.sound;
    if (saved.speed in SPEEDS) out.speed = saved.speed;
    if (DECKS.includes(saved.deck)) out.deck = saved.deck;
    if (SIZES.includes(saved.size)) out.size = saved.size;
    const old = localStorage.getItem("tute.lang");        // an earlier page's key
    if (old && !saved.lang) out.lang = old;
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

export const settings = read();

export function save(changes) {
  Object.assign(settings, changes);
  try { localStorage.setItem(KEY, JSON.stringify(settings)); } catch { /* private mode */ }
}

// a pause of the table (a closed trick, the count) at the chosen speed
export const pause = (ms) => Math.round(ms * SPEEDS[settings.speed]);
