"""Schema version 6's moderation in each database: the moderators, the log, the mutes and bans,
the reports, written and read back from a reopened database; a report closed once; a version-5
database gains the tables."""

from __future__ import annotations

import pytest

from server.core.store import (
    ModerationLogOp,
    ModeratorOp,
    ReportClosedOp,
    ReportOp,
    ReportRow,
    SanctionGoneOp,
    SanctionOp,
    SanctionRow,
    StorageError,
)
from server.storage.sqlite_schema import SCHEMA_VERSION
from tests.conftest import Backend
from tests.server.test_storage_safety import VERSION_6_TABLES, to_version

MUTE = SanctionRow("mute", "bob", 2000.0, "spam", "Mira", 1000.0)
BAN = SanctionRow("ban", "203.0.113.0/24", 5000.0, "a flood", "Mira", 1001.0)
BY_NAME = SanctionRow("ban", "2001:db8::/64", 5000.0, "a flood", "Mira", 1001.0, "eve")
REPORT = ReportRow(
    1, 1002.0, "ann", "bob", "insults", "t1",
    [["lobby", "Bob", "idiots", 999.0], ["table", "Bob", "fish", None]],
)  # fmt: skip


def test_moderation_round_trips_through_a_reopened_database(backend: Backend) -> None:
    storage = backend.open()
    storage.write(
        [
            ModeratorOp("mira", True, 1.0),
            ModeratorOp("otto", True, 1.0),
            SanctionOp(MUTE),
            SanctionOp(BAN),
            SanctionOp(BY_NAME),
            ReportOp(REPORT),
            ReportOp(ReportRow(2, 1003.0, "cid", "bob", "spam", None, [])),
            ModerationLogOp(1000.0, "Mira", "mute", "Bob", "spam", 2000.0),
            ModerationLogOp(1001.0, "Mira", "ban", "203.0.113.0/24", "a flood", 5000.0),
        ]
    )
    storage.write(
        [
            ModeratorOp("otto", False, 2.0),
            SanctionOp(SanctionRow("mute", "bob", 3000.0, "spam again", "Otto", 1500.0)),
            ReportClosedOp(2, "Mira", "warned", 1004.0),
            ModerationLogOp(1004.0, "Mira", "close_report", "2", "warned"),
        ]
    )
    with pytest.raises(StorageError, match="report 2 is not open"):
        storage.write([ReportClosedOp(2, "Mira", "twice", 1005.0)])
    storage.close()
    storage = backend.open()
    stored = storage.load_moderation(2)
    assert stored.moderators == ["mira"] == storage.load_moderators()
    assert stored.sanctions == [
        BY_NAME, BAN, SanctionRow("mute", "bob", 3000.0, "spam again", "Otto", 1500.0),
    ]  # fmt: skip
    assert stored.open_reports == [REPORT]
    assert stored.last_report == 2
    assert [line.action for line in stored.log] == ["ban", "close_report"]
    assert [line.action for line in storage.load_moderation_log(10)] == [
        "mute", "ban", "close_report",
    ]  # fmt: skip
    storage.write([SanctionGoneOp("ban", "203.0.113.0/24")])
    assert [s.kind for s in storage.load_moderation(0).sanctions] == ["ban", "mute"]
    storage.close()


def test_a_version_5_database_gains_the_moderation_tables(backend: Backend) -> None:
    backend.open().close()
    to_version(backend, 5, VERSION_6_TABLES)
    storage = backend.open()
    assert storage.load_moderation(10).moderators == []
    storage.write([ModeratorOp("mira", True, 1.0), SanctionOp(MUTE)])
    assert storage.load_moderation(10).sanctions == [MUTE]
    storage.close()
    assert SCHEMA_VERSION == 6
