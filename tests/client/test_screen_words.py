"""What the terminal client says to a player: sentences, never the server's raw codes (those go
to the debug log), and a chat line over the limit refused with the limit said."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from client.model.state import ClientState
from client.screens.lobby_line import LobbyLine
from protocol.messages import Chat, ClientMessage, Error
from protocol.player_messages import LobbyChat
from tests.client.test_app import until
from tests.client.test_keys import running
from tests.client.test_render import known_state


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (Error("bad_login", "bad login"), "Server: no account has that name and password"),
        (
            Error("chat_too_long", "at most 300 characters"),
            "Server: a chat line is at most 300 characters",
        ),
    ],
)
def test_a_refusal_is_a_sentence_and_its_code_goes_to_the_debug_log(
    error: Error, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    state = ClientState(name="Ann")
    state.max_chat = 300
    with caplog.at_level(logging.DEBUG, logger="client.model.state"):
        state.handle(error)
    assert state.message == said and state.message_kind == "error"
    assert "[" not in state.message
    assert error.code in caplog.text


async def test_a_chat_line_over_the_limit_stays_on_the_line_and_says_the_limit() -> None:
    state = known_state()
    state.max_chat = 20
    async with running(state) as ui:
        ui.pipe.send_text("'" + "x" * 25 + "\r")
        await until(lambda: "Not sent" in state.message, "the refusal")
        assert state.message == "Not sent: a chat line is at most 20 characters (this one has 25)."
        assert ui.app.buffer.text == "'" + "x" * 25  # kept, to be shortened
        assert not ui.sent
        ui.pipe.send_text("\b" * 5 + "\r")
        await until(lambda: ui.sent, "the shorter line")
        assert ui.sent == [Chat("t1", "x" * 20)]


def test_a_lobby_chat_line_over_the_limit_stays_on_the_line(tmp_path: Path) -> None:
    state = ClientState(name="Ann")
    state.max_chat = 10
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    line = LobbyLine(state, send, tmp_path, lambda _why: None)
    line.open("'" + "y" * 11)
    line.buffer.validate_and_handle()
    assert sent == [] and line.typing and line.buffer.text == "'" + "y" * 11
    assert state.message == "Not sent: a chat line is at most 10 characters (this one has 11)."
    line.open("'" + "y" * 10)
    line.buffer.validate_and_handle()
    assert sent == [LobbyChat("y" * 10)] and not line.typing
