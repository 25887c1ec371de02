"""The game's sentences in the player's language, made here at the edge from codes with the
catalogue's English keys (catalogue.codes, .endings, .events): the log's sentences from the
events' types and fields (shared.events.describe stays the engine's English),
how a game ended from Result.kind, refusals from the server's error codes, and the reasons the
rules engine gives (shared.legality, shared.actions: English) read back into the player's
language. Island and line names stay as they are: they are names.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

from catalogue.codes import (
    ACCOUNT_ERRORS,
    ACCOUNT_REASONS,
    CLOSINGS,
    ERRORS,
    LEFT,
    MODERATION_ACTIONS,
    MODERATORS,
    REFUSALS,
)
from catalogue.endings import (
    ENDINGS,
    GAME_OVER_NOTES,
    NEITHER_HAS_A_BRIDGE,
    NEITHER_HAS_A_BRIDGE_ENDING,
)
from catalogue.endings import REASONS as _REASONS
from catalogue.events import EVENTS
from client.language.command_words import command_word, in_words, local_words, verb_names
from client.language.i18n import _
from protocol.messages import Error, Left, TableClosed
from protocol.player_messages import PlayerNote
from shared.board import ISLANDS, line_name
from shared.events import (
    Abstained,
    BridgePlaced,
    BridgeRemoved,
    CardDiscarded,
    CardDrawn,
    CardTaken,
    Event,
    FinalTurnsBegan,
    GameOver,
    PlayUndone,
    Reshuffled,
    RoundScored,
    TokenPlaced,
    TokenRemoved,
    TurnEnded,
)
from shared.record import RecordError
from shared.results import Result, ending_sentence
from shared.types import Seat, Termination


def seat_name(seat: Seat) -> str:
    """'White' or 'Black' in the player's language."""
    return _("White") if seat is Seat.WHITE else _("Black")


def seat_word(name: str) -> str:
    """'white' / 'black' as the protocol says them, in words: 'White', 'Black'."""
    return seat_name(Seat.parse(name)) if name in ("white", "black") else name


def first_word(name: str) -> str:
    """Who moves first: white, black or random."""
    return {"white": _("White"), "black": _("Black"), "random": _("Random")}.get(name, name)


def level_word(level: str) -> str:
    """The computer's level: easy, normal, strong."""
    return {"easy": _("easy"), "normal": _("normal"), "strong": _("strong")}.get(level, level)


def role_word(role: str) -> str:
    """A chat sender's role: white, black, spectator."""
    return {"white": _("white"), "black": _("black"), "spectator": _("spectator")}.get(role, role)


def status_word(status: str) -> str:
    """A table's status as the lobby shows it."""
    return {
        "waiting": _("waiting"),
        "playing": _("playing"),
        "over": _("over"),
    }.get(status, status)


# ----- the log --------------------------------------------------------------------------------


def _said(key: str, **fields: object) -> str:
    """The log's sentence `key` (catalogue.events) in the player's language, filled."""
    return _(EVENTS[key]).format(**fields)


