"""What the server core asks to be kept, and the interface that keeps it: the storage operations
the core builds, the tables as they come back, and the `Storage` protocol that a database
implements (server/sqlite_store.py). Nothing here does I/O, so the core may import it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Protocol

import attrs


class StorageError(Exception):
    """The database cannot be opened, read or written; the message names the path and why."""


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


@attrs.frozen
class CreateTableOp:
    table_id: str
    options: dict[str, Any]  # GameOptions.to_dict() form
    first: str  # "white" or "black"
    vs_computer: bool
    created: float  # unix time


@attrs.frozen
class SetSeatOp:
    table_id: str
    seat: str
    name: str
    token_hash: bytes
    computer: bool


@attrs.frozen
class ClearSeatOp:
    table_id: str
    seat: str


@attrs.frozen
class AppendLogOp:
    table_id: str
    index: int  # position of entries[0] in the table's log, 0-based
    entries: tuple[Any, ...]  # opaque msgpack-able values
    at: float


@attrs.frozen
class ChatOp:
    table_id: str
    sender: str
    text: str
    at: float
    role: str | None = None  # "white", "black" or "spectator"


@attrs.frozen
class TableStateOp:
    """What a table holds besides its log, seats and chat (clocks, offers, its settings), as a
    JSON-able map that replaces the one stored before."""

    table_id: str
    state: dict[str, Any]
    at: float


@attrs.frozen
class FinishOp:
    table_id: str
    result: dict[str, Any]  # JSON-able
    record: str  # the full game record text
    at: float


@attrs.frozen
class CloseOp:
    """The table is gone from the server and is not loaded again; a finished game's result and
    record stay in the database."""

    table_id: str
    reason: str
    at: float


StorageOp = (
    CreateTableOp | SetSeatOp | ClearSeatOp | AppendLogOp | ChatOp | TableStateOp | FinishOp
    | CloseOp
)  # fmt: skip


@attrs.frozen
class StoredSeat:
    name: str
    token_hash: bytes
    computer: bool


@attrs.frozen
class StoredTable:
    table_id: str
    options: dict[str, Any]
    first: str
    vs_computer: bool
    created: float
    updated: float  # the latest time carried by an op on this table (seat ops carry none)
    seats: dict[str, StoredSeat]  # "white"/"black"; absent when free
    log: list[Any]  # entries in index order
    chat: list[tuple[str, str, str | None]]  # (sender, text, role), the last chat_limit
    finished: bool
    state: dict[str, Any] = attrs.Factory(dict)  # the last TableStateOp's map


class Storage(Protocol):
    def write(self, ops: Sequence[StorageOp]) -> None:
        """Apply all ops in one transaction; once this returns they survive a kill -9."""

    def load_open_tables(self, chat_limit: int) -> list[StoredTable]:
        """Every table not closed (waiting, playing, or finished but not closed), oldest first."""

    def finished_record(self, table_id: str) -> str | None:
        """The record of a finished game, closed or not; None if the game never finished."""

    def table_ids(self) -> set[str]:
        """Every table id ever stored, closed ones included."""

    def close(self) -> None: ...
