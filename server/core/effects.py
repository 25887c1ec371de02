"""What the core asks the I/O layer to do, in the order it must be done: storage writes, then
messages, then closes, then the computers' turns and the host's records. The I/O layer
(server/net/app.py) finishes the writes before it sends a single message, so that no client is ever
told of an action that is not on disk."""

from __future__ import annotations

from typing import Any

import attrs

from protocol.messages import ServerMessage
from server.core.store import MailRow, StorageOp
from server.core.table import MemberId
from server.core.tournaments.swiss import SwissPlayer
from shared.seen import Seen
from shared.views import SeatView, seat_view_to_dict

CLOSE_POLICY = 1008  # flood, version mismatch, too many connections, no hello
CLOSE_TRY_AGAIN = 1013  # the server is full


# A message for a connection, with the protocol version to encode it in: the one agreed in
# hello (1 before it). One message object may go to many connections: it is encoded once per
# version.
Send = tuple[MemberId, ServerMessage, int]


@attrs.frozen
class CloseConnection:
    member: MemberId
    code: int
    reason: str


@attrs.frozen
class ComputerTurn:
    """The computer at this seat is to move: decide from this view, after `delay` seconds, and
    hand the action to ServerCore.computer_command. A newer turn for the same member replaces
    any older one not yet decided."""

    member: MemberId
    table_id: str
    version: int
    # the seat's view as the rules engine holds it: the easy level, on the event loop, chooses
    # from it as it is; `view` is its wire form, for a worker process
    seat_view: SeatView
    delay: float
    level: str = "easy"
    # The opponent's last turns as the table saw them, for a level that reads them
    # (shared.levels.LEVEL_INFER; shared.seen.seen_turns), else empty.
    turns: tuple[tuple[Seen, ...], ...] = ()

    @property
    def view(self) -> dict[str, Any]:
        """The view in its wire form, made only when asked for (a search in a worker process)."""
        return seat_view_to_dict(self.seat_view)


@attrs.frozen
class KeepRecord:
    """A finished game's record for the host's --records directory."""

    table_id: str
    text: str


@attrs.frozen
class PasswordJob:
    """Version 3's accounts: argon2 work, too slow for the event loop, done by the I/O layer in
    a worker thread. `verify` false: hash `password`; true: check it against `stored` (None: an
    unknown name, checked against a dummy hash of the same cost, so that the answer takes as
    long either way). The result goes back to ServerCore.password_done(job, result): the hash,
    or whether the password matched."""

    job: int
    password: str = attrs.field(repr=False)
    verify: bool
    stored: str | None = attrs.field(default=None, repr=False)


@attrs.frozen
class RecordRead:
    """Version 3's archive: read the record of a finished game from storage (the core keeps
    only the records of the games it holds) and hand it to ServerCore.record_read."""

    member: MemberId
    table_id: str
    analyse: bool = False  # for an analysis (version 3's analyse), not for a get_record


@attrs.frozen
class RecordsRead:
    """Version 4's get_game_records: read the records of these finished games of the account
    from storage, in this order, and hand them to ServerCore.records_read."""

    member: MemberId
    key: str  # the account's
    name: str
    page: int
    pages: int
    table_ids: tuple[str, ...]


@attrs.frozen
class AnalysisJob:
    """Version 3's analyse: the record of a finished game that the member may see, to analyse
    off the event loop (server/jobs/analysis_jobs.py) and answer with `analysis_progress` and
    `analysis` in the member's protocol version (or `busy`)."""

    member: MemberId
    table_id: str
    text: str = attrs.field(repr=False)
    version: int


@attrs.frozen
class PairingJob:
    """Version 4's tournaments: a Swiss round to pair (server/core/tournaments/swiss.py's
    pair_round of `players`), tens of milliseconds for a large round, done by the I/O layer in
    a worker process (server/jobs/pairing_jobs.py), never on the event loop. The pairing goes
    back to ServerCore.round_paired(job, pairing); nothing of it is stored until then, and a
    restart pairs the round again."""

    job: int
    tournament_id: str
    number: int  # the round's
    players: tuple[SwissPlayer, ...] = attrs.field(repr=False)


@attrs.define
class Effects:
    writes: list[StorageOp] = attrs.Factory(list)
    sends: list[Send] = attrs.Factory(list)
    closes: list[CloseConnection] = attrs.Factory(list)
    computer_turns: list[ComputerTurn] = attrs.Factory(list)
    records: list[KeepRecord] = attrs.Factory(list)
    password_jobs: list[PasswordJob] = attrs.Factory(list)
    record_reads: list[RecordRead] = attrs.Factory(list)
    analysis_jobs: list[AnalysisJob] = attrs.Factory(list)
    # the mails queued by this event's writes (their MailOps), for the sender once stored
    mails: list[MailRow] = attrs.Factory(list)
    records_reads: list[RecordsRead] = attrs.Factory(list)
    pairing_jobs: list[PairingJob] = attrs.Factory(list)
