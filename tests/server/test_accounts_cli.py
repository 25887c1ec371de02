"""`kahuna-server accounts`: the operator lists the accounts and the recent registrations,
resets a lost password, disables accounts, on the database of a stopped server or beside the
server that runs on it (which logs the disabled accounts' clients out at its next look)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from websockets.asyncio.client import connect

from protocol.account_messages import DeleteAccount
from protocol.fields import PROTOCOL_VERSION
from protocol.messages import Hello, Welcome
from protocol.player_messages import Games, GetGames, LoggedIn, LoggedOut, Login, Logout, Register
from server.core.store import AccountOp, AccountRow, LoginTokenOp, hash_token
from server.jobs.password_hashing import Passwords
from server.storage.sqlite_store import SqliteStorage
from tests.conftest import Backend, Client, ServerFactory
from tests.postgres import Cluster
from tests.server.operator_commands import ROOT, as_program, in_process
from tests.server.standby_pair import first_and_standby, taken_over
from tests.server.test_account_sockets import a_game

OLD = Passwords("test").hash("old password words")


def run(*args: str, password: str | None = None) -> subprocess.CompletedProcess[str]:
    """kahuna-server accounts ARGS, its standard input no terminal (/dev/null), as from cron: run
    in this process (tests/server/operator_commands.py); `program` starts it as a process of its
    own, which the first two tests do."""
    return in_process("accounts", *args, password=password)


def program(*args: str, password: str | None = None) -> subprocess.CompletedProcess[str]:
    """kahuna-server accounts ARGS as a process of its own, from cron."""
    return as_program("accounts", *args, password=password)


def make_db(path: Path) -> None:
    storage = SqliteStorage(path)
    ann = AccountRow("ann", "Ann", OLD, 1612.4, 80, 0.06, 1.0, 1.7e9, False,
                     {"rated": [7, 3, 1]})  # fmt: skip
    bob = AccountRow("bob", "Bob", OLD, 1500.0, 350, 0.06, 2.0, 1.7e9, False, {})
    storage.write([AccountOp(ann), AccountOp(bob), LoginTokenOp(hash_token("t"), "ann", 1.0)])
    storage.close()


def test_list_reset_password_and_disable(tmp_path: Path) -> None:
    db = tmp_path / "server.sqlite3"
    make_db(db)
    listed = program("list", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[1].split()[:3] == ["Ann", "1612", "11"]
    assert lines[2].split()[:3] == ["Bob", "1500", "0"]

    reset = run("reset-password", "ANN", "--db", str(db), password="brand new words")
    assert reset.returncode == 0, reset.stderr
    assert "brand new words" not in reset.stdout + reset.stderr
    storage = SqliteStorage(db)
    ann = next(a for a in storage.load_accounts() if a.key == "ann")
    assert Passwords("test").verify(ann.password_hash, "brand new words")
    assert storage.load_login_tokens() == []  # every client logs in again
    storage.close()

    assert run("disable", "bob", "--db", str(db)).returncode == 0
    assert "(disabled)" in run("list", "--db", str(db)).stdout
    unknown = run("disable", "nobody", "--db", str(db))
    assert unknown.returncode == 1 and "no account" in unknown.stderr
    weak = run("reset-password", "Ann", "--db", str(db), password="short")
    assert (weak.returncode, weak.stderr) == (
        1,
        "kahuna-server accounts: the password is too short (8 characters at least);"
        " Ann's password is unchanged\n",
    )  # a sentence, not the code too_short
    simple = run("reset-password", "Ann", "--db", str(db), password="abababababab")
    assert "the password is too simple; Ann's" in simple.stderr


def test_reset_password_with_no_terminal_says_so_in_one_line(tmp_path: Path) -> None:
    """cron, ssh without -t, systemd, </dev/null: no traceback, and the password unchanged."""
    db = tmp_path / "server.sqlite3"
    make_db(db)
    done = program("reset-password", "Ann", "--db", str(db))  # no KAHUNA_PASSWORD, stdin /dev/null
    assert done.returncode == 2
    assert done.stderr == (
        "kahuna-server accounts: standard input is not a terminal to ask the new password at:"
        " run it at one, or give the password in $KAHUNA_PASSWORD; Ann's password is unchanged\n"
    )
    storage = SqliteStorage(db)
    try:
        assert next(a for a in storage.load_accounts() if a.key == "ann").password_hash == OLD
    finally:
        storage.close()


async def test_a_database_that_does_not_exist_is_refused_not_made(
    backend: Backend, tmp_path: Path
) -> None:
    """A mistyped --db: refused, where it made a directory and an empty database and listed
    nobody. (A server still makes its database at its first start.)"""
    typo = str(tmp_path / "typo" / "server.sqlite3") if backend.kind == "sqlite" else backend.db
    for command in (["list"], ["recent"], ["disable", "Ann"]):
        done = await asyncio.to_thread(run, *command, "--db", typo)
        assert done.returncode == 1, done.stdout
        assert "no such database" in done.stderr and "Traceback" not in done.stderr
        assert "a server makes its database when it first starts" in done.stderr
    if backend.kind == "sqlite":
        assert not (tmp_path / "typo").exists()
        empty = tmp_path / "empty.sqlite3"
        empty.touch()  # a file, but no database: left as it was
        refused = await asyncio.to_thread(run, "list", "--db", str(empty))
        assert "no such database" in refused.stderr
        assert empty.read_bytes() == b"" and not list(tmp_path.glob("empty.sqlite3-*"))
    else:  # the PostgreSQL database exists, empty: no kahuna tables are made in it
        with psycopg.connect(backend.db) as conn:
            tables = "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
            assert conn.execute(tables).fetchone() == (0,)


def test_kahuna_server_help_names_the_accounts_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server", "--help"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0
    for command in ("list", "recent", "reset-password NAME", "disable NAME..."):
        assert f"kahuna-server accounts {command}" in done.stdout


def test_the_commands_work_beside_a_server_that_holds_the_database(tmp_path: Path) -> None:
    db = tmp_path / "server.sqlite3"
    make_db(db)
    held = SqliteStorage(db)
    try:
        listed = run("list", "--db", str(db))
        disabled = run("disable", "Bob", "--db", str(db))
        actions = held.load_account_actions()
    finally:
        held.close()
    assert listed.returncode == 0 and "Ann" in listed.stdout
    assert disabled.returncode == 0 and "the running server logs" in disabled.stdout
    assert [(a.key, a.action) for a in actions] == [("bob", "disable")]


async def connect_from(port: int, address: str, name: str) -> Client:
    """A client whose socket comes from `address` (any of 127/8 on Linux)."""
    ws = await connect(
        f"ws://127.0.0.1:{port}", compression=None, open_timeout=5, local_addr=(address, 0)
    )
    client = Client(ws)
    await client.send(Hello(PROTOCOL_VERSION, name))
    await client.expect(Welcome)
    return client


async def register(port: int, address: str, name: str) -> tuple[Client, str]:
    client = await connect_from(port, address, name)
    await client.send(Register(name, "long enough words"))
    logged = await client.expect(LoggedIn)
    assert logged.token is not None
    return client, logged.token


async def test_the_operator_disables_recent_accounts_of_a_running_server(
    backend: Backend, make_server: ServerFactory
) -> None:
    server = await make_server(
        db=backend.db, password_cost="test", registrations_per_hour=3,
        account_actions_interval=0.1,
    )  # fmt: skip
    ann, _ = await register(server.port, "127.0.0.1", "Ann")
    made = [await register(server.port, "127.0.0.7", f"Spam{n}") for n in range(3)]
    extra = await connect_from(server.port, "127.0.0.7", "Spam3")
    await extra.send(Register("Spam3", "long enough words"))
    refused = await extra.expect_error("login_throttled")
    assert refused.reason == "registrations"

    recent = await asyncio.to_thread(run, "recent", "--db", backend.db)
    assert recent.returncode == 0, recent.stderr
    lines = recent.stdout.splitlines()
    assert lines[1].split()[:2] == ["127.0.0.7", "3"]
    assert "Spam0" in lines[1] and "Ann" in lines[2]

    disabled = await asyncio.to_thread(run, "disable", "--from", "127.0.0.7", "--db", backend.db)
    assert disabled.returncode == 0, disabled.stderr
    assert disabled.stdout.count("is disabled") == 3
    for client, _token in made:  # logged out by the running server within its next look
        assert (await client.expect(LoggedOut, timeout=5)).name.endswith("(guest)")
    again = await connect_from(server.port, "127.0.0.8", "x")
    await again.send(Login("Spam0", None, made[0][1]))
    await again.expect_error("bad_login")
    await again.send(Login("Spam1", "long enough words", None))
    await again.expect_error("bad_login")
    await ann.send(Logout())  # Ann, of another address, is still logged in
    assert (await ann.expect(LoggedOut)).name == "Ann (guest)"


async def test_recent_names_a_deleted_account_as_its_games_do(
    backend: Backend, make_server: ServerFactory
) -> None:
    """A deleted account's registration stays, its stand-in's: listed under the name the
    archive gives its games ("deleted #1"), never under the stand-in's key ("#deleted 1")."""
    server = await make_server(db=backend.db, password_cost="test")
    ann, _ = await register(server.port, "127.0.0.1", "Ann")
    spam, _ = await register(server.port, "127.0.0.7", "Spam0")
    other, _ = await register(server.port, "127.0.0.7", "Spam1")
    table_id = await a_game(ann, spam, spam)
    await spam.send(DeleteAccount("long enough words"))
    assert (await spam.expect(LoggedOut)).reason == "account_deleted"
    await ann.send(GetGames(None))
    (game,) = [g for g in (await ann.expect(Games)).games if g.table_id == table_id]
    stand_in = game.black
    assert stand_in == "deleted #1"

    recent = await asyncio.to_thread(run, "recent", "--db", backend.db)
    assert recent.returncode == 0, recent.stderr
    lines = recent.stdout.splitlines()
    assert lines[1].split()[:2] == ["127.0.0.7", "2"]
    assert f"  {stand_in} (" in lines[1] and "Spam1 (" in lines[1]
    assert "#deleted" not in recent.stdout and "Spam0" not in recent.stdout
    for client in (ann, spam, other):
        await client.close()


