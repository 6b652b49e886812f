// Chips and XP in sight: the bet and the pot at a competitive table while its match
// runs, and in the match's count what each person took (the ledger's own figures, sent
// by the table once paid) with the new balance.  Text as text, never as markup.
import { t } from "/static/i18n.js";
import { el, shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);
export const number = (n) => new Intl.NumberFormat(document.documentElement.lang).format(n);
const signed = (n) => `${n > 0 ? "+" : n < 0 ? "−" : ""}${number(Math.abs(n))}`;

// why a competitive table's match is practice (two people at one address...)
const practiceWhy = (info) => t(`practice_${info.practice === "address_unknown" ? "address_unknown" : "same_address"}`);

// "Apuesta 50 · Bote 150": under the score while a competitive match is on; where the
// match is practice, why (for the whole match, not a message that fades); where nobody
// bet since no person plays against anyone (robots bet nothing), that
export function renderStake(info) {
  const box = $("stake");
  const practice = Boolean(info && info.competitive && info.practice);
  const running = Boolean(info && info.competitive && info.status !== "open");
  const unmatched = running && !practice && info.bet > 0 && !(info.pot > 0);
  const on = practice || unmatched || (running && info.pot > 0);
  box.hidden = !on;
  box.classList.toggle("practice", practice);
  box.textContent = practice ? practiceWhy(info)
    : unmatched ? t("stake_no_rivals")
      : on ? t("stake_line", { bet: number(info.bet), pot: number(info.pot) }) : "";
}

// who took what from the match, a row per person, and this page's new balance
// (``seat``: this page's seat at the table, null when watching)
export function renderGains(seat, info, me) {
  const old = $("count").querySelector("[data-gains]");
  if (old) old.remove();
  if (info && info.competitive && info.practice) {     // the count says nothing moved
    const note = el("p", "count-note practice", t("practice_count"));
    note.dataset.gains = "1";
    $("count").append(note);
    return;
  }
  if (!info || !info.gains || !info.gains.length) return;
  const box = el("div", "gains");
  box.dataset.gains = "1";
  const table = el("table", "gains");
  const head = el("tr");
  head.append(el("th", "", t("gains_title")), el("th", "", t("gains_chips")), el("th", "", t("gains_xp")));
  table.append(head);
  const names = Object.fromEntries((info.seats || []).map((s) => [s.seat, s.name]));
  for (const g of info.gains) {
    const row = el("tr", g.chips > 0 ? "plus" : g.chips < 0 ? "minus" : "");
    row.dataset.seat = String(g.seat);
    if (g.seat === seat) row.classList.add("mine");
    const name = shortName(names[g.seat] || "");
    row.append(el("th", "", g.seat === seat ? t("you_named", { name }) : name),
      el("td", "chips", signed(g.chips)), el("td", "xp", `+${number(g.xp)}`));
    table.append(row);
  }
  box.append(table);
  if (me && info.gains.some((g) => g.seat === seat)) {
    box.append(el("p", "count-note balance", t("gains_balance", { n: number(me.chips) })));
  }
  $("count").append(box);
}
