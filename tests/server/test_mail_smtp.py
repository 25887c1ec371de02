"""E-mail end to end, over real sockets, against a real SMTP server (aiosmtpd on 127.0.0.1,
tests/server/smtp.py): the confirmation by the mail's link (its page's button: the two steps in
detail are tests/server/test_mail_links.py's), the password reset from the mail to
a new password, your move in a game of days with the link that turns it off, a challenge, the
relay down and back, a restart with mail queued, and requests counted over sockets."""

from __future__ import annotations

import asyncio
import random
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from protocol.fields import TableOptions, TimeControl
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    MailNote,
    MailSettings,
    ResetPassword,
    SetEmail,
)
from protocol.messages import (
    Command,
    CreateTable,
    Error,
    Join,
    Joined,
    PlayersChanged,
    State,
    Update,
)
from protocol.player_messages import Challenge as ChallengeMessage
from protocol.player_messages import ChallengeTerms, LoggedIn, Login, Register
from server.core.mail_throttle import PER_ACCOUNT
from server.net.app import KahunaServer
from shared.legality import legal_actions
from shared.views import seat_view_from_dict
from tests.conftest import Client, ServerFactory, server_config
from tests.server.smtp import SmtpServer, body

WORDS = "correct horse battery"
ANN = "ann@example.org"
BOB = "bob@example.org"


def mail_settings(smtp: SmtpServer, **more: Any) -> dict[str, Any]:
    return {"password_cost": "test", "mail_retry": 0.05, "mail_retry_cap": 0.2,
            **smtp.settings(), **more}  # fmt: skip


async def account(server: KahunaServer, name: str) -> Client:
    client = await Client.connect(server.port, name)
    await client.send(Register(name, WORDS))
    await client.expect(LoggedIn)
    return client


def link(message: Any, path: str) -> str:
    found = re.search(rf"http://\S+{re.escape(path)}\S*", body(message))
    assert found is not None, body(message)
    return found.group(0)


async def get(url: str, language: str = "en") -> tuple[int, str]:
    def fetch() -> tuple[int, str]:
        request = urllib.request.Request(url, headers={"Accept-Language": language})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()

    return await asyncio.to_thread(fetch)


async def confirmed(server: KahunaServer, smtp: SmtpServer, name: str, address: str) -> Client:
    client = await account(server, name)
    count = len(smtp.messages)
    await client.send(SetEmail(address))
    await client.expect(MailSettings)
    (message,) = (await smtp.wait_for(count + 1))[count:]
    code = re.search(r"^confirm (\S+)", body(message), re.M)
    assert code is not None
    await client.send(ConfirmEmail(code.group(1)))
    assert (await client.expect(MailSettings)).address == address
    return client


