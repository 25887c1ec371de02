// The board as SVG, drawn from /board.json (made by the server from shared/board.py) and the
// public view: free lines, each player's bridges, the tokens, what each island's control needs.
// Lines the player can act on now are buttons (focusable, Enter or a click); every island and
// line has a label for screen readers.

import { svg } from "./dom.mjs";
import { seatName, t } from "./words.mjs";

function owner(pub, name) {
  if (pub.bridges.white.includes(name)) return "white";
  if (pub.bridges.black.includes(name)) return "black";
  return null;
}

function holder(pub, name) {
  if (pub.tokens.white.includes(name)) return "white";
  if (pub.tokens.black.includes(name)) return "black";
  return null;
}

// pub: the public view (or null before one came); active: Set of line indices the player can
// act on; selected: a line index or null; recent: Set of line names the last update touched.
export function drawBoard(board, pub, { active, selected, recent, onLine }) {
  const [x, y, w, h] = board.view_box;
  const root = svg("svg", {
    viewBox: `${x} ${y} ${w} ${h}`,
    class: "board",
    role: "group",
    "aria-label": t("The table"),
  });
  root.append(svg("rect", { x, y, width: w, height: h, rx: 24, class: "sea" }));
  board.lines.forEach((line, k) => {
    const who = pub ? owner(pub, line.name) : null;
    const state = who ? t("{seat}'s bridge", { seat: seatName(who) }) : t("free");
    const can = active.has(k);
    const classes = ["line", who ? `bridge ${who}` : "free"];
    if (can) classes.push("active");
    if (selected === k) classes.push("selected");
    if (recent.has(line.name)) classes.push("recent");
    const group = svg(
      "g",
      {
        class: classes.join(" "),
        "data-line": line.name,
        role: can ? "button" : "img",
        tabindex: can ? "0" : null,
        "aria-label": `${line.name}: ${state}`,
        "aria-pressed": can ? String(selected === k) : null,
      },
      svg("path", { d: line.d, class: "hit" }),
      svg("path", { d: line.d, class: "under" }),
      svg("path", { d: line.d, class: "over" }),
    );
    if (can) {
      group.addEventListener("click", () => onLine(k));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          onLine(k);
        }
      });
    }
    root.append(group);
  });
  const r = board.island_radius;
  for (const island of board.islands) {
    const who = pub ? holder(pub, island.name) : null;
    const need = t("needs {n} of {d} lines", { n: island.needed, d: island.degree });
    const held = who ? t("{seat}'s token", { seat: seatName(who) }) : t("no token");
    root.append(
      svg(
        "g",
        {
          class: `island${who ? ` held ${who}` : ""}`,
          "data-island": island.name,
          role: "img",
          "aria-label": `${island.name}: ${need}; ${held}`,
        },
        svg("circle", { cx: island.x, cy: island.y, r, class: "land" }),
        who ? svg("circle", { cx: island.x + r * 0.72, cy: island.y - r * 0.72, r: 11, class: `token ${who}` }) : null,
        svg("text", { x: island.x, y: island.y + 2, class: "name", text: island.name }),
        svg("text", {
          x: island.x,
          y: island.y + 21,
          class: "need",
          text: `${island.needed}/${island.degree}`,
        }),
      ),
    );
  }
  return root;
}
