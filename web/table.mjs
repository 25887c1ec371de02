// The table's screen at /table/ID: the board, the players, whose turn, the cards, the buttons,
// the log and the chat, and the analysis under a finished game; drawn anew for every message,
// keeping the focus, the chat's unsent line and the scroll of the log and the chat.

import { accounts } from "./accounts.mjs";
import { analysisOf, analysisPanel } from "./analysis.mjs";
import { drawBoard } from "./board.mjs";
import { faceUpRow, handNode } from "./cards.mjs";
import { chatSection } from "./chat.mjs";
import { byId, el, replace } from "./dom.mjs";
import { reasonWords } from "./events.mjs";
import { parseAction } from "./legality.mjs";
import { choicesFor, legal, onLine } from "./moves.mjs";
import { playerBoxes } from "./players.mjs";
import { app, publicOf, render, send, shown } from "./state.mjs";
import { choicesNode, tableButtons } from "./table-buttons.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

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
    el("p", { class: "notice", role: "status", text: known && known.closed ? closed : _("Waiting for the table's state...") }),
    el("p", {}, el("a", { href: "/", "data-link": "lobby", text: t("Back to the lobby") })),
    archived ? analysisPanel(app.current, null, send, render) : null,
  );
}

function turnText(known, pub, mySeat, actions) {
  if (pub.result) {
    const winner = pub.result.winner;
    const reason = reasonWords(winner, pub.result.kind);
    return winner ? `${fmt(_("Game over: {seat} wins"), { seat: seatName(winner) })} (${reason})` : `${_("Game over: a draw")} (${reason})`;
  }
  if (known.status === "waiting") return _("Waiting for an opponent");
  if (mySeat && pub.to_move === mySeat) {
    if (known.pending) return t("Sent…");
    if (pub.phase === "handicap") return fmt(_("Your turn: {n} handicap"), { n: pub.handicap_left });
    if (pub.phase === "final") return _("Your turn: the last one");
    if (!actions.includes("abstain") && pub.opponent_abstained) return _("Your turn: you must draw");
    return _("Your turn");
  }
  const name = known.players && known.players[pub.to_move] ? known.players[pub.to_move].name : "";
  return fmt(_("{seat} to move ({name})"), { seat: seatName(pub.to_move), name });
}

// The board with the lines the player may bridge now (those of the picked card, when one is).
function boardNode(known, pub, actions, choices) {
  const active = new Set();
  for (const a of app.selection && app.selection.card !== undefined ? choices : actions) {
    const parsed = parseAction(app.rules, a);
    if (parsed.line !== null && parsed.line !== undefined) active.add(parsed.line);
  }
  const selected = app.selection && app.selection.line !== undefined ? app.selection.line : null;
  return drawBoard(app.board, pub, { active, selected, recent: known.recent, onLine });
}

export function renderTable(main) {
  const known = shown();
  const focused = document.activeElement && document.activeElement.id;
  const focusedLine = document.activeElement && document.activeElement.getAttribute && document.activeElement.getAttribute("data-line");
  document.title = `Kahuna · ${fmt(_("table {id}"), { id: app.current })}`;
  if (!known || !known.view) {
    renderNoView(main, known);
    return;
  }
  const pub = publicOf(known);
  const mySeat = known.role === "spectator" ? null : known.role;
  if (mySeat && pub.to_move === mySeat && known.status === "playing") {
    // what a tab in the background says: a game of days, or a live one while reading elsewhere
    document.title = `(${_("Your turn")}) ${document.title}`;
  }
  const actions = legal(known);
  const choices = choicesFor(actions, app.selection);
  const over = known.status === "over" || pub.result !== null;
  const log = el("ol", { class: "log", "aria-label": _("log") }, ...known.log.slice(-200).map((line) => el("li", { text: line })));
  const chatText = byId("chat-input") ? byId("chat-input").value : "";
  replace(
    main,
    el(
      "div",
      { class: "table-view" },
      el("div", { class: "players" }, ...playerBoxes(known, pub, mySeat)),
      el("div", { class: "board-wrap" }, boardNode(known, pub, actions, choices)),
      el(
        "div",
        { class: "side" },
        el("p", { class: "turn", id: "turn", role: "status", "aria-live": "polite", text: turnText(known, pub, mySeat, actions) }),
        known.watchers && known.watchers.length
          ? el("p", { class: "watchers", id: "watchers", text: fmt(_("watched by {names}"), { names: known.watchers.join(", ") }) })
          : null,
        app.notice ? el("p", { class: "notice", text: app.notice }) : null,
        choicesNode(choices),
        handNode(known, mySeat, actions),
        faceUpRow(pub, actions),
        el("div", { class: "actions" }, ...tableButtons(known, pub, mySeat, actions, over)),
        el("details", { class: "log-box", open: true }, el("summary", { text: _("log") }), log),
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
  if (focused && byId(focused)) byId(focused).focus();
  else if (focusedLine) {
    const again = main.querySelector(`[data-line="${focusedLine}"][tabindex]`);
    if (again) again.focus();
  }
}
