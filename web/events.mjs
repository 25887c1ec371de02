// The game's log in words: the terminal client's sentences (client/words.py's describe), with
// the same English keys, so the catalogues translate them alike.

import { _, fmt, seatName, t } from "./words.mjs";

const REASONS = {
  points: "more points",
  final: "tied on points, more in the final scoring",
  bridges: "tied on points, more bridges on the board",
  tie: "tied on points and bridges: no winner",
  no_bridges: "{seat} has no bridge on the board",
  agreed: "draw agreed",
  resigned: "{seat} resigned",
  time: "{seat} ran out of time",
  forfeit: "{seat} forfeited",
};

const other = (seat) => (seat === "white" ? "black" : "white");

export function reasonWords(winner, kind) {
  const sentence = _(REASONS[kind] || kind);
  if (kind === "no_bridges" && winner === null) return _("neither player has a bridge on the board");
  // the loser is the one named: the winner's opponent
  return winner ? fmt(sentence, { seat: seatName(other(winner)) }) : sentence;
}

export function describe(e) {
  const seat = e.seat ? seatName(e.seat) : "";
  switch (e.type) {
    case "BridgePlaced":
      if (e.card === null) return fmt(_("{seat} placed a free bridge on {line}"), { seat, line: e.line });
      return fmt(_("{seat} placed a bridge on {line} with {card}"), { seat, line: e.line, card: e.card });
    case "BridgeRemoved":
      if (e.cards === null) return fmt(_("{seat}'s bridge {line} was removed"), { seat, line: e.line });
      return fmt(_("{by} removed {seat}'s bridge {line} with {cards}"), {
        by: seatName(other(e.seat)),
        seat,
        line: e.line,
        cards: e.cards.join("+"),
      });
    case "TokenPlaced":
      return fmt(_("{seat} won {island}"), { seat, island: e.island });
    case "TokenRemoved":
      return fmt(_("{seat} lost {island}"), { seat, island: e.island });
    case "CardDiscarded":
      if (e.card === null) return fmt(_("{seat} discarded a card face down"), { seat });
      if (e.open) return fmt(_("{seat} discarded the open card {card}"), { seat, card: e.card });
      return fmt(_("{seat} discarded {card}"), { seat, card: e.card });
    case "CardTaken":
      if (e.replacement === null) return fmt(_("{seat} took {card} from the face-up row"), { seat, card: e.card });
      return fmt(_("{seat} took {card} from the face-up row; {new} turned up"), {
        seat,
        card: e.card,
        new: e.replacement,
      });
    case "CardDrawn":
      if (e.card === null) return fmt(_("{seat} drew a card from the pile"), { seat });
      return fmt(_("{seat} drew {card} from the pile"), { seat, card: e.card });
    case "Abstained":
      return fmt(_("{seat} abstained from drawing"), { seat });
    case "TurnEnded":
      if (e.next_seat === null) return fmt(_("{seat}'s turn ended"), { seat });
      return fmt(_("{seat} to move"), { seat: seatName(e.next_seat) });
    case "RoundScored": {
      const scoring = e.final ? _("Final scoring") : fmt(_("Scoring of round {round}"), { round: e.round });
      return fmt(_("{scoring}: tokens White {wt}, Black {bt}; points White +{wp}, Black +{bp}"), {
        scoring,
        wt: e.tokens[0],
        bt: e.tokens[1],
        wp: e.points[0],
        bp: e.points[1],
      });
    }
    case "Reshuffled":
      return fmt(_("The discard pile was shuffled: {count} cards to draw, face up {row}"), {
        count: e.pile_size,
        row: e.face_up.join(" "),
      });
    case "FinalTurnsBegan":
      return fmt(_("The cards are out: one last turn each, {seat} first"), { seat: seatName(e.first) });
    case "GameOver": {
      const reason = reasonWords(e.winner, e.kind);
      const [w, b] = e.scores;
      if (e.winner === null) return fmt(_("Game over, a draw ({reason}); White {w}, Black {b}"), { reason, w, b });
      return fmt(_("Game over, {seat} wins ({reason}); White {w}, Black {b}"), {
        seat: seatName(e.winner),
        reason,
        w,
        b,
      });
    }
    case "PlayUndone":
      if (e.action === null) return fmt(_("{seat} took back a card discarded face down"), { seat });
      return fmt(_("{seat} took back {play}"), { seat, play: e.action });
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
      return `${_("take")} ${words[1]}`;
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
