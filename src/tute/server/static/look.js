// How the cards look, kept in this browser: the deck's style (the classic Spanish deck,
// or four colours: each suit's face in its own colour) and the cards' size, with a
// sample of the four suits drawn as they will be.
import { cardSVG, setDeck } from "/static/cards.js";
import { t } from "/static/i18n.js";
import { save, settings, SIZES } from "/static/settings.js";

const $ = (id) => document.getElementById(id);
const SAMPLE = ["Ao", "3c", "Re", "7b"];

export function applyLook() {
  setDeck(settings.deck);
  document.documentElement.dataset.cards = SIZES.includes(settings.size) ? settings.size : "normal";
}

function sample() {
  const row = $("look-sample");
  row.replaceChildren();
  for (const code of SAMPLE) {
    const d = document.createElement("div");
    d.className = "card";
    d.innerHTML = cardSVG(code);              // markup from a checked card code only
    row.append(d);
  }
}

export function wireLook(redraw) {
  applyLook();
  $("deck").value = settings.deck;
  $("card-size").value = settings.size;
  $("look-open").onclick = () => {
    $("look-box").hidden = !$("look-box").hidden;
    if (!$("look-box").hidden) sample();
  };
  $("look-close").onclick = () => { $("look-box").hidden = true; };
  const changed = () => {
    save({ deck: $("deck").value, size: $("card-size").value });
    applyLook();
    sample();
    redraw();
  };
  $("deck").onchange = changed;
  $("card-size").onchange = changed;
  $("look-open").title = t("look");
}
