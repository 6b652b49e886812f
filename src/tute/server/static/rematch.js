// The rematch ("Otra con los mismos"): at a match's end a person proposes another with
// the same seats and partners; the others are asked; it starts once all agree.
import { t } from "/static/i18n.js";
import { shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);

// vote: {proposer, agreed} or null; v: the page's view; people: the seats of persons
export function showRematch(vote, v, people, watching) {
  const box = $("rematch-box");
  const over = Boolean(v && v.match && v.match.over);
  $("rematch").hidden = watching || !over || Boolean(vote);
  box.hidden = watching || !over || !vote;
  if (box.hidden) return;
  const name = (s) => shortName(v.names[s] || "");
  const mine = vote.agreed.includes(v.seat);
  const waiting = people.filter((s) => !vote.agreed.includes(s)).map(name).join(", ");
  $("rematch-text").textContent = mine ? t("rematch_waiting", { names: waiting })
    : t("rematch_proposed", { name: name(vote.proposer) });
  $("rematch-yes").hidden = mine;
  $("rematch-no").hidden = mine;
}

export function wireRematch(send) {
  $("rematch").onclick = () => send({ type: "rematch", agree: true });
  $("rematch-yes").onclick = () => send({ type: "rematch", agree: true });
  $("rematch-no").onclick = () => send({ type: "rematch", agree: false });
}
