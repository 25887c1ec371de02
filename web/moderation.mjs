// Moderation on the page (protocol version 4): a logged-in player reports another from where
// their name is shown (a line of the lobby's chat or a table's, their page), with a reason; and
// for the server's moderators, a panel in the lobby: the open reports with the chat around them
// (each closed with a note), the actions (mute, close a table, disable an account, ban an
// address or a network, and their undoing; end a tournament, or give it another director), what
// is in force, and the moderation log. The server decides who is a moderator: only a moderator
// is sent `moderation`.

import { accounts } from "./accounts.mjs";
import { el } from "./dom.mjs";
import { MODERATION_ACTIONS, MODERATORS } from "./code-words.mjs";
import { render, send } from "./state.mjs";
import { tournaments } from "./tournament.mjs";
import { _, t } from "./words.mjs";

export const moderation = {
  panel: null, // the last `moderation` message: set only for a moderator
  reporting: null, // {name, tableId, where}: the report form open for this player
};

// Marks a sentence for the catalogue (make pot) where it is translated later, by t() when shown.
const N_ = (msgid) => msgid;

// What a moderator's panel offers, and what each action asks for.
const ACTIONS = [
  ["mute", N_("Mute a player"), "player"],
  ["unmute", N_("Lift a mute"), "player"],
  ["close_table", N_("Close a table"), "table"],
  ["disable", N_("Disable an account"), "player"],
  ["enable", N_("Enable an account"), "player"],
  ["ban", N_("Ban an address or network"), "address"],
  ["unban", N_("Lift a ban"), "address"],
  ["ban_player", N_("Ban a player's addresses (never shown)"), "player"],
  ["unban_player", N_("Lift the ban of a player's addresses"), "player"],
  ["close_tournament", N_("End a tournament"), "tournament"],
  ["hand_tournament", N_("Give a tournament another director"), "tournament"],
];
const TIMED = new Set(["mute", "ban", "ban_player"]);
const DURATIONS = [
  [600, N_("10 minutes")],
  [3600, N_("1 hour")],
  [86400, N_("1 day")],
  [7 * 86400, N_("7 days")],
  [30 * 86400, N_("30 days")],
];

// What a line of the log says was done, in the reader's language.
function actionWords(entry) {
  // the operator: said as a role, not a name
  const who = Object.hasOwn(MODERATORS, entry.moderator) ? _(MODERATORS[entry.moderator]) : entry.moderator;
  const sentence = MODERATION_ACTIONS[entry.action];
  if (!sentence) return `${who} ${entry.action} ${entry.target}`; // newer than this page
  return t(sentence, { moderator: who, target: entry.target, name: entry.name || "?" });
}

// A ban by player names the player: their addresses are never sent.
function sanctionTarget(s) {
  return s.of_player ? t("the addresses of {name}", { name: s.target }) : s.target;
}

function when(unix) {
  return new Date(unix * 1000).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "short", timeStyle: "short" });
}

// Returns true when the message was one of these.
export function moderationMessage(m, app) {
  if (m.type === "moderation") {
    const before = moderation.panel;
    moderation.panel = m;
    const newest = m.log[0];
    const me = accounts.account;
    // this moderator's action, done: said, as every request is answered
    if (before && newest && me && newest.moderator === me.name && !before.log.some((e) => e.at === newest.at && e.action === newest.action && e.target === newest.target)) {
      app.notice = t("Done, and in the log: {line}.", { line: actionWords(newest) });
    }
    return true;
  }
  if (m.type === "moderation_note") {
    if (m.note === "muted") app.notice = t("A moderator muted you until {until}: {reason}", { until: when(m.until), reason: m.reason || "" });
    else if (m.note === "unmuted") app.notice = _("A moderator lifted your mute: you may speak again.");
    else if (m.note === "reported") {
      moderation.reporting = null;
      app.notice = _("Your report is with the moderators. Thank you.");
    } else if (m.note === "moderator_revoked") {
      moderation.panel = null;
      app.notice = _("You are no longer a moderator on this server.");
    }
    return true;
  }
  if (m.type === "logged_out" || m.type === "welcome") moderation.panel = null;
  return false;
}

// The small button beside a player's name that opens the report form for them (where: "lobby",
// "table" or "player": the form shows there).
export function reportButton(name, where, tableId = null) {
  const label = t("Report {name}", { name });
  return el("button", {
    type: "button",
    class: where === "player" ? "report-player" : "report-player flag",
    title: label,
    "aria-label": label,
    // the flag is the style sheet's (::before): the line's text stays the name and the words
    text: where === "player" ? label : null,
    onclick: () => {
      moderation.reporting = { name, tableId, where, reason: "", focused: true };
      render();
    },
  });
}

// The report form, where one is open at this place: the reason, Send and Cancel. What is typed
// is kept here, so that the table's drawing at every move loses none of it.
export function reportForm(where) {
  const open = moderation.reporting;
  if (!open || open.where !== where) return null;
  const input = el("input", {
    name: "reason",
    id: "report-reason",
    required: true,
    maxlength: 200,
    autocomplete: "off",
    value: open.reason,
    oninput: () => {
      open.reason = input.value;
    },
  });
  const form = el(
    "form",
    { class: "report", "aria-label": t("Report {name}", { name: open.name }) },
    el("label", {}, t("Why do you report {name}?", { name: open.name }), " ", input),
    el("button", { type: "submit", class: "primary", text: _("Send the report") }),
    el("button", {
      type: "button",
      class: "cancel",
      text: t("Cancel"),
      onclick: () => {
        moderation.reporting = null;
        render();
      },
    }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const reason = input.value.trim();
    if (reason) send("report_player", { name: open.name, reason, table_id: open.tableId });
  });
  // focused when it opens, and again after a drawing if it had the focus (the one drawn before
  // is still on the page while this one is made)
  const active = document.activeElement;
  if (open.focused || (active && active.id === "report-reason")) queueMicrotask(() => input.isConnected && input.focus());
  open.focused = false;
  return form;
}

