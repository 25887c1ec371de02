// The messages about a table (seats, views, updates, players, watchers, chat, notes, closing):
// a handler for each type, each changing what the page knows of that table.

import { describeAction } from "./events.mjs";
import { closingWords } from "./errors.mjs";
import { forgetSeat, saveSeat } from "./kept.mjs";
import { onNote } from "./notes.mjs";
import { go } from "./routes.mjs";
import { app, table } from "./state.mjs";
import { _, fmt, t } from "./words.mjs";

function seated(known, role) {
  known.role = role;
  known.closed = null;
  if (app.current !== known.id) go(known.id);
}

// The last turn's marks on the board: the lines and islands its events touched, gathered over
// the turn's updates (a turn's plays come one by one), started again by the next turn's first;
// and what is new in this update, to animate once (known.fresh) rather than at every redraw.
function markLastTurn(known, events) {
  if (known.turnEnded || !known.recentIslands) {
    known.recent = new Set();
    known.recentIslands = new Set();
  }
  const fresh = { at: performance.now(), placed: new Set(), removed: new Set(), islands: new Set(), cards: [] };
  for (const e of events) {
    if (e.type === "BridgePlaced") fresh.placed.add(e.line);
    if (e.type === "BridgeRemoved") fresh.removed.add(e.line);
    if (e.type === "TokenPlaced" || e.type === "TokenRemoved") fresh.islands.add(e.island);
    if ((e.type === "CardDrawn" || e.type === "CardTaken") && e.card && e.seat === known.role) fresh.cards.push(e.card);
    if (e.line) known.recent.add(e.line);
    if (e.island) known.recentIslands.add(e.island);
  }
  known.fresh = fresh;
  known.turnEnded = events.some((e) => e.type === "TurnEnded");
}

export const TABLE_MESSAGES = {
  joined(m) {
    saveSeat(m.table_id, m.seat, m.token);
    seated(table(m.table_id), m.seat);
  },
  spectating(m) {
    seated(table(m.table_id), "spectator");
  },
  history(m) {
    table(m.table_id).log = m.events.map(describeAction).filter((line) => line);
  },
  state(m) {
    const known = table(m.table_id);
    Object.assign(known, {
      role: m.role,
      version: m.version,
      status: m.status,
      view: m.view,
      players: m.players,
      pending: false,
      receivedAt: performance.now(),
    });
    known.chat = m.chat.map((c) => ({ sender: c.sender, text: c.text, role: c.role }));
    known.recent = new Set();
    known.recentIslands = new Set();
    known.fresh = null;
    // the seat is back on this connection: a state after the hello (a reclaim, a resume, a spectate)
    known.epoch = app.conn ? app.conn.epoch : 0;
    if (m.table_id === app.current) {
      app.selection = null;
      app.why = "";
    }
  },
  update(m) {
    const known = table(m.table_id);
    if (m.version !== known.version + 1) {
      app.conn.send("resync", { table_id: m.table_id });
      return;
    }
    known.version = m.version;
    known.view = m.view;
    known.pending = false;
    known.receivedAt = performance.now();
    const line = describeAction(m.events);
    if (line) known.log.push(line);
    markLastTurn(known, m.events);
    if (m.events.some((e) => e.type === "GameOver")) known.status = "over";
    if (m.table_id === app.current) {
      app.selection = null;
      app.confirmResign = false;
      app.why = ""; // the position changed: the last refusal was about another
    }
  },
  players(m) {
    const known = table(m.table_id);
    known.players = m.players;
    known.status = m.status;
  },
  watchers(m) {
    // version 3: who watches the table
    table(m.table_id).watchers = m.names;
  },
  chat_message(m) {
    table(m.table_id).chat.push({ sender: m.sender, text: m.text, role: m.role });
  },
  table_note: onNote,
  table_closed(m) {
    const known = table(m.table_id);
    known.closed = m.code || "closed";
    forgetSeat(m.table_id);
    if (m.table_id === app.current) {
      app.notice = fmt(_("Table {table} closed: {reason}."), { table: m.table_id, reason: closingWords(m) });
    }
  },
  left(m) {
    if (m.table_id === app.current && m.code === "reclaimed_elsewhere") {
      app.notice = t("Your seat was taken back from another window.");
    }
  },
};
