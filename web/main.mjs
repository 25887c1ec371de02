// The page: the lobby at /, a table at /table/ID. One connection, the protocol's newest version;
// what to show comes from what the server sends, as in the terminal client.

import { accountMessage, accountPanel, accounts, resumeLogin } from "./accounts.mjs";
import { analysisMessage, analysisOf, analysisPanel, forgetUnfinished, requestAnalysis } from "./analysis.mjs";
import { drawBoard } from "./board.mjs";
import { byId, el, replace } from "./dom.mjs";
import { describeAction, playWords, reasonWords } from "./events.mjs";
import { closingWords, errorWords } from "./errors.mjs";
import { makeRules, parseAction } from "./legality.mjs";
import { Connection, PROTOCOL_VERSION } from "./net.mjs";
import {
  LANGUAGES,
  _,
  fmt,
  language,
  preferredLanguage,
  seatName,
  setLanguage,
  t,
} from "./words.mjs";

const app = {
  board: null,
  rules: null,
  conn: null,
  name: "",
  welcome: null,
  lobby: [],
  tables: new Map(), // table id -> what the page knows of it
  current: null, // the table shown (null: the lobby)
  selection: null, // {line} or {card}: what the player picked on the board or in the hand
  notice: "",
  confirmResign: false,
  status: "connecting",
};

// ----- the seat token: this tab's session storage only, never a URL or a log ----------------

const seatKey = (id) => `kahuna.seat.${id}`;

