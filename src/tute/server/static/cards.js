// The Spanish deck (oros, copas, espadas, bastos), drawn as SVG by our own code.
//
// This module is a security boundary: markup is built only from a code that matched CODE,
// and every string that goes into it comes from the tables below, never from the caller.
// No ids (nothing to collide when many cards share a page), no text but the card's
// number, no external resources, no scripts. The caller labels the element itself.

const CODE = /^(A|[2-9]|S|C|R)[oceb]$/;

export function isCard(code) {
  return typeof code === "string" && CODE.test(code);
}

// --- palette --------------------------------------------------------------------------
const FACE = "#fbf5e6";   // the card's cream face
const EDGE = "#9c8a6c";   // the card's outer edge
const INK = "#2a1e14";    // outlines of the figures
const SKIN = "#f3c9a0";
const HOSE = "#3d3550";   // the figures' legs
const GOLD = "#e6b33a";   // crowns, trims
const GOLD_DARK = "#8a5c00";
const WHITE = "#f6f1e6";

// Per suit: the index / frame colour, the emblem's main and dark colours, a light tint,
// and the number of "pausas" (breaks) in the frame line: 0, 1, 2, 3.
const SUITS = {
  o: { ink: "#b27a00", main: "#e8b02f", dark: "#8a5c00", light: "#f7dc8a", breaks: 0 },
  c: { ink: "#c0262b", main: "#cf3a2e", dark: "#7a1512", light: "#f2b8a8", breaks: 1 },
  e: { ink: "#2356a8", main: "#3a6fc2", dark: "#17386f", light: "#cfe0f5", breaks: 2 },
  b: { ink: "#2e7a2a", main: "#5f8f2e", dark: "#2b4a16", light: "#a8c878", breaks: 3 },
};
// The number the Spanish deck prints in the corners.
const NUMBER = { A: "1", S: "10", C: "11", R: "12" };

// The deck's style (the player's setting): "classic", the cream face of the Spanish
// deck; "four", each suit's face in its own light colour, told apart at a glance even
// where the cards overlap.
const TINT = { o: "#f9e7a6", c: "#f7cfc6", e: "#d3e3f6", b: "#d6e8bd" };
let deck = "classic";
export const DECKS = ["classic", "four"];
export function setDeck(style) { deck = DECKS.includes(style) ? style : "classic"; }
const faceOf = (suit) => (deck === "four" ? TINT[suit] : FACE);

// Short numbers keep the markup small.
const f = (v) => String(Math.round(v * 100) / 100);

// An emblem (drawn around 0,0) placed at x,y, turned and scaled.
function place(x, y, scale, turn, inner) {
  const r = turn ? ` rotate(${f(turn)})` : "";
  return `<g transform="translate(${f(x)} ${f(y)})${r} scale(${f(scale)})">${inner}</g>`;
}

// --- the four emblems, each about 24 units tall around 0,0 ------------------------------

// Oros: a gold coin with an inner ring and a rosette; the ace's is ornate.
function coin(ornate) {
  const o = SUITS.o;
  let s = `<circle r="10" fill="${o.main}" stroke="${o.dark}" stroke-width="1.4"/>` +
    `<circle r="6.6" fill="${o.light}" stroke="${o.dark}" stroke-width="1"/>`;
  const petals = ornate ? 8 : 4;
  for (let k = 0; k < petals; k++) {
    s += `<ellipse cy="-3.4" rx="1.5" ry="2.6" transform="rotate(${k * 360 / petals})" ` +
      `fill="${o.main}" stroke="${o.dark}" stroke-width="0.5"/>`;
  }
  s += `<circle r="1.7" fill="${o.dark}"/>`;
  if (ornate) {
    for (let k = 0; k < 16; k++) {
      const a = k * Math.PI / 8;
      s += `<circle cx="${f(8.3 * Math.sin(a))}" cy="${f(8.3 * Math.cos(a))}" r="0.75" fill="${o.dark}"/>`;
    }
  }
  return s;
}

