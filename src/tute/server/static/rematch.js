// The rematch ("Otra con los mismos"): at a match's end a person proposes another with
// the same seats and partners; the others are asked; it starts once all agree.
import { t } from "/static/i18n.js";
import { shortName } from "/static/table.js";

const $ = (id) => document.getElementById(id);

// vote: {proposer, agreed} or null; over: the match is over; me: this page's table
// seat (null: watching); seats: the table's seats ({seat, name, robot}) -- table seats
// all, never a hand's (a Cabrero match's last hand has fewer)
export function showRematch(vote, over, me, seats) {
  const box = $("rematch-box");
  const watching = me === null || me === undefined;
  $("rematch").hidden = watching || !over || Boolean(vote);
  box.hidden = watching || !over || !vote;
  if (box.hidden) return;
  const name = (s) => shortName((seats.find((x) => x.seat === s) || {}).name || "");
  const mine = vote.agreed.includes(me);
  const waiting = seats.filter((x) => !x.robot && !vote.agreed.includes(x.seat))
    .map((x) => name(x.seat)).join(", ");
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
