"""What each seat, and each spectator, may see: the only way game state leaves the engine.

A seat sees its own hand; of the opponent only the hand size (and in Variant 2 the open cards);
the face-up row, the draw pile's size, the cards played face up, and only the number of cards
discarded face down. A spectator sees the same public part and no hand at all. Events pass
through the same filter before they are sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from shared.actions import Discard
from shared.board import (
    ISLANDS,
    NUM_ISLANDS,
    NUM_LINES,
    iter_bits,
    line_name,
    parse_island,
    parse_line,
)
from shared.events import CardDiscarded, CardDrawn, Event, PlayUndone, event_to_dict
from shared.game import Game, Result
from shared.legality import TurnContext
from shared.types import GameOptions, Phase, Seat


@attrs.frozen
class PublicView:
    options: GameOptions
    phase: Phase
    to_move: Seat
    round: int
    round_points: tuple[tuple[int, int], ...]
    bridges: tuple[int, int]  # line bit masks, by seat
    tokens: tuple[int, int]  # island bit masks, by seat
    hand_sizes: tuple[int, int]
    open_cards: tuple[tuple[int, ...], tuple[int, ...]]  # Variant 2: cards lying open
    face_up: tuple[int, ...]
    pile_size: int
    played: tuple[int, ...]  # face up on the discard pile since the last reshuffle
    face_down_count: int
    opponent_abstained: bool  # the player to move's opponent abstained on the turn before
    final_turns_left: int
    handicap_left: int
    result: Result | None
    # The plays of this turn the player to move can take back with 'undo' (everyone may know
    # it: the plays were seen). Left out of ==: apart from it, a view in the middle of a turn
    # is the view of the same state set up as a position (which is what the computer's
    # sampler rebuilds, tests/shared/test_search.py); tests compare it on its own.
    undoable: int = attrs.field(default=0, eq=False)
    # Cards each player surely still holds, by seat: taken from the face-up row and not since
    # possibly played or discarded face down (Game.known). Left out of == like `undoable`: a
    # position carries no such memory.
    known: tuple[tuple[int, ...], tuple[int, ...]] = attrs.field(default=((), ()), eq=False)

    @property
    def scores(self) -> tuple[int, int]:
        return (sum(p[0] for p in self.round_points), sum(p[1] for p in self.round_points))


@attrs.frozen
class SeatView:
    """One seat's view: the public part and its own hand."""

    seat: Seat
    public: PublicView
    hand: tuple[int, ...]  # sorted, open cards included

    def turn_context(self) -> TurnContext | None:
        """Enough to decide the legality of this seat's action, when it is this seat's turn."""
        pub = self.public
        if pub.to_move is not self.seat:
            return None
        counts = [0] * NUM_ISLANDS
        for card in self.hand:
            counts[card] += 1
        return TurnContext(
            pub.options, pub.phase, self.seat, pub.bridges, pub.tokens, tuple(counts),
            pub.face_up, pub.pile_size, pub.opponent_abstained, pub.handicap_left, pub.undoable,
        )  # fmt: skip


def _public(game: Game) -> PublicView:
    return PublicView(
        options=game.options,
        phase=game.phase,
        to_move=game.to_move,
        round=game.round,
        round_points=tuple(game.round_points),
        bridges=(game.bridges[0], game.bridges[1]),
        tokens=(game.tokens[0], game.tokens[1]),
        hand_sizes=(game.hand_size(Seat.WHITE), game.hand_size(Seat.BLACK)),
        open_cards=(_cards(game.open[0]), _cards(game.open[1])),
        face_up=tuple(game.face_up),
        pile_size=len(game.pile),
        played=tuple(game.played),
        face_down_count=len(game.face_down),
        opponent_abstained=game.opponent_abstained,
        final_turns_left=game.final_turns_left,
        handicap_left=game.handicap_left,
        result=game.result,
        undoable=game.undoable,
        known=(_cards(game.known[0]), _cards(game.known[1])),
    )


def _cards(counts: Sequence[int]) -> tuple[int, ...]:
    if not any(counts):
        return ()
    return tuple(island for island, n in enumerate(counts) if n for _ in range(n))


def seat_view(game: Game, seat: Seat) -> SeatView:
    """What `seat` sees at the table."""
    return SeatView(seat, _public(game), _cards(game.hand_counts(seat)))


def spectator_view(game: Game) -> PublicView:
    """What anyone watching sees: no hand, no deck."""
    return _public(game)


def seat_events(events: list[Event], seat: Seat) -> list[Event]:
    """The events as `seat` saw them happen: other players' hidden cards blanked."""
    return [_blank(e) if _hidden_from(e, seat) else e for e in events]  # type: ignore[arg-type]