// Copas: a goblet: bowl with a gold rim, stem with a knot, wide foot; the ace's has a lid.
function cup(ornate) {
  const c = SUITS.c, st = `stroke="${c.dark}" stroke-width="0.9"`;
  let s = `<path d="M-8,-8 C-8,0 -4,2 0,2 C4,2 8,0 8,-8 Z" fill="${c.main}" ${st}/>` +
    `<path d="M-6.5,-4 C-5.5,-0.5 -3,0.6 0,0.6" fill="none" stroke="${c.light}" stroke-width="0.9"/>` +
    `<ellipse cy="-8" rx="8" ry="2" fill="${GOLD}" ${st}/>` +
    `<rect x="-1.4" y="2" width="2.8" height="5.5" fill="${c.main}" ${st}/>` +
    `<ellipse cy="4.6" rx="2.6" ry="1.3" fill="${GOLD}" ${st}/>` +
    `<path d="M-1.6,7.2 L-6.5,10.8 Q-7,12 -5.6,12 H5.6 Q7,12 6.5,10.8 L1.6,7.2 Z" fill="${c.main}" ${st}/>`;
  if (ornate) {
    s += `<path d="M-7,-9 Q0,-17 7,-9 Z" fill="${c.main}" ${st}/>` +
      `<circle cy="-14.4" r="1.6" fill="${GOLD}" ${st}/>` +
      `<path d="M-7.6,-5 Q0,-2 7.6,-5" fill="none" stroke="${GOLD}" stroke-width="1.2"/>` +
      `<circle cx="-3.5" cy="-2.6" r="0.9" fill="${GOLD}"/><circle cy="-1.8" r="0.9" fill="${GOLD}"/>` +
      `<circle cx="3.5" cy="-2.6" r="0.9" fill="${GOLD}"/>`;
  }
  return s;
}

// Espadas: a straight sword, point up: blade with a light fuller, crossguard, grip, pommel.
function sword(ornate) {
  const e = SUITS.e, st = `stroke="${e.dark}" stroke-width="0.8"`;
  let s = `<path d="M0,-14 L2.1,-10.5 V5 H-2.1 V-10.5 Z" fill="${e.main}" ${st}/>` +
    `<path d="M0,-11 V4" stroke="${e.light}" stroke-width="0.9"/>` +
    `<rect x="-1.2" y="6.5" width="2.4" height="5" fill="${e.dark}"/>` +
    `<circle cy="12.6" r="1.7" fill="${e.main}" ${st}/>`;
  s += ornate
    ? `<path d="M-7.5,3 Q-7,6.8 -3,6 H3 Q7,6.8 7.5,3 Q6,5.2 3,4.6 H-3 Q-6,5.2 -7.5,3 Z" fill="${e.main}" ${st}/>` +
      `<circle cx="-7.4" cy="2.8" r="1" fill="${GOLD}"/><circle cx="7.4" cy="2.8" r="1" fill="${GOLD}"/>` +
      `<circle cy="5.4" r="1.1" fill="${GOLD}"/>`
    : `<rect x="-6.5" y="4.6" width="13" height="2.2" rx="1.1" fill="${e.main}" ${st}/>`;
  return s;
}

// Bastos: a knobbly baton, thick at the top, with cut-off knots; the ace's sprouts leaves.
function club(ornate) {
  const b = SUITS.b, st = `stroke="${b.dark}" stroke-width="0.8"`;
  let s = "";
  if (ornate) {
    for (const [x, y, t] of [[-4.5, -12, -40], [4.5, -12.5, 40], [0, -15.5, 0]]) {
      s += `<ellipse cx="${x}" cy="${y}" rx="1.5" ry="3" transform="rotate(${t} ${x} ${y})" fill="${b.light}" ${st}/>`;
    }
  }
  s += `<path d="M-1.9,12.5 L-3.9,-8 Q-3.6,-12.5 0,-12.5 Q3.6,-12.5 3.9,-8 L1.9,12.5 ` +
    `Q0,13.6 -1.9,12.5 Z" fill="${b.main}" ${st}/>`;
  for (const [x, y, t] of [[-3.6, -4, -30], [3.6, -0.5, 30], [-2.9, 4, -30], [2.6, 8, 30]]) {
    s += `<ellipse cx="${x}" cy="${y}" rx="1.5" ry="1.1" transform="rotate(${t} ${x} ${y})" fill="#8a6a2e" ${st}/>`;
  }
  s += `<path d="M-1.2,-10 L-0.4,10" stroke="${b.light}" stroke-width="0.7"/>`;
  return s;
}

