// The page: the lobby, a seat's socket, and the table drawn from each view the server
// sends.  Messages are shown in order; a closed trick and a hand's count stay on the
// cloth a moment (or until a click) before the next ones are drawn.
import { getLang, LANGS, loadText, setLang, t, translate } from "/static/i18n.js";
import { ChatBox } from "/static/chat.js";
import { makeLink, showFriends, showInvites, showNotice, wireFriends } from "/static/friends.js";
import { api } from "/static/api.js";
import {
  fillChoices, invitation, lobbySend, setMeta, showOptions, stopWatching, tableOptions, watchTables,
} from "/static/lobby.js";
import { wireOptions } from "/static/options.js";
import { current as currentAccount, fillRankGames, refreshMe, showRankings, wireAccount } from "/static/account.js";
import { pause, save, settings, SPEEDS } from "/static/settings.js";
import { play } from "/static/sound.js";
import { drawHand as layHand } from "/static/hand.js";
import { isPlay, moveLabel } from "/static/moves.js";
import { renderGains, renderStake } from "/static/money.js";
import { heard, renderAuction } from "/static/auction.js";
import { announce, placeAnnouncement } from "/static/announce.js";
import { earnedLines } from "/static/achievements.js";
import { face } from "/static/avatars.js";
import { wireLook } from "/static/look.js";
import { nextSeen, seedFor, showDeal } from "/static/fairdeal.js";
import { showLog, wireLog } from "/static/handlog.js";
import { showRematch, wireRematch } from "/static/rematch.js";
import { seriesAfter, showSeriesList, wireSeries } from "/static/series.js";
import { showTourneyList, tourneyAfter, wireTourneys } from "/static/tourneys.js";
import {
  renderCount, shortName, renderScore, renderSeats, renderStock, renderTrick, showClock, sweepTrick,
} from "/static/table.js";

const $ = (id) => document.getElementById(id);
let session = null;   // {tableId, seat}: the seat's key is an HttpOnly cookie, never here
let socket = null;
let lastSeq = 0;
let current = null;   // the seat's view now
let tableInfo = null; // the table's summary (seats, robots' level, host)
let dealInfo = null; // the verifiable shuffle: the next commitment, this hand's proof (fairdeal.js)
let clock = null;
let offline = false;
let myAuthor = "";    // this person's id in the table's chat (the server says it)

const spectator = () => Boolean(session && (session.seat === null || session.seat === undefined));
const chatMe = () => ({ author: myAuthor, loggedIn: Boolean(currentAccount()) });
const tableChat = new ChatBox($("chat"), (m) => send(m), chatMe, (m) => {   // by seat:
  const seat = m.seat >= 0 && tableInfo ? (tableInfo.seats || []).find((x) => x.seat === m.seat) : null;
  return seat ? face(seat.avatar, seat.name, seat.robot) : face(null, m.name);  // a name is no proof
});
tableChat.canMute = true;
const lobbyChat = new ChatBox($("lobby-chat"), (m) => { if (!lobbySend(m)) say(t("offline")); },
  () => ({ author: currentAccount() ? currentAccount().author : "", loggedIn: Boolean(currentAccount()) }));
let chatSeen = 0;     // the last chat event shown (a reconnection sends them again)
let started = false;  // the page has loaded its words and choices
// the header's height, for the board that fills the screen under it (style.css)
new ResizeObserver(([e]) => document.documentElement.style.setProperty(
  "--head", `${Math.ceil(e.target.getBoundingClientRect().height)}px`)).observe(document.querySelector("header"));