function chatLines(report) {
  if (!report.chat.length) return null;
  return el(
    "ul",
    { class: "report-chat" },
    ...report.chat.map((line) =>
      el(
        "li",
        { class: line.sender === report.name ? "reported" : "" },
        el("span", { class: "dim", text: line.place === "lobby" ? _("lobby") : _("table") }),
        " ",
        el("b", { text: line.sender }),
        ": ",
        el("span", { text: line.text }),
      ),
    ),
  );
}

function reportItem(report) {
  const close = el(
    "form",
    { class: "close-report", "aria-label": t("Close report {n}", { n: report.report_id }) },
    el("input", { name: "note", required: true, maxlength: 200, autocomplete: "off", "aria-label": _("How it was dealt with"), placeholder: _("How it was dealt with") }),
    el("button", { type: "submit", text: t("Close report {n}", { n: report.report_id }) }),
  );
  close.addEventListener("submit", (event) => {
    event.preventDefault();
    const note = String(new FormData(close).get("note")).trim();
    if (note) send("close_report", { report_id: report.report_id, note });
  });
  const where = report.table_id ? ` ${t("(table {table})", { table: report.table_id })}` : "";
  return el(
    "li",
    { class: "report-item", "data-report": String(report.report_id) },
    el(
      "p",
      {},
      el("strong", { text: `#${report.report_id} ${report.name}` }),
      " ",
      t("reported by {reporter} at {when}", { reporter: report.reporter, when: when(report.at) }),
      `${where}: `,
      el("span", { class: "reason", text: report.reason }),
    ),
    chatLines(report),
    close,
  );
}

function actionForm() {
  const form = el(
    "form",
    { class: "moderate", "aria-label": _("Moderator's action") },
    el(
      "label",
      {},
      _("Action"),
      " ",
      el("select", { name: "action" }, ...ACTIONS.map(([value, label]) => el("option", { value, text: _(label) }))),
    ),
    el("label", {}, _("Player, table, tournament or address"), " ", el("input", { name: "target", required: true, maxlength: 64, autocomplete: "off", list: "moderation-tournaments" })),
    tournamentChoices(),
    el("label", { class: "director" }, _("New director (a tournament given on)"), " ", el("input", { name: "name", maxlength: 64, autocomplete: "off" })),
    el(
      "label",
      { class: "duration" },
      _("For (a mute or a ban)"),
      " ",
      el("select", { name: "seconds" }, ...DURATIONS.map(([value, label]) => el("option", { value: String(value), text: _(label) }))),
    ),
    el("label", {}, _("Reason"), " ", el("input", { name: "reason", required: true, maxlength: 200, autocomplete: "off" })),
    el("button", { type: "submit", class: "primary", text: _("Do it") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const action = String(data.get("action"));
    send("moderate", {
      action,
      target: String(data.get("target")).trim(),
      reason: String(data.get("reason")).trim(),
      seconds: TIMED.has(action) ? Number(data.get("seconds")) : null,
      name: action === "hand_tournament" ? String(data.get("name")).trim() : null,
    });
    // the next action starts afresh (a refusal says why; the log says what was done)
    form.reset();
  });
  return form;
}

// The tournaments not over that the lobby lists, offered by name for the target's field: their
// ids are what the server takes, and no page shows them.
function tournamentChoices() {
  const going = (tournaments.list || []).filter((summary) => summary.status !== "finished");
  return el(
    "datalist",
    { id: "moderation-tournaments" },
    ...going.map((summary) => el("option", { value: summary.tournament_id, label: t("Tournament: {name}", { name: summary.name }) })),
  );
}

function inForce(panel) {
  const rows = [
    ...panel.mutes.map((s) => [_("Muted:"), `${s.target} (${when(s.until)}): ${s.reason}`]),
    ...panel.bans.map((s) => [_("Banned:"), `${sanctionTarget(s)} (${when(s.until)}): ${s.reason}`]),
    ...panel.disabled.map((name) => [_("Disabled:"), name]),
  ];
  if (!rows.length) return null;
  return el("ul", { class: "in-force" }, ...rows.map(([label, text]) => el("li", {}, el("b", { text: label }), " ", text)));
}

function logList(panel) {
  if (!panel.log.length) return el("p", { class: "dim", text: _("Nothing is in the log yet.") });
  return el(
    "ol",
    { class: "moderation-log" },
    ...panel.log.slice(0, 30).map((e) =>
      el(
        "li",
        {},
        el("span", { class: "dim", text: when(e.at) }),
        ` ${actionWords(e)}`,
        e.until ? ` ${t("until {until}", { until: when(e.until) })}` : "",
        e.reason ? `: ${e.reason}` : "",
      ),
    ),
  );
}

// The moderator's panel in the lobby; nothing for anyone else.
export function moderationPart() {
  const panel = moderation.panel;
  if (!panel) return null;
  return el(
    "section",
    { class: "part moderation", "aria-label": _("Moderation") },
    el("h2", { text: _("Moderation") }),
    el("h3", { text: _("Open reports") }),
    panel.reports.length ? el("ul", { class: "reports" }, ...panel.reports.map(reportItem)) : el("p", { class: "dim", text: _("No open reports.") }),
    actionForm(),
    inForce(panel),
    el("details", {}, el("summary", {}, el("h3", { text: _("Moderation log") })), logList(panel)),
  );
}
