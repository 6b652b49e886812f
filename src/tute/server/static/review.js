// The replay page's analysis: one seat's decisions in the hand on the board, judged by
// the server from what that seat knew (POST /api/games/{id}/analysis, then its progress
// until done).  The move list with each decision's grade, the winning chance through
// the hand, and the decision at the board's step with its reasons.  The page holds no
// rule and judges nothing: every value and every reason comes from the server.
import { answer } from "/static/api.js";
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const MARKS = { best: "✓", good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };
let gameId = "";
let go = () => {};
let replay = null;     // the hand on the board: {hand, names, seats, steps}
let result = null;     // the finished analysis of (hand, seat)
let step = 0;
let asking = 0;        // a new hand or seat makes older answers stale
let faceUp = null;     // "¿Podía ganar?": the hand face up, by decision index, once asked
let fromFile = null;   // a match opened from a file: () => ({text, game}), else null

// the match on the board changed (another file, another match of it): its name
export function reviewGame(id) {
  gameId = id;
}

// ``file``: for a match opened from a file, what its analysis is started with (the
// file's text and match, sent again: the server keeps none) -- its id comes with it
export function setupReview(id, goTo, file = null) {
  gameId = id;
  go = goTo;
  fromFile = file;
  $("review-go").onclick = ask;
  $("review-seat").onchange = () => { forget(); check(); };
}

// a new hand on the board: its seats to choose from, and what is known of it
export function reviewHand(r) {
  const before = $("review-seat").value;
  replay = r;
  const box = $("review-seat");
  box.replaceChildren();
  r.names.forEach((name, s) => {
    const o = document.createElement("option");
    o.value = String(r.seats[s]);
    o.textContent = name || t("review_seat_n", { n: s + 1 });
    box.append(o);
  });
  const people = r.seats.filter((_, s) => !/ \(robot\)$/.test(r.names[s] || ""));
  const keep = r.seats.map(String).includes(before) ? before : String(people[0] ?? r.seats[0]);
  box.value = keep;
  forget();
  check();
}

// another hand or seat: nothing of the last one stays on the page
function forget() {
  result = null;
  faceUp = null;
  $("review-result").hidden = true;
  $("review-progress").hidden = true;
}

// the board moved: the decision at this step
export function reviewStep(at) {
  step = at;
  if (result) { drawDetail(); markCurrent(); }
}


const url = () => `/api/games/${encodeURIComponent(gameId)}/analysis`;
const seat = () => Number($("review-seat").value);

// the server's answer, or a failure said as one (no network, a reply that is not JSON)
async function check() {
  const mine = ++asking;
  const got = await answer(`${url()}?hand=${replay.hand}&seat=${seat()}`);
  if (mine === asking) show(got.body, got.ok, mine);
}

async function ask() {
  const mine = ++asking;
  $("review-go").disabled = true;
  const got = await answer(url(),
    { hand: replay.hand, seat: seat(), ...(fromFile ? fromFile() : {}) });
  if (mine === asking) show(got.body, got.ok, mine);
}

function show(body, ok, mine) {
  const said = $("review-progress-said");
  $("review-progress").hidden = true;
  $("review-go").disabled = false;
  $("review-go").hidden = false;
  if (!ok || body.status === "failed") {
    $("review-result").hidden = true;
    $("review-progress").hidden = false;
    $("review-bar").hidden = true;
    said.textContent = body.error || t("review_failed");
    return;
  }
  $("review-bar").hidden = false;
  if (body.status === "none") {
    $("review-result").hidden = true;
    return;
  }
  if (body.status === "running") {
    $("review-result").hidden = true;
    $("review-progress").hidden = false;
    $("review-go").disabled = true;
    $("review-bar").max = Math.max(1, body.total);
    $("review-bar").value = body.done;
    said.textContent = t("review_running", { done: body.done, total: body.total });
    setTimeout(() => { if (mine === asking) check(); }, 400);
    return;
  }
  result = body;
  $("review-go").hidden = true;
  draw();
}

function name() {
  const s = replay.seats.indexOf(seat());
  return (replay.names[s] || "").replace(/ \(robot\)$/, "");
}

const where = (d) => (d.trick === 0 ? t("review_auction") : t("review_trick", { n: d.trick }));
const mineOf = (d) => d.values.find((v) => v.action === d.played) || d.values[0];
const pct = (x) => `${Math.round(x * 100)} %`;
const signed = (x) => (x > 0 ? `+${Math.round(x)}` : `${Math.round(x)}`);

