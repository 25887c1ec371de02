// The table's chat: its last hundred lines and the line to say something. A sender who plays
// at the table with an account (a rating) is a link to their page, and a logged-in member may
// report them from there (web/moderation.mjs).

import { accounts } from "./accounts.mjs";
import { byId, el } from "./dom.mjs";
import { reportButton, reportForm } from "./moderation.mjs";
import { playerLink } from "./players.mjs";
import { app } from "./state.mjs";
import { _, t } from "./words.mjs";

function accountsAt(known) {
  const names = new Set();
  for (const p of Object.values(known.players || {})) {
    if (p && typeof p.rating === "number" && !p.computer) names.add(p.name);
  }
  return names;
}

export function chatSection(known) {
  const accountNames = accountsAt(known);
  const me = accounts.account;
  const sender = (name) => (accountNames.has(name) ? playerLink(name, "sender") : el("b", { class: "sender", text: name }));
  // a logged-in member reports a player of the table (an account) from their line
  const flag = (name) => (me && accountNames.has(name) && name !== me.name ? reportButton(name, "table", known.id) : null);
  const chatForm = el(
    "form",
    { class: "say" },
    el("input", { name: "text", id: "chat-input", maxlength: app.welcome ? app.welcome.max_chat : 300, "aria-label": t("Chat"), placeholder: _("Say something to the table"), autocomplete: "off" }),
    el("button", { type: "submit", text: _("say") }),
  );
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = byId("chat-input");
    const text = input.value.trim();
    if (text && app.conn.send("chat", { table_id: known.id, text })) input.value = "";
  });
  return el(
    "section",
    { class: "chat", "aria-label": t("Chat") },
    el(
      "ul",
      { class: "lines", id: "chat-lines" },
      ...known.chat.slice(-100).map((c) => el("li", {}, sender(c.sender), ": ", el("span", { class: "text", text: c.text }), flag(c.sender))),
    ),
    chatForm,
    me ? reportForm("table") : null,
  );
}
