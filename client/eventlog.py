"""Events as they arrive over the wire (shared.events.event_to_dict form) told in words.

The events of one update are what one command caused; they are told as one or a few log lines,
"Black removed White's bridge ELAI-HUNA with HUNA+ELAI; White lost DUDA", so that a player
reads the consequences of a move together with the move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Event = Mapping[str, Any]


def _seat(value: Any) -> str:
    return str(value).capitalize() if value else "?"


def _other(value: Any) -> str:
    return {"white": "Black", "black": "White"}.get(str(value), "?")


def clause(event: Event) -> str | None:
    """One clause for one event; None for events that need no words of their own."""
    kind = event.get("type")
    seat = _seat(event.get("seat"))
    if kind == "BridgePlaced":
        card = event.get("card")
        if card is None:
            return f"{seat} placed a free bridge on {event.get('line')}"
        return f"{seat} placed a bridge on {event.get('line')} with {card}"
    if kind == "BridgeRemoved":
        cards = event.get("cards")
        if not cards:
            return f"{seat}'s bridge {event.get('line')} was removed"
        by = _other(event.get("seat"))
        return f"{by} removed {seat}'s bridge {event.get('line')} with {'+'.join(cards)}"
    if kind == "TokenPlaced":
        return f"{seat} won {event.get('island')}"
    if kind == "TokenRemoved":
        return f"{seat} lost {event.get('island')}"
    if kind == "CardDiscarded":
        card = event.get("card")
        if card is None:
            return f"{seat} discarded a card face down"
        return f"{seat} discarded {'open card ' if event.get('open') else ''}{card}"
    if kind == "CardTaken":
        repl = event.get("replacement")
        turned = "" if repl is None else f"; {repl} turned up"
        return f"{seat} took {event.get('card')} from the face-up row{turned}"
    if kind == "CardDrawn":
        card = event.get("card")
        return f"{seat} drew {'a card' if card is None else card} from the pile"
    if kind == "Abstained":
        return f"{seat} abstained from drawing"
    if kind == "TurnEnded":
        nxt = event.get("next_seat")
        return None if nxt is None else f"{_seat(nxt)} to move"
    if kind == "RoundScored":
        tokens = list(event.get("tokens") or (0, 0))
        points = list(event.get("points") or (0, 0))
        name = "Final scoring" if event.get("final") else f"Scoring of round {event.get('round')}"
        return (
            f"{name}: tokens White {tokens[0]}, Black {tokens[1]};"
            f" points White +{points[0]}, Black +{points[1]}"
        )
    if kind == "Reshuffled":
        row = " ".join(event.get("face_up") or [])
        return f"The discards were shuffled: {event.get('pile_size')} to draw, face up {row}"
    if kind == "FinalTurnsBegan":
        return f"The cards are out: one last turn each, {_seat(event.get('first'))} first"
    if kind == "GameOver":
        winner = event.get("winner")
        scores = list(event.get("scores") or (0, 0))
        who = "a draw" if winner is None else f"{_seat(winner)} wins"
        return f"Game over, {who} ({event.get('reason')}); White {scores[0]}, Black {scores[1]}"
    return f"({kind})"


# Events after which a new log line starts: they close a turn or announce something big.
_BREAK_AFTER = {"TurnEnded", "RoundScored", "Reshuffled", "FinalTurnsBegan", "GameOver"}
_OWN_LINE = {"RoundScored", "Reshuffled", "FinalTurnsBegan", "GameOver"}


def describe_events(events: Sequence[Event]) -> list[str]:
    """The log lines for the events of one update, consequences joined to their cause."""
    lines: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            lines.append("; ".join(current))
            current.clear()

    for event in events:
        kind = event.get("type")
        text = clause(event)
        if kind in _OWN_LINE:
            flush()
        if text is not None:
            current.append(text)
        if kind in _BREAK_AFTER:
            flush()
    flush()
    return lines