const EMBLEM = { o: coin, c: cup, e: sword, b: club };

// --- pips -----------------------------------------------------------------------------
// Each emblem's size (width, height), plain and ornate: a place is given as a box and the
// emblem is scaled to fit it, so a coin, a cup, a sword and a club fill it alike.
const BOX = { o: [20, 20], c: [16, 24], e: [13, 27], b: [9, 26] };
const ACE_BOX = { o: [20, 20], c: [16, 30], e: [15, 27], b: [12, 31] };

function fit(suit, w, h, ornate) {
  const [bw, bh] = (ornate ? ACE_BOX : BOX)[suit];
  return Math.min(w / bw, h / bh);
}

// Where the pips of each number go, and the box each one fills.
const LAYOUT = {
  1: { box: [40, 60], at: [[30, 45]] },
  2: { box: [22, 30], at: [[30, 26], [30, 64]] },
  3: { box: [20, 21], at: [[30, 22], [30, 45], [30, 68]] },
  4: { box: [13.5, 26], at: [[23, 28], [37, 28], [23, 62], [37, 62]] },
  5: { box: [13, 19], at: [[23, 26], [37, 26], [30, 45], [23, 64], [37, 64]] },
  6: { box: [13, 19], at: [[23, 25], [37, 25], [23, 45], [37, 45], [23, 65], [37, 65]] },
  7: { box: [11.5, 16], at: [[20, 25], [40, 25], [30, 36], [20, 48], [40, 48], [20, 69],
    [40, 69]] },
  8: { box: [11, 15], at: [[23, 22], [37, 22], [23, 38], [37, 38], [23, 54], [37, 54],
    [23, 70], [37, 70]] },
  9: { box: [10, 15], at: [[19.5, 29], [30, 29], [40.5, 29], [19.5, 45], [30, 45],
    [40.5, 45], [19.5, 61], [30, 61], [40.5, 61]] },
};

function pips(suit, n) {
  const { box, at } = LAYOUT[n];
  const s = fit(suit, box[0], box[1], n === 1);
  return at.map(([x, y]) => place(x, y, s, 0, EMBLEM[suit](n === 1))).join("");
}

// --- the three figures ----------------------------------------------------------------
const line = `stroke="${INK}" stroke-width="0.8" stroke-linejoin="round"`;

