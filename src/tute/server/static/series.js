// Duplicate series (issue 33): the lobby's list, a series' page (progress, the next
// deal to play, the standings, each deal played with the field's results on it and a
// link to its review, "¿Podía ganar?") and the person's own series in the profile.
// The server shows a result on a deal only to who has played it, until the series closes.
import { getLang, t } from "/static/i18n.js";
import { api } from "/static/api.js";

const $ = (id) => document.getElementById(id);
let wired = null;        // {play(tableId, seat), say(text), loggedIn(), info(), back()}
let shown = null;        // the series on its page now

const game = (variant) => t(`preset_${variant.split("(")[0]}`);
const signed = (n) => (n > 0 ? `+${n}` : String(n));
const percent = (x) => `${Math.round(x * 100)} %`;

// "cierra en 5 h 20 min", "abre en 12 min", "cerrada"
function when(s, now) {
  if (s.status === "closed") return t("series_closed");
  const left = Math.max(0, (s.status === "open" ? s.closes : s.opens) - now);
  const h = Math.floor(left / 3600);
  const m = Math.max(1, Math.ceil((left % 3600) / 60));
  const span = h > 0 ? t("series_hours", { h, m: Math.min(59, m) }) : t("series_minutes", { m });
  return t(s.status === "open" ? "series_closes_in" : "series_opens_in", { span });
}

export async function showSeriesList() {
  const list = $("series-list");
  let got = { series: [], now: 0 };
  try { got = await api("/api/series"); } catch { /* shown empty */ }
  list.replaceChildren();
  const live = got.series.filter((s) => s.status !== "closed").slice(0, 6);
  const closed = got.series.filter((s) => s.status === "closed").slice(0, 3);
  for (const s of [...live, ...closed]) {
    const li = document.createElement("li");
    li.className = `series ${s.status}`;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "series-open";
    b.dataset.series = s.id;
    const name = Object.assign(document.createElement("strong"), { textContent: game(s.variant) });
    const facts = document.createElement("span");
    facts.textContent = [t("series_deals_n", { n: s.deals }), when(s, got.now),
      s.played ? t("series_played_of", { n: s.played, total: s.deals }) : ""].filter(Boolean).join(" · ");
    b.append(name, facts);
    b.onclick = () => openSeries(s.id);
    li.append(b);
    list.append(li);
  }
  $("series-none").hidden = live.length + closed.length > 0;
}

// the field's results on a deal as dots on a line, the person's larger and golden
function strip(margins, mine) {
  const SVG = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 120 16");
  svg.setAttribute("class", "field-strip");
  svg.setAttribute("aria-hidden", "true");
  const all = mine === null || mine === undefined ? margins : [...margins, mine];
  const lo = Math.min(...all, 0);
  const hi = Math.max(...all, 0);
  const x = (m) => (hi === lo ? 60 : 6 + ((m - lo) / (hi - lo)) * 108);
  const line = document.createElementNS(SVG, "line");
  Object.entries({ x1: 6, x2: 114, y1: 8, y2: 8, class: "axis" }).forEach(([k, v]) => line.setAttribute(k, v));
  const zero = document.createElementNS(SVG, "line");
  Object.entries({ x1: x(0), x2: x(0), y1: 3, y2: 13, class: "zero" }).forEach(([k, v]) => zero.setAttribute(k, v));
  svg.append(line, zero);
  for (const m of margins) {
    const dot = document.createElementNS(SVG, "circle");
    Object.entries({ cx: x(m), cy: 8, r: 2.4, class: "other" }).forEach(([k, v]) => dot.setAttribute(k, v));
    svg.append(dot);
  }
  if (mine !== null && mine !== undefined) {
    const dot = document.createElementNS(SVG, "circle");
    Object.entries({ cx: x(mine), cy: 8, r: 4, class: "you" }).forEach(([k, v]) => dot.setAttribute(k, v));
    svg.append(dot);
  }
  return svg;
}

function cell(tr, text) { tr.append(Object.assign(document.createElement("td"), { textContent: text })); }

function drawStandings(view) {
  const body = $("series-rows");
  body.replaceChildren();
  for (const st of view.standings) {
    const tr = document.createElement("tr");
    if (st.you) tr.className = "mine";
    cell(tr, String(st.rank));
    cell(tr, st.player);
    cell(tr, percent(st.matchpoints));
    cell(tr, String(st.deals));
    cell(tr, signed(st.difference));
    body.append(tr);
  }
  $("series-no-standings").hidden = view.standings.length > 0;
}

