// Short sounds made by the browser itself (Web Audio; no files): a card laid, a trick
// won, a cante, your turn.  Silent until the player has touched the page (browsers
// refuse sound before that) and whenever the setting is off.
import { settings } from "/static/settings.js";

let context = null;
function audio() {
  if (!context) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    context = new Ctx();
  }
  return context;
}
document.addEventListener("pointerdown", () => { const c = audio(); if (c) c.resume(); },
  { once: true });

function tone(freq, start, length, type = "sine", volume = 0.12) {
  const c = audio();
  if (!c || c.state !== "running") return;
  const osc = c.createOscillator(), gain = c.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t0 = c.currentTime + start;
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(c.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

const SOUNDS = {
  card: () => tone(220, 0, 0.07, "triangle", 0.18),
  trick: () => { tone(523, 0, 0.12); tone(659, 0.1, 0.18); },
  cante: () => { tone(523, 0, 0.3); tone(659, 0.05, 0.3); tone(784, 0.1, 0.4); },
  turn: () => tone(880, 0, 0.15, "sine", 0.08),
};

export function play(name) {
  if (!settings.sound || !SOUNDS[name]) return;
  try { SOUNDS[name](); } catch { /* no audio here */ }
}