// A head at x,y: face and an eye dot (the figures look right).
function head(x, y, r) {
  return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="${SKIN}" ${line}/>` +
    `<circle cx="${f(x + r * 0.45)}" cy="${f(y - r * 0.1)}" r="0.6" fill="${INK}"/>`;
}

// The suit's emblem held up at x,y: the arm from the shoulder, the emblem, the hand at
// its grip (under the coin, at the cup's foot, at the sword's and the club's hilt).
function held(suit, x, y, shoulder, sleeve) {
  const upright = suit === "o" || suit === "c", turn = upright ? 0 : 15;
  const s = fit(suit, 12, 18, false), grip = { o: 9, c: 10, e: 9, b: 10 }[suit] * s;
  const hx = x - grip * Math.sin(turn * Math.PI / 180), hy = y + grip * Math.cos(turn * Math.PI / 180);
  return `<path d="M${f(shoulder[0])},${f(shoulder[1])} L${f(hx)},${f(hy)}" stroke="${sleeve}" ` +
    `stroke-width="3.2" stroke-linecap="round"/>` + place(x, y, s, turn, EMBLEM[suit](false)) +
    `<circle cx="${f(hx)}" cy="${f(hy)}" r="1.6" fill="${SKIN}" ${line}/>`;
}

// Sota: a standing page in a short tunic and a feathered beret, legs showing.
function sota(suit) {
  const s = SUITS[suit];
  return `<path d="M25.6,58 V76 H29.2 V58 Z M30.8,58 V76 H34.4 V58 Z" fill="${HOSE}" ${line}/>` +
    `<ellipse cx="26.6" cy="77" rx="2.8" ry="1.4" fill="${INK}"/>` +
    `<ellipse cx="33.4" cy="77" rx="2.8" ry="1.4" fill="${INK}"/>` +
    `<path d="M24,30 H36 L41,60 H19 Z" fill="${s.main}" ${line}/>` +
    `<path d="M30,30 V60" stroke="${s.dark}" stroke-width="0.7"/>` +
    `<rect x="21.6" y="44" width="16.8" height="2.6" fill="${GOLD}" ${line}/>` +
    `<path d="M24.5,31 L20,49" stroke="${s.dark}" stroke-width="3.4" stroke-linecap="round"/>` +
    `<circle cx="19.8" cy="50.2" r="1.6" fill="${SKIN}" ${line}/>` +
    `<path d="M26.5,28 H33.5 L32,31 H28 Z" fill="${WHITE}" ${line}/>` +
    head(30, 22, 5) +
    `<path d="M25,20 Q24.5,13.5 31,14.5 Q37,14.8 36.5,18.5 Q31,17 25,20 Z" fill="${s.dark}" ${line}/>` +
    `<path d="M35.5,16.5 Q39,11 42,10.5" fill="none" stroke="${s.main}" stroke-width="1.3" stroke-linecap="round"/>` +
    held(suit, 44, 32, [35.5, 31.5], s.dark);
}

// Caballo: a rider on a horse seen from the side, facing right: body, four legs (a
// foreleg raised), arched neck with a mane, head with ear and muzzle, tail; a saddle
// cloth in the suit's colour; the rider's emblem held up.
function caballo(suit) {
  const s = SUITS[suit], coat = "#9a5f33", mane = "#3a2414";
  const leg = `fill="none" stroke="${coat}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"`;
  return `<path d="M16,54 Q10,58 12,70" fill="none" stroke="${mane}" stroke-width="2.8" stroke-linecap="round"/>` +
    `<path d="M19,58 L17,67 L18.5,77 M24,60 L23.5,77 M34.5,60 L35.5,77" ${leg}/>` +
    `<path d="M38,58 L44,63 L42,69" ${leg}/>` +
    `<path d="M18.5,78 h-1.8 M23.5,78 h-1.8 M35.5,78 h-1.8" stroke="${INK}" stroke-width="2.4" stroke-linecap="round"/>` +
    `<path d="M16.5,53 Q18,49 26,49.5 H34 Q40,49 40.5,55 Q40.5,61 33,62 H23 Q15.5,62 16.5,53 Z" fill="${coat}" ${line}/>` +
    `<path d="M33,51 Q35,43 41,37 L45.5,39.5 Q42,46 40.5,57 Z" fill="${coat}" ${line}/>` +
    `<path d="M41,37.5 Q43.5,33.5 46.5,36.5 L53,44.5 Q54.5,47.5 51.5,48.5 Q48.5,48 44.5,43.5 Z" fill="${coat}" ${line}/>` +
    `<path d="M42,37 L41.5,32.5 L44.5,35.5 Z" fill="${coat}" ${line}/>` +
    `<path d="M41,37 Q35.5,43 33.5,51" fill="none" stroke="${mane}" stroke-width="2.2" stroke-linecap="round"/>` +
    `<circle cx="46.2" cy="39.8" r="0.7" fill="${INK}"/><circle cx="52" cy="46.3" r="0.5" fill="${INK}"/>` +
    `<path d="M22.5,50 Q28,49 33.5,50 L34,58.5 Q28,60 22,58.5 Z" fill="${s.main}" ${line}/>` +
    `<path d="M22.2,56.8 Q28,58.3 34,56.8" fill="none" stroke="${GOLD}" stroke-width="1.1"/>` +
    `<path d="M28.5,48 L30,58 L32.5,60" fill="none" stroke="${HOSE}" stroke-width="3" ` +
    `stroke-linecap="round" stroke-linejoin="round"/>` +
    `<path d="M24,35 H31.5 L33,49.5 H22.5 Z" fill="${s.main}" ${line}/>` +
    `<rect x="22.8" y="44.5" width="10" height="2.2" fill="${GOLD}" ${line}/>` +
    head(27.5, 30, 4.3) +
    `<path d="M22.6,28.5 Q22.6,23 28,23.5 Q33,24 33,27.5 Z" fill="${s.dark}" ${line}/>` +
    held(suit, 37, 22, [30.5, 37], s.dark);
}

// Rey: a crowned, bearded king in a long robe with an ermine cape.
function rey(suit) {
  const s = SUITS[suit];
  let ermine = "";
  for (const [x, y] of [[23, 38], [27, 36.5], [33, 36.5], [37, 38], [25, 41.5], [35, 41.5], [30, 39.5]]) {
    ermine += `<path d="M${x},${y} v1.4" stroke="${INK}" stroke-width="0.9"/>`;
  }
  const jewel = (x, y) => `<circle cx="${x}" cy="${y}" r="1" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="0.5"/>`;
  return `<path d="M23.5,32 H36.5 L42,79 H18 Z" fill="${s.main}" ${line}/>` +
    `<rect x="28.4" y="40" width="3.2" height="39" fill="${GOLD}" ${line}/>` +
    `<path d="M18,79 H42" stroke="${GOLD}" stroke-width="1.6"/>` +
    `<path d="M20,46 Q19.5,36 23,32.5 Q30,29 37,32.5 Q40.5,36 40,46 Q30,41.5 20,46 Z" fill="${WHITE}" ${line}/>` +
    ermine +
    `<path d="M22,38 L18.5,55" stroke="${s.dark}" stroke-width="3.4" stroke-linecap="round"/>` +
    `<circle cx="18.3" cy="56.3" r="1.6" fill="${SKIN}" ${line}/>` +
    head(30, 24, 5) +
    `<path d="M25.2,25 Q25.5,34 30,34.5 Q34.5,34 34.8,25 Q30,28.5 25.2,25 Z" fill="#ddd6ca" ${line}/>` +
    `<path d="M24.2,20.5 L23.6,10.5 L27,15.5 L30,9 L33,15.5 L36.4,10.5 L35.8,20.5 Z" fill="${GOLD}" ` +
    `stroke="${GOLD_DARK}" stroke-width="0.8" stroke-linejoin="round"/>` +
    jewel(23.6, 10.5) + jewel(30, 9) + jewel(36.4, 10.5) +
    `<rect x="24.2" y="18" width="11.6" height="2.5" fill="${s.main}" stroke="${GOLD_DARK}" stroke-width="0.5"/>` +
    held(suit, 45, 38, [38, 37.5], s.dark);
}

const FIGURE = { S: sota, C: caballo, R: rey };

// --- the face: frame with the suit's pausas, corner indices ---------------------------

// The frame line inset from the edge, broken at the top and bottom edges by the suit's
// pausas: oros none, copas one, espadas two, bastos three.
function frame(suit) {
  const s = SUITS[suit];
  const gaps = { 0: [], 1: [30], 2: [23, 37], 3: [19, 30, 41] }[s.breaks];
  let out = `<rect x="2.6" y="2.6" width="54.8" height="84.8" rx="3" fill="none" stroke="${s.ink}" stroke-width="1.3"/>`;
  for (const x of gaps) {
    out += `<rect x="${x - 2.2}" y="1.5" width="4.4" height="2.3" fill="${faceOf(suit)}"/>` +
      `<rect x="${x - 2.2}" y="86.2" width="4.4" height="2.3" fill="${faceOf(suit)}"/>`;
  }
  return out;
}

// The number and a small suit mark under it, top left and (turned) bottom right; 6 and 9
// underlined, so that the turned one is not read as the other.
function indices(suit, number) {
  const s = SUITS[suit];
  const narrow = number.length > 1 ? ` textLength="13.5" lengthAdjust="spacingAndGlyphs"` : "";
  const one = `<text x="10.5" y="17.5" font-family="Georgia, 'DejaVu Serif', serif" font-size="17" ` +
    `font-weight="bold" text-anchor="middle" fill="${s.ink}"${narrow}>${number}</text>` +
    (number === "6" || number === "9" ? `<rect x="7" y="18.8" width="7" height="1" fill="${s.ink}"/>` : "") +
    place(10.5, 24, fit(suit, 6.5, 7, false), 0, EMBLEM[suit](false));
  return one + `<g transform="rotate(180 30 45)">${one}</g>`;
}

const OPEN = `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img">`;

// Markup from a card code only: anything that is not a card code is refused.
export function cardSVG(code) {
  if (!isCard(code)) {
    const what = typeof code === "string" ? JSON.stringify(code.slice(0, 20)) : typeof code;
    throw new Error(`not a card: ${what}`);
  }
  const rank = code[0], suit = code[1];
  const body = FIGURE[rank] ? FIGURE[rank](suit) : pips(suit, rank === "A" ? 1 : Number(rank));
  return OPEN +
    `<rect x="0.5" y="0.5" width="59" height="89" rx="4.5" fill="${faceOf(suit)}" stroke="${EDGE}"/>` +
    frame(suit) + body + indices(suit, NUMBER[rank] || rank) + `</svg>`;
}

// --- the back: a dark red field with a fine gold lattice, a frame and a medallion -------

// Diagonal lines of both slopes, every `step`, cut to the box: one path, no pattern ids.
function lattice(x0, y0, x1, y1, step) {
  let d = "";
  for (let k = x0 - y1; k <= x1 - y0; k += step) {          // lines x - y = k
    const lo = Math.max(y0, x0 - k), hi = Math.min(y1, x1 - k);
    if (lo < hi) d += `M${f(lo + k)},${f(lo)}L${f(hi + k)},${f(hi)}`;
  }
  for (let k = x0 + y0; k <= x1 + y1; k += step) {          // lines x + y = k
    const lo = Math.max(y0, k - x1), hi = Math.min(y1, k - x0);
    if (lo < hi) d += `M${f(k - lo)},${f(lo)}L${f(k - hi)},${f(hi)}`;
  }
  return d;
}

export function backSVG() {
  const red = "#7b1a22", deep = "#5a1017";
  let rosette = "";
  for (let k = 0; k < 8; k++) {
    rosette += `<ellipse cy="-5" rx="2" ry="4" transform="rotate(${k * 45})" fill="${GOLD}" ` +
      `stroke="${deep}" stroke-width="0.5"/>`;
  }
  return OPEN +
    `<rect x="0.5" y="0.5" width="59" height="89" rx="4.5" fill="${FACE}" stroke="${EDGE}"/>` +
    `<rect x="3" y="3" width="54" height="84" rx="2.5" fill="${red}"/>` +
    `<path d="${lattice(5, 5, 55, 85, 5)}" stroke="${GOLD}" stroke-width="0.45" stroke-opacity="0.7" fill="none"/>` +
    `<rect x="5" y="5" width="50" height="80" rx="1.5" fill="none" stroke="${GOLD}" stroke-width="1"/>` +
    `<rect x="7" y="7" width="46" height="76" rx="1" fill="none" stroke="${GOLD}" stroke-width="0.5"/>` +
    `<ellipse cx="30" cy="45" rx="12" ry="16" fill="${deep}" stroke="${GOLD}" stroke-width="1.2"/>` +
    `<ellipse cx="30" cy="45" rx="9.5" ry="13.5" fill="none" stroke="${GOLD}" stroke-width="0.5"/>` +
    place(30, 45, 1, 0, rosette + `<circle r="2.4" fill="${red}" stroke="${GOLD}" stroke-width="0.8"/>`) +
    `</svg>`;
}

// A suit's emblem alone (the trump's badge on the cloth), for a checked suit letter only.
export function suitSVG(suit) {
  if (typeof suit !== "string" || !/^[oceb]$/.test(suit)) throw new Error("not a suit");
  return `<svg viewBox="0 0 30 30" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    place(15, 15, fit(suit, 26, 26, false), 0, EMBLEM[suit](false)) + "</svg>";
}
