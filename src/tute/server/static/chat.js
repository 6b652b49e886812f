// A chat box (a table's, or the lobby's): lines as text only -- never markup --, each
// with what one may do about it (mute, block, report), and the box to write in.
import { t } from "/static/i18n.js";
import { shown, wirePhrases } from "/static/phrases.js";

const LIMIT = 200;       // lines kept on the page

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export class ChatBox {
  // root: the box's element, holding .chat-lines and a form with an input;
  // send(message): to the server; me(): {author, loggedIn} of this page's person;
  // face(message): the writer's face (an element), or none
  constructor(root, send, me, face = null) {
    this.root = root;
    this.send = send;
    this.me = me;
    this.face = face;
    this.lines = root.querySelector(".chat-lines");
    this.unread = 0;
    const form = root.querySelector("form");
    const input = form.querySelector("input");
    input.maxLength = LIMIT;
    form.onsubmit = (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      this.send({ type: "chat", text });
      input.value = "";
    };
    root.addEventListener("toggle", () => { if (root.open) this.markRead(); });
    wirePhrases(root, send);
  }

  clear() { this.lines.replaceChildren(); this.markRead(); }

  markRead() {
    this.unread = 0;
    const badge = this.root.querySelector(".unread");
    if (badge) badge.textContent = "";
  }

  // one message: {seq or id, author, name, text, seat (-1 a spectator), quiet, phrase}
  add(m) {
    const number = m.seq ?? m.id;
    const li = el("li", "chat-line");
    li.dataset.author = m.author;
    li.dataset.number = String(number);
    const who = el("span", "who", m.name);
    if (m.seat === -1) who.append(" ", el("span", "badge watcher", t("chat_watcher")));
    const said = el("span", "said", m.phrase ? undefined : m.text);   // text, never markup
    if (m.phrase) { said.classList.add("phrase"); said.append(shown(m.phrase)); }
    if (this.face) li.append(this.face(m), " ");
    li.append(who, " ", said);
    if (m.quiet) li.append(" ", el("span", "quiet-note", t("chat_quiet")));
    const mine = this.me().author === m.author;
    if (!mine) {
      const more = el("button", "line-more", "⋯");
      more.type = "button";
      more.setAttribute("aria-label", t("chat_actions", { name: m.name }));
      more.onclick = () => this.actions(li, m, number);
      li.append(" ", more);
    } else li.classList.add("mine");
    this.lines.append(li);
    while (this.lines.childElementCount > LIMIT) this.lines.firstElementChild.remove();
    this.lines.scrollTop = this.lines.scrollHeight;
    if (this.root.tagName === "DETAILS" && !this.root.open) {
      this.unread += 1;
      const badge = this.root.querySelector(".unread");
      if (badge) badge.textContent = String(this.unread);
    }
  }

  // what one may do about a line: mute (this table), block (an account), report
  actions(li, m, number) {
    const old = li.querySelector(".line-actions");
    if (old) { old.remove(); return; }
    const box = el("span", "line-actions");
    const button = (key, fn) => {
      const b = el("button", "", t(key));
      b.type = "button";
      b.onclick = () => { fn(); box.remove(); };
      box.append(b);
    };
    if (this.canMute) button("chat_mute", () => this.hideAuthor(m, { type: "mute", author: m.author }));
    if (this.me().loggedIn && m.author.startsWith("a")) {
      button("chat_block", () => this.hideAuthor(m, { type: "block", author: m.author }));
    }
    button("chat_report", () => {
      this.send({ type: "report", seq: number });
      li.classList.add("reported");
      this.note(t("chat_reported"));
    });
    li.append(box);
  }

  hideAuthor(m, message) {
    this.send(message);
    for (const line of this.lines.querySelectorAll(".chat-line")) {
      if (line.dataset.author === m.author) line.remove();
    }
    this.note(t(message.type === "block" ? "chat_blocked" : "chat_muted", { name: m.name }));
  }

  note(text) {
    const li = el("li", "chat-note", text);
    this.lines.append(li);
    this.lines.scrollTop = this.lines.scrollHeight;
  }
}