function openLobby() {
  lobbyChat.clear();
  showLobbyChat();
  showSeriesList();
  showTourneyList();
  watchTables(join, () => Boolean(currentAccount()), (id) => enter(id, null, true), (msg) => {
    if (msg.type === "chat_history") { lobbyChat.clear(); msg.messages.forEach((m) => lobbyChat.add(m)); }
    else if (msg.type === "chat") lobbyChat.add(msg.message);
    else if (msg.type === "notice") notice(msg);
    else if (msg.type === "error") say(msg.message);
  });
}
// a notice from the server (a friend's request, an invitation): a banner to act on
function notice(msg) {
  showNotice(msg, { go: goInvited, friends: () => { showFriends(); $("friends-panel").scrollIntoView(); } });
}
async function goInvited(tableId) {       // the first free seat of the table I am invited to
  try {
    const { tables } = await api("/api/tables");
    const tb = tables.find((x) => x.id === tableId);
    if (!tb || tb.status !== "open") { say(t("invite_gone")); return; }
    const free = [...Array(tb.players).keys()].find((s) => !tb.seats.some((x) => x.seat === s));
    if (free === undefined) { say(t("invite_full")); return; }
    if (!session) join(tableId, free);
  } catch (e) { say(e.message); }
}

function showLobbyChat() {
  const logged = Boolean(currentAccount());
  if (logged) showFriends(); else $("friends-panel").hidden = true;
  $("lobby-chat").querySelector(".chat-form").hidden = !logged;
  $("lobby-chat").querySelector(".chat-login").hidden = logged;
}

// who watches the table: "Mirando: Vera, Tomás y 2 invitados"
function showAudience(a) {
  const box = $("audience");
  if (!a || !a.count) { box.hidden = true; return; }
  const guests = a.count - a.spectators.length;
  const names = [...a.spectators];
  if (guests > 0) names.push(t("guests_n", { n: guests }));
  box.textContent = t("watching_now", { names: names.join(", ") });
  box.hidden = false;
}

// a notice or a refusal, over the page for a few seconds (never over your hand for good)
let sayTimer = null;
function say(text, good = false) {          // good: news, not a refusal
  $("message").textContent = text;
  placeMessage();
  $("message").classList.toggle("good", good);
  clearTimeout(sayTimer);
  if (text) sayTimer = setTimeout(() => { $("message").textContent = ""; }, 7000);
}
// at the table: over the cloth's top, not the score or a button -- placed again as the
// table is drawn (a message said before the first drawing, "Mano 1 otra vez...", was
// left where the cloth was not yet, over the score)
function placeMessage() {
  if (!$("message").textContent) return;
  const cloth = $("cloth").getBoundingClientRect();
  $("message").style.top = !$("table").hidden && cloth.height
    ? `${Math.max(4, cloth.top + 8)}px` : "";
}
$("message").onclick = () => { clearTimeout(sayTimer); $("message").textContent = ""; };  // a tap: gone

// ---------------------------------------------------------------- lobby actions
function playerName() {
  const name = $("name").value.trim();
  if (!name) { $("name").focus(); say(t("name_needed")); return null; }
  localStorage.setItem("tute.name", name);
  return name;
}

async function join(tableId, seat) {
  const name = playerName();
  if (!name) return;
  const invite = invitation();                    // a link followed to this table
  const body = { seat, name };
  if (invite && invite.table === tableId) body.invite = invite.token;
  try { await api(`/api/tables/${tableId}/seats`, body); } catch (e) { say(e.message); return; }
  if (invite && invite.table === tableId) sessionStorage.removeItem("tute.invite");
  enter(tableId, seat);
}

async function createForFriends() {
  const name = playerName();
  if (!name) return;
  try {
    const { id, seat } = await api("/api/tables", { ...tableOptions(), name, seat: 0 });
    enter(id, seat);
  } catch (e) { say(e.message); }
}

async function createAndPlay(ev) {
  ev.preventDefault();
  const name = playerName();
  if (!name) return;
  try {
    const { id, seat } = await api("/api/tables", { ...tableOptions(), name, seat: 0 });
    await api(`/api/tables/${id}/robots`, {});
    const seen = nextSeen();                 // the first deal's commitment, before the start
    enter(id, seat);
    await seen;
    await api(`/api/tables/${id}/start`, {});
  } catch (e) { say(e.message); }
}

function enter(tableId, seat, watch = false) {
  session = { tableId, seat, watch };
  // the address is the table's where the person sits (a reload comes back to it)
  history.replaceState(null, "", watch ? "/" : `/?table=${encodeURIComponent(tableId)}`);
  lastSeq = 0;
  chatSeen = 0;
  current = null;
  tableChat.clear();
  showAudience(null);
  stopWatching();
  say("");
  connect();
  scrollTo(0, 0);      // the lobby was scrolled to its button: the table starts at the top
}

