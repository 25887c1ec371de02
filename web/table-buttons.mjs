// The table's buttons: the choices a picked line or card leaves, and the player's turn and game
// controls (abstain, end, undo, draw offers, claim, resign, rematch) and leaving the table.

import { el } from "./dom.mjs";
import { forgetSeat } from "./kept.mjs";
import { command, tableMessage } from "./moves.mjs";
import { go } from "./routes.mjs";
import { app, render, shown, tableOf } from "./state.mjs";
import { playWords } from "./events.mjs";
import { tellWhy, whyNotAction, whyNotNow } from "./table-why.mjs";
import { _, fmt, t } from "./words.mjs";

// The choices a picked line or card leaves; a line picked by a tap (web/moves.mjs's onTap) is
// confirmed here, or dropped with Cancel.
export function choicesNode(choices) {
  const confirming = Boolean(app.selection && app.selection.confirm && choices.length);
  return el(
    "div",
    { id: "choices", class: `choices${confirming ? " confirm" : ""}`, role: "group", "aria-label": confirming ? t("Confirm the line") : t("Choices") },
    confirming ? el("span", { class: "label", text: t("Confirm the line") }) : null,
    ...choices.map((a) => el("button", { type: "button", "data-action": a, text: playWords(a), onclick: () => command(a) })),
    confirming
      ? el("button", {
          type: "button",
          id: "cancel-line",
          text: t("Cancel"),
          onclick: () => {
            app.selection = null;
            render();
          },
        })
      : null,
  );
}

const button = (id, label, enabled, onclick) =>
  el("button", { type: "button", id, text: label, disabled: !enabled, onclick });

// A seated player's buttons while the game goes on.
function playingButtons(known, pub, mySeat, actions) {
  const info = tableOf(known);
  const opponent = mySeat === "white" ? "black" : "white";
  const myTurn = mySeat && pub.to_move === mySeat && known.status === "playing";
  const canAbstain = actions.includes("abstain");
  const buttons = [
    el("button", {
      type: "button",
      id: "abstain",
      text: _("abstain"),
      "aria-disabled": canAbstain ? null : "true",
      onclick: () => (canAbstain ? command("abstain") : tellWhy(whyNotNow(shown()) || whyNotAction(shown(), { verb: "abstain" }), render)),
    }),
  ];
  if (pub.phase === "final") buttons.push(button("end", _("end"), actions.includes("end"), () => command("end")));
  buttons.push(button("undo", _("undo"), myTurn && !known.pending && pub.undoable > 0, () => command("undo")));
  buttons.push(button("undo-turn", _("undo turn"), myTurn && !known.pending && pub.undoable > 1, () => command("undo turn")));
  const offered = info.draw_offer === opponent;
  buttons.push(
    button("offer-draw", offered ? t("Accept the draw") : _("offer draw"), known.status === "playing" && info.draw_offer !== mySeat, () => tableMessage("offer_draw")),
  );
  if (offered) buttons.push(button("decline-draw", _("decline"), true, () => tableMessage("decline_draw")));
  if (info.claim === mySeat) buttons.push(button("claim", _("claim"), true, () => tableMessage("claim")));
  buttons.push(
    button("resign", app.confirmResign ? t("Really resign?") : _("resign"), known.status === "playing", () => {
      if (app.confirmResign) {
        app.confirmResign = false;
        tableMessage("resign");
      } else {
        app.confirmResign = true;
        render();
      }
    }),
  );
  return buttons;
}

export function tableButtons(known, pub, mySeat, actions, over) {
  const info = tableOf(known);
  const buttons = [];
  if (mySeat && !over) buttons.push(...playingButtons(known, pub, mySeat, actions));
  // a tournament's game has no rematch: its tournament pairs the next one
  else if (mySeat && !info.rematch_table && !info.tournament) {
    const opponent = mySeat === "white" ? "black" : "white";
    const offered = info.rematch_offer === opponent;
    buttons.push(
      button("rematch", offered ? t("Accept the rematch") : _("rematch"), info.rematch_offer !== mySeat, () => tableMessage("rematch")),
    );
  }
  if (info.rematch_table) {
    buttons.push(el("a", { href: `/table/${info.rematch_table}`, "data-link": "table", text: fmt(_("Rematch at table {table}"), { table: info.rematch_table }) }));
  }
  buttons.push(
    el("button", {
      type: "button",
      id: "leave",
      text: _("leave the table"),
      onclick: () => {
        tableMessage("leave");
        if (known.role === "spectator" || known.status !== "playing") forgetSeat(known.id);
        go(null);
      },
    }),
  );
  return buttons;
}
