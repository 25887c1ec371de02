// A player's page at /player/NAME: the rating and its history as a chart (drawn here in SVG from
// the games' rating changes, counted back from today's rating), the results against the
// computer at each level, and the recent games, each with its replay (/game/ID) and the
// opponent's page, and their tournaments. For a logged-in visitor: challenge, ignore or report the
// player.

import { accounts, askGames } from "./accounts.mjs";
import { el, replace, svg } from "./dom.mjs";
import { reasonWords } from "./events.mjs";
import { reportButton, reportForm } from "./moderation.mjs";
import { playerLink, signedChange } from "./players.mjs";
import { goTo } from "./routes.mjs";
import { app, render } from "./state.mjs";
import { playerTournaments } from "./tournament.mjs";
import { _, fmt, ngettext, seatName, t } from "./words.mjs";

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

function when(unix) {
  return unix ? new Date(unix * 1000).toLocaleDateString(document.documentElement.lang || undefined) : "";
}

// The player's seat in a game of the list, or null (a name spelt otherwise: the account's).
function seatOf(game, name) {
  if (same(game.white, name)) return "white";
  if (same(game.black, name)) return "black";
  return null;
}

// The rating after each rated game, oldest first, from today's rating back: each game's change
// is the rating after less the rating before (docs/protocol.md, Ratings). The first point is the
// rating before the oldest game listed.
export function ratingHistory(games, name, rating) {
  const rated = games.filter((g) => g.status === "over" && g.rated && seatOf(g, name) && typeof change(g, name) === "number");
  const points = [];
  let after = rating;
  for (const game of rated) {
    points.push({ rating: after, game });
    after -= change(game, name);
  }
  points.push({ rating: after, game: null });
  return points.reverse();
}

function change(game, name) {
  const seat = seatOf(game, name);
  return seat === "white" ? game.white_change : seat === "black" ? game.black_change : null;
}

function opponentOf(game, name) {
  return seatOf(game, name) === "white" ? game.black : game.white;
}

// The chart: the rating after each rated game, the games evenly spaced, a scale of round
// numbers; each point says its game in a tooltip.
function ratingChart(points, name, width) {
  const height = Math.round(Math.min(240, Math.max(180, width * 0.4)));
  const left = 48;
  const right = 16;
  const top = 14;
  const bottom = 30;
  const values = points.map((p) => p.rating);
  const step = 50;
  let low = Math.floor((Math.min(...values) - 10) / step) * step;
  let high = Math.ceil((Math.max(...values) + 10) / step) * step;
  if (high - low < 2 * step) {
    low -= step;
    high += step;
  }
  const lines = (high - low) / step > 6 ? 100 : step;
  const x = (i) => left + (points.length === 1 ? 0 : (i * (width - left - right)) / (points.length - 1));
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const grid = [];
  for (let v = Math.ceil(low / lines) * lines; v <= high; v += lines) {
    grid.push(svg("line", { class: "grid", x1: left, x2: width - right, y1: y(v), y2: y(v) }));
    grid.push(svg("text", { class: "axis", x: left - 6, y: y(v) + 4, "text-anchor": "end", text: String(v) }));
  }
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => {
    const words = p.game
      ? `${when(p.game.finished)}: ${t("against {name}", { name: opponentOf(p.game, name) })}, ${signedChange(change(p.game, name))} → ${p.rating}`
      : t("Before these games: {rating}", { rating: p.rating });
    return svg("circle", { class: p.game ? "point" : "point start", cx: x(i), cy: y(p.rating), r: 4.5 }, svg("title", { text: words }));
  });
  const first = points[1] ? points[1].game : null;
  const last = points[points.length - 1].game;
  const dates = [
    first ? svg("text", { class: "axis", x: left, y: height - 8, "text-anchor": "start", text: when(first.finished) }) : null,
    last && last !== first ? svg("text", { class: "axis", x: width - right, y: height - 8, "text-anchor": "end", text: when(last.finished) }) : null,
  ];
  const summary = fmt(ngettext("Rating from {from} to {to} over {n} rated game", "Rating from {from} to {to} over {n} rated games", points.length - 1), {
    from: points[0].rating,
    to: points[points.length - 1].rating,
    n: points.length - 1,
  });
  return el(
    "figure",
    { class: "rating-history" },
    svg(
      "svg",
      { class: "rating-chart", id: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary },
      svg("rect", { class: "plot", x: left, y: top, width: width - left - right, height: height - top - bottom }),
      ...grid,
      svg("path", { class: "rating-line", d: path }),
      ...dots,
      ...dates,
    ),
    el("figcaption", { text: summary }),
  );
}

// The rated results and those against the computer at each level, won / lost / drawn.
function resultsTable(stats) {
  const rows = [[_("Rated games"), stats.rated]];
  for (const level of ["easy", "normal", "strong"]) {
    const found = stats.computer[level];
    if (found) rows.push([fmt(_("computer: {level}"), { level: _(level) }), found]);
  }
  return el(
    "table",
    { class: "results" },
    el("caption", { text: _("Results") }),
    el("thead", {}, el("tr", {}, el("td", {}), el("th", { text: _("Wins") }), el("th", { text: _("Losses") }), el("th", { text: _("Draws") }))),
    el(
      "tbody",
      {},
      ...rows.map(([what, [wins, losses, draws]]) =>
        el("tr", {}, el("th", { scope: "row", text: what }), ...[wins, losses, draws].map((n) => el("td", { class: "num", text: String(n) }))),
      ),
    ),
  );
}

