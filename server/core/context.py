"""What every part of the core shares, and the plumbing by which each part adds to the effects of
the event being handled: storage writes, messages (each fitted to its connection's protocol
version), errors, closes, and the storage operations that keep a table on disk."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from protocol.errors import ErrorCode
from protocol.fields import seat_name
from protocol.messages import (
    MESSAGE_SINCE,
    TABLE_NOTE_SINCE,
    Error,
    NoteName,
    ServerMessage,
    State,
    TableNote,
    Update,
)
from protocol.player_messages import Watchers
from server.core.accounts import Accounts
from server.core.config import ServerConfig
from server.core.effects import CloseConnection, ComputerTurn, Effects
from server.core.lobby import Lobby
from server.core.ratelimit import KeyedBuckets
from server.core.session import AccountSessions, Session
from server.core.store import AppendLogOp, ClearSeatOp, SetSeatOp, StorageOp, TableStateOp
from server.core.table import MemberId, Outbox, Table
from server.core.timers import Timers
from shared.history import entry_to_wire
from shared.legality import Refusal
from shared.levels import LEVEL_INFER
from shared.randomness import CardSource, DrawnSource
from shared.seen import Seen, seen_turns
from shared.types import Seat
from shared.views import seat_view


class Context:
    """The core's state that its parts share (the config, the rng, the lobby and its tables, the
    sessions, the computers, the timers) and the effects of the event being handled."""

    def __init__(self, config: ServerConfig, rng: random.Random) -> None:
        self.config = config
        self.rng = rng  # table ids, seat tokens, who moves first when asked for at random, cards
        self.lobby = Lobby(config.max_tables)
        self.sessions: dict[MemberId, Session] = {}
        # the sessions logged in to each account (the one place a session's account changes)
        self.account_sessions = AccountSessions()
        self.computers: dict[MemberId, str] = {}  # computer member -> its table
        self.accounts = Accounts()  # version 3: the registered players
        self.timers = Timers()
        # chat in the lobby and at the tables: per account, all its connections together (a
        # guest: per connection; guests have no lobby chat, and an address's connections are few)
        self.chat_limit = KeyedBuckets(config.chat_rate, config.chat_burst)
        # the event being handled: its time (the core's clock, monotonic) and the wall clock's
        # (unix time, for the timestamps of storage)
        self.now = 0.0
        self.wall = 0.0
        self.effects = Effects()
        self._next_member = 1
        # what a game that has just ended does besides its storage (the clocks stop, the result,
        # the record, the archive, the players told): Play.game_ended, which sets it
        self.game_ended: Callable[[Table, float], None] = _no_game_end
        # version 4: the tables of tournaments' games, with their tournament and round, and what
        # the end of a game does for its tournament (TournamentDesk.game_over, which sets it)
        self.tournament_tables: dict[str, tuple[str, int]] = {}
        self.tournament_names: dict[str, str] = {}  # tournament id -> its name, for its tables
        self.tournament_game_over: Callable[[Table, float], None] = _no_game_end
        # version 4: an event an account's player may get a mail of (account key, kind, the
        # mail's params, the table's id): server/core/mail.py's MailDesk.notify, which sets it
        # and decides whether to send one
        self.mail_notice: Callable[[str, Any, dict[str, Any], str], None] = _no_notice

    def begin(self, now: float, wall: float) -> None:
        """An event that happened at `now`, `wall` by the wall clock, is being handled."""
        self.now, self.wall = now, wall

    def take(self) -> Effects:
        """The effects gathered so far; the next ones start afresh."""
        effects, self.effects = self.effects, Effects()
        return effects

    def card_source(self) -> CardSource:
        """A new game's source of shuffles: the core's rng, unless the config names another."""
        factory = self.config.source_factory
        return DrawnSource(self.rng) if factory is None else factory()

    def new_member(self) -> MemberId:
        member = self._next_member
        self._next_member += 1
        return member

    def wake_for_sweep(self, now: float) -> None:
        self.timers.wake_for_sweep(now, self.config.sweep_interval)

    # ----- the one epilogue of a change ---------------------------------------------------------

    def table_changed(
        self,
        table: Table,
        now: float,
        outbox: Outbox | None = None,
        *,
        state: bool = False,
        seats: Iterable[Seat] = (),
        newcomer: MemberId | None = None,
        lobby: bool = False,
        computers: bool = False,
    ) -> None:
        """How every change of a table ends, in this order (docs/architecture.md, One command):
        the log (the entries the disk has not; a game that has just ended stops its clocks,
        drops a draw offer and writes its result and record: `game_ended`), the state (`state`:
        clocks, offers, settings; always after the game ended), the seats (`seats`, as held
        now), the sends (`outbox`), the watchers (when who watches changed; `newcomer` hears it
        anyway), the lobby (`lobby`: what it lists changed), the computer (`computers`: the
        turn may be its). A closed table only sends and tells the lobby."""
        if not table.closed and table.loaded:  # a stored game not rebuilt has nothing new
            self.append_log(table)
            if table.game.is_over and not table.finish_stored:
                self.game_ended(table, now)
                state = True
        if state:
            self.store_state(table, now)
        for seat in seats:
            self.seat_written(table, seat)
        if outbox:
            self.send_all(outbox)
        self.tell_watchers(table, newcomer)
        if lobby:
            self.lobby_changed(now)
        if computers:
            self.computers_to_move(table)

    def computers_to_move(self, table: Table) -> None:
        """Hand the turn to the computer if one is to move at this table."""
        if not table.vs_computer or table.status != "playing" or table.closed:
            return
        holder = table.seats[table.game.to_move]
        if holder is None or not holder.computer or holder.member is None:
            return
        seat = table.game.to_move
        view = seat_view(table.game, seat)
        turns: tuple[tuple[Seen, ...], ...] = ()
        if LEVEL_INFER.get(table.level, False):  # a level that reads them
            turns = tuple(tuple(turn) for turn in seen_turns(table.game, seat.other))
        self.effects.computer_turns.append(
            ComputerTurn(
                holder.member,
                table.table_id,
                table.version,
                view,
                self.config.computer_delay,
                table.level,
                turns,
            )
        )

    # ----- messages ---------------------------------------------------------------------------

    def send(self, member: MemberId, message: ServerMessage) -> None:
        self.send_all([(member, message)])

    def send_all(self, outbox: Outbox) -> None:
        """Messages for connections are sent; computers only learn from them when it is their
        turn (see computers_to_move). A version-2 connection gets the game's log with every
        full state."""
        sends = self.effects.sends
        overlays: dict[str, dict[str, Any]] = {}
        shown: dict[int, ServerMessage] = {}
        for member, message in outbox:
            session = self.sessions.get(member)
            if session is None:
                continue
            if session.version < 2:
                if message.TYPE not in MESSAGE_SINCE:
                    sends.append((member, message, 1))
                continue
            if MESSAGE_SINCE.get(message.TYPE, 1) > session.version:
                continue
            if isinstance(message, State | Update):
                table = self.lobby.tables.get(message.table_id)
                if table is not None:
                    if isinstance(message, State):
                        sends.append((member, table.history_for(member), session.version))
                    # one message object per original, so that it is still encoded once
                    extended = shown.get(id(message))
                    if extended is None:
                        overlay = overlays.get(table.table_id)
                        if overlay is None:
                            overlay = overlays[table.table_id] = self._overlay(table)
                        view = {**message.view, "table": overlay}
                        # built field by field: attrs.evolve looks the fields up on every call
                        if type(message) is Update:
                            extended = Update(
                                message.table_id, message.version, message.events, view
                            )
                        else:
                            extended = attrs.evolve(message, view=view)
                        shown[id(message)] = extended
                    message = extended
            sends.append((member, message, session.version))

    def _overlay(self, table: Table) -> dict[str, Any]:
        """Version 2: what every view of a table also shows, besides the game: the clocks at
        this moment, the offers standing, the settings."""

        overlay: dict[str, Any] = {
            "clock": None if table.clock is None else table.clock.to_view_at(self.now, self.wall),
            "draw_offer": _wire_seat(table.draw_offer),
            "rematch_offer": _wire_seat(table.rematch_offer),
            "rematch_table": table.rematch_to,
            "claim": _wire_seat(table.claimant(self.now, self.config)),
            "level": table.level if table.vs_computer else None,
            "hints": table.hints,
        }
        where = self.tournament_tables.get(table.table_id)
        if where is not None:  # version 4 (protocol.compat cuts it from the others' views)
            tournament_id, number = where
            overlay["tournament"] = {
                "tournament_id": tournament_id,
                "name": self.tournament_names.get(tournament_id, ""),
                "round": number,
            }
        return overlay

    def note(
        self, table: Table, note: NoteName, seat: Seat | None, detail: str | None = None
    ) -> None:
        message = TableNote(table.table_id, note, None if seat is None else seat_name(seat), detail)
        since = TABLE_NOTE_SINCE.get(note, 2)  # a later note: its version's peers only
        members = [
            m for m in table.members() if (s := self.sessions.get(m)) is None or s.version >= since
        ]
        self.send_all([(m, message) for m in members])

    def tell_watchers(self, table: Table, newcomer: MemberId | None = None) -> None:
        """Version 3: the table's members hear who watches it when that changed; `newcomer`,
        who just came to the table, hears it anyway while someone watches."""
        names = tuple(table.spectators.values())
        told = names != table.watchers_told
        table.watchers_told = names
        if told:
            members = table.members()
        elif newcomer is not None and names:
            members = [newcomer]
        else:
            return
        message = Watchers(table.table_id, list(names))
        sessions = self.sessions
        self.send_all([(m, message) for m in members if m in sessions and sessions[m].version >= 3])

    def error(
        self,
        member: MemberId,
        code: ErrorCode,
        message: str,
        *,
        table_id: str | None = None,
        version: int | None = None,
        refused: str | None = None,
        refusal: Refusal | None = None,
    ) -> None:
        # the code and parameters reach version-2 clients only (the codec leaves them out)
        reason, params = (None, None) if refusal is None else (refusal.code, refusal.params)
        error = Error(code.value, message, table_id, version, refused, reason, params)
        session = self.sessions.get(member)
        if session is not None:
            self.effects.sends.append((member, error, session.version or 1))

    def close(self, session: Session, code: int, reason: str) -> None:
        session.closing = True
        self.effects.closes.append(CloseConnection(session.member, code, reason))

    # ----- the lobby ----------------------------------------------------------------------------

    def lobby_changed(self, now: float) -> None:
        self.lobby.dirty = True
        if self.lobby.watchers:
            self.timers.lobby_changed(now)

    def flush_lobby(self) -> None:
        if not self.lobby.dirty:
            return
        self.lobby.dirty = False
        if self.lobby.watchers:
            message = self.lobby.listing()
            self.send_all([(m, message) for m in self.lobby.watchers])

    # ----- storage ------------------------------------------------------------------------------

    def write(self, op: StorageOp) -> None:
        self.effects.writes.append(op)

    def append_log(self, table: Table) -> None:
        """Write the log entries the table has and the disk has not."""
        start = table.stored_log
        entries = table.game.log[start:]
        if entries:
            self.write(
                AppendLogOp(
                    table.table_id,
                    start,
                    tuple(entry_to_wire(e) for e in entries),
                    self.wall,
                )
            )
            table.stored_log = len(table.game.log)

    def store_state(self, table: Table, now: float) -> None:
        """Write what the table holds besides its log, seats and chat."""

        state: dict[str, Any] = {
            "level": table.level,
            "hints": table.hints,
            "clock": None if table.clock is None else table.clock.to_state(now, self.wall),
            "draw_offer": _wire_seat(table.draw_offer),
            "rematch_offer": _wire_seat(table.rematch_offer),
            "rematch_to": table.rematch_to,
        }
        if not table.rated_requested:  # stored only when asked for: the default is rated
            state["rated"] = False
        self.write(TableStateOp(table.table_id, state, self.wall))

    def seat_written(self, table: Table, seat: Seat) -> None:
        """Write who holds the seat now, or that nobody does."""
        holder = table.seats[seat]
        if holder is None:
            self.write(ClearSeatOp(table.table_id, seat.name.lower()))
            return
        self.write(
            SetSeatOp(
                table.table_id,
                seat.name.lower(),
                holder.name,
                holder.token_hash,
                holder.computer,
                holder.account,
            )
        )

    def rating_of(self, key: str | None) -> int | None:
        """The rating shown beside an account's name (None: a guest)."""
        account = None if key is None else self.accounts.get(key)
        return None if account is None else account.shown_rating


def _no_notice(key: str, kind: Any, params: dict[str, Any], table_id: str) -> None:
    pass


def _no_game_end(table: Table, now: float) -> None:
    raise AssertionError("the core sets Context.game_ended before any table changes")


def _wire_seat(seat: Seat | None) -> str | None:
    """The seat's wire name, as the views and the stored state both name it."""
    return None if seat is None else seat_name(seat)
