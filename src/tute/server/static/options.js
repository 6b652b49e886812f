// The host's table options, before a match or between matches: the match's format (or
// Tute online's house rules), the robots, the clock, competition and bet (not for a
// guest host), privacy, spectators and the players' chat.  The others are told while
// they are open.
import { current as currentAccount } from "/static/account.js";
import { api } from "/static/api.js";
import { tableFormats, withTableFormat } from "/static/lobby.js";

const $ = (id) => document.getElementById(id);

// the form as the table is now
function fill(tb) {
  const levels = $("robot-level");
  $("opt-level").replaceChildren(...[...levels.options].map((o) => new Option(o.textContent, o.value)));
  $("opt-level").value = tb.robot_level;
  $("opt-seconds").value = String(tb.move_seconds || 0);
  $("opt-competitive").checked = Boolean(tb.competitive);
  const chips = Boolean(currentAccount()) || tb.competitive;   // a guest host plays no chips
  $("opt-competitive-label").hidden = !chips;
  $("opt-bet-label").hidden = $("opt-bet-note").hidden = !chips;
  $("opt-bet").value = String(tb.bet || 0);
  const f = tableFormats(tb.variant);              // the match's format, for the next one
  $("opt-format").replaceChildren(...f.choices.map((c) => new Option(c.text, c.value)));
  $("opt-format").value = f.now;
  $("opt-format-label").hidden = !f.choices.length;
  const online = /^online\b/.test(tb.variant);     // seed 001's house rules
  $("opt-online").hidden = !online;
  if (online) {
    $("opt-rounds").value = (/match_target=(\d+)/.exec(tb.variant) || [0, "1"])[1];
    $("opt-allow-tute").checked = !/tute_set=off/.test(tb.variant);
    $("opt-trump-on-trump").checked = /stock_obligations=trump_on_trump/.test(tb.variant);
  }
  $("opt-private").checked = Boolean(tb.private);
  $("opt-bots").checked = Boolean(tb.bots) && tb.bots !== "no";
  $("opt-spectators").checked = tb.spectators_allowed !== false;
  $("opt-chat-in-hand").checked = tb.chat_in_hand !== false;
}

// what the form says, as the options request's body
function chosen(tb) {
  const competitive = $("opt-competitive").checked;
  const game = !$("opt-online").hidden ? {
    preset: "online", players: tb.players, rounds: Number($("opt-rounds").value),
    allow_tute: $("opt-allow-tute").checked, trump_on_trump: $("opt-trump-on-trump").checked,
  } : { variant: $("opt-format-label").hidden ? tb.variant : withTableFormat(tb.variant, $("opt-format").value) };
  return {
    ...game, robot_level: $("opt-level").value, move_seconds: Number($("opt-seconds").value), competitive,
    bet: competitive ? Math.max(0, Math.round(Number($("opt-bet").value) || 0)) : 0,
    spectators: $("opt-spectators").checked, chat_in_hand: $("opt-chat-in-hand").checked,
    private: $("opt-private").checked,
    bots: $("opt-bots").checked ? (tb.bots === "only" ? "only" : "yes") : "no",
  };
}

// info(): the table's summary now; table(): its id; send: a message on its socket
export function wireOptions({ info, table, send, say }) {
  const open = () => {
    if (!info()) return;
    fill(info());
    $("table-options").hidden = false;
    send({ type: "editing", on: true });
  };
  $("options-open").onclick = open;
  $("options-again").onclick = open;
  $("opt-cancel").onclick = () => { $("table-options").hidden = true; send({ type: "editing", on: false }); };
  $("table-options").onsubmit = async (e) => {
    e.preventDefault();
    try {
      await api(`/api/tables/${table()}/options`, chosen(info()));
      $("table-options").hidden = true;
    } catch (err) { say(err.message); }
  };
}
