// The lobby's form for a new table, with what the terminal client's form offers
// (client/model/table_form.py): against the computer at a level or waiting for a person, the
// seat, who moves first, a time control (games of days too), the variants, a handicap, hints,
// and rated where the server keeps accounts and a person is to come (never against the computer).
// Which options show follows the first box by CSS alone (lobby.css), so a redrawing keeps them.

import { el } from "./dom.mjs";
import { app } from "./state.mjs";
import { _, fmt, ngettext, pgettext, seatName, t } from "./words.mjs";

const LEVELS = ["easy", "normal", "strong"];

// The terminal client's choices (client/model/table.py CLOCK_CHOICES): value "initial+increment",
// "turn:SECONDS" or "days:N".
const CLOCKS = ["", "300+3", "600+5", "1800+0", "turn:60", "days:1", "days:3", "days:7"];

// The clock's words as the terminal client says them (client/model/table.py describe_control).
function clockWords(value) {
  if (!value) return pgettext("time control", "none"); // agrees with it (Italian: nessuno)
  const [kind, amount] = value.split(":");
  if (kind === "days") return fmt(ngettext("{n} day a move", "{n} days a move", Number(amount)), { n: amount });
  if (kind === "turn") return t("{n} min per turn", { n: Number(amount) / 60 });
  const [initial, increment] = value.split("+").map(Number);
  const minutes = String(initial / 60);
  const short = `${minutes}+${increment}`;
  return increment
    ? t("{short} ({minutes} min each, +{n} s a turn)", { short, minutes, n: increment })
    : t("{short} ({minutes} min each)", { short, minutes });
}

export function timeControl(value) {
  if (!value) return null;
  const [kind, amount] = value.split(":");
  if (kind === "days") return { initial: 0, increment: 0, per_turn: 0, days: Number(amount) };
  if (kind === "turn") return { initial: 0, increment: 0, per_turn: Number(amount) };
  const [initial, increment] = value.split("+").map(Number);
  return { initial, increment, per_turn: 0 };
}

function labelled(label, field, className = null) {
  return el("label", { class: className }, el("span", { class: "caption", text: label }), field);
}

function choice(name, choices, chosen = null) {
  return el("select", { name, id: name }, ...choices.map(([value, text]) => el("option", { value, text, selected: value === chosen })));
}

function box(name, label, checked = false, className = null, id = name) {
  return el("label", { class: `box${className ? ` ${className}` : ""}` }, el("input", { type: "checkbox", name, id, checked }), " ", label);
}

const HANDICAPS = [
  ["", () => pgettext("handicap", "none")],
  ...["white", "black"].flatMap((seat) =>
    [1, 2, 3].map((n) => [
      `${seat}:${n}`,
      () => fmt(ngettext("{seat} places {n} free bridge", "{seat} places {n} free bridges", n), { seat: seatName(seat), n }),
    ]),
  ),
];

// A game against the computer for a newcomer: one click, White, the easy computer, no clock.
export function computerGame() {
  return {
    options: { variant1: false, variant2: false, handicap_seat: null, handicap_bridges: 0 },
    vs_computer: true,
    seat: "white",
    first: "white",
    clock: null,
    level: "easy",
    hints: true,
    rated: false,
  };
}

// The create_table message of what the form says.
function creation(data) {
  const computer = data.get("computer") === "on";
  const [handicapSeat, handicapBridges] = (data.get("handicap") || "").split(":");
  return {
    options: {
      variant1: data.get("variant1") === "on",
      variant2: data.get("variant2") === "on",
      handicap_seat: handicapSeat || null,
      handicap_bridges: handicapSeat ? Number(handicapBridges) : 0,
    },
    vs_computer: computer,
    seat: data.get("seat"),
    first: data.get("first"),
    clock: timeControl(data.get("clock")),
    level: data.get("level"),
    hints: data.get("hints") === "on",
    rated: !computer && data.get("rated") === "on",
  };
}

// The options kept open between drawings: the lobby is drawn anew for every message.
let moreOpen = false;

export function newTableForm(send) {
  const withAccounts = Boolean(app.welcome && app.welcome.accounts);
  const more = el(
    "details",
    { class: "more", open: moreOpen, ontoggle: () => { moreOpen = more.open; } },
    el("summary", { text: _("More options") }),
    el(
      "div",
      { class: "fields" },
      labelled(_("First to move"), choice("first", [["white", _("White")], ["black", _("Black")], ["random", _("Random")]])),
      labelled(_("Handicap"), el("select", { name: "handicap", id: "handicap" }, ...HANDICAPS.map(([value, words]) => el("option", { value, text: words() })))),
      box("variant1", _("Variant 1 (no bridges at opponent's islands)")),
      box("variant2", _("Variant 2 (drawn face-up cards lie open)")),
      box("hints", _("Hints: a player may ask what the computer would play"), true),
    ),
  );
  const form = el(
    "form",
    { class: "create", "aria-label": _("New table") },
    el("h2", { text: _("New table") }),
    el(
      "div",
      { class: "fields" },
      box("computer", _("Against the computer"), true, "vs-computer", "vs-computer"),
      labelled(
        _("The computer's level"),
        el("select", { name: "level", id: "level" }, ...LEVELS.map((l) => el("option", { value: l, text: _(l), selected: l === "easy" }))),
        "computer-only",
      ),
      labelled(_("Your seat"), choice("seat", [["white", _("White")], ["black", _("Black")]])),
      labelled(_("Time control"), el("select", { name: "clock", id: "clock" }, ...CLOCKS.map((value) => el("option", { value, text: clockWords(value) })))),
      withAccounts ? box("rated", _("Rated: yes, if both players have accounts"), false, "person-only") : null,
    ),
    more,
    el("button", { type: "submit", id: "create", class: "primary", text: t("Create and sit down") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("create_table", creation(new FormData(form)));
  });
  return form;
}
