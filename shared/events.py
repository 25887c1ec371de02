"""What an action caused, in order, so that clients can tell the story.

Events about hidden cards carry the card; the view functions in shared.views blank it out for
everyone who could not see it at the table.
"""

from __future__ import annotations

from typing import Any

import attrs

from shared.actions import Action, Discard, Place, Remove, parse_action
from shared.board import ISLANDS, line_name, parse_island, parse_line
from shared.results import Result, english_reason, termination
from shared.types import Seat, Termination


@attrs.frozen
class BridgePlaced:
    seat: Seat
    line: int
    card: int | None  # None: placed without a card (handicap, Variant 1 rebuild)


@attrs.frozen
class BridgeRemoved:
    seat: Seat  # the owner of the bridge
    line: int
    cards: tuple[int, int] | None  # the cards played to remove it; None when control removed it


@attrs.frozen
class TokenPlaced:
    seat: Seat
    island: int


@attrs.frozen
class TokenRemoved:
    seat: Seat
    island: int


@attrs.frozen
class CardDiscarded:
    seat: Seat
    card: int | None  # None in a view that may not see it
    open: bool = False  # Variant 2: an open card, which everyone saw


@attrs.frozen
class CardTaken:
    seat: Seat
    card: int  # from the face-up row: everyone sees it
    replacement: int | None  # the card turned up from the draw pile, if any


@attrs.frozen
class CardDrawn:
    seat: Seat
    card: int | None  # top of the draw pile: only the drawer sees it


@attrs.frozen
class Abstained:
    seat: Seat


@attrs.frozen
class TurnEnded:
    seat: Seat
    next_seat: Seat | None


@attrs.frozen
class RoundScored:
    round: int
    tokens: tuple[int, int]
    points: tuple[int, int]
    final: bool


@attrs.frozen
class Reshuffled:
    face_up: tuple[int, ...]
    pile_size: int


@attrs.frozen
class FinalTurnsBegan:
    first: Seat


@attrs.frozen
class GameOver:
    winner: Seat | None
    # How it ended (a code; english_reason words it). Takes the older English reasons too.
    kind: Termination = attrs.field(converter=termination)
    scores: tuple[int, int]

    @property
    def result(self) -> Result:
        return Result(self.winner, self.kind)


@attrs.frozen
class PlayUndone:
    """One play of the turn taken back by an undo: an 'undo turn' gives one event a play, the
    last play first. The state goes back to what it was before the play."""

    seat: Seat
    # The play (Place, Remove or Discard); None in a view that may not see it: a face-down
    # discard of a hidden card, like CardDiscarded's card.
    action: Action | None
    open: bool = False  # a Discard of an open card (Variant 2): everyone saw it

    def __attrs_post_init__(self) -> None:
        if self.action is not None and not isinstance(self.action, Place | Remove | Discard):
            raise ValueError(f"'{self.action}' is not a play that an undo takes back")


Event = (
    BridgePlaced | BridgeRemoved | TokenPlaced | TokenRemoved | CardDiscarded | CardTaken
    | CardDrawn | Abstained | TurnEnded | RoundScored | Reshuffled | FinalTurnsBegan | GameOver
    | PlayUndone
)  # fmt: skip

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        BridgePlaced, BridgeRemoved, TokenPlaced, TokenRemoved, CardDiscarded, CardTaken,
        CardDrawn, Abstained, TurnEnded, RoundScored, Reshuffled, FinalTurnsBegan, GameOver,
        PlayUndone,
    )
}  # fmt: skip


def _island(i: int | None) -> str | None:
    return None if i is None else ISLANDS[i]


