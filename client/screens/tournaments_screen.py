"""The tournaments' screen over the lobby (version 4): the server's tournaments, and one of them
with its players, standings and the round's pairings and results."""

from __future__ import annotations

import textwrap

from client.language.i18n import N_, _, ngettext, pgettext
from client.model.state import ClientState
from client.model.table import describe_control, short_control
from client.model.table_talk import duration_words
from client.model.tournaments import TournamentsState
from client.screens.canvas import Canvas
from client.screens.players_screen import cut, joined_lines
from protocol.tournament_messages import Pairing, TournamentSummary

LIST_KEYS = N_("↑↓ select  Enter open  r refresh  : command  q back")
ONE_KEYS = N_("↑↓ game  Enter go/watch  j join  w withdraw  s start  q back")
DIRECTOR_KEYS = N_("↑↓ game  ←→ player  Enter go  j w s  x remove  D draw  E end  p pause  q")
CONFIRM_KEYS = N_("y yes   n or Esc no")
# a moderator's on a tournament not over: C and H open the command line (tournament_keys.py)
MODERATOR_KEYS = N_("↑↓ game  Enter go/watch  j w s  C close  H hand over  q back")


def tournament_hints(state: ClientState) -> str:
    """The key bar's words on the tournaments' screen: its director's keys to its director."""
    tours = state.tournaments
    if tours.view == "list":
        return _(LIST_KEYS)
    if tours.confirm is not None:
        return _(CONFIRM_KEYS)
    directing = tours.is_director(state.accounts.account)
    going = tours.current is not None and tours.current.summary.status != "finished"
    if directing and going:
        return _(DIRECTOR_KEYS)
    if going and state.accounts.moderation is not None:
        return _(MODERATOR_KEYS)
    return _(ONE_KEYS)


def format_word(summary: TournamentSummary) -> str:
    words = {
        "swiss": pgettext("tournament", "Swiss"),
        "round_robin": _("round-robin"),
        "double_round_robin": _("double round-robin"),
    }
    return words.get(summary.format, summary.format)


def status_words(summary: TournamentSummary) -> str:
    if summary.closed:  # by a moderator: the one tournament's screen says so in full
        return pgettext("tournament", "cancelled")
    # a pause ends with the tournament (the server keeps the flag as it stood)
    if summary.paused and summary.status != "finished":
        return pgettext("tournament", "paused")
    words = {
        "open": pgettext("tournament", "open"),
        "started": _("under way"),
        "finished": pgettext("tournament", "finished"),
    }
    return words.get(summary.status, summary.status)


def rounds_text(summary: TournamentSummary) -> str:
    if summary.status == "open":
        return str(summary.rounds or "-")
    return f"{summary.round}/{summary.rounds}"


FRACTIONS = {0.25: "¼", 0.5: "½", 0.75: "¾"}


def points(value: float) -> str:
    """1.5 as '1½', 2.0 as '2', a tie-break's quarters as 2.25 '2¼' and 0.75 '¾' (a
    Sonneborn-Berger against a virtual opponent), as the page says them."""
    whole = int(value)
    part = FRACTIONS.get(value - whole)
    if value == whole:
        return str(whole)
    if part is None:
        return f"{value:g}"
    return f"{whole}{part}" if whole else part


def result_words(game: Pairing, closed: bool = False) -> str:
    """A game's result; one without a result in a tournament a moderator ended was abandoned."""
    words = {
        None: _("abandoned") if closed else _("playing"),
        "white_won": "1-0",
        "black_won": "0-1",
        "draw": "½-½",
        "white_won_by_forfeit": _("1-0 forfeit"),
        "black_won_by_forfeit": _("0-1 forfeit"),
        "double_forfeit": _("0-0 forfeit"),
    }
    return words.get(game.result, game.result or "")


def render_tournaments(canvas: Canvas, state: ClientState, width: int, height: int) -> None:
    """The list or the one tournament, from row 2 down to `height` (the message line below)."""
    tours = state.tournaments
    if tours.view == "one":
        render_one(canvas, tours, state.accounts.account, width, height)
    else:
        render_list(canvas, tours, width, height)


def render_list(canvas: Canvas, tours: TournamentsState, width: int, height: int) -> None:
    canvas.put(1, 2, _("Tournaments on this server"), "class:title")
    name, kind, rounds, clock = _("name"), _("format"), _("rounds"), _("clock")
    players, status = _("players"), _("status")
    room = max(width - 4, 20)
    # each column as wide as its title in the language, or its values
    widths = (
        max(len(kind), 14), max(len(rounds), 6), max(len(clock), 6), max(len(players), 7),
        max(len(status), 10),
    )  # fmt: skip
    head = columns((name, kind, rounds, clock, players, status), widths, room)
    canvas.put(3, 3, head, "class:label")
    y = 4
    if not tours.listing:
        said = _("No tournaments yet: ':tournament new NAME swiss ROUNDS' makes one.")
        for line in textwrap.wrap(said, room):
            canvas.put(3, y, line, "class:dim")
            y += 1
        return
    rows = max(height - y - 1, 1)
    first = max(0, tours.cursor - rows + 1)
    for i, entry in enumerate(tours.listing[first : first + rows], start=first):
        selected = i == tours.cursor
        cells = (
            entry.name,
            format_word(entry),
            rounds_text(entry),
            short_control(entry.clock) or "-",
            str(entry.players),
            status_words(entry),
        )
        row = columns(cells, widths, room)
        style = "class:selected" if selected else ""
        canvas.put(1, y, ("> " if selected else "  ") + row, style)
        y += 1