def describe(event: Event) -> str:
    """One sentence for one event, in the player's language."""
    match event:
        case BridgePlaced(seat, line, card):
            if card is None:
                return _said("bridge_placed_free", seat=seat_name(seat), line=line_name(line))
            return _said(
                "bridge_placed", seat=seat_name(seat), line=line_name(line), card=ISLANDS[card]
            )
        case BridgeRemoved(seat, line, cards):
            if cards is None:
                return _said("bridge_removed_alone", seat=seat_name(seat), line=line_name(line))
            return _said(
                "bridge_removed",
                by=seat_name(seat.other),
                seat=seat_name(seat),
                line=line_name(line),
                cards=f"{ISLANDS[cards[0]]}+{ISLANDS[cards[1]]}",
            )
        case TokenPlaced(seat, island):
            return _said("token_placed", seat=seat_name(seat), island=ISLANDS[island])
        case TokenRemoved(seat, island):
            return _said("token_removed", seat=seat_name(seat), island=ISLANDS[island])
        case CardDiscarded(seat, card, is_open):
            if card is None:
                return _said("card_discarded_hidden", seat=seat_name(seat))
            key = "card_discarded_open" if is_open else "card_discarded"
            return _said(key, seat=seat_name(seat), card=ISLANDS[card])
        case CardTaken(seat, card, replacement):
            if replacement is None:
                return _said("card_taken", seat=seat_name(seat), card=ISLANDS[card])
            return _said(
                "card_taken_replaced",
                seat=seat_name(seat),
                card=ISLANDS[card],
                new=ISLANDS[replacement],
            )
        case CardDrawn(seat, card):
            if card is None:
                return _said("card_drawn_hidden", seat=seat_name(seat))
            return _said("card_drawn", seat=seat_name(seat), card=ISLANDS[card])
        case Abstained(seat):
            return _said("abstained", seat=seat_name(seat))
        case TurnEnded(seat, next_seat):
            if next_seat is None:
                return _said("turn_ended_last", seat=seat_name(seat))
            return _said("turn_ended", seat=seat_name(next_seat))
        case RoundScored(rnd, tokens, points, final):
            text = _said("final_scoring") if final else _said("round_scoring", round=rnd)
            return _said(
                "round_scored",
                scoring=text,
                wt=tokens[0],
                bt=tokens[1],
                wp=points[0],
                bp=points[1],
            )
        case Reshuffled(face_up, pile_size):
            row = " ".join(ISLANDS[c] for c in face_up)
            return _said("reshuffled", count=pile_size, row=row)
        case FinalTurnsBegan(first):
            return _said("final_turns", seat=seat_name(first))
        case GameOver(winner, kind, scores):
            result = Result(winner, kind)
            reason = reason_words(result)
            if winner is None:
                return _said("game_drawn", reason=reason, w=scores[0], b=scores[1])
            return _said(
                "game_won", seat=seat_name(winner), reason=reason, w=scores[0], b=scores[1]
            )
        case PlayUndone(seat, action, _open):
            if action is None:
                return _said("undone_hidden", seat=seat_name(seat))
            # the play in the player's words ('setze BARI-DUDA'), as it would be typed
            return _said("undone", seat=seat_name(seat), play=in_words(str(action)))
    raise TypeError(event)


# How a game ended (catalogue.endings): short for the log's "Game over, ... (REASON)", "{seat}"
# the loser's colour; and as a sentence with the players' names (the game-over panel), "{player}"
# the loser.
REASONS: dict[Termination, str] = {Termination(k): v for k, v in _REASONS.items()}
ENDING_SENTENCES: dict[Termination, str] = {Termination(k): v for k, v in ENDINGS.items()}


def reason_words(result: Result) -> str:
    """How the game ended, short (for the log): the result's kind in words."""
    sentence = _(ending_sentence(result, REASONS, NEITHER_HAS_A_BRIDGE))
    loser = result.loser
    return sentence if loser is None else sentence.format(seat=seat_name(loser))


def ending_words(result: Result, name: Mapping[Seat, str]) -> str:
    """How the game ended, a sentence with the players' names, for the game-over screen."""
    sentence = _(ending_sentence(result, ENDING_SENTENCES, NEITHER_HAS_A_BRIDGE_ENDING))
    loser = result.loser
    if loser is None:
        return sentence
    player = _("{name} ({seat})").format(name=name[loser], seat=seat_name(loser))
    return sentence.format(player=player)


# ----- the server's refusals --------------------------------------------------------------------


def refusal_words(code: str | None, params: Mapping[str, Any] | None, english: str) -> str:
    """Why the rules refuse an action, in the player's language, from its code and parameters
    (shared.legality.refusal; version 2's error.reason and error.params); a code this client
    does not know: the English sentence read back where it can be."""
    found = None if code is None else REFUSALS.get(code)
    if found is None:
        return rules_words(english)
    values = {key: str(value) for key, value in (params or {}).items()}
    if "seat" in values:
        values["seat"] = seat_word(values["seat"])
    said = _filled(found, values)
    return rules_words(english) if said is None else said


