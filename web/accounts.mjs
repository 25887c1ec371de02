// Accounts, ratings, the archive, challenges and the lobby chat (protocol version 3), where the
// server keeps accounts (welcome.accounts): what the page knows of them, kept up to date by the
// server's messages, and the account's own controls (challenges, the password). The login token
// is kept like the seat tokens: in this tab's session storage, never in a URL, a log or the
// local storage.

import { GAME_OVER_NOTES } from "./code-words.mjs";
import { el } from "./dom.mjs";
import { accountWords } from "./errors.mjs";
import { rememberName } from "./kept.mjs";
import { _, fmt, ngettext, pgettext, seatName, t } from "./words.mjs";

const LOGIN_KEY = "kahuna.login";

export const accounts = {
  account: null, // the logged_in message while logged in
  ratings: null,
  games: null, // the last games message: the player page's
  gamesAsked: null, // the name whose games were asked for last
  gamesRefused: null, // that name, when the server refused it (no such player, no accounts)
  chat: [],
  challenges: [],
  changingPassword: false, // the form that changes the password is open
  deleting: false, // the form that deletes the account is open
  download: null, // the records of "Download my games" received so far, while it lasts
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
  accounts.gamesAsked = null; // a player's page on the screen asks again on this connection
  // a name kept that an account has taken: the guest name given instead is this browser's now
  if (welcome.name_note === "name_registered" && welcome.name) rememberName(welcome.name);
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
      app.notice = ""; // a failed attempt's words are past
      return true;
    case "logged_out":
      accounts.account = null;
      accounts.changingPassword = false;
      accounts.deleting = false;
      keepLogin(null);
      app.name = m.name;
      // version 4: logged out by another tab's password change, or by the operator or a moderator
      if (m.reason === "password_changed") {
        app.notice = t("Your password was changed elsewhere, so this connection is logged out: you play as {name}.", { name: m.name });
      } else if (m.reason === "account_deleted") {
        app.notice = t("Your account is deleted; its finished games stay under a stand-in name. You play as {name}.", { name: m.name });
      } else if (m.reason === "account_changed") {
        app.notice = t("The server's operator or a moderator changed your account, so this connection is logged out: you play as {name}.", { name: m.name });
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
      accounts.gamesRefused = null;
      if (accounts.account && m.name === accounts.account.name && m.rating !== null) {
        accounts.account = { ...accounts.account, rating: m.rating };
      }
      return true;
    case "challenges":
      accounts.challenges = m.challenges;
      return true;
    case "game_records":
      downloadPage(m, app);
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
        refreshGames([m.name, accounts.account && accounts.account.name], app);
      }
      return true;
    case "players":
      // the table's handler takes it too: here only what it changes of the ratings
      ratingsMoved([m.players], [(app.tables.get(m.table_id) || {}).players], app);
      return false;
    case "lobby":
      ratingsMoved(
        m.tables.map((info) => info.players),
        app.lobby.map((info) => info.players),
        app,
        gamesEnded(m.tables, app.lobby),
      );
      return false;
    case "error": {
      if (m.code === "bad_login" && keptLogin() && !accounts.account) keepLogin(null);
      if (m.refused === "get_games") accounts.gamesRefused = accounts.gamesAsked;
      if (m.refused === "get_game_records") accounts.download = null;
      if (m.refused === "delete_account" && m.code === "bad_password") {
        app.notice = t("The password is wrong: your account is not deleted.");
        return true;
      }
      const said = accountWords(m);
      if (said === null) return false;
      app.notice = said;
      return true;
    }
    default:
      return false;
  }
}

// The players whose rating the tables now show differently from before (a rated game ended):
// the account's own rating beside its name follows, and the leaderboard and a player's games on
// the screen are asked for again, so that none of them says the rating from before the game.
function ratingsMoved(now, before, app, ended = []) {
  const old = new Map();
  for (const players of before) {
    for (const p of seated(players)) old.set(p.name, p.rating);
  }
  const moved = [...ended];
  for (const players of now) {
    for (const p of seated(players)) {
      if (typeof p.rating !== "number") continue;
      const me = accounts.account;
      if (me && p.name === me.name && p.rating !== me.rating) accounts.account = { ...me, rating: p.rating };
      if (old.has(p.name) && old.get(p.name) !== p.rating) moved.push(p.name);
    }
  }
  if (moved.length) refreshGames(moved, app);
}

