// An action in words: the one home in the browser.  Fed the typed action the server
// sends beside its text (wire/moves.py: {action, kind, card?, suit?, points?}), never
// by reading the text -- a button's label ("Cantar las veinte en oros"), or what a seat
// did ("Ana canta las cuarenta", "cantas las cuarenta").
import { cardWords, suitName, t } from "/static/i18n.js";

// what a move names, as the catalog's texts take it
function named(m) {
  return {
    card: m.card ? cardWords(m.card) : "",
    suit: m.suit ? suitName(m.suit) : "",
    points: m.points === undefined ? "" : String(m.points),
    n: m.points === undefined ? "" : String(m.points),
  };
}

// a button's words: what the player may do
const LABEL = {
  swap: "swap", pass: "pass", forty: "sing_forty", tute: "sing_tute", twenty: "sing_twenty",
  trump: "name_trump", manilla: "manilla", bid: "bid_n",
};

export function moveLabel(m) {
  if (m.kind === "play") return cardWords(m.card);
  return t(LABEL[m.kind] || m.action, named(m));
}

// what a seat did, told: keys ending "_you" where it was the reader's own (how = the
// texts of one place that differ: {play: "replay_play", swap: "log_swap"})
const TOLD = {
  forty: "announce_forty", twenty: "announce_twenty", tute: "announce_tute",
  bid: "announce_bid", pass: "announce_pass", trump: "announce_trump",
  manilla: "announce_manilla",
};

export function moveTold(m, name, you, how = {}) {
  const key = how[m.kind] || TOLD[m.kind];
  if (!key) return m.kind === "play" ? cardWords(m.card) : m.action;
  return t(you ? `${key}_you` : key, { name, ...named(m) });
}

export const isPlay = (m) => Boolean(m) && m.kind === "play";
export const isCante = (m) => Boolean(m) && (m.kind === "forty" || m.kind === "twenty" || m.kind === "tute");
export const isBid = (m) => Boolean(m) && m.kind === "bid";
export const isAuction = (m) => Boolean(m) && (m.kind === "bid" || m.kind === "pass");
