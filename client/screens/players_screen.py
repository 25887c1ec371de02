"""The lobby's panels of version 3: the server's ratings, a player's games, the challenges; and
the lines of the lobby's chat under the tables."""

from __future__ import annotations

import textwrap
import time

from client.language.i18n import _
from client.language.words import level_word, reason_words, seat_name
from client.model.players import left_until, when
from client.model.state import ClientState
from client.screens.canvas import Canvas
from client.screens.moderation_screen import render_moderation
from protocol.player_messages import ChallengeInfo, ChallengeTerms, GameEntry
from shared.results import Result
from shared.types import Seat

CHAT_ROWS = 4  # lines of the lobby's chat under the tables


def chat_rows(state: ClientState, width: int) -> list[tuple[str, str]]:
    """The latest lines of the lobby's chat (none where the server keeps no accounts)."""
    people = state.accounts
    if not people.accounts:
        return []
    room = max(width - 2, 10)
    shown: list[str] = []
    # the newest lines, each wrapped whole (a long line is read to its end), as many as fit
    # in CHAT_ROWS rows; the newest always, however long
    for entry in reversed(people.chat):
        wrapped = textwrap.wrap(f"{entry.sender}: {entry.text}", room, subsequent_indent="  ")
        if shown and len(shown) + len(wrapped) > CHAT_ROWS:
            break
        shown[:0] = wrapped
    rows = [(_("Lobby chat ('TEXT says something)"), "class:label")]
    rows += [(line, "") for line in shown]
    return rows


