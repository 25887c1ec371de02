// The page of a password reset mail's link (/reset?code=CODE, served by
// server/net/mail_links.py): the new password, typed twice, goes with the mail's code in a
// `reset_password` message (docs/protocol.md, Version 4, E-mail) over the same WebSocket as the
// page's; the server answers `mail_note` password_reset, or an error by its code.

import { decode, encode } from "./vendor/msgpack.mjs";
import { preferredLanguage, setLanguage, t } from "./words.mjs";

const PROTOCOL_VERSION = 4;

function byId(id) {
  return document.getElementById(id);
}

function say(text) {
  byId("reset-said").textContent = text;
}

function words() {
  byId("reset-lead").textContent = t("Choose a new password.");
  byId("reset-label").textContent = t("New password");
  byId("reset-again-label").textContent = t("The same again");
  byId("reset-submit").textContent = t("Set the password");
  byId("reset-lobby").textContent = t("To the lobby");
}

// What the server's answer means, in the reader's language.
function answered(message) {
  if (message.type === "mail_note" && message.note === "password_reset") {
    byId("reset-form").hidden = true;
    return t("Your password is changed: log in with it in the lobby.");
  }
  if (message.code === "bad_code") {
    return t("This link is not good (any more): its code is wrong, used or expired.");
  }
  if (message.code === "bad_password") {
    return t("This password is refused: {why}", { why: message.message });
  }
  return t("The server refused it: {why}", { why: message.message });
}

function send(code, password) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/`);
  ws.binaryType = "arraybuffer";
  ws.addEventListener("open", () => {
    ws.send(encode({ type: "hello", version: PROTOCOL_VERSION, name: "reset" }));
  });
  ws.addEventListener("message", (event) => {
    const message = decode(new Uint8Array(event.data));
    if (message.type === "welcome") {
      ws.send(encode({ type: "reset_password", code, password }));
      return;
    }
    if (message.type === "mail_note" || message.type === "error") {
      say(answered(message));
      ws.close();
    }
  });
  ws.addEventListener("error", () => say(t("No connection to the server: try again.")));
}

async function start() {
  try {
    await setLanguage(preferredLanguage());
  } catch {
    // the English words stay
  }
  words();
  const code = new URLSearchParams(location.search).get("code") || "";
  byId("reset-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const password = byId("reset-password").value;
    if (password !== byId("reset-again").value) {
      say(t("The two passwords differ."));
      return;
    }
    say(t("Sending…"));
    send(code, password);
  });
}

start();
