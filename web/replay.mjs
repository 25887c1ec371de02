// An archived game's replay at /game/ID: the record (version 3's `get_record`, which the archive
// gives to anyone once the game is over; version 4's names a tournament's game's tournament and
// round, and carries the game's entry: its players, result and rating changes) replayed by
// record.mjs, stepped through with the buttons or the keys ← → Home End; the board drawn by
// board.mjs, both hands (nothing is hidden in a finished game), the move list, the players'
// pages and rating changes, and under it the analysis chart (analysis.mjs), whose chosen turn
// follows the step.

import { analysisOf, analysisPanel } from "./analysis.mjs";
import { drawBoard } from "./board.mjs";
import { el, replace } from "./dom.mjs";
import { playWords, reasonWords } from "./events.mjs";
import { playerLink, signedChange } from "./players.mjs";
import { publicOf, readRecord, replaySteps } from "./record.mjs";
import { app, render, send } from "./state.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

// game id -> {text, steps, at (the step shown), turn (the analysis's turn it showed), error,
// askedOn (the connection's welcome the record was asked on)}
const replays = new Map();
// game id -> a games list's entry of it (protocol's GameEntry: the players' names, the result)
const entries = new Map();
// game id -> {tournament_id, name, round, white, black}: a tournament's game, known from the
// tournament's state (its page), the table's view (version 4's `table.tournament`) or the
// record (version 4's `record.tournament`), so that its replay says the tournament and its
// round apart from the game's own three rounds
const tournamentGames = new Map();
// game id -> the game's entry as version 4's `record.game` gives it (a games list's GameEntry,
// with `computer` and `guests`): a replay opened from a shared link, with no games list before
// it and its table long closed, names its players from it. Apart from `entries`, which say
// that the archive keeps the game (isArchived): a game of guests' record has an entry too.
const recorded = new Map();

// A game of a games list (an account at a seat): the archive keeps it, its record for anyone.
export function isArchived(id) {
  return entries.has(id);
}

function known(id) {
  let found = replays.get(id);
  if (!found) {
    found = { text: null, steps: null, at: 0, turn: null, error: null, askedOn: null };
    replays.set(id, found);
  }
  return found;
}

// The server's messages the replay takes: `record` and a refused `get_record` (true: taken);
// a `games` list is read for the names of its games and left to the others.
export function replayMessage(m) {
  if (m.type === "games") {
    const same = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();
    for (const entry of m.games || []) {
      // against the computer, the seat that is not the listed player's is the computer's
      const computer = !entry.vs_computer ? null : same(entry.white, m.name) ? "black" : same(entry.black, m.name) ? "white" : null;
      entries.set(entry.table_id, { ...entry, computer });
    }
    return false;
  }
  if (m.type === "tournament") {
    for (const round of m.rounds || []) {
      for (const game of round.games || []) {
        if (!game.table_id) continue;
        const { tournament_id, name } = m.summary;
        tournamentGames.set(game.table_id, { tournament_id, name, round: round.number, white: game.white, black: game.black });
      }
    }
    return false;
  }
  const said = m.type === "state" && m.view && m.view.table ? m.view.table.tournament : null;
  if (said) {
    const before = tournamentGames.get(m.table_id) || {};
    tournamentGames.set(m.table_id, { ...before, ...said });
    return false;
  }
  if (m.type === "record" && m.tournament) {
    // version 4's record names a tournament's game's tournament and round: a replay opened from
    // a shared link, without the tournament's page or the table, knows them from it alone
    tournamentGames.set(m.table_id, { ...(tournamentGames.get(m.table_id) || {}), ...m.tournament });
  }
  if (m.type === "record" && m.game) recorded.set(m.table_id, m.game);
  if (m.type === "record" && replays.has(m.table_id)) {
    const found = known(m.table_id);
    found.text = m.text;
    try {
      found.steps = replaySteps(readRecord(m.text, app.board), app.board);
      found.at = found.steps.length - 1; // the final position first, as a game's page shows it
      found.error = null;
    } catch (problem) {
      found.error = { code: "unreadable", message: String(problem.message || problem) };
    }
    return true;
  }
  if (m.type === "error" && m.refused === "get_record" && replays.has(m.table_id)) {
    known(m.table_id).error = m;
    return true;
  }
  return false;
}

