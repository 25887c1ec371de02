// The lobby's form for a new table: against the computer at a level or waiting for a person,
// the seat, a time control, the variants, rated where the server keeps accounts.

import { el } from "./dom.mjs";
import { app } from "./state.mjs";
import { _, t } from "./words.mjs";

const LEVELS = ["easy", "normal", "strong"];

function labelled(label, field) {
  return el("label", {}, label, " ", field);
}

function options(name, choices) {
  return el("select", { name, id: name }, ...choices.map(([value, text]) => el("option", { value, text })));
}

// The create_table message of what the form says.
function creation(data) {
  const clock = data.get("clock");
  const fields = {
    options: {
      variant1: data.get("variant1") === "on",
      variant2: data.get("variant2") === "on",
      handicap_seat: null,
      handicap_bridges: 0,
    },
    vs_computer: data.get("computer") === "on",
    seat: data.get("seat"),
    first: "white",
    clock: null,
    level: data.get("level"),
    hints: true,
    rated: data.get("rated") === "on",
  };
  if (clock) {
    const [initial, increment] = clock.split("+").map(Number);
    fields.clock = { initial, increment, per_turn: 0 };
  }
  return fields;
}

export function newTableForm() {
  const form = el(
    "form",
    { class: "create", "aria-label": _("New table") },
    el("h2", { text: _("New table") }),
    el(
      "label",
      {},
      el("input", { type: "checkbox", name: "computer", checked: true, id: "vs-computer" }),
      " ",
      _("Against the computer"),
    ),
    labelled(
      _("The computer's level"),
      el("select", { name: "level", id: "level" }, ...LEVELS.map((l) => el("option", { value: l, text: _(l), selected: l === "easy" }))),
    ),
    labelled(_("Your seat"), options("seat", [["white", _("White")], ["black", _("Black")]])),
    labelled(
      _("Time control"),
      options("clock", [["", _("none")], ["300+5", "5 min + 5 s"], ["900+10", "15 min + 10 s"]]),
    ),
    el("label", {}, el("input", { type: "checkbox", name: "variant1" }), " ", _("Variant 1")),
    el("label", {}, el("input", { type: "checkbox", name: "variant2" }), " ", _("Variant 2")),
    app.welcome && app.welcome.accounts
      ? el("label", {}, el("input", { type: "checkbox", name: "rated", checked: true }), " ", t("rated"))
      : null,
    el("button", { type: "submit", id: "create", text: t("Create and sit down") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    app.conn.send("create_table", creation(new FormData(form)));
  });
  return form;
}
