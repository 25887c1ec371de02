"""The lobby: the server's tables, live, and the new-table form."""

from __future__ import annotations

import textwrap

from client.language.i18n import N_, _, ngettext, pgettext
from client.language.words import first_word, level_word, seat_name, status_word
from client.model.state import ClientState
from client.model.table import describe_control, short_control
from client.screens.canvas import Canvas
from client.screens.players_screen import chat_rows, render_panel
from client.screens.status_lines import header, message_lines
from client.screens.tournaments_screen import render_tournaments
from protocol.fields import PlayerInfo, TableInfo, TableOptions
from shared.types import Seat


def _seat_text(info: PlayerInfo | None, level: str | None = None) -> str:
    if info is None:
        return _("(free)")
    if info.computer:
        return f"{info.name} ({level_word(level)})" if level else info.name + " " + _("[AI]")
    name = info.name if info.rating is None else f"{info.name} {info.rating}"
    return name + ("" if info.connected else " " + _("(away)"))


def _table_options(options: TableOptions, table: TableInfo | None = None) -> str:
    parts = []
    if table is not None and table.clock is not None:
        parts.append(short_control(table.clock))
    if table is not None and not table.hints:
        parts.append(pgettext("lobby options", "nohint"))
    if table is not None and table.rated:
        parts.append(pgettext("lobby options", "rated"))
    if options.variant1:
        parts.append("V1")
    if options.variant2:
        parts.append("V2")
    if options.handicap_seat is not None and options.handicap_bridges:
        parts.append(f"H:{options.handicap_seat[0].upper()}+{options.handicap_bridges}")
    return " ".join(parts) or _("standard")


# The lobby's columns, which fit 80 columns in each language: a seat holds "Computer (normale)",
# the options "3d/t Wertung" (their words are short ones of their own), the status "in gioco",
# the last column's title is at most 8 letters. What is longer (a long name, several options in
# German) goes on in its column on the lines under the table's first, never cut.
SEAT_W, OPTIONS_W, STATUS_W, WATCH_W = 18, 12, 8, 5


def _cell(text: str, width: int) -> list[str]:
    """A column's text on as many lines as it needs, each at most `width` long."""
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def table_lines(table: TableInfo, width: int, mine: str | None = None) -> list[str]:
    """One table of the lobby, on one line or more; `mine` names the seat this user holds a
    token for (marked "(yours)", or "(in use)" while another client of this user sits in it)."""
    level = table.level if table.vs_computer else None
    white = _seat_text(table.players.white, level)
    black = _seat_text(table.players.black, level)
    players = table.players
    for seat, info in (("white", players.white), ("black", players.black)):
        if mine == seat and info is not None:
            text = (_("(in use)") if info.connected else _("(yours)")) + " " + info.name
            white, black = (text, black) if seat == "white" else (white, text)
    options = _table_options(table.options, table)
    cells = [
        _cell(table.table_id, 8),
        _cell(white, SEAT_W),
        _cell(black, SEAT_W),
        _cell(options, OPTIONS_W),
        _cell(status_word(table.status), STATUS_W),
    ]
    widths = (8, SEAT_W, SEAT_W, OPTIONS_W, STATUS_W)
    lines = []
    for n in range(max(len(cell) for cell in cells)):
        parts = [
            f"{cell[n] if n < len(cell) else '':<{w}}"
            for cell, w in zip(cells, widths, strict=True)
        ]
        line = " ".join(parts) + (f" {table.spectators:>{WATCH_W}}" if n == 0 else "")
        lines.append(line.rstrip()[:width])
    return lines


