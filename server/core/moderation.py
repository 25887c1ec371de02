"""Version 4's moderation in the core: the moderators the operator names, their actions (a mute,
a table closed, an account disabled, an address or network banned, a report closed), the
players' reports, and the moderation log that keeps every one of them with its reason.

What each action does, and does not:
- mute: the player's chat (in the lobby and at tables) is refused with `muted` and the time it
  ends, and reaches nobody, until then; their connections are told (`moderation_note`).
- close_table: a game under way ends as abandoned (no winner, never rated: server/core/
  archive.py), its result and record stored and archived like any other game's; then the table
  closes, its players and spectators told (table_closed `closed_by_moderator`). A tournament
  counts the game as a draw (its director may act on it).
- disable: the account cannot log in; its login tokens are dropped and its connections logged
  out. Its games under way are left as they are, stored: they go on by their clocks, and the
  opponent may claim a game its player no longer comes back to, as for anyone who leaves (a
  moderator who wants one ended at once closes its table). `enable` undoes it.
- ban: a connection from the address or network is refused before hello with
  `address_banned`, and those open from it are closed, until the ban ends or is lifted.
- close_tournament: the tournament ends at once, its standings as they stand; its games under
  way end as close_table's do (abandoned, unrated), and take no result in it; its players and
  director are told (`player_note` `tournament_closed`). hand_tournament: another account
  directs it (its director gone, say), told so (`tournament_director`). The operator does both
  from the command line (kahuna-server tournaments), applied here (`operator_actions`).
- ban_player: a ban of the networks of the connections the player has open now (an IPv4
  address alone, an IPv6 address's /64, as the login throttle counts a network), stored as
  bans with the player's key beside them; the moderator, the panel and the log see only the
  player's name. A player with no connection open cannot be banned so: the addresses of their
  past logins are kept only as salted hashes, which name no network.

A moderator cannot mute, disable or ban themselves, nor mute or disable another moderator (the
operator takes a moderator's account away first). Mutes and bans end by the wall clock: they are
looked at when used, and those over are dropped at a start. Nothing here removes a stored game
or result.
"""

from __future__ import annotations

import ipaddress
import logging
from collections import deque
from collections.abc import Iterable
from typing import Any

from protocol.errors import ErrorCode
from protocol.moderation_messages import (
    OPERATOR,
    CloseReport,
    Moderate,
    Moderation,
    ModerationEntry,
    ModerationNote,
    ReportChatLine,
    ReportInfo,
    ReportPlayer,
    Sanction,
)
from server.core.accounts import Account
from server.core.context import Context
from server.core.effects import CLOSE_POLICY
from server.core.lifecycle import Lifecycle
from server.core.lobby_chat import LobbyChatRoom
from server.core.logins import Logins
from server.core.names import name_key
from server.core.play import Play
from server.core.session import Session
from server.core.sessions import clean_text, logged_in_account
from server.core.store import (
    ModerationLogOp,
    ReportClosedOp,
    ReportOp,
    ReportRow,
    SanctionGoneOp,
    SanctionOp,
    SanctionRow,
    StoredModeration,
    TournamentAction,
    TournamentActionDoneOp,
)
from server.core.table import Closing, TableError
from server.core.tournament_desk import TournamentDesk
from shared.types import Termination

log = logging.getLogger(__name__)

REASON_MAX = 200  # characters of a reason or a note
MUTE_SECONDS = (60, 30 * 86400)  # the shortest and longest mute
BAN_SECONDS = (60, 365 * 86400)
LOG_SHOWN = 100  # the latest lines of the log a moderator is sent
REPORTS_SHOWN = 50  # the oldest open reports a moderator is sent (each with its chat lines)
CONTEXT_LINES = 20  # chat lines kept with a report, from the lobby and from the table
OPEN_REPORTS_EACH = 5  # open reports one player may have made
# a table a moderator closed, alone or with its tournament: the words version 2 on know
CLOSED = Closing("closed_by_moderator", "a moderator closed the table")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def bad(reason: str, english: str) -> TableError:
    return TableError.refused(ErrorCode.BAD_MODERATION, reason, english)


