"""A tournament's game's record names its tournament and round (version 4's
`record.tournament`), in the core without sockets: while its table is open, read from storage
once it is closed, and after a restart, whose archive and tournaments come back from the
database; a version-3 connection is sent the record's bytes as before; a game of no tournament
names none."""

from __future__ import annotations

from pathlib import Path

import msgpack

from protocol.codec import encode
from protocol.fields import GameTournament
from protocol.messages import GetRecord, Record, Resign
from server.core.table import Closing, MemberId
from shared.record import write_record
from tests.server.test_archive import rated_table
from tests.server.test_core import WALL
from tests.server.test_logins import Accounts
from tests.server.test_tournament_moderation import restarted, under_way


def record_for(
    h: Accounts, member: MemberId, table_id: str, stored: str | None = None
) -> tuple[Record, int]:
    """The `record` a get_record brings the member, and the version it is encoded in; a closed
    table's is read from storage by the I/O layer: `stored`."""
    effects = h.send(member, GetRecord(table_id))
    for read in effects.record_reads:
        assert stored is not None, "read from storage"
        effects = h.took(h.core.record_read(read.member, table_id, stored, h.now, WALL))
    sent = [(m, v) for to, m, v in effects.sends if to == member and isinstance(m, Record)]
    assert len(sent) == 1, effects.sends
    return sent[0]


def test_a_tournament_games_record_names_its_tournament_and_round() -> None:
    h = Accounts()
    _, tournament_id, decided, _ = under_way(h)
    said = GameTournament(tournament_id, "Club night", 1)
    zed = h.guest("Zed", version=4)  # anyone: the archive's game is everyone's once over
    assert record_for(h, zed, decided)[0].tournament == said
    # version 3: the record as ever, the field not on the wire
    old = h.guest("Old", version=3)
    record, version = record_for(h, old, decided)
    assert version == 3
    assert msgpack.unpackb(encode(record, version)) == {
        "type": "record", "table_id": decided, "text": record.text,
    }  # fmt: skip
    # its table closed: the record read from storage says it all the same
    text = write_record(h.table(decided).game)
    h.core._tables.close_table(h.table(decided), Closing("over", "over"), h.now)
    assert decided not in h.core.lobby.tables
    record = record_for(h, zed, decided, text)[0]
    assert record == Record(decided, text, said, record.game)  # its game: test_record_entry.py


def test_the_tournament_is_named_after_a_restart(tmp_path: Path) -> None:
    h = Accounts()
    _, tournament_id, decided, _ = under_way(h)
    text = write_record(h.table(decided).game)
    restarted(h, tmp_path)
    zed = h.guest("Zed", version=4)
    record, _ = record_for(h, zed, decided, text)
    said = GameTournament(tournament_id, "Club night", 1)
    assert record == Record(decided, text, said, record.game)


def test_a_game_of_no_tournament_names_none() -> None:
    h = Accounts()
    ann, _, table_id = rated_table(h)
    h.send(ann, Resign(table_id))
    zed = h.guest("Zed", version=4)
    assert record_for(h, zed, table_id)[0].tournament is None