def render_lobby(state: ClientState, width: int, height: int) -> Canvas:
    """The lobby above the key line: the server's tables, live, and the new-table form."""
    canvas = Canvas(width, height)
    if height < 3:
        return canvas
    canvas.blit(0, 0, header(state, width))
    lines = message_lines(state.message, width)
    full_height, height = height, height - len(lines) + 1  # the rest is laid out above it
    tournaments = state.tournaments.view is not None
    if (tournaments or state.accounts.panel != "tables") and not state.form_open:
        if tournaments:
            render_tournaments(canvas, state, width, height)
        else:
            render_panel(canvas, state, width, height)
        style = "class:msg.error" if state.message_kind == "error" else "class:msg"
        for i, line in enumerate(lines):
            canvas.put(0, full_height - len(lines) + i, line, style)
        return canvas
    chat = chat_rows(state, width) if not state.form_open else []
    height -= len(chat)
    y = 2
    canvas.put(1, y, _("Tables on this server"), "class:title")
    y += 1
    white, black = seat_name(Seat.WHITE), seat_name(Seat.BLACK)
    # translated outside the f-string, where the extraction of the messages sees them
    table_title, options_title, status_title = _("table"), _("options"), _("status")
    # the count of spectators: a word that fits above the numbers at 80 columns
    watch_title = pgettext("lobby column", "watching")
    columns = (
        f"{table_title:<8.8} {white:<{SEAT_W}} {black:<{SEAT_W}}"
        f" {options_title:<{OPTIONS_W}.{OPTIONS_W}} {status_title:<{STATUS_W}.{STATUS_W}} "
        + watch_title
    )
    canvas.put(3, y, columns, "class:label")
    y += 1
    if not state.tables:
        if state.connected:
            canvas.put(3, y, _("No tables yet: press n to create one."), "class:dim")
        else:  # nothing can be created meanwhile: say what is happening instead
            canvas.put(3, y, _("Not connected: waiting for the server..."), "class:dim")
        y += 1
    list_room = max(height - y - (FORM_HEIGHT + 2 if state.form_open else 3), 1)
    blocks = []
    for table in state.tables:
        blocks.append(table_lines(table, width - 4, state.own_seat(table)))
    # from the top, unless the selected table would not be in view: then it is the last one
    first, end = 0, min(state.selected + 1, len(blocks))
    while first < end - 1 and sum(len(b) for b in blocks[first:end]) > list_room:
        first += 1
    shown = 0
    for i, block in enumerate(blocks[first:], start=first):
        if shown + len(block) > list_room and i != first:
            break
        selected = i == state.selected
        style = "class:selected" if selected else ""
        for n, row in enumerate(block):
            canvas.put(1, y, ("> " if selected and n == 0 else "  ") + row, style)
            y += 1
        shown += len(block)
    y += 1
    if state.form_open:
        form_y = max(y, height - FORM_HEIGHT - 1)
        canvas.blit(0, form_y, render_form(state, width))
    else:
        intro = textwrap.wrap(_(LOBBY_INTRO), max(width - 2, 20))
        if height - y >= len(intro) + 2:
            for i, line in enumerate(intro):
                canvas.put(1, height - 2 - len(intro) + i, line, "class:dim")
    for i, (line, line_style) in enumerate(chat):
        canvas.put(1, height - 1 + i, line, line_style)
    style = "class:msg.error" if state.message_kind == "error" else "class:msg"
    for i, line in enumerate(lines):
        canvas.put(0, full_height - len(lines) + i, line, style)
    return canvas


FORM_HEIGHT = 13


def form_keys(state: ClientState) -> str:
    """The new-table form's keys that change an option, as the form shows them: the level's
    against the computer only, the rating's against a person on a server with accounts."""
    keys = ["c", "s", "f", "1", "2", "h", "t"]
    if state.form.vs_computer:
        keys.append("l")
    keys.append("i")
    if not state.form.vs_computer and state.accounts.accounts:
        keys.append("r")
    return " ".join(keys)


def render_form(state: ClientState, width: int) -> Canvas:
    form = state.form
    canvas = Canvas(width, FORM_HEIGHT)
    if form.handicap_seat is None:
        handicap = pgettext("handicap", "none")  # agrees with it (Italian: nessuno)
    else:
        handicap = ngettext(
            "{seat} places {n} free bridge", "{seat} places {n} free bridges", form.handicap_bridges
        ).format(seat=first_word(form.handicap_seat), n=form.handicap_bridges)
    rows = [
        (
            "c",
            _("Against the computer"),
            _("yes") if form.vs_computer else _("no (wait for a person)"),
        ),
        ("s", _("Your seat"), first_word(form.seat)),
        ("f", _("First to move"), first_word(form.first)),
        (
            "1",
            _("Variant 1 (no bridges at opponent's islands)"),
            _("on") if form.variant1 else _("off"),
        ),
        (
            "2",
            _("Variant 2 (drawn face-up cards lie open)"),
            _("on") if form.variant2 else _("off"),
        ),
        ("h", _("Handicap"), handicap),
        ("t", _("Time control"), describe_control(form.clock)),
    ]
    if form.vs_computer:
        rows.append(("l", _("The computer's level"), level_word(form.level)))
    hints = _("allowed") if form.hints else _("off (a courtesy between the players)")
    rows.append(("i", _("Hints"), hints))
    if not form.vs_computer and state.accounts.accounts:
        rated = _("yes, if both players have accounts") if form.rated else _("no")
        rows.append(("r", _("Rated"), rated))
    canvas.put(1, 0, _("New table"), "class:title")
    for i, (key, what, value) in enumerate(rows, start=1):
        x = canvas.put(3, i, f"[{key}] ", "class:key")
        x = canvas.put(x, i, f"{what}: ")
        canvas.put(x, i, value, "class:value")
    canvas.put(3, FORM_HEIGHT - 1, _("Enter: create and sit down   Esc: cancel"), "class:dim")
    return canvas


LOBBY_INTRO = N_(
    "Kahuna: two sorcerers build bridges between twelve islands. Hold more than half of an"
    " island's lines: your token goes on it and the other's bridges go. One card builds a"
    " bridge, two break one; three scorings decide the game. Press n for a new table"
    " (against the computer or a person), Enter to join."
)
LOBBY_KEYS = N_("↑↓ select  Enter join  w/b sit as White/Black  s watch  n new table  ^Q quit")
# with accounts on the server (version 3): the players' panels and the lobby's command line
# (the tournaments' key second: a narrow screen drops items from the middle, the later first)
ACCOUNT_KEYS = N_(
    "Enter join  T tournaments  n new  : command  g games  R ratings  c challenges  ' chat"
    "  F1 help  ^Q quit"
)
PANEL_KEYS = N_("↑↓ select  Enter open  Esc tables  : command  ^Q quit")
# the challenges': Enter accepts one at once, and x (declines, or withdraws one's own) is here only
CHALLENGE_KEYS = N_("↑↓ select  Enter accept  x decline or withdraw  Esc tables  ^Q quit")
