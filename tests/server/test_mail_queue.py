"""The mail queue: a queued mail is stored, sent to a real SMTP server (aiosmtpd on 127.0.0.1) by
the sender off the event loop and marked sent; a relay that is down loses nothing and the mail
goes once it is back, after tries spaced by a doubling delay; a restart finds what was unsent."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from server.cli import serve
from server.core.config import ServerConfig
from server.core.store import AccountOp, MailOp, MailRetryOp, MailRow, MailSentOp, StorageOp
from server.jobs.mail_sender import MailSender, Relay, delay, relay_of
from server.storage.sqlite_store import SqliteStorage
from tests.conftest import Backend
from tests.server.smtp import SmtpServer, body
from tests.server.test_storage_safety import ANN, VERSION_6_TABLES, to_version

BASE = "http://club.test:8765"


def a_mail(mail_id: str = "m1", **params: object) -> MailRow:
    return MailRow(
        mail_id, "ann@example.org", "confirm", "en",
        {"name": "Ann", "server": "Club", "code": "C0DE", **params}, 1.7e9, 0, 0.0,
    )  # fmt: skip


def relay(smtp: SmtpServer) -> Relay:
    return Relay("127.0.0.1", smtp.port, "none", None, None, "kahuna@club.test", BASE)


async def until(check: object, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if callable(check) and check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("not in time")


def test_the_queue_is_stored_and_a_sent_mail_forgets_its_address(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "db.sqlite3"))
    storage.write([MailOp(a_mail("m1")), MailOp(a_mail("m2"))])
    storage.write([MailRetryOp("m1", 2, 1.7e9 + 60)])
    storage.write([MailSentOp("m2", 1.7e9 + 1)])
    (waiting,) = storage.load_mail_queue()
    assert (waiting.mail_id, waiting.attempts, waiting.next_try) == ("m1", 2, 1.7e9 + 60)
    assert waiting.params["code"] == "C0DE"
    storage.close()
    again = SqliteStorage(str(tmp_path / "db.sqlite3"))
    assert [m.mail_id for m in again.load_mail_queue()] == ["m1"]
    rows = again._execute("SELECT recipient, params FROM mail_queue WHERE id = 'm2'").fetchall()
    assert rows == [("", "{}")]
    again.close()


def test_a_version_5_database_gains_the_mail_queue(backend: Backend) -> None:
    storage = backend.open()
    storage.write([AccountOp(ANN)])
    storage.close()
    to_version(backend, 5, VERSION_6_TABLES)
    storage = backend.open()
    assert [a.key for a in storage.load_accounts()] == ["ann"]
    assert storage.load_mail_queue() == []
    storage.write([MailOp(a_mail("m1"))])
    assert [m.mail_id for m in storage.load_mail_queue()] == ["m1"]
    storage.close()


async def test_a_mail_reaches_the_smtp_server_and_is_marked_sent(smtp: SmtpServer) -> None:
    written: list[StorageOp] = []
    sender = MailSender(relay(smtp), written.append)
    sender.start()
    try:
        sender.add([a_mail()])
        (message,) = await smtp.wait_for(1)
        await until(lambda: written)
    finally:
        await sender.stop()
    assert message["To"] == "ann@example.org" and message["From"] == "kahuna@club.test"
    assert "Confirm your e-mail address" in message["Subject"]
    assert message["Content-Language"] == "en" and message["Auto-Submitted"] == "auto-generated"
    assert f"{BASE}/mail/confirm?code=C0DE" in body(message)
    assert "confirm C0DE" in body(message)
    assert [type(op) for op in written] == [MailSentOp]


async def test_a_relay_that_is_down_loses_nothing_and_the_mail_goes_when_it_is_back(
    smtp: SmtpServer,
) -> None:
    smtp.down()
    written: list[StorageOp] = []
    sender = MailSender(relay(smtp), written.append, retry=0.05, retry_cap=0.2)
    sender.start()
    try:
        sender.add([a_mail("m1"), a_mail("m2", name="Bob")])
        await until(lambda: sender.failures >= 4)
        assert smtp.messages == [] and sender.waiting == 2
        retries = [op for op in written if isinstance(op, MailRetryOp)]
        assert {op.mail_id for op in retries} == {"m1", "m2"}
        assert max(op.attempts for op in retries) >= 2
        smtp.up()
        await smtp.wait_for(2)
        await until(lambda: sender.waiting == 0)
    finally:
        await sender.stop()
    assert {op.mail_id for op in written if isinstance(op, MailSentOp)} == {"m1", "m2"}
    assert sorted(body(m).split(",")[0] for m in smtp.messages) == ["Hello Ann", "Hello Bob"]


def test_the_delay_doubles_up_to_its_cap() -> None:
    assert [delay(n, 30.0, 3600.0) for n in (1, 2, 3, 4, 8, 20)] == [
        30.0, 60.0, 120.0, 240.0, 3600.0, 3600.0,
    ]  # fmt: skip


def test_the_relays_password_comes_from_a_file_or_the_environment(tmp_path: Path) -> None:
    assert relay_of(ServerConfig()) is None
    config = ServerConfig(mail_host="smtp.test", mail_user="kahuna", port=9000)
    with pytest.raises(ValueError, match="needs the password"):
        relay_of(config)
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    found = relay_of(
        ServerConfig(mail_host="smtp.test", mail_user="k", mail_password_file=str(secret))
    )
    assert found is not None and found.password == "s3cret" and "s3cret" not in repr(found)
    env = ServerConfig(mail_host="smtp.test", mail_user="k", mail_password_env="SMTP_PW")
    assert relay_of(env, {"SMTP_PW": "pw"}).password == "pw"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match=r"\$SMTP_PW is not set"):
        relay_of(env, {})
    with pytest.raises(ValueError, match="cannot read it"):
        relay_of(ServerConfig(mail_host="h", mail_password_file=str(tmp_path / "none")))
    plain = relay_of(ServerConfig(mail_host="h", port=9000, host="127.0.0.1"), port=9001)
    assert plain is not None and plain.base_url == "http://127.0.0.1:9001"
    service = ServerConfig(mail_host="h", addresses=("wss://club.example.org:8765",))
    assert relay_of(service, port=1).base_url == "https://club.example.org:8765"  # type: ignore[union-attr]
    given = relay_of(ServerConfig(mail_host="h", mail_url="https://club.example.org"), port=1)
    assert given is not None and given.base_url == "https://club.example.org"


def test_kahuna_server_stops_at_a_password_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        serve.main(["--mail-host", "smtp.test", "--mail-user", "k", "--db", ":memory:"])
    assert stop.value.code == 2
    assert "--mail-user needs the password" in capsys.readouterr().err
    absent = str(tmp_path / "absent")
    with pytest.raises(SystemExit):
        serve.main(["--mail-host", "h", "--mail-password-file", absent, "--db", ":memory:"])
    assert "cannot read it" in capsys.readouterr().err
