// What the player does at the table: the actions legal now (web/legality.mjs, from the view), a
// line or a card picked and the choices it leaves, a command or a table message sent.

import { parseAction } from "./legality.mjs";
import { app, render, shown } from "./state.mjs";

export function legal(known) {
  if (!known || !known.view || known.role === "spectator" || known.pending) return [];
  if (known.status !== "playing") return [];
  const ctx = app.rules.contextFromView(known.view);
  return ctx ? app.rules.legalActions(ctx) : [];
}

export function command(action) {
  const known = shown();
  if (!known || known.pending) return;
  if (app.conn.send("command", { table_id: known.id, version: known.version, action })) {
    known.pending = true;
    app.selection = null;
    app.notice = "";
    render();
  }
}

export function tableMessage(type) {
  const known = shown();
  if (known) app.conn.send(type, { table_id: known.id });
}

// The actions a picked line or card allows now.
export function choicesFor(actions, selection) {
  if (!selection) return [];
  return actions.filter((a) => {
    const parsed = parseAction(app.rules, a);
    if (selection.line !== undefined) return parsed.line === selection.line;
    return parsed.cards[0] === selection.card && (parsed.verb === "place" || parsed.verb === "discard");
  });
}

export function onLine(k) {
  const known = shown();
  const actions = legal(known);
  const picked = app.selection && app.selection.card !== undefined ? app.selection : null;
  let options = choicesFor(actions, { line: k });
  if (picked) {
    const withCard = options.filter((a) => parseAction(app.rules, a).cards.includes(picked.card));
    if (withCard.length) options = withCard;
  }
  if (options.length === 1) {
    command(options[0]);
    return;
  }
  app.selection = { line: k };
  render();
  const first = document.querySelector("#choices button");
  if (first) first.focus();
}

export function onCard(card) {
  const same = app.selection && app.selection.card === card;
  app.selection = same ? null : { card };
  render();
}
