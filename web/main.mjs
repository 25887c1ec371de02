// The page: the lobby at /, a table at /table/ID, and routes.mjs's other places. One connection,
// the protocol's newest version; what to show comes from what the server sends, as in the
// terminal client. This module starts it: the board and the words loaded, the connection
// opened, the page's own links, the language switch and the clocks' tick wired; the rest is in
// the modules docs/web.md lists.

import { tickClocks } from "./clock.mjs";
import { byId, el, replace } from "./dom.mjs";
import { preferredName } from "./kept.mjs";
import { makeRules } from "./legality.mjs";
import { received } from "./messages.mjs";
import { Connection, PROTOCOL_VERSION } from "./net.mjs";
import { replayMessage } from "./replay.mjs";
import { followHistory, placeFromPath, placeOfLink, visitPlace } from "./routes.mjs";
import { renderHeader, renderPage } from "./screen.mjs";
import { app, drawWith, render } from "./state.mjs";
import { LANGUAGES, language, preferredLanguage, setLanguage } from "./words.mjs";

drawWith(renderPage);

// A link of the page's own (<a data-link href="/player/Ann">): its place, without a reload.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button !== 0) return;
  event.preventDefault();
  const place = placeOfLink(link);
  visitPlace(place.page, place.id);
});

// The analysis's chart is drawn at the page's width: again when that changes (a phone turned).
let resizing = false;
window.addEventListener("resize", () => {
  if (resizing || !byId("analysis-chart")) return;
  resizing = true;
  requestAnimationFrame(() => {
    resizing = false;
    render();
  });
});

window.addEventListener("popstate", followHistory);

function languageSwitch() {
  const select = byId("language");
  replace(select, ...LANGUAGES.map(([code, label]) => el("option", { value: code, text: label, selected: code === language() })));
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    render();
  });
}

async function start() {
  app.name = preferredName();
  app.place = placeFromPath();
  app.current = app.place.page === "table" ? app.place.id : null;
  // The connection opens while the board and the words load (the table's first paint waits for
  // both); what the server says meanwhile is taken once they are in.
  const early = [];
  let ready = false;
  const take = (m) => (replayMessage(m) ? render() : received(m));
  app.conn = new Connection({
    onOpen: () => app.conn.send("hello", { version: PROTOCOL_VERSION, name: app.name }),
    onMessage: (m) => (ready ? take(m) : early.push(m)),
    onStatus: (status) => {
      app.status = status;
      // a table's banner and its controls follow the connection (web/table.mjs)
      if (app.current) render();
      else renderHeader();
    },
  });
  app.conn.open();
  const [board] = await Promise.all([
    fetch("/board.json").then((r) => r.json()),
    setLanguage(preferredLanguage()).catch(() => setLanguage("en")),
  ]);
  app.board = board;
  app.rules = makeRules(board);
  languageSwitch();
  ready = true;
  for (const m of early.splice(0)) take(m);
  render();
  setInterval(tickClocks, 250);
  // for the tests, and for the curious: what the page holds (never the seat token)
  window.kahuna = {
    get tables() {
      return app.tables;
    },
    get received() {
      return app.conn.received;
    },
    get rules() {
      return app.rules;
    },
  };
}

start();
