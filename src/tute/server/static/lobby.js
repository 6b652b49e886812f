// The lobby: the table options (the games and levels the server offers, seed 001's
// options for Tute online, the match formats of the engine) and the tables, live.
import { api } from "/static/api.js";
import { face } from "/static/avatars.js";
import { getLang, t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
let meta = null;

export function setMeta(m) { meta = m; }
// the games this server offers (their presets' names, each once), in its own order
export const offeredGames = () => (meta ? [...new Set(meta.variants.map((v) => v.preset))] : []);


function chosenVariant() {
  return meta ? meta.variants.find((v) => v.text === $("variant").value) : null;
}

// the match formats the engine has (core/match.py) for the chosen game
function formats(v) {
  if (!v || v.preset === "online") return [];          // its rounds are its format
  if (v.match === "elimination") return [];
  if (v.match === "cumulative") {
    const more = v.target >= 300 ? [300, 500, 1000] : [51, 101, 201];
    return [...new Set([v.target, ...more])].sort((a, b) => a - b)
      .map((n) => ({ value: `cumulative:${n}`, text: t("format_cumulative", { target: n }) }));
  }
  return [
    { value: "first_to:1", text: t("format_one_hand") },
    ...[2, 3, 5].map((n) => ({ value: `first_to:${n}`, text: t("format_first_to", { target: n }) })),
    ...[3, 5].map((n) => ({ value: `series:${n}`, text: t("format_series", { target: n }) })),
    { value: "two_ahead:3", text: t("format_two_ahead", { target: 3 }) },
  ];
}

export function showOptions() {
  const v = chosenVariant();
  $("online-options").hidden = !(v && v.preset === "online");
  const box = $("match-format");
  const choices = formats(v);
  const before = box.value;
  box.replaceChildren(...choices.map((c) => {
    const o = document.createElement("option");
    o.value = c.value;
    o.textContent = c.text;
    return o;
  }));
  const own = v ? `${v.match}:${v.target}` : "";
  box.value = choices.some((c) => c.value === before) ? before : own;
  $("match-format-label").hidden = choices.length === 0;
  if (v) $("rules-link").href = `/help/${encodeURIComponent(v.text)}?lang=${getLang()}`;
}

// the variant text with the chosen match format: habanero(match=first_to,match_target=3)
function withFormat(text, chosen) {
  if (!chosen) return text;
  const [match, target] = chosen.split(":");
  const extra = `match=${match},match_target=${target}`;
  return text.includes("(") ? text.replace(/\)$/, `,${extra})`) : `${text}(${extra})`;
}

// a table's game as the host may change it between matches: the formats of its game,
// and which is the table's now (from its variant text, e.g. habanero(match=first_to,...))
export function tableFormats(text) {
  const base = text.replace(/,?match=[a-z_]+,match_target=\d+/, "").replace("()", "");
  const v = meta ? meta.variants.find((x) => x.text === base) : null;
  const choices = formats(v);
  const said = /match=([a-z_]+),match_target=(\d+)/.exec(text);
  const now = said ? `${said[1]}:${said[2]}` : v ? `${v.match}:${v.target}` : "";
  return { base, own: v ? `${v.match}:${v.target}` : "", now, choices };
}

export function withTableFormat(text, chosen) {
  const f = tableFormats(text);
  return !chosen || chosen === f.own ? f.base : withFormat(f.base, chosen);
}

export function tableOptions() {
  const v = chosenVariant();
  const common = { robot_level: $("robot-level").value, move_seconds: Number($("move-seconds").value),
    spectators: $("spectators").checked, chat_in_hand: $("chat-in-hand").checked,
    private: $("private").checked, bots: $("allow-bots").checked ? "yes" : "no" };
  if (!$("competitive-options").hidden && $("competitive").checked) {
    common.competitive = true;
    common.bet = Math.max(0, Math.round(Number($("bet").value) || 0));
  }
  if (v && v.preset === "online") {
    return { ...common, preset: "online", players: v.players, rounds: Number($("rounds").value),
      allow_tute: $("allow-tute").checked, trump_on_trump: $("trump-on-trump").checked };
  }
  const own = v ? `${v.match}:${v.target}` : "";
  const chosen = $("match-format").value;
  return { ...common, variant: withFormat($("variant").value, chosen === own ? "" : chosen) };
}

