// The hand's log ("historial de la mano"): every trick and announcement of the running
// hand so far, as everybody saw them, asked of the server one tap away (the table's
// "Historial" button) and shown in a panel over the table.
import { suitName, t } from "/static/i18n.js";
import { cardView, shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// an announcement in words, from the log's action text
function said(e, v) {
  const a = e.action;
  const you = e.seat === v.seat ? "_you" : "";
  const name = shortName(v.names[e.seat] || "");
  const words = (key, params) => t(key + you, { name, ...params });
  if (a === "40") return words("announce_forty");
  if (/^20[oceb]$/.test(a)) return words("announce_twenty", { suit: suitName(a[2]) });
  if (a === "tute") return words("announce_tute");
  if (a === "swap") return words("log_swap");
  if (a.startsWith("bid ")) return words("announce_bid", { points: a.slice(4) });
  if (a === "pass") return words("announce_pass");
  if (a.startsWith("trump ")) return words("announce_trump", { suit: suitName(a.slice(6)) });
  if (a.startsWith("manilla ")) return words("announce_manilla", { suit: suitName(a.slice(8)) });
  return a;
}

export function showLog(msg, v) {
  if (!v) return;
  const list = $("log-list");
  list.replaceChildren();
  $("log-empty").hidden = msg.entries.length > 0;
  for (const e of msg.entries) {
    const li = el("li", e.kind === "trick" ? "log-trick" : "log-said");
    if (e.kind === "trick") {
      li.append(el("span", "log-n", t("log_trick", { n: e.n })));
      const row = el("span", "log-cards");
      for (const [seat, code] of e.cards) {
        const who = el("span", seat === e.winner ? "log-card won" : "log-card");
        who.append(cardView(code), el("span", "log-who", seat === v.seat ? t("you_named", { name: shortName(v.names[seat] || "") }) : shortName(v.names[seat] || "")));
        row.append(who);
      }
      li.append(row);
      if (e.winner !== null && e.winner !== undefined) {
        li.append(el("span", "log-winner", e.winner === v.seat ? t("log_won_you")
          : t("log_won", { name: shortName(v.names[e.winner] || "") })));
      }
    } else li.textContent = said(e, v);
    list.append(li);
  }
  $("log-box").hidden = false;
  list.scrollTop = list.scrollHeight;
}

export function wireLog(send) {
  $("hand-log").onclick = () => send({ type: "log" });
  $("log-close").onclick = () => { $("log-box").hidden = true; };
}