async def test_the_commands_work_beside_a_postgresql_server_and_its_standby(
    tmp_path: Path, postgres: Cluster
) -> None:
    """No server need be stopped: the serving one applies the change within seconds, the
    standby goes on waiting, and when it takes over it has the change too."""
    url = postgres.database()
    first, first_port, standby, standby_port = await first_and_standby(url, tmp_path)
    try:
        ann = await Client.connect(first_port, "Ann")
        await ann.send(Register("Ann", "long enough words"))
        await ann.expect(LoggedIn)
        bob = await Client.connect(first_port, "Bob")
        await bob.send(Register("Bob", "long enough words"))
        await bob.expect(LoggedIn)

        listed = await asyncio.to_thread(run, "list", "--db", url)
        assert listed.returncode == 0, listed.stderr
        assert {line.split()[0] for line in listed.stdout.splitlines()[1:]} == {"Ann", "Bob"}
        disabled = await asyncio.to_thread(run, "disable", "Bob", "--db", url)
        assert disabled.returncode == 0, disabled.stderr
        assert "the running server logs its clients out" in disabled.stdout
        reset = await asyncio.to_thread(
            run, "reset-password", "Ann", "--db", url, password="brand new words"
        )
        assert reset.returncode == 0, reset.stderr
        # the serving server applies both at its next look (every 2 s)
        assert (await bob.expect(LoggedOut, timeout=10)).name == "Bob (guest)"
        assert (await ann.expect(LoggedOut, timeout=10)).name == "Ann (guest)"
        assert standby.returncode is None  # still waiting, untouched by the commands
        with pytest.raises(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", standby_port)
            writer.close()

        first.send_signal(signal.SIGKILL)
        await first.wait()
        await taken_over(standby, standby_port, bound=20)
        again = await Client.connect(standby_port, "x")
        await again.send(Login("Ann", "brand new words", None))
        assert (await again.expect(LoggedIn)).name == "Ann"
        other = await Client.connect(standby_port, "y")
        await other.send(Login("Bob", "long enough words", None))
        await other.expect_error("bad_login")
    finally:
        for proc in (first, standby):
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 10)