// ---------------------------------------------------------------- the socket
function connect() {
  document.body.classList.add("at-table");
  $("lobby").hidden = true;
  $("table").hidden = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const watch = session.watch ? "&watch=1" : "";
  socket = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(session.tableId)}?last=${lastSeq}&lang=${getLang()}${watch}`);
  socket.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (!talk(msg)) { inbox.push(msg); pump(); }
  };
  socket.onclose = () => {
    if (!session) return;
    setOffline(true);
    setTimeout(() => { if (session) connect(); }, 1500);   // with the last event seen
  };
}

function setOffline(value) {
  offline = value;
  $("offline").hidden = !value;
  document.body.classList.toggle("is-offline", value);
  if (current && !holding) drawHand(current);
}

function send(message) {
  if (offline || !socket || socket.readyState !== WebSocket.OPEN) { say(t("offline")); return false; }
  socket.send(JSON.stringify(message));
  return true;
}

// chat and who watches: shown at once, whatever the cloth is holding
function talk(msg) {
  if (msg.type === "audience") { showAudience(msg); return true; }
  if (msg.type === "notice") { notice(msg); return true; }
  if (msg.type === "hint") { showHint(msg); return true; }
  if (msg.type === "log") {
    showLog(msg, current);
    showDeal(dealInfo, session ? session.seat : null);
    return true;
  }
  const ev = msg.type === "event" ? msg.event : null;
  if (!ev || (ev.kind !== "chat" && ev.kind !== "hidden")) return false;
  lastSeq = Math.max(lastSeq, ev.seq);                  // a hidden one: its number only
  if (ev.kind === "chat" && ev.seq > chatSeen) { chatSeen = ev.seq; tableChat.add(ev); }
  return true;
}

// ---------------------------------------------------------------- the queue
const inbox = [];
let holding = false;
let release = null;
function pump() {
  while (!holding && inbox.length) handle(inbox.shift());
}
// keep the cloth as it is for ms (or until a click on it), then ``after``
function hold(ms, after) {
  holding = true;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    release = null;
    clearTimeout(timer);
    after();
    holding = false;
    pump();
  };
  const timer = setTimeout(finish, ms);
  release = finish;
}

function handle(msg) {
  if (msg.type === "pong") return;
  if (msg.type === "local") { drawLater(); return; }
  if (msg.type === "error") {
    say(msg.message);
    if (!current && !tableInfo) { session = null; if (socket) socket.onclose = null; backToTables(); say(msg.message); }
    return;
  }
  const ev = msg.event || {};
  if (ev.seq) lastSeq = Math.max(lastSeq, ev.seq);
  heard(ev);                                   // the auction's words, as they come
  if (ev.kind === "state") {
    setOffline(false);
    if (session && "you" in msg) session.seat = msg.you;     // null: watching
    if (msg.author !== undefined) myAuthor = msg.author;
    showAudience(msg.audience);
    $("watch-note").hidden = !spectator();
    $("hand").hidden = spectator();                           // no hand to hold
    $("declare").hidden = spectator();
    $("chat").querySelector(".chat-form").hidden = spectator() && !currentAccount();
  }
  if (msg.table) {
    tableInfo = msg.table;
    if (msg.deal) dealInfo = msg.deal;
    if (session && !offline) seedFor(dealInfo, session.seat, send);
    showAnnul(tableInfo.annul);
    const hostHere = session && tableInfo.host === session.seat;
    $("editing-note").hidden = !tableInfo.editing || hostHere;
    if (session) $("auto-box").hidden = !(tableInfo.automatic || []).includes(session.seat);
    $("waiting").hidden = tableInfo.status !== "open";
    if (tableInfo.status === "open") renderWaiting(tableInfo);
  }
  if ("clock" in msg || msg.view) clock = msg.clock || null;
  const before = current;
  if (ev.kind === "action" && msg.view) {
    announce(ev, msg.view, before);
    if (isPlay(ev.move)) play("card");
  }
  if (ev.kind === "annul_refused") say(t("annul_refused", { name: shortName(current ? current.names[ev.seat] : "") }));
  if (ev.kind === "annul_expired") say(t("annul_expired"));
  if (ev.kind === "rematch_refused") say(t("rematch_refused", { name: shortName(current ? current.names[ev.seat] : "") }));
  if (ev.kind === "staged") say(t(ev.trick ? "again_started" : "again_started_auction", { hand: ev.hand, trick: ev.trick }), true);
  if (ev.kind === "practice") {
    say(t(ev.why === "address_unknown" ? "practice_address_unknown" : "practice_same_address"), true);
  }
  if (ev.kind === "abandon" && current && ev.seat !== current.seat) {
    say(t("abandoned", { name: shortName(current.names[ev.seat]) }));
  }
  if (ev.kind === "automatic" && session && ev.seat === session.seat) $("auto-box").hidden = !ev.on;
  if (ev.kind === "annulled") {
    showAnnul(null);
    const box = $("count");
    box.replaceChildren();
    const p = document.createElement("p");
    p.className = "count-note match-over";
    p.textContent = t("annulled");
    box.append(p);
    $("count-box").hidden = false;
    $("count-ok").hidden = true;
  }
  if ((ev.kind === "next_hand" || ev.kind === "match_over") && ev.result && before && msg.view
      && ev.result.tute !== null && ev.result.tute !== undefined && !msg.shown) {
    hold(pause(3200), () => {});            // the tute's four cards first, then the count
    inbox.unshift({ ...msg, shown: true });
    return;
  }
  if ((ev.kind === "next_hand" || ev.kind === "match_over") && ev.result && before) {
    // the finished hand as it ended (nobody to act), with the match's tally after it --
    // where a player was knocked out (Cabrero) the seats change: the tally waits
    const same = msg.view && JSON.stringify(msg.view.names) === JSON.stringify(before.names);
    const after = { ...before, to_act: null, phase: "over", match: same ? msg.view.match : before.match };
    renderCount(before, ev.result, after);
    if (ev.kind === "match_over") renderGains(session ? session.seat : null, tableInfo, null);  // practice: said
    renderScore(after);                          // the tally counts this hand at once
    $("count-box").hidden = false;
    $("count-ok").hidden = ev.kind === "match_over";
  }
  if (ev.kind === "settled") {     // the pot paid: what each took, then my new balance
    renderGains(session ? session.seat : null, tableInfo, null);
    refreshMe().then(() => { if (tableInfo) renderGains(session ? session.seat : null, tableInfo, currentAccount()); });
  }
  if (ev.kind === "earned") {      // achievements: told to the table, kept in the count
    const name = shortName(ev.name);
    const lines = earnedLines(ev, session ? session.seat : null, name);
    $("count").append(...lines);                   // the count in sight: said there only
    if ($("count-box").hidden) say(lines.map((p) => p.textContent).join(" "), true);
    play("cante");
  }
  if (ev.kind === "start") refreshMe();            // the bet left the balance
  if (!msg.view) { if (current) drawAfter(current); return; }
  current = msg.view;
  if (ev.kind === "start") { $("count-box").hidden = true; $("count").replaceChildren(); }
  const closed = ev.kind === "action" && before && before.trick.length && !current.trick.length
    && current.last_trick.length;
  if (closed) {                              // the whole trick, then it goes to the winner
    draw(current, true);
    play("trick");
    const mine = current.to_act === current.seat;   // the trick's winner leads: my turn
    hold(pause(1300), () => {
      sweepTrick();
      if (mine) yourTurn();
    });
    inbox.unshift({ type: "local", redraw: true });
    return;
  }
  if (ev.kind === "next_hand" && before) {   // the count stays until "seguir" or a while,
    hold(pause(8000), () => {                 // over the finished hand; then the new deal
      $("count-box").hidden = true;
      $("count").replaceChildren();
    });
    inbox.unshift({ type: "local", redraw: true });
    return;
  }
  if (current.result && current.match && current.match.over && !$("count").childElementCount) {
    renderCount(current, current.result);       // back at a finished table
    renderGains(session ? session.seat : null, tableInfo, currentAccount());
    $("count-box").hidden = false;
    $("count-ok").hidden = true;
  }
  draw(current);
  if (current.to_act === current.seat && (!before || before.to_act !== current.seat)) yourTurn();
}

// the person's turn has come (after the others' plays, or a trick they won and lead)
function yourTurn() {
  play("turn");
  boardInView();
}

// the person's turn: the board back in view where the chat below it (a desktop's) left
// the score scrolled off the top -- unless a line is being written there
function boardInView() {
  const typing = document.activeElement === $("chat-text") && $("chat-text").value.trim();
  if (typing || $("topbar").getBoundingClientRect().top >= 0) return;
  $("board").scrollIntoView({ block: "start", behavior: "smooth" });
}

// a local message queued behind a hold: draw the table as it is now (after an animation)
function drawLater() {
  holding = true;
  setTimeout(() => { holding = false; if (current) draw(current); pump(); }, pause(380));
}

function draw(v, closedTrick = false) {
  renderSeats(v, tableInfo, clock);
  renderStock(v);
  renderAuction(v);
  if (closedTrick) renderTrick(v, v.last_trick, v.last_trick_winner, true);
  else renderTrick(v, v.trick, null, false);
  renderScore(v);
  renderStake(tableInfo);
  drawHand(v, closedTrick);
  drawAfter(v);
  placeAnnouncement();                       // beside its seat, as the seats are now
  placeMessage();
}

// a proposal to annul the match: who proposed, who agreed, my buttons if I have not
function showAnnul(vote) {
  const box = $("annul-box");
  box.hidden = !vote;
  if (!vote || !current) return;
  const mine = vote.agreed.includes(current.seat);
  const name = shortName(current.names[vote.proposer]);
  // "Bea propone anular la partida. ¿Estás de acuerdo?" -- or, once I agreed, we wait
  $("annul-text").textContent = vote.proposer === current.seat ? t("annul_proposed_you")
    : mine ? t("annul_proposed_agreed", { name }) : t("annul_proposed", { name });
  $("annul-yes").hidden = mine;
  $("annul-no").hidden = mine;
}

// the practice tables' hint: the move lit in your hand, and why
function showHint(msg) {
  for (const b of document.querySelectorAll(".hinted")) b.classList.remove("hinted");
  const card = document.querySelector(`#hand button[data-card="${CSS.escape(msg.action)}"]`);
  const other = document.querySelector(`#declare button[data-action="${CSS.escape(msg.action)}"]`);
  if (card) card.classList.add("hinted");
  if (other) other.classList.add("hinted");
  const said = moveLabel(msg.move);
  const why = msg.reason ? msg.reason[0].toUpperCase() + msg.reason.slice(1) : "";
  say(t("hint_says", { action: said, reason: why }), true);
}

