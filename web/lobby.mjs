// The lobby's screen at /: for a newcomer, what Kahuna is and a game against the computer in one
// click; then the lobby in parts side by side (stacked on a phone): the tables to join or watch,
// a new table and the challenges, the players and their ratings, the lobby chat. One name field
// serves the guest's name and the account's login. Drawn anew for every message, keeping what the
// player typed in its forms (web/fields.mjs).

import { accounts, challengesPart, deleteControl, downloadGames, passwordControl } from "./accounts.mjs";
import { el, replace, svg } from "./dom.mjs";
import { restoreFields, typedFields } from "./fields.mjs";
import { forgotButton, mailControl } from "./mail.mjs";
import { rememberName, savedSeat } from "./kept.mjs";
import { moderationPart, reportButton, reportForm } from "./moderation.mjs";
import { computerGame, newTableForm } from "./new-table.mjs";
import { playerLink, playerName } from "./players.mjs";
import { analyseGame, enterTable } from "./routes.mjs";
import { app, render } from "./state.mjs";
import { calledTitle, tournamentsPart } from "./tournament.mjs";
import { _, fmt, t } from "./words.mjs";

// What the player asks for from the lobby: a new attempt, so the last one's notice goes.
function ask(type, fields) {
  app.notice = "";
  return app.conn.send(type, fields);
}

function tableWords(info) {
  // "playing", not the game's phase "play" (the replay's and the side panel's word)
  const status = { waiting: _("Waiting for an opponent"), playing: _("playing"), over: _("game over") }[info.status];
  const extras = [];
  if (info.vs_computer) extras.push(fmt(_("computer: {level}"), { level: _(info.level) }));
  if (info.options.variant1) extras.push(_("Variant 1"));
  if (info.options.variant2) extras.push(_("Variant 2"));
  if (info.rated) extras.push(t("rated"));
  return [status, ...extras].join(" · ");
}

function tableRow(info) {
  const free = !info.players.white || !info.players.black;
  const mine = savedSeat(info.table_id);
  return el(
    "li",
    { class: `table-row ${info.status}`, "data-table": info.table_id },
    el("span", { class: "who" }, playerName(info.players, "white"), " – ", playerName(info.players, "black")),
    el("span", { class: "what", text: tableWords(info) }),
    el("span", { class: "id dim", text: fmt(_("table {id}"), { id: info.table_id }) }),
    el(
      "span",
      { class: "buttons" },
      mine
        ? el("button", { type: "button", class: "primary", text: t("Back to my seat"), onclick: () => enterTable(info.table_id) })
        : free && info.status === "waiting"
          ? el("button", { type: "button", class: "join primary", text: t("Join"), onclick: () => ask("join", { table_id: info.table_id, seat: null }) })
          : null,
      info.status === "over"
        ? el("button", { type: "button", class: "analyse", "data-table": info.table_id, text: t("Analyse"), onclick: () => analyseGame(info.table_id) })
        : null,
      el("a", { href: `/table/${info.table_id}`, class: "watch", text: t("Watch"), "data-link": "table" }),
    ),
  );
}

// The finished games' list, folded or not, kept across the drawings.
let finishedOpen = false;

// The tables in three groups: those a player may sit down at, the games under way, and folded
// below them the ones over (each with its analysis).
function tablesPart() {
  const open = app.lobby.filter((i) => i.status === "waiting");
  const running = app.lobby.filter((i) => i.status === "playing");
  const over = app.lobby.filter((i) => i.status === "over");
  let finished = null;
  if (over.length) {
    finished = el(
      "details",
      { class: "group over", open: finishedOpen, ontoggle: () => { finishedOpen = finished.open; } },
      el("summary", {}, el("h3", { text: `${_("Finished games")} (${over.length})` })),
      el("ul", {}, ...over.map(tableRow)),
    );
  }
  return el(
    "section",
    { class: "part tables", "aria-label": _("Tables on this server") },
    el("h2", { text: _("Tables on this server") }),
    el(
      "div",
      { class: "group open" },
      el("h3", { text: _("Open tables") }),
      open.length
        ? el("ul", {}, ...open.map(tableRow))
        : el("p", { class: "empty dim", text: _("No table waits for a player now: make one, and it shows here for others to join.") }),
    ),
    running.length ? el("div", { class: "group running" }, el("h3", { text: _("Games to watch") }), el("ul", {}, ...running.map(tableRow))) : null,
    finished,
  );
}

