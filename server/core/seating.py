"""Who is at a table: a seat taken (`join`), taken back with its token or by the account that
holds it (`reclaim`), given up or stepped away from (`leave`), a game watched (`spectate`), and
the seats a dropped connection leaves waiting (`disconnect`). Each ends in Context.table_changed."""

from __future__ import annotations

from server.core.context import Context
from server.core.lifecycle import Lifecycle
from server.core.play import Play
from server.core.session import Session
from server.core.sessions import Sessions, logged_in_account
from server.core.table import Closing, Table
from shared.types import Seat

_RESUME = "log in to resume your games"


class Seating:
    def __init__(self, ctx: Context, sessions: Sessions, play: Play, tables: Lifecycle) -> None:
        self.ctx = ctx
        self.sessions = sessions
        self.play = play
        self.tables = tables

    def _coming(self, session: Session, table_id: str) -> Table:
        """The open table a connection comes to, if it may be at one more (a table it is at
        already does not count again)."""
        table = self.ctx.lobby.get(table_id)
        if table_id not in session.tables:
            self.sessions.room_for_one_more(session)
        return table

    def join(self, session: Session, table_id: str, seat: str | None, now: float) -> None:
        ctx, member = self.ctx, session.member
        table = self._coming(session, table_id)
        assert session.name is not None
        parsed = None if seat is None else Seat.parse(seat)
        outbox = table.join(
            member, session.name, parsed, now=now, account=session.account,
            rating=ctx.rating_of(session.account),
        )  # fmt: skip
        session.tables.add(table_id)
        taken = table.seat_of(member)
        assert taken is not None
        # the players message tells the others the game (and the mover's clock) began
        started = self.play.game_may_start(table, now)
        self.ctx.table_changed(
            table, now, outbox, state=started, seats=[taken], newcomer=member, lobby=True,
            computers=True,
        )  # fmt: skip

    def reclaim(self, session: Session, table_id: str, token: str | None, now: float) -> None:
        """Take back a seat with its token, or (None) the seat the session's account holds."""
        ctx, member = self.ctx, session.member
        # resume: the login first, as documented
        account = None if token is not None else logged_in_account(ctx, session, _RESUME).key
        table = self._coming(session, table_id)
        holders = {s: h.member for s, h in table.seats.items() if h is not None}
        if account is None:
            assert token is not None
            outbox = table.reclaim(member, token, now)
        else:
            outbox = table.resume(member, account, now)
        held = table.seat_of(member)
        assert held is not None
        previous = holders.get(held)
        if previous is not None and previous != member and previous in ctx.sessions:
            ctx.sessions[previous].tables.discard(table_id)  # it was let go
        session.tables.add(table_id)
        # resumed: a new token, written; a token's own seat is as stored
        seats = [held] if token is None else []
        self.ctx.table_changed(table, now, outbox, seats=seats, newcomer=member, lobby=True)

    def leave(self, session: Session, table_id: str, now: float) -> None:
        ctx, member = self.ctx, session.member
        table = ctx.lobby.get(table_id)
        held = table.seat_of(member)
        outbox = table.leave(member, now)
        given_up = [held] if held is not None and table.seats[held] is None else []
        if table.role_of(member) is None:
            session.tables.discard(table_id)
        self.ctx.table_changed(table, now, outbox, seats=given_up, lobby=True)
        if held is not None and not given_up:
            self.play.seat_gone(table, held, now)  # stepped away: like a dropped line
        if table.empty:
            self.tables.close_table(table, Closing("nobody_seated", "nobody is seated"), now)

    def spectate(self, session: Session, table_id: str, now: float) -> None:
        member = session.member
        table = self._coming(session, table_id)
        assert session.name is not None
        outbox = table.spectate(member, session.name)
        session.tables.add(table_id)
        self.ctx.table_changed(table, now, outbox, newcomer=member, lobby=True)

    def disconnect(self, session: Session, now: float) -> None:
        """The connection is gone: its seats wait for their tokens, and their opponents may
        claim later."""
        member = session.member
        for table_id in sorted(session.tables):  # an order that no hash seed changes
            table = self.ctx.lobby.tables.get(table_id)
            if table is not None and not table.closed:
                seat = table.seat_of(member)
                self.ctx.table_changed(table, now, table.disconnect(member, now), lobby=True)
                if seat is not None:
                    self.play.seat_gone(table, seat, now)
