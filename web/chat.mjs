// The table's chat: its last hundred lines and the line to say something.

import { byId, el } from "./dom.mjs";
import { app } from "./state.mjs";
import { _, t } from "./words.mjs";

export function chatSection(known) {
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
  return el(
    "section",
    { class: "chat", "aria-label": t("Chat") },
    el(
      "ul",
      { class: "lines", id: "chat-lines" },
      ...known.chat.slice(-100).map((c) => el("li", {}, el("b", { class: "sender", text: c.sender }), ": ", el("span", { class: "text", text: c.text }))),
    ),
    chatForm,
  );
}
