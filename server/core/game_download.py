"""Version 4's `get_game_records`: a player downloads all of their finished games as records
(docs/records.md), a page of RECORDS_PER_PAGE at a time, the oldest first, so that no frame
grows past what a client accepts however many games an account played. The records are read
from storage (every finished game's record is stored with its result), off the core: a
RecordsRead, answered by `read`."""

from __future__ import annotations

import datetime

from protocol.account_messages import RECORDS_PER_PAGE, GameRecord, GameRecords
from protocol.errors import ErrorCode
from server.core.archive import Archive
from server.core.context import Context
from server.core.effects import RecordsRead
from server.core.session import Session
from server.core.sessions import logged_in_account
from server.core.store import ArchivedGame
from server.core.table import TableError


def heading(game: ArchivedGame) -> str:
    """The comment a downloaded record opens with, for its reader (ignored when read): the
    game, who sat where as the archive names them, when it ended (UTC)."""
    when = datetime.datetime.fromtimestamp(game.finished, datetime.UTC)
    ended = when.strftime("%Y-%m-%d %H:%M UTC")
    return f"# game {game.table_id}: {game.white} (white) against {game.black} (black), {ended}\n"


def pages_of(games: int) -> int:
    return -(-games // RECORDS_PER_PAGE)


class GameDownload:
    def __init__(self, ctx: Context, archive: Archive) -> None:
        self.ctx = ctx
        self.archive = archive

    def ask(self, session: Session, page: int) -> None:
        account = logged_in_account(self.ctx, session, "log in to download your games")
        games = self.archive.by_account.get(account.key, [])
        pages = pages_of(len(games))
        if page < 0 or page >= max(1, pages):
            raise TableError(
                ErrorCode.BAD_FIELD, f"page must be 0 to {max(0, pages - 1)}, not {page}"
            )
        chosen = games[page * RECORDS_PER_PAGE : (page + 1) * RECORDS_PER_PAGE]
        self.ctx.effects.records_reads.append(
            RecordsRead(session.member, account.key, account.name, page, pages, tuple(chosen))
        )

    def read(self, asked: RecordsRead, texts: list[str | None] | None) -> None:
        """A RecordsRead's answer from storage: each game's record (None: storage failed)."""
        ctx = self.ctx
        session = ctx.sessions.get(asked.member)
        if session is None or session.account != asked.key:
            return  # gone, or logged out meanwhile: the records were its account's
        if texts is None:
            ctx.error(
                asked.member, ErrorCode.INTERNAL_ERROR, "the server could not read the records",
                refused="get_game_records",
            )  # fmt: skip
            return
        games = [
            GameRecord(table_id, entry.white, entry.black, entry.finished, heading(entry) + text)
            for table_id, text in zip(asked.table_ids, texts, strict=True)
            if text is not None and (entry := self.archive.entries.get(table_id)) is not None
        ]
        ctx.send(asked.member, GameRecords(asked.name, asked.page, asked.pages, games))
