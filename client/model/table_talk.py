"""What the client says at a table, worked out from what it knows: whose turn it is and what
to do, a table note (offers, rematches, claims) in words, how long a player has been away.
Pure: ClientState (client/model/state.py) decides what it knows and logs what these return."""

from __future__ import annotations

import attrs

from client.language.i18n import _, ngettext
from client.language.words import seat_name
from protocol.fields import PlayerInfo
from protocol.messages import TableNote
from shared.types import Phase, Seat
from shared.views import PublicView


@attrs.frozen
class Said:
    """A sentence, and whether it is said to this player about their own turn or question
    (the client shows those apart)."""

    text: str
    to_me: bool = False


def turn_words(
    pub: PublicView,
    my_seat: Seat | None,
    status: str,
    played_yet: bool,
    mover: PlayerInfo | None,
    mover_name: str,
    tournament: bool = False,
) -> Said | None:
    """What to do now: at the end (a tournament's game: no rematch, the tournament pairs the
    next), while waiting for an opponent, on this player's turn (by the phase), or whose turn
    it is."""
    if pub.result is not None:
        if my_seat is None:
            return Said(_("The game is over. 'save' writes the record; 'lobby' goes back."))
        if tournament:
            return Said(
                _("Game over; the tournament pairs the next. 'lobby' leaves, 'save' keeps it.")
            )
        return Said(
            # one line at 80 columns, as the turn's was: the map keeps its height at the end
            _("Game over: 'rematch' plays again, 'lobby' leaves, 'save' keeps the record.")
        )
    if status == "waiting":
        return Said(_("Waiting for an opponent to sit down."))
    if my_seat is None:
        return None
    if pub.to_move is my_seat:
        if pub.phase is Phase.HANDICAP:
            text = ngettext(
                "Your turn: place {n} handicap bridge, like 'handicap ALOA-BARI' (Tab completes).",
                "Your turn: place {n} handicap bridges, like 'handicap ALOA-BARI' (Tab completes).",
                pub.handicap_left,
            ).format(n=pub.handicap_left)
        elif pub.phase is Phase.FINAL:
            text = _("Your last turn: play your cards, then 'end' (F7).")
        elif pub.opponent_abstained:
            text = _("Your turn. Your opponent abstained: you must draw this turn.")
        elif not played_yet:
            text = _(
                "Your turn: play cards (Tab lists them), then F2 draws or F3-F5 take a face-up."
            )
        else:
            text = _("Your turn.")
        return Said(text, to_me=True)
    if mover is not None and mover.computer:
        said = _("{seat} ({name}) is thinking.")
    else:  # a person: who knows what they are doing
        said = _("{seat} ({name}) is to move.")
    return Said(said.format(seat=seat_name(pub.to_move), name=mover_name))


def absence_words(name: str, mine: bool, away: PlayerInfo | None, away_for: float | None) -> str:
    """'Bob has been away 2 minutes: claim to win, or keep waiting', as the client saw it (`away`
    is the absent player's entry, `away_for` how long this client has seen them gone); for
    others, with {claimer} left to fill in."""
    if away is not None and not away.connected:
        if away_for is None:
            if mine:
                said = _("{name} has been away: claim to win, or keep waiting")
            else:
                said = _("{name} has been away: {claimer} may claim the win")
            return said.replace("{name}", name)
        if mine:
            said = _("{name} has been away {time}: claim to win, or keep waiting")
        else:
            said = _("{name} has been away {time}: {claimer} may claim the win")
        return said.replace("{name}", name).replace("{time}", duration_words(away_for))
    if mine:
        said = _("{name} has not moved for a long time: claim to win, or keep waiting")
    else:
        said = _("{name} has not moved for a long time: {claimer} may claim the win")
    return said.replace("{name}", name)


def note_words(
    msg: TableNote, my_seat: Seat | None, who: str, opponent: str, absence: str
) -> Said | None:
    """A table note in words (nil: a note this client does not know, or has nothing to say
    about); `to_me` when it asks this player something. `who` is the name of the note's seat,
    `opponent` this player's opponent's, `absence` the absence_words of a claim's absent seat."""
    seat = None if msg.seat is None else Seat.parse(msg.seat)
    mine = seat is not None and seat is my_seat
    if msg.note == "draw_offered":
        if mine:
            return Said(_("You offer a draw; {name} may accept or decline").format(name=opponent))
        if my_seat is not None:
            return Said(_("{name} offers a draw: accept or decline").format(name=who), True)
        return Said(_("{name} offers a draw").format(name=who))
    if msg.note == "draw_declined":
        if mine:
            return Said(_("You declined the draw"))
        return Said(_("{name} declined the draw").format(name=who), True)
    if msg.note == "rematch_offered":
        if mine:
            return Said(_("You offer a rematch; waiting for {name}").format(name=opponent))
        if my_seat is not None:
            return Said(
                _("{name} offers a rematch: accept (or rematch) to play again").format(name=who),
                True,
            )
        return Said(_("{name} offers a rematch").format(name=who))
    if msg.note == "rematch_declined":
        return Said(_("{name}'s rematch offer fell: {name} left").format(name=who))
    if msg.note == "rematch_started":
        new = msg.detail or "?"
        return Said(
            _("The rematch begins at table {table}, colours swapped").format(table=new), True
        )
    if msg.note == "claim_available" and seat is not None:
        return Said(absence if mine else absence.replace("{claimer}", who), True)
    if msg.note == "not_rated" and msg.detail == "too_short":
        # said at the game's end, where a rating change would be: its absence is no fault
        return Said(_("Not rated: the game ended before each player had played 2 turns"))
    return None


def duration_words(seconds: float) -> str:
    if seconds < 90:
        whole = max(round(seconds), 1)
        return ngettext("{n} second", "{n} seconds", whole).format(n=whole)
    minutes = round(seconds / 60)
    return ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
