"""The actions a player can take, and their text notation.

The notation is what the terminal client accepts and what game records store:

    place BARI-DUDA              play a BARI card, put a bridge on BARI-DUDA (the card is the
                                 first island named)
    remove HUNA-ELAI HUNA+ELAI   play two cards together to remove the opponent's bridge
    remove HUNA-ELAI HUNA+HUNA rebuild
                                 Variant 1: and put your own bridge there without another card
    discard ELAI                 put an ELAI card face down under the discard pile
    take COCO                    draw the face-up COCO card (ends the turn)
    draw                         draw the top of the draw pile (ends the turn)
    abstain                      do not draw (ends the turn)
    end                          end a final turn (no drawing in the final turns)
    handicap ALOA-BARI           handicap play: a free bridge before the first turn
    undo                         take back the last play of this turn (place, remove, discard)
    undo turn                    take back every play of this turn

An undo is allowed only while the turn has plays to take back; legal_actions() never lists it
(the computer does not undo; see docs/rules.md, R17).
"""

from __future__ import annotations

from typing import Any

import attrs

from shared.board import (
    ISLANDS,
    LINES,
    NUM_ISLANDS,
    NUM_LINES,
    BoardNameError,
    line_name,
    parse_island,
    parse_line,
)


# Validators: an action naming no island or no line of the board cannot even be made, so the
# rules never see one (actions built in code, not parsed, included).
def _island(_: object, attribute: attrs.Attribute[Any], value: int) -> None:
    if isinstance(value, bool) or not (isinstance(value, int) and 0 <= value < NUM_ISLANDS):
        raise ValueError(f"{attribute.name} must be an island number 0-{NUM_ISLANDS - 1}")


def _line(_: object, attribute: attrs.Attribute[Any], value: int) -> None:
    if isinstance(value, bool) or not (isinstance(value, int) and 0 <= value < NUM_LINES):
        raise ValueError(f"{attribute.name} must be a line number 0-{NUM_LINES - 1}")


def _card_pair(value: tuple[int, int]) -> tuple[int, int]:
    first, second = sorted(value)  # the same two cards in either order are one action
    return (first, second)


def _islands(
    _: object, attribute: attrs.Attribute[tuple[int, int]], value: tuple[int, int]
) -> None:
    for card in value:
        _island(_, attribute, card)


@attrs.frozen
class Place:
    card: int = attrs.field(validator=_island)
    line: int = attrs.field(validator=_line)

    def __str__(self) -> str:
        a, b = LINES[self.line]
        other = b if a == self.card else a
        return f"place {ISLANDS[self.card]}-{ISLANDS[other]}"


@attrs.frozen
class Remove:
    line: int = attrs.field(validator=_line)
    cards: tuple[int, int] = attrs.field(converter=_card_pair, validator=_islands)  # sorted
    rebuild: bool = False

    def __str__(self) -> str:
        text = f"remove {line_name(self.line)} {ISLANDS[self.cards[0]]}+{ISLANDS[self.cards[1]]}"
        return text + " rebuild" if self.rebuild else text


@attrs.frozen
class Discard:
    card: int = attrs.field(validator=_island)

    def __str__(self) -> str:
        return f"discard {ISLANDS[self.card]}"


@attrs.frozen
class Take:
    card: int = attrs.field(validator=_island)

    def __str__(self) -> str:
        return f"take {ISLANDS[self.card]}"


@attrs.frozen
class Draw:
    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class Abstain:
    def __str__(self) -> str:
        return "abstain"


@attrs.frozen
class EndTurn:
    def __str__(self) -> str:
        return "end"


@attrs.frozen
class Handicap:
    line: int = attrs.field(validator=_line)

    def __str__(self) -> str:
        return f"handicap {line_name(self.line)}"


@attrs.frozen
class Undo:
    """Take back the last play of this turn, or with `whole_turn` every play of it."""

    whole_turn: bool = False

    def __str__(self) -> str:
        return "undo turn" if self.whole_turn else "undo"


Action = Place | Remove | Discard | Take | Draw | Abstain | EndTurn | Handicap | Undo

# The actions an undo takes back: the plays of a turn (not handicap placements, not the draw,
# abstention or end that ends the turn).
PLAYS = (Place, Remove, Discard)
# The actions that end the mover's turn.
TURN_ENDS = (Take, Draw, Abstain, EndTurn)

DRAW = Draw()
ABSTAIN = Abstain()
END_TURN = EndTurn()
UNDO = Undo()
UNDO_TURN = Undo(whole_turn=True)

VERBS = ("place", "remove", "discard", "take", "draw", "abstain", "end", "handicap", "undo")


class NotationError(ValueError):
    """Text that is not an action in the notation."""


def parse_action(text: str) -> Action:
    """Parse the notation (case-insensitive, extra spaces allowed) into an action."""
    words = text.split()
    if not words:
        raise NotationError("empty command")
    verb, args = words[0].lower(), words[1:]
    try:
        if verb in ("draw", "abstain", "end"):
            if args:
                raise NotationError(f"'{verb}' takes nothing after it")
            simple: dict[str, Action] = {"draw": DRAW, "abstain": ABSTAIN, "end": END_TURN}
            return simple[verb]
        if verb == "undo":
            if not args:
                return UNDO
            if len(args) == 1 and args[0].lower() == "turn":
                return UNDO_TURN
            raise NotationError("'undo' takes back the last play; 'undo turn' all of this turn's")
        if verb in ("discard", "take"):
            if len(args) != 1:
                raise NotationError(f"'{verb}' takes one island, like '{verb} ELAI'")
            island = parse_island(args[0])
            return Discard(island) if verb == "discard" else Take(island)
        if verb == "place":
            if len(args) != 1:
                raise NotationError("'place' takes one line, like 'place BARI-DUDA'")
            card_name = args[0].split("-")[0]
            line = parse_line(args[0])
            return Place(parse_island(card_name), line)
        if verb == "handicap":
            if len(args) != 1:
                raise NotationError("'handicap' takes one line, like 'handicap ALOA-BARI'")
            return Handicap(parse_line(args[0]))
        if verb == "remove":
            if len(args) not in (2, 3) or (len(args) == 3 and args[2].lower() != "rebuild"):
                raise NotationError(
                    "'remove' takes a line and two cards, like 'remove HUNA-ELAI HUNA+ELAI'"
                )
            line = parse_line(args[0])
            names = args[1].split("+")
            if len(names) != 2:
                raise NotationError("name the two cards joined by '+', like HUNA+ELAI")
            c1, c2 = sorted((parse_island(names[0]), parse_island(names[1])))
            return Remove(line, (c1, c2), rebuild=len(args) == 3)
    except BoardNameError as exc:
        raise NotationError(str(exc)) from None
    raise NotationError(f"unknown command {words[0]!r}; commands are: {', '.join(VERBS)}")
