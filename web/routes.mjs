// Where the page is, in the address bar and its history: the lobby at /, a table at /table/ID,
// a player at /player/NAME, a tournament at /tournament/ID, an archived game's replay at
// /game/ID, the lessons at /learn and the rules at /rules. `app.place` holds it ({page, id}); `app.current` is the table's id while the
// page is a table's. Going to a table asks the server for it as the tab's seat, the account's,
// or to watch.

import { accounts } from "./accounts.mjs";
import { requestAnalysis } from "./analysis.mjs";
import { savedSeat } from "./kept.mjs";
import { isArchived } from "./replay.mjs";
import { app, render, send } from "./state.mjs";

const PLACES = [
  ["table", /^\/table\/([A-Za-z0-9_-]+)$/],
  ["game", /^\/game\/([A-Za-z0-9_-]+)$/],
  ["player", /^\/player\/([^/?#]+)$/],
  ["tournament", /^\/tournament\/([A-Za-z0-9_-]+)$/],
  ["learn", /^\/learn$/],
  ["rules", /^\/rules$/],
];

// The place a path names ({page, id}, id null where the page has none); the lobby for any
// other path.
export function placeFromPath(path = location.pathname) {
  for (const [page, pattern] of PLACES) {
    const match = pattern.exec(path);
    if (!match) continue;
    if (!match[1]) return { page, id: null };
    try {
      return { page, id: decodeURIComponent(match[1]) };
    } catch {
      return { page: "lobby", id: null }; // a broken %-escape
    }
  }
  return { page: "lobby", id: null };
}

// The path of a place: placeFromPath's inverse.
export function pathOf(page, id = null) {
  if (page === "lobby" || !page) return "/";
  return id === null || id === undefined ? `/${page}` : `/${page}/${encodeURIComponent(id)}`;
}

// The table shown, for those who knew only tables.
export function tableFromPath() {
  const place = placeFromPath();
  return place.page === "table" ? place.id : null;
}

function settle(page, id) {
  app.place = { page, id: id ?? null };
  app.current = page === "table" ? id : null;
  app.selection = null;
  app.confirmResign = false;
}

// Go to a place: the address (a new history entry when it changes) and the screen.
export function goTo(page, id = null) {
  const path = pathOf(page, id);
  if (location.pathname !== path) history.pushState({}, "", path);
  settle(page, id);
  render();
}

// A table, or the lobby when tableId is null (the table's own modules).
export function go(tableId) {
  if (tableId) goTo("table", tableId);
  else goTo("lobby");
}

export function enterTable(id) {
  const seat = savedSeat(id);
  if (seat) app.conn.send("reclaim", { table_id: id, token: seat.token });
  else if (accounts.account) app.conn.send("resume", { table_id: id }); // a seat of the account?
  else app.conn.send("spectate", { table_id: id });
}

// A link of the page's own: the place, and at a table, the table asked for.
export function visitPlace(page, id = null) {
  app.notice = "";
  goTo(page, id);
  if (page === "table" && id) enterTable(id);
}

// The browser's back and forward: the address has changed already.
export function followHistory() {
  const place = placeFromPath();
  app.notice = "";
  settle(place.page, place.id);
  render();
  if (place.page === "table" && place.id) enterTable(place.id);
}

// A link's place: its href read as a path of this page.
export function placeOfLink(link) {
  return placeFromPath(new URL(link.getAttribute("href"), location.href).pathname);
}

// A table's place, or the lobby (table id null).
export function visit(id) {
  if (id) visitPlace("table", id);
  else visitPlace("lobby");
}

// The games list's Analyse: the finished game's replay (/game/ID), with its analysis; a finished
// table of the lobby that is no game of the archive (no account at it), at the table, watched.
export function analyseGame(id) {
  if (isArchived(id)) visitPlace("game", id);
  else visit(id);
  requestAnalysis(id, send);
  render();
}
