// Tournaments on the page: the tournament's own page at /tournament/ID (its terms, players, live
// standings with the tie-breaks in the server's order, each round's pairings with a way to watch
// or replay every game, and join / withdraw / start), the lobby's list with a form for a new one,
// and a player's tournaments for their page. The page watches the tournament it shows
// (watch_tournament), so every change the server sends draws it again.

import { accounts } from "./accounts.mjs";
import { el, replace } from "./dom.mjs";
import { errorWords } from "./errors.mjs";
import { tournamentRoundNote } from "./notes.mjs";
import { playerLink } from "./players.mjs";
import { goTo } from "./routes.mjs";
import { app, render } from "./state.mjs";
import { _, fmt, ngettext, pgettext, seatName, t } from "./words.mjs";

export const tournaments = {
  list: null, // the lobby's: get_tournaments's answer
  ofPlayer: new Map(), // a player's (lower-case name) -> their tournaments
  known: new Map(), // tournament id -> its latest `tournament` message
  missing: new Set(), // ids the server knows no tournament by
  call: null, // {table_id, name}: the player's game of a round, waiting for them
};

let watched = null; // {id, welcome}: the tournament watched, on which connection
let listAsked = null; // the welcome whose connection was asked for the list
let creating = false; // a create_tournament sent: its answer opens the new tournament's page
const playerAsked = new Map(); // a player's name -> the welcome it was asked on

const same = (a, b) => typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();

// Why the server refused: bad_tournament's reasons and no_such_tournament are the catalogue's
// (web/code-words.mjs, through errorWords); bad terms say which term in the server's message.
function refusalWords(m) {
  if (m.code === "bad_tournament" && m.reason === "bad_terms") return fmt(_("These terms make no tournament: {message}"), { message: m.message });
  return errorWords(m);
}

const TOURNAMENT_REQUESTS = new Set([
  "get_tournaments",
  "create_tournament",
  "join_tournament",
  "withdraw_tournament",
  "start_tournament",
  "watch_tournament",
  "direct_tournament",
]);

// The tournaments' messages (the `tournament_round` note among the player's notes); true when
// the message was one of them and the screen is to be drawn again.
export function tournamentMessage(m) {
  switch (m.type) {
    case "tournaments":
      if (m.name) tournaments.ofPlayer.set(m.name.toLowerCase(), m.tournaments);
      else tournaments.list = m.tournaments;
      return true;
    case "tournament": {
      const id = m.summary.tournament_id;
      tournaments.known.set(id, m);
      if (creating) {
        creating = false;
        tournaments.list = null;
        listAsked = null;
        watched = { id, welcome: app.welcome }; // the director watches it from its making
        goTo("tournament", id);
      }
      return true;
    }
    case "player_note":
      if (m.note === "tournament_closed") {
        app.notice = fmt(_("A moderator ended the tournament {name}: its standings stay as they were, its games still played are abandoned, unrated."), { name: m.name || "" });
        tournaments.list = null; // the lobby's list is asked again: it says so
        listAsked = null;
        return true;
      }
      if (m.note === "tournament_director") {
        app.notice = fmt(_("A moderator gave you the tournament {name} to direct."), { name: m.name || "" });
        tournaments.list = null;
        listAsked = null;
        return true;
      }
      if (m.note !== "tournament_round") return false;
      tournaments.call = { table_id: m.table_id, name: m.name };
      tournamentRoundNote(m);
      // at another table, where no tournament's part is drawn: its notice says it
      if (app.current && app.current !== m.table_id) app.notice = t("Your tournament game against {name} is ready: table {table}.", { name: m.name || "", table: m.table_id });
      return true;
    case "error":
      if (!TOURNAMENT_REQUESTS.has(m.refused) && !["no_such_tournament", "bad_tournament"].includes(m.code)) return false;
      if (m.refused === "get_tournaments" && m.code === "no_such_player") return false; // the player's page says it
      creating = false;
      if (m.code === "no_such_tournament" && app.place.page === "tournament") tournaments.missing.add(app.place.id);
      app.notice = refusalWords(m);
      return true;
    default:
      return false;
  }
}

