// Friends: the list (online, at which table), requests to answer, asking by name; the
// notices a person's pages get (a request, an invitation); inviting from a table.
import { t } from "/static/i18n.js";
import { api } from "/static/api.js";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const button = (key, fn, cls = "") => {
  const b = el("button", cls, t(key));
  b.type = "button";
  b.onclick = fn;
  return b;
};

let onWatch = () => {};
let onSay = () => {};
export function wireFriends(watch, say) {
  onWatch = watch;
  onSay = say;
  $("friend-form").onsubmit = async (e) => {
    e.preventDefault();
    const name = $("friend-name").value.trim();
    if (!name) return;
    try {
      const { state } = await api("/api/friends", { name });
      onSay(t(state === "friends" ? "friend_now" : "friend_asked", { name }), true);
      $("friend-name").value = "";
      showFriends();
    } catch (err) { onSay(err.message); }
  };
}

export async function showFriends() {
  const box = $("friends-panel");
  let data;
  try { data = await api("/api/friends"); } catch { box.hidden = true; return; }
  box.hidden = false;
  const incoming = $("friend-requests");
  incoming.replaceChildren();
  for (const f of data.incoming) {
    const li = el("li", "request");
    li.append(el("span", "who", t("friend_wants", { name: f.name })), " ",
      button("accept", () => answer(f.id, true), "primary"), " ", button("refuse", () => answer(f.id, false)));
    incoming.append(li);
  }
  const list = $("friend-list");
  list.replaceChildren();
  for (const f of data.friends) {
    const li = el("li", `friend ${f.online ? "online" : "offline"}`);
    li.dataset.friend = String(f.id);
    li.append(el("span", "dot", ""), el("span", "who", f.name), " ",
      el("span", "where", f.table ? t("friend_at_table", { game: t(`preset_${f.table.variant.split("(")[0]}`) })
        : t(f.online ? "friend_online" : "friend_offline")));
    if (f.table && f.table.spectators_allowed) li.append(" ", button("watch", () => onWatch(f.table.id), "watch"));
    li.append(" ", button("friend_remove", async () => { await api("/api/friends/remove", { id: f.id }); showFriends(); }, "quiet"));
    list.append(li);
  }
  $("no-friends").hidden = data.friends.length > 0 || data.incoming.length > 0;
  const out = $("friend-pending");
  out.replaceChildren();
  for (const f of data.outgoing) {
    const li = el("li", "pending", t("friend_pending", { name: f.name }));
    li.append(" ", button("cancel", async () => { await api("/api/friends/remove", { id: f.id }); showFriends(); }, "quiet"));
    out.append(li);
  }
  return data;
}

async function answer(id, accept) {
  try { await api("/api/friends/answer", { id, accept }); } catch (e) { onSay(e.message); }
  showFriends();
}

// a notice: a banner with what one can do about it
let noticeTimer = null;
export function showNotice(msg, actions) {
  const box = $("notice");
  box.replaceChildren();
  let text = "";
  if (msg.kind === "friend_request") text = t("notice_friend_request", { name: msg.from });
  else if (msg.kind === "friend_accepted") text = t("notice_friend_accepted", { name: msg.from });
  else if (msg.kind === "invite") {
    text = t("notice_invite", { name: msg.from, game: t(`preset_${String(msg.variant).split("(")[0]}`) });
  } else return;
  box.append(el("p", "", text));
  const row = el("div", "buttons");
  if (msg.kind === "invite") row.append(button("notice_go", () => { box.hidden = true; actions.go(msg.table); }, "primary"));
  if (msg.kind === "friend_request") row.append(button("notice_see", () => { box.hidden = true; actions.friends(); }, "primary"));
  row.append(button("close", () => { box.hidden = true; }));
  box.append(row);
  box.hidden = false;
  clearTimeout(noticeTimer);
  if (msg.kind === "friend_accepted") noticeTimer = setTimeout(() => { box.hidden = true; }, 10000);
  if (!$("friends-panel").hidden) showFriends();
}

// the host's invitations at a waiting table: each friend, and a link to share
export async function showInvites(tableId) {
  const list = $("invite-friends");
  list.replaceChildren();
  let data = { friends: [] };
  try { data = await api("/api/friends"); } catch { /* a guest host: the link only */ }
  for (const f of data.friends) {
    const li = el("li", f.online ? "online" : "offline");
    li.append(el("span", "who", f.name), " ");
    const b = button("invite", async () => {
      try { await api(`/api/tables/${tableId}/invite`, { friend: f.id }); b.disabled = true; b.textContent = t("invited"); } catch (e) { onSay(e.message); }
    });
    li.append(b);
    list.append(li);
  }
  $("invite-none").hidden = data.friends.length > 0;
}

export async function makeLink(tableId) {
  try {
    const { path } = await api(`/api/tables/${tableId}/link`, {});
    const url = `${location.origin}${path}`;
    $("invite-link").value = url;
    $("invite-link").hidden = false;
    $("invite-link").select();
    try { await navigator.clipboard.writeText(url); onSay(t("link_copied"), true); } catch { /* shown to copy */ }
  } catch (e) { onSay(e.message); }
}
