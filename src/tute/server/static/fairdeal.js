// Deals anyone can verify (docs/verifiable-deals.md): the page adds a seed of its own to
// each shuffle the table commits to and remembers what it saw; the hand's log shows the
// hand's commitment, the page's seed and, once a hand is over, the server seed revealed,
// checked here -- against the commitment *this page* saw published before that deal,
// not only the one the same message brings (SHA-256 needs a secure page: https, or this
// computer).
import { t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const published = new Set();   // commitments this page saw before their deal
let sent = null;               // {commitment, seed}: what this page added last
let waiting = [];              // who waits for a commitment to be seen (nextSeen)

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// our seat's seed for the next shuffle, once per commitment; what the table says of it
export function seedFor(d, seat, send) {
  if (!d || !d.next) return;
  published.add(d.next);
  waiting.forEach((done) => done());
  waiting = [];
  if (seat === null || seat === undefined) return;
  if ((d.seeded || []).includes(seat) || (sent && sent.commitment === d.next)) return;
  const seed = hex(crypto.getRandomValues(new Uint8Array(16)));
  if (send({ type: "seed", seed }) !== false) sent = { commitment: d.next, seed };
}

// a promise kept once this page has seen a commitment published (or after ms): a table
// started only then is dealt from a commitment the page saw, with the page's seed in it
export function nextSeen(ms = 3000) {
  return new Promise((done) => { waiting.push(done); setTimeout(done, ms); });
}

async function hashes(seed, commitment) {
  if (!(window.crypto && crypto.subtle)) return null;          // not a secure page
  const bytes = new Uint8Array(seed.match(/../g).map((h) => parseInt(h, 16)));
  const digest = hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  return digest === commitment;
}

function line(key, value) {
  const p = document.createElement("p");
  p.className = "deal-line";
  const label = document.createElement("span");
  label.textContent = t(key);
  const code = document.createElement("code");
  code.textContent = value;
  code.title = value;
  p.append(label, " ", code);
  return p;
}

function verdict(key, bad) {
  const p = document.createElement("p");
  p.className = bad ? "deal-verdict bad" : "deal-verdict";
  p.textContent = t(key);
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
    if (seat !== null && seat !== undefined) {                  // a spectator has none
      box.append(line("deal_your_seed", mine ? mine.client_seed : t("deal_no_seed")));
    }
    if (sent && sent.commitment === d.hand.commitment && (!mine || mine.client_seed !== sent.seed)) {
      box.append(verdict("deal_seed_missing", true));        // ours was left out
    }
  }
  if (d.revealed) {
    box.append(line("deal_revealed", d.revealed.server_seed));
    const ok = await hashes(d.revealed.server_seed, d.revealed.commitment);
    if (ok === null) box.append(verdict("deal_check_elsewhere", false));
    else if (!ok) box.append(verdict("deal_mismatch", true));
    else if (!published.has(d.revealed.commitment)) box.append(verdict("deal_not_seen", false));
    else box.append(verdict("deal_checked", false));
  }
  const how = document.createElement("p");
  how.className = "deal-how";
  how.textContent = t("deal_how");
  box.append(how);
  box.hidden = false;
}
