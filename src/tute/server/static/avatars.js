// Faces: the site's drawn avatars (faceNN: a skin, a hair of some style and colour, a
// background), the robots' own, and -- for whoever chose none -- one drawn from the
// name (its initials on a colour the name decides).  Built as SVG elements here, from
// checked keys and our own tables only; a name goes in as text, never markup.
const SVG = "http://www.w3.org/2000/svg";
const SKIN = ["#f3cfb0", "#e2ae85", "#c68a5c", "#8d5a3b"];
const HAIR = ["#2b1b10", "#6b3e1e", "#c9962e", "#9a9a9a", "#a8321a"];
const BACK = ["#2b5ca8", "#2f7d4a", "#8a5a00", "#7b2d8e", "#b23a48", "#1e7f8c"];
// [skin, hair colour, hair style, background, beard]
const FACES = {
  face01: [0, 0, "short", 0, false], face02: [1, 2, "long", 4, false],
  face03: [2, 0, "bun", 1, false], face04: [3, 0, "short", 2, true],
  face05: [0, 4, "long", 3, false], face06: [1, 1, "cap", 5, false],
  face07: [2, 3, "bald", 0, true], face08: [0, 2, "short", 1, false],
  face09: [3, 1, "bun", 4, false], face10: [1, 0, "hat", 2, false],
  face11: [2, 4, "short", 3, true], face12: [0, 3, "long", 5, false],
};
export const AVATARS = Object.keys(FACES);

function node(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function frame(label) {
  const svg = node("svg", { viewBox: "0 0 40 40", class: "avatar", role: "img" });
  svg.setAttribute("aria-label", label);
  return svg;
}

function drawn(key, label) {
  const [skin, hair, style, back, beard] = FACES[key];
  const svg = frame(label);
  const h = HAIR[hair];
  svg.append(node("circle", { cx: 20, cy: 20, r: 20, fill: BACK[back] }));
  svg.append(node("path", { d: "M7 40q2-11 13-11t13 11z", fill: "#f4f1e8", opacity: 0.9 }));   // shoulders
  if (style === "long") svg.append(node("path", { d: "M9 24q-1-15 11-15t11 15v9h-22z", fill: h }));
  svg.append(node("circle", { cx: 20, cy: 20, r: 9, fill: SKIN[skin] }));
  if (style === "short" || style === "long" || style === "bun") {
    svg.append(node("path", { d: "M11 19q0-9 9-9t9 9q-4-4-9-4t-9 4z", fill: h }));
  }
  if (style === "bun") svg.append(node("circle", { cx: 20, cy: 9, r: 3.6, fill: h }));
  if (style === "cap") {
    svg.append(node("path", { d: "M11 17q0-8 9-8t9 8z", fill: BACK[(back + 2) % BACK.length] }));
    svg.append(node("rect", { x: 19, y: 15.5, width: 13, height: 2.4, rx: 1.2, fill: BACK[(back + 2) % BACK.length] }));
  }
  if (style === "hat") {
    svg.append(node("rect", { x: 8, y: 14, width: 24, height: 2.6, rx: 1.3, fill: "#2b2b2b" }));
    svg.append(node("path", { d: "M13 14.5q0-7 7-7t7 7z", fill: "#2b2b2b" }));
  }
  if (beard) svg.append(node("path", { d: "M12 21q1 9 8 9t8-9q-3 4-8 4t-8-4z", fill: h }));
  svg.append(node("circle", { cx: 16.6, cy: 20, r: 1.2, fill: "#2b1b10" }));
  svg.append(node("circle", { cx: 23.4, cy: 20, r: 1.2, fill: "#2b1b10" }));
  svg.append(node("path", { d: "M16.5 24.5q3.5 2.6 7 0", stroke: "#7a2a12", "stroke-width": 1.3,
    fill: "none", "stroke-linecap": "round" }));
  return svg;
}

function robot(label) {
  const svg = frame(label);
  svg.append(node("circle", { cx: 20, cy: 20, r: 20, fill: "#4a5560" }));
  svg.append(node("line", { x1: 20, y1: 6, x2: 20, y2: 11, stroke: "#cfd6dc", "stroke-width": 1.6 }));
  svg.append(node("circle", { cx: 20, cy: 5.5, r: 2, fill: "#e8b923" }));
  svg.append(node("rect", { x: 10, y: 11, width: 20, height: 17, rx: 4, fill: "#cfd6dc" }));
  svg.append(node("circle", { cx: 15.5, cy: 18.5, r: 2.4, fill: "#1e7f8c" }));
  svg.append(node("circle", { cx: 24.5, cy: 18.5, r: 2.4, fill: "#1e7f8c" }));
  svg.append(node("rect", { x: 15, y: 23, width: 10, height: 2, rx: 1, fill: "#4a5560" }));
  svg.append(node("path", { d: "M9 40q1-9 11-9t11 9z", fill: "#cfd6dc" }));
  return svg;
}

function hash(text) {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return h;
}

function initials(name, label) {
  const svg = frame(label);
  const words = name.replace(/\(.*\)/, "").trim().split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0].toUpperCase()).join("") || "?";
  svg.append(node("circle", { cx: 20, cy: 20, r: 20, fill: BACK[hash(name) % BACK.length] }));
  const text = node("text", { x: 20, y: 25.5, "text-anchor": "middle", "font-size": letters.length > 1 ? 15 : 17,
    "font-family": "system-ui, sans-serif", "font-weight": 700, fill: "#fff" });
  text.textContent = letters;                     // text, never markup
  svg.append(text);
  return svg;
}

// a face: the avatar chosen (a key of the set), a robot's, or one from the name
export function face(key, name, isRobot = false) {
  const label = name || "";
  if (isRobot || key === "robot") return robot(label);
  if (typeof key === "string" && Object.prototype.hasOwnProperty.call(FACES, key)) return drawn(key, label);
  return initials(label, label);
}

// the face of a seat's person by name, from the table's seats ({name, avatar, robot})
export function seatFace(seats, name) {
  const found = (seats || []).find((x) => x && x.name === name);
  return face(found ? found.avatar : null, name, Boolean(found && found.robot));
}