def columns(cells: tuple[str, ...], widths: tuple[int, ...], width: int) -> str:
    """A row of the list: the name takes what the others leave, each of those cut to its
    column with an ellipsis (a cut is seen as one); the players' count to the right."""
    name, kind, rounds, clock, players, status = cells
    kw, rw, cw, pw, sw = widths
    tail = f" {cut(kind, kw):<{kw}} {cut(rounds, rw):<{rw}} {cut(clock, cw):<{cw}}"
    tail += f" {cut(players, pw):>{pw}} {cut(status, sw):<{sw}}"
    name_w = max(width - len(tail), 8)
    return f"{cut(name, name_w):<{name_w}}{tail}".rstrip()[:width]


def render_one(
    canvas: Canvas, tours: TournamentsState, me: str | None, width: int, height: int
) -> None:
    shown = tours.current
    room = max(width - 4, 20)
    if shown is None:
        canvas.put(1, 2, _("Tournament"), "class:title")
        canvas.put(3, 4, _("Asking the server..."), "class:dim")
        return
    summary = shown.summary
    canvas.put(1, 2, cut(summary.name, width - 2), "class:title")
    # an open round-robin's rounds are its players' number, not known yet: no "? rounds"; and
    # no clock is said as such, not as a lone "none" between the facts
    facts = [
        format_word(summary),
        _("round {round} of {rounds}").format(round=summary.round, rounds=summary.rounds or "?")
        if summary.status != "open"
        else ngettext("{rounds} round", "{rounds} rounds", summary.rounds).format(
            rounds=summary.rounds
        )
        if summary.rounds
        else "",
        _("no clock") if summary.clock is None else describe_control(summary.clock),
        _("rated") if summary.rated else _("unrated"),
        _("director {name}").format(name=summary.director),
        _("ended by a moderator") if summary.closed else status_words(summary),
    ]
    if summary.status == "finished" and not summary.closed:  # ended by a moderator: no winner
        firsts = [s.name for s in shown.standings if s.place == 1]
        if firsts:  # first: the facts have two lines, and this says it is over
            said = ngettext("winner {names}", "winners {names}", len(firsts))
            facts.insert(0, said.format(names=", ".join(firsts)))
    # the time in force (none in a game of days: the clock's) while games are to come
    if summary.status != "finished" and shown.forfeit_after:
        facts.append(_("first move within {time}").format(time=duration_words(shown.forfeit_after)))
    y = 3
    for line in joined_lines([fact for fact in facts if fact], room, " · ")[:2]:
        canvas.put(3, y, line, "class:dim")
        y += 1
    chosen = tours.selected_player() if tours.is_director(me) else None
    names = [
        (f"[{p.name}]" if p.name == chosen and summary.status != "finished" else p.name)
        + (" " + _("(out)") if p.withdrawn else "")
        for p in shown.players
    ]
    who = _("Players ({count}): {names}").format(
        count=len([p for p in shown.players if not p.withdrawn]), names=", ".join(names) or "-"
    )
    lines = textwrap.wrap(who, room)
    if len(lines) > 2:
        lines = lines[:2]
        lines[1] = cut(lines[1] + " …", room)
        if chosen is not None and f"[{chosen}]" not in " ".join(lines):
            # the director's choice is seen even where the names go on past two lines
            lines[1] = cut(f"… [{chosen}] …", room)
    for line in lines:
        canvas.put(3, y, line, "class:value")
        y += 1
    games = tours.shown_games()
    stand_rows = min(len(shown.standings), max(height - y - 4 - len(games), 3))
    if shown.standings:
        place, player, pts = "#", _("player"), _("points")
        # the tie-breaks' short names as the page has them, in the language (German DV, S)
        bh, sb, de, wins = _("Bh"), _("SB"), _("DE"), _("W")
        head = f"{place:>3} {player:<20} {cut(pts, 7):>7} {bh:>5} {sb:>5} {de:>4} {wins:>3}"
        canvas.put(3, y, head[:room], "class:label")
        y += 1
        for entry in shown.standings[:stand_rows]:
            row = (
                f"{entry.place:>3} {cut(entry.name, 20):<20} {points(entry.points):>7}"
                f" {points(entry.buchholz):>5} {points(entry.sonneborn_berger):>5}"
                f" {points(entry.direct_encounter):>4} {entry.wins:>3}"
            )
            if entry.withdrawn:
                row += " " + _("(out)")
            mine = entry.name == me
            canvas.put(3, y, row[:room], "class:value" if mine else "")
            y += 1
    elif summary.status == "open":
        canvas.put(3, y, _("Not started yet: j joins, s starts (the director)."), "class:dim")
        y += 1
    current = tours.shown_round()
    if current is None or y >= height - 1:
        return
    title = _("Round {number}").format(number=current.number)
    if current.bye:
        title += "  " + _("bye: {name}").format(name=current.bye)
    canvas.put(1, y, cut(title, width - 2), "class:title")
    y += 1
    rows = max(height - y - 1, 1)
    first = max(0, tours.game_cursor - rows + 1)
    for i, game in enumerate(games[first : first + rows], start=first):
        selected = i == tours.game_cursor
        mine = me in (game.white, game.black)
        row = (
            f"{game.board:>3} {cut(game.white, 20):<20} - {cut(game.black, 20):<20}"
            f" {cut(result_words(game, summary.closed), 14):<14} {game.table_id or ''}"
        )
        style = "class:selected" if selected else ("class:value" if mine else "")
        canvas.put(1, y, (("> " if selected else "  ") + row)[: width - 2], style)
        y += 1