function drawAfter(v) {
  const watching = spectator();
  $("hint").hidden = watching || !v.match || v.match.over || Boolean(tableInfo && (tableInfo.competitive || tableInfo.tourney));
  $("hint").disabled = !v.legal.length;
  // a series' deal and a tournament's game are played out: never annulled
  $("annul").hidden = watching || !v.match || v.match.over || Boolean(tableInfo && (tableInfo.series || tableInfo.tourney));
  $("auto-on").hidden = watching || !v.match || v.match.over || !$("auto-box").hidden;
  $("last-trick").hidden = false;
  $("last-trick").disabled = !v.last_trick.length;
  const over = Boolean(v.match && v.match.over);
  // a series' deal or a tournament's game: one match, then the next deal or the tournament
  const once = [tourneyAfter(tableInfo, watching), seriesAfter(tableInfo, watching)].some(Boolean);
  $("after").hidden = !over;
  $("again").hidden = watching || once || !(tableInfo && tableInfo.host === v.seat);
  $("options-again").hidden = $("again").hidden;
  $("wait-again").hidden = watching || once || !(over && tableInfo && tableInfo.host !== v.seat);
  showRematch(tableInfo ? tableInfo.rematch : null, over && !once, watching || !session ? null : session.seat,
    tableInfo ? tableInfo.seats || [] : []);
}