def _filled(sentence: str, values: Mapping[str, Any]) -> str | None:
    """A code's sentence in the player's language with its {fields} filled from the error's
    parameters; None where the parameters are not the ones it needs."""
    try:
        return _(sentence).format(**values)
    except (KeyError, IndexError, ValueError):  # parameters this client did not expect
        return None


# The client's own commands besides the game's, as the unknown command's refusal lists them.
CLIENT_COMMANDS = (
    "say", "help", "hint", "resign", "offer draw", "accept", "decline", "claim", "rematch",
    "save", "analyse", "report", "lobby", "quit",
)  # fmt: skip


def error_words(
    code: str,
    message: str,
    reason: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> str:
    said = _account_words(code, reason, params)
    if said is not None:
        return said
    if reason is not None:
        return refusal_words(reason, params, message)
    return _error_words(code, message)


def _account_words(code: str, reason: str | None, params: Mapping[str, Any] | None) -> str | None:
    """Version 3's refusals (accounts, challenges, the archive), from their codes."""
    found = ACCOUNT_REASONS.get(f"{code}/{reason or ''}")
    if found is not None:
        return _filled(found, params or {}) or _(found)
    sentence = ACCOUNT_ERRORS.get(code)
    values = dict(params or {})
    if str(values.get("until", "")).isdigit():  # a mute's end (version 4's muted): local time
        stamp = time.localtime(int(values["until"]))
        values["until"] = time.strftime("%Y-%m-%d %H:%M", stamp)
    return None if sentence is None else _filled(sentence, values)


def closing_words(closed: TableClosed) -> str:
    """Why a table closed, in the player's language, from its code (version 2)."""
    player = (closed.params or {}).get("player", "")
    sentence = CLOSINGS.get(closed.code or "")
    return closed.reason if sentence is None else _(sentence).replace("{player}", str(player))


def left_words(left: Left) -> str:
    """Why this client is no longer at a table, in the player's language (version 2)."""
    sentence = LEFT.get(left.code or "")
    return left.reason if sentence is None else _(sentence)


def game_over_words(note: PlayerNote) -> str:
    """A game of the player's that ended while they were away from its table (version 4's
    player_note game_over): against whom, where, and how it ended for them."""
    name = note.name or "?"
    how = GAME_OVER_NOTES.get(f"{note.outcome}/{note.ending}")
    if how is None:
        how = GAME_OVER_NOTES.get(note.outcome or "unknown", GAME_OVER_NOTES["unknown"])
    line = _(GAME_OVER_NOTES["line"])
    return line.format(name=name, table=note.table_id or "?", how=_(how).format(name=name))


def error_sentence(error: Error) -> str:
    """A server's error message in the player's language."""
    return error_words(error.code, error.message, error.reason, error.params)


def _error_words(code: str, message: str) -> str:
    """A server's refusal in the player's language, from its code; for a code this client has
    no sentence for, or where the message carries the detail (illegal_action, no_offer,
    cannot_claim, bad_options), the server's English message, read back where it can be."""
    if code in ERRORS:
        return _(ERRORS[code])
    return rules_words(message)


# The reasons shared.legality, shared.actions and shared.board give, in English: each read back
# into the player's language. A reason no pattern matches is shown as it is.
_ISL = r"(?P<{}>[A-Z]{{4}})"
_LINE = r"(?P<line>[A-Z]{4}-[A-Z]{4})"


def _reasons() -> list[tuple[re.Pattern[str], str]]:
    pats: list[tuple[str, str]] = [
        ("the game is over", _("the game is over")),
        ("handicap bridges cannot be taken back", _("handicap bridges cannot be taken back")),
        (
            "there is nothing to take back: you have made no play this turn",
            _("there is nothing to take back: you have made no play this turn"),
        ),
        (
            r"(?P<seat>White|Black) first places (?P<n>\d+) more handicap bridge\(s\),"
            r" like 'handicap ALOA-BARI'",
            _("{seat} first places {n} more handicap bridge(s), like 'handicap ALOA-BARI'"),
        ),
        (_LINE + " already has a bridge", _("{line} already has a bridge")),
        (
            "handicap bridges are placed only before the first turn",
            _("handicap bridges are placed only before the first turn"),
        ),
        (
            "a " + _ISL.format("card") + r" card places a bridge only on a line from [A-Z]{4}",
            _("the {card} card places a bridge only on a line from {card}"),
        ),
        ("you have no " + _ISL.format("card") + " card", _("you have no {card} card")),
        ("you have no bridges left to place", _("you have no bridges left to place")),
        (
            "Variant 1: no bridge on " + _LINE + ", an island at its end is under your"
            " opponent's control",
            _("Variant 1: no bridge on {line}, an island at its end is your opponent's"),
        ),
        (
            "Variant 1: no bridge on " + _LINE + ", an island at its end stays under your"
            " opponent's control",
            _("Variant 1: no bridge on {line}, an island at its end stays your opponent's"),
        ),
        (
            "to remove " + _LINE + " both cards must show one of its two islands",
            _("to remove {line} both cards must show one of its two islands"),
        ),
        (
            "there is no opponent's bridge on " + _LINE,
            _("there is no opponent's bridge on {line}"),
        ),
        (
            r"you do not hold (?P<cards>[A-Z]{4}\+[A-Z]{4})",
            _("you do not hold {cards}"),
        ),
        (
            "rebuilding without a card is Variant 1 only; play a third card instead",
            _("rebuilding without a card is Variant 1 only; play a third card instead"),
        ),
        (
            r"a turn ends by drawing a card or abstaining \('draw', 'take X', 'abstain'\)",
            _("a turn ends by drawing a card or abstaining ('draw', 'take X', 'abstain')"),
        ),
        (
            "no drawing in the final turn; play your cards, then 'end'",
            _("no drawing in the final turn; play your cards, then 'end'"),
        ),
        (
            "you may not abstain right after your opponent abstained; draw a card",
            _("you may not abstain right after your opponent abstained; draw a card"),
        ),
        (
            "five cards in hand: play or discard a card first, then draw",
            _("five cards in hand: play or discard a card first, then draw"),
        ),
        (
            "five cards in hand: play or discard first, or abstain",
            _("five cards in hand: play or discard first, or abstain"),
        ),
        (
            "there is no face-up " + _ISL.format("card") + " card",
            _("there is no face-up {card} card"),
        ),
        (
            "the draw pile is empty; take a face-up card",
            _("the draw pile is empty; take a face-up card"),
        ),
        # the notation (shared.actions) and the names (shared.board)
        ("empty command", _("empty command")),
        (
            r"'(?P<verb>draw|abstain|end)' takes nothing after it",
            _("'{verb}' takes nothing after it"),
        ),
        (
            "'undo' takes back the last play; 'undo turn' all of this turn's",
            _("'undo' takes back the last play; 'undo turn' all of this turn's"),
        ),
        (
            r"'(?P<verb>discard|take)' takes one island, like '(?:discard|take) ELAI'",
            _("'{verb}' takes one island, like '{verb} ELAI'"),
        ),
        (
            "'place' takes one line, like 'place BARI-DUDA'",
            _("'place' takes one line, like 'place BARI-DUDA'"),
        ),
        (
            "'handicap' takes one line, like 'handicap ALOA-BARI'",
            _("'handicap' takes one line, like 'handicap ALOA-BARI'"),
        ),
        (
            "'remove' takes a line and two cards, like 'remove HUNA-ELAI HUNA\\+ELAI'",
            _("'remove' takes a line and two cards, like 'remove HUNA-ELAI HUNA+ELAI'"),
        ),
        (
            "name the two cards joined by '\\+', like HUNA\\+ELAI",
            _("name the two cards joined by '+', like HUNA+ELAI"),
        ),
        (r"(?P<name>'.*') is not an island", _("{name} is not an island")),
        (
            r"(?P<name>'.*') is not a line; write two islands like HUNA-ELAI",
            _("{name} is not a line; write two islands like HUNA-ELAI"),
        ),
        (
            "(?P<a>[A-Z]{4}) and (?P<b>[A-Z]{4}) are not connected",
            _("{a} and {b} are not connected"),
        ),
        (r"unknown command (?P<word>'.*'); commands are: .*", ""),
    ]
    return [(re.compile(p), t) for p, t in pats]


def rules_words(english: str) -> str:
    """A reason the engine gave in English, in the player's language (as it is when no
    sentence here matches it)."""
    for pattern, text in _reasons():
        found = pattern.fullmatch(english)
        if found is None:
            continue
        values: dict[str, Any] = found.groupdict()
        if "seat" in values:
            values["seat"] = seat_word(values["seat"].lower())
        if "verb" in values:
            values["verb"] = command_word(values["verb"])
        if not text:  # the unknown command: the words of this language, and the notation's
            local = local_words()
            client = [local[w] for w in CLIENT_COMMANDS]
            return _("unknown command {word}; the commands are: {words}").format(
                word=values["word"], words=", ".join([*verb_names(), *client])
            )
        return text.format(**values)
    return english


def record_problem(exc: RecordError) -> str:
    """Why a record cannot be read or replayed, in the player's language (from its code; a
    lower layer's own words, `detail`, stay as they were said)."""
    params = {"word": "", "detail": "", **exc.params}
    sentences = {
        "chance-missing": _(
            "this action reshuffles the discard pile; a 'shuffle' line must follow"
        ),
        "chance-stray": _("no reshuffle happens here"),
        "chance-impossible": _("the shuffle is not an order of the discard pile's cards"),
        "illegal": _("this move cannot be played here ({detail})"),
        "bad_card": _("not a card ({detail})"),
        "yes_no": _("expected yes or no, not '{word}'"),
        "bad_seat": _("'{word}' is not a seat (white or black)"),
        "given_twice": _("'{word}' is given twice"),
        "seat_first": _("'{word}' names a seat first"),
        "bad_line": _("not a line of the board ({detail})"),
        "listed_twice": _("{word} is listed twice"),
        "round_number": _("'round' takes a number"),
        "points_format": _("points are written white:black, not '{word}'"),
        "final_turns_left": _("'final-turns-left' is 1 or 2"),
        "unknown_line": _("unknown position line '{word}'"),
        "impossible_position": _("impossible position ({detail})"),
        "not_a_record": _("not a game record: a record starts with '{word}'"),
        "no_deal": _("the record has no deal and no position"),
        "no_end": _("the position has no closing 'end' line"),
        "deal_after_first": _("'first' is followed by a 'deal' line"),
        "bad_deal": _("the deal is not the 24 cards, two of each island"),
        "no_start": _("expected 'first' and 'deal', or 'position'"),
        "bad_action": _("not an action ({detail})"),
        "handicap_format": _("handicap is 'none' or a seat and 1-3 bridges"),
        "bad_options": _("impossible options ({detail})"),
    }
    sentence = sentences.get(exc.code)
    return exc.reason if sentence is None else sentence.format(**params)


def moderation_action_words(
    moderator: str, action: str, target: str, name: str | None = None
) -> str:
    """What a line of the moderation log says was done, in the reader's language (`name`: to
    whom a tournament was given)."""
    role = MODERATORS.get(moderator)  # the operator: said as a role, not a name
    who = moderator if role is None else _(role)
    sentence = MODERATION_ACTIONS.get(action)
    if sentence is None:  # an action newer than this client
        return f"{who} {action} {target}"
    return _(sentence).format(moderator=who, target=target, name=name or "?")
