// A finished match, replayed: every hand step by step with all the cards face up (a
// match is public once it is over), the cantes and the count; the record to download
// and a link to share.  The steps come from the server (the core replays them): the
// page holds no rule.
import { LANGS, loadText, setLang, t, translate } from "/static/i18n.js";
import { moveTold } from "/static/moves.js";
import { request } from "/static/api.js";
import { save, settings } from "/static/settings.js";
import { renderCount, renderScore, renderSeats, renderStock, renderTrick, shortName, sideName } from "/static/table.js";
import { reviewGame, reviewHand, reviewStep, setupReview } from "/static/review.js";

const $ = (id) => document.getElementById(id);
const opening = location.pathname === "/open";   // a record from the person's computer
const gameId = opening ? "" : decodeURIComponent(location.pathname.split("/").pop() || "");
let data = null;       // {game, replay: {hand, hands, names, steps, result}}
let step = 0;
let opened = null;     // {text, game}: the file opened, read by the server, kept nowhere

function say(text) {
  $("message").textContent = text;
  if (text) setTimeout(() => { $("message").textContent = ""; }, 5000);
}

function ask(hand) {
  if (!opened) {
    return request(`/api/games/${encodeURIComponent(gameId)}?hand=${hand}`);
  }
  return request("/api/records/open", { text: opened.text, hand, game: opened.game });
}

async function load(hand, at = 0) {
  let body = {};
  let res = null;
  try { res = await ask(hand); body = await res.json(); } catch { res = null; }
  if (!res || !res.ok) {
    say(body.error || t("replay_missing"));
    $("table").hidden = true;
    if (opening) $("replay-head").hidden = $("review").hidden = true;
    return;
  }
  $("table").hidden = $("replay-head").hidden = $("review").hidden = false;
  if (opening) $("message").textContent = "";       // a bad file's words, gone
  data = body;
  for (const v of data.replay.steps) v.reader = readerSeat(v.names);
  step = at < 0 ? data.replay.steps.length - 1 : at;
  if (opening) reviewGame(data.game.file);  // a file's match: its analysis by its name
  reviewHand(data.replay);   // first: the last hand's analysis is not drawn here
  head();
  draw();
}

function head() {
  const g = data.game;
  const preset = g.variant.split("(")[0];
  $("game-title").textContent = t("replay_of", { game: t(`preset_${preset}`) });
  const when = g.finished ? new Date(g.finished * 1000).toLocaleString(
    document.documentElement.lang, { dateStyle: "long", timeStyle: "short" }) : (g.date || g.event);
  const names = g.names.filter(Boolean).map(shortName).join(", ");
  const v = data.replay.steps[0];
  let end = t(g.status === "unfinished" ? "open_unfinished" : "replay_annulled");
  if (g.status !== "annulled" && g.result.winner !== null && g.result.winner !== undefined) {
    const w = g.result.winner;                 // "Ana gana", "Ana + Lucía ganan", "Ganas"
    const reader = readerSeat(g.names);
    const mine = reader !== null && (v.partnerships ? reader % 2 : reader) === w;
    const key = mine ? (v.partnerships ? "match_won_us" : "match_won_you")
      : (v.partnerships ? "match_won_pair" : "match_won");
    const who = v.partnerships ? sideName({ ...v, names: g.names, seat: null }, w)
      : shortName(g.names[w] || "");
    end = t(key, { name: who, score: "" }).replace(/\s+([!.]?)$/, "$1").trim();
  }
  $("game-facts").textContent = `${when} · ${names} · ${end}`;
  $("download").href = `/api/games/${encodeURIComponent(gameId)}/record.tute`;
  $("download-tpn").href = `/api/games/${encodeURIComponent(gameId)}/record.tpn`;
  for (const id of ["download", "download-tpn", "share"]) $(id).hidden = opening;
  document.title = `${$("game-title").textContent} · Tute`;
}

// the seat a record of ``tute play`` calls "Tú" ("You"...: tute.term.narrate.YOU): the
// person who saved it, whose moves are told in the second person ("Juegas", not "Tú juega")
const READERS = ["Tú", "Você", "Tu", "You"];
function readerSeat(names) {
  const s = (names || []).findIndex((n) => READERS.includes(n));
  return s < 0 ? null : s;
}