function gradeChip(d) {
  const chip = document.createElement("span");
  const grade = d.forced ? "forced" : d.grade;
  chip.className = `grade grade-${grade}`;
  chip.textContent = d.forced ? t("review_forced_short")
    : `${MARKS[d.grade] ? MARKS[d.grade] + " " : ""}${t(`grade_${d.grade}`)}`;
  return chip;
}

function draw() {
  $("review-result").hidden = false;
  $("review-go").hidden = true;
  $("review-summary").textContent = t("review_summary", {
    name: name(), accuracy: Math.round(result.accuracy), lost: Math.round(result.points_lost) });
  const list = $("review-moves");
  list.replaceChildren();
  for (const d of result.decisions) {
    const li = document.createElement("li");
    li.dataset.index = String(d.index);
    li.dataset.grade = d.forced ? "forced" : d.grade;
    const b = document.createElement("button");
    b.type = "button";
    const w = document.createElement("span");
    w.className = "where";
    w.textContent = where(d);
    const m = document.createElement("span");
    m.className = "move";
    m.textContent = d.played_words;
    b.append(w, m, gradeChip(d));
    b.onclick = () => go(d.index + 1);
    li.append(b);
    list.append(li);
  }
  drawChart();
  drawDetail();
  markCurrent();
}

// the winning chance of each move played (forced ones left out: nothing to choose)
function drawChart() {
  const svg = $("review-chart");
  svg.replaceChildren();
  const judged = result.decisions.filter((d) => !d.forced);
  const W = 300, H = 90, top = 6, bottom = 84;
  const x = (i) => (judged.length < 2 ? W / 2 : 8 + (i * (W - 16)) / (judged.length - 1));
  const y = (win) => bottom - win * (bottom - top);
  const add = (tag, attrs, parent = svg) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    parent.append(e);
    return e;
  };
  add("line", { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "half" });
  if (judged.length) {
    const pts = judged.map((d, i) => `${x(i)},${y(mineOf(d).win)}`);
    add("polygon", { points: `${x(0)},${bottom} ${pts.join(" ")} ${x(judged.length - 1)},${bottom}`, class: "area" });
    add("polyline", { points: pts.join(" "), class: "curve" });
  }
  add("line", { x1: 0, x2: 0, y1: top, y2: bottom, class: "now", id: "review-now" });
  judged.forEach((d, i) => {
    const dot = add("circle", { cx: x(i), cy: y(mineOf(d).win), r: ["best", "good", "unfinished"].includes(d.grade) ? 2.6 : 4,
      class: `dot dot-${d.grade}`, "data-index": d.index, tabindex: -1 });
    add("title", {}, dot).textContent = `${where(d)} · ${d.played_words} · ${pct(mineOf(d).win)}`;
    dot.addEventListener("click", () => go(d.index + 1));
  });
  svg.setAttribute("aria-label", t("review_chart"));
  svg.dataset.points = String(judged.length);
  svg._x = (index) => {
    const i = judged.findIndex((d) => d.index === index);
    return i < 0 ? null : x(i);
  };
}

// the decision the board shows: the latest of the seat's at or before this step
function current() {
  let found = null;
  for (const d of result.decisions) if (d.index + 1 <= step) found = d;
  return found;
}

function markCurrent() {
  const d = current();
  for (const li of $("review-moves").children) {
    const on = d !== null && li.dataset.index === String(d.index);
    li.classList.toggle("current", on);
    if (on) li.querySelector("button").setAttribute("aria-current", "step");
    else li.querySelector("button").removeAttribute("aria-current");
  }
  const now = $("review-now");
  const at = d && $("review-chart")._x ? $("review-chart")._x(d.index) : null;
  if (now) {
    now.style.display = at === null ? "none" : "";
    if (at !== null) { now.setAttribute("x1", at); now.setAttribute("x2", at); }
  }
  const item = $("review-moves").querySelector("li.current");
  if (item) item.scrollIntoView({ block: "nearest" });
}

function para(cls, text) {
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = text;
  return p;
}

function reasons(list, cls) {
  const ul = document.createElement("ul");
  ul.className = `reasons ${cls}`;
  for (const r of list) {
    const li = document.createElement("li");
    li.textContent = r;
    ul.append(li);
  }
  return ul;
}

