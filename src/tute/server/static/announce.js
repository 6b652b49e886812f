// Cantes, tutes, swaps, bids and trump choices said in words, with their cards, in a
// bubble beside the seat that made them -- placed where it covers least of the trick,
// the other seats and the stock, inside the cloth -- for a few seconds.
import { cardWords, t } from "/static/i18n.js";
import { isCante, isPlay, moveTold } from "/static/moves.js";
import { pause } from "/static/settings.js";
import { play } from "/static/sound.js";
import { cardView, shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);
let timer = null;
let seatShown = null;          // the seat the bubble belongs to, while it is shown

// what an action says, and the cards it shows (null: nothing to announce)
function words(event, v, before) {
  const m = event.move;
  if (!m || isPlay(m)) return null;
  const name = shortName(v.names[event.seat] || "");
  const you = event.seat === v.seat;                    // "cantas las cuarenta"
  if (m.kind === "swap") {
    if (!(before && before.turn_up && v.turn_up)) return null;
    return { text: t(you ? "announce_swap_you" : "announce_swap", { name, mine: cardWords(v.turn_up), card: cardWords(before.turn_up) }),
      cards: [v.turn_up, before.turn_up] };
  }
  const last = v.cantes_shown[v.cantes_shown.length - 1];
  const cards = m.kind === "tute" ? v.tute_cards || [] : isCante(m) && last ? last.cards : [];
  return { text: moveTold(m, name, you), cards, cante: isCante(m) };
}

export function announce(event, v, before) {
  const said = words(event, v, before);
  if (!said) return;
  const box = $("announce");
  box.replaceChildren();
  const p = document.createElement("p");
  p.textContent = said.text;
  box.append(p);
  if (said.cards.length) {
    const row = document.createElement("div");
    row.className = "shown-cards";
    for (const code of said.cards) row.append(cardView(code));
    box.append(row);
  }
  box.dataset.announce = event.action;
  box.dataset.seat = String(event.seat);
  seatShown = event.seat;
  box.hidden = false;
  placeAnnouncement();
  if (said.cante) play("cante");
  clearTimeout(timer);
  timer = setTimeout(() => {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.announce;
    delete box.dataset.seat;
    seatShown = null;
  }, pause(3000));
}

const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

// beside the announcing seat's plate: of the places around it, the one that covers least
// of the trick and the auction (first of all), the other plates and the stock, and stays
// on the cloth.
// Called again after every drawing of the table (the seats are drawn anew).
export function placeAnnouncement() {
  const box = $("announce");
  if (box.hidden || seatShown === null) return;
  const plate = document.querySelector(`.seat[data-seat="${seatShown}"] .plate`);
  const cloth = $("cloth").getBoundingClientRect();
  if (!plate || !cloth.width) return;
  const p = plate.getBoundingClientRect();
  const own = plate.closest(".seat").getBoundingClientRect();   // plate, facts and fan
  const w = box.offsetWidth, h = box.offsetHeight, gap = 6;
  const middle = [$("trick"), $("auction")].filter((e) => !e.hidden).map((e) => e.getBoundingClientRect());
  const others = [...document.querySelectorAll(".seat .plate, #stock .pile")]
    .filter((e) => e !== plate).map((e) => e.getBoundingClientRect());
  const spots = [
    [p.right + gap, p.top + p.height / 2 - h / 2],        // right of the plate
    [p.left - gap - w, p.top + p.height / 2 - h / 2],     // left
    [p.left + p.width / 2 - w / 2, p.bottom + gap],       // below
    [p.left + p.width / 2 - w / 2, p.top - gap - h],      // above
    [p.right + gap, p.bottom - h],                        // right, along its foot
    [p.left - gap - w, p.bottom - h],                     // left, along its foot
    [own.left + own.width / 2 - w / 2, own.top],          // over the seat itself, where
    [own.left + own.width / 2 - w / 2, own.bottom - h],   // a small cloth has no room
  ];
  let best = null;
  for (const [x0, y0] of spots) {
    const x = Math.min(Math.max(x0, cloth.left + 4), cloth.right - 4 - w);   // on the cloth
    const y = Math.min(Math.max(y0, cloth.top + 4), cloth.bottom - 4 - h);
    const r = { left: x, top: y, right: x + w, bottom: y + h };
    const cost = middle.reduce((s, m) => s + area(r, m) * 100, 0) + area(r, p) * 2
      + others.reduce((s, o) => s + area(r, o), 0);
    if (!best || cost < best.cost) best = { cost, x, y };
  }
  const played = [...document.querySelectorAll("#trick .played .card")].map((e) => e.getBoundingClientRect());
  const r = { left: best.x, top: best.y, right: best.x + w, bottom: best.y + h };
  if (played.some((c) => area(r, c) > 0)) {      // a cloth too small: it is over, rather
    box.hidden = true;                           // than a card of the trick hidden
    seatShown = null;
    return;
  }
  const edge = $("cloth");                       // (the cloth's border is outside)
  box.style.left = `${best.x - cloth.left - edge.clientLeft}px`;
  box.style.top = `${best.y - cloth.top - edge.clientTop}px`;
}