// The one name field: the guest's name (Enter or Change), and where the server keeps accounts,
// the same name with a password to log in or register. A new guest name is a new hello: the
// connection starts again under it.
function identityForm() {
  const withAccounts = Boolean(app.welcome && app.welcome.accounts);
  const password = withAccounts
    ? el("input", { name: "password", type: "password", id: "password-input", autocomplete: "current-password", "aria-label": t("Password"), placeholder: t("Password") })
    : null;
  const form = el(
    "form",
    { class: withAccounts ? "identity login" : "identity name", "aria-label": t("Your name") },
    el(
      "label",
      { class: "name-field" },
      el("span", { class: "caption", text: t("Your name") }),
      el("input", { name: "name", id: "name-input", value: app.name, maxlength: 32, autocomplete: withAccounts ? "username" : "nickname", required: true }),
    ),
    el("button", { type: "submit", value: "rename", class: "rename", text: t("Change") }),
    withAccounts
      ? el(
          "span",
          { class: "account-fields" },
          el("span", { class: "or dim", text: _("or, with an account:") }),
          password,
          el("button", { type: "submit", value: "login", text: t("Log in") }),
          el("button", { type: "submit", value: "register", text: t("Register") }),
          forgotButton(app, () => String(new FormData(form).get("name")).trim()),
        )
      : null,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const name = String(data.get("name")).trim();
    const secret = password ? password.value : "";
    // Enter in the password field means logging in, whatever button the browser picked
    let what = event.submitter ? event.submitter.value : "rename";
    if (what === "rename" && password && document.activeElement === password) what = "login";
    if (what === "rename") {
      if (!name || name === app.name) return;
      app.name = name;
      app.notice = "";
      rememberName(name);
      app.welcome = null;
      app.conn.restart();
      return;
    }
    password.required = true;
    const filled = password.reportValidity();
    password.required = false;
    if (!filled) return;
    if (what === "register") ask("register", { name, password: secret });
    else ask("login", { name, password: secret, token: null });
  });
  return form;
}

// The logged-in player: name and rating, their page, log out, the password, their games in one
// file, deleting the account.
function accountBar(me) {
  return el(
    "div",
    { class: "account" },
    el("span", { class: "logged-in" }, t("Logged in as {name} ({rating})", { name: me.name, rating: me.rating })),
    el("a", { href: `/player/${encodeURIComponent(me.name)}`, "data-link": "player", id: "my-games", text: t("Games of {name}", { name: me.name }) }),
    el("button", { type: "button", text: t("Log out"), onclick: () => ask("logout") }),
    passwordControl((type, fields) => ask(type, fields)),
    mailControl(app, render),
    el("button", { type: "button", id: "download-games", text: t("Download my games"), onclick: () => downloadGames((type, fields) => ask(type, fields)) }),
    deleteControl(me, (type, fields) => ask(type, fields)),
  );
}

// The board as a newcomer first sees it, a game under way: the twelve islands and their lines,
// a few bridges of each colour. Only a picture (the lessons and the table are the real board).
function boardPicture() {
  const board = app.board;
  if (!board) return null;
  const [x, y, w, h] = board.view_box;
  const colour = (k) => (k % 6 === 1 ? "white" : k % 7 === 4 ? "black" : null);
  return svg(
    "svg",
    { class: "board-picture", viewBox: `${x} ${y} ${w} ${h}`, "aria-hidden": "true", focusable: "false" },
    svg("rect", { x, y, width: w, height: h, rx: 24, class: "sea" }),
    ...board.lines.map((line, k) => svg("path", { d: line.d, class: colour(k) ? `bridge ${colour(k)}` : "free" })),
    ...board.islands.map((island) =>
      svg(
        "g",
        { class: "island" },
        svg("circle", { cx: island.x, cy: island.y, r: board.island_radius, class: "land" }),
        svg("text", { x: island.x, y: island.y + 8, text: island.name }),
      ),
    ),
  );
}

// The top: for a guest what Kahuna is, the game against the computer at once and the lessons;
// the name or the account; the notice of the last attempt.
function welcomePart() {
  const me = accounts.account;
  return el(
    "section",
    { class: `welcome${me ? " member" : ""}`, "aria-label": _("Welcome") },
    me
      ? el("h1", { class: "sr-only", text: "Kahuna" })
      : el(
          "div",
          { class: "intro" },
          el("h1", { text: _("Kahuna, a game of islands and bridges") }),
          el("p", {
            class: "about",
            text: _("Kahuna is a card game for two: as sorcerers you build bridges between twelve islands, and whoever holds more than half of an island's lines claims it and breaks the other's bridges there. Three scorings decide who wins, against the computer or a person, here in the browser."),
          }),
          el(
            "p",
            { class: "start" },
            el("button", { type: "button", id: "play-computer", class: "primary big", text: _("Play the computer now"), onclick: () => ask("create_table", computerGame()) }),
            el("a", { href: "/learn", "data-link": "learn", class: "button big", id: "learn-link", text: _("Learn the game") }),
          ),
          boardPicture(),
        ),
    el("div", { class: "who-am-i" }, me ? accountBar(me) : identityForm()),
    app.notice ? el("p", { class: "notice", role: "status", text: app.notice }) : null,
  );
}

