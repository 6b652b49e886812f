// Your hand and the buttons of what you may declare.  On a narrow screen a card you can
// tap keeps at least TARGET px of its face uncovered: where one row would overlap the
// cards more than that, the hand is laid out in two rows (the top row shows the cards'
// upper half, the corner index included).
import { cardSVG } from "/static/cards.js";
import { cardWords, t } from "/static/i18n.js";
import { bidButtons } from "/static/auction.js";
import { isBid, moveLabel } from "/static/moves.js";

const $ = (id) => document.getElementById(id);
export const TARGET = 44;          // the smallest tap target, in CSS pixels

// by suit, then the strongest first -- in the variant's own order, sent by the server
function sortHand(cards, order) {
  const suitOrder = "oceb";
  return [...cards].sort((a, b) => suitOrder.indexOf(a.slice(-1)) - suitOrder.indexOf(b.slice(-1)) ||
    order.indexOf(b.slice(0, -1)) - order.indexOf(a.slice(0, -1)));
}

// a hand card's width in pixels: the layout's --hw-base (rem) times the card size
// setting's --scale (style.css)
function cardWidth(hand) {
  const style = getComputedStyle(hand);
  const base = parseFloat(style.getPropertyValue("--hw-base"));
  const scale = parseFloat(style.getPropertyValue("--scale")) || 1;
  return base * scale * parseFloat(getComputedStyle(document.documentElement).fontSize);
}

// how many rows the hand needs at this width: two where one row leaves less than TARGET
function rowsFor(hand, n) {
  const card = cardWidth(hand);
  const width = hand.clientWidth;
  if (n < 2 || !width || !card) return 1;
  return (width - card) / (n - 1) >= TARGET ? 1 : 2;
}

// v: the seat's view; quiet: nothing may be played now (a trick closing, offline)
export function drawHand(v, quiet, act) {
  const legal = new Set(quiet ? [] : v.legal_cards);
  const hand = $("hand");
  const cards = sortHand(v.hand, v.rank_order);
  if (v.sitting_out === v.seat && !cards.length) {     // Cabrero's dealer with 5 or 6
    hand.replaceChildren(Object.assign(document.createElement("p"),
      { className: "rest-note", textContent: t("sitting_out_you") }));
    hand.dataset.rows = "1";
    $("declare").replaceChildren();
    return;
  }
  const rows = rowsFor(hand, cards.length);
  const perRow = Math.ceil(cards.length / rows);
  hand.replaceChildren();
  hand.dataset.rows = String(rows);
  hand.style.setProperty("--n", String(Math.max(2, perRow)));   // how much they overlap
  let row = null;
  cards.forEach((code, i) => {
    if (i % perRow === 0) { row = document.createElement("div"); row.className = "row"; hand.append(row); }
    const b = document.createElement("button");
    b.type = "button";
    const ok = legal.has(code);
    b.className = `card ${ok ? "legal" : "dim"}`;
    b.innerHTML = cardSVG(code);                 // from a checked card code only
    b.dataset.card = code;
    if (ok) b.dataset.legal = "1";
    b.setAttribute("aria-label", ok ? t("card_playable", { card: cardWords(code) }) : cardWords(code));
    b.setAttribute("aria-disabled", ok ? "false" : "true");
    b.onclick = () => { if (b.dataset.legal) act(code); };
    row.append(b);
  });
  const declare = $("declare");
  declare.replaceChildren();
  if (quiet) return;
  const button = (m) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = moveLabel(m);
    b.dataset.action = m.action;
    b.onclick = () => act(m.action);
    return b;
  };
  for (const m of v.calls) {
    if (!isBid(m)) declare.append(button(m));
  }
  const bids = v.calls.filter(isBid);                         // every one reachable
  if (bids.length) declare.append(...bidButtons(bids, button, act));
}
