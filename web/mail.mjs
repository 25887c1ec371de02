// Version 4's e-mail in the page, on a server whose welcome says mail: the account's address
// (confirmed by the code of its mail, typed here or its link followed) and its mail settings
// (the kinds of mail it gets, their language), and for a guest "Forgot your password?", which
// asks for a reset mail for the name typed (its link opens /reset, web/reset.mjs). The address
// comes only to its own account's connections, in mail_settings.

import { el } from "./dom.mjs";
import { LANGUAGES, language, t } from "./words.mjs";

export const mail = {
  settings: null, // the last mail_settings message
  open: false, // the account's mail form is open
};

const KINDS = [
  ["turn", () => t("Your move in a game of days")],
  ["clock", () => t("Your time running low in a game of days")],
  ["challenge", () => t("A challenge to you")],
  ["tournament_round", () => t("A tournament round paired")],
];

// Returns true when the message was one of these.
export function mailMessage(m, app) {
  switch (m.type) {
    case "mail_settings":
      mail.settings = m;
      if (m.pending) app.notice = t("A code is on its way to {address}: type it here, or follow the mail's link.", { address: m.pending });
      else if (m.address) app.notice = t("Your e-mail address: {address}.", { address: m.address });
      return true;
    case "mail_note":
      app.notice =
        m.note === "reset_sent"
          ? t("If that account has a confirmed e-mail address, a mail with a link is on its way to it.")
          : t("Your password is changed: log in with it in the lobby.");
      return true;
    case "welcome": // a new connection: asked again when the form opens
    case "logged_out":
      mail.settings = null;
      mail.open = false;
      return false; // the other handlers take it too
    default:
      return false;
  }
}

// For a guest on a server that sends mail: a reset mail for the name in the name field.
export function forgotButton(app, nameOf) {
  if (!app.welcome || !app.welcome.mail) return null;
  return el("button", {
    type: "button",
    class: "forgot",
    text: t("Forgot your password?"),
    onclick: () => {
      const name = nameOf();
      if (name) app.conn.send("forgot_password", { name });
    },
  });
}

// The logged-in account's e-mail: a button, or once pressed its form.
export function mailControl(app, redraw) {
  if (!app.welcome || !app.welcome.mail) return null;
  const swap = (open) => {
    mail.open = open;
    if (open && !mail.settings) app.conn.send("get_mail_settings");
    redraw();
  };
  if (!mail.open) {
    return el("button", { type: "button", id: "mail-settings", text: t("E-mail"), onclick: () => swap(true) });
  }
  const s = mail.settings || { address: null, pending: null, language: language(), notify: KINDS.map(([k]) => k) };
  // an account without an address yet gets its mails in the page's language unless it says
  const mailLanguage = s.address || s.pending ? s.language : language();
  const address = el("input", { name: "address", type: "email", autocomplete: "email", value: s.pending || s.address || "", "aria-label": t("E-mail address") });
  const code = s.pending ? el("input", { name: "code", autocomplete: "one-time-code", "aria-label": t("The code of the mail") }) : null;
  const boxes = KINDS.map(([kind, words]) =>
    el("label", {}, el("input", { type: "checkbox", name: kind, checked: s.notify.includes(kind) }), " ", words()),
  );
  const chosen = el("select", { name: "language", "aria-label": t("The language of the mails") }, ...LANGUAGES.map(([c, n]) => el("option", { value: c, text: n, selected: c === mailLanguage })));
  const form = el(
    "form",
    { class: "mail", "aria-label": t("E-mail") },
    el("label", {}, t("E-mail address"), " ", address),
    code ? el("label", {}, t("The code of the mail"), " ", code) : null,
    el("fieldset", {}, el("legend", { text: t("Mails about") }), ...boxes),
    el("label", {}, t("The language of the mails"), " ", chosen),
    el("button", { type: "submit", text: t("Save") }),
    el("button", { type: "button", class: "cancel", text: t("Close"), onclick: () => swap(false) }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const on = KINDS.map(([k]) => k).filter((k) => form.elements[k].checked);
    const off = KINDS.map(([k]) => k).filter((k) => !form.elements[k].checked);
    app.conn.send("set_mail_settings", { language: chosen.value, on, off });
    const given = address.value.trim();
    if (code && code.value.trim()) app.conn.send("confirm_email", { code: code.value.trim() });
    else if (given && given !== s.address && given !== s.pending) app.conn.send("set_email", { address: given });
    else if (!given && (s.address || s.pending)) app.conn.send("set_email", { address: null });
  });
  return form;
}
