"""kahuna-client as a program: addresses that can never work are refused at once, TLS failures
say what failed (--ca-file trusts a self-signed certificate), the terminal is given back on
SIGTERM and SIGHUP, and a standard input that is not a terminal is named, not a traceback."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import shutil
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.cli.options import build_parser
from client.cli.play import (
    AddressError,
    main,
    run_client,
    server_url,
    theme_from_env,
)
from client.model.state import ClientState
from client.net.connection import certificate_problem
from client.screens.themes import style_for
from server.net.app import KahunaServer
from tests.certificates import self_signed
from tests.client.test_app import until
from tests.client.test_restart import free_port
from tests.conftest import server_config

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    ("text", "url"),
    [
        (None, "ws://127.0.0.1:8765"),
        ("example.org", "ws://example.org:8765"),
        ("192.168.1.20:9000", "ws://192.168.1.20:9000"),
        ("ws://h:1", "ws://h:1"),
        ("wss://games.example.org:8765", "wss://games.example.org:8765"),
        ("wss://games.example.org/k", "wss://games.example.org/k"),
        ("[::1]:9000", "ws://[::1]:9000"),
        ("::1", "ws://[::1]:8765"),
    ],
)
def test_addresses(text: str | None, url: str) -> None:
    assert server_url(text) == url


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("127.0.0.1:99999", "'99999' is not a number from 1 to 65535"),
        ("127.0.0.1:0", "'0' is not a number"),
        ("host:abc", "'abc' is not a number"),
        ("http://example.org:8765", "not http://"),
        ("ws://:8765", "no host"),
        ("exa mple.org", "not a host name"),
    ],
)
def test_a_bad_address_is_refused_at_once(
    text: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(AddressError, match=says):
        server_url(text)
    start = time.monotonic()
    with pytest.raises(SystemExit) as exit:
        main([text])
    assert exit.value.code == 2 and time.monotonic() - start < 1
    assert says in capsys.readouterr().err


def test_the_program_refuses_a_bad_port_at_once() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "client", "127.0.0.1:99999"],
        cwd=ROOT, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2 and "not a number from 1 to 65535" in done.stderr


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.startswith("kahuna-client ")


def test_standard_input_not_a_terminal_is_said() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "client", "--local"],
        cwd=ROOT, capture_output=True, text=True, timeout=20, input="",
    )  # fmt: skip
    assert done.returncode == 2
    assert "standard input is not a terminal" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_theme_comes_from_colorfgbg_and_white_is_readable_on_light() -> None:
    assert theme_from_env({"COLORFGBG": "0;15"}) == "light"
    assert theme_from_env({"COLORFGBG": "15;default;0"}) == "dark"
    assert theme_from_env({}) == "dark"
    assert build_parser().parse_args(["--theme", "light"]).theme == "light"
    light = style_for("light").get_attrs_for_style_str("class:white")
    assert light.color not in ("ffffff", None) or light.bgcolor not in ("", None)
    dark = style_for("dark").get_attrs_for_style_str("class:white")
    assert dark.color == "ffffff"


# ----- TLS ----------------------------------------------------------------------------------

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")


async def tls_server(cert: Path, key: Path) -> KahunaServer:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    server = KahunaServer(server_config())
    await server.start(context)
    return server


async def run(argv: list[str]) -> tuple[int, ClientState]:
    """The client as main runs it, headless; the exit code once it ends by itself (10 s)."""
    args = build_parser().parse_args(["--name", "Ann", *argv])
    state = ClientState()
    with create_pipe_input() as pipe:
        task = asyncio.get_running_loop().create_task(
            run_client(args, input=pipe, output=DummyOutput(), state=state)
        )
        try:
            await until(lambda: task.done() or state.connected, "the end or a connection")
            if state.connected:
                pipe.send_bytes(b"\x11")  # Ctrl-Q
            return await asyncio.wait_for(task, 5), state
        finally:
            task.cancel()


@pytest.fixture
async def certificates(tmp_path: Path) -> AsyncIterator[tuple[Path, Path]]:
    yield self_signed(tmp_path, "127.0.0.1", "IP:127.0.0.1")


@needs_openssl
async def test_a_self_signed_certificate_is_named_and_ca_file_trusts_it(
    tmp_path: Path, certificates: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    os.environ.setdefault("XDG_STATE_HOME", str(tmp_path))
    cert, key = certificates
    server = await tls_server(cert, key)
    try:
        url = f"wss://127.0.0.1:{server.port}"
        code, _ = await run([url])
        assert code == 1
        err = capsys.readouterr().err
        assert "self-signed" in err and "--ca-file" in err and "Cannot reach" not in err
        code, state = await run([url, "--ca-file", str(cert)])
        assert code == 0 and state.server
    finally:
        await server.stop()


@needs_openssl
async def test_a_certificate_for_another_name_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cert, key = self_signed(tmp_path, "other.example", "DNS:other.example")
    server = await tls_server(cert, key)
    try:
        code, _ = await run([f"wss://127.0.0.1:{server.port}", "--ca-file", str(cert)])
        assert code == 1 and "for another name" in capsys.readouterr().err
    finally:
        await server.stop()


async def test_a_server_without_tls_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    server = KahunaServer(server_config())
    await server.start()
    try:
        code, _ = await run([f"wss://127.0.0.1:{server.port}"])
        assert code == 1 and "does not speak TLS" in capsys.readouterr().err
    finally:
        await server.stop()


@needs_openssl
async def test_ws_to_a_tls_server_is_named(
    certificates: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    server = await tls_server(*certificates)
    try:
        code, _ = await run([f"ws://127.0.0.1:{server.port}"])
        assert code == 1 and "speaks TLS: connect with wss://" in capsys.readouterr().err
    finally:
        await server.stop()


def test_an_expired_certificate_is_named() -> None:
    exc = ssl.SSLCertVerificationError(1, "certificate verify failed")
    exc.verify_code, exc.verify_message = 10, "certificate has expired"
    assert "has expired" in certificate_problem("wss://h:1", exc)


# ----- the terminal -------------------------------------------------------------------------


def read_until(fd: int, wanted: bytes, timeout: float = 15) -> bytes:
    data = b""
    end = time.monotonic() + timeout
    while wanted not in data and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the other side is gone
                break
            if not chunk:
                break
            data += chunk
    return data


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_gives_the_terminal_back(signum: int, tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "XDG_STATE_HOME": str(tmp_path), "COLUMNS": "80"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "client", f"127.0.0.1:{free_port()}"],
        cwd=ROOT, stdin=terminal, stdout=terminal, stderr=terminal, env=env,
    )  # fmt: skip
    os.close(terminal)
    try:
        shown = read_until(controller, b"KAHUNA")
        assert b"\x1b[?1049h" in shown  # the alternate screen
        proc.send_signal(signum)
        rest = read_until(controller, b"\x1b[?1049l")
        assert proc.wait(10) == 128 + signum
        rest += read_until(controller, b"never", 0.5)
        assert b"\x1b[?1049l" in rest  # the alternate screen left
        assert rest.rfind(b"\x1b[?25h") > rest.rfind(b"\x1b[?25l")  # the cursor shown
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(controller)


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_play_installs_only_the_game_and_passes_options(tmp_path: Path) -> None:
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-f", str(ROOT / "Makefile"), "play",
         "ARGS=--seat black --variant1", "VENV=" + str(tmp_path / "venv")],
        cwd=ROOT, capture_output=True, text=True, timeout=20,
        # run from `make test`, the outer make's settings would reach this one
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")},
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert not any("[test]" in line for line in lines)  # no test tools to play
    assert any(line.endswith("pip install --quiet -e .") for line in lines)
    assert lines[-1].endswith("kahuna-client --local --seat black --variant1")
