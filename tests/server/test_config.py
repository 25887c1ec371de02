"""kahuna-server --config FILE: every option from a TOML file, flags over it, and a clear refusal
of a key that is no option or a value the option does not take."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import urllib.parse
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from protocol.codec import decode_server, encode
from protocol.fields import PROTOCOL_VERSION
from protocol.messages import Hello, Welcome
from server.cli.command_line import record_from
from server.cli.serve import ProcessSettings, build_parser, config_from_args
from server.core.config import ServerConfig
from server.core.settings import Setting, SettingError, url_parts, web_origin

ROOT = Path(__file__).resolve().parent.parent.parent


def config_of(tmp_path: Path, text: str, *flags: str) -> ServerConfig:
    path = tmp_path / "kahuna.toml"
    path.write_text(text, encoding="utf-8")
    return config_from_args(build_parser().parse_with_config(["--config", str(path), *flags]))


def refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *flags: str) -> str:
    """What kahuna-server says when it refuses the file (and that it exits with 2)."""
    with pytest.raises(SystemExit) as stop:
        config_of(tmp_path, text, *flags)
    assert stop.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_every_option_comes_from_the_file(tmp_path: Path) -> None:
    config = config_of(
        tmp_path,
        """
        host = "127.0.0.1"
        port = 9001
        name = "Kahuna club"
        no-announce = true
        lan-interface = ["127.0.0.1"]
        max_tables = 20            # underscores do as well as dashes
        rate = 5                   # a whole number for a number
        ping-interval = 0
        computer-delay = 0.25
        db = ":memory:"
        records = "%s"
        """
        % (tmp_path / "records"),
    )
    assert (config.host, config.port, config.server_name) == ("127.0.0.1", 9001, "Kahuna club")
    assert config.announce is False and config.lan_interfaces == ("127.0.0.1",)
    assert config.max_tables == 20 and config.rate == 5.0 and config.ping_interval is None
    assert config.computer_delay == 0.25 and config.db == ":memory:"
    assert config.records_dir == tmp_path / "records"


def test_flags_override_the_file(tmp_path: Path) -> None:
    text = 'port = 9001\nname = "Club"\nlan-interface = ["127.0.0.1", "10.0.0.2"]\nrate = 3\n'
    config = config_of(tmp_path, text, "--port", "9002", "--lan-interface", "127.0.0.2")
    assert config.port == 9002 and config.server_name == "Club" and config.rate == 3.0
    assert config.lan_interfaces == ("127.0.0.2",)  # the flags' list replaces the file's
    config = config_of(tmp_path, text, "--lan-interface", "127.0.0.2", "--lan-interface", "::1")
    assert config.lan_interfaces == ("127.0.0.2", "::1")


def test_without_a_file_the_defaults_hold(tmp_path: Path) -> None:
    config = config_of(tmp_path, "")
    defaults = config_from_args(build_parser().parse_args([]))
    assert config == defaults
    assert defaults.announce is True and defaults.lan_interfaces == ()
    assert defaults.server_name  # the host name


def test_an_unknown_key_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refusal(tmp_path, capsys, "port = 9001\nprot = 9002\n")
    assert f"--config {tmp_path / 'kahuna.toml'}: unknown key 'prot'" in line
    assert "--help" in line
    for key in ("help", "version", "config"):
        assert f"'{key}'" in refusal(tmp_path, capsys, f"{key} = true\n")
    line = refusal(tmp_path, capsys, "[server]\nport = 9001\n")
    assert "unknown key 'server'" in line


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('port = "9001"', "'port' must be a whole number, not a string ('9001')"),
        ("port = true", "'port' must be a whole number, not a boolean (True)"),
        ("port = 9001.5", "'port' must be a whole number, not a number (9001.5)"),
        ("port = 70000", "'port': a port is a number from 0 to 65535"),
        ("max-tables = 0", "'max-tables': '0': must be 1 or more"),
        ('rate = "fast"', "'rate' must be a number, not a string ('fast')"),
        ("no-announce = 1", "'no-announce' must be true or false, not a whole number (1)"),
        ('lan-interface = "127.0.0.1"', "'lan-interface' must be a list of strings"),
        ('lan-interface = ["here"]', "'lan-interface': 'here' is not an IP address"),
        ('log-level = "loud"', "'log-level': 'loud' is not one of 'debug', 'info'"),
        ('name = ""', "'name': '': a name is 1 to 63 printable bytes"),
        ("host = 1", "'host' must be a string, not a whole number (1)"),
        ("port = 9001\nport_ = 2", "unknown key 'port_'"),
        ("max-tables = 3\nmax_tables = 4", "'max_tables' is given twice"),
    ],
)
def test_a_wrong_value_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    line = refusal(tmp_path, capsys, text + "\n")
    assert line.startswith("kahuna-server: error: --config "), line
    assert f"kahuna.toml: {says}" in line, line


def test_a_file_that_is_not_toml_or_not_there_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refusal(tmp_path, capsys, "port = = 3\n")
    assert "kahuna.toml: not a TOML file:" in line and "line 1" in line
    with pytest.raises(SystemExit):
        build_parser().parse_with_config(["--config", str(tmp_path / "absent.toml")])
    assert "absent.toml: cannot read it: No such file or directory" in capsys.readouterr().err


def test_help_lists_the_files_keys() -> None:
    parser = build_parser()
    text = parser.format_help()
    assert "--config FILE" in text and "TOML" in text
    keys = parser.settings
    assert {"host", "port", "name", "no-announce", "lan-interface", "db", "records"} <= set(keys)
    assert "max-tables" in keys and "help" not in keys and "config" not in keys
    listing = " ".join(text.partition("The keys: ")[2].split())
    for key in keys:
        assert re.search(rf"(^|[ ,]){re.escape(key)}[,.]", listing), key


def a_value(setting: Setting) -> tuple[str, list[str]]:
    """A value the setting takes other than its default: in TOML, and as flags."""
    if setting.kind == "flag":
        return "true", [setting.flag]
    choices = setting.option.choices
    text = choices[-1] if choices else {"int": "7", "float": "2.5"}.get(setting.kind, "127.0.0.2")
    if setting.name == "addresses":  # URLs, not IP addresses
        text = "ws://127.0.0.2:8765"
    if setting.name in ("allowed_origins", "mail_url"):  # web sites' origins
        text = "https://club.example"
    if setting.name == "mail_from":
        text = "club@example.org"
    toml = {"int": text, "float": text, "list": f'["{text}"]'}.get(setting.kind, f'"{text}"')
    return toml, [setting.flag, text]


def test_each_key_gives_what_its_flag_gives(tmp_path: Path) -> None:
    """One declaration makes both: a key's value and the same value as a flag agree."""

    def records(args: argparse.Namespace) -> tuple[ServerConfig, ProcessSettings]:
        return config_from_args(args), record_from(ProcessSettings, args)

    defaults = records(build_parser().parse_args([]))
    path = tmp_path / "kahuna.toml"
    for key, setting in build_parser().settings.items():
        toml, flags = a_value(setting)
        path.write_text(f"{key} = {toml}\n", encoding="utf-8")
        given = records(build_parser().parse_args(flags))
        assert given != defaults, key
        assert records(build_parser().parse_with_config(["--config", str(path)])) == given, key


