// Which screen is drawn: the header (the name, the connection's state) and under it the lobby or
// the table on the screen.

import { byId } from "./dom.mjs";
import { renderLearn } from "./learn.mjs";
import { renderLobby } from "./lobby.mjs";
import { renderPlayerPage } from "./player-page.mjs";
import { renderReplay } from "./replay.mjs";
import { renderRules } from "./rules.mjs";
import { app } from "./state.mjs";
import { renderTable } from "./table.mjs";
import { setIcon } from "./table-signals.mjs";
import { leaveTournament, renderTournament } from "./tournament.mjs";
import { _ } from "./words.mjs";

export function renderHeader() {
  const status = byId("connection");
  const words = { connecting: _("connecting"), connected: _("connected"), reconnecting: _("reconnecting") };
  status.textContent = words[app.status] || app.status;
  status.className = `connection ${app.status}`;
  byId("me").textContent = app.name;
}

export function renderPage() {
  renderHeader();
  const main = byId("main");
  if (!app.board) return;
  if (app.place.page !== "table") setIcon(false); // the icon's "your move" is the table's
  if (app.place.page !== "tournament") leaveTournament();
  // each place's owner draws it (a place whose module has not come yet shows the lobby)
  switch (app.place.page) {
    case "table":
      renderTable(main);
      break;
    case "player":
      renderPlayerPage(main, app.place.id);
      break;
    case "game":
      renderReplay(main, app.place.id);
      break;
    case "tournament":
      renderTournament(main, app.place.id);
      break;
    case "learn":
      renderLearn(main);
      break;
    case "rules":
      renderRules(main);
      break;
    default:
      renderLobby(main);
  }
}
