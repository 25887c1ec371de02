"""kahuna-server as a program: its help, its address line, wss://, and a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from protocol.codec import decode_server, encode
from protocol.fields import PROTOCOL_VERSION
from protocol.messages import Hello, Welcome
from server.cli.serve import build_parser, config_from_args
from tests.certificates import self_signed

ROOT = Path(__file__).resolve().parent.parent.parent


def test_help_explains_the_flags() -> None:
    text = build_parser().format_help()
    flags = ["--host", "--port", "--tls-cert", "--tls-key", "--log-level", "--max-frame"]
    flags += ["--rate", "--max-per-address", "--ping-interval", "--abandon-timeout"]
    for flag in flags:
        assert flag in text


def test_a_bad_port_is_refused() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--port", "70000"])


def test_flags_make_the_config() -> None:
    args = build_parser().parse_args(["--port", "9000", "--rate", "5", "--ping-interval", "0"])
    config = config_from_args(args)
    assert config.port == 9000 and config.rate == 5 and config.ping_interval is None
    assert config.host == "0.0.0.0"


async def start(*extra: str) -> tuple[asyncio.subprocess.Process, str]:
    if "--db" not in extra:
        extra = ("--db", ":memory:", *extra)  # never the host's own database
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0",
        "--log-level", "warning", *extra,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    match = re.search(r"(wss?://127\.0\.0\.1:\d+)", line)
    assert match, line
    return proc, match.group(1)


async def stop(proc: asyncio.subprocess.Process) -> int:
    proc.send_signal(signal.SIGTERM)
    return await asyncio.wait_for(proc.wait(), 10)


async def test_runs_prints_its_address_and_stops_on_sigterm() -> None:
    proc, url = await start()
    try:
        async with connect(url, compression=None) as ws:
            await ws.send(encode(Hello(PROTOCOL_VERSION, "Ana")))
            assert isinstance(decode_server(await ws.recv()), Welcome)
            assert await stop(proc) == 0
    finally:
        if proc.returncode is None:
            proc.kill()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
async def test_serves_wss_with_a_certificate(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path, "127.0.0.1", "IP:127.0.0.1")
    proc, url = await start("--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert url.startswith("wss://")
        context = ssl.create_default_context(cafile=str(cert))
        async with connect(url, ssl=context, compression=None) as ws:
            await ws.send(encode(Hello(PROTOCOL_VERSION, "Ana")))
            assert isinstance(decode_server(await ws.recv()), Welcome)
        assert await stop(proc) == 0
    finally:
        if proc.returncode is None:
            proc.kill()


def test_the_database_defaults_to_the_state_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    config = config_from_args(build_parser().parse_args([]))
    assert config.db == str(tmp_path / "kahuna" / "server.sqlite3")
    config = config_from_args(build_parser().parse_args(["--db", ":memory:"]))
    assert config.db == ":memory:"


def run_server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )  # fmt: skip


def test_a_corrupt_database_is_named_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    garbage = b"this is not a database, and it must stay exactly as it is" * 50
    path.write_bytes(garbage)
    done = run_server("--db", str(path))
    assert done.returncode == 1
    assert str(path) in done.stderr and "Traceback" not in done.stderr
    assert path.read_bytes() == garbage


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    import sqlite3

    from server.storage.sqlite_schema import SCHEMA_VERSION
    from server.storage.sqlite_store import SqliteStorage

    path = tmp_path / "server.sqlite3"
    SqliteStorage(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = path.read_bytes()
    done = run_server("--db", str(path))
    assert done.returncode == 1
    assert str(path) in done.stderr and "newer" in done.stderr, done.stderr
    assert path.read_bytes() == before


async def test_memory_leaves_no_file(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:",
        cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT),
             "XDG_STATE_HOME": str(tmp_path / "state")},
    )  # fmt: skip
    assert proc.stdout is not None
    await asyncio.wait_for(proc.stdout.readline(), 20)
    assert await stop(proc) == 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--rate", "-1", "must be more than 0"),
        ("--rate", "nan", "must be more than 0"),
        ("--rate", "fast", "is not a number"),
        ("--burst", "1.5", "is not a whole number"),
        ("--max-per-address", "0", "must be 1 or more"),
        ("--max-tables", "-5", "must be 1 or more"),
        ("--hello-timeout", "0", "must be more than 0"),
        ("--ping-interval", "-2", "must be 0 or more"),
        ("--send-queue-bytes", "0", "must be 1 or more"),
        ("--waiting-grace", "inf", "must be 0 or more"),
    ],
)
def test_nonsense_limits_are_refused_with_a_clear_error(
    flag: str, value: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args([flag, value])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}" in err and says in err and "Traceback" not in err


def test_zero_turns_pings_off_and_the_new_limits_reach_the_config() -> None:
    args = build_parser().parse_args(
        ["--ping-interval", "0", "--waiting-grace", "5", "--handshake-timeout", "2",
         "--extra-sockets-per-address", "0", "--send-queue-bytes", "65536"]
    )  # fmt: skip
    config = config_from_args(args)
    assert config.ping_interval is None and config.waiting_grace == 5
    assert config.handshake_timeout == 2 and config.extra_sockets_per_address == 0
    assert config.send_queue_bytes == 65536


def test_a_bad_records_directory_is_refused_at_once(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    for bad, says in [(a_file, "not a directory"), (a_file / "sub", "cannot make")]:
        done = run_server("--db", ":memory:", "--records", str(bad))
        assert done.returncode == 2, done.stderr
        assert f"--records {bad}" in done.stderr and says in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "listening" not in done.stdout


async def test_a_missing_records_directory_is_made_at_start(tmp_path: Path) -> None:
    records = tmp_path / "kept" / "records"
    proc, _ = await start("--records", str(records))
    try:
        assert records.is_dir()
    finally:
        assert await stop(proc) == 0


def test_version_and_the_life_of_a_game_flags() -> None:
    text = build_parser().format_help()
    for flag in ("--version", "--claim-after", "--move-timeout", "--computer-workers"):
        assert flag in text
    args = build_parser().parse_args(["--claim-after", "30", "--move-timeout", "600"])
    config = config_from_args(args)
    assert (config.claim_after, config.move_timeout) == (30.0, 600.0)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--claim-after", "-1"])
    done = run_server("--version")
    assert done.returncode == 0 and "protocol versions 1, 2" in done.stdout