def spectator_events(events: list[Event]) -> list[Event]:
    return [_blank(e) if _hidden_from(e, None) else e for e in events]  # type: ignore[arg-type]


def _hidden_from(event: Event, viewer: Seat | None) -> bool:
    if isinstance(event, CardDrawn):
        return event.seat is not viewer
    if isinstance(event, CardDiscarded):
        return event.seat is not viewer and not event.open
    if isinstance(event, PlayUndone):
        # A face-down discard taken back: its card goes back to a hidden hand.
        return isinstance(event.action, Discard) and event.seat is not viewer and not event.open
    return False


def _blank(event: CardDrawn | CardDiscarded | PlayUndone) -> Event:
    if isinstance(event, PlayUndone):
        return attrs.evolve(event, action=None)
    return attrs.evolve(event, card=None)


# ----- wire form: plain dicts with island and line names, for msgpack ---------------------


_LINE_NAMES = tuple(line_name(k) for k in range(NUM_LINES))


def _names(cards: tuple[int, ...]) -> list[str]:
    return [ISLANDS[c] for c in cards]


def _lines(mask: int) -> list[str]:
    names = _LINES_OF.get(mask)
    if names is None:
        names = _remember(_LINES_OF, mask, tuple(_LINE_NAMES[k] for k in iter_bits(mask)))
    return list(names)


def _islands(mask: int) -> list[str]:
    names = _ISLANDS_OF.get(mask)
    if names is None:
        names = _remember(_ISLANDS_OF, mask, tuple(ISLANDS[i] for i in iter_bits(mask)))
    return list(names)


# The names of the bit masks seen lately: a game's masks change one bit at a time, and every
# update shows them all. Bounded, for a server that runs for months.
_LINES_OF: dict[int, tuple[str, ...]] = {}
_ISLANDS_OF: dict[int, tuple[str, ...]] = {}
_REMEMBERED = 4096


def _remember(
    memo: dict[int, tuple[str, ...]], mask: int, names: tuple[str, ...]
) -> tuple[str, ...]:
    if len(memo) >= _REMEMBERED:
        memo.clear()
    memo[mask] = names
    return names


def public_to_dict(view: PublicView) -> dict[str, Any]:
    result = None if view.result is None else view.result.to_dict()
    return {
        "options": view.options.to_dict(),
        "phase": view.phase.value,
        "to_move": view.to_move.name.lower(),
        "round": view.round,
        "round_points": [list(p) for p in view.round_points],
        "bridges": {"white": _lines(view.bridges[0]), "black": _lines(view.bridges[1])},
        "tokens": {"white": _islands(view.tokens[0]), "black": _islands(view.tokens[1])},
        "hand_sizes": {"white": view.hand_sizes[0], "black": view.hand_sizes[1]},
        "open_cards": {"white": _names(view.open_cards[0]), "black": _names(view.open_cards[1])},
        "face_up": _names(view.face_up),
        "pile_size": view.pile_size,
        "played": _names(view.played),
        "face_down_count": view.face_down_count,
        "opponent_abstained": view.opponent_abstained,
        "final_turns_left": view.final_turns_left,
        "handicap_left": view.handicap_left,
        "result": result,
        "undoable": view.undoable,
        "known": {"white": _names(view.known[0]), "black": _names(view.known[1])},
    }


def seat_view_to_dict(view: SeatView) -> dict[str, Any]:
    return {
        "seat": view.seat.name.lower(),
        "public": public_to_dict(view.public),
        "hand": _names(view.hand),
    }