// The players of the games that ended since the last listing: a table now over that was not
// over before, or one playing before and gone now. Their ratings may have moved without a
// listing ever showing the old one beside the new (a short game, or one whose table closed,
// inside one listing's window), so their games are asked for again all the same.
function gamesEnded(now, before) {
  const was = new Map(before.map((info) => [info.table_id, info]));
  const is = new Set(now.map((info) => info.table_id));
  const names = [];
  for (const info of now) {
    const earlier = was.get(info.table_id);
    if (info.status === "over" && (!earlier || earlier.status !== "over")) {
      names.push(...seated(info.players).map((p) => p.name));
    }
  }
  for (const info of before) {
    if (info.status === "playing" && !is.has(info.table_id)) {
      names.push(...seated(info.players).map((p) => p.name));
    }
  }
  return names;
}

function seated(players) {
  return players ? [players.white, players.black].filter((p) => p) : [];
}

// Ask again for what the screen shows of these players: their games on the player page, the
// leaderboard.
function refreshGames(names, app) {
  if (accounts.ratings) app.conn.send("get_ratings");
  const shown = accounts.gamesAsked;
  if (shown && names.some((name) => name && name.toLowerCase() === shown.toLowerCase())) {
    app.conn.send("get_games", { name: shown });
  }
}

// Ask for a player's games (the player page), once for each name shown.
export function askGames(name, send) {
  if (accounts.gamesAsked === name) return;
  accounts.gamesAsked = name;
  accounts.gamesRefused = null;
  accounts.games = null;
  send("get_games", { name });
}

// A game of the player's that ended while they were away from its table (version 4), in the
// words of the terminal's status line (client/language/words.py, game_over_words).
export function gameOverWords(m) {
  const name = m.name || "?";
  const how = GAME_OVER_NOTES[`${m.outcome}/${m.ending}`] || GAME_OVER_NOTES[m.outcome] || GAME_OVER_NOTES.unknown;
  return t(GAME_OVER_NOTES.line, { name, table: m.table_id || "?", how: t(how, { name }) });
}

// A challenge's terms, in the words of the terminal's list of challenges.
export function termsText(terms) {
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
export function challengesPart(me, send) {
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
        el("option", { value: "0", text: pgettext("time control", "none") }),
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
export function passwordControl(send) {
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


// "Download my games" (version 4's get_game_records): the pages one after another, then one file
// of all the records (docs/records.md, "A file of many records"), as the terminal's `download`
// writes it, handed to the browser to save.
export function downloadGames(send) {
  accounts.download = [];
  send("get_game_records", { page: 0 });
}

function downloadPage(m, app) {
  if (accounts.download === null) return; // not asked by this page (or refused meanwhile)
  accounts.download.push(...m.games);
  if (m.page + 1 < m.pages) {
    app.conn.send("get_game_records", { page: m.page + 1 });
    return;
  }
  const games = accounts.download;
  accounts.download = null;
  if (!games.length) {
    app.notice = _("You have no finished game to download.");
    return;
  }
  const blob = new Blob([games.map((g) => g.text).join("\n")], { type: "text/plain;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: `kahuna-${m.name}-games.kahuna`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  app.notice = fmt(ngettext("Downloaded {count} game record.", "Downloaded {count} game records.", games.length), { count: games.length });
}

// "Delete my account": a button, or once it is pressed the form that says what it does and asks
// twice, as a site does: the password, and the account's name typed out. The server logs every
// connection of the account out (logged_out, reason account_deleted).
export function deleteControl(me, send) {
  const swap = (node, open) => {
    accounts.deleting = open;
    node.replaceWith(deleteControl(me, send));
  };
  if (!accounts.deleting) {
    const button = el("button", { type: "button", id: "delete-account", class: "danger", text: t("Delete my account"), onclick: () => swap(button, true) });
    return button;
  }
  const nameField = el("input", { name: "confirm", autocomplete: "off", required: true, spellcheck: "false" });
  const form = el(
    "form",
    { class: "delete-account", "aria-label": t("Delete my account") },
    el("p", {
      class: "warning",
      text: t("Deleting the account {name} cannot be undone: your rating goes, your finished games stay under the name 'deleted #N', and after the server's cooling time anyone may register the name.", { name: me.name }),
    }),
    el("label", {}, t("Password"), " ", el("input", { name: "password", type: "password", autocomplete: "current-password", required: true })),
    el("label", {}, t("Type {name} to confirm", { name: me.name }), " ", nameField),
    el("button", { type: "submit", class: "danger", text: t("Delete my account for good") }),
    el("button", { type: "button", class: "cancel", text: t("Cancel"), onclick: () => swap(form, false) }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    if (String(data.get("confirm")).trim() !== me.name) {
      nameField.setCustomValidity(t("Type {name} to confirm", { name: me.name }));
      nameField.reportValidity();
      nameField.setCustomValidity("");
      return;
    }
    send("delete_account", { password: String(data.get("password")) });
  });
  return form;
}