// the games and robot levels the server offers, named in the page's language
export function fillChoices() {
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

function variantTitle(text, players) {
  const preset = text.split("(")[0];
  return `${t(`preset_${preset}`)} (${t("players", { n: players })})`;
}

// ---------------------------------------------------------------- the tables, live
export function renderTables(tables, join, watch) {
  showInvitation(tables, join);
  const list = $("tables");
  list.replaceChildren();
  $("no-tables").hidden = tables.length > 0;
  for (const tb of [...tables].sort((a, b) => Number(Boolean(b.suggested)) - Number(Boolean(a.suggested)))) {
    const li = document.createElement("li");
    li.className = `lobby-table ${tb.status}`;
    li.dataset.table = tb.id;
    const head = document.createElement("div");
    head.className = "lobby-head";
    const title = document.createElement("strong");
    title.textContent = variantTitle(tb.variant, tb.players);
    const status = document.createElement("span");
    status.className = "state";
    status.textContent = t(`status_${tb.status}`);
    head.append(title, " ", status);
    const mark = (cls, text) => head.append(" ", Object.assign(document.createElement("span"),
      { className: cls, textContent: text }));
    if (tb.suggested) mark("suggested-mark", t("suggested"));   // nearest in skill (openskill)
    if (tb.competitive && tb.practice) {     // its match is practice: nothing is bet, and why
      mark("practice-mark", t("practice_mark"));
      head.lastChild.title = t(`practice_${tb.practice === "address_unknown" ? "address_unknown" : "same_address"}`);
    } else if (tb.competitive) {
      mark("competitive-mark", tb.bet ? t("competitive_bet", { bet: tb.bet }) : t("competitive_mark"));
    }
    if (tb.spectators) mark("watchers-mark", t("watchers_n", { n: tb.spectators }));
    const invited = invitedTo() === tb.id;
    const locked = tb.private && !tb.may_sit && !invited;     // "Mesa privada"
    if (tb.private) mark(`private-mark${locked ? " locked" : ""}`, t(locked ? "private_locked" : "private_mark"));
    if (invited) mark("invited-mark", t("invited_mark"));
    li.append(head);
    const seats = document.createElement("div");
    seats.className = "lobby-seats";
    for (let s = 0; s < tb.players; s++) {
      const taken = tb.seats.find((x) => x.seat === s);
      if (taken) {
        const name = document.createElement("span");
        name.className = "taken";
        name.textContent = taken.robot ? `${taken.name}` : taken.name;
        name.prepend(face(taken.avatar, taken.name, taken.robot));
        seats.append(name);
      } else if (tb.status === "open") {                // the player chooses the seat
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.seat = String(s);
        const partner = tb.partnerships ? tb.seats.find((x) => x.seat === (s + 2) % 4) : null;
        b.textContent = partner ? t("join_partner", { n: s + 1, name: partner.name })
          : t("join_seat", { n: s + 1 });
        b.onclick = () => join(tb.id, s);
        if (locked) { b.disabled = true; b.title = t("private_locked"); }
        seats.append(b);
      } else {
        seats.append(Object.assign(document.createElement("span"), { className: "free", textContent: t("free") }));
      }
    }
    if (tb.spectators_allowed && watch) {             // "Permitir público"
      const b = document.createElement("button");
      b.type = "button";
      b.className = "watch";
      b.textContent = t("watch");
      b.onclick = () => watch(tb.id);
      seats.append(b);
    }
    li.append(seats);
    list.append(li);
  }
}

// an invitation link followed: on top of the lobby, who invites to what, and one button
// that sits the player at the table's first free seat
function showInvitation(tables, join) {
  const box = $("invite-landing");
  const invite = invitation();
  box.hidden = !invite;
  if (!invite) return;
  const tb = tables.find((x) => x.id === invite.table);
  const free = tb && tb.status === "open"
    ? [...Array(tb.players).keys()].find((s) => !tb.seats.some((x) => x.seat === s)) : undefined;
  const host = tb ? tb.seats.find((x) => x.seat === tb.host) : null;
  $("invite-landing-text").textContent = !tb || tb.status !== "open" ? t("invite_gone")
    : free === undefined ? t("invite_full")
      : t("invite_landing", { name: host ? host.name : "", game: variantTitle(tb.variant, tb.players) });
  $("invite-sit").hidden = free === undefined;
  $("invite-name-label").hidden = free === undefined;
  if (!$("invite-name").value) $("invite-name").value = $("name").value;
  $("invite-sit").onclick = () => {
    const name = $("invite-name").value.trim();
    if (name) $("name").value = name;
    join(tb.id, free);
  };
  $("invite-dismiss").onclick = () => { sessionStorage.removeItem("tute.invite"); box.hidden = true; };
}

// an invitation link this browser followed: {table, token}
export function invitation() {
  try { return JSON.parse(sessionStorage.getItem("tute.invite") || "null"); } catch { return null; }
}
const invitedTo = () => (invitation() || {}).table;

// the lobby's socket: the listing now and whenever it changes; polling if it fails
let feed = null;
let poll = null;
export function watchTables(join, personal = () => false, watch = null, onMessage = null) {
  const invite = invitation();                  // a private table's link: its row opens
  const path = invite ? `/api/tables?invite=${encodeURIComponent(invite.token)}` : "/api/tables";
  const refresh = () => api(path).then(({ tables }) => renderTables(tables, join, watch)).catch(() => {});
  stopWatching();
  refresh();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  try {
    feed = new WebSocket(`${proto}://${location.host}/lobby/ws?lang=${getLang()}`);
    feed.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type !== "tables") { if (onMessage) onMessage(msg); return; }
      if (personal() || invite) refresh();          // the suggested table; a private one
      else renderTables(msg.tables, join, watch);
    };
    feed.onclose = () => {
      feed = null;
      if (!$("lobby").hidden && !poll) poll = setInterval(() => { if (!document.hidden) refresh(); }, 3000);
    };
  } catch { poll = setInterval(refresh, 3000); }
}

// a message on the lobby's socket (its chat); false when it is not open
export function lobbySend(message) {
  if (!feed || feed.readyState !== WebSocket.OPEN) return false;
  feed.send(JSON.stringify(message));
  return true;
}

export function stopWatching() {
  if (feed) { feed.onclose = null; feed.close(); feed = null; }
  if (poll) { clearInterval(poll); poll = null; }
}
