// The account: register, log in and out, the profile (chips, XP, level, achievements,
// the ledger) and the rankings.  The session is an HttpOnly cookie: the page never holds it.
import { renderAchievements } from "/static/achievements.js";
import { AVATARS, face } from "/static/avatars.js";
import { t } from "/static/i18n.js";
import { api } from "/static/api.js";
import { offeredGames } from "/static/lobby.js";
import { showBotPanel } from "/static/botpanel.js";
import { showMySeries } from "/static/series.js";

const $ = (id) => document.getElementById(id);
let me = null;

export const current = () => me;

function number(n) { return new Intl.NumberFormat(document.documentElement.lang).format(n); }

// openskill's cautious rating (mu - 3 sigma) starts at 0 and goes below it while few
// games are known: shown on a scale a player reads (1000 at the start, 40 a point),
// not at all for the first games (a number after one game says nothing), and called
// provisional for the next ones
const HIDDEN = 5;
const PROVISIONAL = 10;
const shownRating = (rating) => Math.max(0, Math.round(1000 + 40 * rating));

export async function refreshMe() {
  try { me = await api("/api/me"); } catch { me = null; }
  show();
  return me;
}

let shownAs = undefined;   // the account the page was last drawn for
function show() {
  const who = me ? me.id : null;
  if (who !== shownAs) {                   // the page's sockets are opened again as it
    shownAs = who;
    document.dispatchEvent(new CustomEvent("account-changed"));
  }
  $("account-out").hidden = Boolean(me);
  $("account-in").hidden = !me;
  $("competitive-options").hidden = !me;
  if (!me) { $("competitive").checked = false; return; }
  $("me-name").textContent = me.name;
  $("me-face").replaceChildren(face(me.avatar, me.name));
  $("me-chips").textContent = t("chips_n", { n: me.chips, shown: number(me.chips) });
  $("me-level").textContent = t("level_n", { n: me.level });
  if (!$("name").value || $("name").dataset.fromAccount) {
    $("name").value = me.name;
    $("name").dataset.fromAccount = "1";
  }
}

async function send(path) {
  const name = $("login-name").value.trim();
  const password = $("login-password").value;
  $("login-error").textContent = "";
  try {
    me = await api(path, { name, password });
    $("login-password").value = "";
    $("login-box").hidden = true;
    show();
  } catch (e) { $("login-error").textContent = e.message; }
}

export async function showProfile() {
  if (!me) return;
  await refreshMe();
  const box = $("profile");
  box.hidden = false;
  $("profile-name").textContent = me.name;
  $("profile-face").replaceChildren(face(me.avatar, me.name));
  showPicker();
  showBotPanel(me);
  const facts = $("profile-facts");
  facts.replaceChildren();
  const level = t("level_line", { level: me.level, band: t(`band_${me.band}`), n: number(me.xp_next),
    next: me.level + 1 });
  for (const [key, value] of [["chips", number(me.chips)], ["xp", number(me.xp)],
    ["level", level], ["abandons", String(me.abandons)]]) {
    const dt = document.createElement("dt");
    dt.textContent = t(`profile_${key}`);
    const dd = document.createElement("dd");
    dd.textContent = value;
    facts.append(dt, dd);
  }
  for (const [fam, r] of Object.entries(me.ratings || {})) {   // openskill, per family
    const [kind, format] = fam.split("/");
    const dt = document.createElement("dt");
    dt.textContent = t("rating_of", { game: t(`family_${kind}`), format: t(`seats_${format}`) });
    const dd = document.createElement("dd");
    dd.textContent = r.games < HIDDEN ? t("rating_hidden", { goal: HIDDEN, n: r.games })
      : t(r.games < PROVISIONAL ? "rating_provisional" : "rating_value",
        { rating: shownRating(r.rating), n: r.games });
    facts.append(dt, dd);
  }
  for (const [preset, g] of Object.entries(me.games || {})) {   // per game
    const dt = document.createElement("dt");
    dt.textContent = t(`preset_${preset}`);
    const dd = document.createElement("dd");
    dd.textContent = t("games_won", { played: g.played, won: g.won });
    facts.append(dt, dd);
  }
  renderAchievements(me.achievements || [], $("profile-achievements"), $("profile-ach-summary"),
    $("profile-ach-detail"));
  showGames();
  showMySeries();
  const list = $("profile-ledger");
  list.replaceChildren();
  try {
    const { movements } = await api("/api/ledger");
    for (const m of movements.slice(0, 20)) {
      const li = document.createElement("li");
      const when = new Date(m.at * 1000).toLocaleDateString(document.documentElement.lang);
      li.textContent = `${when} · ${m.amount > 0 ? "+" : ""}${number(m.amount)} · ${t(`memo_${m.key.split(":")[0]}`)}`;
      li.className = m.amount > 0 ? "plus" : "minus";
      list.append(li);
    }
  } catch { /* shown empty */ }
}