async def test_an_address_is_confirmed_by_the_mails_link(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server = await make_server(**mail_settings(smtp))
    ann = await account(server, "Ann")
    assert ann.frames and b"mail" in ann.frames[0]  # welcome says so
    await ann.send(SetEmail(ANN))
    assert (await ann.expect(MailSettings)).pending == ANN
    (message,) = await smtp.wait_for(1)
    assert message["To"] == ANN and smtp.box.envelopes[0][1] == [ANN]
    url = link(message, "/mail/confirm")
    assert url.startswith(f"http://127.0.0.1:{server.port}/")
    status, page = await get(url, "de")  # asks first (tests/server/test_mail_links.py)
    assert status == 200 and "als E-Mail-Adresse von Ann bestätigen?" in page
    status, page = await get(url + "&do=1", "de")  # the page's button
    assert status == 200 and "bestätigt" in page
    settings = await ann.expect(MailSettings)
    assert (settings.address, settings.pending) == (ANN, None)
    for used in (url, url + "&do=1"):  # once only
        status, page = await get(used)
        assert status == 404 and "not good" in page
    code = url.rpartition("code=")[2]
    assert all(code.encode() not in frame for frame in ann.frames)
    await ann.close()


async def test_the_reset_path_from_the_mail_to_the_new_password(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server = await make_server(**mail_settings(smtp))
    ann = await confirmed(server, smtp, "Ann", ANN)
    stranger = await Client.connect(server.port, "Guest")
    await stranger.send(ForgotPassword("Ann"))
    assert (await stranger.expect(MailNote)).note == "reset_sent"
    await stranger.send(ForgotPassword("Nobody"))
    assert (await stranger.expect(MailNote)).note == "reset_sent"
    (message,) = (await smtp.wait_for(2))[1:]
    assert "A new password for Ann" in message["Subject"]
    url = link(message, "/reset")
    status, page = await get(url)  # the form, which sends the code with the password
    assert status == 200 and "reset.mjs" in page
    code = url.rpartition("code=")[2]
    await stranger.send(ResetPassword(code, "a brand new password"))
    assert (await stranger.expect(MailNote)).note == "password_reset"
    await stranger.send(ResetPassword(code, "yet another password"))
    assert (await stranger.expect(Error)).code == "bad_code"  # good once
    other = await Client.connect(server.port, "Other")
    await other.send(Login("Ann", WORDS, None))
    assert (await other.expect(Error)).code == "bad_login"
    await other.send(Login("Ann", "a brand new password", None))
    await other.expect(LoggedIn)
    assert all(code.encode() not in frame for c in (ann, stranger, other) for frame in c.frames)
    for client in (ann, stranger, other):
        await client.close()


async def end_turn(client: Client, table_id: str, state: State) -> None:
    """Random legal actions of the client's seat until its turn passes."""
    rng = random.Random(5)
    version, view = state.version, seat_view_from_dict(state.view)
    while (ctx := view.turn_context()) is not None:
        await client.send(Command(table_id, version, str(rng.choice(legal_actions(ctx)))))
        while True:
            message = await client.recv()
            if isinstance(message, Update) and message.table_id == table_id:
                version, view = message.version, seat_view_from_dict(message.view)
                break
            assert not isinstance(message, Error), message


async def test_your_move_in_a_game_of_days_and_the_link_that_turns_it_off(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server = await make_server(**mail_settings(smtp))
    ann = await confirmed(server, smtp, "Ann", ANN)
    bob = await confirmed(server, smtp, "Bob", BOB)
    await ann.send(CreateTable(TableOptions(), False, "white", "white", TimeControl(days=3)))
    table_id = (await ann.expect(Joined)).table_id
    state = await ann.expect(State)
    await bob.send(Join(table_id, "black"))
    await bob.expect(Joined)
    await bob.close()
    while (await ann.expect(PlayersChanged)).status != "playing":
        pass
    await end_turn(ann, table_id, state)
    (turn,) = (await smtp.wait_for(3))[2:]
    assert turn["To"] == BOB and "Your move against Ann" in turn["Subject"]
    assert f"/table/{table_id}" in body(turn)
    off = link(turn, "/mail/off")
    assert turn["List-Unsubscribe"].strip() == f"<{off}>"
    status, page = await get(off)
    assert status == 200 and "your move in a game of days?" in page
    status, page = await get(off + "&do=1")
    assert status == 200 and "no more mails of this kind" in page
    bob = await Client.connect(server.port, "Bob")
    await bob.send(Login("Bob", WORDS, None))
    await bob.expect(LoggedIn)
    await bob.close()
    await ann.send(ChallengeMessage("Bob", ChallengeTerms(clock=TimeControl(days=3))))
    (challenge,) = (await smtp.wait_for(4))[3:]
    assert "Ann challenges you" in challenge["Subject"] and challenge["To"] == BOB
    assert all(BOB.encode() not in frame for frame in ann.frames)
    await ann.close()


async def test_a_relay_that_is_down_loses_no_mail(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    smtp.down()
    server = await make_server(**mail_settings(smtp))
    ann = await account(server, "Ann")
    await ann.send(SetEmail(ANN))
    await ann.expect(MailSettings)
    assert server.mail is not None
    for _ in range(200):
        if server.mail.failures >= 2:
            break
        await asyncio.sleep(0.02)
    assert server.mail.failures >= 2 and smtp.messages == []
    await ann.send(SetEmail(ANN))  # the server answers meanwhile
    await ann.expect(MailSettings)
    smtp.up()
    messages = await smtp.wait_for(2)
    assert {m["To"] for m in messages} == {ANN}
    await ann.close()


async def test_a_restart_sends_the_mail_left_queued(tmp_path: Path, smtp: SmtpServer) -> None:
    db = str(tmp_path / "db.sqlite3")
    smtp.down()
    first = KahunaServer(server_config(db=db, **mail_settings(smtp, mail_retry=3600.0)))
    await first.start()
    ann = await account(first, "Ann")
    await ann.send(SetEmail(ANN))
    await ann.expect(MailSettings)
    await ann.close()
    await first.stop()
    assert smtp.messages == []
    smtp.up()
    second = KahunaServer(server_config(db=db, **mail_settings(smtp)))
    await second.start()
    try:
        (message,) = await smtp.wait_for(1)
        assert message["To"] == ANN and "confirm" in body(message)
    finally:
        await second.stop()


async def test_reset_requests_over_sockets_send_at_most_the_throttles_mails(
    make_server: ServerFactory, smtp: SmtpServer
) -> None:
    server = await make_server(**mail_settings(smtp))
    (await confirmed(server, smtp, "Ann", ANN)).ws.close_timeout = 1
    askers = [await Client.connect(server.port, f"G{i}") for i in range(10)]
    for _ in range(30):
        for asker in askers:
            await asker.send(ForgotPassword("Ann"))
    for asker in askers:
        for _ in range(30):
            assert (await asker.expect(MailNote)).note == "reset_sent"
    await asyncio.sleep(0.5)
    resets = [m for m in smtp.messages if "A new password" in m["Subject"]]
    assert 1 <= len(resets) <= PER_ACCOUNT
    for asker in askers:
        await asker.close()
