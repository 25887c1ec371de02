// Why a click cannot be done now, in the player's words: the engine's refusal code for it
// (web/legality.mjs's refusal, as shared/legality.py says it) or the server's own code (not your
// turn, spectators do not play, the connection), said through web/errors.mjs. Nothing is sent:
// the page knows the rules, and the server would refuse the same way.

import { codeWords } from "./errors.mjs";
import { app } from "./state.mjs";
import { t } from "./words.mjs";

// Why the seat cannot act at all now, or null when it may (its turn, the game on, connected).
export function whyNotNow(known) {
  if (!known || !known.view) return t("Waiting for the table's state...");
  if (!app.conn || !app.conn.ready || known.epoch !== app.conn.epoch) return t("The connection is lost: wait until it is back.");
  if (known.role === "spectator") return codeWords("spectator_cannot_act");
  if (known.status === "waiting") return codeWords("game_not_started");
  if (known.status === "over" || known.view.public.result) return codeWords("game_over");
  if (known.view.public.to_move !== known.role) return codeWords("not_your_turn");
  if (known.pending) return t("Sent…");
  return null;
}

function context(known) {
  return app.rules.contextFromView(known.view);
}

// The first refusal of some actions, or null when one of them is legal.
function firstRefusal(ctx, actions) {
  let found = null;
  for (const action of actions) {
    const no = app.rules.refusal(ctx, action);
    if (!no) return null;
    if (!found) found = no;
  }
  return found;
}

// A line clicked (its index): placing on it with the picked card, or with a card of either of
// its islands; removing the opponent's bridge with the cards held.
export function whyNotLine(known, line) {
  const now = whyNotNow(known);
  if (now) return now;
  const ctx = context(known);
  const rules = app.rules;
  const [a, b] = rules.lines[line];
  const picked = app.selection && app.selection.card !== undefined ? rules.index.get(app.selection.card) : null;
  const opp = (ctx.bridges[1 - ctx.seat] >> line) & 1;
  let tried;
  if (ctx.phase === "handicap") tried = [{ verb: "handicap", line }];
  else if (opp) {
    const pairs = picked === null ? [[a, a], [a, b], [b, b]] : [[picked, picked === a ? b : a], [picked, picked]];
    tried = pairs.map((cards) => ({ verb: "remove", line, cards }));
  } else if (picked !== null) tried = [{ verb: "place", card: picked, line }];
  else {
    // the end whose card the player holds speaks first: "no bridges left" rather than "no ALOA card"
    const ends = ctx.hand[b] && !ctx.hand[a] ? [b, a] : [a, b];
    tried = ends.map((card) => ({ verb: "place", card, line }));
  }
  const no = firstRefusal(ctx, tried);
  return no ? codeWords(no.code, no.params) : null;
}

// A button of the hand, the face-up row, the pile or abstain: its action in the notation's verbs.
export function whyNotAction(known, action) {
  const now = whyNotNow(known);
  if (now) return now;
  const rules = app.rules;
  const card = action.card !== undefined ? rules.index.get(action.card) : undefined;
  const no = rules.refusal(context(known), { ...action, card });
  return no ? codeWords(no.code, no.params) : null;
}

// Say why, where the player looks (the table's #why line, an alert for screen readers).
export function tellWhy(text, render) {
  app.why = text;
  app.whyTable = app.current;
  app.whyNew = true;
  render();
}

// The reason's role as drawn now: an alert when just said, then a plain status, so that a
// screen reader says it once and not again at every redraw of the table.
export function whyRole() {
  const role = app.whyNew ? "alert" : "status";
  app.whyNew = false;
  return role;
}

// The reason on the screen, at its own table only.
export function shownWhy() {
  return app.why && app.whyTable === app.current ? app.why : "";
}
