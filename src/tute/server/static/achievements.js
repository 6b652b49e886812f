// Achievements ("conquistas"): their badges (the drawings of badges.svg), names and
// descriptions in the reader's language, the profile's list, and the table's news
// when someone earns one ("¡Ana consigue «Tute de reyes»!").
import { t } from "/static/i18n.js";

const SVG = "http://www.w3.org/2000/svg";

export function badge(key, earned = true) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 64 64");
  svg.setAttribute("class", earned ? "ach-badge" : "ach-badge locked");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `/static/badges.svg#ach-${key}`);
  svg.append(use);
  return svg;
}

const game = (key) => t(`preset_${key.slice("games_".length)}`);

export function title(key) {
  return key.startsWith("games_") ? t("ach_games", { game: game(key) }) : t(`ach_${key}`);
}

export function about(key, goal) {
  return key.startsWith("games_") ? t("ach_games_about", { goal, game: game(key) })
    : t(`ach_${key}_about`, { goal });
}

const day = (at) => new Date(at * 1000).toLocaleDateString(document.documentElement.lang);

// the profile: every achievement as a tile (its badge, its name, the date it was earned
// or how far along it is), earned ones first (newest first), then the rest in the
// catalogue's order; a tap on a tile says what it asks for, below the tiles
export function renderAchievements(list, box, summary, detail) {
  box.replaceChildren();
  const done = list.filter((a) => a.at !== null).sort((a, b) => b.at - a.at);
  const rest = list.filter((a) => a.at === null);
  summary.textContent = t("ach_summary", { n: done.length, total: list.length });
  const tell = (a, li) => {
    for (const other of box.querySelectorAll("li.open")) other.classList.remove("open");
    li.classList.add("open");
    detail.replaceChildren();
    const name = document.createElement("strong");
    name.textContent = title(a.key);
    detail.append(name, document.createTextNode(` · ${about(a.key, a.goal)}`));
  };
  for (const a of [...done, ...rest]) {
    const li = document.createElement("li");
    li.className = a.at !== null ? "earned" : "locked";
    li.dataset.key = a.key;
    li.tabIndex = 0;
    li.title = about(a.key, a.goal);
    const name = document.createElement("strong");
    name.textContent = title(a.key);
    const when = document.createElement("span");
    when.className = "when";
    if (a.at !== null) when.textContent = t("ach_earned_on", { date: day(a.at) });
    else if (a.goal > 1) {
      const bar = document.createElement("progress");
      bar.max = a.goal;
      bar.value = a.count;
      when.append(bar, t("ach_progress", { count: a.count, goal: a.goal }));
    }
    li.append(badge(a.key, a.at !== null), name, when);
    li.onclick = () => tell(a, li);
    li.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tell(a, li); } };
    box.append(li);
  }
  detail.textContent = t("ach_tap");
}

// the table's news: one line per achievement earned, with its badge
export function earnedLines(ev, mySeat, name) {
  return ev.keys.map((key) => {
    const p = document.createElement("p");
    p.className = "earned-news";
    p.dataset.key = key;
    const words = ev.seat === mySeat ? t("earned_you", { title: title(key) })
      : t("earned", { name, title: title(key) });
    p.append(badge(key), document.createTextNode(words));
    return p;
  });
}
