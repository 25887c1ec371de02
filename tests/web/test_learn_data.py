"""The page's lessons are the terminal client's: web/lessons.mjs is written from
catalogue/lessons.py (a fresh file, as `make web-words` writes it), with the same records, moves
and texts (those the page says its own way aside), and states the engine reaches; every text has
its German and Italian."""

from __future__ import annotations

import json
import re
from pathlib import Path

from catalogue.lessons import LESSONS, ON_THE_PAGE, Lesson
from catalogue.rules_summary import SUMMARY
from client.screens.tutorial import Tutorial
from server.net.web import WebPages
from server.net.web_lessons import es_module
from shared.actions import parse_action
from shared.record import read_record
from shared.views import view_dicts

WEB = Path(__file__).resolve().parents[2] / "web"


def page_lessons() -> list[dict[str, object]]:
    """The lessons as the committed web/lessons.mjs holds them."""
    text = (WEB / "lessons.mjs").read_text(encoding="utf-8")
    found = re.search(r"^export const LESSONS = (.*);$", text, re.MULTILINE)
    assert found is not None
    lessons: list[dict[str, object]] = json.loads(found.group(1))
    return lessons


def texts(lesson: Lesson) -> list[str]:
    steps = [text for step in lesson.steps for text in (step.ask, step.why, step.done)]
    return [lesson.title, lesson.intro, *steps, lesson.outro]


def test_the_committed_module_is_a_fresh_one() -> None:
    assert (WEB / "lessons.mjs").read_text(encoding="utf-8") == es_module(), (
        "web/lessons.mjs is not current: run `make web-words`"
    )


def test_the_page_has_the_terminals_lessons() -> None:
    page = page_lessons()
    terminal = Tutorial().lessons  # what the terminal client teaches
    assert [lesson["key"] for lesson in page] == [lesson.key for lesson in terminal]
    for theirs, ours in zip(page, LESSONS, strict=True):
        said = [theirs["title"], theirs["intro"]]
        steps = theirs["steps"]
        assert isinstance(steps, list)
        for step in steps:
            said += [step["ask"], step["why"], step["done"]]
        said.append(theirs["outro"])
        assert said == [ON_THE_PAGE.get(text, text) for text in texts(ours)]
        assert [s["seat"] for s in steps] == [s.seat for s in ours.steps]
        assert [s["action"] for s in steps] == [str(parse_action(s.action)) for s in ours.steps]


def test_the_page_says_only_the_terminals_keys_its_own_way() -> None:
    english = {text for lesson in LESSONS for text in texts(lesson)}
    assert set(ON_THE_PAGE) <= english
    for said in ON_THE_PAGE.values():
        assert not re.search(r"\bF\d\b|\bTab\b|3of5|[○●]|\(=\)", said)


def test_each_state_is_the_engines() -> None:
    for theirs, lesson in zip(page_lessons(), LESSONS, strict=True):
        states = theirs["states"]
        assert isinstance(states, list) and len(states) == len(lesson.steps) + 1
        parsed = read_record(lesson.record())
        public, white, black = view_dicts(parsed.replay())
        last = states[-1]
        assert last["public"] == public
        assert last["hands"] == {"white": white["hand"], "black": black["hand"]}
        first, *_ = view_dicts(parsed.start())
        assert states[0]["public"] == first


def test_every_text_of_the_lessons_and_the_rules_is_translated() -> None:
    pages = WebPages()
    said = {text for lesson in page_lessons() for text in _said(lesson)}
    said |= {heading for heading, _p in SUMMARY}
    said |= {paragraph for _h, paragraphs in SUMMARY for paragraph in paragraphs}
    for language in ("de", "it"):
        found = pages.find(f"/words/{language}.json")
        assert found is not None
        words = json.loads(found.body)
        assert sorted(text for text in said if not words.get(text)) == [], language


def _said(lesson: dict[str, object]) -> list[str]:
    steps = lesson["steps"]
    assert isinstance(steps, list)
    out = [str(lesson["title"]), str(lesson["intro"]), str(lesson["outro"])]
    return out + [str(step[k]) for step in steps for k in ("ask", "why", "done")]
