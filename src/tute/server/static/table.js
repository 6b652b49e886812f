// The card table: seats around the cloth, the stock, the trick, your hand, the score.
// Every function here draws from a seat's view as the server sent it (never the whole
// deal: the page has no card it may not see) and builds text as text, never as markup.
import { seatFace } from "/static/avatars.js";
import { backSVG, cardSVG, suitSVG } from "/static/cards.js";
import { cardWords, suitName, t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
export const el = (tag, cls, text) => {   // an element with its class and text
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// where each seat sits, counted from yours going counter-clockwise (the next seat is
// on your right, RULES.md §1)
const PLACES = {
  2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"],
  5: ["bottom", "right", "top-right", "top-left", "left"],
  6: ["bottom", "right", "top-right", "top", "top-left", "left"],
};
export function place(v, seat) {
  const n = v.names.length;
  return (PLACES[n] || PLACES[6])[(seat - v.seat + n) % n];
}

// a face-up card (not a button); its label says it in the page's language
export function cardView(code, label) {
  const d = el("span", "card shown");
  d.innerHTML = cardSVG(code);                  // markup from a checked card code only
  d.dataset.card = code;
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", label || cardWords(code));
  return d;
}

function back() {
  const d = el("span", "card back");
  d.innerHTML = backSVG();
  d.setAttribute("aria-hidden", "true");
  return d;
}

// a robot's name without its "(robot)": the seat's badge says it
export const shortName = (name) => name.replace(/ \(robot\)$/, "");

export function sideOf(v, seat) { return v.partnerships ? seat % 2 : seat; }
export const watching = (v) => v.seat === null || v.seat === undefined;   // a spectator, a replay
// the side told in the second person: the seat's, or a replay's reader's (v.reader: the
// seat a record of ``tute play`` calls "Tú"); null for a spectator
const readerSide = (v) => (!watching(v) ? sideOf(v, v.seat)
  : v.reader !== null && v.reader !== undefined ? sideOf(v, v.reader) : null);
export function sideName(v, side) {
  const n = (s) => shortName(v.names[s]);
  if (!v.partnerships) return side === v.seat ? t("you_named", { name: n(side) }) : n(side);
  const mine = !watching(v) && side === v.seat % 2;
  const pair = `${n(side)} + ${n(side + 2)}`;
  return mine ? t("us_pair", { pair }) : pair;
}

// ---------------------------------------------------------------- seats
export function renderSeats(v, info, clock) {
  const box = $("seats-ring");
  box.replaceChildren();
  $("cloth").dataset.n = String(v.names.length);            // the layout for this many
  const robots = new Set((info ? info.seats : []).filter((s) => s.robot).map((s) => s.seat));
  for (let s = 0; s < v.names.length; s++) {
    const where = place(v, s);
    const seat = el("div", `seat at-${where}`);
    seat.dataset.seat = String(s);
    if (s === v.to_act) seat.classList.add("to-act");
    const plate = el("div", "plate");
    const robot = robots.has(s) && info;
    const shown = robot ? shortName(v.names[s]) : v.names[s];     // the badge says it
    const name = el("span", "who", s === v.seat ? t("you_named", { name: shown }) : shown);
    plate.append(seatFace(info ? info.seats : [], v.names[s]), name);
    if (robot) {
      plate.append(el("span", "badge", t("robot_level", { level: t(`level_${info.robot_level}`) })));
    }
    if (v.partnerships && !watching(v) && s !== v.seat && s % 2 === v.seat % 2) {
      plate.append(el("span", "badge partner", t("partner")));
    }
    if (v.declarer === s) {
      plate.append(el("span", "badge declarer", v.bid ? t("declarer_bid", { bid: v.bid }) : t("declarer")));
    }
    if (v.dealer === s) plate.append(el("span", "badge dealer", t("dealer_mark")));
    if (info && info.host === s) plate.append(el("span", "host-star", "★"));   // the host
    seat.append(plate);
    const facts = [t("tricks_n", { n: tricksOf(v, s) })];
    if (s !== v.seat) facts.unshift(t("cards_n", { n: v.hand_counts[s] }));
    if (v.sitting_out === s) facts.splice(0, facts.length, t("sits_out"));   // no cards, no tricks
    seat.append(el("div", "facts", facts.join(" · ")));
    // the cards face up where they are public: a replay, or a finished hand's deal
    const faces = v.faces ? v.faces[s] : v.phase === "over" && v.dealt ? v.dealt[s] : null;
    if (faces && faces.length) {
      const fan = el("div", "fan faces");
      fan.dataset.faces = String(s);
      for (const code of faces) fan.append(cardView(code));
      seat.append(fan);
    } else if (s !== v.seat && v.hand_counts[s] > 0) {
      const fan = el("div", "fan");
      const up = heldTurnUp(v) === s;      // parejas' dealer's last card, face up till played
      if (up) {
        const words = t("turn_up_held", { card: cardWords(v.turn_up), name: shortName(v.names[s]) });
        const card = cardView(v.turn_up, words);
        card.classList.add("held-up");
        card.title = words;
        fan.append(card);
      }
      for (let i = up ? 1 : 0; i < Math.min(v.hand_counts[s], 12); i++) fan.append(back());
      seat.append(fan);
    }
    const tick = el("div", "clock");
    tick.dataset.clockSeat = String(s);
    seat.append(tick);
    seat.setAttribute("aria-label", `${v.names[s]}: ${facts.join(", ")}`);
    box.append(seat);
  }
  showClock(clock);
}

// tricks are counted per side in the view; a seat shows its side's
function tricksOf(v, seat) { return v.tricks_won[sideOf(v, seat)] || 0; }

let clockTimer = null;
export function showClock(clock) {
  clearInterval(clockTimer);
  for (const c of document.querySelectorAll(".seat .clock")) { c.textContent = ""; c.classList.remove("low"); }
  if (!clock) return;
  const until = Date.now() + clock.seconds * 1000;
  const tick = () => {
    const box = document.querySelector(`.seat .clock[data-clock-seat="${clock.seat}"]`);
    const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    if (box) {
      box.textContent = t("seconds_left", { n: left });
      box.classList.toggle("low", left <= 5);
    }
    if (left <= 0) clearInterval(clockTimer);
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

// ---------------------------------------------------------------- the middle
export function renderStock(v) {
  const box = $("stock");
  box.replaceChildren();
  if (v.stock_left > 0 || (v.turn_up && v.turn_up_in_stock)) {
    const pile = el("div", "pile");
    if (v.turn_up && v.turn_up_in_stock) {         // under the pile, gone once drawn
      const up = cardView(v.turn_up, t("turn_up_card", { card: cardWords(v.turn_up) }));
      up.classList.add("turn-up");
      pile.append(up);
    }
    for (let i = 0; i < Math.min(3, v.stock_left); i++) {
      const b = back();
      b.classList.add("stacked");
      b.style.setProperty("--i", String(i));
      pile.append(b);
    }
    box.append(pile, el("div", "count-left", t("stock_n", { n: v.stock_left })));
  }
  const badge = $("trump-badge");
  badge.replaceChildren();
  badge.hidden = !v.trump;
  if (v.trump) {                                  // the trump, in a corner of the cloth
    const icon = el("span", "suit-icon");
    icon.innerHTML = suitSVG(v.trump);            // from a checked suit letter only
    badge.append(icon, el("span", "", `${t("trump")}: ${suitName(v.trump)}`));
    badge.dataset.suit = v.trump;
  }
}

// the seat that holds the turned card, known to all, not played yet (null: none)
function heldTurnUp(v) {
  const s = v.turn_up_holder;
  if (!v.turn_up || v.turn_up_in_stock || s === null || s === undefined) return null;
  const holds = s === v.seat ? v.hand.includes(v.turn_up) : (v.known_cards[s] || []).includes(v.turn_up);
  return holds ? s : null;
}

// a trick's cards, each in front of who played it
export function renderTrick(v, cards, winner, closed) {
  const box = $("trick");
  box.replaceChildren();
  box.classList.remove("gone");
  delete box.dataset.closed;
  delete box.dataset.to;
  if (closed) box.dataset.closed = "1";
  for (const [s, code] of cards) {
    const d = el("div", `played from-${place(v, s)}${s === winner && closed ? " won" : ""}`);
    d.dataset.seat = String(s);
    d.append(cardView(code, t("played_by", { name: v.names[s], card: cardWords(code) })));
    d.append(el("span", "by", shortName(v.names[s])));
    box.append(d);
  }
  const caption = $("caption");
  caption.textContent = "";
  if (closed && winner !== null && winner !== undefined) {
    const yours = winner === v.seat || (watching(v) && winner === v.reader);   // "Baza para Tú": no
    caption.textContent = yours ? t("trick_to_you") : t("trick_to", { name: shortName(v.names[winner]) });
    box.append(el("p", "trick-winner", caption.textContent));
    box.dataset.to = place(v, winner);
  }
}

// the closed trick goes to the winner's side
export function sweepTrick() {
  const box = $("trick");
  if (box.dataset.closed) box.classList.add("gone");
}

// ---------------------------------------------------------------- score
export function renderScore(v) {
  const box = $("score");
  box.replaceChildren();
  const r = v.result;
  const sides = v.tricks_won.length;
  const table = el("table", "score");
  const head = el("tr");
  head.append(el("th", "", ""), el("th", "", t("tricks")), el("th", "", t("points")));
  const match = matchFigures(v);
  if (match) head.append(el("th", "", match.title));
  table.append(head);
  for (let s = 0; s < sides; s++) {
    const resting = v.sitting_out === s && !v.partnerships;   // in the match, not this hand
    const row = el("tr", resting ? "resting" : "");
    if (!watching(v) && (v.partnerships ? s === v.seat % 2 : s === v.seat)) row.classList.add("mine");
    const points = r ? r.totals[s] : v.points_taken[s] + v.cantes[s];
    const pts = el("td", "", resting ? "" : String(points));
    if (!r && v.cantes[s]) pts.title = t("with_cantes", { n: v.cantes[s] });
    const tricks = el("td", "", resting ? t("sits_out") : String(v.tricks_won[s]));
    row.append(el("th", "", sideName(v, s)), tricks, pts);
    if (match) row.append(el("td", "", String(match.values[s])));
    table.append(row);
  }
  box.append(table);
  const line = el("p", "turn-line");
  if (!watching(v) && v.to_act === v.seat) { line.classList.add("turn"); line.textContent = t("turn"); }
  else if (v.to_act !== null) line.textContent = t("waits", { name: shortName(v.names[v.to_act]) });
  else if (v.phase === "over") line.textContent = t("hand_over");
  box.append(line);
}

// the match: hands (or games) won to the target, or points to the target, or porotos
function matchFigures(v) {
  const m = v.match;
  if (!m) return null;
  if (m.format === "elimination") {
    return { title: t("match_porotos", { target: m.target }), values: m.porotos };
  }
  if (m.format === "cumulative") {
    return { title: t("match_points_to", { target: m.target }), values: m.points };
  }
  if (m.target <= 1 && m.format === "first_to") return null;   // a match of one hand
  const title = m.format === "series" ? t("match_series", { target: m.target })
    : m.format === "two_ahead" ? t("match_two_ahead", { target: m.target })
      : t("match_first_to", { target: m.target });
  return { title, values: m.hands_won };
}

// the match's end as a headline: who won it, and by how much ("… ganan la partida 2-0")
export function matchOverText(v) {
  const m = v.match;
  if (!m || !m.over || m.winner === null || m.winner === undefined) return null;
  if (m.format === "elimination") return t("match_won", { name: shortName(v.names[m.winner] || "") });
  const figures = matchFigures(v);
  const values = figures ? figures.values : [];
  const order = [m.winner, ...[...values.keys()].filter((s) => s !== m.winner)];   // the winner's first
  const score = values.length ? order.map((s) => values[s]).join("-") : "";
  const mine = readerSide(v) === m.winner;
  const key = mine ? (v.partnerships ? "match_won_us" : "match_won_you")
    : (v.partnerships ? "match_won_pair" : "match_won_score");
  const name = v.partnerships ? `${shortName(v.names[m.winner])} + ${shortName(v.names[m.winner + 2])}`
    : shortName(v.names[m.winner]);
  return t(key, { name, score }).replace(/\s+([!.]?)$/, "$1").trim();
}

// "Ganas la mano", "Ganáis la mano", "Ganan la mano Ada + Carmen", "Gana la mano Ada"
function handWon(v, side) {
  const mine = readerSide(v) === side;
  if (mine) return t(v.partnerships ? "won_us" : "won_you");
  if (v.partnerships) return t("won_pair", { name: `${shortName(v.names[side])} + ${shortName(v.names[side + 2])}` });
  return t("won", { name: shortName(v.names[side]) });
}

// the count at a hand's end, as a table: cards, the 10 de últimas, cantes, total
// (``after``: the table right after the count, whose match has this hand in its tally)
export function renderCount(v, r, after = v) {
  const box = $("count");
  box.replaceChildren();
  const headline = matchOverText(after);
  if (headline) box.append(el("p", "count-note match-over", headline));
  const sides = r.totals.length;
  const shown = [...Array(sides).keys()].filter((s) => !(v.sitting_out === s && !v.partnerships));
  const table = el("table", "count");
  table.dataset.count = "1";
  const head = el("tr");
  head.append(el("th", "", t("count_title")));
  for (const s of shown) head.append(el("th", "", sideName(v, s)));
  table.append(head);
  const bonus = v.last_trick_bonus || 0;
  const tute = r.tute !== null && r.tute !== undefined;
  // a tute wins the hand whatever the points: the cards taken are shown as they were
  // taken (the count scores them 0), no total
  const rows = [
    ["count_cards", tute ? (s) => v.points_taken[s] || 0
      : (s) => r.card_points[s] - (r.last_trick === s ? bonus : 0)],
  ];
  if (bonus && !tute) rows.push(["count_last", (s) => (r.last_trick === s ? bonus : 0)]);
  rows.push(["count_cantes", (s) => r.cantes[s]]);
  if (!tute) rows.push(["count_total", (s) => r.totals[s]]);
  rows.push(["count_tricks", (s) => r.tricks_won[s]]);
  for (const [key, figure] of rows) {
    const tr = el("tr", key === "count_total" ? "total" : "");
    tr.append(el("th", "", t(key)));
    for (const s of shown) tr.append(el("td", "", String(figure(s))));
    table.append(tr);
  }
  box.append(table);
  const notes = [];
  if (r.void) notes.push(t("count_void"));
  if (tute) notes.push(t("count_tute", { name: sideName(v, r.tute) }));
  if (r.capote !== null && r.capote !== undefined) {    // "Ana + Lucía se llevan todas las bazas"
    notes.push(t(v.partnerships ? "count_capote_pair" : "count_capote", { name: sideName(v, r.capote) }));
  }
  if (r.contract && !tute) {           // (a tute decides the contract too: its note says it)
    const d = r.contract.declarer;        // what the declarer made: cards and cantes
    notes.push(t(r.contract.made ? "count_made" : "count_failed",
      { name: shortName(v.names[d]), bid: r.contract.bid, made: r.totals[d] }));
  }
  if (r.porotos) {
    const took = r.porotos.map((p, s) => (p ? shortName(v.names[s]) : null)).filter(Boolean);
    if (took.length) notes.push(t("count_porotos", { names: took.join(", ") }));
  }
  if (r.winner !== null && r.winner !== undefined && !tute) notes.push(handWon(v, r.winner));
  if (r.games > 1) notes.push(t("count_games", { n: r.games }));
  for (const n of notes) box.append(el("p", "count-note", n));
}