def joined_lines(parts: list[str], width: int, between: str = "   ") -> list[str]:
    """Parts side by side, `between` them, on as many lines as they need: a part goes whole
    onto the next line rather than be split (one longer than a line is wrapped)."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(between) + len(part) <= width:
            lines[-1] += between + part
        else:
            lines.extend(textwrap.wrap(part, width) or [""])
    return lines


def cut(text: str, width: int) -> str:
    """Text in a column of this width: cut with an ellipsis, so a cut is seen as one."""
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)] + "…"


def render_panel(canvas: Canvas, state: ClientState, width: int, height: int) -> None:
    people = state.accounts
    if people.panel in ("reports", "modlog"):  # a moderator's
        render_moderation(canvas, state, width, height)
        return
    titles = {
        "ratings": _("Ratings on this server"),
        "games": _("Games of {name}").format(
            name="" if people.games is None else people.games.name
        ),
        "challenges": _("Your challenges"),
    }
    canvas.put(1, 2, titles.get(people.panel, ""), "class:title")
    head_y = 3  # the list's column titles: under the games' summary, if any
    if people.panel == "ratings":
        # translated outside the f-strings, where the extraction of the messages sees them
        player, rating, played, record = _("player"), _("rating"), _("games"), _("won/lost/drawn")
        # each number under its title's end, however long the title is in the language
        rw, gw = max(len(rating), 5), max(len(played), 5)
        head = f"{'#':>3} {player:<20.20} {rating:>{rw}} {played:>{gw}}  {record}"
        rows = [
            f"{i:>3} {e.name:<20.20} {e.rating:>{rw}} {e.games:>{gw}}"
            f"  {e.wins}/{e.losses}/{e.draws}" + ("  " + _("online") if e.online else "")
            for i, e in enumerate(people.ratings, start=1)
        ]
        empty = _("No rated games yet.")
    elif people.panel == "games":
        table, opponent, result, date = _("table"), _("opponent"), _("result"), _("date")
        head = game_columns(table, opponent, "±", date, result, width - 4)
        games = [] if people.games is None else people.games.games
        owner = "" if people.games is None else people.games.name
        rows = [game_row(g, owner, width - 4) for g in games]
        empty = _("No games yet.")
        if people.games is not None:
            stats = people.games.stats
            won, lost, drawn = stats.rated
            parts = [
                _("Rated: {won} won, {lost} lost, {drawn} drawn").format(
                    won=won, lost=lost, drawn=drawn
                )
            ]
            for level, (w, lo, d) in sorted(stats.computer.items()):
                parts.append(
                    _("vs computer ({level}): {w}/{l}/{d}").format(
                        level=level_word(level), w=w, l=lo, d=d
                    )
                )
            summary = joined_lines(parts, max(width - 4, 10))
            for line in summary:
                canvas.put(3, head_y, line, "class:dim")
                head_y += 1
    else:
        ident, sender, recipient, terms = _("id"), _("from"), _("to"), _("terms")
        head = f"{ident:<8} {sender:<20.20} {recipient:<20.20} {terms}"
        rows = [challenge_row(c) for c in people.challenges]
        empty = _("No challenges: challenge NAME [3d] [unrated] [black] makes one.")
    y = max(head_y, 4)
    canvas.put(3, y, head[: max(width - 4, 1)], "class:label")
    y += 1
    if not rows:
        for line in textwrap.wrap(empty, max(width - 4, 10)):
            canvas.put(3, y, line, "class:dim")
            y += 1
    room = max(height - y - 2, 1)
    # a row longer than the screen (a challenge's terms in German) goes on under its last
    # column, never cut; the selected row is kept in view
    entries = [
        textwrap.wrap(row, max(width - 4, 10), subsequent_indent=" " * 9) or [""] for row in rows
    ]
    first, used = people.cursor, 0
    while first > 0 and used + len(entries[first]) + len(entries[first - 1]) <= room:
        used += len(entries[first])
        first -= 1
    first = max(0, min(first, len(entries) - 1)) if entries else 0
    for i, lines in enumerate(entries[first:], start=first):
        if y + len(lines) > height - 2 and i != first:
            break
        selected = i == people.cursor
        style = "class:selected" if selected else ""
        for n, line in enumerate(lines):
            mark = "> " if selected and n == 0 else "  "
            canvas.put(1, y, (mark + line)[: max(width - 2, 1)], style)
            y += 1


def game_columns(table: str, opponent: str, change: str, date: str, result: str, width: int) -> str:
    """A row of the games' list: the rating change before the result, which takes the room
    left (a translated result is the longest column: cut last, with an ellipsis)."""
    front = f"{cut(table, 8):<8} {cut(opponent, 14):<14} {change:>4} {date:<10} "
    return front + cut(result, max(width - len(front), 1))


def game_row(game: GameEntry, owner: str, width: int = 76) -> str:
    mine = Seat.WHITE if game.white == owner else Seat.BLACK
    opponent = game.black if mine is Seat.WHITE else game.white
    change = game.white_change if mine is Seat.WHITE else game.black_change
    if game.status == "playing":
        to_move = seat_name(Seat.parse(game.to_move)) if game.to_move else ""
        result = _("running: {seat} to move").format(seat=to_move)
        if game.to_move == mine.name.lower():
            result = _("running: your move")
        if game.deadline is not None:
            result += " (" + left_until(game.deadline, time.time()) + ")"
        date = when(game.started)
    else:
        if game.winner is None:
            outcome = _("draw")
        elif game.winner == mine.name.lower():
            outcome = _("won")
        else:
            outcome = _("lost")
        how = _ending(game)
        result = f"{outcome}: {how}" if how else outcome
        if game.ending == "abandoned":  # a moderator closed it: neither won nor drawn
            result = how
        date = when(game.finished)
    changed = "" if change is None else f"{change:+d}"
    return game_columns(game.table_id, opponent, changed, date, result, width)


def _ending(game: GameEntry) -> str:
    if game.ending is None:
        return ""
    try:
        result = Result.from_dict({"winner": game.winner, "kind": game.ending})
    except (ValueError, KeyError, TypeError):
        return game.ending
    return reason_words(result)


def challenge_row(challenge: ChallengeInfo) -> str:
    return (
        # an account's name is at most 20 characters: whole
        f"{challenge.challenge_id:<8} {challenge.sender:<20.20} {challenge.recipient:<20.20}"
        f" {describe_terms(challenge.terms)}"
    )


def describe_terms(terms: ChallengeTerms) -> str:
    parts = []
    if terms.clock is not None and terms.clock.days:
        parts.append(_("{days}d a move").format(days=terms.clock.days))
    elif terms.clock is not None:
        parts.append(_("clock"))
    parts.append(_("rated") if terms.rated else _("unrated"))
    if terms.seat is not None:
        parts.append(_("challenger plays {seat}").format(seat=seat_name(Seat.parse(terms.seat))))
    if terms.options.variant1:
        parts.append("V1")
    if terms.options.variant2:
        parts.append("V2")
    return ", ".join(parts)
