// Accounts, ratings, the archive and the lobby chat (protocol version 3), shown only where the
// server keeps accounts (welcome.accounts). The login token is kept like the seat tokens: in
// this tab's session storage, never in a URL, a log or the local storage.

import { GAME_OVER_NOTES } from "./code-words.mjs";
import { el } from "./dom.mjs";
import { accountWords } from "./errors.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

const LOGIN_KEY = "kahuna.login";

export const accounts = {
  account: null, // the logged_in message while logged in
  ratings: null,
  games: null,
  chat: [],
  challenges: [],
  changingPassword: false, // the form that changes the password is open
};

function keptLogin() {
  try {
    const raw = sessionStorage.getItem(LOGIN_KEY);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function keepLogin(value) {
  try {
    if (value) sessionStorage.setItem(LOGIN_KEY, JSON.stringify(value));
    else sessionStorage.removeItem(LOGIN_KEY);
  } catch {
    // no session storage: the login lasts as long as the connection
  }
}

// After welcome: log in again with the token this tab kept, if any.
export function resumeLogin(welcome, send) {
  accounts.account = null;
  const kept = keptLogin();
  if (welcome.accounts && kept) send("login", { name: kept.name, password: null, token: kept.token });
}

// Returns true when the message was one of these.
export function accountMessage(m, app) {
  switch (m.type) {
    case "logged_in":
      accounts.account = m;
      if (m.token) keepLogin({ name: m.name, token: m.token });
      app.name = m.name;
      return true;
    case "logged_out":
      accounts.account = null;
      accounts.changingPassword = false;
      keepLogin(null);
      app.name = m.name;
      // version 4: logged out by another tab's password change, or by the operator
      if (m.reason === "password_changed") {
        app.notice = t("Your password was changed elsewhere, so this connection is logged out: you play as {name}.", { name: m.name });
      } else if (m.reason === "account_changed") {
        app.notice = t("The server's operator changed your account, so this connection is logged out: you play as {name}.", { name: m.name });
      }
      return true;
    case "password_changed":
      if (accounts.account) keepLogin({ name: accounts.account.name, token: m.token });
      accounts.changingPassword = false;
      app.notice = _("Your password is changed; your other machines must log in again.");
      return true;
    case "ignoring":
      if (accounts.account) accounts.account = { ...accounts.account, ignoring: m.names };
      app.notice = m.names.length
        ? fmt(_("You ignore: {names}."), { names: m.names.join(", ") })
        : _("You ignore nobody.");
      return true;
    case "ratings":
      accounts.ratings = m.players;
      return true;
    case "games":
      accounts.games = m;
      return true;
    case "challenges":
      accounts.challenges = m.challenges;
      return true;
    case "lobby_chat_message":
      accounts.chat = m.history ? m.entries : [...accounts.chat, ...m.entries].slice(-100);
      return true;
    case "player_note":
      if (m.note === "challenge_accepted" && m.table_id) {
        app.notice = t("{name} accepted your challenge: table {table}.", { name: m.name || "", table: m.table_id });
        // a challenger waiting in the lobby sits down at once; one at a table is only told
        if (!app.current) app.conn.send("resume", { table_id: m.table_id });
      } else if (m.note === "challenge_received") {
        app.notice = t("{name} challenges you.", { name: m.name || "" });
      } else if (m.note === "challenge_declined") {
        app.notice = t("{name} declined your challenge.", { name: m.name || "" });
      } else if (m.note === "challenge_withdrawn") {
        app.notice = t("{name} withdrew their challenge.", { name: m.name || "" });
      } else if (m.note === "your_move" && m.table_id) {
        app.notice = t("Your move at table {table}.", { table: m.table_id });
      } else if (m.note === "game_over" && m.table_id) {
        app.notice = gameOverWords(m);
      }
      return true;
    case "error": {
      if (m.code === "bad_login" && keptLogin() && !accounts.account) keepLogin(null);
      const said = accountWords(m);
      if (said === null) return false;
      app.notice = said;
      return true;
    }
    default:
      return false;
  }
}

// A game of the player's that ended while they were away from its table (version 4), in the
// words of the terminal's status line (client/language/words.py, game_over_words).
export function gameOverWords(m) {
  const name = m.name || "?";
  const how = GAME_OVER_NOTES[`${m.outcome}/${m.ending}`] || GAME_OVER_NOTES[m.outcome] || GAME_OVER_NOTES.unknown;
  return t(GAME_OVER_NOTES.line, { name, table: m.table_id || "?", how: t(how, { name }) });
}

// A challenge's terms, in the words of the terminal's list of challenges.
function termsText(terms) {
  const parts = [];
  if (terms.clock && terms.clock.days) parts.push(t("{days}d a move", { days: terms.clock.days }));
  else if (terms.clock) parts.push(_("clock"));
  parts.push(terms.rated ? _("rated") : _("unrated"));
  if (terms.seat) parts.push(t("challenger plays {seat}", { seat: seatName(terms.seat) }));
  if (terms.options.variant1) parts.push(_("Variant 1"));
  if (terms.options.variant2) parts.push(_("Variant 2"));
  return parts.join(", ");
}

// The standing challenges to and from the player, with their answers, and the form that makes
// one: a registered player, live (both online) or a game of days.
function challengesPart(me, send) {
  const rows = [...accounts.challenges]
    .sort((a, b) => (a.recipient === me.name ? 0 : 1) - (b.recipient === me.name ? 0 : 1))
    .map((c) => {
      const answer = (word) => () => send("answer_challenge", { challenge_id: c.challenge_id, answer: word });
      const buttons = c.recipient === me.name
        ? [
            el("button", { type: "button", class: "accept", text: t("Accept"), onclick: answer("accept") }),
            el("button", { type: "button", class: "decline", text: t("Decline"), onclick: answer("decline") }),
          ]
        : [el("button", { type: "button", class: "withdraw", text: t("Withdraw"), onclick: answer("withdraw") })];
      return el(
        "li",
        { "data-challenge": c.challenge_id },
        el("span", { class: "who", text: `${c.sender} → ${c.recipient}` }),
        ` · ${termsText(c.terms)} `,
        ...buttons,
      );
    });
  const form = el(
    "form",
    { class: "challenge", "aria-label": t("Send a challenge") },
    el("label", {}, t("Player"), " ", el("input", { name: "name", required: true, maxlength: 32, autocomplete: "off" })),
    el(
      "label",
      {},
      _("Time control"),
      " ",
      el(
        "select",
        { name: "days" },
        el("option", { value: "0", text: _("none") }),
        ...[1, 3, 7].map((days) => el("option", { value: String(days), text: t("{days}d a move", { days }) })),
      ),
    ),
    el("label", {}, el("input", { type: "checkbox", name: "rated", checked: true }), " ", _("rated")),
    el("button", { type: "submit", text: t("Send a challenge") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const days = Number(data.get("days"));
    send("challenge", {
      name: String(data.get("name")).trim(),
      terms: {
        options: { variant1: false, variant2: false, handicap_seat: null, handicap_bridges: 0 },
        seat: null,
        first: "white",
        clock: days ? { initial: 0, increment: 0, per_turn: 0, days } : null,
        hints: true,
        rated: data.get("rated") === "on",
      },
    });
  });
  return el(
    "section",
    { class: "challenges" },
    el("h3", { text: _("Your challenges") }),
    rows.length ? el("ul", {}, ...rows) : null,
    form,
  );
}

// Change password: a button, or once it is pressed the form that asks for the old password and
// the new one. The server revokes every other login token and sends this tab a new one
// (password_changed). Pressing the button or Cancel swaps one for the other at once; the lobby's
// next drawing draws the same from accounts.changingPassword.
function passwordControl(send) {
  const swap = (node, open) => {
    accounts.changingPassword = open;
    node.replaceWith(passwordControl(send));
  };
  if (!accounts.changingPassword) {
    const button = el("button", { type: "button", id: "change-password", text: t("Change password"), onclick: () => swap(button, true) });
    return button;
  }
  const form = el(
    "form",
    { class: "password", "aria-label": t("Change password") },
    el("label", {}, t("Old password"), " ", el("input", { name: "old", type: "password", autocomplete: "current-password", required: true })),
    el("label", {}, t("New password"), " ", el("input", { name: "new", type: "password", autocomplete: "new-password", required: true, minlength: 8 })),
    el("button", { type: "submit", text: t("Change password") }),
    el("button", { type: "button", class: "cancel", text: t("Cancel"), onclick: () => swap(form, false) }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    send("change_password", { old: String(data.get("old")), new: String(data.get("new")) });
  });
  return form;
}

// What the player can do about another player whose games are shown: challenge them (the
// challenge form gets their name) and ignore them (their chat and challenges) or stop.
function playerActions(me, name, send) {
  const ignored = (me.ignoring || []).includes(name);
  return el(
    "div",
    { class: "player-actions" },
    el("button", { type: "button", class: "challenge-player", text: t("Challenge {name}", { name }), onclick: () => {
      const input = document.querySelector("form.challenge input[name=name]");
      if (!input) return;
      input.value = name;
      input.focus();
    } }),
    el("button", {
      type: "button",
      class: "ignore-player",
      text: ignored ? t("Stop ignoring {name}", { name }) : t("Ignore {name}", { name }),
      onclick: () => send("ignore", { name, ignore: !ignored }),
    }),
  );
}

function when(unix) {
  return unix ? new Date(unix * 1000).toLocaleDateString() : "";
}

// The lobby's account part: the login form, or the player with the ratings, their games and
// the lobby chat. `send(type, fields)` sends; `analyse(tableId)` opens a finished game's
// analysis.
export function accountPanel(welcome, send, analyse) {
  if (!welcome || !welcome.accounts) return null;
  const parts = [];
  const me = accounts.account;
  if (!me) {
    const form = el(
      "form",
      { class: "login", "aria-label": t("Log in") },
      el("label", {}, t("Your name"), " ", el("input", { name: "name", autocomplete: "username", required: true, maxlength: 32 })),
      el("label", {}, t("Password"), " ", el("input", { name: "password", type: "password", autocomplete: "current-password", required: true })),
      el("button", { type: "submit", value: "login", text: t("Log in") }),
      el("button", { type: "submit", value: "register", text: t("Register") }),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const name = String(data.get("name")).trim();
      const password = String(data.get("password"));
      if (event.submitter && event.submitter.value === "register") send("register", { name, password });
      else send("login", { name, password, token: null });
    });
    parts.push(form);
  } else {
    parts.push(
      el(
        "div",
        { class: "account" },
        el("span", { text: t("Logged in as {name} ({rating})", { name: me.name, rating: me.rating }) }),
        el("button", { type: "button", text: t("Log out"), onclick: () => send("logout") }),
        el("button", { type: "button", id: "my-games", text: t("Games of {name}", { name: me.name }), onclick: () => send("get_games", { name: null }) }),
        passwordControl(send),
      ),
    );
  }
  if (me) parts.push(challengesPart(me, send));
  parts.push(el("button", { type: "button", id: "ratings", text: t("Ratings"), onclick: () => send("get_ratings") }));
  if (accounts.ratings) {
    parts.push(
      el(
        "table",
        { class: "ratings" },
        el("caption", { text: t("Ratings") }),
        ...accounts.ratings.map((r, i) =>
          el(
            "tr",
            {},
            el("td", { text: String(i + 1) }),
            el("td", {}, el("button", { type: "button", class: "link", text: r.name, onclick: () => send("get_games", { name: r.name }) })),
            el("td", { text: String(r.rating) }),
            el("td", { text: `${r.wins}/${r.losses}/${r.draws}` }),
          ),
        ),
      ),
    );
  }
  if (accounts.games) {
    const g = accounts.games;
    parts.push(
      el(
        "section",
        { class: "games" },
        el("h3", { text: t("Games of {name}", { name: g.name }) + (g.rating === null ? "" : ` (${g.rating})`) }),
        me && g.name !== me.name ? playerActions(me, g.name, send) : null,
        g.games.length ? null : el("p", { class: "empty", text: _("No games yet.") }),
        el(
          "ul",
          {},
          ...g.games.map((game) => {
            const result = game.status === "playing"
              ? fmt(_("{seat} to move"), { seat: seatName(game.to_move || "white") })
              : game.winner ? fmt(_("{seat} wins"), { seat: seatName(game.winner) }) : _("a draw");
            return el(
              "li",
              {},
              el("a", { href: `/table/${game.table_id}`, "data-link": "table", text: `${game.white} – ${game.black}` }),
              ` · ${result} · ${when(game.finished || game.started)} `,
              game.status === "over"
                ? el("button", { type: "button", class: "analyse", "data-table": game.table_id, text: t("Analyse"), onclick: () => analyse(game.table_id) })
                : null,
            );
          }),
        ),
      ),
    );
  }
  const chat = el(
    "section",
    { class: "chat lobby-chat", "aria-label": t("Chat") },
    el(
      "ul",
      { class: "lines" },
      // a sender's name opens their games (and so the ways to challenge or ignore them)
      ...accounts.chat.map((c) =>
        el(
          "li",
          {},
          el("button", { type: "button", class: "link sender", text: c.sender, onclick: () => send("get_games", { name: c.sender }) }),
          ": ",
          el("span", { class: "text", text: c.text }),
        ),
      ),
    ),
  );
  if (me) {
    const say = el("form", { class: "say" }, el("input", { name: "text", "aria-label": t("Chat"), maxlength: welcome.max_chat, autocomplete: "off" }), el("button", { type: "submit", text: _("say") }));
    say.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = say.querySelector("input");
      const text = input.value.trim();
      if (text) send("lobby_chat", { text });
      input.value = "";
    });
    chat.append(say);
  }
  parts.push(chat);
  return el("section", { class: "accounts", "aria-label": t("Log in") }, ...parts);
}
