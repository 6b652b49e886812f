import { cardSVG } from "/static/cards.js";

// the catalogs are the server's (the same files Python reads): /i18n/es.json ...
const TEXT = {};
async function loadText(code) {
  if (!TEXT[code]) {
    const res = await fetch(`/i18n/${code}.json`, { credentials: "same-origin" });
    TEXT[code] = (await res.json()).web;
  }
}
const suitName = (letter) => t(`suit_${letter}`);
const cardWords = (code) => {
  const rank = code.slice(0, -1);
  const said = "ASCR".includes(rank) ? t(`rank_${rank}`) : t("rank_n", { n: rank });
  return t("card", { rank: said, suit: suitName(code.slice(-1)) });
};
let tableInfo = null;
const LANGS = ["es", "pt", "it", "en"];
let lang = localStorage.getItem("tute.lang") || "es";
if (!LANGS.includes(lang)) lang = "es";
let session = null;   // {tableId, seat}: the seat's key is an HttpOnly cookie, never here
let socket = null;
let lastSeq = 0;
let current = null;

const $ = (id) => document.getElementById(id);
// ICU's plural as the catalogs use it: {n, plural, one {# baza} other {# bazas}}
const plural = (text, params) => text.replace(/\{(\w+), plural, one \{([^{}]*)\} other \{([^{}]*)\}\}/g,
  (_, k, one, other) => (params[k] === 1 ? one : other).replace(/#/g, String(params[k])));
const t = (key, params = {}) => plural((TEXT[lang] || {})[`web_${key}`] || key, params)
  .replace(/\{(\w+)\}/g, (_, k) => params[k]);

function translate() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  $("lang").value = lang;
}

async function api(path, body) {
  const res = await fetch(`${path}?lang=${lang}`, body ? {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    credentials: "same-origin",
  } : { credentials: "same-origin" });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function freeSeats(tb) {
  return [...Array(tb.players).keys()].filter((s) => !tb.seats.some((x) => x.seat === s));
}

// the lobby refreshes itself while it is shown (open and running tables only)
setInterval(() => { if (!$("lobby").hidden && !document.hidden) refreshTables().catch(() => {}); }, 3000);

async function refreshTables() {
  const { tables } = await api("/api/tables");
  const list = $("tables");
  list.replaceChildren();
  for (const tb of tables) {
    const li = document.createElement("li");
    li.textContent = `${tb.variant} · ${tb.seats.map((s) => s.name).join(", ")}`;
    if (tb.status === "open") {
      for (const free of freeSeats(tb)) {      // the player chooses the seat
        const b = document.createElement("button");
        b.textContent = `${t("join")} ${free + 1}`;
        b.dataset.seat = String(free);
        b.onclick = () => join(tb.id, free);
        li.append(" ", b);
      }
    }
    list.append(li);
  }
}

async function join(tableId, seat) {
  const name = $("name").value.trim();
  if (!name) { $("name").focus(); return; }
  try {
    await api(`/api/tables/${tableId}/seats`, { seat, name });
  } catch (e) { $("message").textContent = e.message; return; }
  session = { tableId, seat };
  lastSeq = 0;
  connect();
}

async function createForFriends() {
  const name = $("name").value.trim();
  if (!name) { $("name").focus(); return; }
  try {
    const { id, seat } = await api("/api/tables", { ...tableOptions(), name, seat: 0 });
    session = { tableId: id, seat };
    lastSeq = 0;
    connect();
  } catch (e) { $("message").textContent = e.message; }
}

function renderWaiting(table) {
  $("waiting").hidden = false;
  const names = [...Array(table.players).keys()].map((s) => {
    const seat = table.seats.find((x) => x.seat === s);
    return seat ? seat.name : `(${t("free")})`;
  });
  $("seats").textContent = names.join(" · ");
  const host = session && table.host === session.seat;
  $("add-robots").hidden = !host;
  $("start").hidden = !host;
  if (!host) $("seats").textContent += ` — ${t("waitHost")}`;
}

async function createAndPlay(ev) {
  ev.preventDefault();
  const name = $("name").value.trim();
  if (!name) return;
  try {
    const { id, seat } = await api("/api/tables", { ...tableOptions(), name, seat: 0 });
    await api(`/api/tables/${id}/robots`, {});
    session = { tableId: id, seat };
    lastSeq = 0;
    connect();
    await api(`/api/tables/${id}/start`, {});
  } catch (e) { $("message").textContent = e.message; $("table").hidden = false; }
}

function connect() {
  $("lobby").hidden = true;
  $("table").hidden = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(session.tableId)}?last=${lastSeq}&lang=${lang}`);
  socket.onmessage = (m) => { inbox.push(JSON.parse(m.data)); pump(); };
  socket.onclose = () => {
    if (!session) return;
    setOffline(true);
    setTimeout(() => { if (session) connect(); }, 1500);
  };
}

// messages are shown in order; a trick that closes stays on the cloth a moment first
const inbox = [];
let holding = false;
function pump() {
  while (!holding && inbox.length) handle(inbox.shift());
}
function holdFor(ms) {
  holding = true;
  setTimeout(() => {
    holding = false;
    if (current) render(current);          // the cloth cleared: the table as it is now
    pump();
  }, ms);
}

let offline = false;
function setOffline(value) {
  offline = value;
  $("offline").hidden = !value;
  if (current) render(current);
}

function handle(msg) {
  {
    if (msg.type === "pong") return;
    if (msg.type === "error") {
      $("message").textContent = msg.message;
      if (!current) { session = null; socket.onclose = null; }
      return;
    }
    if (msg.event && msg.event.seq) lastSeq = Math.max(lastSeq, msg.event.seq);
    if (msg.table) {
      if (msg.table.status === "open") renderWaiting(msg.table); else $("waiting").hidden = true;
    }
    if (msg.event && msg.event.kind === "state") setOffline(false);
    if (msg.table) tableInfo = msg.table;
    const before = current;
    if (msg.event && msg.event.kind === "action" && msg.view) announce(msg.event, msg.view, before);
    if (msg.event && msg.event.result) showCount(msg.event.result);
    if (msg.view) {
      current = msg.view;
      render(current);
      const closed = msg.event && msg.event.kind === "action" && before && before.trick.length
        && !current.trick.length && current.last_trick.length;
      if (closed) { showTrick(current.last_trick, current.last_trick_winner, current); holdFor(1300); }
    }
    $("after").hidden = !(current && current.match && current.match.over);
    $("again").hidden = !(tableInfo && current && tableInfo.host === current.seat);
    startClock(msg.clock || null);
  }
}

function winnerText(seat, v) {
  return seat === v.seat ? t("trick_to_you") : t("trick_to", { name: v.names[seat] });
}

// a whole trick on the cloth, each card before who played it, and who takes it
function showTrick(cards, winner, v) {
  const trick = $("trick");
  trick.replaceChildren();
  delete trick.dataset.closed;
  trick.dataset.closed = "1";
  for (const [s, code] of cards) {
    const d = document.createElement("div");
    d.className = "played" + (s === winner ? " won" : "");
    d.append(cardView(code), document.createElement("br"), v.names[s]);
    trick.append(d);
  }
  if (winner !== null && winner !== undefined) {
    const caption = document.createElement("p");
    caption.className = "trick-winner";
    caption.textContent = winnerText(winner, v);
    trick.append(caption);
  }
}

// cantes, tute, swaps, bids and trump choices said in words, with the cards shown
let announceTimer = null;
function announce(event, v, before) {
  const a = event.action;
  const name = v.names[event.seat] || "";
  let text = null;
  if (a === "40") text = t("announce_forty", { name });
  else if (/^20[oceb]$/.test(a)) text = t("announce_twenty", { name, suit: suitName(a[2]) });
  else if (a === "tute") text = t("announce_tute", { name });
  else if (a === "swap" && before && before.turn_up) {
    text = t("announce_swap", { name, card: cardWords(before.turn_up) });
  }
  else if (a.startsWith("bid ")) text = t("announce_bid", { name, points: a.slice(4) });
  else if (a === "pass") text = t("announce_pass", { name });
  else if (a.startsWith("trump ")) text = t("announce_trump", { name, suit: suitName(a.slice(6)) });
  else if (a.startsWith("manilla ")) text = t("announce_manilla", { name, suit: suitName(a.slice(8)) });
  if (text === null) return;
  const box = $("announce");
  box.replaceChildren(text);
  box.dataset.announce = a;
  const shown = v.cantes_shown[v.cantes_shown.length - 1];
  if ((a === "40" || a.startsWith("20")) && shown) {
    for (const code of shown.cards) box.append(cardView(code));
  }
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => { box.replaceChildren(); delete box.dataset.announce; }, 3500);
}

let clockTimer = null;
function startClock(clock) {
  clearInterval(clockTimer);
  $("clock").textContent = "";
  if (!clock || !current) return;
  const until = Date.now() + clock.seconds * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((until - Date.now()) / 1000));
    $("clock").textContent = `⏱ ${current.names[clock.seat]}: ${left} s`;
    if (left <= 0) clearInterval(clockTimer);
  };
  tick();
  clockTimer = setInterval(tick, 500);
}

function act(action) {
  $("message").textContent = "";
  socket.send(JSON.stringify({ type: "act", action }));
}

// by suit, then the strongest first -- in the variant's own order, sent by the server
// (the core's ranking: Guiñote's differs from Tute's), never a copy kept here
function sortHand(cards, order) {
  const suitOrder = "oceb";
  return [...cards].sort((a, b) => suitOrder.indexOf(a.slice(-1)) - suitOrder.indexOf(b.slice(-1)) ||
    order.indexOf(b.slice(0, -1)) - order.indexOf(a.slice(0, -1)));
}

function cardView(code) {
  const d = document.createElement("span");
  d.className = "card shown";
  d.innerHTML = cardSVG(code);
  d.dataset.card = code;
  return d;
}

function cardButton(code, legal, onclick) {
  const b = document.createElement("button");
  b.className = `card ${legal ? "legal" : "dim"}`;
  b.innerHTML = cardSVG(code);
  b.dataset.card = code;
  b.disabled = !legal;
  if (legal) b.onclick = onclick;
  return b;
}

function sideName(v, s) {
  return v.partnerships ? `${v.names[s]} + ${v.names[s + 2]}` : v.names[s];
}

function render(v) {
  const sides = v.tricks_won.length;
  const score = [...Array(sides).keys()].map((s) =>
    `${sideName(v, s)}: ${t("tricks_n", { n: v.tricks_won[s] })}, ${t("points_n", { n: v.points_taken[s] + v.cantes[s] })}`).join(" · ");
  const matchLine = v.match ? ` · ${t("match")}: ${(v.match.points.some((x) => x) ? v.match.points : v.match.hands_won).join("-")}` : "";
  const status = $("status");
  status.replaceChildren(`${score}${matchLine}`, document.createElement("br"));
  if (v.to_act === v.seat) {
    const mine = document.createElement("span");
    mine.className = "turn";
    mine.textContent = t("turn");
    status.append(mine);
  } else if (v.to_act !== null) {
    status.append(t("waits", { name: v.names[v.to_act] }));
  }
  $("others").textContent = v.names.map((n, s) => s === v.seat ? null : `${n}: ${t("cards_n", { n: v.hand_counts[s] })}`).filter(Boolean).join(" · ") +
    (v.turn_up_in_stock ? ` · ${t("stock")}: ${v.stock_left}` : "");
  const trumpBox = $("trump");
  trumpBox.textContent = v.trump ? `${t("trump")}: ${suitName(v.trump)}` : "";
  if (v.turn_up && v.turn_up_in_stock) trumpBox.append(cardView(v.turn_up));   // gone once taken
  const trick = $("trick");
  trick.replaceChildren();
  delete trick.dataset.closed;
  for (const [s, code] of v.trick) {
    const d = document.createElement("div");
    d.className = "played";
    d.append(cardView(code));
    d.append(document.createElement("br"), v.names[s]);
    trick.append(d);
  }
  const legal = new Set(v.legal_cards);
  const hand = $("hand");
  hand.replaceChildren();
  for (const code of sortHand(v.hand, v.rank_order)) {
    hand.append(cardButton(code, legal.has(code) && !offline, () => act(code)));
  }
  const declare = $("declare");
  declare.replaceChildren();
  for (const a of v.legal) {
    if (legal.has(a)) continue;
    if (a.startsWith("bid ") && a !== v.legal.find((x) => x.startsWith("bid "))) continue;
    const b = document.createElement("button");
    b.textContent = actionLabel(a);
    b.dataset.action = a;
    b.disabled = offline;
    b.onclick = () => act(a);
    declare.append(b);
  }
}

function actionLabel(a) {
  if (a === "swap") return t("swap");
  if (a === "pass") return t("pass");
  if (a === "40") return t("sing_forty");
  if (a === "tute") return t("sing_tute");
  if (/^20[oceb]$/.test(a)) return t("sing_twenty", { suit: suitName(a[2]) });
  if (a.startsWith("trump ")) return t("name_trump", { suit: suitName(a.slice(6)) });
  if (a.startsWith("manilla ")) return t("manilla", { suit: suitName(a.slice(8)) });
  if (a.startsWith("bid ")) return `${t("bid")} ${a.slice(4)}`;
  return a;
}

function showLastTrick() {
  if (current && current.last_trick.length) showTrick(current.last_trick, current.last_trick_winner, current);
}

function backToTables() {
  session = null;
  current = null;
  if (socket) { socket.onclose = null; socket.close(); }
  $("table").hidden = true;
  $("after").hidden = true;
  $("lobby").hidden = false;
  $("count").textContent = "";
  refreshTables();
}

function showCount(r) {
  if (!current) return;
  const v = current;
  const lines = r.totals.map((total, s) => t("count", { name: sideName(v, s), cards: r.card_points[s], cantes: r.cantes[s], total }));
  if (r.winner !== null && r.winner !== undefined) lines.push(t("won", { name: sideName(v, r.winner) }));
  $("count").textContent = lines.join(" · ");
}

document.addEventListener("keydown", (e) => {
  if (!current || e.target.tagName === "INPUT") return;
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {
    const cards = sortHand(current.hand, current.rank_order).filter((c) => current.legal_cards.includes(c));
    if (cards[n - 1]) act(cards[n - 1]);
  }
});
$("lang").onchange = async () => {
  const next = LANGS.includes($("lang").value) ? $("lang").value : "es";
  await loadText(next);                 // the words first, then the language switches
  lang = next;
  localStorage.setItem("tute.lang", lang);
  translate();
  fillChoices();
  if (current) render(current);
};
$("new-table").onsubmit = createAndPlay;
$("variant").onchange = showOptions;
$("again").onclick = () => { $("count").textContent = ""; socket.send(JSON.stringify({ type: "start" })); };
$("back").onclick = backToTables;
$("last-trick").onclick = showLastTrick;
$("friends").onclick = createForFriends;
$("add-robots").onclick = () => api(`/api/tables/${session.tableId}/robots`, {}).catch((e) => { $("message").textContent = e.message; });
$("start").onclick = () => api(`/api/tables/${session.tableId}/start`, {}).catch((e) => { $("message").textContent = e.message; });
// seed 001's table options (its game is Tute online): rounds, allow tute, trump on
// trump while the stock lasts; the time per move for every game
function chosenVariant() {
  return meta ? meta.variants.find((v) => v.text === $("variant").value) : null;
}
function showOptions() {
  const v = chosenVariant();
  $("online-options").hidden = !(v && v.preset === "online");
}
function tableOptions() {
  const v = chosenVariant();
  const common = { robot_level: $("robot-level").value, move_seconds: Number($("move-seconds").value) };
  if (v && v.preset === "online") {
    return { ...common, preset: "online", players: v.players, rounds: Number($("rounds").value),
             allow_tute: $("allow-tute").checked, trump_on_trump: $("trump-on-trump").checked };
  }
  return { ...common, variant: $("variant").value };
}

// the games and robot levels the server offers, named in the page's language
let meta = null;
function fillChoices() {
  if (!meta) return;
  const variant = $("variant"), level = $("robot-level");
  const chosen = [variant.value, level.value];
  variant.replaceChildren(...meta.variants.map((v) => {
    const o = document.createElement("option");
    o.value = v.text;
    o.textContent = `${t(`preset_${v.preset}`)} (${t("players", { n: v.players })})`;
    return o;
  }));
  level.replaceChildren(...meta.levels.slice().reverse().map((name) => {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = t(`level_${name}`);
    return o;
  }));
  variant.value = chosen[0] || meta.variants[0].text;
  level.value = chosen[1] || meta.best;
  showOptions();
}

async function resume() {
  await loadText(lang);
  meta = await api("/api/meta");
  translate();
  fillChoices();
  try {   // where this browser sits (its cookie), unless that table is over
    const { tables } = await api("/api/session");
    const live = tables.find((x) => x.status === "open" || x.status === "playing");
    if (live) { session = { tableId: live.id, seat: live.seat }; connect(); return; }
  } catch (e) { $("message").textContent = e.message; }
  refreshTables();
}
resume();
