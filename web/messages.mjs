// Messages from the server, dispatched by type: the accounts' and the analysis's modules take
// theirs first, then a handler of the table below; the screen is drawn again after each, unless
// its handler says nothing shown changed. A type without a handler is one this page does not show.

import { accountMessage, resumeLogin } from "./accounts.mjs";
import { mailMessage } from "./mail.mjs";
import { analysisMessage, forgetUnfinished } from "./analysis.mjs";
import { errorWords } from "./errors.mjs";
import { forgetSeat, guestName } from "./kept.mjs";
import { moderationMessage } from "./moderation.mjs";
import { PROTOCOL_VERSION } from "./net.mjs";
import { enterTable } from "./routes.mjs";
import { app, render, table } from "./state.mjs";
import { TABLE_MESSAGES } from "./table-messages.mjs";
import { tournamentMessage } from "./tournament.mjs";
import { t } from "./words.mjs";

// A handler's answer when the screen is to stay as it is.
const UNCHANGED = false;

function onWelcome(m) {
  app.welcome = m;
  forgetUnfinished();
  if (m.name) app.name = m.name;
  if (m.name_note === "name_registered") {
    app.notice = t("That name belongs to an account; you play as {name}.", { name: m.name });
  }
  app.conn.send("lobby_subscribe");
  resumeLogin(m, (type, fields) => app.conn.send(type, fields));
  if (app.current) enterTable(app.current);
}

function onLobby(m) {
  app.lobby = m.tables;
  if (app.current) return UNCHANGED; // the table on the screen stays as it is
}

function onError(m) {
  if (m.code === "bad_name" && !app.welcome) {
    app.name = guestName();
    app.conn.send("hello", { version: PROTOCOL_VERSION, name: app.name });
    return;
  }
  if (m.table_id) {
    const known = table(m.table_id);
    known.pending = false;
    if (m.code === "stale_version") {
      app.conn.send("resync", { table_id: m.table_id });
      return;
    }
    if (["reclaim", "resume", "spectate"].includes(m.refused) && m.table_id === app.current) {
      if (m.refused !== "spectate") {
        forgetSeat(m.table_id);
        app.conn.send("spectate", { table_id: m.table_id });
        return;
      }
      known.closed = m.code;
    }
  }
  app.notice = errorWords(m);
}

const HANDLERS = {
  welcome: onWelcome,
  error: onError,
  lobby: onLobby,
  ...TABLE_MESSAGES,
};

export function received(m) {
  if (moderationMessage(m, app) || tournamentMessage(m) || mailMessage(m, app) || accountMessage(m, app) || analysisMessage(m)) {
    render();
    return;
  }
  const handle = Object.hasOwn(HANDLERS, m.type) ? HANDLERS[m.type] : null;
  if (handle && handle(m) !== UNCHANGED) render();
}