// ----- words ------------------------------------------------------------------------------

function formatWords(summary) {
  if (summary.format === "swiss") {
    return fmt(ngettext("Swiss, {n} round", "Swiss, {n} rounds", summary.rounds), { n: summary.rounds });
  }
  return summary.format === "double_round_robin" ? _("Double round-robin") : _("Round-robin");
}

// A time control's words as the new-table form says them (web/new-table.mjs).
function clockWords(clock) {
  if (!clock) return pgettext("time control", "none");
  if (clock.days) return fmt(ngettext("{n} day a move", "{n} days a move", clock.days), { n: clock.days });
  if (clock.per_turn) return t("{n} min per turn", { n: clock.per_turn / 60 });
  const minutes = String(clock.initial / 60);
  const short = `${minutes}+${clock.increment}`;
  return clock.increment
    ? t("{short} ({minutes} min each, +{n} s a turn)", { short, minutes, n: clock.increment })
    : t("{short} ({minutes} min each)", { short, minutes });
}

// A finished tournament says how far it went when that was short of its last round (ended by
// its director or a moderator, or a Swiss left with fewer than two players), and never that it
// is paused: a pause ends with the tournament (the server keeps the flag as it stood).
function statusWords(summary) {
  const far = { round: summary.round, rounds: summary.rounds };
  const short = summary.round > 0 && summary.round < summary.rounds;
  if (summary.closed) return summary.round > 0 ? fmt(_("ended by a moderator in round {round} of {rounds}"), far) : _("ended by a moderator");
  if (summary.status === "finished") return short ? fmt(_("finished after round {round} of {rounds}"), far) : _("finished");
  let words;
  if (summary.status === "open") words = summary.start ? fmt(_("starts at {when}"), { when: new Date(summary.start * 1000).toLocaleString(document.documentElement.lang || undefined) }) : _("open: its director starts it");
  else words = fmt(_("round {round} of {rounds}"), far);
  return summary.paused ? `${words} · ${_("paused")}` : words;
}

// Points and tie-breaks with their halves and quarters (a Sonneborn-Berger against a virtual
// opponent may be a quarter): 2.5 -> "2½", 0.75 -> "¾", 1.25 -> "1¼", as the terminal says them.
const FRACTIONS = new Map([[0.25, "¼"], [0.5, "½"], [0.75, "¾"]]);
function points(n) {
  const whole = Math.floor(n);
  const part = FRACTIONS.get(n - whole);
  if (n === whole) return String(whole);
  if (part === undefined) return String(Math.round(n * 100) / 100);
  return whole ? `${whole}${part}` : part;
}

const RESULTS = {
  white_won: ["1–0", null],
  black_won: ["0–1", null],
  draw: ["½–½", null],
  white_won_by_forfeit: ["1–0", "forfeit"],
  black_won_by_forfeit: ["0–1", "forfeit"],
  double_forfeit: ["0–0", "forfeit"],
};

// ----- the tournament's page ---------------------------------------------------------------

function watch(id) {
  if (!app.conn || !app.conn.ready) return;
  if (watched && watched.id === id && watched.welcome === app.welcome) return;
  if (watched && watched.id !== id && watched.welcome === app.welcome) app.conn.send("watch_tournament", { tournament_id: watched.id, watch: false });
  if (app.conn.send("watch_tournament", { tournament_id: id })) watched = { id, welcome: app.welcome };
}

// Leaving the tournament's page: the server need send it no more.
export function leaveTournament() {
  confirming = null;
  if (!watched) return;
  if (watched.welcome === app.welcome && app.conn && app.conn.ready) app.conn.send("watch_tournament", { tournament_id: watched.id, watch: false });
  watched = null;
  listAsked = null; // the lobby's list is asked again, as it may have changed meanwhile
}