function drawHand(v, waiting = false) { layHand(v, waiting || offline, act); }
addEventListener("resize", () => { if (current && !holding) drawHand(current); });   // rows anew

function act(action) {
  say("");
  send({ type: "act", action });
}

// ---------------------------------------------------------------- waiting for players
function renderWaiting(table) {
  const list = $("seats");
  list.replaceChildren();
  for (let s = 0; s < table.players; s++) {
    const seat = table.seats.find((x) => x.seat === s);
    const li = document.createElement("li");
    li.dataset.seat = String(s);
    li.textContent = seat ? seat.name : `(${t("free")})`;
    if (seat && s === table.host) li.append(" ★");          // the host (seed 001's star)
    if (seat && session && seat.seat === session.seat) li.className = "mine";
    list.append(li);
  }
  for (const id of ["annul", "auto-on", "last-trick"]) $(id).hidden = true;   // no match yet
  const host = session && table.host === session.seat;
  const inviting = Boolean(host) && $("invite-box").hidden;
  $("invite-box").hidden = !host;
  if (inviting) showInvites(session.tableId);            // once, when the panel opens
  $("add-robots").hidden = !host;
  $("options-open").hidden = !host;
  $("start").hidden = !host;
  $("wait-host").hidden = Boolean(host);
}

// ---------------------------------------------------------------- leaving, the last trick
function backToTables() {
  session = null;
  history.replaceState(null, "", "/");
  current = null;
  tableInfo = null;
  inbox.length = 0;
  if (release) release();
  if (socket) { socket.onclose = null; socket.close(); }
  showClock(null);
  $("table").hidden = true;
  document.body.classList.remove("at-table");
  $("invite-box").hidden = true;
  refreshMe();
  showRankings();
  $("after").hidden = true;
  $("count-box").hidden = true;
  $("count").replaceChildren();
  $("waiting").hidden = true;
  $("lobby").hidden = false;
  openLobby();
}

