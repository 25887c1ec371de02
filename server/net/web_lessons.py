"""web/lessons.mjs, what the page's /learn and /rules say, written from the catalogue and the
engine (`make web-words` runs this module; tests/web/test_learn_data.py checks the committed file
is a fresh one): the terminal client's lessons (catalogue/lessons.py) as the page says them,
each with the states the engine reaches from its position after each expected move, and the
rules in short (catalogue/rules_summary.py). All in English, the catalogue's keys: the page
translates them with the same catalogue as the terminal client.

The states are the views the server would send (shared/views.py's wire form), with both hands,
since the player of a lesson plays both seats; so the page draws a lesson with the table's board
and checks its moves with its own legality, and no rule is written a second time for it.
"""

from __future__ import annotations

import json
from typing import Any

from catalogue.lessons import LESSONS, Lesson, on_the_page
from catalogue.rules_summary import SUMMARY
from shared.actions import parse_action
from shared.board import line_name
from shared.events import BridgePlaced, BridgeRemoved, Event
from shared.history import Move
from shared.record import read_record
from shared.views import view_dicts


def _state(public: dict[str, Any], white: list[str], black: list[str], events: list[Event]) -> Any:
    recent = sorted(
        {line_name(e.line) for e in events if isinstance(e, BridgePlaced | BridgeRemoved)}
    )
    return {"public": public, "hands": {"white": white, "black": black}, "recent": recent}


def lesson_data(lesson: Lesson) -> dict[str, Any]:
    """One lesson as the page reads it: its words (the page's English) and its states, the
    start and one after each expected move (a reshuffle's order comes from the record)."""
    said = on_the_page(lesson)
    parsed = read_record(lesson.record())
    parsed.replay()  # a lesson the rules refuse fails here, naming its line
    game = parsed.start()
    public, white, black = view_dicts(game)
    states = [_state(public, white["hand"], black["hand"], [])]
    for entry in parsed.log:
        if isinstance(entry, Move):
            events = game.apply(entry.action)
            public, white, black = view_dicts(game)
            states.append(_state(public, white["hand"], black["hand"], events))
    return {
        "key": lesson.key,
        "title": said.title,
        "intro": said.intro,
        "outro": said.outro,
        "steps": [
            {
                "seat": step.seat,
                "action": str(parse_action(step.action)),  # as the page's legality writes it
                "ask": step.ask,
                "why": step.why,
                "done": step.done,
            }
            for step in said.steps
        ],
        "states": states,
    }


def rules_data() -> list[dict[str, Any]]:
    return [{"heading": heading, "paragraphs": list(paragraphs)} for heading, paragraphs in SUMMARY]


def es_module() -> str:
    """web/lessons.mjs: the lessons and the rules in short, as an ES module for the page."""
    lessons = json.dumps([lesson_data(lesson) for lesson in LESSONS], ensure_ascii=False)
    rules = json.dumps(rules_data(), ensure_ascii=False, indent=2)
    return "\n".join(
        [
            "// Written by `make web-words` (server/net/web_lessons.py) from the catalogue's",
            "// lessons and rules in short, with the engine's state after each lesson's move.",
            "// English, the catalogue's keys (web/words.mjs translates them). Do not edit.",
            "",
            f"export const LESSONS = {lessons};",
            "",
            f"export const RULES = {rules};",
            "",
        ]
    )


if __name__ == "__main__":
    print(es_module(), end="")
