// The hand's log ("historial de la mano"): every trick and announcement of the running
// hand so far, as everybody saw them, asked of the server one tap away (the table's
// "Historial" button) and shown in a panel over the table.
import { t } from "/static/i18n.js";
import { moveTold } from "/static/moves.js";
import { cardView, shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// an announcement in words, from the log's typed move
function said(e, v) {
  return moveTold(e.move, shortName(v.names[e.seat] || ""), e.seat === v.seat, { swap: "log_swap" });
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
