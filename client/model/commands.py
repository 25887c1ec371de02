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

from client.language.command_words import canonical, local_words
from client.language.i18n import N_, _
from client.language.words import refusal_words, rules_words, seat_name
from client.model.table import TableView
from shared.actions import Action, NotationError, Place, Remove, parse_action
from shared.board import ISLANDS, LINES, NUM_LINES, line_name
from shared.legality import legal_actions, refusal
from shared.types import Phase
from shared.views import PublicView, SeatView

Kind = Literal[
    "action", "chat", "help", "save", "lobby", "quit", "resync", "refused", "none",
    "resign", "offer_draw", "decline_draw", "claim", "rematch", "hint", "analyse", "report",
]  # fmt: skip

# The client's own words, with what each does (translated where shown: _(text)).
CLIENT_WORDS: dict[str, str] = {
    "say": N_("chat with the table (or start the line with ')"),
    "help": N_("the list of commands and keys (F1)"),
    "save": N_("write the game record or transcript to a file"),
    "lobby": N_("leave the table and go back to the lobby"),
    "resync": N_("ask the server for the whole position again"),
    "quit": N_("leave the program (Ctrl-Q)"),
    "undo": N_("take back your last play (or all of this turn's)"),
    "hint": N_("what the computer's normal level would play now, and why"),
    "resign": N_("give up the game (asks first)"),
    "offer": N_("offer your opponent a draw"),
    "accept": N_("accept your opponent's draw or rematch offer"),
    "decline": N_("decline your opponent's draw offer"),
    "claim": N_("win against an opponent who has gone away"),
    "rematch": N_("after the game, offer (or accept) another one"),
    "analyse": N_("after the game, where it was won and lost, turn by turn (in the replay)"),
    "report": N_("report a player to the server's moderators: report NAME REASON"),
}
# the words after a first word, for Tab
SECOND_WORDS: dict[str, tuple[str, ...]] = {"offer": ("draw",), "undo": ("turn",)}
HINTS_OFF = N_(
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
        return _("there is no game on the screen")
    if seat_view is None:
        return _("you are watching this game; spectators do not play")
    if public.result is not None or public.phase is Phase.OVER:
        return _("the game is over")
    ctx = seat_view.turn_context()
    if ctx is None:
        return _("it is not your turn: {seat} is to move").format(seat=seat_name(public.to_move))
    found = refusal(ctx, action)
    return None if found is None else refusal_words(found.code, found.params, found.english)


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
        return Outcome("refused", _("there is no game on the screen"))
    if seat_view is None:
        if word == "hint":
            return Outcome("refused", _("you are watching this game; hints are for the players"))
        return Outcome(
            "refused", _("you are watching this game; these commands are for the players")
        )
    if rest and not (word == "offer" and rest.lower() == "draw"):
        return Outcome(
            "refused", _("'{word}' takes nothing after it").format(word=local_words()[word])
        )
    seat = seat_view.seat
    over = public.result is not None
    running = status == "playing" and not over
    if table is None and word != "hint":
        return Outcome("refused", _("this server does not know that command (protocol version 1)"))
    if word == "offer":
        if not rest:
            return Outcome(
                "refused",
                _("offer what? '{offer}' offers a draw ('{draw}' alone draws)").format(
                    offer=local_words()["offer draw"], draw=local_words()["draw"]
                ),
            )
        if not running:
            return Outcome(
                "refused", _("the game is not running") if not over else _("the game is over")
            )
        assert table is not None
        if table.draw_offer is seat:
            return Outcome("refused", _("your draw offer stands already: your opponent decides"))
        if table.draw_offer is seat.other:
            return Outcome("offer_draw", "accept")
        return Outcome("offer_draw", "offer")
    if word == "resign":
        if not running:
            return Outcome(
                "refused", _("the game is over") if over else _("the game has not started")
            )
        return Outcome("resign")
    if word == "hint":
        if table is not None and not table.hints:
            return Outcome("refused", _(HINTS_OFF))
        if over:
            return Outcome("refused", _("the game is over"))
        if status == "waiting":
            return Outcome("refused", _("the game has not started"))
        if public.to_move is not seat:
            return Outcome(
                "refused",
                _("it is not your turn: {seat} is to move").format(seat=seat_name(public.to_move)),
            )
        return Outcome("hint")
    assert table is not None
    if word == "accept":
        if running and table.draw_offer is seat.other:
            return Outcome("offer_draw", "accept")
        if over and table.rematch_offer is seat.other and table.rematch_table is None:
            return Outcome("rematch", "accept")
        return Outcome("refused", _("your opponent has offered nothing to accept"))
    if word == "decline":
        if running and table.draw_offer is seat.other:
            return Outcome("decline_draw")
        if over and table.rematch_offer is seat.other:
            return Outcome(
                "refused", _("a rematch offer needs no answer: 'lobby' leaves the table")
            )
        return Outcome("refused", _("your opponent has offered nothing to decline"))
    if word == "claim":
        if table.claim is seat:
            return Outcome("claim")
        if not running:
            return Outcome("refused", _("a claim is for a game under way"))
        return Outcome(
            "refused",
            _(
                "you cannot claim the win now: only against an opponent who has been away"
                " for a while (you are told when)"
            ),
        )
    # rematch
    if not over:
        return Outcome("refused", _("a rematch is for after the game"))
    if table.tournament is not None:
        return Outcome(
            "refused", refusal_words("tournament_game", None, "a tournament's game has no rematch")
        )
    if table.rematch_table is not None:
        return Outcome(
            "refused",
            _("the rematch has started already (table {table})").format(table=table.rematch_table),
        )
    if table.rematch_offer is seat:
        return Outcome("refused", _("your rematch offer stands: your opponent decides"))
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
    word, _sep, rest = text.partition(" ")
    if word.lower() in ("say", "chat", local_words()["say"]):  # the chat as it was typed
        return Outcome("chat", rest.strip()) if rest.strip() else Outcome("refused", _("say what?"))
    if word.lower() in ("report", local_words()["report"]):  # as typed: the reason is words
        if len(rest.split()) < 2:  # the moderators get the table's chat with it
            return Outcome("refused", _("report NAME REASON: who, and why"))
        return Outcome("report", rest.strip())
    text = canonical(text)
    word, _sep, rest = text.partition(" ")
    word = word.lower()
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
    if word in ("analyse", "analyze", local_words()["analyse"]):
        if public is None or public.result is None:
            return Outcome("refused", _("the analysis comes when the game is over"))
        return Outcome("analyse")
    if word in TABLE_WORDS:
        return table_command(word, rest.strip(), seat_view, public, table, status)
    try:
        action = parse_action(text)
    except NotationError as exc:
        return Outcome("refused", rules_words(str(exc)))
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
        return _("card {card}").format(card=ISLANDS[action.card])
    if isinstance(action, Remove):
        return _("cards {cards}").format(cards="+".join(ISLANDS[c] for c in action.cards))
    return ""


# words of the notation after the first that have a word in each language
_LATER_WORDS = ("rebuild", "turn", "draw")


def complete(before_cursor: str, seat_view: SeatView | None) -> list[Candidate]:
    """Candidates for the word being typed: from the legal commands when it is your turn;
    otherwise the client's words (say, help, ...), and the islands and lines after a verb.
    Command words are offered in the player's language (and in the notation's, once what is
    typed matches only that); words typed in either are understood."""
    words = before_cursor.split()
    if before_cursor and not before_cursor[-1].isspace():
        partial = words.pop() if words else ""
    else:
        partial = ""
    upper = partial.upper()
    index = len(words)
    out: list[Candidate] = []
    seen: set[str] = set()
    local = local_words()
    back = {v: k for k, v in local.items() if v != k and " " not in k}

    def add(text: str, meta: str = "") -> None:
        if text not in seen and text.upper().startswith(upper):
            seen.add(text)
            out.append(Candidate(text, -len(partial), meta))

    def add_word(english: str, meta: str = "") -> None:
        """A command word: the language's, and the notation's when only it matches."""
        add(local.get(english, english), meta)
        if partial and english not in seen and local.get(english, english) not in seen:
            add(english, meta)

    legal = legal_now(seat_view)
    typed = [back.get(w.lower(), w.lower()) for w in words]
    for action in legal:
        parts = str(action).split()
        if len(parts) <= index or [p.lower() for p in parts[:index]] != typed:
            continue
        meta = _("ends your turn") if parts[0] in ("take", "draw", "abstain", "end") else ""
        if index == 0 or parts[index] in _LATER_WORDS:
            add_word(parts[index], meta if index == 0 else "")
        else:
            add(parts[index], _action_meta(action))
    if index == 1 and typed[0] in SECOND_WORDS:
        for word in SECOND_WORDS[typed[0]]:
            phrase = local[f"{typed[0]} {word}"].split()  # 'offer draw': 'biete remis'
            add(phrase[1] if len(phrase) == 2 and phrase[0] == local[typed[0]] else word)
            if partial and word not in seen:
                add(word)
        return out
    if index == 0:
        # the game's verbs only when they can be played: out of turn (or watching) Tab offers
        # what can be done then, the client's own words
        for word, text in CLIENT_WORDS.items():
            add_word(word, _(text))
        return out
    if out or legal:
        return out
    verb = typed[0]
    if verb in ("place", "handicap") or (verb == "remove" and index == 1):
        if verb == "place":
            for k in range(NUM_LINES):
                a, b = LINES[k]
                add(f"{ISLANDS[a]}-{ISLANDS[b]}", _("card {card}").format(card=ISLANDS[a]))
                add(f"{ISLANDS[b]}-{ISLANDS[a]}", _("card {card}").format(card=ISLANDS[b]))
        else:
            for k in range(NUM_LINES):
                add(line_name(k))
    elif verb in ("discard", "take"):
        for name in ISLANDS:
            add(name)
    return out
