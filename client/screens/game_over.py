"""The side panel at the end of a game: the winner, how the game ended, each round's scores,
and what can be done next."""

from __future__ import annotations

import textwrap

from client.language.command_words import command_word
from client.language.i18n import _
from client.language.words import ending_words, seat_name
from client.model.state import ClientState
from client.screens.canvas import Fragment, wrap_fragments
from shared.types import Seat, Termination


def result_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    """Each round's scores and the winner, for the end of the game."""
    pub = state.public
    if pub is None or pub.result is None:
        return []
    winner = pub.result.winner
    if winner is None:
        who = _("No winner") if pub.result.kind is Termination.TIE else _("A draw")
    else:
        who = _("{seat} ({name}) wins").format(
            seat=seat_name(winner), name=state.player_name(winner)
        )
    out: list[list[Fragment]] = [[("class:title", _("GAME OVER"))]]
    out += [[("class:title", line)] for line in textwrap.wrap(who, max(width, 10))]
    how = ending_words(pub.result, {seat: state.player_name(seat) for seat in Seat})
    for line in textwrap.wrap(how, max(width - 2, 10)):
        out.append([("", f"  {line}")])
    white, black = seat_name(Seat.WHITE), seat_name(Seat.BLACK)
    col = max(len(white), len(black), 5)
    names = [_("Round 1"), _("Round 2"), _("Final")]
    names += [_("Round {n}").format(n=i + 1) for i in range(3, len(pub.round_points))]
    total_word = _("Total")
    name_w = max(9, len(total_word), *(len(n) for n in names))
    out.append([("class:label", " " * (name_w + 3) + f"{white:>{col}}  {black:>{col}}")])
    for name, (w, b) in zip(names, pub.round_points, strict=False):
        out.append([("", f"  {name:<{name_w}} {w:>{col}}  {b:>{col}}")])
    total = pub.scores
    out.append([("class:title", f"  {total_word:<{name_w}} {total[0]:>{col}}  {total[1]:>{col}}")])
    table = state.table
    if state.seat is not None:
        offer = None if table is None else table.rematch_offer
        if table is not None and table.tournament is not None:
            said = _("The tournament pairs your next game.")
            out += [[("class:dim", line)] for line in textwrap.wrap(said, width)]
        elif table is not None and table.rematch_table is not None:
            said = _("Rematch at table {table}").format(table=table.rematch_table)
            out += [[("class:you", line)] for line in textwrap.wrap(said, width)]
        elif offer is state.seat:
            said = _("You offered a rematch.")
            out += [[("class:dim", line)] for line in textwrap.wrap(said, width)]
        elif offer is not None:
            said = _("{name} offers a rematch: 'accept' plays it.").format(
                name=state.player_name(offer)
            )
            out += [[("class:you", line)] for line in textwrap.wrap(said, width)]
        else:
            again = [("class:key", command_word("rematch")), ("class:dim", ": " + _("play again"))]
            out += wrap_fragments(again, width)
        # one hint a line: wrapped, two on a line ran together in a narrow panel
        for word, meaning in (("lobby", _("leave")), ("save", _("keep it"))):
            out += wrap_fragments(
                [("class:key", command_word(word)), ("class:dim", ": " + meaning)], width
            )
        out += wrap_fragments(
            [
                ("class:key", command_word("analyse")),
                ("class:dim", ": " + _("where it turned")),
            ],
            width,
        )
    else:
        said = _("Type 'save' to keep the game, 'lobby' to leave the table.")
        out += [[("class:dim", line)] for line in textwrap.wrap(said, width)]
    return out