function ask(type, fields) {
  app.notice = "";
  return app.conn.send(type, fields);
}

// The director's destructive action waiting for its "Yes": {id, action, name}; kept between
// drawings, as the page is drawn anew for every message.
let confirming = null;
let focusConfirm = false; // the question just asked: its "Yes" takes the keyboard's focus

function direct(id, action, name = null) {
  confirming = null;
  return ask("direct_tournament", { tournament_id: id, action, name });
}

// A button that asks "Really? Yes / No" in its place before it does what it says (`yes`: the
// director's action by default); Escape or "No" takes the question back.
function confirmed(id, action, name, key, words, question, yes = () => direct(id, action, name)) {
  const asking = confirming && confirming.id === id && confirming.action === action && confirming.name === name;
  if (!asking) {
    return el("button", {
      type: "button",
      id: key,
      class: "director",
      text: words,
      onclick: () => {
        confirming = { id, action, name };
        focusConfirm = true;
        render();
      },
    });
  }
  const no = () => {
    confirming = null;
    render();
  };
  return el(
    "span",
    {
      class: "confirm",
      role: "group",
      "aria-label": question,
      onkeydown: (event) => {
        if (event.key === "Escape") no();
      },
    },
    el("span", { class: "question", text: question }),
    el("button", { type: "button", class: "yes danger", "data-confirm": key, text: _("Yes"), onclick: yes }),
    el("button", { type: "button", class: "no", text: _("No"), onclick: no }),
  );
}

function isDirector(summary) {
  const me = accounts.account;
  return Boolean(me && same(summary.director, me.name));
}

function actions(state) {
  const me = accounts.account;
  const summary = state.summary;
  const id = summary.tournament_id;
  if (summary.status === "finished") return null; // nothing to join, nor to log in for
  if (!me) return el("p", { class: "dim", text: _("Log in to play in a tournament.") });
  const entry = state.players.find((p) => same(p.name, me.name));
  const playing = entry && !entry.withdrawn;
  const buttons = [];
  if (!entry && (summary.status === "open" || summary.format === "swiss")) {
    buttons.push(el("button", { type: "button", id: "join-tournament", class: "primary", text: _("Join the tournament"), onclick: () => ask("join_tournament", { tournament_id: id }) }));
  }
  const withdraw = () => {
    confirming = null;
    ask("withdraw_tournament", { tournament_id: id });
  };
  if (playing && summary.status === "open") {
    buttons.push(el("button", { type: "button", id: "withdraw-tournament", text: _("Withdraw"), onclick: withdraw }));
  } else if (playing) {
    // under way there is no coming back: asked first, and what becomes of the game said
    const question = _("Really withdraw? You are paired no more; your game of this round goes on: play it out or resign it.");
    buttons.push(confirmed(id, "withdraw", null, "withdraw-tournament", _("Withdraw"), question, withdraw));
  }
  const director = isDirector(summary);
  if (director && summary.status === "open") {
    buttons.push(el("button", { type: "button", id: "start-tournament", class: "primary", text: _("Start the tournament"), onclick: () => ask("start_tournament", { tournament_id: id }) }));
  }
  if (director && summary.status === "started") {
    const action = summary.paused ? "resume" : "pause";
    const words = summary.paused ? _("Resume the tournament") : _("Pause the tournament");
    buttons.push(el("button", { type: "button", id: `${action}-tournament`, text: words, onclick: () => direct(id, action) }));
    const last = state.rounds[state.rounds.length - 1];
    if (last && last.games.some((game) => !game.result)) {
      buttons.push(confirmed(id, "draw_round", null, "draw-round", _("Draw the round's games"), _("Really end this round's games still played as draws?")));
    }
  }
  if (director) {
    buttons.push(confirmed(id, "end", null, "end-tournament", _("End the tournament"), _("Really end the tournament now? Its games still played are drawn.")));
  }
  return buttons.length ? el("div", { class: "tournament-actions" }, ...buttons) : null;
}