// Ask for the record once on each connection until it came (a new connection's welcome is a
// new object: asked again after a drop).
function ask(id, found) {
  if (found.steps || found.error || found.askedOn === app.welcome || !app.welcome) return;
  if (send("get_record", { table_id: id })) found.askedOn = app.welcome;
}

function refusal(error) {
  const words = {
    no_such_game: t("This game is not kept on the server."),
    no_such_table: t("This game is not kept on the server."),
    game_not_over: t("The replay comes when the game is over."),
    not_at_table: t("The replay comes when the game is over."),
  };
  return words[error.code] || error.message || error.code;
}

// ----- stepping --------------------------------------------------------------------------------

function stepTo(id, at) {
  const found = replays.get(id);
  if (!found || !found.steps) return;
  found.at = Math.max(0, Math.min(found.steps.length - 1, at));
  const step = found.steps[found.at];
  const analysis = analysisOf(id);
  if (analysis && analysis.result && step.turn) analysis.selected = step.turn;
  found.turn = step.turn;
  render();
}

// A turn chosen on the analysis's chart (or its turning points): the replay goes to the
// position after it.
function followChart(id, found) {
  const analysis = analysisOf(id);
  if (!analysis || !analysis.result || !analysis.selected || analysis.selected === found.turn) return;
  found.turn = analysis.selected;
  const last = found.steps.findLastIndex((step) => step.turn === analysis.selected);
  if (last >= 0) found.at = last;
}

const KEYS = { ArrowLeft: (at) => at - 1, ArrowRight: (at) => at + 1, Home: () => 0, End: () => Infinity };

// ← → Home End anywhere on the replay but in a field or on a control with keys of its own (the
// analysis chart's slider).
document.addEventListener("keydown", (event) => {
  if (app.place.page !== "game" || !(event.key in KEYS) || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target.closest && target.closest("input, textarea, select, [role=slider]")) return;
  const found = replays.get(app.place.id);
  if (!found || !found.steps) return;
  event.preventDefault();
  stepTo(app.place.id, KEYS[event.key](found.at));
  const button = document.querySelector(`.replay-moves [data-step="${found.at}"]`);
  if (button && target.closest && target.closest(".replay-moves")) button.focus();
});

// ----- drawing ---------------------------------------------------------------------------------

// A table of the lobby's list (a finished table not yet closed) as a games list names it.
function fromLobby(id) {
  const info = (app.lobby || []).find((i) => i.table_id === id);
  if (!info || !info.players) return null;
  const name = (s) => (info.players[s] ? info.players[s].name : "");
  const computer = ["white", "black"].find((s) => info.players[s] && info.players[s].computer) || null;
  // a guest has no page: named, not linked
  const guests = ["white", "black"].filter((s) => info.players[s] && typeof info.players[s].rating !== "number");
  return { white: name("white"), black: name("black"), computer, level: info.level, guests };
}

// What is known of the game's players: a games list's entry the page was given, the record's
// (version 4's `record.game`, whichever way the replay was reached), the lobby's list while the
// table is open, or the pairings of the tournament the game was played in; null otherwise.
function playersOf(id) {
  const paired = tournamentGames.get(id);
  return entries.get(id) || recorded.get(id) || fromLobby(id) || (paired && paired.white ? { white: paired.white, black: paired.black, computer: null } : null);
}

// The players, each a link to their page (a guest, the computer and a deleted account's
// stand-in have none: named, not linked), and for a rated game how each one's rating moved.
function playerLinks(id) {
  const entry = playersOf(id);
  if (!entry) return null;
  const who = (s) => {
    // after "Black: ", a second colon would read as a list; the lobby's name for it, its level after
    if (entry.computer === s) return fmt(_("Computer ({level})"), { level: _(entry.level || "normal") });
    if (!entry[s]) return _("(empty seat)");
    if ((entry.guests || []).includes(s)) return entry[s];
    return playerLink(entry[s]);
  };
  const moved = (s) => {
    const change = entry[`${s}_change`];
    if (!entry.rated || typeof change !== "number") return null;
    return el("span", { class: `change ${change >= 0 ? "up" : "down"}`, text: ` ${fmt(_("(rating {change})"), { change: signedChange(change) })}` });
  };
  const seat = (s) =>
    el("li", { class: `replay-player ${s}` }, el("span", { class: `seat-mark ${s}`, "aria-hidden": "true" }), `${seatName(s)}: `, who(s), moved(s));
  return el("ul", { class: "replay-players" }, seat("white"), seat("black"));
}

