"""Schema version 5 in both databases: a tournament, its entrants, its rounds with their games,
tables and results, and the archive's tournament and round, kept across a reopening; and the
migration of a version-4 database."""

from __future__ import annotations

import attrs
import pytest

from server.core.store import (
    AccountOp,
    ArchivedGame,
    ArchiveOp,
    CreateTableOp,
    DirectorOp,
    EntrantGoneOp,
    EntrantOp,
    EntrantRow,
    ModerationLogOp,
    PairingResultOp,
    PairingRow,
    RoundOp,
    RoundRow,
    StorageError,
    StoredTournament,
    TournamentActionDoneOp,
    TournamentActionOp,
    TournamentOp,
    TournamentRow,
)
from server.storage.sqlite_schema import SCHEMA_VERSION
from tests.conftest import Backend
from tests.server.test_account_storage import account_row
from tests.server.test_storage_safety import VERSION_5_TABLES, VERSION_6_TABLES, to_version

TERMS = {"rounds": 3, "clock": {"initial": 300, "increment": 3}, "rated": True}
CUP = TournamentRow("t1", "Club night", "ann", "swiss", TERMS, 10.0)
ROUND_1 = RoundRow(
    "t1",
    1,
    "cid",
    (),
    20.0,
    (
        PairingRow(1, "ann", "bob", "tab1"),
        PairingRow(2, "dan", "cid", None, "white_won_by_forfeit"),
    ),
)


def _entrant(key: str, position: int, **more: object) -> EntrantRow:
    return EntrantRow("t1", key, 1500.0 + position, position, **more)  # type: ignore[arg-type]


def test_a_tournament_and_its_rounds_are_kept(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(account_row(k)) for k in ("ann", "bob", "cid", "dan", "eve")])
    storage.write([TournamentOp(CUP)])
    storage.write([EntrantOp(_entrant(k, i)) for i, k in enumerate(("ann", "bob", "cid", "dan"))])
    storage.write([EntrantOp(_entrant("eve", 4)), EntrantGoneOp("t1", "eve")])
    started = TournamentRow("t1", "Club night", "ann", "swiss", TERMS, 10.0, "started")
    storage.write(
        [
            TournamentOp(started),
            CreateTableOp("tab1", {}, "white", False, 20.0),
            RoundOp(ROUND_1),
        ]
    )
    storage.write([PairingResultOp("t1", 1, 1, "black_won")])
    storage.write([EntrantOp(_entrant("dan", 3, left=1))])
    storage.close()

    storage = backend.open()
    (kept,) = storage.load_tournaments()
    played = (PairingRow(1, "ann", "bob", "tab1", "black_won"), ROUND_1.games[1])
    assert kept == StoredTournament(
        started,
        [_entrant("ann", 0), _entrant("bob", 1), _entrant("cid", 2), _entrant("dan", 3, left=1)],
        [RoundRow("t1", 1, "cid", (), 20.0, played)],
    )
    # a result is final: a second one for the same game is refused and writes nothing
    with pytest.raises(StorageError, match="no result to take"):
        storage.write([PairingResultOp("t1", 1, 1, "draw"), EntrantGoneOp("t1", "ann")])
    assert len(storage.load_tournaments()[0].entrants) == 4
    final = [{"name": "bob", "points": 2}]
    storage.write([TournamentOp(attrs.evolve(started, status="finished", standings=final))])
    assert storage.load_tournaments()[0].tournament.standings == final
    storage.close()


def test_the_archive_keeps_a_games_tournament_and_round(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(account_row("ann")), CreateTableOp("tab1", {}, "white", False, 1.0)])
    game = ArchivedGame(
        "tab1", "Ann", "Bob", "ann", None, "white", "resigned", False, None, None, False, None,
        1.0, 2.0, "t1", 2,
    )  # fmt: skip
    storage.write([ArchiveOp(game)])
    storage.close()
    storage = backend.open()
    assert storage.load_archive() == [game]
    storage.close()


def test_a_version_4_database_gains_the_tournaments(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(account_row("ann")), CreateTableOp("tab1", {}, "white", False, 1.0)])
    old_game = ArchivedGame(
        "tab1", "Ann", "Bob", "ann", None, None, "agreed", False, None, None, False, None, 1.0,
        2.0,
    )  # fmt: skip
    storage.write([ArchiveOp(old_game)])
    storage.close()
    to_version(backend, 4, (*VERSION_6_TABLES, *VERSION_5_TABLES))
    storage = backend.open()
    assert storage.load_archive() == [old_game]  # no tournament: NULL
    assert storage.load_tournaments() == []
    storage.write([TournamentOp(CUP), EntrantOp(_entrant("ann", 0))])
    assert [t.tournament.name for t in storage.load_tournaments()] == ["Club night"]
    storage.close()
    assert SCHEMA_VERSION == 6


def test_the_directors_are_kept(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(account_row(k)) for k in ("ann", "bob")])
    storage.write([DirectorOp("bob", True, 1.0), DirectorOp("ann", True, 2.0)])
    storage.write([DirectorOp("ann", True, 3.0)])  # again: nothing new
    storage.close()
    storage = backend.open()
    assert storage.load_directors() == ["ann", "bob"]
    storage.write([DirectorOp("bob", False, 4.0)])
    assert storage.load_directors() == ["ann"]
    storage.close()


def test_the_operators_commands_on_tournaments_wait_until_done(backend: Backend) -> None:
    """kahuna-server tournaments leaves its commands for the server (which holds the
    tournaments in memory) and writes no tournament's row; the server marks each done; a
    tournament given to another director keeps them in its row."""
    storage = backend.open()
    storage.write([AccountOp(account_row("ann")), AccountOp(account_row("bob")), TournamentOp(CUP)])
    storage.write(
        [
            TournamentActionOp("t1", "hand", "bob", "Ann is away", 20.0),
            TournamentActionOp("t1", "close", None, "spam", 21.0),
        ]
    )
    storage.close()
    storage = backend.open()
    first, second = storage.load_tournament_actions()
    assert (first.tournament_id, first.action, first.director, first.reason) == (
        "t1", "hand", "bob", "Ann is away",
    )  # fmt: skip
    assert (second.action, second.director, second.reason) == ("close", None, "spam")
    assert first.seq < second.seq
    (kept,) = storage.load_tournaments()
    assert (kept.tournament.director, kept.tournament.status) == ("ann", "open")
    storage.write(
        [TournamentActionDoneOp(first.seq, 30.0), TournamentOp(attrs.evolve(CUP, director="bob"))]
    )
    assert storage.load_tournament_actions() == [second]
    assert storage.load_tournaments()[0].tournament.director == "bob"
    storage.write([ModerationLogOp(31.0, "operator", "hand_tournament", "t1", "away", None, "Bob")])
    assert storage.load_moderation_log(1)[0].name == "Bob"
    storage.close()
