"""`kahuna-server accounts`: the operator lists the accounts and the recent registrations,
resets a lost password, disables accounts, on the database of a stopped server or beside the
server that runs on it (which logs the disabled accounts' clients out at its next look)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from websockets.asyncio.client import connect

from protocol.fields import PROTOCOL_VERSION
from protocol.messages import Hello, Welcome
from protocol.player_messages import LoggedIn, LoggedOut, Login, Logout, Register
from server.core.store import AccountOp, AccountRow, LoginTokenOp, hash_token
from server.jobs.password_hashing import Passwords
from server.storage.sqlite_store import SqliteStorage
from tests.conftest import Backend, Client, ServerFactory

ROOT = Path(__file__).resolve().parent.parent.parent
OLD = Passwords("test").hash("old password words")


def run(*args: str, password: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if password is not None:
        env["KAHUNA_PASSWORD"] = password
    return subprocess.run(
        [sys.executable, "-m", "server", "accounts", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


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
    listed = run("list", "--db", str(db))
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
    assert weak.returncode == 1 and "too_short" in weak.stderr


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
