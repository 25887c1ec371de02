"""The life of a game around its moves: commands, the turn and its clock, the game's end (played
out, resigned, agreed, on time, forfeited), draw offers, claims, chat, and the computer's turns."""

from __future__ import annotations

import logging
from typing import Any

from protocol.errors import ErrorCode
from protocol.messages import Command
from protocol.player_messages import NOTE_SINCE, OutcomeName, PlayerNote, PlayerNoteName
from server.core.archive import Archive
from server.core.context import Context
from server.core.effects import KeepRecord
from server.core.session import Session
from server.core.sessions import chat_text
from server.core.store import ChatOp, FinishOp
from server.core.table import FlagFell, MemberId, Outbox, Table, TableError
from shared.actions import Action
from shared.record import write_record
from shared.types import Seat, Termination

log = logging.getLogger(__name__)


def no_offer(code: str, english: str) -> TableError:
    return TableError.refused(ErrorCode.NO_OFFER, code, english)


class Play:
    def __init__(self, ctx: Context, archive: Archive) -> None:
        self.ctx = ctx
        self.archive = archive
        ctx.game_ended = self.game_ended  # the epilogue's step when a game has just ended

    def command(self, member: MemberId, command: Command, now: float) -> None:
        self.act(member, command.table_id, command.version, command.action, now)

    def act(
        self, member: MemberId, table_id: str, version: int, action: str | Action, now: float
    ) -> None:
        """One action of a seat: a player's in the notation, or the computer's as it chose it.
        The table checks it all (the seat, its clock, the turn, the rules); here is what it
        sets off around the table: the game on time, a draw offer declined, the next turn's
        timers, the epilogue."""
        ctx = self.ctx
        table = ctx.lobby.get(table_id)
        try:
            mover, outbox = table.command(member, version, action, now)
        except FlagFell as fell:
            self.end(table, Termination.TIME, fell.seat, now)
            raise
        if table.draw_offer is mover.other:  # playing on declines the offer
            table.draw_offer = None
            ctx.note(table, "draw_declined", mover)
        game = table.game
        if not game.is_over and game.to_move is not mover:  # the table passed it on
            ctx.timers.for_turn(table, now, ctx.config)
            if table.correspondence:
                self.note_player(table, mover.other, "your_move")
                self._mail_turn(table, mover.other)
        # the game ran (a command is refused before and after): the lobby hears when it ended
        ctx.table_changed(
            table, now, outbox, state=table.clock is not None, lobby=game.is_over,
            computers=True,
        )  # fmt: skip

    def my_seat(self, member: MemberId, table_id: str) -> tuple[Table, Seat]:
        table = self.ctx.lobby.get(table_id)
        return table, table.acting_seat(member)

    # ----- the turn and its clock ---------------------------------------------------------------

    def game_may_start(self, table: Table, now: float) -> bool:
        """Called when a seat is taken: once both are, the first turn (and its clock) begins.
        Whether the state to store changed (a clock started)."""
        if table.status != "playing" or table.turn_started:
            return False
        table.turn_started = True
        table.turn_since = now
        if table.clock is not None:
            table.clock.start(table.game.to_move, now)
        self.ctx.timers.for_turn(table, now, self.ctx.config)
        if table.correspondence:  # the first mover may be away (a challenge accepted)
            self._mail_turn(table, table.game.to_move)
        return table.clock is not None

    def note_player(self, table: Table, seat: Seat, note: PlayerNoteName) -> None:
        """Version 3: tell the seat's player, on every connection of their account that is not
        at this table, that the game wants them."""
        holder, other = table.seats[seat], table.seats[seat.other]
        if holder is None or holder.account is None:
            return
        message = PlayerNote(note, table.table_id, None if other is None else other.name)
        members = set(table.members())
        self.ctx.send_all(
            [
                (session.member, message)
                for session in self.ctx.account_sessions.of(holder.account)
                if session.member not in members
            ]
        )

    def _mail_turn(self, table: Table, seat: Seat) -> None:
        """Version 4: the seat's player may get a mail that it is their move (MailDesk.notify
        decides)."""
        holder, other = table.seats[seat], table.seats[seat.other]
        if holder is not None and holder.account is not None:
            opponent = "?" if other is None else other.name
            self.ctx.mail_notice(holder.account, "turn", {"opponent": opponent}, table.table_id)

    def note_game_over(self, table: Table) -> None:
        """Version 4: tell each seat's player that the game is over, on their connections that
        are not at the table: their account's, and the one that stepped away from the seat
        (docs/rules.md, R19). Older connections do not know the note: they see the lobby."""
        result = table.game.result
        assert result is not None
        sessions, members = self.ctx.sessions, set(table.members())
        since = NOTE_SINCE["game_over"]
        outbox: Outbox = []
        for seat in Seat:
            holder, other = table.seats[seat], table.seats[seat.other]
            if holder is None or holder.computer:
                continue
            reached: set[MemberId] = set()
            if holder.away is not None and holder.away in sessions:
                reached.add(holder.away)
            if holder.account is not None:
                reached |= {s.member for s in self.ctx.account_sessions.of(holder.account)}
            outcome: OutcomeName = (
                "drawn" if result.winner is None else "won" if result.winner is seat else "lost"
            )
            message = PlayerNote(
                "game_over",
                table.table_id,
                None if other is None else other.name,
                outcome,
                result.kind.value,
            )
            outbox += [
                (member, message)
                for member in sorted(reached)
                if member not in members and sessions[member].version >= since
            ]
        self.ctx.send_all(outbox)

    def timer_due(self, table: Table, what: str, now: float) -> None:
        if what == "flag":
            self.flag_fell(table, now)
        elif what == f"low {table.version}" and table.status == "playing":
            self.note_player(table, table.game.to_move, "time_low")
        elif what == "claim":
            found = table.claimant(now, self.ctx.config)
            if found is not None and table.claim_noted is not found:
                table.claim_noted = found  # once, however many timers come due
                self.ctx.note(table, "claim_available", found)

    def flag_fell(self, table: Table, now: float) -> bool:
        """End the game if the running clock is at zero (the computer's included)."""
        seat = table.out_of_time(now)
        if seat is None:
            return False
        self.end(table, Termination.TIME, seat, now)
        return True

    # ----- the end of the game ------------------------------------------------------------------

    def end(self, table: Table, kind: Termination, seat: Seat | None, now: float) -> None:
        """End the game otherwise than by playing it out."""
        outbox = table.end(kind, seat)
        self.ctx.table_changed(table, now, outbox, state=True, lobby=True)
        log.info("table %s: game over (%s, %s)", table.table_id, kind.value, seat)

    def game_ended(self, table: Table, now: float) -> None:
        if table.clock is not None:
            table.clock.stop(now)
        table.draw_offer = None
        self.finished(table)
        self.note_game_over(table)
        self.ctx.tournament_game_over(table, now)

    def finished(self, table: Table) -> None:
        """Write the result and the record."""
        ctx = self.ctx
        result = table.game.result
        assert result is not None
        text = write_record(table.game)
        summary: dict[str, Any] = {**result.to_dict(), "points": list(table.game.scores)}
        ctx.write(FinishOp(table.table_id, summary, text, ctx.wall))
        table.finish_stored = True
        self.archive.game_over(table)
        if ctx.config.records_dir is not None:
            ctx.effects.records.append(KeepRecord(table.table_id, text))

    def offer_draw(self, member: MemberId, table_id: str, now: float) -> None:
        table, seat = self.my_seat(member, table_id)
        if table.status != "playing":
            raise TableError(
                ErrorCode.GAME_OVER if table.game.is_over else ErrorCode.GAME_NOT_STARTED,
                "a draw is offered while the game runs",
            )
        if table.draw_offer is seat.other:
            self.end(table, Termination.AGREED, None, now)
            return
        if table.draw_offer is seat:
            raise no_offer("offer_stands", "your offer stands; the opponent decides")
        other = table.seats[seat.other]
        if other is not None and other.computer:  # the computer plays every game out
            self.ctx.note(table, "draw_declined", seat.other)
            return
        table.draw_offer = seat
        self.ctx.note(table, "draw_offered", seat)
        self.ctx.table_changed(table, now, state=True)

    def decline_draw(self, member: MemberId, table_id: str, now: float) -> None:
        table, mine = self.my_seat(member, table_id)
        if table.draw_offer is not mine.other:
            raise no_offer("no_draw_offer", "there is no draw offer to decline")
        table.draw_offer = None
        self.ctx.note(table, "draw_declined", mine)
        self.ctx.table_changed(table, now, state=True)

    def claim(self, member: MemberId, table_id: str, now: float) -> None:
        table, mine = self.my_seat(member, table_id)
        if table.claimant(now, self.ctx.config) is not mine:
            raise table.claim_refusal(mine, now, self.ctx.config)
        self.end(table, Termination.FORFEIT, mine.other, now)

    def seat_gone(self, table: Table, seat: Seat, now: float) -> None:
        """A player's connection went: the other may claim later, and its rematch offer
        falls."""
        if table.status == "playing":
            self.ctx.timers.schedule(now + self.ctx.config.claim_after, table.table_id, "claim")
        if table.rematch_offer is seat:
            table.rematch_offer = None
            self.ctx.note(table, "rematch_declined", seat)
            self.ctx.table_changed(table, now, state=True)

    # ----- chat ---------------------------------------------------------------------------------

    def chat(self, session: Session, table_id: str, text: str, now: float) -> None:
        ctx = self.ctx
        table = ctx.lobby.get(table_id)
        table.present_role(session.member)  # before the chat's rate is taken from
        cleaned = chat_text(ctx, session, text, now)
        outbox = table.chat(session.member, cleaned)
        entry = table.chat_log[-1]
        ctx.write(ChatOp(table_id, entry.sender, entry.text, ctx.wall, entry.role))
        self.ctx.table_changed(table, now, outbox)

    # ----- the computer -------------------------------------------------------------------------

    def fallback_move(self, member: MemberId, table_id: str, now: float) -> None:
        """The computer must never stall its table: when its choice is refused, it plays the
        first legal action instead."""
        table = self.ctx.lobby.tables.get(table_id)
        seat = None if table is None else table.seat_of(member)
        if table is None or seat is None or table.game.is_over or table.game.to_move is not seat:
            return
        self.act(member, table_id, table.version, table.game.legal_actions()[0], now)
