"""The command line: what a typed line means, whether it is legal, and how to complete it.

Game commands are the engine's notation (shared/actions.py). They are checked against the rules
with the seat's own view before anything is sent, so an illegal command is explained at once
and never reaches the server. A few words are the client's own: say, help, save, lobby, quit.
"""

from __future__ import annotations

from typing import Literal

import attrs

from shared.actions import Action, NotationError, Place, Remove, parse_action
from shared.board import ISLANDS, LINES, NUM_LINES, line_name
from shared.legality import legal_actions, why_illegal
from shared.types import Phase
from shared.views import PublicView, SeatView

Kind = Literal["action", "chat", "help", "save", "lobby", "quit", "resync", "refused", "none"]

CLIENT_WORDS: dict[str, str] = {
    "say": "say TEXT: chat with the table (or start the line with ')",
    "help": "help: the list of commands and keys (F1)",
    "save": "save [FILE]: write the game record or transcript to a file",
    "lobby": "lobby: leave the table and go back to the lobby",
    "resync": "resync: ask the server for the whole position again",
    "quit": "quit: leave the program (Ctrl-Q)",
}


@attrs.frozen
class Outcome:
    kind: Kind
    text: str = ""  # the notation to send, the chat text, the reason of a refusal, a file name
    action: Action | None = None


def check_action(
    action: Action, seat_view: SeatView | None, public: PublicView | None
) -> str | None:
    """Why this action may not be sent now, from what this client sees; None if it may."""
    if public is None:
        return "there is no game on the screen"
    if seat_view is None:
        return "you are watching this game; spectators do not play"
    if public.result is not None or public.phase is Phase.OVER:
        return "the game is over"
    ctx = seat_view.turn_context()
    if ctx is None:
        return f"it is not your turn: {public.to_move.label} is to move"
    return why_illegal(ctx, action)


def interpret(line: str, seat_view: SeatView | None, public: PublicView | None) -> Outcome:
    """What a line typed on the game screen asks for; an action only if it is legal now."""
    text = line.strip()
    if not text:
        return Outcome("none")
    if text.startswith(("'", '"')):
        return Outcome("chat", text[1:].strip())
    word, _, rest = text.partition(" ")
    word = word.lower()
    if word in ("say", "chat"):
        return Outcome("chat", rest.strip()) if rest.strip() else Outcome("refused", "say what?")
    if word in ("help", "?"):
        return Outcome("help")
    if word == "save":
        return Outcome("save", rest.strip())
    if word in ("lobby", "leave"):
        return Outcome("lobby")
    if word in ("quit", "exit"):
        return Outcome("quit")
    if word == "resync":
        return Outcome("resync")
    try:
        action = parse_action(text)
    except NotationError as exc:
        return Outcome("refused", str(exc))
    reason = check_action(action, seat_view, public)
    if reason is not None:
        return Outcome("refused", reason, action)
    return Outcome("action", str(action), action)


def legal_now(seat_view: SeatView | None) -> list[Action]:
    if seat_view is None or seat_view.public.result is not None:
        return []
    ctx = seat_view.turn_context()
    return [] if ctx is None else legal_actions(ctx)


@attrs.frozen
class Candidate:
    text: str  # the word to put in place of the word being typed
    start: int  # negative: how many characters before the cursor it replaces
    meta: str = ""


def _action_meta(action: Action) -> str:
    if isinstance(action, Place):
        return f"card {ISLANDS[action.card]}"
    if isinstance(action, Remove):
        return "cards " + "+".join(ISLANDS[c] for c in action.cards)
    return ""


def complete(before_cursor: str, seat_view: SeatView | None) -> list[Candidate]:
    """Candidates for the word being typed: from the legal commands when it is your turn;
    otherwise the client's words (say, help, ...), and the islands and lines after a verb."""
    words = before_cursor.split()
    if before_cursor and not before_cursor[-1].isspace():
        partial = words.pop() if words else ""
    else:
        partial = ""
    upper = partial.upper()
    index = len(words)
    out: list[Candidate] = []
    seen: set[str] = set()

    def add(text: str, meta: str = "") -> None:
        if text not in seen and text.upper().startswith(upper):
            seen.add(text)
            out.append(Candidate(text, -len(partial), meta))

    legal = legal_now(seat_view)
    typed = [w.lower() for w in words]
    for action in legal:
        parts = str(action).split()
        if len(parts) <= index or [p.lower() for p in parts[:index]] != typed:
            continue
        meta = "ends your turn" if parts[0] in ("take", "draw", "abstain", "end") else ""
        add(parts[index], meta if index == 0 else _action_meta(action))
    if index == 0:
        # the game's verbs only when they can be played: out of turn (or watching) Tab offers
        # what can be done then, the client's own words
        for word, text in CLIENT_WORDS.items():
            add(word, text.partition(": ")[2])
        return out
    if out or legal:
        return out
    verb = typed[0]
    if verb in ("place", "handicap") or (verb == "remove" and index == 1):
        if verb == "place":
            for k in range(NUM_LINES):
                a, b = LINES[k]
                add(f"{ISLANDS[a]}-{ISLANDS[b]}", f"card {ISLANDS[a]}")
                add(f"{ISLANDS[b]}-{ISLANDS[a]}", f"card {ISLANDS[b]}")
        else:
            for k in range(NUM_LINES):
                add(line_name(k))
    elif verb in ("discard", "take"):
        for name in ISLANDS:
            add(name)
    return out