// what the step's move was, in words
function moveWords(v) {
  const m = v.move;
  if (!m) return t(v.dealer === v.reader ? "replay_deal_you" : "replay_deal", { name: shortName(v.names[v.dealer] || "") });
  const name = shortName(v.names[m.seat] || "");
  return moveTold(m, name, m.seat === v.reader, { play: "replay_play", swap: "replay_swap" });
}

// the steps where a trick closes: "trick by trick"
const closes = (steps, i) => i > 0 && !steps[i].trick.length && steps[i - 1].trick.length > 0;

function draw() {
  const steps = data.replay.steps;
  const v = steps[step];
  const g = data.game;                     // who was a robot, and of which level
  renderSeats(v, { robot_level: g.robot_level, seats: v.names.map((n, s) => ({ seat: s, robot: / \(robot\)$/.test(n) })) }, null);
  renderStock(v);
  if (closes(steps, step)) renderTrick(v, v.last_trick, v.last_trick_winner, true);
  else renderTrick(v, v.trick, null, false);
  renderScore(v);
  $("move-said").textContent = moveWords(v);
  const over = step === steps.length - 1 && data.replay.result;
  $("count-box").hidden = !over;
  if (over) renderCount(v, data.replay.result);
  $("step-said").textContent = t("replay_step", { hand: data.replay.hand, hands: data.replay.hands,
    step, steps: steps.length - 1 });
  $("first").disabled = $("prev").disabled = $("prev-trick").disabled = step === 0;
  $("last").disabled = $("next").disabled = $("next-trick").disabled = step === steps.length - 1;
  $("prev-hand").disabled = data.replay.hand <= 1;
  $("next-hand").disabled = data.replay.hand >= data.replay.hands;
  reviewStep(step);
}

function go(to) {
  if (!data) return;
  step = Math.max(0, Math.min(data.replay.steps.length - 1, to));
  draw();
}

function trick(dir) {
  const steps = data.replay.steps;
  let i = step + dir;
  while (i > 0 && i < steps.length - 1 && !closes(steps, i)) i += dir;
  go(i);
}

function hand(dir) {
  if (!data) return;
  const n = data.replay.hand + dir;
  if (n >= 1 && n <= data.replay.hands) load(n, dir < 0 ? -1 : 0);
}

async function changeLanguage(next) {
  const code = LANGS.includes(next) ? next : "es";
  await loadText(code);
  setLang(code);
  save({ lang: code });
  $("lang").value = code;
  translate();
  if (data) { head(); draw(); reviewHand(data.replay); }
}

$("lang").onchange = () => changeLanguage($("lang").value);
$("first").onclick = () => go(0);
$("prev").onclick = () => go(step - 1);
$("next").onclick = () => go(step + 1);
$("last").onclick = () => go(Infinity);
$("prev-trick").onclick = () => trick(-1);
$("next-trick").onclick = () => trick(1);
$("prev-hand").onclick = () => hand(-1);
$("next-hand").onclick = () => hand(1);
$("share").onclick = async () => {
  try { await navigator.clipboard.writeText(location.href); say(t("replay_copied")); } catch {
    window.prompt(t("replay_share"), location.href);      // no clipboard: shown to copy
  }
};
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") go(step + 1);
  else if (e.key === "ArrowLeft") go(step - 1);
  else if (e.key === "ArrowDown") trick(1);
  else if (e.key === "ArrowUp") trick(-1);
  else if (e.key === "PageDown") hand(1);
  else if (e.key === "PageUp") hand(-1);
  else return;
  e.preventDefault();
});

// a file of the person's: its text goes to the server to be read and replayed
async function openFile(file) {
  if (!file) return;
  let text = "";
  try { text = await file.text(); } catch { say(t("replay_missing")); return; }
  opened = { text, game: 1 };
  await load(1);
  const games = data && opened ? data.game.games : 1;
  const pick = $("open-game");
  pick.replaceChildren(...Array.from({ length: games }, (_, i) => new Option(
    t("open_game_n", { n: i + 1, of: games }), String(i + 1))));
  pick.hidden = games < 2;
}
$("open-file").onchange = () => openFile($("open-file").files[0]);
$("open-game").onchange = () => { opened.game = Number($("open-game").value); load(1); };

setupReview(gameId, go, opening ? () => ({ text: opened.text, game: opened.game }) : null);
(async () => {
  await changeLanguage(settings.lang);
  if (!opening) { await load(1); return; }
  $("open-box").hidden = false;
  $("table").hidden = $("replay-head").hidden = $("review").hidden = true;
})();
