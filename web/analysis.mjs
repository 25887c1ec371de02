// After the game: the server's analysis of a finished game (protocol version 3's `analyse`,
// docs/protocol.md), drawn as a chart of White's chance of winning over the turns, with the
// inaccuracies, mistakes and blunders marked (a shape and a letter each: readable without
// colour), the turning points as buttons, and the line of the turn chosen (a click on the chart or a
// turning point, or the arrow keys on the chart): who, the chances before and after, the cost,
// the mark, the turn the search prefers in words, and apart the luck of the card the turn
// turned up (version 4). Each player's sum, and each player's luck in all. A table of every
// turn is the chart's text alternative. The sentences are the terminal client's
// (client/analysis_view.py, client/hint.py) wherever it has them.

import { el, svg } from "./dom.mjs";
import { playWords } from "./events.mjs";
import { _, fmt, language, ngettext, seatName, t } from "./words.mjs";

// table id -> {done, total, result, selected, error}
const analyses = new Map();

export function analysisOf(tableId) {
  return analyses.get(tableId) || null;
}

// A new connection (after a drop): the server forgot the analyses under way for the old one,
// so their Analyse button comes back; those done stay.
export function forgetUnfinished() {
  for (const [id, known] of analyses) if (!known.result) analyses.delete(id);
}

// Ask for the analysis (at most once at a time: the server answers `busy` to more).
export function requestAnalysis(tableId, send) {
  const known = analyses.get(tableId);
  if (known && !known.error) return; // under way, or done
  if (send("analyse", { table_id: tableId })) {
    analyses.set(tableId, { done: 0, total: 0, result: null, selected: null, error: null });
  }
}

// The server's messages of the analysis; true when the message was one of them.
export function analysisMessage(m) {
  if (m.type === "analysis_progress") {
    const known = analyses.get(m.table_id) || { result: null, selected: null };
    analyses.set(m.table_id, { ...known, done: m.done, total: m.total, error: null });
    return true;
  }
  if (m.type === "analysis") {
    const known = analyses.get(m.table_id) || {};
    const points = m.turning_points;
    const selected = known.selected || (points.length ? points[0] : m.turns.length ? 1 : null);
    analyses.set(m.table_id, { done: m.turns.length, total: m.turns.length, result: m, selected, error: null });
    return true;
  }
  if (m.type === "error" && m.refused === "analyse" && m.table_id) {
    const known = analyses.get(m.table_id);
    if (known && known.result) return true; // a late refusal changes nothing shown
    analyses.set(m.table_id, { done: 0, total: 0, result: null, selected: null, error: m });
    return true;
  }
  return false;
}

// ----- words ----------------------------------------------------------------------------------

// A refused analyse in words (the English `message` for a code the page does not know).
function refusalWords(error) {
  if (error.code === "busy") {
    return error.reason === "your_analysis"
      ? t("Your other analysis must end first.")
      : t("The server is busy with other analyses; try again in a moment.");
  }
  const words = {
    game_not_over: t("The analysis comes when the game is over."),
    no_such_game: t("This game is not kept on the server."),
  };
  return words[error.code] || error.message;
}

const percent = (chance) => `${Math.round(chance * 100)}%`;

// shared/analysis.py's NOISE and LUCK_NOTE: a cost within NOISE standard errors is none, and
// the luck of a turn's card is worth a note from LUCK_NOTE either way.
const NOISE = 2;
const LUCK_NOTE = 0.05;

// The cost shown: none when it is within the noise of its estimate.
const shownCost = (turn) => (turn.cost > NOISE * (turn.noise || 0) ? turn.cost : 0);

