// What the board's marks mean (a legend, with the same marks drawn small, and the keys), and
// the board as text for those who do not see it: each island's owner and what its control
// needs, each line's bridge, the last turn.

import { el, svg } from "./dom.mjs";
import { holder, needWords, owner } from "./board.mjs";
import { seatName, t } from "./words.mjs";

// A sample of a mark, drawn small in its colours (its own classes, web/table.css: not the
// board's, which the page's code and tests look for).
const STROKES = {
  playable: ["playable-mark", "playable-over"],
  free: ["free"],
  white: ["white-under", "white-over"],
  black: ["black-under", "black-over"],
  recent: ["recent-under", "black-over"],
};

function sample(kind) {
  const root = svg("svg", { viewBox: "0 0 64 28", class: "sample", "aria-hidden": "true" });
  root.append(svg("rect", { x: 0, y: 0, width: 64, height: 28, class: "s-sea" }));
  if (kind === "island") {
    root.append(svg("circle", { cx: 32, cy: 14, r: 11, class: "s-ring" }), svg("circle", { cx: 32, cy: 14, r: 8, class: "s-land" }));
    return root;
  }
  for (const stroke of STROKES[kind]) root.append(svg("path", { d: "M6 14L58 14", class: `s-${stroke}` }));
  return root;
}

function item(kind, words) {
  return el("li", {}, sample(kind), el("span", { text: words }));
}

export function legendNode(open) {
  return el(
    "details",
    { class: "legend-box", id: "legend", open },
    el("summary", { text: t("Legend and keys") }),
    el(
      "ul",
      { class: "legend-list" },
      item("playable", t("a line you can bridge (or whose bridge you can remove) now")),
      item("island", t("an island whose card you can play now")),
      item("free", t("a free line")),
      item("white", t("{seat}'s bridge", { seat: seatName("white") })),
      item("black", t("{seat}'s bridge", { seat: seatName("black") })),
      item("recent", t("the last turn's bridges and tokens")),
      el("li", {}, el("span", { class: "sample-text", text: "3/5" }), el("span", { text: t("bridges on 3 of the island's 5 lines win it, with a token: more than half") })),
    ),
    el("p", { class: "keys", text: t("Keys: 1 to 5 pick a card, n and p the next and previous playable line, Enter acts, d draws, a abstains, u undoes, Esc drops the pick.") }),
  );
}

// The board as text, for screen readers and anyone who prefers a list.
export function boardTextNode(board, pub, known, open) {
  const islands = board.islands.map((island) => {
    const who = holder(pub, island.name);
    const count = (seat) => board.lines.filter((l) => (l.a === board.islands.indexOf(island) || l.b === board.islands.indexOf(island)) && owner(pub, l.name) === seat).length;
    const held = who ? t("{seat}'s token", { seat: seatName(who) }) : t("no token");
    const bridges = t("bridges: White {w}, Black {b}", { w: count("white"), b: count("black") });
    return el("li", { text: `${island.name}: ${held}; ${needWords(island)}; ${bridges}` });
  });
  const lines = board.lines.map((line) => {
    const who = owner(pub, line.name);
    return el("li", { text: `${line.name}: ${who ? t("{seat}'s bridge", { seat: seatName(who) }) : t("free")}` });
  });
  const last = known.log.length ? known.log[known.log.length - 1] : "";
  return el(
    "details",
    { class: "board-text", id: "board-text", open },
    el("summary", { text: t("The board as text") }),
    last ? el("p", { text: `${t("Last:")} ${last}` }) : null,
    el("h2", { text: t("Islands") }),
    el("ul", {}, ...islands),
    el("h2", { text: t("Lines") }),
    el("ul", {}, ...lines),
  );
}
