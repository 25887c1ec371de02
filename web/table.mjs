// The table's screen at /table/ID: the board, the players, whose turn and what can be done now,
// why a click was refused, the cards, the buttons, the legend, the board as text, the log and
// the chat, and the analysis under a finished game; drawn anew for every message, keeping the
// focus (web/table-keys.mjs), the chat's unsent line and the scroll of the log and the chat.
// While the connection is lost a banner says so and every control is disabled until the seat
// is back (the table's state came again on the new connection).

import { accounts } from "./accounts.mjs";
import { analysisOf, analysisPanel } from "./analysis.mjs";
import { drawBoard } from "./board.mjs";
import { faceUpRow, handNode } from "./cards.mjs";
import { chatSection } from "./chat.mjs";
import { byId, el, replace } from "./dom.mjs";
import { parseAction } from "./legality.mjs";
import { activeLines, choicesFor, legal, onLine, onTap } from "./moves.mjs";
import { playerBoxes } from "./players.mjs";
import { app, publicOf, render, send, shown, tableOf } from "./state.mjs";
import { choicesNode, tableButtons } from "./table-buttons.mjs";
import { focusKey, installTableKeys, restoreFocus } from "./table-keys.mjs";
import { boardTextNode, legendNode } from "./table-legend.mjs";
import { signalButtons, signalTurn } from "./table-signals.mjs";
import { statusOf } from "./table-status.mjs";
import { shownWhy, tellWhy, whyRole } from "./table-why.mjs";
import { _, fmt, t } from "./words.mjs";

// A finished game of the player's games listed (version 3's archive), by its table id.
function finishedInList(id) {
  const listed = accounts.games ? accounts.games.games : [];
  return listed.some((g) => g.table_id === id && g.status === "over");
}

// No view of the table (yet, or any more): a finished game whose table has closed shows its
// analysis, from the archive, if asked for.
function renderNoView(main, known) {
  const archived = analysisOf(app.current) || finishedInList(app.current);
  const closed = archived ? t("The table was closed.") : app.notice || t("The table was closed.");
  replace(
    main,
    offline() ? banner() : null,
    el("p", { class: "notice", role: "status", text: known && known.closed ? closed : _("Waiting for the table's state...") }),
    el("p", {}, el("a", { href: "/", "data-link": "lobby", text: t("Back to the lobby") })),
    archived ? analysisPanel(app.current, null, send, render) : null,
  );
}

function offline() {
  return !app.conn || !app.conn.ready;
}

// The seat (or the watching) is back once the table's state came on this connection.
function seatBack(known) {
  return !offline() && known.epoch === app.conn.epoch;
}

function banner() {
  return el(
    "div",
    { class: "conn-banner", id: "conn-banner", role: "alert" },
    el("strong", { text: t("Connection lost") }),
    " ",
    el("span", { text: app.conn && app.conn.ready ? t("Connected again: taking the seat back…") : t("Reconnecting…") }),
  );
}

// The board with the lines the player may use now (those of the picked card, when one is), the
// islands whose cards play, the last turn's marks, and what the last update changed (animated
// for a moment after it came, not at every redraw).
function boardNode(known, pub, actions, choices) {
  const active = activeLines(actions, choices);
  const playable = new Set();
  for (const a of actions) {
    const parsed = parseAction(app.rules, a);
    if (parsed.line !== null && parsed.line !== undefined && active.has(parsed.line)) parsed.cards.forEach((c) => playable.add(c));
  }
  const selected = app.selection && app.selection.line !== undefined ? app.selection.line : null;
  const fresh = known.fresh && performance.now() - known.fresh.at < 1000 ? known.fresh : null;
  return drawBoard(app.board, pub, {
    active,
    playable,
    selected,
    recent: known.recent,
    recentIslands: known.recentIslands || new Set(),
    fresh,
    onLine,
    onTap,
    onIsland: (island) => tellWhy(`${island.name}: ${t("needs {n} of {d} lines", { n: island.needed, d: island.degree })}`, render),
  });
}

// A tournament's table (version 4): the tournament's name and round, not the game's, with the
// way to its page.
function tournamentLine(known) {
  const of = tableOf(known).tournament;
  if (!of) return null;
  const said = fmt(_("{name} · round {n}"), { name: of.name, n: of.round });
  return el("p", { class: "table-tournament", id: "table-tournament" }, el("a", { href: `/tournament/${of.tournament_id}`, "data-link": "tournament", text: said }));
}

