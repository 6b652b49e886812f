// Subastado's auction in sight: who bid what and who passed (from the table's public
// action events, kept since the hand was dealt), the high bid, and every legal bid
// reachable -- the lowest ones as buttons, all of them in a list.  Text as text.
import { t } from "/static/i18n.js";
import { isAuction, moveLabel } from "/static/moves.js";
import { el, shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);
const said = new Map();      // seat -> its last word in this hand's auction (a move: a bid, a pass)
const QUICK = 2;             // the lowest bids offered as buttons of their own

// an event of the table (live or sent again on reconnecting), in order
export function heard(ev) {
  if (ev.kind === "start" || ev.kind === "next_hand") said.clear();
  else if (ev.kind === "action" && isAuction(ev.move)) said.set(ev.seat, ev.move);
}

// the panel on the cloth while the auction lasts
export function renderAuction(v) {
  const box = $("auction");
  const on = v.phase === "auction";
  box.hidden = !on;
  box.replaceChildren();
  if (!on) return;
  box.append(el("p", "auction-title", v.bid ? t("auction_high", { bid: v.bid }) : t("auction_open")));
  const list = el("ul", "auction-seats");
  for (let s = 0; s < v.names.length; s++) {
    if (v.sitting_out === s) continue;
    const word = said.get(s);
    const passed = word && word.kind === "pass";
    const li = el("li", passed ? "passed" : word ? "bid" : "");
    li.dataset.seat = String(s);
    const name = s === v.seat ? t("you_named", { name: shortName(v.names[s]) }) : shortName(v.names[s]);
    li.append(el("span", "who", name), el("span", "said",
      passed ? t("auction_passed") : word ? String(word.points) : s === v.to_act ? "…" : "—"));
    if (s === v.to_act) li.classList.add("to-act");
    list.append(li);
  }
  box.append(list);
}

// the buttons for bidding: the lowest bids, and a list with every other legal one
// (bids: typed moves, wire/moves.py)
export function bidButtons(bids, button, act) {
  const out = bids.slice(0, QUICK).map((m) => button(m));
  const rest = bids.slice(QUICK);
  if (!rest.length) return out;
  const pick = el("select", "bid-pick");
  pick.setAttribute("aria-label", t("bid_other"));
  for (const m of rest) pick.append(new Option(String(m.points), m.action));
  const go = el("button", "bid-go", moveLabel(rest[0]));
  go.type = "button";
  go.dataset.action = "bid-pick";
  const chosen = () => rest.find((m) => m.action === pick.value) || rest[0];
  pick.onchange = () => { go.textContent = moveLabel(chosen()); };
  go.onclick = () => act(chosen().action);
  const wrap = el("span", "bid-more");
  wrap.append(pick, go);
  out.push(wrap);
  return out;
}