// A first move's time as the terminal client says a duration (client/model/table_talk.py).
function durationWords(seconds) {
  if (seconds < 90) return fmt(ngettext("{n} second", "{n} seconds", seconds), { n: seconds });
  const minutes = Math.round(seconds / 60);
  return fmt(ngettext("{n} minute", "{n} minutes", minutes), { n: minutes });
}

function termsList(state) {
  const summary = state.summary;
  // the time in force for a first move (the director's or the server's; none in a game of
  // days), while there are games to come: a finished tournament's is no fact any more
  const first = state.forfeit_after && summary.status !== "finished" ? [[_("First move"), fmt(_("within {time}, or the game is lost by forfeit"), { time: durationWords(state.forfeit_after) })]] : [];
  const rows = [
    [_("Format"), formatWords(summary)],
    [_("Time control"), clockWords(summary.clock)],
    ...first,
    [t("rated"), summary.rated ? _("yes") : _("no")],
    [_("Director"), playerLink(summary.director)],
    [_("Status"), statusWords(summary)],
  ];
  return el("dl", { class: "terms" }, ...rows.flatMap(([term, value]) => [el("dt", { text: term }), el("dd", {}, value)]));
}

// A finished tournament's winner, or those who share the first place.
function winnerLine(state) {
  // a tournament a moderator ended has no winner: its standings are as they stood
  if (state.summary.status !== "finished" || state.summary.closed) return null;
  const names = state.standings.filter((s) => s.place === 1).map((s) => s.name);
  if (!names.length) return null;
  return el("p", { class: "tournament-winner", id: "tournament-winner", text: fmt(ngettext("Winner: {names}", "Winners: {names}", names.length), { names: names.join(", ") }) });
}

function playersPart(state) {
  const id = state.summary.tournament_id;
  const directing = isDirector(state.summary) && state.summary.status !== "finished";
  const list = state.players.length
    ? el(
        "ul",
        { class: "entrants" },
        ...state.players.map((p) =>
          el(
            "li",
            { class: p.withdrawn ? "withdrawn" : "" },
            playerLink(p.name),
            el("span", { class: "dim", text: ` ${p.rating}` }),
            p.joined > 1 ? el("span", { class: "dim", text: ` · ${fmt(_("from round {round}"), { round: p.joined })}` }) : null,
            p.withdrawn ? el("span", { class: "dim", text: ` · ${_("withdrawn")}` }) : null,
            directing && !p.withdrawn ? confirmed(id, "remove", p.name, `remove-${p.name}`, _("Remove"), fmt(_("Really remove {name}?"), { name: p.name })) : null,
          ),
        ),
      )
    : el("p", { class: "empty dim", text: _("No player has joined yet.") });
  return el("section", { class: "part entrants-part", "aria-label": _("Players") }, el("h2", { text: fmt(_("Players ({n})"), { n: state.summary.players }) }), list);
}

// The tie-breaks in the server's order (docs/tournaments.md): a round-robin has no Buchholz.
function tieBreaks(format) {
  const all = [
    ["buchholz", _("Bh"), _("Buchholz cut 1: the opponents' points, the lowest left out")],
    ["sonneborn_berger", _("SB"), _("Sonneborn-Berger: the points of the opponents beaten, and half those of the opponents drawn")],
    ["direct_encounter", _("DE"), _("Direct encounter: the points among the players equal so far")],
    ["wins", _("W"), _("Wins")],
  ];
  return format === "swiss" ? all : all.slice(1);
}

