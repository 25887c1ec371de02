"""`kahuna-server tournaments`: the operator lists the tournaments, ends one or gives it another
director, beside a running server (which applies the command at its next look, over its
players' sockets as a moderator's) and on a stopped server's database (applied by the next one
to start); a command that cannot be done is refused with nothing written."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from protocol.player_messages import LoggedIn, Login, PlayerNote, Register
from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
    WatchTournament,
)
from server.net.app import KahunaServer
from server.storage.storage_open import open_storage
from tests.conftest import Client, ServerFactory, server_config
from tests.server.operator_commands import as_program, in_process
from tests.server.tournament_sockets import WORDS, state_with


def tournaments(*args: str) -> subprocess.CompletedProcess[str]:
    """kahuna-server tournaments ARGS, run in this process (tests/server/operator_commands.py;
    the first test's first call starts it as a process of its own)."""
    return in_process("tournaments", *args)


async def player(port: int, name: str, register: bool = True) -> Client:
    client = await Client.connect(port, name)
    await client.send(Register(name, WORDS) if register else Login(name, WORDS))
    await client.expect(LoggedIn)
    return client


async def note(client: Client, name: str) -> PlayerNote:
    while True:
        found = await client.expect(PlayerNote)
        if found.note == name:
            return found


async def named(client: Client, name: str) -> TournamentState:
    while True:
        state = await client.expect(TournamentState)
        if state.summary.name == name:
            return state


async def closed(client: Client) -> TournamentState:
    while True:
        state = await client.expect(TournamentState)
        if state.summary.closed:
            return state


async def test_beside_a_running_server_the_operator_ends_a_tournament_and_hands_one_on(
    tmp_path: Path, make_server: ServerFactory
) -> None:
    db = str(tmp_path / "db.sqlite3")
    server = await make_server(db=db, password_cost="test", account_actions_interval=0.1)
    ann, bob, cid = [await player(server.port, name) for name in ("Ann", "Bob", "Cid")]
    await ann.send(CreateTournament(TournamentTerms("Cup", "round_robin")))
    cup = (await ann.expect(TournamentState)).summary.tournament_id
    for client in (bob, cid):
        await client.send(JoinTournament(cup))
    await ann.send(JoinTournament(cup))
    await ann.send(StartTournament(cup))
    await state_with(bob, 1)
    await cid.send(CreateTournament(TournamentTerms("Later", "swiss", 2)))
    later = (await named(cid, "Later")).summary.tournament_id
    listed = await asyncio.to_thread(as_program, "tournaments", "list", "--db", db)
    assert listed.returncode == 0, listed.stderr
    head, newest, oldest = listed.stdout.splitlines()
    assert head.split()[:3] == ["id", "name", "format"]
    assert newest.split()[:3] == [later, "Later", "swiss"] and newest.split()[-1] == "Cid"
    assert oldest.split()[:4] == [cup, "Cup", "round_robin", "started"]
    assert oldest.split()[4:] == ["3", "1/3", "Ann"]
    # what cannot be done is refused, nothing written
    for args, why in (
        (("end", "nope", "spam"), "no tournament has the id 'nope'"),
        (("director", later, "Nobody", "gone"), "no account is named 'Nobody'"),
        (("director", later, "cid", "gone"), "Cid directs"),
    ):
        refused = await asyncio.to_thread(tournaments, *args, "--db", db)
        assert refused.returncode == 1 and why in refused.stderr, refused.stderr
    handed = await asyncio.to_thread(
        tournaments, "director", later, "Bob", "Cid", "asked", "--db", db
    )
    assert handed.returncode == 0, handed.stderr
    assert f"gives {later} (Later) to Bob to direct within seconds" in handed.stdout
    assert (await note(bob, "tournament_director")).name == "Later"
    ended = await asyncio.to_thread(tournaments, "end", cup, "an", "abusive", "name", "--db", db)
    assert ended.returncode == 0, ended.stderr
    assert f"ends {cup} (Cup)" in ended.stdout
    for client in (ann, bob, cid):
        assert (await note(client, "tournament_closed")).name == "Cup"
    state = await closed(bob)
    assert state.summary.status == "finished"
    assert all(g.result is None for g in state.rounds[0].games)  # abandoned: no result
    again = await asyncio.to_thread(tournaments, "end", cup, "twice", "--db", db)
    assert again.returncode == 1 and "is over already" in again.stderr
    listed = await asyncio.to_thread(tournaments, "list", "--db", db)
    rows = {line.split()[0]: line.split() for line in listed.stdout.splitlines()[1:]}
    assert rows[cup][3] == "closed" and rows[later][-1] == "Bob"
    logged = await asyncio.to_thread(in_process, "moderation", "log", "--lang", "en", "--db", db)
    assert logged.returncode == 0, logged.stderr
    assert [line.split("  ", 1)[1] for line in logged.stdout.splitlines()] == [
        f"the operator gave the tournament {later} to Bob to direct: Cid asked",
        f"the operator ended the tournament {cup}: an abusive name",
    ]
    for client in (ann, bob, cid):
        await client.close()


async def test_on_a_stopped_servers_database_the_next_start_ends_it(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    config = server_config(db=db, password_cost="test")
    first = KahunaServer(config)
    await first.start()
    try:
        ann, bob = await player(first.port, "Ann"), await player(first.port, "Bob")
        await ann.send(CreateTournament(TournamentTerms("Cup", "swiss", 3)))
        cup = (await ann.expect(TournamentState)).summary.tournament_id
        await bob.send(JoinTournament(cup))
        await ann.send(JoinTournament(cup))
        await ann.send(StartTournament(cup))
        await state_with(bob, 1)
        await ann.close()
        await bob.close()
    finally:
        await first.stop()
    ended = await asyncio.to_thread(tournaments, "end", cup, "spam", "--db", db)
    assert ended.returncode == 0, ended.stderr
    assert "at its next start" in ended.stdout
    storage = open_storage(db, create=False)
    try:  # nothing of the tournament itself is written by the command
        (kept,) = storage.load_tournaments()
        assert kept.tournament.status == "started"
        assert [a.action for a in storage.load_tournament_actions()] == ["close"]
    finally:
        storage.close()
    second = KahunaServer(config)
    await second.start()
    try:
        watcher = await Client.connect(second.port, "Watcher")
        await watcher.send(WatchTournament(cup))
        state = await watcher.expect(TournamentState)
        assert state.summary.closed and state.summary.status == "finished"
        assert [g.table_id for g in state.rounds[0].games]
        assert not any(g.table_id in second.lobby.tables for g in state.rounds[0].games)
        await watcher.close()
    finally:
        await second.stop()
    storage = open_storage(db, create=False)
    try:  # applied once: a third start finds nothing waiting
        assert storage.load_tournament_actions() == []
        assert [(e.moderator, e.action) for e in storage.load_moderation_log(5)] == [
            ("operator", "close_tournament")
        ]
    finally:
        storage.close()
