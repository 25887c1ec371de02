// The cards at the table: the player's hand (a card picked shows the lines it can bridge), and
// the face-up row with the pile, each card a button when taking it is legal.

import { el } from "./dom.mjs";
import { parseAction } from "./legality.mjs";
import { command, onCard } from "./moves.mjs";
import { app } from "./state.mjs";
import { _, fmt } from "./words.mjs";

export function handNode(known, mySeat, actions) {
  if (!mySeat) return el("p", { class: "dim", text: _("You are watching: no hand is shown.") });
  const hand = known.view.hand;
  return el(
    "div",
    { class: "hand", role: "group", "aria-label": fmt(_("Your hand ({n} of 5)"), { n: hand.length }) },
    el("span", { class: "label", text: fmt(_("Your hand ({n} of 5)"), { n: hand.length }) }),
    ...hand.map((card) => {
      const usable = actions.some((a) => parseAction(app.rules, a).cards[0] === card && /^(place|discard)/.test(a));
      return el("button", {
        type: "button",
        class: `card${app.selection && app.selection.card === card ? " selected" : ""}`,
        "data-card": card,
        disabled: !usable,
        "aria-pressed": String(Boolean(app.selection && app.selection.card === card)),
        text: card,
        onclick: () => onCard(card),
      });
    }),
    hand.length ? null : el("span", { class: "dim", text: _("no cards") }),
  );
}

export function faceUpRow(pub, actions) {
  return el(
    "div",
    { class: "row", role: "group", "aria-label": _("Face up") },
    el("span", { class: "label", text: _("Face up") }),
    ...pub.face_up.map((card) =>
      el("button", {
        type: "button",
        class: "card faceup",
        "data-take": card,
        disabled: !actions.includes(`take ${card}`),
        "aria-label": `${_("take")} ${card}`,
        text: card,
        onclick: () => command(`take ${card}`),
      }),
    ),
    el("button", {
      type: "button",
      class: "pile",
      id: "draw",
      disabled: !actions.includes("draw"),
      text: `${_("Pile")} ${pub.pile_size}`,
      "aria-label": `${_("draw from the pile")} (${pub.pile_size})`,
      onclick: () => command("draw"),
    }),
    el("span", {
      class: "dim",
      text: `${_("Discards")}: ${fmt(_("{up} up, {down} down"), { up: pub.played.length, down: pub.face_down_count })}`,
    }),
  );
}