function resultWords(result) {
  if (!result) return "";
  // a game a moderator closed (abandoned) was neither won nor drawn: its reason says it
  if (result.kind === "abandoned") return reasonWords(null, result.kind);
  const who = result.winner ? fmt(_("{seat} wins"), { seat: seatName(result.winner) }) : _("a draw");
  return `${fmt(_("Game over: {who}"), { who })} (${reasonWords(result.winner, result.kind)})`;
}

// What the step changed (in `key`: the bridges or the tokens), marked on the board as the table
// marks the last turn's.
function changed(before, after, key) {
  const names = new Set();
  for (const seat of ["white", "black"]) {
    const was = new Set(before[key][seat]);
    const now = new Set(after[key][seat]);
    for (const name of now) if (!was.has(name)) names.add(name);
    for (const name of was) if (!now.has(name)) names.add(name);
  }
  return names;
}

function boardOf(found) {
  const steps = found.steps;
  const pub = publicOf(steps[found.at], app.board);
  const before = found.at ? publicOf(steps[found.at - 1], app.board) : pub;
  const none = () => {};
  const board = drawBoard(app.board, pub, {
    active: new Set(),
    playable: new Set(),
    selected: null,
    recent: changed(before, pub, "bridges"),
    recentIslands: changed(before, pub, "tokens"),
    fresh: null,
    onLine: none,
    onTap: none,
    onIsland: none,
  });
  return [pub, board];
}

function cards(names) {
  return names.length ? names.join(" ") : _("none");
}

// A tournament's game: its tournament and round, a link to the tournament's page; said to be a
// tournament's, as the name alone may not say it to someone who came by a shared link.
function tournamentLine(id) {
  const of = tournamentGames.get(id);
  if (!of || !of.name) return null;
  const said = fmt(_("{name} · round {n}"), { name: of.name, n: of.round });
  const link = el("a", { href: `/tournament/${encodeURIComponent(of.tournament_id)}`, "data-link": "tournament", text: said });
  return el("p", { class: "replay-tournament", id: "replay-tournament" }, `${_("Tournament")}: `, link);
}

function sidePanel(id, pub) {
  const seatLine = (s) =>
    el(
      "li",
      {},
      el("strong", { text: `${seatName(s)}` }),
      ` · ${fmt(_("tokens {t} bridges {b}"), { t: pub.tokens[s].length, b: pub.bridges[s].length })} · ${_("hand")}: ${cards(pub.hands[s])}`,
    );
  const phase = pub.result
    ? resultWords(pub.result)
    : pub.phase === "handicap"
      ? _("handicap")
      : fmt(_("{seat} to move"), { seat: seatName(pub.to_move) });
  return el(
    "div",
    { class: "replay-side" },
    el("p", { class: "replay-phase", text: phase }),
    // a tournament's game: its own rounds said as the game's, beside the tournament's round
    el("p", {}, `${fmt(tournamentGames.has(id) ? _("Game: round {n} of 3") : _("Round {n} of 3"), { n: pub.round })} · ${seatName("white")} ${pub.scores[0]} : ${pub.scores[1]} ${seatName("black")}`),
    el("ul", { class: "replay-seats" }, seatLine("white"), seatLine("black")),
    el(
      "p",
      {},
      `${_("Face up")}: ${cards(pub.face_up)} · ${_("Pile")}: ${pub.pile_size} · ${_("Discards")}: ${fmt(_("{up} up, {down} down"), {
        up: pub.played.length,
        down: pub.face_down_count,
      })}`,
    ),
  );
}

