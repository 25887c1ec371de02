"""The command line as a player types on it, headless (a pipe in, a dummy terminal out): Enter
after Tab plays what the line under the map says, a refused line stays to be corrected, Tab out
of turn offers no game command, and long messages are wrapped, not cut."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import attrs
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.model.state import ClientState
from client.screens.app import KahunaApp
from client.screens.lobby_screen import render_lobby
from client.screens.render import render_game
from protocol.messages import ClientMessage, Command, Leave, LobbySubscribe, PlayersChanged
from tests.client.test_app import until
from tests.client.test_render import known_state


@attrs.define
class Ui:
    app: KahunaApp
    pipe: PipeInput
    sent: list[ClientMessage]


@contextlib.asynccontextmanager
async def running(state: ClientState) -> AsyncIterator[Ui]:
    sent: list[ClientMessage] = []

    def send(msg: ClientMessage) -> bool:
        sent.append(msg)
        return True

    with create_pipe_input() as pipe:
        ui = KahunaApp(state, send, input=pipe, output=DummyOutput())
        task = asyncio.get_running_loop().create_task(ui.app.run_async())
        await until(lambda: ui.app.is_running, "the application")
        try:
            yield Ui(ui, pipe, sent)
        finally:
            ui.quit()
            await asyncio.wait_for(task, 5)


async def test_enter_after_tab_plays_what_the_line_says() -> None:
    async with running(known_state()) as ui:
        ui.pipe.send_text("place \t")  # several lines: the menu, the first one chosen
        await until(lambda: ui.app.buffer.complete_state is not None, "the menu")
        await until(lambda: ui.app.buffer.text != "place ", "the first line chosen")
        chosen = ui.app.buffer.text.strip()
        assert ui.app.preview == ("class:msg.ok", f"Enter plays: {chosen}")
        ui.pipe.send_text("\r")  # plays it, as the line says (it used to close the menu only)
        await until(lambda: ui.sent, "the command sent")
        assert ui.sent == [Command("t1", 0, chosen)]
        assert ui.app.buffer.text == ""


async def test_tab_with_one_candidate_takes_it_and_goes_on_to_the_next_word() -> None:
    async with running(known_state()) as ui:
        ui.pipe.send_text("pl\t")
        await until(lambda: ui.app.buffer.text == "place ", "the verb")
        assert ui.app.buffer.complete_state is None
        ui.pipe.send_text("GO\t")  # the only GOLA line White may build on: taken
        await until(lambda: ui.app.buffer.text.startswith("place GOLA-"), "the line")
        assert ui.app.preview is not None and ui.app.preview[1].startswith("Enter plays")
        ui.pipe.send_text("\r")
        await until(lambda: ui.sent, "the command")
        assert isinstance(ui.sent[0], Command) and ui.sent[0].action.startswith("place GOLA-")


async def test_enter_after_tab_on_a_word_of_a_longer_command_takes_the_word() -> None:
    async with running(known_state()) as ui:
        ui.pipe.send_text("disc\t")
        await until(lambda: ui.app.buffer.text == "discard ", "the completion")
        ui.pipe.send_text("\r")  # "discard" alone is not a command: Enter takes the word
        await until(lambda: ui.app.buffer.complete_state is None, "the menu closed")
        await asyncio.sleep(0.05)
        assert ui.sent == [] and ui.app.buffer.text == "discard "


async def test_a_refused_command_stays_on_the_line() -> None:
    state = known_state()
    async with running(state) as ui:
        ui.pipe.send_text("discard COCO\r")  # White holds no COCO
        await until(lambda: "Not sent" in state.message, "the refusal")
        assert ui.app.buffer.text == "discard COCO" and ui.sent == []
        # corrected in place: the word replaced, and sent
        ui.pipe.send_text("\x7f" * 4 + "GOLA\r")
        await until(lambda: ui.sent, "the corrected command")
        assert ui.sent == [Command("t1", 0, "discard GOLA")] and ui.app.buffer.text == ""


def test_a_long_message_is_wrapped_not_cut() -> None:
    state = known_state()
    words = [f"word{i}" for i in range(30)] + ["end,", "handicap"]
    state.say(" ".join(words), "error")
    for width, height in ((80, 22), (120, 38)):
        text = " ".join(render_game(state, width, height).lines()[-3:])
        assert all(word in text.split() for word in words), text
    lobby = ClientState(name="Ann")
    lobby.say(" ".join(words))
    text = " ".join(render_lobby(lobby, 80, 23).lines()[-3:])
    assert all(word in text.split() for word in words)


def test_no_handicap_is_not_mentioned() -> None:
    state = known_state()
    assert state.public is not None and state.public.options.handicap_seat is None
    text = render_game(state, 80, 22).text().lower()
    assert "handicap" not in text


async def test_lobby_during_a_game_says_the_player_stepped_away() -> None:
    state = known_state()
    async with running(state) as ui:
        ui.pipe.send_text("lobby\r")
        await until(lambda: state.screen == "lobby", "the lobby")
        assert ui.sent == [Leave("t1"), LobbySubscribe()]
        assert state.message.startswith("You stepped away from table t1: your White seat waits")
    # the others: the players message says only "not connected": no word of a lost connection
    other = known_state("Bob")
    assert other.players is not None and other.players.white is not None
    away = attrs.evolve(other.players.white, connected=False)
    other.handle(PlayersChanged("t1", "playing", attrs.evolve(other.players, white=away)))
    assert other.log[-1].text == "Bob (White) is away; the game waits for them"
