// The table's status line: whose turn, and what can be done now, from the legal actions
// (web/legality.mjs) and the view: a full hand must place or discard before drawing, an empty
// pile leaves the face-up cards, the opponent's turn is waited for, the game over says how.

import { reasonWords } from "./events.mjs";
import { tableOf } from "./state.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

function gameOverText(result) {
  const winner = result.winner;
  const reason = reasonWords(winner, result.kind);
  if (result.kind === "abandoned") return reason; // a moderator closed the table: no draw
  return winner ? `${fmt(_("Game over: {seat} wins"), { seat: seatName(winner) })} (${reason})` : `${_("Game over: a draw")} (${reason})`;
}

// What the player to move may do, in a sentence, from the actions legal now.
function yourTurnHint(known, pub, actions) {
  const hand = known.view.hand.length;
  const ends = actions.some((a) => a === "draw" || a.startsWith("take "));
  const builds = actions.some((a) => /^(place|remove) /.test(a));
  if (pub.phase === "handicap") return t("Click a marked line for a free bridge.");
  if (pub.phase === "final") return t("Play your cards, then end the game.");
  if (!ends && hand >= 5) return t("Your hand is full (5 of 5): place or discard a card first, then draw.");
  if (!pub.pile_size && !pub.face_up.length) return t("The pile and the face-up row are empty.");
  if (!pub.pile_size) return t("The pile is empty: take a face-up card.");
  if (builds) return t("Bridge a marked line (or pick a card first), then draw or take a card.");
  return t("Draw or take a card, or discard one.");
}

// {text, hint}: the line in bold, and under it what to do.
export function statusOf(known, pub, mySeat, actions, offline) {
  if (pub.result && mySeat && tableOf(known).tournament) return { text: gameOverText(pub.result), hint: _("The tournament pairs your next game.") };
  if (pub.result) return { text: gameOverText(pub.result), hint: mySeat ? t("Offer a rematch, or leave the table.") : "" };
  if (known.status === "waiting") return { text: _("Waiting for an opponent"), hint: "" };
  if (offline) return { text: t("Connection lost"), hint: t("The controls come back with the seat.") };
  const name = known.players && known.players[pub.to_move] ? known.players[pub.to_move].name : "";
  const theirs = fmt(_("{seat} to move ({name})"), { seat: seatName(pub.to_move), name });
  if (!mySeat) return { text: theirs, hint: "" };
  if (pub.to_move !== mySeat) return { text: theirs, hint: t("Waiting for the opponent's move.") };
  if (known.pending) return { text: t("Sent…"), hint: "" };
  let text = _("Your turn");
  if (pub.phase === "handicap") text = fmt(_("Your turn: {n} handicap"), { n: pub.handicap_left });
  else if (pub.phase === "final") text = _("Your turn: the last one");
  else if (!actions.includes("abstain") && pub.opponent_abstained) text = _("Your turn: you must draw");
  return { text, hint: yourTurnHint(known, pub, actions) };
}
