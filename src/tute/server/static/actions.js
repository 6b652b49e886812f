// An action in words, from its typed form -- the server's `typed` beside every action it
// sends ({kind, card, suit, points}: an event, a legal move, the hand's log, a replay's
// step, a hint) -- so that no page parses the action's text.  The one place the browser
// says what an action is, by where it is said:
//   "label":    a button's or a hint's words ("Cantar 20 en oros", "el as de oros")
//   "announce": the bubble beside a seat ("Ada canta las cuarenta")
//   "log":      the hand's log, "replay": a kept game's step
// A seat's own move has its own words ("Cantas las cuarenta"): `you`.
import { cardWords, suitName, t } from "/static/i18n.js";

const TOLD = {
  forty: "announce_forty", twenty: "announce_twenty", tute: "announce_tute", bid: "announce_bid",
  pass: "announce_pass", trump: "announce_trump", manilla: "announce_manilla",
};
const KEYS = {
  label: {
    swap: "swap", pass: "pass", forty: "sing_forty", tute: "sing_tute", twenty: "sing_twenty",
    trump: "name_trump", manilla: "manilla", bid: "bid_n",
  },
  announce: { ...TOLD, swap: "announce_swap" },
  log: { ...TOLD, swap: "log_swap" },
  replay: { ...TOLD, play: "replay_play", swap: "replay_swap" },
};

export const isCard = (m) => !!m && m.kind === "play";
export const isBid = (m) => !!m && m.kind === "bid";

function parts(m) {
  const p = {};
  if (m.card) p.card = cardWords(m.card);
  if (m.suit) p.suit = suitName(m.suit);
  if (m.points !== undefined) p.points = p.n = String(m.points);
  return p;
}

// the words of the move `m` said at `where` (null: that place says nothing of it);
// `params`: the rest the words need (the seat's name, the cards of a swap)
export function actionWords(m, where, params = {}, you = false) {
  if (!m) return null;
  if (where === "label" && m.kind === "play") return cardWords(m.card);
  const key = KEYS[where][m.kind];
  if (!key) return null;
  return t(you && where !== "label" ? `${key}_you` : key, { ...parts(m), ...params });
}
