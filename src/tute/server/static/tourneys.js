// Tournaments (issue 33): the lobby's list and a tournament's live page -- entering and
// leaving, the standings with their tie-breaks, every round's games (each table to
// watch while it is played, to replay once over), the pot and the prizes -- and the
// person's own game: when the round pairs them, the page takes them to its table.
import { refreshMe } from "/static/account.js";
import { getLang, t } from "/static/i18n.js";
import { api } from "/static/api.js";

const $ = (id) => document.getElementById(id);
let wired = null;      // {play(tableId, seat), watch(tableId), say(text), loggedIn(), info(), back()}
let shown = null;      // the tournament on its page now
let timer = null;
const entered = new Set();   // the tables this page has taken the person to already

const game = (variant) => t(`preset_${variant.split("(")[0]}`);
const signed = (n) => (n > 0 ? `+${n}` : String(n));
// an entrant by its people: "Ana", or at parejas "Ana / Bea" (the robot partner named)
const named = (names) => (names || []).map((n) => (n === null ? t("tourney_robot") : n)).join(" / ");
const half = (x) => (Number.isInteger(x) ? String(x) : `${Math.floor(x)}½`.replace(/^0½$/, "½"));

function when(tr, now) {
  if (tr.status === "open") {
    const left = Math.max(0, tr.starts - now);
    const h = Math.floor(left / 3600);
    const m = Math.max(1, Math.ceil((left % 3600) / 60));
    return t("tourney_starts_in", { span: h > 0 ? t("series_hours", { h, m: Math.min(59, m) }) : t("series_minutes", { m }) });
  }
  if (tr.status === "running" && tr.kind === "arena") {
    const left = Math.max(0, tr.ends - now);
    return t("tourney_ends_in", { span: t("series_minutes", { m: Math.max(1, Math.ceil(left / 60)) }) });
  }
  if (tr.status === "running") return t("tourney_round_of", { round: tr.round, rounds: tr.rounds });
  return t(tr.status === "over" ? "tourney_over" : "tourney_cancelled");
}

export async function showTourneyList() {
  const list = $("tourney-list");
  let got = { tourneys: [], now: 0 };
  try { got = await api("/api/tourneys"); } catch { /* shown empty */ }
  list.replaceChildren();
  const shownNow = got.tourneys.filter((x) => x.status !== "cancelled").slice(0, 8);
  for (const tr of shownNow) {
    const li = document.createElement("li");
    li.className = `series ${tr.status === "over" ? "closed" : tr.status}`;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "series-open";
    b.dataset.tourney = tr.id;
    const name = Object.assign(document.createElement("strong"), { textContent: tr.name });
    const facts = document.createElement("span");
    facts.textContent = [game(tr.variant),
      tr.kind === "arena" ? t("tourney_arena", { n: tr.minutes }) : t("tourney_rounds_n", { n: tr.rounds }),
      tr.fee ? t("tourney_fee", { n: tr.fee }) : t("tourney_free"), when(tr, got.now)].join(" · ");
    b.append(name, facts);
    b.onclick = () => openTourney(tr.id);
    li.append(b);
    list.append(li);
  }
  $("tourney-none").hidden = shownNow.length > 0;
}

function cell(tr, text, cls) {
  const td = Object.assign(document.createElement("td"), { textContent: text });
  if (cls) td.className = cls;
  tr.append(td);
}

