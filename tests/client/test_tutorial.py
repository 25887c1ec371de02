"""kahuna-client --tutorial: every lesson's moves are legal (the engine replays each lesson's
record), the rulebook lesson is docs/examples/rulebook-example.kahuna, a wrong move is refused
with the lesson's explanation, the right one is played, and the application takes typed moves."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from catalogue.lessons import Lesson
from client.screens.tutorial import Tutorial, lessons, tutorial_application
from shared.actions import parse_action
from shared.history import Move
from shared.record import read_record

EXAMPLE = Path(__file__).parent.parent.parent / "docs" / "examples" / "rulebook-example.kahuna"
LESSONS = lessons()


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.key for lesson in LESSONS])
def test_every_lesson_replays_with_the_engine(lesson: Lesson) -> None:
    parsed = read_record(lesson.record())
    game = parsed.replay()  # RecordError if the rules refuse a move
    moves = [e for e in parsed.log if isinstance(e, Move)]
    assert [str(m.action) for m in moves] == [str(parse_action(s.action)) for s in lesson.steps]
    assert [m.seat.name.lower() for m in moves] == [s.seat for s in lesson.steps]
    assert game.move_count == len(lesson.steps)
    assert lesson.title and lesson.intro and lesson.outro
    assert all(s.ask and s.why and s.done for s in lesson.steps)


def test_the_lessons_cover_the_rules_and_the_rulebook_example() -> None:
    keys = [lesson.key for lesson in LESSONS]
    for key in ("placing", "drawing", "control", "removing", "rulebook", "round", "final"):
        assert key in keys
    rulebook = next(lesson for lesson in LESSONS if lesson.key == "rulebook")
    ours, theirs = read_record(rulebook.record()), read_record(EXAMPLE.read_text())
    assert ours.position == theirs.position and ours.log == theirs.log


def play_through(tutorial: Tutorial) -> None:
    for step in tutorial.lesson.steps:
        assert tutorial.submit(step.action)


def test_every_lesson_can_be_played_through_typing_its_moves() -> None:
    tutorial = Tutorial()
    for index, lesson in enumerate(LESSONS):
        assert tutorial.index == index and tutorial.step == 0
        play_through(tutorial)
        assert tutorial.finished and lesson.outro in [text for _s, text in tutorial.told]
        assert tutorial.game.move_count == len(lesson.steps)
        tutorial.draw(80, 22)
        tutorial.submit("next")
    assert tutorial.message_kind == "error"  # no lesson after the last


def test_a_wrong_move_is_refused_with_the_lessons_explanation() -> None:
    tutorial = Tutorial()
    why = tutorial.lesson.steps[0].why
    # legal, but not the move meant
    assert not tutorial.submit("place COCO-BARI")
    assert tutorial.step == 0 and tutorial.message_kind == "error"
    assert "not the one this lesson means" in tutorial.message and why in tutorial.message
    # against the rules: the rules' reason and the lesson's
    assert not tutorial.submit("place ALOA-BARI")
    assert tutorial.step == 0 and "Not allowed" in tutorial.message and why in tutorial.message
    # not even notation
    assert not tutorial.submit("plaec BARI-COCO")
    assert tutorial.step == 0 and why in tutorial.message
    # the right one, in any case and with the seat as a record writes it
    assert tutorial.submit("white place bari-coco")
    assert tutorial.step == 1 and tutorial.message_kind == "you"
    assert tutorial.lesson.steps[0].done in tutorial.message
    assert tutorial.game.bridges[0] != 0
    assert tutorial.submit("hint") and tutorial.message == "Type: place GOLA-COCO"


def test_a_move_the_rules_refuse_says_why() -> None:
    tutorial = Tutorial()
    tutorial.open([lesson.key for lesson in LESSONS].index("drawing"))
    assert not tutorial.submit("abstain")
    assert "abstain" in tutorial.message and tutorial.lesson.steps[0].why in tutorial.message
    assert tutorial.submit("take HUNA") and tutorial.step == 1


def test_lessons_back_next_and_again() -> None:
    tutorial = Tutorial()
    tutorial.submit("back")
    assert tutorial.index == 0 and tutorial.message_kind == "error"
    tutorial.submit("place BARI-COCO")
    tutorial.submit("again")
    assert tutorial.step == 0 and tutorial.game.bridges == [0, 0]
    tutorial.submit("next")
    assert tutorial.index == 1
    tutorial.submit("back")
    assert tutorial.index == 0


async def test_moves_typed_on_the_application() -> None:
    tutorial = Tutorial()
    with create_pipe_input() as pipe:
        app = tutorial_application(tutorial, input=pipe, output=DummyOutput())
        with create_app_session(input=pipe, output=app.output):
            task = asyncio.ensure_future(app.run_async())
            await asyncio.sleep(0.05)
            pipe.send_text("place COCO-BARI\r")
            for _ in range(300):
                if tutorial.message_kind == "error":
                    break
                await asyncio.sleep(0.01)
            assert tutorial.step == 0
            pipe.send_text("\x03place BARI-COCO\r")  # Ctrl-C clears the refused line
            for _ in range(300):
                if tutorial.step == 1:
                    break
                await asyncio.sleep(0.01)
            assert tutorial.step == 1
            pipe.send_text("\x1b[6~")  # PgDn: the next lesson
            for _ in range(300):
                if tutorial.index == 1:
                    break
                await asyncio.sleep(0.01)
            assert tutorial.index == 1
            pipe.send_text("quit\r")
            await asyncio.wait_for(task, 5)