function standingsPart(state) {
  const breaks = tieBreaks(state.summary.format);
  let body;
  if (!state.standings.length) body = el("p", { class: "empty dim", text: _("The standings start with the first round.") });
  else {
    body = el(
      "div",
      { class: "scroll" },
      el(
        "table",
        { class: "standings" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { class: "num", scope: "col", text: "#" }),
            el("th", { scope: "col", text: _("Player") }),
            el("th", { class: "num", scope: "col", text: _("Points") }),
            ...breaks.map(([, short, long]) => el("th", { class: "num", scope: "col" }, el("abbr", { title: long, text: short }))),
          ),
        ),
        el(
          "tbody",
          {},
          ...state.standings.map((s) =>
            el(
              "tr",
              { class: s.withdrawn ? "withdrawn" : "" },
              el("td", { class: "num", text: String(s.place) }),
              // short, as the terminal's, so that the seven columns fit a phone: the row is dimmed
              el("td", {}, playerLink(s.name), s.withdrawn ? el("span", { class: "dim", title: _("withdrawn"), text: ` ${_("(out)")}` }) : null),
              el("td", { class: "num points", text: points(s.points) }),
              ...breaks.map(([key]) => el("td", { class: "num", text: key === "wins" ? String(s.wins) : points(s[key]) })),
            ),
          ),
        ),
      ),
    );
  }
  const legend = el(
    "dl",
    { class: "legend" },
    ...breaks.flatMap(([, short, long]) => [el("dt", { text: short }), el("dd", { text: long })]),
  );
  return el(
    "section",
    { class: "part standings-part", "aria-label": _("Standings") },
    el("h2", { text: _("Standings") }),
    body,
    state.standings.length ? el("p", { class: "dim order", text: _("Points first, then the tie-breaks from left to right.") }) : null,
    state.standings.length ? legend : null,
  );
}

// `closed`: the tournament was ended by a moderator, and a game without a result was abandoned.
function gameItem(game, closed) {
  const [score, how] = game.result ? RESULTS[game.result] || ["?", null] : [null, null];
  const over = Boolean(game.result) || closed;
  const me = accounts.account;
  const mine = Boolean(me && game.table_id && !over && (same(game.white, me.name) || same(game.black, me.name)));
  const link = !game.table_id
    ? null
    : over
      ? el("a", { href: `/game/${game.table_id}`, "data-link": "game", class: "replay", text: _("Replay") })
      : el("a", { href: `/table/${game.table_id}`, "data-link": "table", class: "watch", text: mine ? t("Back to my seat") : t("Watch") });
  const unplayed = closed ? _("abandoned") : _("playing");
  return el(
    "li",
    { class: `pairing${over ? " over" : " playing"}${mine ? " mine" : ""}`, "data-table": game.table_id || "" },
    el("span", { class: "board dim", text: String(game.board) }),
    el(
      "span",
      { class: "who" },
      el("span", { class: "player-seat" }, el("span", { class: "seat-mark white", role: "img", "aria-label": seatName("white"), title: seatName("white") }), playerLink(game.white)),
      " – ",
      el("span", { class: "player-seat" }, el("span", { class: "seat-mark black", role: "img", "aria-label": seatName("black"), title: seatName("black") }), playerLink(game.black)),
    ),
    el("span", { class: "score", text: score ? (how ? `${score} ${_("(forfeit)")}` : score) : unplayed }),
    link,
  );
}

function roundsPart(state) {
  if (!state.rounds.length) return null;
  const rounds = [...state.rounds].reverse(); // the round under way first
  return el(
    "section",
    { class: "part rounds-part", "aria-label": _("Rounds") },
    el("h2", { text: _("Rounds") }),
    ...rounds.map((round) =>
      el(
        "div",
        { class: "round", "data-round": String(round.number) },
        el("h3", { text: fmt(_("Round {round}"), { round: round.number }) }),
        el("ol", { class: "pairings" }, ...round.games.map((game) => gameItem(game, state.summary.closed))),
        round.bye ? el("p", { class: "bye" }, `${_("Bye (a point):")} `, playerLink(round.bye)) : null,
      ),
    ),
  );
}

