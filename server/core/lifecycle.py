"""The life of a table: created (limits per connection and per address, the creator seated, the
computer too), a rematch, a game abandoned (ended by forfeit, never closed without a result),
closed (over, left), and rebuilt from storage after a restart."""

from __future__ import annotations

import logging
from typing import Any

from protocol.errors import ErrorCode
from protocol.fields import ChatEntry, LevelName, RoleName
from protocol.messages import CreateTable
from protocol.player_messages import ChallengeTerms
from server.core.accounts import Account
from server.core.clock import Clock
from server.core.context import Context
from server.core.game_terms import game_terms
from server.core.play import Play, no_offer
from server.core.session import Session
from server.core.sessions import Sessions
from server.core.store import CloseOp, CreateTableOp, StoredTable
from server.core.table import (
    COMPUTER_NAME,
    Closing,
    MemberId,
    Outbox,
    SeatHolder,
    Table,
    TableError,
)
from shared.events import Event
from shared.game import Game
from shared.history import entry_from_wire
from shared.types import GameOptions, Seat, Termination

log = logging.getLogger(__name__)


class Lifecycle:
    def __init__(self, ctx: Context, sessions: Sessions, play: Play) -> None:
        self.ctx = ctx
        self.sessions = sessions
        self.play = play
        self.used_table_ids: set[str] = set()
        # the open tables each address created (one address holds at most what its
        # connections could: max_per_address * tables_per_connection, left or not)
        self.tables_by_address: dict[str, set[str]] = {}
        self.creators: dict[str, str] = {}  # table -> the address that created it

    # ----- creation -----------------------------------------------------------------------------

    def create(self, session: Session, create: CreateTable, now: float) -> None:
        cfg = self.ctx.config
        self.sessions.room_for_one_more(session)
        options, clock = _terms(create)
        made = self.tables_by_address.get(session.address, set())
        most = cfg.max_per_address * cfg.tables_per_connection
        if len(made) >= most:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES, f"one address may have {most} open tables at most"
            )
        if not create.vs_computer and len(self._waiting(made)) >= cfg.waiting_per_address:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES,
                f"one address may have {cfg.waiting_per_address} tables waiting for a player"
                " at once",
            )
        seat = Seat.WHITE if create.seat is None else Seat.parse(create.seat)
        table = self._new_table(
            create.first, options, clock, now, vs_computer=create.vs_computer,
            # a version-1 client meets the computer it always met, the easy one
            level=create.level if session.version >= 2 else "easy",
            hints=create.hints, rated=create.rated,
        )  # fmt: skip
        table_id = table.table_id
        self._created(table, now)
        self.tables_by_address.setdefault(session.address, set()).add(table_id)
        self.creators[table_id] = session.address
        self._seat_players(table, create.vs_computer, seat, session, now)
        log.info(
            "table %s created by %s: %s%s", table_id, session.name, describe_options(options),
            "" if clock is None else f", clock {create.clock}",
        )  # fmt: skip

    def _new_table(
        self,
        first: str,
        options: GameOptions,
        clock: Clock | None,
        now: float,
        *,
        vs_computer: bool = False,
        level: LevelName = "easy",
        hints: bool = True,
        rated: bool = True,
        owed: bool = False,
    ) -> Table:
        """A new table under a new id, its game dealt: who moves first as its terms say it
        ("white", "black" or "random"), its settings as asked for. Not yet stored or listed.
        `owed`: a table the server owes its players (a tournament's), made even when the server
        holds all the tables it can."""
        ctx = self.ctx
        table_id = self._new_table_id(now, owed)
        seat = ctx.rng.choice((Seat.WHITE, Seat.BLACK)) if first == "random" else Seat.parse(first)
        game = Game.new(ctx.card_source(), seat, options)
        table = Table(
            table_id, game, rng=ctx.rng, vs_computer=vs_computer,
            chat_history=ctx.config.chat_history, now=now,
        )  # fmt: skip
        table.level, table.hints, table.rated_requested = level, hints, rated
        table.created_wall, table.clock = ctx.wall, clock
        return table

    def create_for_challenge(
        self, session: Session, challenger: Account, terms: ChallengeTerms, now: float
    ) -> str:
        """Version 3: the table of an accepted challenge: its terms, the challenger's seat held
        for their account (they `resume` it), the accepting session seated. Its id."""
        ctx = self.ctx
        self.sessions.room_for_one_more(session)
        options, clock = _terms(terms)
        theirs = Seat.WHITE if terms.seat is None else Seat.parse(terms.seat)
        table = self._new_table(
            terms.first, options, clock, now, hints=terms.hints, rated=terms.rated
        )
        table_id = table.table_id
        table.hold_seat(theirs, challenger.name, challenger.key, challenger.shown_rating, now)
        self._created(table, now, held=theirs)
        assert session.name is not None
        outbox = table.join(
            session.member, session.name, theirs.other, now=now, account=session.account,
            rating=ctx.rating_of(session.account),
        )  # fmt: skip
        session.tables.add(table_id)
        started = self.play.game_may_start(table, now)
        self.ctx.table_changed(table, now, outbox, state=started, seats=[theirs.other], lobby=True)
        log.info("table %s: a challenge of %s accepted by %s", table_id, challenger.name,
                 session.name)  # fmt: skip
        return table_id

    def create_for_tournament(
        self,
        white: Account,
        black: Account,
        options: GameOptions,
        clock: Clock | None,
        rated: bool,
        now: float,
    ) -> Table:
        """Version 4: the table of a game of a tournament's round: White moving first, both
        seats held for their accounts (each player takes theirs with `resume`), so that the
        game, and its clock, begin at once."""
        # made however full the server is: a round half made would leave its tournament stuck
        table = self._new_table("white", options, clock, now, rated=rated, owed=True)
        for seat, account in ((Seat.WHITE, white), (Seat.BLACK, black)):
            table.hold_seat(seat, account.name, account.key, account.shown_rating, now)
        self._created(table, now, held=Seat.WHITE)
        started = self.play.game_may_start(table, now)
        self.ctx.table_changed(table, now, state=started, seats=[Seat.BLACK], lobby=True)
        log.info("table %s: %s against %s in a tournament", table.table_id, white.name,
                 black.name)  # fmt: skip
        return table

    def _waiting(self, table_ids: set[str]) -> list[Table]:
        """Those of the tables that wait for a second player, the oldest first."""
        tables = self.ctx.lobby.tables
        found = [tables[t] for t in table_ids if t in tables]
        waiting = [t for t in found if t.status == "waiting" and not t.closed]
        return sorted(waiting, key=lambda t: (t.created, t.table_id))

    def _make_room(self, now: float) -> bool:
        """A full server closes the oldest waiting table of the address that has the most
        waiting, so that no few addresses can keep everyone else from a table. False: no table
        waits, nothing was closed."""
        heaviest: list[Table] = []
        for address in sorted(self.tables_by_address):  # an order that no hash seed changes
            waiting = self._waiting(self.tables_by_address[address])
            if len(waiting) > len(heaviest):
                heaviest = waiting
        if not heaviest:
            return False
        oldest = heaviest[0]
        log.warning("table %s closed to make room: the server is full", oldest.table_id)
        self.close_table(oldest, Closing("made_room", "the server needed the room"), now)
        return True

    def _new_table_id(self, now: float, owed: bool = False) -> str:
        lobby = self.ctx.lobby
        full = len(lobby.tables) >= lobby.max_tables
        if full and not owed and not self._make_room(now):
            raise TableError(ErrorCode.TOO_MANY_TABLES, "the server holds all the tables it can")
        while True:
            table_id = self.ctx.rng.randbytes(4).hex()  # the form of secrets.token_hex(4)
            if table_id not in self.used_table_ids:
                self.used_table_ids.add(table_id)
                return table_id

    def _created(self, table: Table, now: float, held: Seat | None = None) -> None:
        """Write a new table, its log so far, its state and (`held`) a seat held for a player
        yet to come; then list it in the lobby."""
        game = table.game
        self.ctx.write(
            CreateTableOp(
                table.table_id,
                dict(game.options.to_dict()),
                game.first_player.name.lower(),
                table.vs_computer,
                self.ctx.wall,
            )
        )
        self.ctx.table_changed(table, now, state=True, seats=[] if held is None else [held])
        self.ctx.lobby.add(table)

    def _seat_players(
        self, table: Table, vs_computer: bool, seat: Seat, session: Session, now: float
    ) -> None:
        ctx = self.ctx
        table_id = table.table_id
        if vs_computer:  # seated first, so that the creator's state says "playing"
            computer = ctx.new_member()
            ctx.computers[computer] = table_id
            joined = table.join(computer, COMPUTER_NAME, seat.other, computer=True)
            self.ctx.table_changed(table, now, joined, seats=[seat.other])
        assert session.name is not None
        outbox = table.join(
            session.member, session.name, seat, now=now, account=session.account,
            rating=ctx.rating_of(session.account),
        )  # fmt: skip
        session.tables.add(table_id)
        started = self.play.game_may_start(table, now)
        self.ctx.table_changed(
            table, now, outbox, state=started, seats=[seat], lobby=True, computers=True
        )

    # ----- rematch ------------------------------------------------------------------------------

    def rematch(self, member: MemberId, table_id: str, now: float) -> None:
        table, seat = self.play.my_seat(member, table_id)
        if not table.game.is_over:
            raise TableError(ErrorCode.GAME_NOT_OVER, "a rematch is offered after the game")
        if table.rematch_to is not None:
            raise no_offer("rematch_started", "the rematch has started already")
        if table.table_id in self.ctx.tournament_tables:  # its tournament pairs the next game
            raise no_offer("tournament_game", "a tournament's game has no rematch")
        other = table.seats[seat.other]
        if other is None:
            raise no_offer("opponent_left", "your opponent has left")
        if not (other.computer or table.rematch_offer is seat.other):
            if table.rematch_offer is seat:
                raise no_offer("offer_stands", "your offer stands; the opponent decides")
            table.rematch_offer = seat
            self.ctx.note(table, "rematch_offered", seat)
            self.ctx.table_changed(table, now, state=True)
            return
        if not other.computer and other.member is None:
            raise no_offer("opponent_away", "your opponent is not connected")
        self._start_rematch(table, now)

    def _start_rematch(self, table: Table, now: float) -> None:
        """Same options and players, colours swapped, new tokens; the spectators come along."""
        ctx = self.ctx
        new = self._new_table(
            table.game.first_player.name.lower(), table.game.options,
            None if table.clock is None else Clock.new(table.clock.control), now,
            vs_computer=table.vs_computer, level=table.level, hints=table.hints,
            rated=table.rated_requested,
        )  # fmt: skip
        table_id = new.table_id
        self._created(new, now)
        table.rematch_to, table.rematch_offer = table_id, None
        self.ctx.table_changed(table, now, state=True)
        ctx.note(table, "rematch_started", None, table_id)
        humans = [(s, h) for s, h in table.seats.items() if h is not None and not h.computer]
        computers = [(s, h) for s, h in table.seats.items() if h is not None and h.computer]
        outbox: Outbox = []
        seats: list[Seat] = []
        for seat, holder in computers:
            computer = ctx.new_member()
            ctx.computers[computer] = table_id
            outbox += new.join(computer, holder.name, seat.other, computer=True)
            seats.append(seat.other)
        for seat, holder in humans:
            if holder.member is None:
                continue  # not reached: a rematch starts with both players connected
            outbox += new.join(
                holder.member,
                holder.name,
                seat.other,
                now=now,
                account=holder.account,
                rating=ctx.rating_of(holder.account),
            )
            seats.append(seat.other)
            session = ctx.sessions.get(holder.member)
            if session is not None:
                session.tables.add(table_id)
        # the seats are written as they are taken, before the game they begin
        self.ctx.table_changed(new, now, seats=seats)
        started = self.play.game_may_start(new, now)
        for member, name in list(table.spectators.items()):
            outbox += new.spectate(member, name)
            del table.spectators[member]  # they watch the new game: counted there alone
            session = ctx.sessions.get(member)
            if session is not None:
                session.tables.add(table_id)
                session.tables.discard(table.table_id)
        self.ctx.table_changed(new, now, outbox, state=started, lobby=True, computers=True)
        self.ctx.table_changed(table, now)  # its spectators went along
        log.info("table %s: rematch of %s", table_id, table.table_id)

    # ----- closing ------------------------------------------------------------------------------

    def close_table(self, table: Table, closing: Closing, now: float) -> None:
        ctx = self.ctx
        if table.closed:
            return
        log.info("table %s closed: %s", table.table_id, closing.english)
        members = table.members()
        outbox = table.close(closing)
        ctx.write(CloseOp(table.table_id, closing.english, ctx.wall))
        ctx.lobby.remove(table.table_id)
        creator = self.creators.pop(table.table_id, None)
        if creator is not None:
            made = self.tables_by_address[creator]
            made.discard(table.table_id)
            if not made:
                del self.tables_by_address[creator]
        for holder in table.seats.values():
            if holder is not None and holder.computer and holder.member is not None:
                ctx.computers.pop(holder.member, None)
        for member in members:
            session = ctx.sessions.get(member)
            if session is not None:
                session.tables.discard(table.table_id)
        self.ctx.table_changed(table, now, outbox, lobby=True)

    def sweep(self, pending: list[Table], now: float, most: int) -> None:
        """End by forfeit the games abandoned by a player; close the tables whose time is up;
        of the tables pending, `most` at the end of the list (taken off it)."""
        cfg = self.ctx.config
        online: set[str] | None = None  # the accounts logged in somewhere, once needed
        while most and pending:
            most -= 1
            table = pending.pop()
            if table.closed or table.settled():
                continue
            if table.status == "playing":
                if online is None:
                    online = self._online_accounts()
                self._forfeit_abandoned(table, now, online)
                continue  # a game under way ends with a result, never by closing its table
            reason = table.expired(
                now, cfg.abandon_timeout, cfg.over_linger, cfg.over_grace, cfg.waiting_grace
            )
            if reason is not None:
                self.close_table(table, reason, now)

    def _online_accounts(self) -> set[str]:
        return self.ctx.account_sessions.accounts()

    def present(self, holder: SeatHolder, online: set[str]) -> bool:
        """The seat's player is connected: at the table, or elsewhere on the connection that
        stepped away from it, or (an account's seat) logged in to the account anywhere. Such
        a player is not abandoning the game, however long they stay away from the table."""
        if holder.computer or holder.member is not None:
            return True
        if holder.away is not None:
            if holder.away in self.ctx.sessions:
                return True
            holder.away = None  # that connection has gone
        return holder.account is not None and holder.account in online

    def _forfeit_abandoned(self, table: Table, now: float, online: set[str]) -> bool:
        """A player without any connection for the abandonment timeout loses the game by
        forfeit (docs/rules.md, R19). When both are past it, the one gone the
        longer loses; gone equally long (since a restart, say), the one to move, whom the game
        was waiting for. A game of days waits for its deadline instead. True: it ended."""
        if table.correspondence:
            return False
        timeout = self.ctx.config.abandon_timeout
        gone_for: dict[Seat, float] = {}
        for seat in Seat:
            holder = table.seats[seat]
            if holder is None:
                continue
            if self.present(holder, online):
                holder.present_at = now
            elif now - holder.present_at >= timeout:
                gone_for[seat] = now - holder.present_at
        if not gone_for:
            return False
        longest = max(gone_for.values())
        losers = [seat for seat, gone in gone_for.items() if gone == longest]
        loser = losers[0] if len(losers) == 1 else table.game.to_move
        holder = table.seats[loser]
        assert holder is not None
        log.info("table %s: %s gone %.0f s, forfeits", table.table_id, holder.name, longest)
        self.play.end(table, Termination.FORFEIT, loser, now)
        return True

    # ----- after a restart ----------------------------------------------------------------------

    def restore(self, stored: list[StoredTable], used_ids: set[str], now: float) -> None:
        """Rebuild the tables of a previous run from storage: never reshuffled, seats shown
        disconnected until reclaimed, computers playing on, abandonment clocks restarted.
        `used_ids` are every table id ever stored, so that no new table takes an old id."""
        self.used_table_ids |= used_ids
        for row in stored:
            try:
                self._restore_table(row, now)
            except Exception:
                log.exception("table %s could not be rebuilt from storage; left out", row.table_id)

    def _restore_table(self, row: StoredTable, now: float) -> None:
        ctx = self.ctx
        options = GameOptions.from_dict(row.options)
        first = Seat.parse(row.first)
        source = ctx.card_source()

        def rebuild() -> tuple[Game, list[list[Event]]]:
            entries = [entry_from_wire(e) for e in row.log]
            events: list[list[Event]] = []
            game = Game.from_log(options, first, entries, events=events, source=source)
            return game, events

        # every entry but a chance outcome made a version
        version = sum(1 for e in row.log if not (isinstance(e, list | tuple) and e and e[0] == "c"))
        table = Table.stored(
            row.table_id,
            options,
            version,
            row.finished,
            rebuild,
            rng=ctx.rng,
            vs_computer=row.vs_computer,
            chat_history=ctx.config.chat_history,
            now=now,
        )
        entries = row.log
        table.stored_log = len(entries)
        table.finish_stored = row.finished
        for seat in Seat:
            stored = row.seats.get(seat.name.lower())
            if stored is None:
                continue
            member = None
            if stored.computer:
                member = ctx.new_member()
                ctx.computers[member] = row.table_id
            table.seats[seat] = SeatHolder(
                stored.name,
                stored.token_hash,
                stored.computer,
                member,
                now,
                stored.account,
                ctx.rating_of(stored.account),
            )
        roles: dict[str | None, RoleName] = {"white": "white", "black": "black"}
        roles["spectator"] = "spectator"
        table.chat_log.extend(
            ChatEntry(sender, text, roles.get(role)) for sender, text, role in row.chat
        )
        table.created_wall = row.created
        self._restore_state(table, row.state, now)
        self.used_table_ids.add(row.table_id)
        ctx.lobby.add(table)
        ctx.wake_for_sweep(now)
        self.ctx.table_changed(table, now, computers=True)

    def _restore_state(self, table: Table, state: dict[str, Any], now: float) -> None:
        """The table's settings, clocks and offers as stored; a running clock starts again
        now, so the time the server was down is charged to nobody."""
        level = state.get("level", "easy")
        table.level = level if level in ("easy", "normal", "strong") else "easy"
        table.hints = bool(state.get("hints", True))
        table.rated_requested = bool(state.get("rated", True))
        if state.get("clock") is not None:
            table.clock = Clock.from_state(state["clock"], now, self.ctx.wall)
        table.draw_offer = _seat_or_none(state.get("draw_offer"))
        table.rematch_offer = _seat_or_none(state.get("rematch_offer"))
        rematch_to = state.get("rematch_to")
        table.rematch_to = rematch_to if isinstance(rematch_to, str) else None
        if table.status == "playing":
            table.turn_started = True
            self.ctx.timers.for_turn(table, now, self.ctx.config)
            for seat in Seat:
                holder = table.seats[seat]
                if holder is not None and not holder.computer:
                    claim_at = now + self.ctx.config.claim_after
                    self.ctx.timers.schedule(claim_at, table.table_id, "claim")


def _terms(asked: CreateTable | ChallengeTerms) -> tuple[GameOptions, Clock | None]:
    """A new table's rules and clock as asked for, or bad_options."""
    return game_terms(
        asked.options, asked.clock, lambda why: TableError(ErrorCode.BAD_OPTIONS, why)
    )


def _seat_or_none(value: Any) -> Seat | None:
    return Seat.parse(value) if isinstance(value, str) else None


def describe_options(options: GameOptions) -> str:
    """Table options for a log line, as a host reads them."""
    parts = []
    if options.variant1:
        parts.append("variant 1")
    if options.variant2:
        parts.append("variant 2")
    if options.handicap_seat is not None:
        parts.append(f"handicap {options.handicap_seat.label} {options.handicap_bridges}")
    return ", ".join(parts) or "standard rules"
