"""The command line: what a typed line means, whether it is legal, and how to complete it.

Game commands are the engine's notation (shared/actions.py). They are checked against the rules
with the seat's own view before anything is sent, so an illegal command is explained at once
and never reaches the server. A few words are the client's own: say, help, save, lobby, quit;
and some are the table's (protocol version 2), checked against the view's "table" key: resign,
offer draw, accept, decline, claim, rematch, and hint (computed here, never sent).
"""

from __future__ import annotations

from typing import Literal

import attrs

from client.table import TableView
from shared.actions import Action, NotationError, Place, Remove, parse_action
from shared.board import ISLANDS, LINES, NUM_LINES, line_name
from shared.legality import legal_actions, why_illegal
from shared.types import Phase
from shared.views import PublicView, SeatView

Kind = Literal[
    "action", "chat", "help", "save", "lobby", "quit", "resync", "refused", "none",
    "resign", "offer_draw", "decline_draw", "claim", "rematch", "hint",
]  # fmt: skip

CLIENT_WORDS: dict[str, str] = {
    "say": "say TEXT: chat with the table (or start the line with ')",
    "help": "help: the list of commands and keys (F1)",
    "save": "save [FILE]: write the game record or transcript to a file",
    "lobby": "lobby: leave the table and go back to the lobby",
    "resync": "resync: ask the server for the whole position again",
    "quit": "quit: leave the program (Ctrl-Q)",
    "undo": "undo [turn]: take back your last play (or all of this turn's)",
    "hint": "hint: what the computer's normal level would play now, and why",
    "resign": "resign: give up the game (asks first)",
    "offer": "offer draw: offer your opponent a draw",
    "accept": "accept: accept your opponent's draw or rematch offer",
    "decline": "decline: decline your opponent's draw offer",
    "claim": "claim: win against an opponent who has gone away",
    "rematch": "rematch: after the game, offer (or accept) another one",
}
# the words after a first word, for Tab
SECOND_WORDS: dict[str, tuple[str, ...]] = {"offer": ("draw",), "undo": ("turn",)}
HINTS_OFF = (
    "hints are off at this table: the players agreed to play without them"
    " (a courtesy between the players)"
)


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


def table_command(
    word: str,
    rest: str,
    seat_view: SeatView | None,
    public: PublicView | None,
    table: TableView | None,
    status: str,
) -> Outcome:
    """resign, offer draw, accept, decline, claim, rematch, hint: checked before anything is
    sent, from the view and its "table" key."""
    if public is None:
        return Outcome("refused", "there is no game on the screen")
    if seat_view is None:
        what = "hints" if word == "hint" else "these commands"
        return Outcome("refused", f"you are watching this game; {what} are for the players")
    if rest and not (word == "offer" and rest.lower() == "draw"):
        return Outcome("refused", f"'{word}' takes nothing after it")
    seat = seat_view.seat
    over = public.result is not None
    running = status == "playing" and not over
    if table is None and word != "hint":
        return Outcome("refused", "this server does not know that command (protocol version 1)")
    if word == "offer":
        if not rest:
            return Outcome("refused", "offer what? 'offer draw' offers a draw ('draw' alone draws)")
        if not running:
            return Outcome("refused", "the game is not running" if not over else "the game is over")
        assert table is not None
        if table.draw_offer is seat:
            return Outcome("refused", "your draw offer stands already: your opponent decides")
        if table.draw_offer is seat.other:
            return Outcome("offer_draw", "accept")
        return Outcome("offer_draw", "offer")
    if word == "resign":
        if not running:
            return Outcome("refused", "the game is over" if over else "the game has not started")
        return Outcome("resign")
    if word == "hint":
        if table is not None and not table.hints:
            return Outcome("refused", HINTS_OFF)
        if over:
            return Outcome("refused", "the game is over")
        if status == "waiting":
            return Outcome("refused", "the game has not started")
        if public.to_move is not seat:
            return Outcome("refused", f"it is not your turn: {public.to_move.label} is to move")
        return Outcome("hint")
    assert table is not None
    if word == "accept":
        if running and table.draw_offer is seat.other:
            return Outcome("offer_draw", "accept")
        if over and table.rematch_offer is seat.other and table.rematch_table is None:
            return Outcome("rematch", "accept")
        return Outcome("refused", "your opponent has offered nothing to accept")
    if word == "decline":
        if running and table.draw_offer is seat.other:
            return Outcome("decline_draw")
        if over and table.rematch_offer is seat.other:
            return Outcome("refused", "a rematch offer needs no answer: 'lobby' leaves the table")
        return Outcome("refused", "your opponent has offered nothing to decline")
    if word == "claim":
        if table.claim is seat:
            return Outcome("claim")
        if not running:
            return Outcome("refused", "a claim is for a game under way")
        return Outcome(
            "refused",
            "you cannot claim the win now: only against an opponent who has been away"
            " for a while (you are told when)",
        )
    # rematch
    if not over:
        return Outcome("refused", "a rematch is for after the game")
    if table.rematch_table is not None:
        return Outcome("refused", f"the rematch has started already (table {table.rematch_table})")
    if table.rematch_offer is seat:
        return Outcome("refused", "your rematch offer stands: your opponent decides")
    return Outcome("rematch", "accept" if table.rematch_offer is seat.other else "offer")


TABLE_WORDS = ("resign", "offer", "accept", "decline", "claim", "rematch", "hint")


def interpret(
    line: str,
    seat_view: SeatView | None,
    public: PublicView | None,
    table: TableView | None = None,
    status: str = "playing",
) -> Outcome:
    """What a line typed on the game screen asks for; an action only if it is legal now.
    `table` is the view's "table" key (None from a version-1 server), `status` the table's."""
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
    if word in TABLE_WORDS:
        return table_command(word, rest.strip(), seat_view, public, table, status)
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
    if index == 1 and typed[0] in SECOND_WORDS:
        for word in SECOND_WORDS[typed[0]]:
            add(word)
        return out
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
