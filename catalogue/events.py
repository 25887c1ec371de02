"""The game log's sentences, in English, keyed by what happened: one per event type and case
(a bridge placed with a card or free, a card drawn seen or unseen, ...). The terminal client
(client.language.words.describe) and the page (web/events.mjs, from web/code-words.mjs) fill the
same fields from an event, so both say a move alike in every language.
"""

from __future__ import annotations

from catalogue import N_

EVENTS: dict[str, str] = {
    "bridge_placed": N_("{seat} placed a bridge on {line} with {card}"),
    "bridge_placed_free": N_("{seat} placed a free bridge on {line}"),
    "bridge_removed": N_("{by} removed {seat}'s bridge {line} with {cards}"),
    "bridge_removed_alone": N_("{seat}'s bridge {line} was removed"),
    "token_placed": N_("{seat} won {island}"),
    "token_removed": N_("{seat} lost {island}"),
    "card_discarded": N_("{seat} discarded {card}"),
    "card_discarded_open": N_("{seat} discarded the open card {card}"),
    "card_discarded_hidden": N_("{seat} discarded a card face down"),
    "card_taken": N_("{seat} took {card} from the face-up row"),
    "card_taken_replaced": N_("{seat} took {card} from the face-up row; {new} turned up"),
    "card_drawn": N_("{seat} drew {card} from the pile"),
    "card_drawn_hidden": N_("{seat} drew a card from the pile"),
    "abstained": N_("{seat} abstained from drawing"),
    "turn_ended": N_("{seat} to move"),
    "turn_ended_last": N_("{seat}'s turn ended"),
    "round_scored": N_("{scoring}: tokens White {wt}, Black {bt}; points White +{wp}, Black +{bp}"),
    "round_scoring": N_("Scoring of round {round}"),
    "final_scoring": N_("Final scoring"),
    "reshuffled": N_("The discard pile was shuffled: {count} cards to draw, face up {row}"),
    "final_turns": N_("The cards are out: one last turn each, {seat} first"),
    "game_won": N_("Game over, {seat} wins ({reason}); White {w}, Black {b}"),
    "game_drawn": N_("Game over, a draw ({reason}); White {w}, Black {b}"),
    "undone": N_("{seat} took back {play}"),
    "undone_hidden": N_("{seat} took back a card discarded face down"),
}
