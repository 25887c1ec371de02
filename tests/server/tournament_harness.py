"""Tournaments in the core without sockets, as the tests of the tournament desk and its edges
drive them through the accounts' harness (tests/server/test_logins.py): accounts on connections
of version 4, a tournament made and joined, the last state a member was sent, a round played
out, and a database holding what the core wrote, for a core started again."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from protocol.fields import TimeControl
from protocol.messages import Resign
from protocol.player_messages import Login, Resume
from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    TournamentState,
    TournamentTerms,
)
from server.core.store import StoredPlayers, TournamentOp
from server.core.table import MemberId
from server.storage.sqlite_store import SqliteStorage
from tests.server.test_core import writes_of
from tests.server.test_logins import Accounts

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve")
SWISS = TournamentTerms("Club night", "swiss", 3, TimeControl(300, 3))


TOKENS: dict[str, str] = {}


def v4_account(h: Accounts, name: str) -> MemberId:
    """A new account, logged in on a connection of version 4."""
    member, token = h.account(name)
    h.disconnect(member)
    TOKENS[name] = token
    return v4_login(h, name)


def v4_login(h: Accounts, name: str) -> MemberId:
    member = h.guest(name, version=4)
    h.send(member, Login(name, None, TOKENS[name]))
    return member


def last_state(h: Accounts, member: MemberId) -> TournamentState:
    return [m for m in h.sent_to(member) if isinstance(m, TournamentState)][-1]


def made(h: Accounts, director: MemberId, terms: TournamentTerms = SWISS) -> str:
    created = h.send(director, CreateTournament(terms))
    (op,) = writes_of(created, TournamentOp)
    return op.tournament.tournament_id


def made_and_joined(
    h: Accounts, director: MemberId, members: Iterable[MemberId], terms: TournamentTerms
) -> str:
    """A tournament of these terms made by `director` and joined by each of `members`, in turn:
    its id. Not started."""
    tournament_id = made(h, director, terms)
    for member in members:
        h.send(member, JoinTournament(tournament_id))
    return tournament_id


def play_round(h: Accounts, players: dict[str, MemberId], tournament_id: str, loser: str) -> None:
    """Every game of the current round ended: its players resume their seats, and in each game
    the one who comes first in NAMES resigns, unless `loser` is at the table, who resigns."""
    state = last_state(h, players["Ann"])
    for pairing in state.rounds[-1].games:
        if pairing.result is not None:
            continue
        assert pairing.table_id is not None
        at = sorted((pairing.white, pairing.black), key=NAMES.index)
        resigner = loser if loser in at else at[0]
        h.send(players[resigner], Resume(pairing.table_id))
        h.send(players[resigner], Resign(pairing.table_id))


def written(h: Accounts, tmp_path: Path) -> tuple[SqliteStorage, StoredPlayers]:
    """A database (left open) holding every batch the harness's core wrote, as after a kill -9,
    and the accounts, archive and tournaments a core started on it would be given."""
    storage = SqliteStorage(tmp_path / "db.sqlite3")
    for batch in h.batches:
        storage.write(batch)
    stored = StoredPlayers(
        storage.load_accounts(), storage.load_login_tokens(), [], storage.load_archive(), [],
        tournaments=storage.load_tournaments(), directors=storage.load_directors(),
    )  # fmt: skip
    return storage, stored