def view_dicts(game: Game) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The wire forms of the spectators', White's and Black's views of one state, equal to
    public_to_dict(spectator_view(game)) and seat_view_to_dict(seat_view(game, seat)) but
    sharing one public part, which is most of the work of every update."""
    public = _public_dict(game)
    hand = game.hand
    white = {"seat": "white", "public": public, "hand": _count_names(hand[0])}
    black = {"seat": "black", "public": public, "hand": _count_names(hand[1])}
    return public, white, black


def _public_dict(game: Game) -> dict[str, Any]:
    """public_to_dict(_public(game)) straight from the game, without the PublicView between:
    it is built before every update reaches its player (tests/server/test_update_forms.py
    holds the two equal, key order included)."""
    result = game.result
    bridges, tokens, hand, known, opened = (
        game.bridges,
        game.tokens,
        game.hand,
        game.known,
        game.open,
    )
    return {
        "options": game.options.to_dict(),
        "phase": game.phase.value,
        "to_move": _SEAT_NAMES[game.to_move],
        "round": game.round,
        "round_points": [list(p) for p in game.round_points],
        "bridges": {"white": _lines(bridges[0]), "black": _lines(bridges[1])},
        "tokens": {"white": _islands(tokens[0]), "black": _islands(tokens[1])},
        "hand_sizes": {"white": sum(hand[0]), "black": sum(hand[1])},
        "open_cards": {"white": _count_names(opened[0]), "black": _count_names(opened[1])},
        "face_up": [ISLANDS[c] for c in game.face_up],
        "pile_size": len(game.pile),
        "played": [ISLANDS[c] for c in game.played],
        "face_down_count": len(game.face_down),
        "opponent_abstained": game.opponent_abstained,
        "final_turns_left": game.final_turns_left,
        "handicap_left": game.handicap_left,
        "result": None if result is None else result.to_dict(),
        "undoable": game.undoable,
        "known": {"white": _count_names(known[0]), "black": _count_names(known[1])},
    }


_SEAT_NAMES = {seat: seat.name.lower() for seat in Seat}


def _count_names(counts: Sequence[int]) -> list[str]:
    """The island names of cards counted per island, in island order (_names(_cards(counts)))."""
    if not any(counts):
        return []
    return [name for name, n in zip(ISLANDS, counts, strict=True) if n for _ in range(n)]


def events_to_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [event_to_dict(e) for e in events]


def event_dicts(
    events: list[Event],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The wire forms of the events as the spectators, White and Black saw them, equal to
    events_to_dicts(spectator_events(events)) and events_to_dicts(seat_events(events, seat)),
    but each event made into a dict once (and its blanked form once) for all who see it alike,
    the dicts shared among the lists."""
    spectators: list[dict[str, Any]] = []
    white: list[dict[str, Any]] = []
    black: list[dict[str, Any]] = []
    for event in events:
        shown: dict[str, Any] | None = None
        blanked: dict[str, Any] | None = None
        for viewer, out in ((None, spectators), (Seat.WHITE, white), (Seat.BLACK, black)):
            if _hidden_from(event, viewer):
                if blanked is None:
                    blanked = event_to_dict(_blank(event))  # type: ignore[arg-type]
                out.append(blanked)
            else:
                if shown is None:
                    shown = event_to_dict(event)
                out.append(shown)
    return spectators, white, black


class ViewFormatError(ValueError):
    """A view on the wire that is not well formed."""


def _seat_key(data: dict[str, Any], key: str) -> tuple[Any, Any]:
    pair = data[key]
    return pair["white"], pair["black"]


def public_from_dict(data: dict[str, Any]) -> PublicView:
    try:
        bw, bb = _seat_key(data, "bridges")
        tw, tb = _seat_key(data, "tokens")
        hw, hb = _seat_key(data, "hand_sizes")
        ow, ob = _seat_key(data, "open_cards")
        raw_result = data["result"]
        result = None if raw_result is None else Result.from_dict(raw_result)
        return PublicView(
            options=GameOptions.from_dict(data["options"]),
            phase=Phase(data["phase"]),
            to_move=Seat.parse(data["to_move"]),
            round=int(data["round"]),
            round_points=tuple((int(w), int(b)) for w, b in data["round_points"]),
            bridges=(_line_mask(bw), _line_mask(bb)),
            tokens=(_island_mask(tw), _island_mask(tb)),
            hand_sizes=(int(hw), int(hb)),
            open_cards=(_card_tuple(ow), _card_tuple(ob)),
            face_up=_card_tuple(data["face_up"]),
            pile_size=int(data["pile_size"]),
            played=_card_tuple(data["played"]),
            face_down_count=int(data["face_down_count"]),
            opponent_abstained=bool(data["opponent_abstained"]),
            final_turns_left=int(data["final_turns_left"]),
            handicap_left=int(data["handicap_left"]),
            result=result,
            undoable=int(data.get("undoable", 0)),  # absent from views sent before undo
            known=_known(data.get("known")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ViewFormatError(f"malformed view: {exc!r}") from None


def _known(data: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if data is None:  # views from before known cards
        return ((), ())
    return (_card_tuple(data["white"]), _card_tuple(data["black"]))


def seat_view_from_dict(data: dict[str, Any]) -> SeatView:
    try:
        return SeatView(
            Seat.parse(data["seat"]), public_from_dict(data["public"]), _card_tuple(data["hand"])
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ViewFormatError(f"malformed view: {exc!r}") from None


def _line_mask(names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_line(name)
    return mask


def _island_mask(names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_island(name)
    return mask


def _card_tuple(names: list[str]) -> tuple[int, ...]:
    return tuple(parse_island(n) for n in names)
