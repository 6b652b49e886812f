// Deals anyone can verify (docs/verifiable-deals.md): the page adds a seed of its own to
// each shuffle the table commits to, and the hand's log shows the commitment, the seeds
// and, once a hand is over, the server seed revealed -- checked here against the
// commitment it was published as (where the browser allows it: SHA-256 needs a secure
// page).
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
let sentFor = null;

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// our seat's seed for the next shuffle, once per commitment
export function seedFor(d, seat, send) {
  if (!d || !d.next || seat === null || seat === undefined) return;
  if ((d.seeded || []).includes(seat) || sentFor === d.next) return;
  sentFor = d.next;
  send({ type: "seed", seed: hex(crypto.getRandomValues(new Uint8Array(16))) });
}

async function hashes(seed, commitment) {
  if (!(window.crypto && crypto.subtle)) return null;          // not a secure page
  const bytes = new Uint8Array(seed.match(/../g).map((h) => parseInt(h, 16)));
  const digest = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  return digest === commitment;
}

function line(key, value, cls) {
  const p = document.createElement("p");
  p.className = cls || "deal-line";
  const label = document.createElement("span");
  label.textContent = t(key);
  const code = document.createElement("code");
  code.textContent = value;
  code.title = value;
  p.append(label, " ", code);
  return p;
}

// the section under the hand's log
export async function showDeal(d, seat) {
  const box = $("log-deal");
  box.replaceChildren();
  if (!d || (!d.hand && !d.revealed)) { box.hidden = true; return; }
  const title = document.createElement("h3");
  title.textContent = t("deal_title");
  box.append(title);
  if (d.hand) {
    box.append(line("deal_commitment", d.hand.commitment));
    const mine = (d.hand.clients || []).find((c) => c.seat === seat);
    box.append(line("deal_your_seed", mine ? mine.seed : t("deal_no_seed")));
  }
  if (d.revealed) {
    box.append(line("deal_revealed", d.revealed.seed));
    const ok = await hashes(d.revealed.seed, d.revealed.commitment);
    const verdict = document.createElement("p");
    verdict.className = ok === false ? "deal-verdict bad" : "deal-verdict";
    verdict.textContent = t(ok === null ? "deal_check_elsewhere" : ok ? "deal_checked" : "deal_mismatch");
    box.append(verdict);
  }
  const how = document.createElement("p");
  how.className = "deal-how";
  how.textContent = t("deal_how");
  box.append(how);
  box.hidden = false;
}
