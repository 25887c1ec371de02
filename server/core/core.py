"""The server's session logic, free of I/O: ServerCore, fed every event the server sees and
answering each with the Effects to carry out (server/core/effects.py).

The events: a connection opened (`connect`), a frame received (`frame`), a connection gone
(`disconnect`), a connection the I/O layer is closing (`slow_reader`), a computer's chosen action
(`computer_command`), the passing of time (`tick`, when `next_wake` asks for it) and the tables
of a previous run (`restore`). Each comes with its time: `now` on the I/O layer's monotonic clock
(what the core's timers count in) and `wall`, unix time (what storage is stamped with). The core
reads no clock and draws its randomness (table ids, seat tokens, a random first player) from the
rng it was given, so the same events with the same seed give the same effects.

Here are the events and the dispatch of a client's messages; the rules live in the parts the core
is made of: server/core/sessions.py (connections, hello, rates), server/core/play.py (a game around
its moves), server/core/lifecycle.py (tables created, rematched, closed, restored),
server/core/seating.py (who is at a table: seats taken, taken back, left, games watched),
server/core/timers.py (what comes due when), all sharing server/core/context.py (the state, the
effects being gathered, and Context.table_changed, the one epilogue of every change of a table).

One rule makes locks unnecessary: the core (and every Table it holds) is only ever called from
one thread, the event loop's, and each call runs to its end without awaiting anything.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from protocol.account_messages import DeleteAccount, GetGameRecords
from protocol.analysis_messages import Analyse
from protocol.codec import decode_client, peek_type
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import PROTOCOL_VERSION
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    GetMailSettings,
    ResetPassword,
    SetEmail,
    SetMailSettings,
)
from protocol.messages import (
    Chat,
    Claim,
    ClientMessage,
    Command,
    CreateTable,
    DeclineDraw,
    GetRecord,
    Hello,
    Join,
    Leave,
    LobbySubscribe,
    LobbyUnsubscribe,
    OfferDraw,
    Reclaim,
    Rematch,
    Resign,
    Resync,
    Spectate,
)
from protocol.moderation_messages import CloseReport, GetModeration, Moderate, ReportPlayer
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    ChangePassword,
    GetGames,
    GetRatings,
    Ignore,
    LobbyChat,
    Login,
    Logout,
    Register,
    Resume,
)
from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    GetTournaments,
    JoinTournament,
    StartTournament,
    WatchTournament,
    WithdrawTournament,
)
from server.core.account_deletion import AccountDeletion
from server.core.archive import Archive
from server.core.challenges import ChallengeBoard
from server.core.config import ServerConfig
from server.core.context import Context
from server.core.effects import Effects, RecordsRead
from server.core.finished import FinishedGames
from server.core.game_download import GameDownload
from server.core.lifecycle import Lifecycle
from server.core.lobby import Lobby
from server.core.lobby_chat import LobbyChatRoom
from server.core.logins import Logins
from server.core.mail import LinkLook, MailDesk
from server.core.moderation import ModerationDesk
from server.core.play import Play
from server.core.seating import Seating
from server.core.session import AccountSessions, Session
from server.core.sessions import Sessions
from server.core.store import (
    AccountAction,
    StoredModeration,
    StoredPlayers,
    StoredTable,
    TournamentAction,
)
from server.core.table import Closing, MemberId, Table, TableError
from server.core.tournament_desk import FIRST_MOVE, STARTS, TELLS, TournamentDesk
from server.core.tournaments.swiss import SwissPairing
from shared.actions import Action
from shared.types import Termination

log = logging.getLogger(__name__)

# Connections and tables one tick of the sweep looks at: 5,000 tables took about 29 ms in one
# piece, a stall every second for the commands that came meanwhile.
SWEEP_CHUNK = 256


class ServerCore:
    def __init__(
        self,
        config: ServerConfig,
        *,
        rng: random.Random | None = None,
    ) -> None:
        # Every random choice of the core (table ids, tokens, first players, cards) is this rng's:
        # the shell's random.SystemRandom in the server, so that nothing can be predicted; a
        # seeded one in tests, so that the same events give the same effects.
        given = rng if rng is not None else config.rng
        if given is None:
            raise ValueError("the core needs an rng: ServerCore(config, rng=...) or config.rng")
        self._ctx = Context(config, given)
        self._sessions = Sessions(self._ctx)
        self._archive = Archive(self._ctx)
        self._finished = FinishedGames(self._ctx, self._archive)
        self._play = Play(self._ctx, self._archive)
        self._tables = Lifecycle(self._ctx, self._sessions, self._play)
        self._seating = Seating(self._ctx, self._sessions, self._play, self._tables)
        self._logins = Logins(self._ctx)
        self._lobby_chat = LobbyChatRoom(self._ctx)
        self._challenges = ChallengeBoard(self._ctx, self._tables)
        self._desk = TournamentDesk(self._ctx, self._tables, self._play)
        self._moderation = ModerationDesk(
            self._ctx, self._logins, self._tables, self._play, self._lobby_chat, self._desk
        )
        self._logins.on_login = self._logged_in
        self._mail = MailDesk(self._ctx, self._logins.reset_password)
        self._ctx.mail_notice = self._mail.notify
        self._deletion = AccountDeletion(
            self._ctx, self._logins, self._tables, self._archive, self._challenges, self._desk,
            self._lobby_chat,
        )  # fmt: skip
        self._download = GameDownload(self._ctx, self._archive)
        # what the sweep under way has yet to look at, the last first
        self._sweep_sessions: list[Session] = []
        self._sweep_tables: list[Table] = []

    @property
    def lobby(self) -> Lobby:
        """The open tables and the lobby's watchers (for tests and the host's counts)."""
        return self._ctx.lobby

    @property
    def sessions(self) -> dict[MemberId, Session]:
        """The connections, by member (for tests)."""
        return self._ctx.sessions

    @property
    def account_sessions(self) -> AccountSessions:
        """The connections by the account logged in on them (for tests)."""
        return self._ctx.account_sessions

    def _logged_in(self, session: Session) -> None:
        """A connection logged in: its player's challenges, and their tournament games waiting."""
        self._challenges.logged_in(session)
        self._desk.logged_in(session)
        self._moderation.logged_in(session)

    # ----- the events ---------------------------------------------------------------------------

    def restore(
        self, stored: list[StoredTable], used_ids: set[str], now: float, wall: float
    ) -> Effects:
        """The tables of a previous run, from storage (see Lifecycle.restore)."""
        self._ctx.begin(now, wall)
        self._tables.restore(stored, used_ids, now)
        self._desk.tables_restored(now)
        return self._ctx.take()

    def restore_players(self, stored: StoredPlayers, now: float, wall: float) -> Effects:
        """Version 3's players as a previous run stored them: the accounts and their login
        tokens, the standing challenges, the archive, the lobby's chat."""
        self._ctx.begin(now, wall)
        accounts = self._ctx.accounts
        accounts.load(
            stored.accounts, stored.login_tokens, stored.known_addresses, stored.deleted_names
        )
        cooled = accounts.cooled(self._ctx.config.deleted_name_cooling, wall)
        if cooled is not None:
            self._ctx.write(cooled)
        self._logins.restore(stored.registrations)
        self._logins.apply_actions(stored.account_actions)
        self._archive.restore(stored.archive)
        self._lobby_chat.restore(stored.lobby_chat)
        self._challenges.restore(stored.challenges)
        self._desk.restore(stored.tournaments, stored.directors, now)
        return self._ctx.take()

    def restore_moderation(self, stored: StoredModeration, now: float, wall: float) -> Effects:
        """Version 4's moderation as a previous run stored it: the moderators, the mutes and
        bans, the open reports, the latest lines of the log."""
        self._ctx.begin(now, wall)
        self._moderation.restore(stored)
        return self._ctx.take()

    def moderators_now(self, keys: list[str], now: float, wall: float) -> Effects:
        """The moderators as the database names them now (the operator's command, made while
        this server runs)."""
        self._ctx.begin(now, wall)
        self._moderation.moderators_now(keys)
        return self._ctx.take()

    def record_read(
        self,
        member: MemberId,
        table_id: str,
        text: str | None,
        now: float,
        wall: float,
        analyse: bool = False,
    ) -> Effects:
        """A RecordRead's answer from storage: the record, or None if it has none."""
        self._ctx.begin(now, wall)
        if member in self._ctx.sessions:
            self._finished.read(member, table_id, text, analyse)
        return self._ctx.take()

    def records_read(
        self, asked: RecordsRead, texts: list[str | None] | None, now: float, wall: float
    ) -> Effects:
        """A RecordsRead's answer from storage: the records in its order (None: the read
        failed)."""
        self._ctx.begin(now, wall)
        self._download.read(asked, texts)
        return self._ctx.take()

    def password_done(
        self, job: int, result: str | bool | None, now: float, wall: float
    ) -> Effects:
        """The result of a PasswordJob: the hash, or whether the password matched (None: the
        work failed)."""
        self._ctx.begin(now, wall)
        self._logins.done(job, result, now)
        return self._ctx.take()

    def round_paired(
        self, job: int, pairing: SwissPairing | None, now: float, wall: float
    ) -> Effects:
        """The result of a PairingJob: the Swiss round's pairing (None: the work failed)."""
        self._ctx.begin(now, wall)
        self._desk.round_paired(job, pairing, now)
        return self._ctx.take()

    def connect(self, address: str, now: float, wall: float | None = None) -> MemberId | ErrorCode:
        """A new connection: its member id, or the reason to refuse it (a moderator's ban:
        address_banned, by `wall`, the unix time, else the last event's)."""
        if self._moderation.banned(address, self._ctx.wall if wall is None else wall):
            return ErrorCode.ADDRESS_BANNED
        return self._sessions.open(address, now)

    def frame(self, member: MemberId, data: Any, now: float, wall: float) -> Effects:
        """One frame from a connection, as received."""
        ctx = self._ctx
        ctx.begin(now, wall)
        session = ctx.sessions.get(member)
        if session is None or session.closing:
            return ctx.take()
        if not self._sessions.within_rate(session, now):
            return ctx.take()
        try:
            # before hello (version 0) the newest rules: whatever it is, it gets hello_required
            version = session.version or PROTOCOL_VERSION
            message = decode_client(data, ctx.config.max_frame, version)
        except ProtocolError as exc:
            small = isinstance(data, bytes) and exc.code is not ErrorCode.FRAME_TOO_LARGE
            ctx.error(member, exc.code, exc.message, refused=peek_type(data) if small else None)
            return ctx.take()
        account = session.account
        try:
            self._message(session, message, now)
        except TableError as exc:
            ctx.error(
                member,
                exc.code,
                exc.message,
                table_id=getattr(message, "table_id", None),
                version=exc.version,
                refused=message.TYPE,
                refusal=exc.refusal,
            )
        except Exception:
            log.exception("failed on %s from connection %s", message.TYPE, member)
            self._reconcile(getattr(message, "table_id", None), now)
            ctx.error(
                member, ErrorCode.INTERNAL_ERROR, "the server failed on this message",
                refused=message.TYPE,
            )  # fmt: skip
        self._seen(account, session.account != account)
        return ctx.take()

    def _seen(self, account: str | None, leaving: bool) -> None:
        """An account's player was active, or left (logged out, or the connection went): the
        operator's "last seen" (kahuna-server accounts list)."""
        op = None if account is None else self._ctx.accounts.seen(account, self._ctx.wall, leaving)
        if op is not None:
            self._ctx.write(op)

    def disconnect(self, member: MemberId, now: float, wall: float) -> Effects:
        """The connection is gone: its seats wait for their tokens."""
        ctx = self._ctx
        ctx.begin(now, wall)
        session = self._sessions.close(member)
        if session is None:
            return ctx.take()
        self._seen(session.account, leaving=True)
        self._logins.forget(member)
        self._desk.forget(member)
        self._seating.disconnect(session, now)
        return ctx.take()

    def computer_command(
        self,
        member: MemberId,
        table_id: str,
        version: int,
        action: str | Action | None,
        now: float,
        wall: float,
    ) -> Effects:
        """The action a computer player chose for the turn it was given: in the notation (from a
        worker process), or as the rules engine's own (chosen on the event loop); None: its code
        failed."""
        ctx = self._ctx
        ctx.begin(now, wall)
        if ctx.computers.get(member) != table_id:
            return ctx.take()  # its table closed while it thought
        if action is None:
            table = ctx.lobby.tables.get(table_id)
            if table is not None and table.version == version:  # else a newer turn is coming
                self._play.fallback_move(member, table_id, now)
            return ctx.take()
        try:
            self._play.act(member, table_id, version, action, now)
        except TableError as exc:
            if exc.code is ErrorCode.STALE_VERSION:
                return ctx.take()  # a newer turn is already on its way to it
            if exc.code is ErrorCode.GAME_OVER:
                return ctx.take()  # the game ended (a resignation, say) while it thought
            log.error("the computer's %r at table %s was refused: %s", action, table_id, exc)
            self._play.fallback_move(member, table_id, now)
        except Exception:
            log.exception("failed on the computer's %r at table %s", action, table_id)
            self._reconcile(table_id, now)
        return ctx.take()

    def tick(self, now: float, wall: float) -> Effects:
        """Time passed: flush the lobby, drop silent connections, close abandoned tables, flag
        clocks that ran out, tell players they may claim."""
        ctx = self._ctx
        ctx.begin(now, wall)
        timers = ctx.timers
        for table_id, what in timers.due(now):
            if what == STARTS:  # a tournament's id
                self._desk.start_due(table_id, now)
                continue
            if what == TELLS:
                self._desk.tell_due(table_id)
                continue
            table = ctx.lobby.tables.get(table_id)
            if table is not None and not table.closed:
                if what == FIRST_MOVE:
                    self._desk.first_move_due(table, now)
                else:
                    self._play.timer_due(table, what, now)
        if timers.lobby_flush_due(now):
            ctx.flush_lobby()
        if timers.sweep_due(now):
            self._sweep(now)
        self._logins.tick(now)
        self._mail.look_at_clocks(now)
        return ctx.take()

    def _sweep(self, now: float) -> None:
        """The next SWEEP_CHUNK connections and tables of the sweep under way (a new sweep
        begins with every one): a sweep over thousands of tables is spread over turns of the
        event loop, so that the commands arriving meanwhile do not wait for all of it."""
        ctx = self._ctx
        if not self._sweep_sessions and not self._sweep_tables:
            self._sweep_sessions = list(reversed(ctx.sessions.values()))
            self._sweep_tables = list(reversed(ctx.lobby.tables.values()))
        left = self._sessions.sweep(self._sweep_sessions, now, SWEEP_CHUNK)
        self._tables.sweep(self._sweep_tables, now, left)
        if self._sweep_sessions or self._sweep_tables:
            ctx.timers.sweep_again(now)
        elif ctx.sessions or ctx.lobby.tables:
            ctx.wake_for_sweep(now)

    def next_wake(self) -> float | None:
        """When tick() next has something to do."""
        wake = self._ctx.timers.next_wake()
        checks = self._logins.next_wake(self._ctx.now)
        return wake if checks is None else checks if wake is None else min(wake, checks)

    def account_actions(self, actions: list[AccountAction], now: float, wall: float) -> Effects:
        """The operator's commands found in storage (kahuna-server accounts, made while this
        server runs)."""
        self._ctx.begin(now, wall)
        self._logins.apply_actions(actions)
        return self._ctx.take()

    def tournament_actions(
        self, actions: list[TournamentAction], now: float, wall: float
    ) -> Effects:
        """The operator's commands on tournaments found in storage (kahuna-server tournaments,
        made while this server runs, or before it started: given once its tables are back)."""
        self._ctx.begin(now, wall)
        self._moderation.operator_actions(actions, now)
        return self._ctx.take()

    def mail_link(self, kind: str, code: str, now: float, wall: float) -> tuple[Effects, bool]:
        """Version 4: a mail's link was followed on the web port (server/net/mail_links.py):
        `kind` "confirm" (an address confirmed) or a kind of mail to turn off. Whether the code
        was good, with the effects."""
        self._ctx.begin(now, wall)
        good = (
            self._mail.confirm_link(code) if kind == "confirm" else self._mail.turn_off(kind, code)
        )
        return self._ctx.take(), good

    def mail_link_look(self, kind: str, code: str, now: float, wall: float) -> LinkLook:
        """Version 4: what following a mail's link would do (mail_link's arguments), with no
        effect: the link's page asks before it acts (server/net/mail_links.py)."""
        self._ctx.begin(now, wall)
        return self._mail.look(kind, code)

    def slow_reader(self, member: MemberId, now: float, wall: float) -> Effects:
        """The I/O layer is closing a connection (one that did not read its messages, or one
        the core asked it to close): nothing it sends is read any more."""
        ctx = self._ctx
        ctx.begin(now, wall)
        session = ctx.sessions.get(member)
        if session is not None:
            session.closing = True
        return ctx.take()

    # ----- a client's message -------------------------------------------------------------------

    def _message(self, session: Session, message: ClientMessage, now: float) -> None:
        if isinstance(message, Hello):
            self._sessions.hello(session, message)
            return
        if not session.greeted:
            raise TableError(ErrorCode.HELLO_REQUIRED, "say hello first")
        ctx, play = self._ctx, self._play
        member = session.member
        match message:  # the message types are disjoint: the commonest is tried first
            case Command():
                if session.version < 2 and message.action.strip().lower().startswith("undo"):
                    raise TableError(ErrorCode.BAD_NOTATION, "unknown action 'undo'")
                self._desk.move_coming(message.table_id, now)  # a first move's forfeit first
                play.command(member, message, now)
            case LobbySubscribe():
                if member not in ctx.lobby.watchers:  # a repeat is not answered again
                    ctx.lobby.watchers.add(member)
                    ctx.send(member, ctx.lobby.listing())
                    self._lobby_chat.history(session)
            case LobbyUnsubscribe():
                ctx.lobby.watchers.discard(member)
            case CreateTable():
                self._tables.create(session, message, now)
            case Join(table_id, seat):
                self._seating.join(session, table_id, seat, now)
            case Spectate(table_id):
                self._seating.spectate(session, table_id, now)
            case Reclaim(table_id, token):
                self._seating.reclaim(session, table_id, token, now)
            case Resume(table_id):
                self._seating.reclaim(session, table_id, None, now)
            case Leave(table_id):
                self._seating.leave(session, table_id, now)
            case Resync(table_id):
                table = ctx.lobby.get(table_id)
                ctx.send_all(table.resync(member))
            case Chat(table_id, text):
                self._moderation.check_chat(session)
                play.chat(session, table_id, text, now)
            case Resign(table_id):
                table, mine = play.my_seat(member, table_id)
                play.end(table, Termination.RESIGNED, mine, now)
            case OfferDraw(table_id):
                play.offer_draw(member, table_id, now)
            case DeclineDraw(table_id):
                play.decline_draw(member, table_id, now)
            case Claim(table_id):
                play.claim(member, table_id, now)
            case Rematch(table_id):
                self._tables.rematch(member, table_id, now)
            case Register():
                self._logins.register(session, message, now)
            case Login():
                self._logins.login(session, message, now)
            case Logout():
                self._logins.logout(session)
            case ChangePassword():
                self._logins.change_password(session, message, now)
            case Challenge(name, terms):
                self._challenges.challenge(session, name, terms)
            case AnswerChallenge(challenge_id, answer):
                self._challenges.answer(session, challenge_id, answer, now)
            case LobbyChat(text):
                self._moderation.check_chat(session)
                self._lobby_chat.say(session, text, now)
            case Ignore(name, ignore):
                self._lobby_chat.ignore(session, name, ignore)
            case GetRatings():
                self._archive.ratings(session)
            case GetGames(name):
                self._archive.games(session, name)
            case GetRecord(table_id):
                self._finished.record(session, table_id)
            case Analyse(table_id):
                self._finished.analyse(session, table_id)
            case GetTournaments(name):
                self._desk.listing(session, name)
            case CreateTournament(terms):
                self._desk.create(session, terms, now)
            case JoinTournament(tournament_id):
                self._desk.join(session, tournament_id, now)
            case WithdrawTournament(tournament_id):
                self._desk.withdraw(session, tournament_id, now)
            case StartTournament(tournament_id):
                self._desk.start(session, tournament_id, now)
            case WatchTournament(tournament_id, watch):
                self._desk.watch(session, tournament_id, watch)
            case DirectTournament(tournament_id, action, name):
                self._desk.direct(session, tournament_id, action, name, now)
            case GetMailSettings():
                self._mail.settings(session)
            case SetEmail(address):
                self._mail.set_email(session, address)
            case ConfirmEmail(code):
                self._mail.confirm(session, code)
            case SetMailSettings(language, on, off):
                self._mail.change_settings(session, language, on, off)
            case ForgotPassword(name):
                self._mail.forgot(session, name)
            case ResetPassword(code, password):
                self._mail.reset(session, code, password, now)
            case DeleteAccount(password):
                self._deletion.delete(session, password, now)
            case GetGameRecords(page):
                self._download.ask(session, page)
            case Moderate():
                self._moderation.moderate(session, message, now)
            case ReportPlayer():
                self._moderation.report(session, message)
            case GetModeration():
                self._moderation.get(session)
            case CloseReport():
                self._moderation.close_report(session, message)

    def _reconcile(self, table_id: str | None, now: float) -> None:
        """After an unexpected failure part-way through a change: whatever the table became in
        memory goes to disk and to its members, so that the three agree again."""
        ctx = self._ctx
        table = None if table_id is None else ctx.lobby.tables.get(table_id)
        if table is None or table.closed:
            return
        try:
            self._ctx.table_changed(table, now, [(m, table.state_for(m)) for m in table.members()])
        except Exception:
            log.exception("table %s could not be made consistent; closing it", table.table_id)
            self._tables.close_table(table, Closing("server_failed", "the server failed"), now)