// The note of a round's game waiting for the player, with its table's link; gone once they
// are at it.
export function callPart() {
  const call = tournaments.call;
  if (call && app.current === call.table_id) tournaments.call = null; // they have come
  // or the game is over without them (drawn by the director, the tournament ended, or ended by
  // a moderator: then abandoned, without a result)
  if (call && [...tournaments.known.values()].some((state) => state.rounds.some((round) => round.games.some((game) => game.table_id === call.table_id && (game.result || state.summary.closed))))) tournaments.call = null;
  if (!tournaments.call) return null;
  return el(
    "p",
    { class: "notice tournament-call", role: "status" },
    fmt(_("Your tournament game against {name} is ready."), { name: call.name || "" }),
    " ",
    el("a", { href: `/table/${call.table_id}`, "data-link": "table", text: fmt(_("To table {table}"), { table: call.table_id }) }),
  );
}

// The tab's title while a game of a round waits for the player.
export function calledTitle(title) {
  const call = tournaments.call;
  return call && app.current !== call.table_id ? `(${_("Your game is ready")}) ${title}` : title;
}

export function renderTournament(main, id) {
  watch(id);
  const state = tournaments.known.get(id);
  document.title = calledTitle(`Kahuna · ${state ? state.summary.name : _("Tournament")}`);
  const back = el("a", { href: "/", "data-link": "lobby", class: "back", text: _("Back to the lobby") });
  const notice = app.notice ? el("p", { class: "notice", role: "status", text: app.notice }) : null;
  if (!state) {
    let words = _("Loading…");
    if (app.welcome && !app.welcome.accounts) words = _("This server keeps no accounts, so it has no tournaments.");
    else if (tournaments.missing.has(id)) words = _("No tournament has this id.");
    replace(main, el("article", { class: "tournament-page" }, el("nav", {}, back), el("h1", { text: _("Tournament") }), notice, el("p", { class: "dim", text: words })));
    return;
  }
  replace(
    main,
    el(
      "article",
      { class: "tournament-page" },
      el("nav", {}, back),
      el("header", { class: "tournament-head" }, el("h1", { text: state.summary.name }), winnerLine(state), termsList(state), actions(state)),
      callPart(),
      notice,
      el("div", { class: "tournament-parts" }, standingsPart(state), roundsPart(state), playersPart(state)),
    ),
  );
  if (focusConfirm) {
    focusConfirm = false;
    const yes = main.querySelector(".confirm .yes");
    if (yes) yes.focus();
  }
}

// ----- the lobby's list and form -----------------------------------------------------------

// The terminal client's and the new-table form's clocks (web/new-table.mjs), as TimeControls.
const CLOCKS = [
  null,
  { initial: 300, increment: 3, per_turn: 0, days: 0 },
  { initial: 600, increment: 5, per_turn: 0, days: 0 },
  { initial: 1800, increment: 0, per_turn: 0, days: 0 },
  { initial: 0, increment: 0, per_turn: 60, days: 0 },
  { initial: 0, increment: 0, per_turn: 0, days: 1 },
  { initial: 0, increment: 0, per_turn: 0, days: 3 },
  { initial: 0, increment: 0, per_turn: 0, days: 7 },
];

function summaryItem(summary) {
  return el(
    "li",
    { class: `tournament-row ${summary.status}`, "data-tournament": summary.tournament_id },
    el("a", { href: `/tournament/${summary.tournament_id}`, "data-link": "tournament", class: "name", text: summary.name }),
    el("span", { class: "what dim", text: [formatWords(summary), clockWords(summary.clock), statusWords(summary), fmt(ngettext("{n} player", "{n} players", summary.players), { n: summary.players })].join(" · ") }),
  );
}

function labelled(label, field) {
  return el("label", {}, el("span", { class: "caption", text: label }), field);
}

// The form kept open between drawings: the lobby is drawn anew for every message.
let formOpen = false;

// The form's datetime-local, read in the browser's own time zone, as the server's unix time;
// null (the director starts it) when left empty.
function startTime(value) {
  if (!value) return null;
  const when = new Date(String(value)).getTime();
  return Number.isNaN(when) ? null : Math.floor(when / 1000);
}

