"""A game as an action log: the players' moves and the chance outcomes, in order.

A fresh game's log starts with the deal, a `Chance` holding the 24 shuffled cards (cards 1-3
White's hand, 4-6 Black's, 7-9 face up, the rest the draw pile, top first). Each reshuffle is a
`Chance` right after the `Move` that emptied the pile and the face-up row, as chance nodes in
OpenSpiel. An ending that is not a move (a resignation, a draw agreed, a clock run out, a game
abandoned) is an `Ending`, the last entry. The log alone rebuilds the game:
`shared.game.Game.from_log`.

The stored form of an entry is a short list of strings and integers, so that msgpack and JSON
both carry it unchanged:

    ["m", "white", "place BARI-DUDA"]       a move: the seat and the action's notation
    ["c", [3, 0, 11, ...]]                   a chance outcome: the cards (island ids) in order
    ["e", "resigned", "white"]               an ending: its kind and the seat that resigned,
    ["e", "agreed", None]                    ran out of time or forfeited (None: a draw agreed)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from shared.actions import Action, NotationError, Place, parse_action
from shared.board import LINES, NUM_ISLANDS, line_name
from shared.types import DECLARED_ENDINGS, SEATLESS_ENDINGS, Seat, Termination


@attrs.frozen
class Move:
    seat: Seat
    action: Action


@attrs.frozen
class Chance:
    order: tuple[int, ...]


def _ending_kind(value: object) -> Termination:
    kind = Termination(value) if isinstance(value, str) and value in _DECLARED_CODES else None
    if kind is None:
        kinds = ", ".join(sorted(_DECLARED_CODES))
        raise ValueError(f"{value!r} is not an ending that is declared; one of {kinds}")
    return kind


_DECLARED_CODES = frozenset(kind.value for kind in DECLARED_ENDINGS)


@attrs.frozen
class Ending:
    """The game ended without a move: `seat` resigned, ran out of time or forfeited (the other
    seat wins), or both agreed a draw (`seat` None)."""

    kind: Termination = attrs.field(converter=_ending_kind)
    seat: Seat | None

    def __attrs_post_init__(self) -> None:
        if (self.seat is None) != (self.kind in SEATLESS_ENDINGS):
            raise ValueError(
                "a draw is agreed by both and a moderator abandons a game (no seat); any"
                " other ending names the seat that resigned, ran out of time or forfeited"
            )

    @property
    def winner(self) -> Seat | None:
        return None if self.seat is None else self.seat.other


LogEntry = Move | Chance | Ending

MOVE_TAG = "m"
CHANCE_TAG = "c"
ENDING_TAG = "e"
_SEATS = {seat.name.lower(): seat for seat in Seat}


class LogFormatError(ValueError):
    """A stored log entry that is not one: the wrong shape, an unknown seat or bad notation."""


class LogError(ValueError):
    """A log that does not replay; `index` is the entry at fault, `kind` says what is wrong
    (one of LOG_ERROR_KINDS) so that a record can word it in its own terms."""

    def __init__(self, index: int, kind: str, reason: str) -> None:
        super().__init__(f"log entry {index}: {reason}")
        self.index = index
        self.kind = kind
        self.reason = reason


LOG_ERROR_KINDS = (
    "deal",  # the first entry of a fresh game is not a deal of the 24 cards
    "over",  # a move after the end of the game
    "seat",  # a move by the player whose turn it is not
    "illegal",  # an action the rules refuse
    "chance-missing",  # a move that reshuffles is not followed by a chance entry
    "chance-stray",  # a chance entry where nothing is shuffled
    "chance-impossible",  # a chance entry that is not an order of the cards shuffled
)
# An Ending after the end is "over", like a move; an entry after an Ending too.


class ChanceRefused(Exception):
    """Raised inside a replayed move whose reshuffle the log does not supply correctly."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class ChanceFeed:
    """While Game.from_log replays, the reshuffle orders come from the log, not the source."""

    def __init__(self) -> None:
        self.order: tuple[int, ...] | None = None

    def take(self, cards: Sequence[int]) -> tuple[int, ...]:
        order = self.order
        if order is None:
            raise ChanceRefused(
                "chance-missing",
                "this move reshuffles the discard pile; a chance entry with the new order must"
                " follow it",
            )
        if Counter(order) != Counter(cards):
            raise ChanceRefused(
                "chance-impossible", "the shuffle is not an order of the discard pile's cards"
            )
        self.order = None
        return order


def entry_to_wire(entry: LogEntry) -> list[Any]:
    """The stored form; LogFormatError for a move the notation cannot write (a placement whose
    card is not an end of its line: never legal, so no game logs one)."""
    if isinstance(entry, Move):
        action = entry.action
        # Such a Place would be written as another, legal-looking placement.
        if isinstance(action, Place) and action.card not in LINES[action.line]:
            raise LogFormatError(f"a placement on {line_name(action.line)} with another card")
        return [MOVE_TAG, entry.seat.name.lower(), str(action)]
    if isinstance(entry, Ending):
        seat = None if entry.seat is None else entry.seat.name.lower()
        return [ENDING_TAG, entry.kind.value, seat]
    return [CHANCE_TAG, list(entry.order)]


# Actions are immutable and a server rebuilds thousands of logs at start-up from a few hundred
# distinct texts: parse each text once.
_parse_action = functools.lru_cache(maxsize=4096)(parse_action)


def entry_from_wire(data: Any) -> LogEntry:
    """The entry back from its stored form; anything malformed raises LogFormatError."""
    # msgpack may hand back tuples where JSON gives lists; both are the same shape.
    if not isinstance(data, list | tuple) or not data:
        raise LogFormatError("a log entry is a non-empty list")
    tag = data[0]
    if tag == MOVE_TAG:
        if len(data) != 3:
            raise LogFormatError("a move is ['m', seat, action]")
        seat_name, text = data[1], data[2]
        if not isinstance(seat_name, str) or seat_name not in _SEATS:
            raise LogFormatError(f"{seat_name!r} is not a seat; use 'white' or 'black'")
        if not isinstance(text, str):
            raise LogFormatError("a move's action is written in the notation, as a string")
        try:
            action = _parse_action(text)
        except NotationError as exc:
            raise LogFormatError(f"bad action {text!r}: {exc}") from None
        return Move(_SEATS[seat_name], action)
    if tag == CHANCE_TAG:
        if len(data) != 2 or not isinstance(data[1], list | tuple):
            raise LogFormatError("a chance entry is ['c', [card, ...]]")
        order = data[1]
        for card in order:
            # bool is an int in Python; a JSON true is not a card.
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_ISLANDS:
                raise LogFormatError(
                    f"{card!r} is not a card (an island number 0-{NUM_ISLANDS - 1})"
                )
        return Chance(tuple(order))
    if tag == ENDING_TAG:
        if len(data) != 3:
            raise LogFormatError("an ending is ['e', kind, seat or None]")
        kind, seat_name = data[1], data[2]
        if seat_name is not None and (not isinstance(seat_name, str) or seat_name not in _SEATS):
            raise LogFormatError(f"{seat_name!r} is not a seat; use 'white', 'black' or None")
        try:
            return Ending(kind, None if seat_name is None else _SEATS[seat_name])
        except ValueError as exc:
            raise LogFormatError(str(exc)) from None
    raise LogFormatError(f"a log entry starts with 'm', 'c' or 'e', not {tag!r}")