def network_of(text: str) -> Network | None:
    """An address or network in CIDR form (host bits set are cleared), or None."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        return None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # an IPv4 client on a dual-stack socket
    return address


class ModerationDesk:
    def __init__(
        self,
        ctx: Context,
        logins: Logins,
        tables: Lifecycle,
        play: Play,
        chat: LobbyChatRoom,
        tournaments: TournamentDesk,
    ) -> None:
        self.ctx = ctx
        self.logins = logins
        self.tables = tables
        self.play = play
        self.chat = chat
        self.tournaments = tournaments
        self.moderators: set[str] = set()  # account keys
        self.mutes: dict[str, SanctionRow] = {}  # by account key
        self.bans: dict[str, tuple[Network, SanctionRow]] = {}  # by network, CIDR form
        self.reports: dict[int, ReportRow] = {}  # the open ones
        self.log: deque[ModerationLogOp] = deque(maxlen=LOG_SHOWN)
        self.last_report = 0

    # ----- a start, and the operator's commands -------------------------------------------------

    def restore(self, stored: StoredModeration) -> None:
        ctx = self.ctx
        self.moderators = set(stored.moderators)
        for row in stored.sanctions:
            if row.until <= ctx.wall:
                ctx.write(SanctionGoneOp(row.kind, row.target))  # over while the server was down
            elif row.kind == "mute":
                self.mutes[row.target] = row
            else:
                network = network_of(row.target)
                if network is not None:
                    self.bans[str(network)] = (network, row)
        self.reports = {r.report_id: r for r in stored.open_reports}
        self.log.extend(stored.log)
        self.last_report = stored.last_report

    def moderators_now(self, keys: Iterable[str]) -> None:
        """The moderators as the database now names them (the operator's `kahuna-server accounts
        moderator`, made while this server runs): a new one's connections get the panel, one
        no longer a moderator's are told."""
        now = set(keys)
        if now == self.moderators:
            return
        granted, revoked = now - self.moderators, self.moderators - now
        self.moderators = now
        ctx = self.ctx
        for key in sorted(granted | revoked):  # the operator's command wrote its log line
            action = "moderator" if key in granted else "moderator_revoked"
            name = ctx.accounts.name_of(key)
            self.log.append(ModerationLogOp(ctx.wall, OPERATOR, action, name, ""))
        state = self.state()
        for session in self._sessions_of(granted):
            ctx.send(session.member, state)
        note = ModerationNote("moderator_revoked", None, None)
        for session in self._sessions_of(revoked):
            ctx.send(session.member, note)

    def logged_in(self, session: Session) -> None:
        """A moderator's version-4 connection gets the panel at login."""
        if session.account in self.moderators and session.version >= 4:
            self.ctx.send(session.member, self.state())

    # ----- what the rest of the server asks -----------------------------------------------------

    def banned(self, address: str, wall: float) -> bool:
        """Whether a connection from this address is refused."""
        if not self.bans:
            return False
        found = _address(address)
        if found is None:
            return False
        return any(found in network and row.until > wall for network, row in self.bans.values())

    def check_chat(self, session: Session) -> None:
        """Refuses the chat of a muted account's connection, saying until when."""
        if session.account is None:
            return
        row = self.mutes.get(session.account)
        if row is None or row.until <= self.ctx.wall:
            return
        until = str(int(row.until))
        raise TableError.refused(
            ErrorCode.MUTED, "muted", f"a moderator muted you until {until} (unix time)",
            {"until": until},
        )  # fmt: skip

    # ----- the messages -------------------------------------------------------------------------

    def _moderator(self, session: Session) -> Account:
        account = None if session.account is None else self.ctx.accounts.get(session.account)
        if account is None or account.key not in self.moderators:
            raise TableError(ErrorCode.NOT_MODERATOR, "only the server's moderators may do that")
        return account

    def get(self, session: Session) -> None:
        self._moderator(session)
        self.ctx.send(session.member, self.state())

    def moderate(self, session: Session, message: Moderate, now: float) -> None:
        moderator = self._moderator(session)
        reason = _words(message.reason, "no_reason", "give a reason (at most 200 characters)")
        ctx, wall = self.ctx, self.ctx.wall
        until: float | None = None
        given: str | None = None  # hand_tournament: to whom
        target = message.target.strip()
        match message.action:
            case "mute" | "unmute" | "disable" | "enable":
                account = self._player(target, moderator)
                if message.action == "mute":
                    until = wall + _seconds(message.seconds, MUTE_SECONDS)
                    self._mute(account, until, reason, moderator)
                elif message.action == "unmute":
                    self._unmute(account)
                elif message.action == "disable":
                    if account.disabled:
                        raise bad("already_disabled", "that account is disabled already")
                    account.disabled = True
                    ctx.write(account.op())
                    self.logins.logged_out_everywhere(account, "account_changed")
                else:
                    if not account.disabled:
                        raise bad("not_disabled", "that account is not disabled")
                    account.disabled = False
                    ctx.write(account.op())
                shown = account.name
            case "ban":
                network = self._network(target)
                own = _address(session.address)
                if own is not None and own in network:
                    raise bad("self", "that would ban your own address")
                until = wall + _seconds(message.seconds, BAN_SECONDS)
                shown = str(network)
                row = SanctionRow("ban", shown, until, reason, moderator.name, wall)
                self.bans[shown] = (network, row)
                ctx.write(SanctionOp(row))
                self._close_banned(network)
            case "ban_player":
                account = self._player(target, moderator)
                networks = self._networks_of(account, session)
                until = wall + _seconds(message.seconds, BAN_SECONDS)
                for network in networks:
                    cidr = str(network)
                    row = SanctionRow("ban", cidr, until, reason, moderator.name, wall, account.key)
                    self.bans[cidr] = (network, row)
                    ctx.write(SanctionOp(row))
                for network in networks:
                    self._close_banned(network)
                shown = account.name
            case "unban_player":
                account = self._player(target, moderator)
                gone = [c for c, (_n, row) in self.bans.items() if row.player == account.key]
                if not gone:
                    raise bad("not_banned_player", "no ban by that player's name is in force")
                for cidr in sorted(gone):
                    del self.bans[cidr]
                    ctx.write(SanctionGoneOp("ban", cidr))
                shown = account.name
            case "unban":
                shown = str(self._network(target))
                if shown not in self.bans:
                    raise bad("not_banned", "that address or network is not banned")
                del self.bans[shown]
                ctx.write(SanctionGoneOp("ban", shown))
            case "close_table":
                table = ctx.lobby.tables.get(target)
                if table is None or table.closed:
                    raise TableError(ErrorCode.NO_SUCH_TABLE, "no open table has this id")
                if table.status == "playing":
                    self.play.end(table, Termination.ABANDONED, None, now)
                self.tables.close_table(table, CLOSED, now)
                shown = table.table_id
            case "close_tournament":
                self.tournaments.close(target, CLOSED, now)
                shown = target
            case "hand_tournament":
                director = self._account(message.name or "")
                self.tournaments.hand(target, director)
                shown, given = target, director.name
        self._logged(moderator.name, message.action, shown, reason, until, given)

    def operator_actions(self, actions: list[TournamentAction], now: float) -> None:
        """The operator's commands on tournaments (kahuna-server tournaments), made while this
        server ran or before it started: each applied as a moderator's would be, and logged as
        the operator's; one that no longer fits (the tournament ended meanwhile, the account
        gone) is only said in the server's log. Each is marked done either way."""
        ctx = self.ctx
        for action in actions:
            try:
                if action.action == "close":
                    self.tournaments.close(action.tournament_id, CLOSED, now)
                    given = None
                else:
                    account = ctx.accounts.get(action.director or "")
                    if account is None:
                        raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
                    self.tournaments.hand(action.tournament_id, account)
                    given = account.name
            except TableError as exc:
                log.warning("operator: tournament %s: %s not done: %s", action.tournament_id,
                            action.action, exc.message)  # fmt: skip
            else:
                logged = "close_tournament" if action.action == "close" else "hand_tournament"
                self._logged(OPERATOR, logged, action.tournament_id, action.reason, None, given)
            ctx.write(TournamentActionDoneOp(action.seq, ctx.wall))

    def _account(self, name: str) -> Account:
        account = self.ctx.accounts.get(name_key(clean_text(name)))
        if account is None:
            raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
        return account

    def _player(self, name: str, moderator: Account) -> Account:
        account = self._account(name)
        if account.key == moderator.key:
            raise bad("self", "a moderator does not moderate themselves")
        if account.key in self.moderators:
            raise bad("moderator", "another moderator's account is the operator's to change")
        return account

    def _network(self, text: str) -> Network:
        network = network_of(text)
        if network is None:
            raise bad("bad_network", "not an address or a network (like 203.0.113.0/24)")
        return network

    def _networks_of(self, account: Account, moderator: Session) -> list[Network]:
        """The networks of the player's connections open now, none holding the moderator's own
        address."""
        networks: dict[str, Network] = {}
        for session in self._sessions_of({account.key}, every_version=True):
            address = _address(session.address)
            if address is not None:
                prefix = 32 if address.version == 4 else 64
                network = ipaddress.ip_network(f"{address}/{prefix}", strict=False)
                networks[str(network)] = network
        if not networks:
            raise bad(
                "no_connection",
                "that player has no connection open: only an open connection's address is known",
            )
        own = _address(moderator.address)
        if own is not None and any(own in network for network in networks.values()):
            raise bad("self", "that would ban your own address")
        return [networks[cidr] for cidr in sorted(networks)]

    def _mute(self, account: Account, until: float, reason: str, moderator: Account) -> None:
        row = SanctionRow("mute", account.key, until, reason, moderator.name, self.ctx.wall)
        self.mutes[account.key] = row
        self.ctx.write(SanctionOp(row))
        note = ModerationNote("muted", until, reason)
        for session in self._sessions_of({account.key}):
            self.ctx.send(session.member, note)

    def _unmute(self, account: Account) -> None:
        row = self.mutes.get(account.key)
        if row is None or row.until <= self.ctx.wall:
            raise bad("not_muted", "that player is not muted")
        del self.mutes[account.key]
        self.ctx.write(SanctionGoneOp("mute", account.key))
        note = ModerationNote("unmuted", None, None)
        for session in self._sessions_of({account.key}):
            self.ctx.send(session.member, note)

    def _close_banned(self, network: Network) -> None:
        """The connections open from a network just banned are closed, told why."""
        ctx = self.ctx
        for session in sorted(ctx.sessions.values(), key=lambda s: s.member):
            address = _address(session.address)
            if address is not None and address in network and not session.closing:
                ctx.error(session.member, ErrorCode.ADDRESS_BANNED, "this address is banned")
                ctx.close(session, CLOSE_POLICY, "address banned")

    def report(self, session: Session, message: ReportPlayer) -> None:
        ctx = self.ctx
        reporter = logged_in_account(ctx, session, "log in to report a player")
        reported = ctx.accounts.get(name_key(clean_text(message.name)))
        if reported is None:
            raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
        if reported.key == reporter.key:
            raise bad("self", "you cannot report yourself")
        reason = _words(message.reason, "no_reason", "give a reason (at most 200 characters)")
        mine = [r for r in self.reports.values() if r.reporter == reporter.key]
        if any(r.account == reported.key for r in mine):
            raise bad("already_reported", "your report of that player is open already")
        if len(mine) >= OPEN_REPORTS_EACH:
            raise bad("too_many_reports", "you have as many open reports as you may")
        chat: list[list[object]] = [
            ["lobby", line.sender, line.text, line.at]
            for _key, line in list(self.chat.lines)[-CONTEXT_LINES:]
        ]
        table = None if message.table_id is None else ctx.lobby.tables.get(message.table_id)
        if table is not None and session.member in table.members():
            # what the reporter could read there: a player does not see the spectators' chat
            # while the game runs
            chat += [
                ["table", line.sender, line.text, None]
                for line in table.chat_for(session.member)[-CONTEXT_LINES:]
            ]
        self.last_report += 1
        row = ReportRow(
            self.last_report, ctx.wall, reporter.key, reported.key, reason, message.table_id, chat
        )
        self.reports[row.report_id] = row
        ctx.write(ReportOp(row))
        ctx.send(session.member, ModerationNote("reported", None, None))
        self._tell_moderators()

    def close_report(self, session: Session, message: CloseReport) -> None:
        moderator = self._moderator(session)
        row = self.reports.get(message.report_id)
        if row is None:
            raise bad("no_such_report", "no open report has this number")
        note = _words(message.note, "no_note", "say how it was dealt with (at most 200 characters)")
        del self.reports[row.report_id]
        self.ctx.write(ReportClosedOp(row.report_id, moderator.name, note, self.ctx.wall))
        self._logged(moderator.name, "close_report", str(row.report_id), note, None)

    # ----- the log and the panel ----------------------------------------------------------------

    def _logged(
        self,
        moderator: str,
        action: str,
        target: str,
        reason: str,
        until: float | None,
        name: str | None = None,
    ) -> None:
        op = ModerationLogOp(self.ctx.wall, moderator, action, target, reason, until, name)
        log.info("moderation: %s %s %s: %s", moderator, action, target, reason)
        self.log.append(op)
        self.ctx.write(op)
        self._tell_moderators()

    def _tell_moderators(self) -> None:
        sessions = self._sessions_of(self.moderators)
        if sessions:
            state = self.state()
            self.ctx.send_all([(s.member, state) for s in sessions])

    def _sessions_of(self, keys: set[str], every_version: bool = False) -> list[Session]:
        """The version-4 connections (or those of any version) logged in to these accounts."""
        return [
            s
            for s in self.ctx.account_sessions.of_all(keys)
            if (every_version or s.version >= 4) and not s.closing
        ]

    def state(self) -> Moderation:
        ctx = self.ctx
        wall = ctx.wall
        name_of = ctx.accounts.name_of
        reports = [
            ReportInfo(
                r.report_id, name_of(r.reporter), name_of(r.account), r.reason, r.table_id, r.at,
                [_chat_line(line) for line in r.chat],
            )
            for r in sorted(self.reports.values(), key=lambda r: r.report_id)[:REPORTS_SHOWN]
        ]  # fmt: skip
        log = [
            ModerationEntry(e.at, e.moderator, e.action, e.target, e.reason, e.until, e.name)  # type: ignore[arg-type]  # a LoggedAction, as written
            for e in reversed(self.log)
        ]
        mutes = [
            Sanction(name_of(key), row.until, row.reason, row.moderator)
            for key, row in sorted(self.mutes.items())
            if row.until > wall
        ]
        bans = [
            Sanction(cidr, row.until, row.reason, row.moderator)
            for cidr, (_network, row) in sorted(self.bans.items())
            if row.until > wall and row.player is None
        ]
        # a ban by player: one line by the player's name, whatever their networks
        by_player: dict[str, SanctionRow] = {}
        for _network, row in self.bans.values():
            if row.player is not None and row.until > wall:
                kept = by_player.get(row.player)
                if kept is None or (row.at, row.until) > (kept.at, kept.until):
                    by_player[row.player] = row
        bans += [
            Sanction(name_of(key), row.until, row.reason, row.moderator, of_player=True)
            for key, row in sorted(by_player.items())
        ]
        disabled = sorted(a.name for a in ctx.accounts.by_key.values() if a.disabled)
        return Moderation(reports, log, mutes, bans, disabled)


def _chat_line(line: list[Any]) -> ReportChatLine:
    place, sender, text, at = line
    return ReportChatLine(place, str(sender), str(text), None if at is None else float(at))


def _words(text: str, reason: str, english: str) -> str:
    cleaned = clean_text(text)
    if not cleaned or len(cleaned) > REASON_MAX:
        raise bad(reason, english)
    return cleaned


def _seconds(given: int | None, limits: tuple[int, int]) -> float:
    low, high = limits
    if given is None or not low <= given <= high:
        raise bad("bad_duration", f"a time from {low} s to {high // 86400} days")
    return float(given)
