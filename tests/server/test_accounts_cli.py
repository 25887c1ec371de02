"""`kahuna-server accounts`: the operator lists the accounts, resets a lost password, disables
an account, on the database of a stopped server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from server.passwords import Passwords
from server.sqlite_store import SqliteStorage
from server.store import AccountOp, AccountRow, LoginTokenOp, hash_token

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


def test_a_database_held_by_a_server_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "server.sqlite3"
    make_db(db)
    held = SqliteStorage(db)
    try:
        refused = run("list", "--db", str(db))
    finally:
        held.close()
    assert refused.returncode == 1 and "another kahuna server" in refused.stderr
