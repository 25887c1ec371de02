"""A finished game's record, for whoever may have it: the answer to version 2's get_record,
and the game version 3's analyse hands to the I/O layer to analyse (server/jobs/analysis_jobs.py).
Both are given on the same terms, since an analysis tells nothing the record does not:

- a game at an open table, to a connection that plays or watches there, once it is over;
- version 3: a game of the archive (an account at a seat) to anyone once it is over, its table
  open or not; a closed table's record is read from storage (a RecordRead, answered by read()).

Version 4's `record` names a tournament's game's tournament and round besides (the archive keeps
them with the game), so that its replay, opened from a shared link, can say where it was played;
and it carries the game's entry as a games list gives it (`record.game`: the players, the result,
the rating changes), so that the replay can say who played and how it went. Both hold only what
is anyone's to know: the archive's account keys stay here, and the record itself is given on
the terms below, never before the game is over.

The checks, in order: no_such_table (no_such_game for an archive's game no longer open),
not_at_table, game_not_over.
"""

from __future__ import annotations

from protocol.errors import ErrorCode
from protocol.fields import GameTournament
from protocol.messages import Record
from protocol.player_messages import GameEntry
from server.core.archive import Archive, archived_entry
from server.core.context import Context
from server.core.effects import AnalysisJob, RecordRead
from server.core.session import Session
from server.core.table import MemberId, TableError
from shared.record import write_record


class FinishedGames:
    def __init__(self, ctx: Context, archive: Archive) -> None:
        self.ctx = ctx
        self.archive = archive

    def record(self, session: Session, table_id: str) -> None:
        """get_record: the record, now or once storage has read it."""
        text = self._text(session, table_id, analyse=False)
        if text is not None:
            self.ctx.send(session.member, self._record(table_id, text))

    def analyse(self, session: Session, table_id: str) -> None:
        """analyse: the record goes to the I/O layer, which analyses it (or has already)."""
        text = self._text(session, table_id, analyse=True)
        if text is not None:
            self._job(session.member, table_id, text)

    def read(self, member: MemberId, table_id: str, text: str | None, analyse: bool) -> None:
        """A RecordRead's answer from storage: the record, or None if it has none."""
        if text is None:
            self.ctx.error(
                member, ErrorCode.NO_SUCH_GAME, "no finished game has this id",
                table_id=table_id, refused="analyse" if analyse else "get_record",
            )  # fmt: skip
        elif analyse:
            self._job(member, table_id, text)
        else:
            self.ctx.send(member, self._record(table_id, text))

    def _record(self, table_id: str, text: str) -> Record:
        return Record(table_id, text, self._tournament(table_id), self._entry(table_id))

    def _entry(self, table_id: str) -> GameEntry | None:
        """The game's entry: the archive's (after its table closed and after a restart too),
        else its open table's (a game of guests, given only to its members, as its record);
        None for a game the server keeps neither of."""
        archived = self.archive.entries.get(table_id)
        if archived is not None:
            return archived_entry(archived)
        table = self.ctx.lobby.tables.get(table_id)
        return None if table is None else self.archive.table_entry(table)

    def _tournament(self, table_id: str) -> GameTournament | None:
        """The tournament and round of a tournament's game: the archive's (kept with the game),
        else the desk's for a game not archived yet; None for any other game."""
        archived = self.archive.entries.get(table_id)
        where = self.ctx.tournament_tables.get(table_id)
        if archived is not None and archived.tournament_id is not None and archived.round:
            where = (archived.tournament_id, archived.round)
        if where is None:
            return None
        tournament_id, number = where
        name = self.ctx.tournament_names.get(tournament_id)
        # tournaments are never deleted: a name is always known; a link without one says nothing
        return None if name is None else GameTournament(tournament_id, name, number)

    def _job(self, member: MemberId, table_id: str, text: str) -> None:
        session = self.ctx.sessions.get(member)
        if session is not None:
            self.ctx.effects.analysis_jobs.append(
                AnalysisJob(member, table_id, text, session.version)
            )

    def _text(self, session: Session, table_id: str, analyse: bool) -> str | None:
        """The record if the session may have it now; None when it is to be read from storage;
        a TableError when the session may not have it."""
        ctx = self.ctx
        open_table = ctx.lobby.tables.get(table_id)
        if session.version >= 3 and open_table is None:
            if table_id not in self.archive.entries:
                raise TableError(ErrorCode.NO_SUCH_GAME, "no finished game has this id")
            ctx.effects.record_reads.append(RecordRead(session.member, table_id, analyse))
            return None
        if (
            session.version >= 3
            and open_table is not None
            and open_table.game.is_over
            and table_id in self.archive.entries
        ):
            # an archived game is everyone's to see once over, its table open or not
            return write_record(open_table.game)
        table = ctx.lobby.get(table_id)
        table.present_role(session.member)
        if not table.game.is_over:
            raise TableError(ErrorCode.GAME_NOT_OVER, "the record is given when the game is over")
        return write_record(table.game)
