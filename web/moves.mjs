// What the player does at the table: the actions legal now (web/legality.mjs, from the view), a
// line or a card picked and the choices it leaves, a command or a table message sent. A line
// that cannot be used says why (web/table-why.mjs); a tap on a board too small for a finger
// picks the nearest playable line and asks to confirm it; nothing is dropped without a word.

import { boardPoint, nearestLine } from "./board.mjs";
import { parseAction } from "./legality.mjs";
import { app, render, shown } from "./state.mjs";
import { tellWhy, whyNotLine } from "./table-why.mjs";
import { t } from "./words.mjs";

export function legal(known) {
  if (!known || !known.view || known.role === "spectator" || known.pending) return [];
  if (known.status !== "playing") return [];
  if (!app.conn || !app.conn.ready || known.epoch !== app.conn.epoch) return []; // not before the seat is back
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
    app.why = "";
    render();
  } else tellWhy(t("The connection is lost: wait until it is back."), render);
}

export function tableMessage(type) {
  const known = shown();
  if (!known) return;
  if (!app.conn.send(type, { table_id: known.id })) tellWhy(t("The connection is lost: wait until it is back."), render);
}

// The actions a picked line or card allows now.
export function choicesFor(actions, selection) {
  if (!selection) return [];
  return actions.filter((a) => {
    const parsed = parseAction(app.rules, a);
    if (selection.line !== undefined) return parsed.line === selection.line;
    return parsed.cards[0] === selection.card && (parsed.verb === "place" || parsed.verb === "discard" || parsed.verb === "remove");
  });
}

// The lines (indices) the player may act on now: those of the picked card, when one is.
export function activeLines(actions, choices) {
  const active = new Set();
  for (const a of app.selection && app.selection.card !== undefined ? choices : actions) {
    const parsed = parseAction(app.rules, a);
    if (parsed.line !== null && parsed.line !== undefined) active.add(parsed.line);
  }
  return active;
}

// A finger on the board: is a line's band narrower than a fingertip (44 CSS px, WCAG 2.5.5)?
const FINGER = 44;
const HIT_WIDTH = 30; // the board's units: web/table.css's .line .hit stroke-width

function tooSmallForAFinger(root) {
  const [, , w] = app.board.view_box;
  return (root.getBoundingClientRect().width / w) * HIT_WIDTH < FINGER;
}

function focusFirstChoice() {
  const first = document.querySelector("#choices button");
  if (first) first.focus();
}

// A tap (or a click beside the lines) at a point of the board: the nearest line the player
// may use, when it is near enough for a finger, picked to be confirmed; else why the nearest
// line cannot be used.
export function onTap(event) {
  const known = shown();
  const root = event.currentTarget.closest ? event.currentTarget.closest("svg.board") : null;
  if (!known || !root) return;
  const point = boardPoint(root, event);
  const actions = legal(known);
  const active = [...activeLines(actions, choicesFor(actions, app.selection))];
  const all = app.board.lines.map((_, k) => k);
  const nearest = nearestLine(root, point, all);
  const scale = root.getBoundingClientRect().width / app.board.view_box[2];
  const reach = FINGER / scale; // a fingertip's reach, in the board's units
  const playable = active.length ? nearestLine(root, point, active) : null;
  if (playable && playable.distance <= Math.max(reach, nearest.distance + reach / 2)) {
    const picked = app.selection && app.selection.card !== undefined ? app.selection.card : undefined;
    app.selection = { line: playable.line, confirm: true, card: picked };
    app.why = "";
    render();
    focusFirstChoice();
    return;
  }
  if (nearest && nearest.distance <= reach) tellWhy(whyNotLine(known, nearest.line) || "", render);
}

export function onLine(k, event) {
  const known = shown();
  const touch = event && event.pointerType === "touch";
  if (touch && tooSmallForAFinger(event.currentTarget.closest("svg.board"))) {
    onTap(event);
    return;
  }
  const actions = legal(known);
  const picked = app.selection && app.selection.card !== undefined ? app.selection : null;
  let options = choicesFor(actions, { line: k });
  if (picked) {
    const withCard = options.filter((a) => parseAction(app.rules, a).cards.includes(picked.card));
    if (withCard.length) options = withCard;
    else options = [];
  }
  if (!options.length) {
    tellWhy(whyNotLine(known, k) || "", render);
    return;
  }
  if (options.length === 1) {
    command(options[0]);
    return;
  }
  app.selection = { line: k };
  app.why = "";
  render();
  focusFirstChoice();
}

export function onCard(card) {
  const same = app.selection && app.selection.card === card;
  app.selection = same ? null : { card };
  app.why = "";
  render();
}
