// The lobby's screen at /: a notice, the player's name (or the account's panel), the form for a
// new table and the tables on this server; drawn anew for every message, keeping what the player
// typed in its forms (web/fields.mjs).

import { accountPanel, accounts } from "./accounts.mjs";
import { el, replace } from "./dom.mjs";
import { restoreFields, typedFields } from "./fields.mjs";
import { rememberName, savedSeat } from "./kept.mjs";
import { newTableForm } from "./new-table.mjs";
import { playerLabel } from "./players.mjs";
import { analyseGame, enterTable } from "./routes.mjs";
import { app } from "./state.mjs";
import { _, fmt, t } from "./words.mjs";

function tableRow(info) {
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
}

function tableList() {
  const rows = app.lobby.map(tableRow);
  return el(
    "section",
    { class: "tables", "aria-label": _("Tables on this server") },
    el("h2", { text: _("Tables on this server") }),
    rows.length ? el("ul", {}, ...rows) : el("p", { text: t("No tables yet.") }),
  );
}

// A new name is a new hello: the connection starts again under it.
function nameForm() {
  const form = el(
    "form",
    { class: "name" },
    el("label", {}, t("Your name"), " ", el("input", { name: "name", id: "name-input", value: app.name, maxlength: 32, autocomplete: "nickname" })),
    el("button", { type: "submit", text: t("Change") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = new FormData(form).get("name").trim();
    if (!name || name === app.name) return;
    app.name = name;
    rememberName(name);
    app.welcome = null;
    app.conn.restart();
  });
  return form;
}

export function renderLobby(main) {
  const typed = typedFields(main);
  document.title = "Kahuna";
  const form = newTableForm();
  const list = tableList();
  const name = nameForm();
  const panel = accountPanel(app.welcome, (type, fields) => app.conn.send(type, fields), analyseGame);
  replace(
    main,
    app.notice ? el("p", { class: "notice", role: "status", text: app.notice }) : null,
    accounts.account ? null : name,
    panel,
    form,
    list,
  );
  restoreFields(main, typed);
}
