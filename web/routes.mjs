// Where the page is: the lobby at /, a table at /table/ID, in the address bar and its history;
// going to a table asks the server for it as the tab's seat, the account's, or to watch.

import { requestAnalysis } from "./analysis.mjs";
import { accounts } from "./accounts.mjs";
import { savedSeat } from "./kept.mjs";
import { app, render, send } from "./state.mjs";

export function tableFromPath() {
  const match = /^\/table\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  return match ? match[1] : null;
}

export function go(tableId) {
  const path = tableId ? `/table/${tableId}` : "/";
  if (location.pathname !== path) history.pushState({}, "", path);
  app.current = tableId;
  app.selection = null;
  app.confirmResign = false;
  render();
}

export function enterTable(id) {
  const seat = savedSeat(id);
  if (seat) app.conn.send("reclaim", { table_id: id, token: seat.token });
  else if (accounts.account) app.conn.send("resume", { table_id: id }); // a seat of the account?
  else app.conn.send("spectate", { table_id: id });
}

// A link of the page's own, or the browser's back and forward: the place, and its table.
export function visit(id) {
  app.notice = "";
  go(id);
  if (id) enterTable(id);
}

// The games list's Analyse: the game's page, and its analysis there.
export function analyseGame(id) {
  visit(id);
  requestAnalysis(id, send);
  render();
}
