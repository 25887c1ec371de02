"""Moderation in the terminal client (protocol version 4): a player's report, a moderator's
commands on the lobby's command line, and what the client keeps of the moderation panel the
server sends its moderators. Pure: client/model/lobby_commands.py reads the line, the players'
state (client/model/players.py) keeps the panel, client/screens/moderation_screen.py shows it.

    report NAME REASON                   (everyone logged in; at a table, about its game)
    mute NAME 30m REASON                 unmute NAME REASON
    close TABLE REASON                   (a game under way ends abandoned, unrated)
    disable NAME REASON                  enable NAME REASON
    ban 203.0.113.0/24 1d REASON         unban 203.0.113.0/24 REASON
    ban NAME 1d REASON                   unban NAME REASON
                                         (the addresses of NAME's open connections, unseen)
    closetournament ID REASON            (ended now, its standings as they stand)
    handtournament ID NAME REASON        (NAME directs it from now on)
    reports                              closereport N NOTE
    modlog

A time is a number and its unit: s, m, h or d (90s, 30m, 2h, 7d).
"""

from __future__ import annotations

import ipaddress
import time

import attrs

from client.language.i18n import _, pgettext
from protocol.messages import ClientMessage
from protocol.moderation_messages import (
    CloseReport,
    GetModeration,
    Moderate,
    ModerationAction,
    ReportPlayer,
)

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
# the commands that take a name, a table or an address, then (for some) a time, then a reason
WITH_TIME: dict[str, ModerationAction] = {"mute": "mute", "ban": "ban"}
WITHOUT_TIME: dict[str, ModerationAction] = {
    "unmute": "unmute", "close": "close_table", "disable": "disable", "enable": "enable",
    "unban": "unban",
}  # fmt: skip


def local_words() -> dict[str, str]:
    """Each moderation command word -> its word in the chosen language."""
    words = {
        "report": pgettext("command", "report"),
        "mute": pgettext("command", "mute"),
        "unmute": pgettext("command", "unmute"),
        "close": pgettext("command", "close"),
        "disable": pgettext("command", "disable"),
        "enable": pgettext("command", "enable"),
        "ban": pgettext("command", "ban"),
        "unban": pgettext("command", "unban"),
        "reports": pgettext("command", "reports"),
        "closereport": pgettext("command", "closereport"),
        "modlog": pgettext("command", "modlog"),
        "closetournament": pgettext("command", "closetournament"),
        "handtournament": pgettext("command", "handtournament"),
    }
    return {k: v.lower() for k, v in words.items()}


def seconds_of(text: str) -> int | None:
    """A time like 30m in seconds; None if it is not one."""
    unit = UNITS.get(text[-1:].lower())
    number = text[:-1]
    if unit is None or not number.isdigit():
        return None
    return int(number) * unit


@attrs.frozen
class ModerationRequest:
    messages: tuple[ClientMessage, ...] = ()
    panel: str | None = None  # "reports" or "modlog"
    refused: str | None = None


def moderation_request(
    command: str, word: str, rest: str, table_id: str | None = None
) -> ModerationRequest | None:
    """What a moderation command asks for (`command` in English, `word` as typed); None when
    the line is no moderation command."""
    args = rest.split()
    if command == "report":
        if len(args) < 2:
            return ModerationRequest(refused=_("{command} NAME REASON").format(command=word))
        reason = rest.split(None, 1)[1]
        return ModerationRequest((ReportPlayer(args[0], reason, table_id),))
    if command == "reports":
        return ModerationRequest((GetModeration(),), panel="reports")
    if command == "modlog":
        return ModerationRequest((GetModeration(),), panel="modlog")
    if command == "closereport":
        if len(args) < 2 or not args[0].isdigit():
            return ModerationRequest(refused=_("{command} NUMBER NOTE").format(command=word))
        note = rest.split(None, 1)[1]
        return ModerationRequest((CloseReport(int(args[0]), note),), panel="reports")
    if command == "closetournament":
        if len(args) < 2:
            return ModerationRequest(refused=_("{command} ID REASON").format(command=word))
        reason = rest.split(None, 1)[1]
        return ModerationRequest((Moderate("close_tournament", args[0], reason),))
    if command == "handtournament":
        if len(args) < 3:
            return ModerationRequest(refused=_("{command} ID NAME REASON").format(command=word))
        reason = rest.split(None, 2)[2]
        return ModerationRequest((Moderate("hand_tournament", args[0], reason, name=args[1]),))
    if command in WITH_TIME:
        if len(args) < 3:
            return ModerationRequest(
                refused=_("{command} {target} TIME REASON (a time: 30m, 2h, 7d)").format(
                    command=word, target=_target(command)
                )
            )
        seconds = seconds_of(args[1])
        if seconds is None:
            return ModerationRequest(
                refused=_("{time}: not a time (like 90s, 30m, 2h or 7d)").format(time=args[1])
            )
        reason = rest.split(None, 2)[2]
        action = _by_player(WITH_TIME[command], args[0])
        return ModerationRequest((Moderate(action, args[0], reason, seconds),))
    if command in WITHOUT_TIME:
        if len(args) < 2:
            return ModerationRequest(
                refused=_("{command} {target} REASON").format(command=word, target=_target(command))
            )
        reason = rest.split(None, 1)[1]
        action = _by_player(WITHOUT_TIME[command], args[0])
        return ModerationRequest((Moderate(action, args[0], reason, None),))
    return None


def _by_player(action: ModerationAction, target: str) -> ModerationAction:
    """`ban` and `unban` of what is not an address or a network: of a player's addresses."""
    if action not in ("ban", "unban"):
        return action
    try:
        ipaddress.ip_network(target, strict=False)
    except ValueError:
        return "ban_player" if action == "ban" else "unban_player"
    return action


def _target(command: str) -> str:
    if command in ("ban", "unban"):
        return _("ADDRESS|NAME")
    if command == "close":
        return _("TABLE")
    return "NAME"


def until_words(until: float) -> str:
    """When a mute or a ban ends, in local time: the time alone today, else the date too."""
    stamp = time.localtime(until)
    if time.strftime("%Y-%m-%d", stamp) == time.strftime("%Y-%m-%d"):
        return time.strftime("%H:%M", stamp)
    return time.strftime("%Y-%m-%d %H:%M", stamp)