function newTournamentForm() {
  const form = el(
    "form",
    { class: "new-tournament", "aria-label": _("New tournament") },
    el(
      "div",
      { class: "fields" },
      labelled(_("Name"), el("input", { name: "tournament-name", id: "tournament-name", maxlength: 60, required: true, autocomplete: "off" })),
      labelled(
        _("Format"),
        el(
          "select",
          { name: "format", id: "tournament-format" },
          el("option", { value: "swiss", text: _("Swiss") }),
          el("option", { value: "round_robin", text: _("Round-robin") }),
          el("option", { value: "double_round_robin", text: _("Double round-robin") }),
        ),
      ),
      labelled(_("Rounds (Swiss)"), el("input", { name: "rounds", id: "tournament-rounds", type: "number", min: 1, max: 30, value: 3 })),
      labelled(_("Time control"), el("select", { name: "tournament-clock", id: "tournament-clock" }, ...CLOCKS.map((clock, i) => el("option", { value: String(i), text: clockWords(clock), selected: i === 1 })))),
      labelled(_("Starts at (optional)"), el("input", { name: "tournament-start", id: "tournament-start", type: "datetime-local" })),
      el("label", { class: "box" }, el("input", { type: "checkbox", name: "tournament-rated", id: "tournament-rated", checked: true }), " ", t("rated")),
    ),
    el("p", { class: "dim", text: _("You direct it: it starts when you start it, or by itself at its start time.") }),
    el("button", { type: "submit", id: "create-tournament", class: "primary", text: _("Make the tournament") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const format = data.get("format");
    const terms = {
      name: String(data.get("tournament-name") || "").trim(),
      format,
      rounds: format === "swiss" ? Number(data.get("rounds")) : 0,
      clock: CLOCKS[Number(data.get("tournament-clock"))] || null,
      rated: data.get("tournament-rated") === "on",
      start: startTime(data.get("tournament-start")),
    };
    creating = true;
    ask("create_tournament", { terms });
  });
  const fold = el(
    "details",
    { class: "new-tournament-fold", open: formOpen, ontoggle: () => { formOpen = fold.open; } },
    el("summary", { text: _("New tournament") }),
    form,
  );
  return fold;
}

// The lobby's part: the server's tournaments (asked for once a connection, and again after a
// tournament's page), and a new one's form for an account.
export function tournamentsPart(me) {
  if (listAsked !== app.welcome && app.conn.send("get_tournaments", {})) listAsked = app.welcome;
  const list = tournaments.list;
  return el(
    "section",
    { class: "part tournaments-part", "aria-label": _("Tournaments") },
    el(
      "div",
      { class: "part-head" },
      el("h2", { text: _("Tournaments") }),
      el("button", { type: "button", id: "tournaments-refresh", class: "small", text: _("Refresh"), onclick: () => app.conn.send("get_tournaments", {}) }),
    ),
    callPart(),
    list === null
      ? el("p", { class: "dim", text: _("Loading…") })
      : list.length
        ? el("ul", { class: "tournament-list" }, ...list.map(summaryItem))
        : el("p", { class: "empty dim", text: _("No tournament yet.") }),
    me ? newTournamentForm() : el("p", { class: "dim", text: _("Log in to play in a tournament.") }),
  );
}

// A player's tournaments, for their page (asked once a connection); null until they come.
export function playerTournaments(name) {
  const key = name.toLowerCase();
  if (playerAsked.get(key) !== app.welcome && app.conn.ready && app.conn.send("get_tournaments", { name })) playerAsked.set(key, app.welcome);
  const found = tournaments.ofPlayer.get(key);
  if (!found) return null;
  return el(
    "section",
    { class: "part player-tournaments", "aria-label": _("Tournaments") },
    el("h2", { text: _("Tournaments") }),
    found.length ? el("ul", { class: "tournament-list" }, ...found.map(summaryItem)) : el("p", { class: "dim no-tournaments", text: _("No tournament yet.") }),
  );
}
