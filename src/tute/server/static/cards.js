// Spanish cards drawn as SVG by our own code: oros, copas, espadas, bastos.
const COLOURS = { o: "#c8960c", c: "#c0282d", e: "#2b5ca8", b: "#3f7a2e" };
const NUMBERS = { A: "1", S: "10", C: "11", R: "12" };

function pip(suit, x, y, s) {
  const c = COLOURS[suit];
  if (suit === "o") {
    return `<circle cx="${x}" cy="${y}" r="${9 * s}" fill="${c}" stroke="#7a5a00" stroke-width="1.5"/>` +
      `<circle cx="${x}" cy="${y}" r="${4 * s}" fill="none" stroke="#fff3c4" stroke-width="1.2"/>`;
  }
  if (suit === "c") {
    return `<path d="M${x - 9 * s},${y - 8 * s} h${18 * s} q0,${12 * s} ${-9 * s},${13 * s} ` +
      `q${-9 * s},${-1 * s} ${-9 * s},${-13 * s} z" fill="${c}"/>` +
      `<rect x="${x - 2 * s}" y="${y + 5 * s}" width="${4 * s}" height="${6 * s}" fill="${c}"/>` +
      `<rect x="${x - 6 * s}" y="${y + 10 * s}" width="${12 * s}" height="${2.5 * s}" fill="${c}"/>`;
  }
  if (suit === "e") {
    return `<rect x="${x - 1.6 * s}" y="${y - 13 * s}" width="${3.2 * s}" height="${20 * s}" fill="${c}"/>` +
      `<rect x="${x - 7 * s}" y="${y + 6 * s}" width="${14 * s}" height="${2.5 * s}" fill="${c}"/>` +
      `<rect x="${x - 1.6 * s}" y="${y + 8 * s}" width="${3.2 * s}" height="${5 * s}" fill="#6b4a1f"/>`;
  }
  return `<rect x="${x - 3 * s}" y="${y - 13 * s}" width="${6 * s}" height="${26 * s}" rx="${3 * s}" ` +
    `fill="${c}" transform="rotate(-20 ${x} ${y})"/>`;
}

const CODE = /^(A|[2-9]|S|C|R)[oceb]$/;

// Markup from a card code only: anything that is not a card code is refused.
export function cardSVG(code) {
  if (typeof code !== "string" || !CODE.test(code)) throw new Error(`not a card: ${code}`);
  const rank = code.slice(0, -1), suit = code.slice(-1);
  const n = NUMBERS[rank] || rank;
  const c = COLOURS[suit];
  const count = { A: 1, S: 1, C: 1, R: 1 }[rank] || Math.min(Number(rank), 7);
  let pips = "";
  const spots = [[30, 45], [30, 25], [30, 65], [18, 35], [42, 35], [18, 55], [42, 55]];
  const chosen = count === 1 ? [spots[0]] : count === 2 ? [spots[1], spots[2]] :
    count === 3 ? [spots[0], spots[1], spots[2]] : spots.slice(1, 1 + Math.min(count, 6));
  for (const [x, y] of chosen) pips += pip(suit, x, y, count === 1 ? 1.4 : 0.8);
  const figure = { S: "S", C: "C", R: "R" }[rank];
  const label = figure ? `<text x="27" y="72" font-size="9" text-anchor="middle" fill="${c}">${
    { S: "sota", C: "caballo", R: "rey" }[rank]}</text>` : "";
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${code}">` +
    `<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf6" stroke="#444"/>` +
    `<text x="6" y="14" font-size="12" font-weight="bold" fill="${c}">${n}</text>` +
    `<text x="54" y="84" font-size="12" font-weight="bold" fill="${c}" text-anchor="end">${n}</text>` +
    pips + label + `</svg>`;
}
