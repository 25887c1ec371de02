"""The lobby's two panels for a moderator (protocol version 4): the open reports, the selected
one's chat lines under the list as they stood when it was made; and the moderation log, newest
first, under the mutes, bans and disabled accounts in force. The commands that act are the lobby
line's (client/model/moderation.py)."""

from __future__ import annotations

import textwrap

from client.language.i18n import _
from client.language.words import moderation_action_words
from client.model.moderation import until_words
from client.model.state import ClientState
from client.screens.canvas import Canvas
from protocol.moderation_messages import Moderation, ModerationEntry, ReportInfo, Sanction


def render_moderation(canvas: Canvas, state: ClientState, width: int, height: int) -> None:
    people = state.accounts
    panel = people.moderation
    room = max(width - 4, 10)
    if people.panel == "reports":
        canvas.put(1, 2, _("Open reports"), "class:title")
        commands = _(
            "closereport N NOTE closes one. mute NAME 30m REASON, unmute NAME REASON,"
            " close TABLE REASON, disable/enable NAME REASON, ban ADDRESS|NAME 1d REASON,"
            " unban ADDRESS|NAME REASON. Esc: the tables"
        )
        on_tournaments = _(
            "closetournament ID REASON ends a tournament, handtournament ID NAME REASON gives it"
            " to NAME to direct (T, a tournament: C or H)"
        )
        said = textwrap.wrap(commands, room)[:3] + textwrap.wrap(on_tournaments, room)[:2]
        for y, line in enumerate(said, start=3):
            canvas.put(3, y, line, "class:dim")
        top = 3 + len(said)
        rows = [] if panel is None else [report_row(r, room) for r in panel.reports]
        empty = _("No open reports.")
    else:
        canvas.put(1, 2, _("Moderation log"), "class:title")
        rows = [] if panel is None else [log_row(e) for e in panel.log]
        empty = _("Nothing is in the log yet.")
        standing = [] if panel is None else in_force(panel.mutes, panel.bans, panel.disabled)
        for y, part in enumerate(standing, start=3):  # one line each, the rest cut
            canvas.put(3, y, part if len(part) <= room else part[: room - 1] + "…", "class:dim")
        top = 6
    y = top
    if not rows:
        for line in textwrap.wrap(empty, room):
            canvas.put(3, y, line, "class:dim")
            y += 1
        return
    # the list takes what the selected report's chat leaves (the log: the whole height)
    chat = _chat_lines(people.moderation, people.cursor, room) if people.panel == "reports" else []
    list_room = max(3, height - y - 2 - (len(chat) + 1 if chat else 0))
    first = max(0, people.cursor - list_room + 1)
    for i, row in enumerate(rows[first : first + list_room], start=first):
        selected = i == people.cursor
        mark = "> " if selected else "  "
        canvas.put(1, y, (mark + row)[: max(width - 2, 1)], "class:selected" if selected else "")
        y += 1
    if chat:
        y += 1
        fits = max(height - y - 2, 0)
        for line in chat[-fits:] if fits else []:
            canvas.put(3, y, line, "class:dim")
            y += 1


def report_row(report: ReportInfo, width: int) -> str:
    by = _("{name}, reported by {reporter} at {when}").format(
        name=report.name, reporter=report.reporter, when=until_words(report.at)
    )
    where = (
        "" if report.table_id is None else " " + _("(table {table})").format(table=report.table_id)
    )
    return f"{report.report_id:>3} {by}{where}: {report.reason}"[:width]


def _chat_lines(panel: Moderation | None, cursor: int, width: int) -> list[str]:
    if panel is None or not 0 <= cursor < len(panel.reports):
        return []
    report = panel.reports[cursor]
    lines = [_("The chat when it was reported:")]
    for line in report.chat:
        place = _("lobby") if line.place == "lobby" else _("table")
        lines += textwrap.wrap(
            f"[{place}] {line.sender}: {line.text}", width, subsequent_indent="    "
        )
    return lines


def log_row(entry: ModerationEntry) -> str:
    until = (
        ""
        if entry.until is None
        else " " + _("until {until}").format(until=until_words(entry.until))
    )
    reason = f": {entry.reason}" if entry.reason else ""
    when = until_words(entry.at)
    done = moderation_action_words(entry.moderator, entry.action, entry.target, entry.name)
    return f"{when}  {done}{until}{reason}"


def sanction_target(sanction: Sanction) -> str:
    """What a mute or ban is of: a name, a network, or a player's addresses (never shown)."""
    if sanction.of_player:
        return _("the addresses of {name}").format(name=sanction.target)
    return sanction.target


def in_force(mutes: list[Sanction], bans: list[Sanction], disabled: list[str]) -> list[str]:
    """The mutes, bans and disabled accounts in force, as a line's parts."""
    parts = []
    for label, found in ((_("Muted:"), mutes), (_("Banned:"), bans)):
        named = [f"{sanction_target(s)} ({until_words(s.until)})" for s in found]
        if named:
            parts.append(f"{label} {', '.join(named)}")
    if disabled:
        parts.append(_("Disabled:") + " " + ", ".join(disabled))
    return parts