function showLastTrick() {
  if (!current || !current.last_trick.length || holding) return;
  renderTrick(current, current.last_trick, current.last_trick_winner, true);
  hold(pause(2500), () => { if (current) renderTrick(current, current.trick, null, false); });
}

// ---------------------------------------------------------------- keys and settings
document.addEventListener("keydown", (e) => {
  if (!current || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  const n = Number(e.key);
  if (n >= 1 && n <= 9) {                         // the n-th card you may play
    const cards = [...document.querySelectorAll("#hand button[data-legal]")];
    if (cards[n - 1]) cards[n - 1].click();
  } else if (e.key === "u" || e.key === "U") showLastTrick();
  else if (e.key === " " && release && e.target === document.body) { e.preventDefault(); release(); }
  else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    const cards = [...document.querySelectorAll("#hand button")];
    const at = cards.indexOf(document.activeElement);
    const next = cards[(at + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length];
    if (next) { next.focus(); e.preventDefault(); }
  }
});

async function changeLanguage(next) {
  const code = LANGS.includes(next) ? next : "es";
  await loadText(code);                 // the words first, then the language switches
  setLang(code);
  save({ lang: code });
  $("lang").value = code;
  translate();
  fillChoices();
  fillRankGames();
  showRankings();
  if (current) draw(current);
  if (tableInfo && tableInfo.status === "open") renderWaiting(tableInfo);
  if ($("table").hidden) openLobby();
}

// a speaker, with waves or crossed out (drawn here: no emoji font is needed)
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const WAVES = '<path d="M15 8.5a4.5 4.5 0 0 1 0 7M17.5 6a8 8 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2"/>';
const CROSS = '<path d="M15 9l6 6M21 9l-6 6" stroke="currentColor" stroke-width="2"/>';
function showSound() {
  $("sound").setAttribute("aria-pressed", settings.sound ? "true" : "false");
  $("sound").innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">${SPEAKER}${
    settings.sound ? WAVES : CROSS}</svg>`;
}

document.addEventListener("account-changed", () => { if ($("table").hidden && started) openLobby(); });
$("lang").onchange = () => changeLanguage($("lang").value);
$("sound").onclick = () => { save({ sound: !settings.sound }); showSound(); };
function showSpeed() {                 // the animations follow the pauses
  document.documentElement.style.setProperty("--speed", String(SPEEDS[settings.speed]));
}
$("speed").onchange = () => { save({ speed: $("speed").value }); showSpeed(); };
$("new-table").onsubmit = createAndPlay;
$("variant").onchange = showOptions;
$("again").onclick = () => { $("count-box").hidden = true; $("count").replaceChildren(); send({ type: "start" }); };
$("back").onclick = backToTables;
const pages = { play: (id, seat) => enter(id, seat), watch: (id) => enter(id, null, true), say,
  loggedIn: () => Boolean(currentAccount()), back: backToTables, info: () => tableInfo || {} };
wireSeries(pages);
wireTourneys(pages);
$("leave").onclick = () => {      // leaving a running match asks first: the robot plays on
  const running = current && current.match && !current.match.over && !spectator();
  if (running) {                  // (at a competitive match, the match is lost)
    const stakes = tableInfo && tableInfo.competitive && tableInfo.pot > 0;
    if (!window.confirm(t(stakes ? "leave_confirm" : "leave_confirm_friendly"))) return;
    send({ type: "leave" });
  }
  backToTables();
};
$("last-trick").onclick = showLastTrick;
$("count-ok").onclick = () => { if (release) release(); };
$("cloth").onclick = () => { if (release && $("trick").dataset.closed) release(); };
$("friends").onclick = createForFriends;
wireOptions({ info: () => tableInfo, table: () => session.tableId, send, say });
$("annul").onclick = () => send({ type: "annul" });
$("hint").onclick = () => send({ type: "hint" });
wireLog(send);
wireRematch(send);
$("auto-on").onclick = () => send({ type: "automatic", on: true });
$("auto-off").onclick = () => send({ type: "automatic", on: false });
$("annul-yes").onclick = () => send({ type: "annul", agree: true });
$("annul-no").onclick = () => send({ type: "annul", agree: false });
$("invite-link-make").onclick = () => makeLink(session.tableId);
$("add-robots").onclick = () => api(`/api/tables/${session.tableId}/robots`, {}).catch((e) => say(e.message));
$("start").onclick = () => api(`/api/tables/${session.tableId}/start`, {}).catch((e) => say(e.message));

async function resume() {
  const link = new URLSearchParams(location.search).get("invite");
  if (link && /^[0-9a-f]{12}\.\d+\.[0-9a-f]{32}$/.test(link)) {   // an invitation link
    sessionStorage.setItem("tute.invite", JSON.stringify({ table: link.split(".")[0], token: link }));
    history.replaceState(null, "", "/");
  }
  wireFriends((id) => enter(id, null, true), say);
  await changeLanguage(settings.lang);
  $("speed").value = settings.speed;
  showSpeed();
  wireLook(() => { if (current) draw(current); });
  showSound();
  if (!$("name").value) $("name").value = localStorage.getItem("tute.name") || "";   // typed first: kept
  try {
    const meta = await api("/api/meta");
    setMeta(meta);
    $("invite-local").hidden = !meta.local_only;     // friends elsewhere cannot reach it
    fillChoices();
  } catch (e) { say(e.message); }
  wireAccount();
  await refreshMe();
  showRankings();
  try {   // where this browser sits (its cookie), unless that table is over
    const { tables } = await api("/api/session");
    // the table in the address (a hand played again, a reload at a table) first
    const wanted = new URLSearchParams(location.search).get("table");
    const open = tables.filter((x) => x.status === "open" || x.status === "playing");
    const live = open.find((x) => x.id === wanted) || open[0];
    if (live) { started = true; enter(live.id, live.seat); return; }
  } catch (e) { say(e.message); }
  if (new URLSearchParams(location.search).has("table")) history.replaceState(null, "", "/");
  started = true;
  openLobby();
}
resume();
