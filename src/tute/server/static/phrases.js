// Quick phrases and emoticons of the table's chat: sent as a key, shown to each reader
// in their own language; the emoticons drawn here (no emoji font needed).
import { t } from "/static/i18n.js";

export const PHRASES = ["hello", "well_played", "lucky", "good_hand_partner", "good_game",
  "thanks", "sorry", "one_more", "bye"];
const SVG = "http://www.w3.org/2000/svg";
// each face: a yellow circle, its eyes and its mouth (paths on a 24 by 24 box)
const FACES = {
  smile: { eyes: "M8 9.5v1.5M16 9.5v1.5", mouth: "M7.5 14.5q4.5 4 9 0" },
  laugh: { eyes: "M6.8 10l1.8-1.2 1.8 1.2M13.6 10l1.8-1.2 1.8 1.2", mouth: "M7 13.5h10q-1 5-5 5t-5-5z" },
  wink: { eyes: "M8 9.5v1.5M14.2 10.2h3.6", mouth: "M7.5 14.5q4.5 4 9 0" },
  wow: { eyes: "M8 9v2M16 9v2", mouth: "M12 13.5a2.2 2.6 0 1 0 .01 0z" },
  sad: { eyes: "M8 9.5v1.5M16 9.5v1.5", mouth: "M7.5 17q4.5-4 9 0" },
};
export const EMOTICONS = Object.keys(FACES);

export function face(key) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "emoticon");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t(`emoticon_${key}`));
  const parts = [["circle", { cx: 12, cy: 12, r: 10.5, fill: "#f5c542", stroke: "#9a6a00", "stroke-width": 1.2 }],
    ["path", { d: FACES[key].eyes, stroke: "#3b2a00", "stroke-width": 1.8, "stroke-linecap": "round", fill: "none" }],
    ["path", { d: FACES[key].mouth, stroke: "#3b2a00", "stroke-width": 1.6, "stroke-linecap": "round",
      fill: key === "laugh" || key === "wow" ? "#7a2a12" : "none" }]];
  for (const [tag, attrs] of parts) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.append(e);
  }
  return svg;
}

// what a phrase message shows: its words in the reader's language, or its face
export function shown(key) {
  if (FACES[key]) return face(key);
  return document.createTextNode(PHRASES.includes(key) ? t(`phrase_${key}`) : "");
}

// the picker under a chat form: a button per phrase and per face
export function wirePhrases(root, send) {
  const toggle = root.querySelector(".phrases-open");
  const box = root.querySelector(".phrases");
  if (!toggle || !box) return;
  const fill = () => {
    box.replaceChildren();
    for (const key of [...PHRASES, ...EMOTICONS]) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.phrase = key;
      if (FACES[key]) b.append(face(key));
      else b.textContent = t(`phrase_${key}`);
      b.onclick = () => { send({ type: "phrase", key }); box.hidden = true; };
      box.append(b);
    }
  };
  toggle.onclick = () => { box.hidden = !box.hidden; if (!box.hidden) fill(); };
}
