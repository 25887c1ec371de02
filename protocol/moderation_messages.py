"""Version 4's messages of moderation as frozen attrs classes: a player's report of another, a
moderator's actions (mute, close a table, disable an account, ban an address or a network, end a
tournament or give it another director) and the moderation panel's state; docs/protocol.md,
Version 4, Moderation, says who sends what.

A moderator is an account the operator named (`kahuna-server accounts moderator NAME`); only
moderators get `moderation`, at login and at every change, and only they may send `moderate`,
`get_moderation` and `close_report` (anyone else: not_moderator). Any logged-in player may
`report_player`."""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from protocol.fields import since_v4

ModerationAction = Literal[
    "mute", "unmute", "close_table", "disable", "enable", "ban", "unban", "ban_player",
    "unban_player", "close_tournament", "hand_tournament",
]  # fmt: skip
# what the log keeps: the moderators' actions (and the operator's on tournaments), a report
# closed, and the operator's grants
LoggedAction = Literal[
    "mute", "unmute", "close_table", "disable", "enable", "ban", "unban", "ban_player",
    "unban_player", "close_tournament", "hand_tournament", "close_report", "moderator",
    "moderator_revoked",
]  # fmt: skip
# who acted, in a log entry of the operator's own commands (a tournament ended or given another
# director from the command line, a moderator made or unmade): a code, not a name, which clients
# say as a role in their reader's language; no account may be named so
OPERATOR = "operator"
ModerationNoteName = Literal["muted", "unmuted", "reported", "moderator_revoked"]
ChatPlace = Literal["lobby", "table"]

# ----- client to server -------------------------------------------------------------------


@attrs.frozen
class Moderate:
    """Version 4, a moderator's action, always with a `reason` (kept in the log): `mute` the
    player `target` in the chat for `seconds`, `unmute` them; `close_table` the table `target`
    (a game under way ends as abandoned, unrated); `disable` the account `target` (it cannot
    log in; its connections are logged out), `enable` it again; `ban` the address or network
    `target` (an IP address or CIDR, e.g. 203.0.113.0/24) for `seconds`, `unban` it;
    `ban_player` the addresses of the connections the player `target` has open now (never shown
    to the moderator) for `seconds`, `unban_player` lifts those; `close_tournament` the
    tournament `target` (it ends at once with its standings as they stand, its games under way
    abandoned, unrated, their tables closed), `hand_tournament` gives the tournament `target`
    to the account `name` as its director. The answer: `moderation`, to every moderator
    connected."""

    TYPE: ClassVar[str] = "moderate"
    action: ModerationAction
    target: str
    reason: str
    seconds: int | None = since_v4(None)
    name: str | None = since_v4(None)  # hand_tournament: the new director's account


@attrs.frozen
class ReportPlayer:
    """Version 4: report the player `name` to the moderators, with a `reason`; from a table
    (`table_id`, whose chat is kept with the report) or the lobby (nil: the lobby's chat is
    kept). Needs an account. The answer: `moderation_note` `reported`."""

    TYPE: ClassVar[str] = "report_player"
    name: str
    reason: str
    table_id: str | None = since_v4(None)


@attrs.frozen
class GetModeration:
    """Version 4, a moderator: the panel's state now (answer: `moderation`)."""

    TYPE: ClassVar[str] = "get_moderation"


@attrs.frozen
class CloseReport:
    """Version 4, a moderator: the open report `report_id` is dealt with; the `note` says how
    (kept in the log). The answer: `moderation`, to every moderator connected."""

    TYPE: ClassVar[str] = "close_report"
    report_id: int
    note: str


# ----- server to client -------------------------------------------------------------------


@attrs.frozen
class ReportChatLine:
    """A line of chat kept with a report as it stood when the report was made: the lobby's
    (`at` its unix time) or the table's (`at` nil)."""

    place: ChatPlace
    sender: str
    text: str
    at: float | None


@attrs.frozen
class ReportInfo:
    report_id: int
    reporter: str
    name: str  # the player reported
    reason: str
    table_id: str | None  # where it was made from (nil: the lobby)
    at: float  # unix time
    chat: list[ReportChatLine]  # the lines around it, oldest first


@attrs.frozen
class ModerationEntry:
    """One line of the moderation log: who (a moderator's name, or OPERATOR), what, to whom
    or what (a name, a table id, an address or network, a report's number, a tournament's id),
    why, until when (a mute or a ban), and to whom a tournament was given (`name`,
    hand_tournament)."""

    at: float
    moderator: str
    action: LoggedAction
    target: str
    reason: str
    until: float | None
    name: str | None = since_v4(None)


@attrs.frozen
class Sanction:
    """A mute (`target` a player's name) or a ban (`target` an address or network) in force;
    a ban by player (`of_player` true) has the player's name as `target`: their addresses are
    never sent."""

    target: str
    until: float
    reason: str
    moderator: str
    of_player: bool = since_v4(False)


@attrs.frozen
class Moderation:
    """Version 4, to moderators only: the open reports (oldest first), the latest lines of the
    log (newest first), the mutes and bans in force, and the accounts disabled by name."""

    TYPE: ClassVar[str] = "moderation"
    reports: list[ReportInfo]
    log: list[ModerationEntry]
    mutes: list[Sanction]
    bans: list[Sanction]
    disabled: list[str]


@attrs.frozen
class ModerationNote:
    """Version 4, to one player: `muted` (until `until`, for `reason`), `unmuted`, `reported`
    (their report was received), `moderator_revoked` (their account is no longer a
    moderator's: the panel goes)."""

    TYPE: ClassVar[str] = "moderation_note"
    note: ModerationNoteName
    until: float | None
    reason: str | None
