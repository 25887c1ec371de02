// The game's log in words: the terminal client's sentences (client/words.py's describe), from
// the catalogue's tables (web/code-words.mjs), so the same English keys are translated alike.

import { EVENTS, REASONS } from "./code-words.mjs";
import { _, fmt, seatName, t } from "./words.mjs";

const other = (seat) => (seat === "white" ? "black" : "white");

// The log's sentence KEY (catalogue/events.py) in the page's language, filled.
const said = (key, fields = {}) => fmt(_(EVENTS[key]), fields);

export function reasonWords(winner, kind) {
  if (kind === "no_bridges" && winner === null) return _(REASONS.neither);
  const sentence = REASONS[kind] ? _(REASONS[kind]) : kind;
  // the loser is the one named: the winner's opponent
  return winner ? fmt(sentence, { seat: seatName(other(winner)) }) : sentence;
}

export function describe(e) {
  const seat = e.seat ? seatName(e.seat) : "";
  switch (e.type) {
    case "BridgePlaced":
      if (e.card === null) return said("bridge_placed_free", { seat, line: e.line });
      return said("bridge_placed", { seat, line: e.line, card: e.card });
    case "BridgeRemoved":
      if (e.cards === null) return said("bridge_removed_alone", { seat, line: e.line });
      return said("bridge_removed", {
        by: seatName(other(e.seat)),
        seat,
        line: e.line,
        cards: e.cards.join("+"),
      });
    case "TokenPlaced":
      return said("token_placed", { seat, island: e.island });
    case "TokenRemoved":
      return said("token_removed", { seat, island: e.island });
    case "CardDiscarded":
      if (e.card === null) return said("card_discarded_hidden", { seat });
      return said(e.open ? "card_discarded_open" : "card_discarded", { seat, card: e.card });
    case "CardTaken":
      if (e.replacement === null) return said("card_taken", { seat, card: e.card });
      return said("card_taken_replaced", { seat, card: e.card, new: e.replacement });
    case "CardDrawn":
      if (e.card === null) return said("card_drawn_hidden", { seat });
      return said("card_drawn", { seat, card: e.card });
    case "Abstained":
      return said("abstained", { seat });
    case "TurnEnded":
      if (e.next_seat === null) return said("turn_ended_last", { seat });
      return said("turn_ended", { seat: seatName(e.next_seat) });
    case "RoundScored": {
      const scoring = e.final ? said("final_scoring") : said("round_scoring", { round: e.round });
      return said("round_scored", {
        scoring,
        wt: e.tokens[0],
        bt: e.tokens[1],
        wp: e.points[0],
        bp: e.points[1],
      });
    }
    case "Reshuffled":
      return said("reshuffled", { count: e.pile_size, row: e.face_up.join(" ") });
    case "FinalTurnsBegan":
      return said("final_turns", { seat: seatName(e.first) });
    case "GameOver": {
      const reason = reasonWords(e.winner, e.kind);
      const [w, b] = e.scores;
      if (e.winner === null) return said("game_drawn", { reason, w, b });
      return said("game_won", { seat: seatName(e.winner), reason, w, b });
    }
    case "PlayUndone":
      if (e.action === null) return said("undone_hidden", { seat });
      return said("undone", { seat, play: e.action });
    default:
      return null;
  }
}

// One log line per action: its events joined, as the terminal client's log does.
export function describeAction(events) {
  return events.map(describe).filter((s) => s).join("; ");
}

function lineName(a, b) {
  return [a, b].sort().join("-");
}

// A play of the notation in words: the page's choices and the analysis's turns.
export function playWords(action) {
  const words = action.trim().split(/\s+/);
  const verb = words[0].toLowerCase();
  switch (verb) {
    case "place": {
      const [card, other] = words[1].split("-");
      return t("Bridge {line} with {card}", { line: lineName(card, other), card });
    }
    case "remove":
      return words[3] === "rebuild"
        ? t("Remove {line} with {cards}, build there", { line: words[1], cards: words[2] })
        : t("Remove {line} with {cards}", { line: words[1], cards: words[2] });
    case "discard":
      return t("Discard {card}", { card: words[1] });
    case "handicap":
      return t("Free bridge on {line}", { line: words[1] });
    case "take":
      // a sentence of its own, as the card's other plays: "nehmen GOLA" was no German
      return t("Take {card}", { card: words[1] });
    case "draw":
      return _("draw from the pile");
    case "abstain":
      return _("abstain");
    case "end":
      return _("end");
    case "undo":
      return words[1] === "turn" ? _("undo turn") : _("undo");
    default:
      return action;
  }
}