// The choices of the picked line or card; a line picked by a tap with a card picked keeps
// to that card's plays.
function choicesNow(actions) {
  let choices = choicesFor(actions, app.selection);
  const sel = app.selection;
  if (sel && sel.confirm && sel.card !== undefined) {
    const withCard = choices.filter((a) => parseAction(app.rules, a).cards.includes(sel.card));
    if (withCard.length) choices = withCard;
  }
  return choices;
}

export function renderTable(main) {
  installTableKeys();
  const known = shown();
  const active = document.activeElement;
  const key = active && main.contains(active) ? focusKey(active) : null;
  document.title = `Kahuna · ${fmt(_("table {id}"), { id: app.current })}`;
  if (!known || !known.view) {
    renderNoView(main, known);
    signalTurn(known || {}, false);
    return;
  }
  const pub = publicOf(known);
  const mySeat = known.role === "spectator" ? null : known.role;
  const back = seatBack(known);
  const yourMove = Boolean(mySeat && pub.to_move === mySeat && known.status === "playing" && !pub.result);
  if (yourMove) {
    // what a tab in the background says: a game of days, or a live one while reading elsewhere
    document.title = `(${_("Your turn")}) ${document.title}`;
  }
  signalTurn(known, yourMove && back);
  const actions = legal(known);
  const choices = choicesNow(actions);
  const over = known.status === "over" || pub.result !== null;
  const status = statusOf(known, pub, mySeat, actions, !back);
  // a log region that the keyboard can scroll (focusable), around the list of its lines
  const log = el(
    "div",
    { class: "log", role: "log", tabindex: "0", "aria-label": _("log") },
    el("ol", { class: "log-lines" }, ...known.log.slice(-200).map((line) => el("li", { text: line }))),
  );
  const chatText = byId("chat-input") ? byId("chat-input").value : "";
  const opened = (id, otherwise) => (byId(id) ? byId(id).open : otherwise);
  const legendOpen = opened("legend", false);
  const textOpen = opened("board-text", false);
  const logOpen = opened("log-box", true);
  replace(
    main,
    el("h1", { class: "sr-only", text: fmt(_("table {id}"), { id: known.id }) }),
    back ? null : banner(),
    el(
      "div",
      { class: `table-view${back ? "" : " offline"}` },
      el("div", { class: "players" }, ...playerBoxes(known, pub, mySeat)),
      el("div", { class: "board-wrap" }, boardNode(known, pub, actions, choices)),
      el(
        "fieldset",
        { class: "side", disabled: !back },
        el(
          "div",
          { class: "turn", id: "turn", role: "status", "aria-live": "polite", tabindex: "-1" },
          el("span", { class: "turn-text", text: status.text }),
          status.hint ? el("span", { class: "turn-hint", id: "turn-hint", text: status.hint }) : null,
        ),
        tournamentLine(known),
        shownWhy() ? el("p", { class: "why", id: "why", role: whyRole(), text: shownWhy() }) : null,
        known.watchers && known.watchers.length
          ? el("p", { class: "watchers", id: "watchers", text: fmt(_("watched by {names}"), { names: known.watchers.join(", ") }) })
          : null,
        app.notice ? el("p", { class: "notice", text: app.notice }) : null,
        choicesNode(choices),
        handNode(known, mySeat, actions),
        faceUpRow(known, pub, actions),
        el("div", { class: "actions" }, ...tableButtons(known, pub, mySeat, actions, over)),
        mySeat && !over ? signalButtons(known) : null,
        legendNode(legendOpen),
        boardTextNode(app.board, pub, known, textOpen),
        el("details", { class: "log-box", id: "log-box", open: logOpen }, el("summary", { text: _("log") }), log),
        chatSection(known),
      ),
    ),
    over ? analysisPanel(known.id, known.players, send, render) : null,
  );
  byId("chat-input").value = chatText;
  const logNode = main.querySelector(".log");
  logNode.scrollTop = logNode.scrollHeight;
  const lines = byId("chat-lines");
  lines.scrollTop = lines.scrollHeight;
  restoreFocus(main, key);
}