// the standings: a Swiss tournament's tie-breaks, or an arena's games, wins and streak
function drawStandings(view) {
  const arena = view.kind === "arena";
  const paid = view.standings.some((x) => x.prize > 0);     // the prizes' column once paid
  const head = $("tourney-head");
  // a short heading, its meaning in an abbr's title (and, for the tie-breaks, a legend)
  const long = (key) => (t(`${key}_long`) === `${key}_long` ? "" : t(`${key}_long`));
  head.replaceChildren(...["rank_col_place", "rank_col_name", "tourney_col_points",
    ...(arena ? ["tourney_col_games", "tourney_col_wins", "tourney_col_fire"]
      : ["tourney_col_buchholz", "tourney_col_sb", "series_col_difference"]),
    ...(paid ? ["tourney_col_prize"] : [])].map((key) => {
    const th = document.createElement("th");
    th.append(long(key) ? Object.assign(document.createElement("abbr"), { textContent: t(key), title: long(key) }) : t(key));
    return th;
  }));
  const legend = $("tourney-legend");
  legend.hidden = arena;
  legend.textContent = arena ? "" : ["tourney_col_buchholz", "tourney_col_sb"]
    .map((key) => `${t(key)}: ${long(key)}`).join(" · ");
  const body = $("tourney-rows");
  body.replaceChildren();
  for (const s of view.standings) {
    const tr = document.createElement("tr");
    if (s.you) tr.className = "mine";
    cell(tr, String(s.rank));
    cell(tr, s.withdrawn ? `${named(s.names)} ${t("tourney_withdrawn")}` : named(s.names));
    cell(tr, half(s.points));
    if (arena) {
      cell(tr, String(s.games));
      cell(tr, String(s.wins));
      cell(tr, s.on_fire ? "×2" : "", "fire");
    } else {
      cell(tr, half(s.buchholz));
      cell(tr, half(s.sonneborn));
      cell(tr, signed(s.difference));
    }
    if (paid) cell(tr, s.prize ? String(s.prize) : "", "prize");
    body.append(tr);
  }
  $("tourney-standings").hidden = view.status === "open" && !view.standings.some((x) => x.points);
}

// every round's games: "Ana 1 – 0 Bea", the robot for the bye, each table to watch
// while it is played and to replay once over
function drawRounds(view) {
  const box = $("tourney-rounds");
  box.replaceChildren();
  for (let r = view.round; r >= 1; r--) {
    const boards = view.boards.filter((b) => b.round === r);
    if (!boards.length) continue;
    const h = Object.assign(document.createElement("h4"), {
      textContent: t(view.kind === "arena" ? "tourney_batch_n" : "tourney_round_n", { n: r }) });
    const list = document.createElement("ul");
    list.className = "tourney-boards";
    for (const b of boards) {
      const li = document.createElement("li");
      if (b.you) li.className = "mine";
      const other = b.b === null ? t("tourney_bye_robot") : named(b.b);
      const score = b.score === null ? "–" : `${half(b.score)} – ${half(1 - b.score)}`;
      li.append(`${named(b.a)} `, Object.assign(document.createElement("strong"), { textContent: score }), ` ${other} `);
      const a = document.createElement("a");
      if (b.score === null) {
        a.href = "#";
        a.textContent = t("tourney_watch");
        a.onclick = (e) => { e.preventDefault(); if (wired) wired.watch(b.table); };
      } else {
        a.href = `/games/${encodeURIComponent(b.table)}-1?lang=${getLang()}`;
        a.textContent = t("tourney_replay");
      }
      li.append(a);
      list.append(li);
    }
    box.append(h, list);
  }
}

function draw(view) {
  shown = view;
  $("tourney-name").textContent = view.name;
  $("tourney-state").textContent = when(view, view.now);
  $("tourney-about").textContent = t(view.kind === "arena" ? "tourney_arena_about" : "tourney_about");
  $("tourney-facts").textContent = [game(view.variant),
    ...(view.pairs ? [t("tourney_pairs")] : []),
    view.kind === "arena" ? t("tourney_arena", { n: view.minutes }) : t("tourney_swiss", { n: view.rounds }),
    t("tourney_clock", { s: view.move_seconds }),
    view.fee ? t("tourney_fee", { n: view.fee }) : t("tourney_free"),
    t("tourney_pot", { n: view.pot }), t("tourney_entrants_n", { n: view.entrants.length })].join(" · ");
  const logged = Boolean(wired && wired.loggedIn());
  const entering = view.status === "open"       // an arena: until its end
    || (view.kind === "arena" && view.status === "running" && view.now < view.ends);
  $("tourney-join").hidden = !(logged && entering && !view.entered);
  $("tourney-partner-label").hidden = $("tourney-join").hidden || !view.pairs;
  $("tourney-leave").hidden = !(logged && view.entered && (view.status === "open" || view.status === "running"));
  $("tourney-login").hidden = logged || !entering;
  $("tourney-entrants").textContent = view.status === "open"
    ? view.entrants.map((e) => e.name).join(", ") : "";
  $("tourney-go").hidden = !view.table;
  // a finished tournament to keep: every game and the result (tute verify), or its games
  const file = `/api/tourneys/${encodeURIComponent(view.id)}/export`;
  $("tourney-export").hidden = view.status !== "over";
  $("tourney-export-json").href = file;
  $("tourney-export-tpn").href = `${file}?format=tpn`;
  drawStandings(view);
  drawRounds(view);
}

