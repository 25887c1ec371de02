"""Events as they arrive over the wire (shared.events.event_to_dict form) told in words, in the
player's language (client.language.words makes the sentences from the events' fields).

The events of one update are what one command caused; they are told as one or a few log lines,
"Black removed White's bridge ELAI-HUNA with HUNA+ELAI; White lost DUDA", so that a player
reads the consequences of a move together with the move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from client.language.words import describe
from shared.events import EventFormatError, event_from_dict

Event = Mapping[str, Any]


def clause(event: Event) -> str | None:
    """One clause for one event; None for events that need no words of their own."""
    if event.get("type") == "TurnEnded" and event.get("next_seat") is None:
        return None  # the last turn of the game: the scoring and the result say the rest
    try:
        return describe(event_from_dict(dict(event)))
    except EventFormatError:
        return f"({event.get('type')})"


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