function gameRow(game, name) {
  const seat = seatOf(game, name);
  const opponent = opponentOf(game, name);
  let result;
  let outcome = "";
  if (game.status === "playing") result = fmt(_("{seat} to move"), { seat: seatName(game.to_move || "white") });
  else if (game.ending === "abandoned") result = reasonWords(null, "abandoned"); // a moderator closed it
  else if (!game.winner) {
    result = _("a draw");
    outcome = "drawn";
  } else if (seat) {
    outcome = game.winner === seat ? "won" : "lost";
    result = outcome === "won" ? _("won") : _("lost");
  } else result = fmt(_("{seat} wins"), { seat: seatName(game.winner) });
  const moved = change(game, name);
  const computer = game.vs_computer;
  // a guest (version 4's `guests`) has no page: named, not linked
  const guest = (game.guests || []).includes(seat === "white" ? "black" : "white");
  return el(
    "li",
    { class: `game ${outcome}`, "data-table": game.table_id },
    el("span", { class: "when dim", text: when(game.finished || game.started) }),
    el(
      "span",
      { class: "against" },
      seat ? el("span", { class: `seat-mark ${seat}`, title: seatName(seat), role: "img", "aria-label": seatName(seat) }) : null,
      computer
        ? fmt(_("computer: {level}"), { level: _(game.level || "normal") })
        : opponent
          ? guest
            ? el("span", { class: "opponent guest", text: opponent })
            : playerLink(opponent, "opponent")
          : _("(empty seat)"),
    ),
    el("span", { class: `result ${outcome}`, text: result }),
    typeof moved === "number" && game.rated
      ? el("span", { class: `change ${moved >= 0 ? "up" : "down"}`, text: signedChange(moved) })
      : el("span", { class: "change" }),
    game.status === "over"
      ? el("a", { href: `/game/${game.table_id}`, "data-link": "game", class: "replay", text: _("Replay") })
      : el("a", { href: `/table/${game.table_id}`, "data-link": "table", class: "watch", text: t("Watch") }),
  );
}

// Challenge the player (the lobby's challenge form, filled) and ignore them or stop.
function playerActions(me, name) {
  const ignored = (me.ignoring || []).includes(name);
  return el(
    "div",
    { class: "player-actions" },
    el("button", {
      type: "button",
      class: "challenge-player",
      text: t("Challenge {name}", { name }),
      onclick: () => {
        goTo("lobby");
        const input = document.querySelector("form.challenge input[name=name]");
        if (!input) return;
        input.value = name;
        input.focus();
      },
    }),
    el("button", {
      type: "button",
      class: "ignore-player",
      text: ignored ? t("Stop ignoring {name}", { name }) : t("Ignore {name}", { name }),
      onclick: () => app.conn.send("ignore", { name, ignore: !ignored }),
    }),
    reportButton(name, "player"),
  );
}

// The chart is drawn at the width it is shown at, so that its words keep their size on a phone:
// the history's column (lobby.css: beside the games from 900 px), less the part's padding.
function chartWidth(main) {
  const room = main.clientWidth || 640;
  const column = room >= 900 ? ((room - 16) * 1.2) / 2.2 : room - 16;
  return Math.round(Math.max(280, Math.min(720, column - 32)));
}

// A phone turned: the chart again at its new width.
let resizing = false;
window.addEventListener("resize", () => {
  if (resizing || !document.getElementById("rating-chart")) return;
  resizing = true;
  requestAnimationFrame(() => {
    resizing = false;
    render();
  });
});

export function renderPlayerPage(main, name) {
  document.title = `Kahuna · ${name}`;
  if (app.welcome && app.welcome.accounts && app.conn.ready) askGames(name, (type, fields) => app.conn.send(type, fields));
  const found = accounts.games && same(accounts.games.name, name) ? accounts.games : null;
  const me = accounts.account;
  const notice = app.notice ? el("p", { class: "notice", role: "status", text: app.notice }) : null;
  const back = el("a", { href: "/", "data-link": "lobby", class: "back", text: _("Back to the lobby") });
  if (!found) {
    let words = _("Loading…");
    if (app.welcome && !app.welcome.accounts) words = _("This server keeps no accounts, so it has no players' pages.");
    else if (same(accounts.gamesRefused, name)) words = _("No player has this name.");
    replace(main, el("article", { class: "player-page" }, el("nav", {}, back), el("h1", { text: name }), notice, el("p", { class: "dim", text: words })));
    return;
  }
  const history = ratingHistory(found.games, found.name, found.rating);
  const rated = history.length > 1;
  replace(
    main,
    el(
      "article",
      { class: "player-page games" },
      el("nav", {}, back),
      el(
        "header",
        { class: "player-head" },
        el("h1", { text: found.name }),
        found.rating === null ? null : el("p", { class: "rating" }, el("span", { class: "dim", text: _("rating") }), " ", el("strong", { text: String(found.rating) })),
        me && !same(found.name, me.name) ? playerActions(me, found.name) : null,
        me ? reportForm("player") : null,
      ),
      notice,
      el(
        "div",
        { class: "player-parts" },
        el(
          "section",
          { class: "part history", "aria-label": _("Rating history") },
          el("h2", { text: _("Rating history") }),
          rated ? ratingChart(history, found.name, chartWidth(main)) : el("p", { class: "dim", text: _("No rated games yet: the chart starts with the first.") }),
          resultsTable(found.stats),
        ),
        el(
          "section",
          { class: "part recent", "aria-label": _("Recent games") },
          el("h2", { text: _("Recent games") }),
          found.games.length
            ? el("ul", { class: "game-list" }, ...found.games.map((g) => gameRow(g, found.name)))
            : el("p", { class: "empty", text: _("No games yet.") }),
        ),
        playerTournaments(found.name),
      ),
    ),
  );
}
