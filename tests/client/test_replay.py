"""kahuna-client --replay: every step of a record is the engine's state after that prefix of the
log, forwards and backwards; the keys jump to the start, the end, a turn and a round; the screen
shows every hand; a broken record is refused with FILE:LINE and exit status 1."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.cli.play import main
from client.language.i18n import _ as say
from client.language.i18n import set_language
from client.model.state import ClientState
from client.screens.lobby_line import LobbyLine
from client.screens.replay import (
    ReplayViewer,
    Timeline,
    load,
    replay_application,
    replay_main,
    short_name,
    timeline,
)
from protocol.messages import Record
from shared.board import ISLANDS
from shared.game import Game
from shared.history import Chance, LogEntry
from shared.randomness import SeededSource
from shared.record import ParsedRecord, game_to_json, read_record, write_record
from shared.types import GameOptions, Seat
from tests.client.test_analysis import resigned_game
from tests.shared.test_record import random_game

ROOT = Path(__file__).parent.parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "rulebook-example.kahuna"


def prefix_states(parsed: ParsedRecord) -> list[dict[str, Any]]:
    """The engine's state after each prefix of the log that ends with an action (its reshuffle
    included), and before the first: what each step of the replay must show."""
    skip = 0 if parsed.position is not None else 1
    log: list[LogEntry] = list(parsed.log)
    ends = [skip] + [
        i + 2 if i + 1 < len(log) and isinstance(log[i + 1], Chance) else i + 1
        for i in range(skip, len(log))
        if not isinstance(log[i], Chance)
    ]
    return [
        game_to_json(
            Game.from_log(
                parsed.options,
                parsed.first,
                log[:end],
                position=parsed.position,
                source=SeededSource(0),
            )
        )
        for end in ends
    ]


def check_both_ways(steps: Timeline, expected: list[dict[str, Any]]) -> None:
    viewer = ReplayViewer(steps, "x")
    assert steps.last == len(expected) - 1
    for i in range(len(expected)):
        assert viewer.index == i
        assert game_to_json(viewer.game) == expected[i]
        viewer.draw(80, 23)
        viewer.forward()
    assert viewer.index == steps.last  # forward at the end stays there
    for i in reversed(range(len(expected))):
        assert viewer.index == i
        assert game_to_json(viewer.game) == expected[i]
        viewer.back()
    assert viewer.index == 0


def test_the_rulebook_example_forwards_and_backwards_is_the_engine_at_each_step() -> None:
    text = EXAMPLE.read_text()
    check_both_ways(load(EXAMPLE), prefix_states(read_record(text)))


@pytest.mark.parametrize("seed", [9, 12])
def test_a_whole_game_with_reshuffles_and_an_ending(seed: int) -> None:
    game = random_game(seed, GameOptions(variant2=seed == 12), Seat.BLACK)
    text = write_record(game)
    parsed = read_record(text)
    assert any(isinstance(e, Chance) for e in parsed.log[1:])  # it has reshuffles
    check_both_ways(timeline(parsed, text), prefix_states(parsed))


def test_a_resignation_is_the_last_step() -> None:
    text = EXAMPLE.read_text() + "black resigns\n"
    steps = timeline(read_record(text), text)
    assert steps.last == 6
    last = steps.steps[-1].game
    assert last.result is not None and last.result.winner is Seat.WHITE
    viewer = ReplayViewer(steps, "x")
    viewer.end()
    assert "White wins" in viewer.draw(80, 23).text()


def test_start_end_turns_and_rounds() -> None:
    game = random_game(9, GameOptions(), Seat.BLACK)
    text = write_record(game)
    steps = timeline(read_record(text), text)
    viewer = ReplayViewer(steps, "x")
    viewer.end()
    assert viewer.index == steps.last and viewer.game.is_over
    viewer.home()
    assert viewer.index == 0 and viewer.game.move_count == 0
    for number in (2, 3):
        viewer.round(number)
        here = viewer.index
        assert viewer.game.round == number and steps.steps[here - 1].game.round == number - 1
    viewer.round(1)
    assert viewer.index == 0
    # a turn forward: the next step at which the player to move has changed
    viewer.turn_forward()
    first = viewer.index
    assert first > 0 and steps.steps[first].ends_turn
    assert all(not steps.steps[i].ends_turn for i in range(1, first))
    viewer.turn_forward()
    assert viewer.index > first and steps.steps[viewer.index].ends_turn
    viewer.turn_back()
    assert viewer.index == first
    viewer.turn_back()
    assert viewer.index == 0


def test_a_round_the_record_never_reaches_is_said() -> None:
    viewer = ReplayViewer(load(EXAMPLE), "rulebook-example.kahuna")
    viewer.round(3)
    assert viewer.index == 0 and "never reaches round 3" in viewer.draw(80, 23).text()


def test_the_screen_shows_every_hand_the_pile_in_order_and_the_comments() -> None:
    viewer = ReplayViewer(load(EXAMPLE), "rulebook-example.kahuna")
    screen = viewer.draw(80, 23).text()
    assert "hand ALOA BARI KAHU" in screen and "hand ELAI GOLA HUNA HUNA" in screen
    assert "Pile FAAA IFFI DUDA KAHU" in screen
    assert "White holds DUDA (3 of its 4 lines)" in screen
    viewer.forward()
    screen = viewer.draw(80, 23).text()
    assert "1 White: place BARI-DUDA" in screen
    assert "White placed a bridge" in screen and "White won BARI" in " ".join(viewer.step.words)
    assert "a bridge on BARI-DUDA wins BARI" in screen  # the record's comment on that move
    # face-down discards are shown too
    text = EXAMPLE.read_text().replace("white draw", "white discard KAHU\nwhite draw")
    steps = timeline(read_record(text), text)
    viewer = ReplayViewer(steps, "x")
    viewer.go(3)
    assert "down KAHU" in viewer.draw(80, 23).text()


async def until(check: Callable[[], object], what: str) -> None:
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def test_the_keys_on_the_running_application() -> None:
    viewer = ReplayViewer(load(EXAMPLE), "rulebook-example.kahuna")
    with create_pipe_input() as pipe:
        app = replay_application(viewer, input=pipe, output=DummyOutput())
        with create_app_session(input=pipe, output=app.output):
            task = asyncio.ensure_future(app.run_async())
            await asyncio.sleep(0.05)
            for key, index in (
                ("\x1b[C", 1),  # →
                ("\x1b[C", 2),
                ("\x1b[D", 1),  # ←
                ("\x1b[F", 5),  # End
                ("\x1b[H", 0),  # Home
                ("\x1b[B", 3),  # ↓: White's turn ends with the draw
                ("\x1b[6~", 5),  # PgDn: the end
                ("\x1b[A", 3),  # ↑
                ("\x1b[5~", 0),  # PgUp
                ("1", 0),
            ):
                pipe.send_text(key)
                await until(lambda index=index: viewer.index == index, f"step {index}")  # type: ignore[misc]
            pipe.send_text("q")
            await asyncio.wait_for(task, 5)


def test_a_broken_record_exits_1_naming_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.kahuna"
    lines = EXAMPLE.read_text().splitlines()
    number = lines.index("white place ALOA-BARI") + 1
    lines[number - 1] = "white place ALOA-GOLA"  # White holds no GOLA, and it is no line
    bad.write_text("\n".join(lines) + "\n")
    assert main(["--replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:{number}: ")
    assert main(["--replay", str(tmp_path / "missing.kahuna")]) == 2
    assert "missing.kahuna" in capsys.readouterr().err
    assert replay_main(str(EXAMPLE).replace("rulebook", "no-such")) == 2


def test_every_island_name_appears_on_the_map() -> None:
    screen = ReplayViewer(load(EXAMPLE), "x").draw(80, 23).text()
    assert all(name in screen for name in ISLANDS)


def test_a_long_file_name_gives_way_in_the_header_at_80_columns() -> None:
    name = "kahuna-53c4f1a6-20261125-160317.kahuna.txt"
    viewer = ReplayViewer(load(EXAMPLE), name)
    header = viewer.draw(80, 23).lines()[0].rstrip()
    assert header.endswith("· action 0 of 5 · round 1"), header
    assert "kahuna-53c4f1a6-20261125-160317 ·" in header  # the suffix went first
    viewer = ReplayViewer(
        load(EXAMPLE), "a-very-long-name-for-a-record-of-a-club-evening-game.kahuna"
    )
    header = viewer.draw(80, 23).lines()[0].rstrip()
    assert len(header) <= 80 and header.endswith("· action 0 of 5 · round 1"), header
    assert "replay a-very-long-name-f…a-club-evening-game · action" in header
    assert short_name("kahuna-53c4f1a6-20261125-160317", 11) == "kahun…60317"
    assert short_name("short.kahuna", 40) == "short.kahuna"


def test_saving_a_replayed_record_says_where_on_the_replay_itself(tmp_path: Path) -> None:
    """s in a replay of the lobby writes the record; the replay covers the lobby, whose line
    said where, unseen until the replay closed: the replay's own bottom line says it."""

    def send(_message: object) -> bool:
        return True

    line = LobbyLine(ClientState(name="Zed"), send, tmp_path, lambda _said: None)
    line.open_record("77aa0b1f")
    line.received(Record("77aa0b1f", EXAMPLE.read_text()))
    assert line.replay is not None
    line.save_replay()
    (saved,) = tmp_path.iterdir()
    assert saved.read_text() == EXAMPLE.read_text()
    screen = line.replay.draw(80, 23)
    assert "Saved the game record to" in screen.text()
    assert "class:msg.error" not in {style for row in screen.cells for style, _ch in row}
    line.replay.forward()  # said until the next move
    assert "Saved the game record" not in line.replay.draw(80, 23).text()
    line.save_dir = tmp_path / "missing"
    line.save_replay()
    assert "Could not save" in line.replay.draw(80, 23).text()


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_the_records_closing_comment_is_not_shown_in_english(lang: str) -> None:
    """A record ends with "# result: black (White resigned); points 0:0", written for a reader
    of the file; the replay showed it at the end as the record's comment, in English whatever
    the language, under a panel that says the result in the player's."""
    text = resigned_game(3, 6)
    assert "# result: black (White resigned)" in text
    set_language(lang)
    try:
        viewer = ReplayViewer(timeline(read_record(text), text), "x.kahuna")
        viewer.end()
        screen = viewer.draw(80, 23).text()
        assert "result: black" not in screen
        assert say("The end of the record. ← steps back, Home goes to the start.") in screen
        assert all(not step.comments for step in viewer.timeline.steps)
    finally:
        set_language("en")
    # a comment of the record's own is shown as before
    said = text.replace("white resigns", "# a comment of the game's own\nwhite resigns")
    assert "a comment of the game's own" in " ".join(
        " ".join(step.comments) for step in timeline(read_record(said), said).steps
    )
