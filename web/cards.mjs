// The cards at the table: the player's hand (a card picked shows the lines it can bridge), and
// the face-up row with the pile. A card that can be played or taken now is marked as playable;
// one that cannot stays clickable (aria-disabled) and says why when clicked. Each has a stable
// key (data-slot, data-take, #draw) so that the focus stays on it across redraws; the hand's
// cards are keys 1 to 5.

import { el } from "./dom.mjs";
import { parseAction } from "./legality.mjs";
import { command, onCard } from "./moves.mjs";
import { app, render, shown } from "./state.mjs";
import { tellWhy, whyNotAction, whyNotNow } from "./table-why.mjs";
import { _, fmt } from "./words.mjs";

// A card button: playable, or aria-disabled with its reason on a click.
function cardButton(props, usable, act, why) {
  return el("button", {
    type: "button",
    ...props,
    class: `${props.class}${usable ? " playable" : ""}`,
    "aria-disabled": usable ? null : "true",
    onclick: () => (usable ? act() : tellWhy(why(), render)),
  });
}

export function handNode(known, mySeat, actions) {
  if (!mySeat) return el("p", { class: "dim", text: _("You are watching: no hand is shown.") });
  const hand = known.view.hand;
  const fresh = known.fresh && performance.now() - known.fresh.at < 1000 ? [...known.fresh.cards] : [];
  const label = fmt(_("Your hand ({n} of 5)"), { n: hand.length });
  return el(
    "div",
    { class: "hand", role: "group", "aria-label": label },
    el("span", { class: "label", text: label }),
    ...hand.map((card, slot) => {
      const usable = actions.some((a) => parseAction(app.rules, a).cards[0] === card && /^(place|discard|remove)/.test(a));
      const picked = Boolean(app.selection && app.selection.card === card);
      // the last drawn card of that island is the new one
      const isNew = fresh.includes(card) && hand.lastIndexOf(card) === slot;
      if (isNew) fresh.splice(fresh.indexOf(card), 1);
      return cardButton(
        {
          class: `card${picked ? " selected" : ""}${isNew ? " fresh" : ""}`,
          "data-card": card,
          "data-slot": String(slot + 1),
          "aria-pressed": String(picked),
          "aria-keyshortcuts": String(slot + 1),
          title: `${card} (${slot + 1})`,
          text: card,
        },
        usable,
        () => onCard(card),
        () => whyNotNow(shown()) || whyNotAction(shown(), { verb: "discard", card }),
      );
    }),
    hand.length ? null : el("span", { class: "dim", text: _("no cards") }),
  );
}

export function faceUpRow(known, pub, actions) {
  const seated = known.role !== "spectator";
  const pileLabel = `${_("Pile")} ${pub.pile_size}`;
  return el(
    "div",
    { class: "row", role: "group", "aria-label": _("Face up") },
    el("span", { class: "label", text: _("Face up") }),
    ...pub.face_up.map((card, slot) =>
      cardButton(
        {
          class: "card faceup",
          "data-take": card,
          "data-slot": `up${slot}`,
          "aria-label": `${_("take")} ${card}`,
          text: card,
          disabled: !seated,
        },
        actions.includes(`take ${card}`),
        () => command(`take ${card}`),
        () => whyNotAction(shown(), { verb: "take", card }),
      ),
    ),
    cardButton(
      {
        class: "pile",
        id: "draw",
        text: pileLabel,
        // the name starts with what the button shows (WCAG 2.5.3, axe's label-content-name-mismatch)
        "aria-label": `${pileLabel}: ${_("draw from the pile")}`,
        "aria-keyshortcuts": "d",
        disabled: !seated,
      },
      actions.includes("draw"),
      () => command("draw"),
      () => whyNotAction(shown(), { verb: "draw" }),
    ),
    el("span", {
      class: "dim discards",
      text: `${_("Discards")}: ${fmt(_("{up} up, {down} down"), { up: pub.played.length, down: pub.face_down_count })}`,
    }),
  );
}