async function refresh(id, auto) {
  let view;
  try { view = await api(`/api/tourneys/${encodeURIComponent(id)}`); } catch (e) { if (wired) wired.say(e.message); return; }
  if ($("tourney-box").hidden || !shown || shown.id !== id) return;
  draw(view);
  // paired: to the table (once), unless already at one
  if (auto && view.table && !entered.has(view.table.id) && !$("lobby").hidden) {
    entered.add(view.table.id);
    goPlay();
  }
  if (view.status === "over" || view.status === "cancelled") {
    stopPolling();
    refreshMe();                     // the prizes paid, or the fees back: the header's chips
  }
}

function stopPolling() { if (timer) { clearInterval(timer); timer = null; } }

export async function openTourney(id) {
  let view;
  try { view = await api(`/api/tourneys/${encodeURIComponent(id)}`); } catch (e) { if (wired) wired.say(e.message); return; }
  $("tourney-box").hidden = false;
  draw(view);
  $("tourney-box").scrollIntoView({ block: "start" });
  stopPolling();
  if (view.status === "open" || view.status === "running") {
    timer = setInterval(() => refresh(id, true), 3000);
  } else if (wired && wired.loggedIn()) {
    refreshMe();                     // back from its last game: the prize in the header
  }
}

function goPlay() {
  if (!shown || !shown.table) return;
  stopPolling();
  $("tourney-box").hidden = true;
  wired.play(shown.table.id, shown.table.seat);
}

async function change(path, body = {}) {
  if (!shown) return;
  try {
    draw({ ...(await api(`/api/tourneys/${encodeURIComponent(shown.id)}/${path}`, body)), now: shown.now });
    refreshMe();                     // the entry fee paid, or given back: the header's chips
  } catch (e) { wired.say(e.message); }
}

// a tournament's table says so: "Torneo Copa · ronda 2" (its name asked once)
const names = new Map();    // tournament id -> {name, kind}, or null while asked
function tourneyAt(here) {
  const at = $("tourney-at");
  const known = here ? names.get(here.id) : null;
  at.hidden = !known;
  if (here && known === undefined) {
    names.set(here.id, null);
    api(`/api/tourneys/${encodeURIComponent(here.id)}`)
      .then((v) => { names.set(here.id, { name: v.name, kind: v.kind }); tourneyAt(here); })
      .catch(() => names.delete(here.id));
  }
  if (!known) return;
  at.textContent = t(known.kind === "arena" ? "tourney_at_arena" : "tourney_at",
    { name: known.name, round: here.round });
}

// at a tournament's table, its game over: back to the tournament's page
export function tourneyAfter(info, watching) {
  const here = info && info.tourney;
  $("tourney-see").hidden = watching || !here;
  tourneyAt(here);
  return Boolean(here);
}

export function wireTourneys(hooks) {
  wired = hooks;
  $("tourney-join").onclick = () => {
    const partner = $("tourney-partner").value.trim();
    change("join", shown && shown.pairs && partner ? { partner } : {});
  };
  $("tourney-leave").onclick = () => { if (window.confirm(t("tourney_leave_confirm"))) change("leave"); };
  $("tourney-go").onclick = goPlay;
  $("tourney-close").onclick = () => { $("tourney-box").hidden = true; shown = null; stopPolling(); };
  $("tourney-see").onclick = () => {
    const here = hooks.info().tourney;
    hooks.back();
    if (here) openTourney(here.id);
  };
}