function and(names) {
  if (names.length === 1) return names[0];
  return fmt(_("{some} and {last}"), { some: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

// A reason of shared/reasons.py in words: client/hint.py's reason_words, sentence for sentence.
export function reasonWords(code, p) {
  const islands = (key) => and(String(p[key]).split("+"));
  const other = () => seatName(p.other);
  switch (code) {
    case "wins_sweeping":
      return fmt(
        ngettext("wins {islands} and sweeps away {n} of {other}'s bridges", "wins {islands} and sweeps away {n} of {other}'s bridges", Number(p.n)),
        { islands: islands("islands"), n: p.n, other: other() },
      );
    case "wins":
      return fmt(_("wins {islands}"), { islands: islands("islands") });
    case "blocks":
      return fmt(_("blocks {other} from {islands}"), { other: other(), islands: islands("islands") });
    case "strengthens":
      return fmt(_("strengthens {a} and {b}, both yours"), { a: p.a, b: p.b });
    case "toward":
      return fmt(_("builds toward {island}, {have} of the {needed} bridges it needs"), p);
    case "takes":
    case "breaks": {
      let what = code === "takes"
        ? fmt(_("takes {islands} from {other} (the bridge {line})"), { islands: islands("islands"), other: other(), line: p.line })
        : fmt(_("breaks {other}'s bridge {line}"), { other: other(), line: p.line });
      if (p.won) what += ` ${fmt(_("and builds there, winning {islands}"), { islands: islands("won") })}`;
      else if (p.rebuild) what += ` ${_("and builds there")}`;
      return what;
    }
    case "discards":
      return fmt(_("discards {card}: the card it needs least"), p);
    case "takes_card":
      return fmt(_("ends the turn taking {card}, the face-up card it wants most"), p);
    case "draws":
      return _("ends the turn drawing from the pile: no face-up card is worth more");
    case "abstains":
      return _("ends the turn without drawing");
    case "ends":
      return _("ends the last turn: no play is worth a card");
    default:
      return (p && p.action) || code;
  }
}

// What the card a turn turned up gave or cost, in words (client/analysis_view.py's
// luck_words); "" under LUCK_NOTE, and from a server that sends no luck.
export function luckWords(turn) {
  const luck = turn.luck || 0;
  if (Math.abs(luck) < LUCK_NOTE) return "";
  const n = Math.round(Math.abs(luck) * 100);
  const drew = turn.played.length && turn.played[turn.played.length - 1] === "draw";
  let text;
  if (drew && luck > 0) text = ngettext("the draw gave {n} point of chance", "the draw gave {n} points of chance", n);
  else if (drew) text = ngettext("the draw cost {n} point of chance", "the draw cost {n} points of chance", n);
  else if (luck > 0) {
    text = ngettext("the cards turned up gave {n} point of chance", "the cards turned up gave {n} points of chance", n);
  } else {
    text = ngettext("the cards turned up cost {n} point of chance", "the cards turned up cost {n} points of chance", n);
  }
  return fmt(text, { n: String(n) });
}

// A player's luck in all (client/analysis_view.py's luck_line).
function luckLine(player) {
  const luck = player.luck || 0;
  const n = Math.round(Math.abs(luck) * 100);
  const text = luck >= 0
    ? ngettext(
        "{seat}'s luck: the cards turned up gave {n} point of chance in all",
        "{seat}'s luck: the cards turned up gave {n} points of chance in all",
        n,
      )
    : ngettext(
        "{seat}'s luck: the cards turned up cost {n} point of chance in all",
        "{seat}'s luck: the cards turned up cost {n} points of chance in all",
        n,
      );
  return fmt(text, { seat: seatName(player.seat), n: String(n) });
}

// The luck of a turn's card in the table: signed points, nothing when none was turned up.
function luckCell(turn) {
  const n = Math.round((turn.luck || 0) * 100);
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "";
}

function markWord(mark) {
  const words = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
  return mark ? words[mark] || mark : "";
}

// The sign a mark has on the chart and in the table, as chess writes them.
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function playerName(players, seat) {
  const p = players ? players[seat] : null;
  return p ? p.name : "";
}

// The chosen turn's line, in words: its parts, the first saying whose turn it was.
export function turnLine(turn, players) {
  const parts = [];
  const who = playerName(players, turn.seat);
  const seat = who ? `${seatName(turn.seat)}, ${who}` : seatName(turn.seat);
  const head = fmt(_("turn {n} ({seat})"), { n: turn.number, seat });
  parts.push(turn.mark ? `${head}: ${SIGNS[turn.mark]} ${markWord(turn.mark)}` : head);
  if (turn.played.length) parts.push(t("played: {plays}", { plays: turn.played.map(playWords).join(", ") }));
  parts.push(
    t("chance of winning {before} → {after}, cost {cost}", {
      before: percent(turn.before),
      after: percent(turn.after),
      cost: String(Math.round(shownCost(turn) * 100)),
    }),
  );
  if (turn.best) {
    const same = turn.played.length && turn.played[0].toLowerCase() === turn.best.toLowerCase();
    const play = playWords(turn.best);
    const why = reasonWords(turn.reason, turn.params || {});
    if (same) parts.push(t("the search would begin the turn the same way: {play}", { play }));
    else if (turn.mark) parts.push(fmt(_("better: {play} ({why})"), { play, why }));
    else parts.push(t("the search's choice: {play} ({why})", { play, why }));
  }
  const luck = luckWords(turn);
  if (luck) parts.push(luck);
  return parts;
}

// How many turns had the mark, in words ("2 mistakes"): client/analysis_view.py's mark_count.
function markCount(mark, count) {
  let text;
  if (mark === "inaccuracy") text = ngettext("{n} inaccuracy", "{n} inaccuracies", count);
  else if (mark === "mistake") text = ngettext("{n} mistake", "{n} mistakes", count);
  else text = ngettext("{n} blunder", "{n} blunders", count);
  return fmt(text, { n: String(count) });
}

function summaryLine(player) {
  const marks = [
    [player.inaccuracies, "inaccuracy"],
    [player.mistakes, "mistake"],
    [player.blunders, "blunder"],
  ]
    .filter(([count]) => count)
    .map(([count, mark]) => markCount(mark, count))
    .join(", ");
  // the catalogue's sentence has a Python format spec for the cost: filled in here, with the
  // language's decimal sign (5,5 in German and Italian, not 5.5)
  const cost = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const sentence = _("{seat}: average cost {cost:.1f} points of chance a turn; {marks}").replace(
    "{cost:.1f}",
    cost.format(player.average_cost * 100),
  );
  return fmt(sentence, { seat: seatName(player.seat), marks: marks || _("no marks") });
}

// ----- the chart --------------------------------------------------------------------------------

// The chart's units are about the screen's pixels (its width is the page's, measured when it
// is drawn), so that its words and marks keep their size on a phone.
const H = 220;
const LEFT = 44;
const RIGHT = 18; // room for a mark on the last turn
const TOP = 12;
const BOTTOM = 26;

// White's chance at each point of the chart: before the first turn, then after each.
function whiteLine(result) {
  const first = result.turns[0];
  const start = first ? (first.seat === "white" ? first.before : 1 - first.before) : 0.5;
  return [start, ...result.turns.map((turn) => turn.white)];
}

function chartWidth() {
  const main = document.getElementById("main");
  const room = main ? main.clientWidth - 16 : 640;
  return Math.round(Math.min(900, Math.max(300, room)));
}

function chart(result, selected, choose) {
  const W = chartWidth();
  const n = result.turns.length;
  const values = whiteLine(result);
  const x = (i) => LEFT + ((W - LEFT - RIGHT) * i) / Math.max(n, 1);
  const y = (v) => TOP + (H - TOP - BOTTOM) * (1 - v);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const area = `${x(0).toFixed(1)},${y(0).toFixed(1)} ${points} ${x(n).toFixed(1)},${y(0).toFixed(1)}`;
  const parts = [
    svg("rect", { class: "plot", x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM }),
    ...[1, 0.5, 0].map((v) =>
      svg("text", { class: "axis", x: LEFT - 6, y: y(v) + 4, "text-anchor": "end" }, `${v * 100}%`),
    ),
    svg("line", { class: "half", x1: LEFT, x2: W - RIGHT, y1: y(0.5), y2: y(0.5) }),
    svg("polygon", { class: "white-area", points: area }),
    svg("polyline", { class: "chance", points }),
  ];
  const step = n > 60 ? 20 : n > 24 ? 10 : 5;
  for (let i = step; i <= n; i += step) {
    parts.push(svg("text", { class: "axis", x: x(i), y: H - 8, "text-anchor": "middle" }, String(i)));
  }
  if (selected) {
    parts.push(svg("line", { class: "cursor", x1: x(selected), x2: x(selected), y1: TOP, y2: H - BOTTOM }));
  }
  for (const turn of result.turns) {
    if (!Object.hasOwn(SIGNS, turn.mark)) continue;
    const cx = x(turn.number);
    const cy = y(values[turn.number]);
    // the summary counts the inaccuracies too, so the chart shows them, smaller than the rest
    const shape = turn.mark === "blunder"
      ? svg("rect", { x: cx - 8, y: cy - 8, width: 16, height: 16, transform: `rotate(45 ${cx} ${cy})` })
      : svg("circle", { cx, cy, r: turn.mark === "mistake" ? 8 : 7 });
    parts.push(
      svg(
        "g",
        { class: `mark ${turn.mark}`, "data-turn": turn.number, "aria-hidden": "true" },
        shape,
        svg("text", { x: cx, y: cy + 4, "text-anchor": "middle" }, SIGNS[turn.mark]),
      ),
    );
  }
  if (selected) {
    parts.push(svg("circle", { class: "chosen", cx: x(selected), cy: y(values[selected]), r: 12 }));
  }
  // a column a turn to click on, over everything
  const width = (W - LEFT - RIGHT) / Math.max(n, 1);
  for (const turn of result.turns) {
    parts.push(
      svg("rect", {
        class: "hit",
        x: x(turn.number) - width / 2,
        y: TOP,
        width,
        height: H - TOP - BOTTOM,
        "data-turn": turn.number,
        onclick: () => choose(turn.number),
      }),
    );
  }
  const chosen = selected ? result.turns[selected - 1] : null;
  return svg(
    "svg",
    {
      class: "analysis-chart",
      id: "analysis-chart",
      viewBox: `0 0 ${W} ${H}`,
      role: "slider",
      tabindex: 0,
      "aria-label": _("White's chance of winning, turn by turn:"),
      "aria-valuemin": 1,
      "aria-valuemax": n,
      "aria-valuenow": selected || 1,
      "aria-valuetext": chosen ? `${turnLine(chosen, null).join("; ")}; ${t("White's chance")} ${percent(chosen.white)}` : "",
      onkeydown: (event) => {
        const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
        let next = null;
        if (event.key in moves) next = (selected || 1) + moves[event.key];
        else if (event.key === "Home") next = 1;
        else if (event.key === "End") next = n;
        if (next === null) return;
        event.preventDefault();
        choose(Math.min(n, Math.max(1, next)));
      },
    },
    ...parts,
  );
}

// ----- the panel ----------------------------------------------------------------------------

// The analysis part of a finished game's page: the button, the progress, or the analysis.
// `players` names the players (the table's), or null; `rerender()` redraws the page.
export function analysisPanel(tableId, players, send, rerender) {
  const known = analyses.get(tableId);
  const heading = el("h2", { text: _("Analysis: each turn judged from its player's own view") });
  if (!known || (!known.result && known.error)) {
    return el(
      "section",
      { class: "analysis", "aria-label": t("Analyse") },
      heading,
      known && known.error ? el("p", { class: "notice", role: "status", text: refusalWords(known.error) }) : null,
      el("button", {
        type: "button",
        id: "analyse",
        text: t("Analyse"),
        onclick: () => {
          requestAnalysis(tableId, send);
          rerender();
        },
      }),
    );
  }
  if (!known.result) {
    const words = known.total ? fmt(_("analysing {done}/{total}"), { done: known.done, total: known.total }) : `${_("analysing")}...`;
    return el(
      "section",
      { class: "analysis", "aria-label": t("Analyse") },
      heading,
      el("p", { class: "progress-line", role: "status", text: words }),
      el("progress", { id: "analysis-progress", max: Math.max(known.total, 1), value: known.done, "aria-label": words }),
    );
  }
  const result = known.result;
  if (!result.turns.length) {
    return el(
      "section",
      { class: "analysis", "aria-label": t("Analyse") },
      heading,
      el("p", { class: "notice", text: t("The game ended before a turn was played: there is nothing to analyse.") }),
    );
  }
  const choose = (number) => {
    known.selected = number;
    rerender();
    const again = document.getElementById("analysis-chart");
    if (again) again.focus(); // the arrow keys go on from the turn chosen
  };
  const chosen = known.selected ? result.turns[known.selected - 1] : null;
  const [before, after] = _("Turning points: {turns}").split("{turns}");
  const points = result.turning_points.length
    ? el(
        "p",
        { class: "turning-points" },
        before,
        ...result.turning_points.map((number) => {
          const turn = result.turns[number - 1];
          return el("button", {
            type: "button",
            class: `point${number === known.selected ? " chosen" : ""}`,
            "data-turn": number,
            "aria-pressed": String(number === known.selected),
            text: fmt(_("turn {n} ({seat})"), { n: number, seat: seatName(turn.seat) }),
            onclick: () => choose(number),
          });
        }),
        after || null,
      )
    : null;
  const legend = el(
    "p",
    { class: "legend dim" },
    el("span", { class: "sign inaccuracy", text: SIGNS.inaccuracy }),
    ` ${markWord("inaccuracy")}  `,
    el("span", { class: "sign mistake", text: SIGNS.mistake }),
    ` ${markWord("mistake")}  `,
    el("span", { class: "sign blunder", text: SIGNS.blunder }),
    ` ${markWord("blunder")}`,
  );
  const rows = result.turns.map((turn) =>
    el(
      "tr",
      { class: turn.number === known.selected ? "chosen" : null },
      el("td", { text: String(turn.number) }),
      el("td", { text: seatName(turn.seat) }),
      el("td", { text: `${percent(turn.before)} → ${percent(turn.after)}` }),
      el("td", { text: String(Math.round(shownCost(turn) * 100)) }),
      el("td", { text: turn.mark ? `${SIGNS[turn.mark]} ${markWord(turn.mark)}` : "" }),
      el("td", { class: "luck", text: luckCell(turn) }),
      el("td", { text: percent(turn.white) }),
    ),
  );
  const table = el(
    "details",
    { class: "analysis-turns" },
    el("summary", { text: t("Every turn, as a table") }),
    el(
      "table",
      {},
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...[t("Turn"), t("Player"), t("Chance before → after"), t("Cost"), t("Mark"), t("Luck"), t("White's chance")].map((h) =>
            el("th", { scope: "col", text: h }),
          ),
        ),
      ),
      el("tbody", {}, ...rows),
    ),
  );
  return el(
    "section",
    { class: "analysis", "aria-label": _("Analysis: each turn judged from its player's own view") },
    heading,
    el("figure", {}, el("figcaption", { text: _("White's chance of winning, turn by turn:") }), chart(result, known.selected, choose), legend),
    points,
    el(
      "p",
      { class: "turn-line", id: "analysis-line", role: "status", "aria-live": "polite" },
      ...(chosen ? turnLine(chosen, players) : []).map((part, i) => el("span", { class: i ? "said" : "said head", text: i ? part : `${part} ` })),
    ),
    el("p", { class: "legend dim", text: _(
      "A turn's cost is what it lost against the best turn, judged before the card it turned up was seen; the luck of that card is counted apart.",
    ) }),
    el(
      "ul",
      { class: "summaries" },
      ...result.players.map((p) => el("li", { text: summaryLine(p) })),
      ...result.players.map((p) => el("li", { class: "luck", text: luckLine(p) })),
    ),
    table,
  );
}