function playPart(me) {
  const form = newTableForm(ask);
  return el(
    "section",
    { class: "part play", "aria-label": _("New table") },
    me ? el("button", { type: "button", id: "play-computer", class: "primary", text: _("Play the computer now"), onclick: () => ask("create_table", computerGame()) }) : null,
    form,
    me ? challengesPart(me, (type, fields) => ask(type, fields)) : null,
  );
}

function ratingsTable() {
  if (!accounts.ratings) return null;
  if (!accounts.ratings.length) return el("p", { class: "dim", text: _("No rated player yet.") });
  return el(
    "table",
    { class: "ratings" },
    el("caption", { text: t("Ratings") }),
    el(
      "thead",
      {},
      el("tr", {}, el("th", { text: "#" }), el("th", { text: _("Player") }), el("th", { class: "num", text: _("rating") }), el("th", { class: "num", text: _("won/lost/drawn") })),
    ),
    el(
      "tbody",
      {},
      ...accounts.ratings.map((r, i) =>
        el(
          "tr",
          { class: r.online ? "online" : "" },
          el("td", { text: String(i + 1) }),
          el("td", {}, playerLink(r.name), r.online ? el("span", { class: "online-mark", title: _("online"), "aria-label": _("online"), text: "●" }) : null),
          el("td", { class: "num", text: String(r.rating) }),
          el("td", { class: "num", text: `${r.wins}/${r.losses}/${r.draws}` }),
        ),
      ),
    ),
  );
}

function playersPart() {
  return el(
    "section",
    { class: "part players-part", "aria-label": _("Players and ratings") },
    el(
      "div",
      { class: "part-head" },
      el("h2", { text: _("Players and ratings") }),
      el("button", { type: "button", id: "ratings", class: "small", text: _("Refresh"), onclick: () => app.conn.send("get_ratings") }),
    ),
    ratingsTable(),
  );
}

// The lobby chat: a sender's name opens their page (their games, and the ways to challenge or
// ignore them); for one logged in, the flag beside another's name reports them.
function chatPart(me) {
  const flag = (sender) => (me && sender !== me.name ? reportButton(sender, "lobby") : null);
  const lines = el(
    "ul",
    { class: "lines", tabindex: 0, "aria-label": t("Chat") },
    ...accounts.chat.map((c) => el("li", {}, playerLink(c.sender, "sender"), ": ", el("span", { class: "text", text: c.text }), flag(c.sender))),
  );
  let say = el("p", { class: "dim", text: _("Log in to chat.") });
  if (me) {
    say = el(
      "form",
      { class: "say" },
      el("input", { name: "text", "aria-label": t("Chat"), maxlength: app.welcome.max_chat, autocomplete: "off" }),
      el("button", { type: "submit", text: _("say") }),
    );
    say.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = say.querySelector("input");
      const text = input.value.trim();
      if (text) ask("lobby_chat", { text });
      input.value = "";
    });
  }
  return el("section", { class: "part chat lobby-chat", "aria-label": t("Chat") }, el("h2", { text: t("Chat") }), lines, say, me ? reportForm("lobby") : null);
}

let ratingsAsked = null;

export function renderLobby(main) {
  const typed = typedFields(main);
  document.title = calledTitle("Kahuna");
  const withAccounts = Boolean(app.welcome && app.welcome.accounts);
  // the leaderboard is part of the lobby: asked for once a connection
  if (withAccounts && ratingsAsked !== app.welcome && app.conn.send("get_ratings")) ratingsAsked = app.welcome;
  const me = accounts.account;
  replace(
    main,
    el(
      "div",
      { class: `lobby${me ? " member" : ""}` },
      welcomePart(),
      el(
        "div",
        { class: `lobby-parts${withAccounts ? " with-accounts" : ""}` },
        tablesPart(),
        playPart(me),
        withAccounts ? el("div", { class: "community" }, moderationPart(), tournamentsPart(me), playersPart(), chatPart(me)) : null,
      ),
    ),
  );
  restoreFields(main, typed);
}