function drawDetail() {
  const box = $("review-detail");
  box.replaceChildren();
  const d = current();
  if (!d) {
    box.append(para("hint", t("review_pick", { name: name() })));
    delete box.dataset.index;
    return;
  }
  box.dataset.index = String(d.index);
  box.dataset.grade = d.forced ? "forced" : d.grade;
  const head = document.createElement("h3");
  head.append(`${where(d)}: ${d.played_words} `, gradeChip(d));
  box.append(head);
  if (d.forced) {
    box.append(para("said", t("review_was_forced")), reasons(d.why, "why"), ...kept(againButton, d));
    return;
  }
  const mine = mineOf(d);
  const bar = document.createElement("div");
  bar.className = "win-bar";
  bar.setAttribute("role", "meter");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  bar.setAttribute("aria-valuenow", String(Math.round(mine.win * 100)));
  bar.setAttribute("aria-label", t("review_win_label"));
  const fill = document.createElement("span");
  fill.style.width = `${Math.round(mine.win * 100)}%`;
  bar.append(fill);
  box.append(bar, para("facts", t(d.exact ? "review_facts_exact" : "review_facts",
    { win: Math.round(mine.win * 100), margin: signed(mine.margin), samples: d.samples })));
  if (d.grade === "unfinished") {
    box.append(para("unsettled", t("review_unfinished", { samples: d.samples })));
  } else if (d.settled === false) {
    box.append(para("unsettled", t("review_unsettled", { samples: d.samples })));
  }
  if (d.grade === "unfinished") {
    // no verdict: the values found so far, below, and nothing said of them
  } else if (d.grade === "best" && d.settled === false) {
    // the deals did not tell the moves apart: not "the best", only none surely better
    box.append(para("said", t("review_none_surely_better")), reasons(d.why, "why"));
  } else if (d.grade === "best") {
    box.append(para("said", d.equal_words ? t("review_is_best_equal", { equal: d.equal_words })
      : t("review_is_best")), reasons(d.why, "why"));
  } else {
    box.append(para("said", t("review_lost", { lost: d.lost, best: d.best_words })));
    if (d.why_not.length) box.append(reasons(d.why_not, "why-not"));
    if (d.why.length) box.append(para("said", t("review_best_because", { best: d.best_words })), reasons(d.why, "why"));
  }
  const table = document.createElement("table");
  table.className = "alternatives";
  const cap = document.createElement("caption");
  cap.textContent = t("review_alternatives");
  const headRow = document.createElement("tr");
  for (const k of ["review_col_move", "review_col_win", "review_col_margin"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(k);
    headRow.append(th);
  }
  table.append(cap, headRow);
  const shown = d.values.slice(0, 5);
  if (!shown.includes(mine)) shown.push(mine);      // the move played is always there
  for (const v of shown) {
    const tr = document.createElement("tr");
    if (v.action === d.played) tr.className = "played";
    for (const text of [v.words, pct(v.win), signed(v.margin)]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    table.append(tr);
  }
  box.append(table, ...kept(openHand, d), ...kept(againButton, d));
}

// what only a kept match offers (its hand face up, playing on from a decision): not a file's
const kept = (part, d) => (fromFile ? [] : [part(d)]);

// "Jugar de nuevo desde aquí": the same cards, at a new table, from this decision
function againButton(d) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "review-again";
  b.className = "again";
  b.textContent = t("review_again");
  b.onclick = async () => {
    b.disabled = true;
    const body = { hand: replay.hand, seat: seat(), index: d.index };
    const name = (localStorage.getItem("tute.name") || "").trim();
    if (name) body.name = name;
    const got = await answer(`/api/games/${encodeURIComponent(gameId)}/again`, body);
    if (got.ok) { location.href = `/?table=${encodeURIComponent(got.body.id)}`; return; }
    b.disabled = false;
    const said = document.createElement("p");
    said.className = "open-wait";
    said.textContent = got.body.error || t("review_failed");
    b.after(said);
  };
  return b;
}

// "¿Podía ganar?": the same deal with every card face up, from this decision
function openHand(d) {
  const part = document.createElement("div");
  part.className = "open-hand";
  if (faceUp === "asking") {
    part.append(para("open-wait", t("review_open_wait")));
  } else if (faceUp && faceUp.error) {
    part.append(para("open-wait", faceUp.error));
  } else if (faceUp) {
    const line = faceUp.lines.find((o) => o.index === d.index);
    if (line) part.append(para("open-title", t("review_open_title")), para("open-line", line.text));
  } else {
    const b = document.createElement("button");
    b.type = "button";
    b.id = "review-open";
    b.textContent = t("review_open_ask");
    b.onclick = askFaceUp;
    part.append(b);
  }
  return part;
}

async function askFaceUp() {
  const mine = asking;
  faceUp = "asking";
  drawDetail();
  const got = await answer(`/api/games/${encodeURIComponent(gameId)}/openhand?hand=${replay.hand}&seat=${seat()}`);
  if (mine !== asking) return;
  faceUp = got.ok ? got.body : { error: got.body.error || t("review_failed") };
  drawDetail();
}