// the faces one may choose: the drawn set, and the one drawn from the name (null)
function showPicker() {
  const box = $("avatar-picker");
  box.replaceChildren();
  for (const key of [null, ...AVATARS]) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.avatar = key || "";
    b.setAttribute("aria-pressed", (me.avatar || null) === key ? "true" : "false");
    b.setAttribute("aria-label", key ? t("avatar_n", { n: AVATARS.indexOf(key) + 1 }) : t("avatar_initials"));
    b.append(face(key, me.name));
    b.onclick = async () => {
      try { me = await api("/api/me/avatar", { avatar: key }); } catch { return; }
      $("profile-face").replaceChildren(face(me.avatar, me.name));
      $("me-face").replaceChildren(face(me.avatar, me.name));
      showPicker();
    };
    box.append(b);
  }
}

// the finished matches: when, what, with whom, how it went, XP and chips; each a
// link to its replay
async function showGames() {
  const list = $("profile-games");
  list.replaceChildren();
  let games = [];
  try { ({ games } = await api("/api/games")); } catch { /* shown empty */ }
  $("profile-no-games").hidden = games.length > 0;
  for (const g of games) {
    const li = document.createElement("li");
    li.className = `game ${g.outcome}`;
    const a = document.createElement("a");
    a.href = `/games/${encodeURIComponent(g.id)}`;
    const when = new Date(g.finished * 1000).toLocaleDateString(document.documentElement.lang);
    const others = g.names.filter((n, s) => n && s !== g.seat).map((n) => n.replace(/ \(robot\)$/, ""));
    a.textContent = `${when} · ${t(`preset_${g.variant.split("(")[0]}`)} · ${t("game_with", { names: others.join(", ") })}`;
    li.append(a, " ", Object.assign(document.createElement("span"),
      { className: "outcome", textContent: t(`outcome_${g.outcome}`) }));
    const gains = [];
    if (g.xp) gains.push(t("xp_gain", { n: g.xp }));
    if (g.chips) gains.push(t("chips_gain", { n: `${g.chips > 0 ? "+" : ""}${number(g.chips)}` }));
    if (gains.length) li.append(` · ${gains.join(" · ")}`);
    list.append(li);
  }
}

let rankPeriod = "week";
let rankAsked = 0;

// the ranking of a period, for every game or one: place, name, XP, matches played and
// won; the person's own place below it when it is not on the page
export async function showRankings(period = rankPeriod) {
  rankPeriod = period;
  for (const b of document.querySelectorAll("#rank-periods button")) {
    b.setAttribute("aria-pressed", b.dataset.period === period ? "true" : "false");
  }
  const game = $("rank-game").value || "all";
  const body = $("rank-rows");
  const mineBox = $("rank-mine");
  const ticket = ++rankAsked;          // only the last ranking asked for is drawn
  try {
    const { rows, mine, ranked } = await api(`/api/rankings?period=${period}&game=${encodeURIComponent(game)}`);
    if (ticket !== rankAsked) return;
    body.replaceChildren();
    mineBox.hidden = true;
    $("rank-empty").hidden = rows.length > 0;
    $("rankings").querySelector("thead").hidden = rows.length === 0;
    for (const r of rows) {
      const tr = document.createElement("tr");
      if (mine && r.place === mine.place) tr.className = "mine";
      const share = r.played ? Math.round((100 * r.won) / r.played) : 0;
      for (const text of [String(r.place), r.name, number(r.xp), number(r.played),
        t("rank_won_share", { won: number(r.won), share })]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      tr.children[1].prepend(face(r.avatar, r.name));
      body.append(tr);
    }
    if (me) {
      mineBox.hidden = false;
      mineBox.textContent = mine ? t("rank_mine", { place: mine.place, ranked, xp: number(mine.xp) })
        : t("rank_mine_none");
    }
  } catch {
    if (ticket !== rankAsked) return;
    body.replaceChildren();
    mineBox.hidden = true;
    $("rank-empty").hidden = false;
  }
}

export function fillRankGames() {
  const select = $("rank-game");
  const chosen = select.value || "all";
  select.replaceChildren();
  for (const key of ["all", ...offeredGames()]) {
    const o = document.createElement("option");
    o.value = key;
    o.textContent = key === "all" ? t("rank_game_all") : t(`preset_${key}`);
    select.append(o);
  }
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "all";
}

export function wireAccount() {
  $("login-open").onclick = () => { $("login-box").hidden = !$("login-box").hidden; $("login-name").focus(); };
  $("login-form").onsubmit = (e) => { e.preventDefault(); send("/api/login"); };
  $("register").onclick = () => send("/api/register");
  $("logout").onclick = async () => {
    try { await api("/api/logout", {}); } catch { /* gone anyway */ }
    me = null;
    $("profile").hidden = true;
    if ($("name").dataset.fromAccount) { $("name").value = ""; delete $("name").dataset.fromAccount; }
    show();
  };
  $("profile-open").onclick = showProfile;
  fillRankGames();
  $("rank-game").onchange = () => showRankings();
  $("profile-close").onclick = () => { $("profile").hidden = true; };
  for (const b of document.querySelectorAll("#rank-periods button")) b.onclick = () => showRankings(b.dataset.period);
  $("competitive").onchange = () => {
    $("bet-label").hidden = $("bet-note").hidden = !$("competitive").checked;
  };
}