function moveWords(step) {
  if (step.move.type === "ending") return resultWords(step.game.result);
  return playWords(step.move.text);
}

// The moves, a turn a row, each move a button that goes to the position after it.
function moveList(id, found) {
  const rows = [];
  let row = null;
  let rowKey = null;
  found.steps.forEach((step, i) => {
    if (!i) return;
    const key = step.turn === null ? `end${i}` : `turn${step.turn}`;
    if (key !== rowKey) {
      rowKey = key;
      const seat = step.move.seat;
      row = el(
        "li",
        { class: `replay-turn ${seat || ""}` },
        el("span", { class: "turn-head", text: step.turn ? `${step.turn}. ${seat ? seatName(seat) : ""}` : "" }),
      );
      rows.push(row);
    }
    row.append(
      el("button", {
        type: "button",
        class: `move${i === found.at ? " current" : ""}`,
        "data-step": i,
        "aria-current": i === found.at ? "step" : null,
        text: moveWords(step),
        onclick: () => stepTo(id, i),
      }),
    );
  });
  return el(
    "nav",
    { class: "replay-moves", "aria-label": _("The game's moves") },
    el(
      "button",
      { type: "button", class: `move start${found.at === 0 ? " current" : ""}`, "data-step": 0, "aria-current": found.at === 0 ? "step" : null, text: _("the start"), onclick: () => stepTo(id, 0) },
    ),
    el("ol", {}, ...rows),
  );
}

function controls(id, found) {
  const last = found.steps.length - 1;
  const button = (key, sign, label, to, off) =>
    el(
      "button",
      { type: "button", class: `step ${key}`, id: `replay-${key}`, disabled: off, "aria-keyshortcuts": { first: "Home", previous: "ArrowLeft", next: "ArrowRight", last: "End" }[key], onclick: () => stepTo(id, to) },
      el("span", { "aria-hidden": "true", text: sign }),
      ` ${label}`,
    );
  return el(
    "div",
    { class: "replay-controls", role: "group", "aria-label": _("Replay") },
    button("first", "«", _("First"), 0, found.at === 0),
    button("previous", "‹", _("Previous"), found.at - 1, found.at === 0),
    button("next", "›", _("Next"), found.at + 1, found.at === last),
    button("last", "»", _("Last"), last, found.at === last),
    el("span", {
      class: "replay-where",
      id: "replay-where",
      role: "status",
      text: fmt(tournamentGames.has(id) ? _("replay {name} · action {i} of {n} · game round {r}") : _("replay {name} · action {i} of {n} · round {r}"), {
        name: id,
        i: found.at,
        n: last,
        r: found.steps[found.at].game.round,
      }),
    }),
  );
}

export function renderReplay(main, id) {
  const found = known(id);
  ask(id, found);
  const back = el("p", { class: "replay-back" }, el("a", { href: "/", "data-link": "", text: t("Back to the lobby") }));
  const heading = el("h1", { text: `${_("Replay")} · ${id}` });
  if (!found.steps) {
    const words = found.error ? refusal(found.error) : _("Loading…");
    replace(main, el("section", { class: "replay" }, heading, el("p", { class: "notice", role: "status", text: words }), back));
    return;
  }
  followChart(id, found);
  const [pub, board] = boardOf(found);
  const entry = entries.get(id) || recorded.get(id);
  const players = entry ? { white: { name: entry.white }, black: { name: entry.black } } : null;
  replace(
    main,
    el(
      "section",
      { class: "replay", "aria-labelledby": "replay-heading" },
      el("h1", { id: "replay-heading", text: heading.textContent }),
      tournamentLine(id),
      playerLinks(id),
      el("p", { class: "replay-result", text: resultWords(found.steps[found.steps.length - 1].game.result) }),
      controls(id, found),
      el("div", { class: "replay-main" }, el("figure", { class: "replay-board" }, board), sidePanel(id, pub)),
      moveList(id, found),
      analysisPanel(id, players, send, render),
      back,
    ),
  );
  // the move shown in the middle of the list (the list scrolls, not the page)
  const list = main.querySelector(".replay-moves");
  const current = list.querySelector(".move.current");
  if (current) list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
}