def event_to_dict(event: Event) -> dict[str, Any]:
    """A plain dict for the wire: island and line names, seats as 'white'/'black'."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in attrs.fields(type(event)):
        value = getattr(event, field.name)
        if isinstance(value, Seat):
            value = value.name.lower()
        elif isinstance(value, Termination):
            value = value.value
        elif field.name == "action":
            value = None if value is None else str(value)
        elif field.name in ("card", "island", "replacement"):
            value = _island(value)
        elif field.name == "line":
            value = line_name(value)
        elif field.name in ("cards", "face_up") and value is not None:
            value = [ISLANDS[c] for c in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out


class EventFormatError(ValueError):
    """An event on the wire that is not well formed."""


_SEAT_FIELDS = frozenset({"seat", "next_seat", "first", "winner"})
_ISLAND_FIELDS = frozenset({"card", "island", "replacement"})
_CARD_LIST_FIELDS = frozenset({"cards", "face_up"})


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event back from its wire form (event_to_dict), so clients can reuse describe()."""
    try:
        cls = EVENT_TYPES[data["type"]]
        values: dict[str, Any] = {}
        for field in attrs.fields(cls):
            if cls is GameOver and field.name == "kind" and "kind" not in data:
                value = data["reason"]  # the older form, with the English reason
            else:
                value = data[field.name]
            if value is None:
                pass
            elif field.name in _SEAT_FIELDS:
                value = Seat.parse(value)
            elif field.name in _ISLAND_FIELDS:
                value = parse_island(value)
            elif field.name == "line":
                value = parse_line(value)
            elif field.name == "action":
                value = parse_action(value)
            elif field.name in _CARD_LIST_FIELDS:
                value = tuple(parse_island(name) for name in value)
            elif isinstance(value, list):
                value = tuple(value)
            values[field.name] = value
        return cls(**values)  # type: ignore[no-any-return]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise EventFormatError(f"malformed event: {exc!r}") from None


def describe(event: Event) -> str:
    """One sentence for an event log."""
    match event:
        case BridgePlaced(seat, line, card):
            if card is None:
                return f"{seat.label} placed a free bridge on {line_name(line)}"
            return f"{seat.label} placed a bridge on {line_name(line)} with {ISLANDS[card]}"
        case BridgeRemoved(seat, line, cards):
            if cards is None:
                return f"{seat.label}'s bridge {line_name(line)} was removed"
            by = seat.other.label
            return (
                f"{by} removed {seat.label}'s bridge {line_name(line)}"
                f" with {ISLANDS[cards[0]]}+{ISLANDS[cards[1]]}"
            )
        case TokenPlaced(seat, island):
            return f"{seat.label} won {ISLANDS[island]}"
        case TokenRemoved(seat, island):
            return f"{seat.label} lost {ISLANDS[island]}"
        case CardDiscarded(seat, card, is_open):
            if card is None:
                return f"{seat.label} discarded a card face down"
            return f"{seat.label} discarded {'open card ' if is_open else ''}{ISLANDS[card]}"
        case CardTaken(seat, card, replacement):
            turned = "" if replacement is None else f"; {ISLANDS[replacement]} turned up"
            return f"{seat.label} took {ISLANDS[card]} from the face-up row{turned}"
        case CardDrawn(seat, card):
            what = "a card" if card is None else ISLANDS[card]
            return f"{seat.label} drew {what} from the pile"
        case Abstained(seat):
            return f"{seat.label} abstained from drawing"
        case TurnEnded(seat, next_seat):
            if next_seat is None:
                return f"{seat.label}'s turn ended"
            return f"{next_seat.label} to move"
        case RoundScored(rnd, tokens, points, final):
            name = "Final scoring" if final else f"Scoring of round {rnd}"
            return (
                f"{name}: tokens White {tokens[0]}, Black {tokens[1]};"
                f" points White +{points[0]}, Black +{points[1]}"
            )
        case Reshuffled(face_up, pile_size):
            row = " ".join(ISLANDS[c] for c in face_up)
            return f"The discard pile was shuffled: {pile_size} cards to draw, face up {row}"
        case FinalTurnsBegan(first):
            return f"The cards are out: one last turn each, {first.label} first"
        case GameOver(winner, kind, scores):
            who = "a draw" if winner is None else f"{winner.label} wins"
            reason = english_reason(Result(winner, kind))
            return f"Game over, {who} ({reason}); White {scores[0]}, Black {scores[1]}"
        case PlayUndone(seat, action, _):
            what = "a card discarded face down" if action is None else str(action)
            return f"{seat.label} took back {what}"
    raise TypeError(event)
