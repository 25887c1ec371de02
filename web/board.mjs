// The board as SVG, drawn from /board.json (made by the server from shared/board.py) and the
// public view: free lines, each player's bridges, the tokens, what each island's control needs.
// Lines the player can act on now are buttons (focusable, Enter or a click) marked in the
// playable colour, with the islands they start from; the last turn's lines and islands have a
// mark of their own; every island and line has a label for screen readers, and an island's
// "3/5" its explanation on hover (title) and long press. A click on any line goes to onLine,
// which acts or says why not; a tap goes to onTap with the point, for the nearest line.

import { svg } from "./dom.mjs";
import { seatName, t } from "./words.mjs";

export function owner(pub, name) {
  if (pub.bridges.white.includes(name)) return "white";
  if (pub.bridges.black.includes(name)) return "black";
  return null;
}

export function holder(pub, name) {
  if (pub.tokens.white.includes(name)) return "white";
  if (pub.tokens.black.includes(name)) return "black";
  return null;
}

// An island's "3/5" in words.
export function needWords(island) {
  return t("needs {n} of {d} lines", { n: island.needed, d: island.degree });
}

export function islandWords(pub, island) {
  const who = pub ? holder(pub, island.name) : null;
  const held = who ? t("{seat}'s token", { seat: seatName(who) }) : t("no token");
  return `${island.name}: ${needWords(island)}; ${held}`;
}

// How long a press is long (ms): then an island says its "3/5" in words.
const LONG_PRESS = 500;

function islandNode(board, pub, island, { playable, recentIslands, fresh, onIsland }) {
  const r = board.island_radius;
  const who = pub ? holder(pub, island.name) : null;
  const classes = ["island"];
  if (who) classes.push("held", who);
  if (playable.has(island.name)) classes.push("playable");
  if (recentIslands.has(island.name)) classes.push("recent");
  if (fresh && fresh.islands.has(island.name)) classes.push("fresh");
  const group = svg(
    "g",
    { class: classes.join(" "), "data-island": island.name, role: "img", "aria-label": islandWords(pub, island) },
    svg("title", { text: `${island.name}: ${needWords(island)}` }),
    svg("circle", { cx: island.x, cy: island.y, r: r + 9, class: "ring" }),
    svg("circle", { cx: island.x, cy: island.y, r, class: "land" }),
    who ? svg("circle", { cx: island.x + r * 0.72, cy: island.y - r * 0.72, r: 14, class: `token ${who}` }) : null,
    svg("text", { x: island.x, y: island.y + 1, class: "name", text: island.name }),
    svg("text", { x: island.x, y: island.y + 27, class: "need", text: `${island.needed}/${island.degree}` }),
  );
  let timer = null;
  group.addEventListener("pointerdown", () => {
    timer = setTimeout(() => onIsland(island), LONG_PRESS);
  });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
    group.addEventListener(end, () => clearTimeout(timer));
  }
  group.addEventListener("contextmenu", (event) => event.preventDefault());
  return group;
}

function lineNode(pub, line, k, { active, selected, recent, fresh, onLine }) {
  const who = pub ? owner(pub, line.name) : null;
  const state = who ? t("{seat}'s bridge", { seat: seatName(who) }) : t("free");
  const can = active.has(k);
  const classes = ["line", who ? `bridge ${who}` : "free"];
  if (can) classes.push("active");
  if (selected === k) classes.push("selected");
  if (recent.has(line.name)) classes.push(who ? "recent" : "recent gone");
  if (fresh && fresh.placed.has(line.name) && who) classes.push("fresh");
  if (fresh && fresh.removed.has(line.name) && !who) classes.push("fresh");
  const group = svg(
    "g",
    {
      class: classes.join(" "),
      "data-line": line.name,
      role: can ? "button" : "img",
      tabindex: can ? "0" : "-1",
      "aria-label": `${line.name}: ${state}`,
      "aria-pressed": can ? String(selected === k) : null,
    },
    svg("path", { d: line.d, class: "hit" }),
    svg("path", { d: line.d, class: "mark" }),
    svg("path", { d: line.d, class: "under" }),
    svg("path", { d: line.d, class: "over" }),
  );
  group.addEventListener("click", (event) => onLine(k, event));
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onLine(k, event);
    }
  });
  return group;
}

// pub: the public view (or null before one came); active: Set of line indices the player can
// act on; playable: Set of the islands whose cards play on them; selected: a line index or null; recent, recentIslands: Sets of the names the last
// turn touched; fresh: what the last update changed (animated), or null.
export function drawBoard(board, pub, marks) {
  const [x, y, w, h] = board.view_box;
  const root = svg("svg", {
    viewBox: `${x} ${y} ${w} ${h}`,
    class: "board",
    role: "group",
    "aria-label": t("The table"),
  });
  root.append(svg("rect", { x, y, width: w, height: h, rx: 24, class: "sea" }));
  board.lines.forEach((line, k) => root.append(lineNode(pub, line, k, marks)));
  for (const island of board.islands) root.append(islandNode(board, pub, island, marks));
  root.addEventListener("click", (event) => {
    if (event.target === root || event.target.classList.contains("sea")) marks.onTap(event);
  });
  return root;
}

// The board's point (in its units) under a pointer event.
export function boardPoint(root, event) {
  const m = root.getScreenCTM().inverse();
  return { x: m.a * event.clientX + m.c * event.clientY + m.e, y: m.b * event.clientX + m.d * event.clientY + m.f };
}

// The line nearest a point of the board, among `lines` (indices), and its distance in board
// units: sampled along each drawn curve.
export function nearestLine(root, point, lines) {
  let best = null;
  for (const k of lines) {
    const path = root.querySelectorAll(".line path.over")[k];
    const length = path.getTotalLength();
    for (let i = 0; i <= 24; i += 1) {
      const p = path.getPointAtLength((length * i) / 24);
      const d = Math.hypot(p.x - point.x, p.y - point.y);
      if (!best || d < best.distance) best = { line: k, distance: d };
    }
  }
  return best;
}