// each deal the person played: their margin, their share of the field beaten, the
// field's results on it, and the review of their play ("¿Podía ganar?")
function drawDeals(view) {
  const list = $("series-deals");
  list.replaceChildren();
  const mine = view.mine.filter((p) => p.margin !== null).sort((a, b) => a.deal - b.deal);
  for (const p of mine) {
    const field = view.results.filter((r) => r.deal === p.deal);
    const own = field.find((r) => r.you);
    const others = field.filter((r) => !r.you).map((r) => r.margin);
    const li = document.createElement("li");
    li.dataset.deal = String(p.deal);
    const head = Object.assign(document.createElement("strong"), { textContent: t("series_deal_n", { n: p.deal }) });
    const facts = document.createElement("span");
    facts.className = "facts";
    // alone on the deal: nobody else has played it yet, not "superas al 50 % del campo"
    facts.textContent = [t("series_your_margin", { margin: signed(p.margin) }),
      !others.length ? t("series_field_alone")
        : own ? t("series_beaten", { share: percent(own.matchpoints) }) : "",
      t("series_field_n", { n: field.length })].filter(Boolean).join(" · ");
    const best = Math.max(p.margin, ...others);
    const spread = document.createElement("span");
    spread.className = "spread";
    spread.append(strip(others, p.margin),
      others.length ? t("series_field_best", { best: signed(best), low: signed(Math.min(p.margin, ...others)) }) : "");
    li.append(head, facts, spread, fieldList(field));
    if (p.game) {
      const a = document.createElement("a");
      a.href = `/games/${encodeURIComponent(p.game)}?lang=${getLang()}`;
      a.className = "could-win";
      a.textContent = t("series_could_win");
      li.append(a);
    }
    list.append(li);
  }
  $("series-no-deals").hidden = mine.length > 0;
}

// the field on a deal, best first: each result with its play's replay
function fieldList(field) {
  const box = document.createElement("details");
  box.className = "field";
  box.append(Object.assign(document.createElement("summary"), { textContent: t("series_field_see") }));
  const list = document.createElement("ol");
  for (const r of [...field].sort((a, b) => b.margin - a.margin)) {
    const li = document.createElement("li");
    if (r.you) li.className = "mine";
    li.append(`${r.player} ${signed(r.margin)} · ${percent(r.matchpoints)} `);
    if (r.game) {
      const a = document.createElement("a");
      a.href = `/games/${encodeURIComponent(r.game)}?lang=${getLang()}`;
      a.textContent = t("series_field_replay");
      li.append(a);
    }
    list.append(li);
  }
  box.append(list);
  return box;
}

export async function openSeries(id) {
  let view;
  try { view = await api(`/api/series/${encodeURIComponent(id)}`); } catch (e) { if (wired) wired.say(e.message); return; }
  shown = view;
  const box = $("series-box");
  $("series-name").textContent = t("series_name", { game: game(view.variant), n: view.deals });
  $("series-state").textContent = `${when(view, view.now)} · ${t("series_robots", { level: t(`level_${view.robots}`) })}`;
  const done = view.mine.filter((p) => p.margin !== null).length;
  $("series-progress").textContent = t("series_played_of", { n: done, total: view.deals });
  const logged = Boolean(wired && wired.loggedIn());
  $("series-play").hidden = !(logged && view.status === "open" && view.next !== null);
  $("series-play").textContent = view.next !== null && done > 0 ? t("series_next") : t("series_play");
  $("series-login").hidden = logged || view.status !== "open";
  $("series-all-done").hidden = !(logged && view.status === "open" && view.next === null);
  $("series-hidden").hidden = view.status === "closed";
  drawStandings(view);
  drawDeals(view);
  $("series-master").hidden = !view.master;
  $("series-master").textContent = view.master ? t("series_master", { master: view.master }) : "";
  $("series-export").hidden = !view.master;
  $("series-export").href = `/api/series/${encodeURIComponent(view.id)}/export`;
  box.hidden = false;
  box.scrollIntoView({ block: "start" });
}

// the person's next deal of a series: a table made and started for them
export async function playSeries(id) {
  try {
    const got = await api(`/api/series/${encodeURIComponent(id)}/play`, {});
    $("series-box").hidden = true;
    wired.play(got.id, got.seat);
  } catch (e) { wired.say(e.message); if (!$("lobby").hidden) openSeries(id); }
}

// the profile's list: each series played, the person's place in what they may see
export async function showMySeries() {
  const list = $("profile-series");
  list.replaceChildren();
  let series = [];
  try { ({ series } = await api("/api/me/series")); } catch { /* shown empty */ }
  $("profile-no-series").hidden = series.length > 0;
  for (const s of series) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = [game(s.variant), t("series_played_of", { n: s.played, total: s.deals }),
      s.rank ? t("series_place", { rank: s.rank, of: s.of }) : "",
      s.matchpoints !== null ? percent(s.matchpoints) : "", s.status === "closed" ? t("series_closed") : ""]
      .filter(Boolean).join(" · ");
    b.disabled = !$("table").hidden;             // at a table: the lobby's page waits
    b.onclick = () => { $("profile").hidden = true; openSeries(s.id); };
    li.append(b);
    list.append(li);
  }
}

// at a series' table, its deal over: the next deal, or the series' page
export function seriesAfter(info, watching) {
  const here = info && info.series;
  $("series-next").hidden = watching || !here;
  $("series-see").hidden = watching || !here;
  if (here && !watching) {              // "the next deal" only while one is left to play
    api(`/api/series/${encodeURIComponent(here.id)}`).then((view) => {
      if (view.next === null || view.status !== "open") $("series-next").hidden = true;
    }).catch(() => { /* kept: the series' page says what is left */ });
  }
  return Boolean(here);
}

export function wireSeries(hooks) {
  wired = hooks;
  $("series-play").onclick = () => { if (shown) playSeries(shown.id); };
  $("series-close").onclick = () => { $("series-box").hidden = true; shown = null; };
  // at a series' table, its deal over: the next deal, or the series' page
  const leave = (then) => () => {
    const here = hooks.info().series;
    hooks.back();
    if (here) then(here.id);
  };
  $("series-next").onclick = leave(playSeries);
  $("series-see").onclick = leave(openSeries);
}
