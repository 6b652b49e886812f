// The profile's bot part (docs/guide/bots.md): an account made a bot for good, by
// typing its name; then its tokens -- each shown once when made, listed by name with
// when it was made and last used, revoked with a click.
import { t } from "/static/i18n.js";
import { api } from "/static/api.js";

const $ = (id) => document.getElementById(id);
let account = null;

const when = (s) => (s ? new Date(s * 1000).toLocaleString(document.documentElement.lang,
  { dateStyle: "medium", timeStyle: "short" }) : t("bot_never"));

function draw(state) {
  $("bot-become").hidden = state.bot;
  $("bot-tokens-box").hidden = !state.bot;
  const list = $("bot-tokens");
  list.replaceChildren();
  for (const tok of state.tokens) {
    const li = document.createElement("li");
    li.className = tok.revoked ? "revoked" : "";
    const label = Object.assign(document.createElement("strong"), { textContent: tok.label });
    const facts = tok.revoked ? t("bot_token_revoked", { when: when(tok.revoked) })
      : t("bot_token_facts", { made: when(tok.created), used: when(tok.last_used) });
    li.append(label, " · ", facts);
    if (!tok.revoked) {
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: t("bot_revoke") });
      b.onclick = () => act(`/api/me/bot/tokens/${tok.id}/revoke`, {});
      li.append(" ", b);
    }
    list.append(li);
  }
}

async function act(path, body) {
  $("bot-error").textContent = "";
  try {
    const got = await api(path, body);
    if (got.token) {                        // made now: shown this once
      $("bot-token-value").textContent = got.token;
      $("bot-token-shown").hidden = false;
      $("bot-token-label").value = "";
    }
    draw(await api("/api/me/bot/tokens"));
  } catch (e) { $("bot-error").textContent = e.message; }
}

export async function showBotPanel(me) {
  account = me;
  $("bot-token-shown").hidden = true;
  $("bot-error").textContent = "";
  try { draw(await api("/api/me/bot/tokens")); } catch (e) { $("bot-error").textContent = e.message; }
}

$("bot-become-go").onclick = () => {
  if (!account) return;
  act("/api/me/bot", { confirm: $("bot-confirm").value.trim() });
};
$("bot-token-new").onclick = () => act("/api/me/bot/tokens", { label: $("bot-token-label").value.trim() || "bot" });
