"""The move journal: log entries stored since the last SQLite transaction, appended to a file
beside the database (`<database>-moves`), one write() each.

Why it exists. Storing a move is the one write between a player's command and its update
(storage.py: nothing is sent before it is stored). After a moment asleep, as a server always is
between two commands, the row as a SQLite transaction takes a median 47 us, and the whole
`write` through this journal 26 us, the append itself a few (`bench/storage_bench.py`). Over
loopback the one-table command->update p50 went from 2.0x the bare echo to 1.75x
(`bench/load_bench.py --runs 1`). So a move stored alone is appended here, and the journal's
entries move into SQLite's `log` table, in one transaction, with the next write that is not a
lone move: at least every `TOUCH_EVERY` second while moves flow (see storage.py), and when the
storage closes.

Durability is the same as SQLite's with `synchronous=NORMAL`: once write() returns, the record
is in the operating system's page cache and survives the process being killed; a power loss may
lose the last records.

Format. Records one after another, each a header (the payload's length and its CRC-32, two
big-endian unsigned 32-bit integers) and a msgpack payload `[table_id, index, [entry, ...]]`,
each entry the msgpack bytes the `log` table holds. The descriptor is opened with O_APPEND.

Reading. A record cut short, or failing its CRC, at the end of the file is an append a crash
interrupted: nobody was told about it (an update goes out only after write() returned), so it
is dropped. Anywhere else it means the file is damaged: `JournalError`, and nothing changes.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import attrs
import msgpack

SUFFIX = "-moves"
HEADER = struct.Struct(">II")  # payload length, CRC-32 of the payload
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)  # not on Windows


class JournalError(Exception):
    """The journal cannot be read or written; the message names the path and why."""


@attrs.frozen
class JournalRecord:
    table_id: str
    index: int  # the log index of entries[0]
    entries: tuple[bytes, ...]  # msgpack bytes, as the log table stores them


def journal_path(database: str | Path) -> Path:
    return Path(f"{database}{SUFFIX}")


def encode_record(table_id: str, index: int, entries: Sequence[bytes]) -> bytes:
    payload = msgpack.packb([table_id, index, list(entries)], use_bin_type=True)
    return HEADER.pack(len(payload), zlib.crc32(payload)) + payload


def read_journal(path: Path) -> list[JournalRecord]:
    """The records of the journal at `path` (none if there is no file), a torn last one left
    out."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as e:
        raise JournalError(f"{path}: cannot read the move journal: {e.strerror}") from e
    records = []
    at = 0
    while at < len(data):
        end = at + HEADER.size
        if end > len(data):
            break  # a header cut short: torn
        length, crc = HEADER.unpack_from(data, at)
        payload = data[end : end + length]
        if len(payload) < length:
            break  # torn
        if zlib.crc32(payload) != crc:
            if end + length == len(data):
                break  # the last record, torn inside
            raise JournalError(f"{path}: the move journal is damaged at byte {at}")
        records.append(_decode(path, at, payload))
        at = end + length
    return records


def _decode(path: Path, at: int, payload: bytes) -> JournalRecord:
    try:
        table_id, index, entries = msgpack.unpackb(payload, raw=False)
        record = JournalRecord(table_id, index, tuple(entries))
    except (ValueError, TypeError) as e:
        raise JournalError(f"{path}: the move journal has a bad record at byte {at}") from e
    if not (
        isinstance(table_id, str)
        and isinstance(index, int)
        and index >= 0
        and all(isinstance(e, bytes) for e in record.entries)
    ):
        raise JournalError(f"{path}: the move journal has a bad record at byte {at}")
    return record


class MoveJournal:
    """The open journal file of one storage: appends, and emptying once SQLite has it all."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._fd: int | None = os.open(
                path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | _CLOEXEC, 0o600
            )
        except OSError as e:
            raise JournalError(f"{path}: cannot open the move journal: {e.strerror}") from e
        self.empty = os.fstat(self._fd).st_size == 0

    def append(self, table_id: str, index: int, entries: Sequence[bytes]) -> None:
        record = encode_record(table_id, index, entries)
        assert self._fd is not None, "the journal is closed"
        try:
            written = os.write(self._fd, record)
        except OSError as e:
            raise JournalError(f"{self.path}: cannot append to the move journal: {e}") from e
        self.empty = False
        if written != len(record):  # a full disk: the torn record is dropped when read
            raise JournalError(f"{self.path}: the move journal took {written} of {len(record)}")

    def clear(self) -> None:
        """Everything in the journal is in SQLite now."""
        if self.empty:
            return
        assert self._fd is not None, "the journal is closed"
        try:
            os.ftruncate(self._fd, 0)
        except OSError as e:
            raise JournalError(f"{self.path}: cannot empty the move journal: {e}") from e
        self.empty = True

    def close(self) -> None:
        """Close the file, and remove it if it is empty (it is whenever SQLite has it all)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        os.close(fd)
        if self.empty:
            self.path.unlink(missing_ok=True)
