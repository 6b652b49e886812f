// The site's API as every page calls it, written once: each request same-origin and in
// the page's language, and a change (a body: POST as JSON) carrying the CSRF token the
// server set for this site's pages (the tute_csrf cookie, echoed in x-csrf-token).
import { getLang, t } from "/static/i18n.js";

export function csrf() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("tute_csrf="));
  return found ? decodeURIComponent(found.slice("tute_csrf=".length)) : "";
}

// the fetch's Response: a GET where there is no body, else a POST of it as JSON
export function request(path, body) {
  const address = `${path}${path.includes("?") ? "&" : "?"}lang=${getLang()}`;
  return fetch(address, body ? {
    method: "POST", headers: { "content-type": "application/json", "x-csrf-token": csrf() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  } : { credentials: "same-origin" });
}

// the answer's JSON; a refusal throws an Error in the server's words
export async function api(path, body) {
  const res = await request(path, body);
  let data = {};
  try { data = await res.json(); } catch { /* not JSON: a proxy's page */ }
  if (!res.ok) throw new Error(data.error || t("server_error"));
  return data;
}

// the answer as {ok, body}, never throwing: a server out of reach is {ok: false, body: {}}
export async function answer(path, body) {
  try {
    const res = await request(path, body);
    return { ok: res.ok, body: await res.json() };
  } catch {
    return { ok: false, body: {} };
  }
}