function savedSeat(id) {
  try {
    const raw = sessionStorage.getItem(seatKey(id));
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function saveSeat(id, seat, token) {
  try {
    sessionStorage.setItem(seatKey(id), JSON.stringify({ seat, token }));
  } catch {
    // no session storage: the seat lasts as long as the connection
  }
}

function forgetSeat(id) {
  try {
    sessionStorage.removeItem(seatKey(id));
  } catch {
    // nothing kept
  }
}

// ----- the name: a preference (local storage), not a secret ----------------------------------

function preferredName() {
  let name = null;
  try {
    name = localStorage.getItem("kahuna.name");
  } catch {
    name = null;
  }
  return name || guestName();
}

function guestName() {
  return `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
}

function rememberName(name) {
  try {
    localStorage.setItem("kahuna.name", name);
  } catch {
    // kept for this page only
  }
}

// ----- routes ---------------------------------------------------------------------------------

function tableFromPath() {
  const match = /^\/table\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
  return match ? match[1] : null;
}

function go(tableId) {
  const path = tableId ? `/table/${tableId}` : "/";
  if (location.pathname !== path) history.pushState({}, "", path);
  app.current = tableId;
  app.selection = null;
  app.confirmResign = false;
  render();
}

function enterTable(id) {
  const seat = savedSeat(id);
  if (seat) app.conn.send("reclaim", { table_id: id, token: seat.token });
  else if (accounts.account) app.conn.send("resume", { table_id: id }); // a seat of the account?
  else app.conn.send("spectate", { table_id: id });
}

// ----- messages from the server ---------------------------------------------------------------

function table(id) {
  let found = app.tables.get(id);
  if (!found) {
    found = { id, role: null, version: -1, view: null, players: null, status: "waiting" };
    found.chat = [];
    found.log = [];
    found.recent = new Set();
    found.pending = false;
    found.closed = null;
    found.receivedAt = performance.now();
    app.tables.set(id, found);
  }
  return found;
}

function received(m) {
  if (accountMessage(m, app) || analysisMessage(m)) {
    render();
    return;
  }
  switch (m.type) {
    case "welcome":
      app.welcome = m;
      forgetUnfinished();
      if (m.name) app.name = m.name;
      if (m.name_note === "name_registered") {
        app.notice = t("That name belongs to an account; you play as {name}.", { name: m.name });
      }
      app.conn.send("lobby_subscribe");
      resumeLogin(m, (type, fields) => app.conn.send(type, fields));
      if (app.current) enterTable(app.current);
      break;
    case "error":
      onError(m);
      break;
    case "lobby":
      app.lobby = m.tables;
      if (app.current) return; // the table on the screen stays as it is
      break;
    case "joined": {
      saveSeat(m.table_id, m.seat, m.token);
      const known = table(m.table_id);
      known.role = m.seat;
      known.closed = null;
      if (app.current !== m.table_id) go(m.table_id);
      break;
    }
    case "spectating": {
      const known = table(m.table_id);
      known.role = "spectator";
      known.closed = null;
      if (app.current !== m.table_id) go(m.table_id);
      break;
    }
    case "history": {
      const known = table(m.table_id);
      known.log = m.events.map(describeAction).filter((line) => line);
      break;
    }
    case "state": {
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
      if (m.table_id === app.current) app.selection = null;
      break;
    }
    case "update": {
      const known = table(m.table_id);
      if (m.version !== known.version + 1) {
        app.conn.send("resync", { table_id: m.table_id });
        break;
      }
      known.version = m.version;
      known.view = m.view;
      known.pending = false;
      known.receivedAt = performance.now();
      const line = describeAction(m.events);
      if (line) known.log.push(line);
      known.recent = new Set(m.events.filter((e) => e.line).map((e) => e.line));
      if (m.events.some((e) => e.type === "GameOver")) known.status = "over";
      if (m.table_id === app.current) {
        app.selection = null;
        app.confirmResign = false;
      }
      break;
    }
    case "players": {
      const known = table(m.table_id);
      known.players = m.players;
      known.status = m.status;
      break;
    }
    case "watchers": // version 3: who watches the table
      table(m.table_id).watchers = m.names;
      break;
    case "chat_message":
      table(m.table_id).chat.push({ sender: m.sender, text: m.text, role: m.role });
      break;
    case "table_note":
      onNote(m);
      break;
    case "table_closed": {
      const known = table(m.table_id);
      known.closed = m.code || "closed";
      forgetSeat(m.table_id);
      if (m.table_id === app.current) {
        app.notice = fmt(_("Table {table} closed: {reason}."), { table: m.table_id, reason: closingWords(m) });
      }
      break;
    }
    case "left":
      if (m.table_id === app.current && m.code === "reclaimed_elsewhere") {
        app.notice = t("Your seat was taken back from another window.");
      }
      break;
    default:
      return; // a message this page does not show
  }
  render();
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

// What a note changes of the table's state, until the next view says it again.
const NOTE_CHANGES = {
  draw_offered: (info, m) => { info.draw_offer = m.seat; },
  draw_declined: (info) => { info.draw_offer = null; },
  rematch_offered: (info, m) => { info.rematch_offer = m.seat; },
  rematch_declined: (info) => { info.rematch_offer = null; },
  rematch_started: (info, m) => { info.rematch_table = m.detail; },
  claim_available: (info, m) => { info.claim = m.seat; },
};

function onNote(m) {
  const known = app.tables.get(m.table_id);
  if (known && known.view && NOTE_CHANGES[m.note]) {
    const view = known.view;
    if (!view.table) view.table = {};
    NOTE_CHANGES[m.note](view.table, m);
  }
  const who = m.seat ? seatName(m.seat) : "";
  const words = {
    draw_offered: t("{seat} offers a draw.", { seat: who }),
    draw_declined: t("{seat} declined the draw.", { seat: who }),
    rematch_offered: t("{seat} offers a rematch.", { seat: who }),
    rematch_declined: t("The rematch offer fell."),
    claim_available: t("{seat} may claim the win.", { seat: who }),
    rematch_started: fmt(_("Rematch at table {table}"), { table: m.detail || "" }),
  };
  if (m.table_id === app.current && words[m.note]) app.notice = words[m.note];
}

// ----- what the player does -------------------------------------------------------------------

function shown() {
  return app.current ? app.tables.get(app.current) || null : null;
}

function publicOf(known) {
  if (!known || !known.view) return null;
  return known.role === "spectator" ? known.view : known.view.public;
}

function tableOf(known) {
  // (a seat's view and a spectator's both have it at the top: a spectator's view is the public
  // part, with `table` in it)
  return (known && known.view && known.view.table) || {};
}

function legal(known) {
  if (!known || !known.view || known.role === "spectator" || known.pending) return [];
  if (known.status !== "playing") return [];
  const ctx = app.rules.contextFromView(known.view);
  return ctx ? app.rules.legalActions(ctx) : [];
}

function command(action) {
  const known = shown();
  if (!known || known.pending) return;
  if (app.conn.send("command", { table_id: known.id, version: known.version, action })) {
    known.pending = true;
    app.selection = null;
    app.notice = "";
    render();
  }
}

function send(type, fields) {
  return app.conn.send(type, fields);
}

// A finished game of the player's games listed (version 3's archive), by its table id.
function finishedInList(id) {
  const listed = accounts.games ? accounts.games.games : [];
  return listed.some((g) => g.table_id === id && g.status === "over");
}

// The games list's Analyse: the game's page, and its analysis there.
function analyseGame(id) {
  app.notice = "";
  go(id);
  enterTable(id);
  requestAnalysis(id, send);
  render();
}

function tableMessage(type) {
  const known = shown();
  if (known) app.conn.send(type, { table_id: known.id });
}

// The actions a picked line or card allows now.
function choicesFor(actions, selection) {
  if (!selection) return [];
  return actions.filter((a) => {
    const parsed = parseAction(app.rules, a);
    if (selection.line !== undefined) return parsed.line === selection.line;
    return parsed.cards[0] === selection.card && (parsed.verb === "place" || parsed.verb === "discard");
  });
}

function onLine(k) {
  const known = shown();
  const actions = legal(known);
  const picked = app.selection && app.selection.card !== undefined ? app.selection : null;
  let options = choicesFor(actions, { line: k });
  if (picked) {
    const withCard = options.filter((a) => parseAction(app.rules, a).cards.includes(picked.card));
    if (withCard.length) options = withCard;
  }
  if (options.length === 1) {
    command(options[0]);
    return;
  }
  app.selection = { line: k };
  render();
  const first = document.querySelector("#choices button");
  if (first) first.focus();
}

function onCard(card) {
  const same = app.selection && app.selection.card === card;
  app.selection = same ? null : { card };
  render();
}

// ----- drawing --------------------------------------------------------------------------------

function render() {
  renderHeader();
  const main = byId("main");
  if (!app.board) return;
  if (app.current) renderTable(main);
  else {
    const typed = typedFields(main);
    renderLobby(main);
    restoreFields(main, typed);
  }
}

// The lobby is drawn anew for every message (a table listed, a chat line): what the player has
// typed or chosen in its forms, and where the cursor was, must survive that. Each field is known
// by its form's class and its name; only in memory, for the next drawing.
function fieldKey(field) {
  return field.form && field.name ? `${field.form.className}/${field.name}` : null;
}

function changed(field) {
  if (field.type === "checkbox") return field.checked !== field.defaultChecked;
  if (field.tagName === "SELECT") return [...field.options].some((o) => o.selected !== o.defaultSelected);
  return field.value !== field.defaultValue;
}

function typedFields(main) {
  const kept = { values: new Map(), focus: null, selection: null };
  for (const field of main.querySelectorAll("form input, form select")) {
    const key = fieldKey(field);
    if (!key) continue;
    // only what the player changed: a field left as drawn shows what the next drawing says
    if (changed(field)) kept.values.set(key, field.type === "checkbox" ? field.checked : field.value);
    if (field === document.activeElement) {
      kept.focus = key;
      if (field.type === "text" || field.type === "password") {
        kept.selection = [field.selectionStart, field.selectionEnd];
      }
    }
  }
  return kept;
}

function restoreFields(main, kept) {
  for (const field of main.querySelectorAll("form input, form select")) {
    const key = fieldKey(field);
    if (!key) continue;
    if (kept.values.has(key)) {
      const value = kept.values.get(key);
      if (field.type === "checkbox") field.checked = value;
      else field.value = value;
    }
    if (key === kept.focus) {
      field.focus();
      if (kept.selection) field.setSelectionRange(...kept.selection);
    }
  }
}

function renderHeader() {
  const status = byId("connection");
  const words = { connecting: _("connecting"), connected: _("connected"), reconnecting: _("reconnecting") };
  status.textContent = words[app.status] || app.status;
  status.className = `connection ${app.status}`;
  byId("me").textContent = app.name;
}

function playerLabel(players, seat) {
  const p = players ? players[seat] : null;
  if (!p) return _("(empty seat)");
  let text = p.name;
  if (p.rating !== undefined && p.rating !== null) text += ` ${p.rating}`;
  if (!p.connected && !p.computer) text += ` ${_("(away)")}`;
  return text;
}

function renderLobby(main) {
  document.title = "Kahuna";
  const levels = ["easy", "normal", "strong"];
  const form = el(
    "form",
    { class: "create", "aria-label": _("New table") },
    el("h2", { text: _("New table") }),
    el(
      "label",
      {},
      el("input", { type: "checkbox", name: "computer", checked: true, id: "vs-computer" }),
      " ",
      _("Against the computer"),
    ),
    el(
      "label",
      {},
      _("The computer's level"),
      " ",
      el("select", { name: "level", id: "level" }, ...levels.map((l) => el("option", { value: l, text: _(l), selected: l === "easy" }))),
    ),
    el(
      "label",
      {},
      _("Your seat"),
      " ",
      el(
        "select",
        { name: "seat", id: "seat" },
        el("option", { value: "white", text: _("White") }),
        el("option", { value: "black", text: _("Black") }),
      ),
    ),
    el(
      "label",
      {},
      _("Time control"),
      " ",
      el(
        "select",
        { name: "clock", id: "clock" },
        el("option", { value: "", text: _("none") }),
        el("option", { value: "300+5", text: "5 min + 5 s" }),
        el("option", { value: "900+10", text: "15 min + 10 s" }),
      ),
    ),
    el("label", {}, el("input", { type: "checkbox", name: "variant1" }), " ", _("Variant 1")),
    el("label", {}, el("input", { type: "checkbox", name: "variant2" }), " ", _("Variant 2")),
    app.welcome && app.welcome.accounts
      ? el("label", {}, el("input", { type: "checkbox", name: "rated", checked: true }), " ", t("rated"))
      : null,
    el("button", { type: "submit", id: "create", text: t("Create and sit down") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const clock = data.get("clock");
    const fields = {
      options: {
        variant1: data.get("variant1") === "on",
        variant2: data.get("variant2") === "on",
        handicap_seat: null,
        handicap_bridges: 0,
      },
      vs_computer: data.get("computer") === "on",
      seat: data.get("seat"),
      first: "white",
      clock: null,
      level: data.get("level"),
      hints: true,
      rated: data.get("rated") === "on",
    };
    if (clock) {
      const [initial, increment] = clock.split("+").map(Number);
      fields.clock = { initial, increment, per_turn: 0 };
    }
    app.conn.send("create_table", fields);
  });
  const rows = app.lobby.map((info) => {
    const free = !info.players.white || !info.players.black;
    const mine = savedSeat(info.table_id);
    const status = { waiting: _("Waiting for an opponent"), playing: _("play"), over: _("game over") }[info.status];
    const extras = [];
    if (info.vs_computer) extras.push(fmt(_("computer: {level}"), { level: _(info.level) }));
    if (info.options.variant1) extras.push(_("Variant 1"));
    if (info.options.variant2) extras.push(_("Variant 2"));
    if (info.rated) extras.push(t("rated"));
    return el(
      "li",
      { class: "table-row", "data-table": info.table_id },
      el("span", { class: "id", text: fmt(_("table {id}"), { id: info.table_id }) }),
      el("span", { class: "who", text: `${playerLabel(info.players, "white")} – ${playerLabel(info.players, "black")}` }),
      el("span", { class: "what", text: [status, ...extras].join(" · ") }),
      el(
        "span",
        { class: "buttons" },
        mine
          ? el("button", { type: "button", text: t("Back to my seat"), onclick: () => enterTable(info.table_id) })
          : free && info.status === "waiting"
            ? el("button", { type: "button", class: "join", text: t("Join"), onclick: () => app.conn.send("join", { table_id: info.table_id, seat: null }) })
            : null,
        info.status === "over"
          ? el("button", { type: "button", class: "analyse", "data-table": info.table_id, text: t("Analyse"), onclick: () => analyseGame(info.table_id) })
          : null,
        el("a", { href: `/table/${info.table_id}`, class: "watch", text: t("Watch"), "data-link": "table" }),
      ),
    );
  });
  const list = el(
    "section",
    { class: "tables", "aria-label": _("Tables on this server") },
    el("h2", { text: _("Tables on this server") }),
    rows.length ? el("ul", {}, ...rows) : el("p", { text: t("No tables yet.") }),
  );
  const nameForm = el(
    "form",
    { class: "name" },
    el("label", {}, t("Your name"), " ", el("input", { name: "name", id: "name-input", value: app.name, maxlength: 32, autocomplete: "nickname" })),
    el("button", { type: "submit", text: t("Change") }),
  );
  nameForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = new FormData(nameForm).get("name").trim();
    if (!name || name === app.name) return;
    app.name = name;
    rememberName(name);
    app.welcome = null;
    app.conn.restart();
  });
  const panel = accountPanel(app.welcome, (type, fields) => app.conn.send(type, fields), analyseGame);
  replace(
    main,
    app.notice ? el("p", { class: "notice", role: "status", text: app.notice }) : null,
    accounts.account ? null : nameForm,
    panel,
    form,
    list,
  );
}

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockLeft(known, seat) {
  const clock = tableOf(known).clock;
  if (!clock) return null;
  let ms = clock[seat];
  if (clock.running === seat) ms -= performance.now() - known.receivedAt;
  return ms;
}

function tickClocks() {
  const known = shown();
  if (!known) return;
  for (const seat of ["white", "black"]) {
    const node = document.querySelector(`.player.${seat} .clock`);
    const ms = clockLeft(known, seat);
    if (node && ms !== null) node.textContent = clockText(ms);
  }
}

function renderTable(main) {
  const known = shown();
  const focused = document.activeElement && document.activeElement.id;
  const focusedLine = document.activeElement && document.activeElement.getAttribute && document.activeElement.getAttribute("data-line");
  document.title = `Kahuna · ${fmt(_("table {id}"), { id: app.current })}`;
  if (!known || !known.view) {
    // a finished game whose table has closed: its analysis, from the archive, if asked for
    const archived = analysisOf(app.current) || finishedInList(app.current);
    const closed = archived ? t("The table was closed.") : app.notice || t("The table was closed.");
    replace(
      main,
      el("p", { class: "notice", role: "status", text: known && known.closed ? closed : _("Waiting for the table's state...") }),
      el("p", {}, el("a", { href: "/", "data-link": "lobby", text: t("Back to the lobby") })),
      archived ? analysisPanel(app.current, null, send, render) : null,
    );
    return;
  }
  const pub = publicOf(known);
  const info = tableOf(known);
  const mySeat = known.role === "spectator" ? null : known.role;
  if (mySeat && pub.to_move === mySeat && known.status === "playing") {
    // what a tab in the background says: a game of days, or a live one while reading elsewhere
    document.title = `(${_("Your turn")}) ${document.title}`;
  }
  const actions = legal(known);
  const choices = choicesFor(actions, app.selection);
  const active = new Set();
  for (const a of app.selection && app.selection.card !== undefined ? choices : actions) {
    const parsed = parseAction(app.rules, a);
    if (parsed.line !== null && parsed.line !== undefined) active.add(parsed.line);
  }
  const selectedLine = app.selection && app.selection.line !== undefined ? app.selection.line : null;
  const boardNode = drawBoard(app.board, pub, { active, selected: selectedLine, recent: known.recent, onLine });
  const scores = [0, 0];
  for (const [w, b] of pub.round_points) {
    scores[0] += w;
    scores[1] += b;
  }
  const players = ["white", "black"].map((seat, i) =>
    el(
      "div",
      { class: `player ${seat}${pub.to_move === seat && known.status === "playing" ? " to-move" : ""}` },
      el("span", { class: "seat", text: seatName(seat) }),
      el("span", { class: "pname", text: playerLabel(known.players, seat) + (seat === mySeat ? ` ${_("(you)")}` : "") }),
      el("span", { class: "score", text: t("{n} pt", { n: scores[i] }) }),
      el("span", {
        class: "counts",
        text: fmt(_("tokens {tokens} bridges {bridges} cards {cards}"), {
          tokens: pub.tokens[seat].length,
          bridges: pub.bridges[seat].length,
          cards: pub.hand_sizes[seat],
        }),
      }),
      pub.open_cards[seat].length
        ? el("span", { class: "open-cards", text: `${_("open:")} ${pub.open_cards[seat].join(" ")}` })
        : null,
      info.clock ? el("span", { class: "clock", text: clockText(clockLeft(known, seat)) }) : null,
    ),
  );
  const turn = turnText(known, pub, mySeat, actions);
  const hand = mySeat ? known.view.hand : [];
  const handNode = mySeat
    ? el(
        "div",
        { class: "hand", role: "group", "aria-label": fmt(_("Your hand ({n} of 5)"), { n: hand.length }) },
        el("span", { class: "label", text: fmt(_("Your hand ({n} of 5)"), { n: hand.length }) }),
        ...hand.map((card) => {
          const usable = actions.some((a) => parseAction(app.rules, a).cards[0] === card && /^(place|discard)/.test(a));
          return el("button", {
            type: "button",
            class: `card${app.selection && app.selection.card === card ? " selected" : ""}`,
            "data-card": card,
            disabled: !usable,
            "aria-pressed": String(Boolean(app.selection && app.selection.card === card)),
            text: card,
            onclick: () => onCard(card),
          });
        }),
        hand.length ? null : el("span", { class: "dim", text: _("no cards") }),
      )
    : el("p", { class: "dim", text: _("You are watching: no hand is shown.") });
  const row = el(
    "div",
    { class: "row", role: "group", "aria-label": _("Face up") },
    el("span", { class: "label", text: _("Face up") }),
    ...pub.face_up.map((card) =>
      el("button", {
        type: "button",
        class: "card faceup",
        "data-take": card,
        disabled: !actions.includes(`take ${card}`),
        "aria-label": `${_("take")} ${card}`,
        text: card,
        onclick: () => command(`take ${card}`),
      }),
    ),
    el("button", {
      type: "button",
      class: "pile",
      id: "draw",
      disabled: !actions.includes("draw"),
      text: `${_("Pile")} ${pub.pile_size}`,
      "aria-label": `${_("draw from the pile")} (${pub.pile_size})`,
      onclick: () => command("draw"),
    }),
    el("span", {
      class: "dim",
      text: `${_("Discards")}: ${fmt(_("{up} up, {down} down"), { up: pub.played.length, down: pub.face_down_count })}`,
    }),
  );
  const opponent = mySeat === "white" ? "black" : "white";
  const over = known.status === "over" || pub.result !== null;
  const myTurn = mySeat && pub.to_move === mySeat && known.status === "playing";
  const buttons = [];
  if (mySeat) {
    const b = (id, label, enabled, onclick) =>
      el("button", { type: "button", id, text: label, disabled: !enabled, onclick });
    if (!over) {
      buttons.push(b("abstain", _("abstain"), actions.includes("abstain"), () => command("abstain")));
      if (pub.phase === "final") buttons.push(b("end", _("end"), actions.includes("end"), () => command("end")));
      buttons.push(b("undo", _("undo"), myTurn && !known.pending && pub.undoable > 0, () => command("undo")));
      buttons.push(b("undo-turn", _("undo turn"), myTurn && !known.pending && pub.undoable > 1, () => command("undo turn")));
    }
    if (!over) {
      const offered = info.draw_offer === opponent;
      buttons.push(
        b("offer-draw", offered ? t("Accept the draw") : _("offer draw"), known.status === "playing" && info.draw_offer !== mySeat, () => tableMessage("offer_draw")),
      );
      if (offered) buttons.push(b("decline-draw", _("decline"), true, () => tableMessage("decline_draw")));
      if (info.claim === mySeat) buttons.push(b("claim", _("claim"), true, () => tableMessage("claim")));
      buttons.push(
        b("resign", app.confirmResign ? t("Really resign?") : _("resign"), known.status === "playing", () => {
          if (app.confirmResign) {
            app.confirmResign = false;
            tableMessage("resign");
          } else {
            app.confirmResign = true;
            render();
          }
        }),
      );
    } else if (!info.rematch_table) {
      const offered = info.rematch_offer === opponent;
      buttons.push(
        b("rematch", offered ? t("Accept the rematch") : _("rematch"), info.rematch_offer !== mySeat, () => tableMessage("rematch")),
      );
    }
  }
  if (info.rematch_table) {
    buttons.push(el("a", { href: `/table/${info.rematch_table}`, "data-link": "table", text: fmt(_("Rematch at table {table}"), { table: info.rematch_table }) }));
  }
  buttons.push(
    el("button", {
      type: "button",
      id: "leave",
      text: _("leave the table"),
      onclick: () => {
        tableMessage("leave");
        if (known.role === "spectator" || known.status !== "playing") forgetSeat(known.id);
        go(null);
      },
    }),
  );
  const choiceNode = el(
    "div",
    { id: "choices", class: "choices", role: "group", "aria-label": t("Choices") },
    ...choices.map((a) => el("button", { type: "button", "data-action": a, text: playWords(a), onclick: () => command(a) })),
  );
  const log = el("ol", { class: "log", "aria-label": _("log") }, ...known.log.slice(-200).map((line) => el("li", { text: line })));
  const chatForm = el(
    "form",
    { class: "say" },
    el("input", { name: "text", id: "chat-input", maxlength: app.welcome ? app.welcome.max_chat : 300, "aria-label": t("Chat"), autocomplete: "off" }),
    el("button", { type: "submit", text: _("say") }),
  );
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId("chat-input");
    const text = input.value.trim();
    if (text && app.conn.send("chat", { table_id: known.id, text })) input.value = "";
  });
  const chat = el(
    "section",
    { class: "chat", "aria-label": t("Chat") },
    el(
      "ul",
      { class: "lines", id: "chat-lines" },
      ...known.chat.slice(-100).map((c) => el("li", {}, el("b", { class: "sender", text: c.sender }), ": ", el("span", { class: "text", text: c.text }))),
    ),
    chatForm,
  );
  const chatText = byId("chat-input") ? byId("chat-input").value : "";
  replace(
    main,
    el(
      "div",
      { class: "table-view" },
      el("div", { class: "players" }, ...players),
      el("div", { class: "board-wrap" }, boardNode),
      el(
        "div",
        { class: "side" },
        el("p", { class: "turn", id: "turn", role: "status", "aria-live": "polite", text: turn }),
        known.watchers && known.watchers.length
          ? el("p", { class: "watchers", id: "watchers", text: fmt(_("watched by {names}"), { names: known.watchers.join(", ") }) })
          : null,
        app.notice ? el("p", { class: "notice", text: app.notice }) : null,
        choiceNode,
        handNode,
        row,
        el("div", { class: "actions" }, ...buttons),
        el("details", { class: "log-box", open: true }, el("summary", { text: _("log") }), log),
        chat,
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

// ----- the page's own links, the language switch, the start -----------------------------------

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const id = link.getAttribute("data-link") === "table" ? link.getAttribute("href").split("/").pop() : null;
  app.notice = "";
  go(id);
  if (id) enterTable(id);
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

window.addEventListener("popstate", () => {
  const id = tableFromPath();
  app.notice = "";
  go(id);
  if (id) enterTable(id);
});

function languageSwitch() {
  const select = byId("language");
  replace(select, ...LANGUAGES.map(([code, label]) => el("option", { value: code, text: label, selected: code === language() })));
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    render();
  });
}

async function start() {
  const [board] = await Promise.all([
    fetch("/board.json").then((r) => r.json()),
    setLanguage(preferredLanguage()).catch(() => setLanguage("en")),
  ]);
  app.board = board;
  app.rules = makeRules(board);
  app.name = preferredName();
  app.current = tableFromPath();
  languageSwitch();
  app.conn = new Connection({
    onOpen: () => app.conn.send("hello", { version: PROTOCOL_VERSION, name: app.name }),
    onMessage: received,
    onStatus: (status) => {
      app.status = status;
      renderHeader();
    },
  });
  app.conn.open();
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