async def test_a_server_runs_from_its_file_and_says_its_name_in_welcome(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(
        'host = "127.0.0.1"\nport = 0\nname = "Kahuna club"\nno-announce = true\n'
        'db = ":memory:"\nlog-level = "warning"\n'
        'address = ["ws://club.example:8765", "ws://standby.example:8765"]\n',
        encoding="utf-8",
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server", "--config", str(path),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        match = re.search(r"ws://127\.0\.0\.1:\d+", line)
        assert match, line
        async with connect(match.group(0), compression=None) as ws:
            await ws.send(encode(Hello(PROTOCOL_VERSION, "Ana")))
            welcome = decode_server(await ws.recv())
            assert isinstance(welcome, Welcome) and welcome.server == "Kahuna club"
            # the service's addresses, for a client to follow a takeover by the standby
            assert welcome.servers == ["ws://club.example:8765", "ws://standby.example:8765"]
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 10) == 0


URLS = [
    "http://example.com",
    "https://Example.COM:443",
    "http://example.com:80/",
    "ws://h:8765/x",
    "http://[::1]:8765",
    "http://[::1",
    "http://::1]",
    "http://host:abc",
    "http://host:99999",
    "http://u@host",
    "http://u:p@Host:1",
    "http://host/x?q#f",
    "http://",
    "https://host:",
    "http://host:0",
    "http://[fe80::1]:1",
    "HTTP://host:8080",
    "http://a.b/?",
    "http://@host",
    "wss://[2001:db8::1]",
    "http://[not-v6]:80",
]


@pytest.mark.parametrize("text", URLS)
def test_a_urls_parts_are_read_as_urllib_reads_them(text: str) -> None:
    """The core reads a setting's URL without urllib (its contract forbids it), the same way."""
    try:
        expected = urllib.parse.urlsplit(text)
        port = expected.port
    except ValueError:
        with pytest.raises(ValueError):
            url_parts(text)
        return
    parts = url_parts(text)
    assert (parts.scheme, parts.username, parts.hostname, parts.port) == (
        expected.scheme, expected.username, expected.hostname, port,
    )  # fmt: skip
    assert (parts.path, parts.query, parts.fragment) == (
        expected.path, expected.query, expected.fragment,
    )  # fmt: skip


def test_an_origin_with_a_space_or_a_tab_in_its_host_is_refused() -> None:
    # (urllib drops a tab and keeps a space; no browser sends either)
    for text in ("http://exa mple.com", "http://h\tost", "null", ""):
        with pytest.raises(SettingError):
            web_origin(text)


def test_the_mail_table_gives_the_mail_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = config_of(
        tmp_path,
        """
        port = 9001
        [mail]
        host = "smtp.example.org"
        port = 465
        security = "tls"
        user = "kahuna"
        password-env = "KAHUNA_SMTP"
        from = "club@example.org"
        url = "https://club.example.org/"
        """,
    )
    assert (config.port, config.mail_host, config.mail_port) == (9001, "smtp.example.org", 465)
    assert (config.mail_security, config.mail_user, config.mail_password_env) == (
        "tls", "kahuna", "KAHUNA_SMTP",
    )  # fmt: skip
    assert (config.mail_from, config.mail_url) == ("club@example.org", "https://club.example.org")
    assert config.mail and not config_of(tmp_path, "port = 9001\n").mail
    line = refusal(tmp_path, capsys, '[mail]\nfrom = "nobody"\n')
    assert "'mail-from': 'nobody' is not an e-mail address" in line
    assert "unknown key 'mail-password'" in refusal(tmp_path, capsys, '[mail]\npassword = "x"\n')
