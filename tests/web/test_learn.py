"""The lessons at /learn, in a real browser: every lesson of the terminal's tutorial completed on
the page by clicks (a card and a line, a choice, a face-up card, the pile, a button), a wrong
move refused with the lesson's reason (and the rules' when they refuse it too), the progress
kept across a reload, and the page in German with the catalogue's words."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page, expect

from catalogue.lessons import LESSONS
from server.net.web import WebPages
from shared.actions import Place, Remove, parse_action
from shared.board import ISLANDS, line_name
from tests.web.conftest import PHONE, Pages

pytestmark = pytest.mark.browser

# Where a line is in the window: the middle of its drawn curve (as a person would click it).
LINE_AT = """
(name) => {
  const g = document.querySelector(`.learn [data-line="${name}"]`);
  const path = g.querySelector("path.over") || g.querySelector("path");
  const p = path.getPointAtLength(path.getTotalLength() / 2);
  const m = path.getScreenCTM();
  return { x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
}
"""


async def click_line(page: Page, name: str) -> None:
    await page.locator(f".learn [data-line='{name}']").scroll_into_view_if_needed()
    at = await page.evaluate(LINE_AT, name)
    await page.mouse.click(at["x"], at["y"])


async def play(page: Page, text: str) -> None:
    """Make a lesson's move by clicks, as a person would."""
    action = parse_action(text)
    if isinstance(action, Place):
        await page.locator(f".learn .hand [data-card='{ISLANDS[action.card]}']").first.click()
        await click_line(page, line_name(action.line))
    elif isinstance(action, Remove):
        await click_line(page, line_name(action.line))
        await page.locator(f"#learn-choices [data-action='{action}']").click()
    elif text.startswith("take "):
        await page.locator(f".learn [data-take='{text.split()[1]}']").first.click()
    elif text == "draw":
        await page.click("#learn-draw")
    else:
        await page.click(f"#learn-{text}")  # abstain, end


async def moves_told(page: Page) -> int:
    return await page.locator(".told .move").count()


async def test_every_lesson_is_completed_on_the_page_by_clicks(pages: Pages) -> None:
    page = await pages.open("/learn")
    await page.wait_for_selector(".learn svg.board")
    for number, lesson in enumerate(LESSONS, start=1):
        await expect(page.locator("#learn-title")).to_contain_text(f"Lesson {number} of 7")
        for done, step in enumerate(lesson.steps, start=1):
            await play(page, step.action)
            await expect(page.locator(".told .move")).to_have_count(done)
            await expect(page.locator("#learn-say")).to_have_class("say you")
        await expect(page.locator("#learn-say")).to_contain_text("Lesson done.")
        await expect(page.locator(".told .outro")).to_have_count(1)
        # after the move the focus is on what was said or on the way on, never on <body>
        assert await page.evaluate("() => document.activeElement !== document.body")
        if number < len(LESSONS):
            await page.click("#learn-next")
    assert await page.locator(".lesson-list li.done").count() == len(LESSONS)
    kept = await page.evaluate("() => JSON.parse(localStorage.getItem('kahuna.lessons'))")
    assert sorted(kept["done"]) == sorted(lesson.key for lesson in LESSONS)


async def test_a_wrong_move_is_refused_with_the_lessons_reason(pages: Pages) -> None:
    page = await pages.open("/learn")
    await page.wait_for_selector(".learn svg.board")
    why = LESSONS[0].steps[0].why
    # legal, but not the move meant: the COCO card on BARI-COCO
    await page.locator(".learn .hand [data-card='COCO']").click()
    await click_line(page, "BARI-COCO")
    say = page.locator("#learn-say")
    await expect(say).to_have_class("say error")
    await expect(say).to_contain_text("A legal move, but not the one this lesson means.")
    await expect(say).to_contain_text(why)
    assert await moves_told(page) == 0
    # said again in the language switched to
    found = WebPages().find("/words/de.json")
    assert found is not None
    await page.select_option("#language", "de")
    await expect(say).to_contain_text(json.loads(found.body)[why])
    await page.select_option("#language", "en")
    await expect(say).to_contain_text(why)
    # a line no move uses now
    await click_line(page, "JOJO-KAHU")
    await expect(say).to_contain_text("No move of yours uses JOJO-KAHU now.")
    # the rules refuse it: abstaining right after the opponent abstained (lesson 2)
    await page.click("[data-lesson='drawing']")
    await page.click("#learn-abstain")
    await expect(say).to_contain_text("Not allowed: you may not abstain right after")
    await expect(say).to_contain_text(LESSONS[1].steps[0].why)
    # the hint names the move, and the right one is played
    await page.click("#learn-hint")
    await expect(say).to_contain_text("The lesson's move: Take HUNA")
    await play(page, "take HUNA")
    await expect(page.locator(".told .move")).to_have_count(1)
    assert await page.locator(".learn [data-take='HUNA']").count() == 0


async def test_the_progress_is_kept_after_a_reload(pages: Pages) -> None:
    page = await pages.open("/learn")
    await page.wait_for_selector(".learn svg.board")
    for step in LESSONS[0].steps:
        await play(page, step.action)
    await expect(page.locator("#learn-say")).to_contain_text("Lesson done.")
    await page.click("#learn-next")
    await play(page, LESSONS[1].steps[0].action)
    await expect(page.locator(".told .move")).to_have_count(1)
    await page.reload()
    await page.wait_for_selector(".learn svg.board")
    await expect(page.locator("#learn-title")).to_contain_text("Lesson 2 of 7")
    await expect(page.locator(".told .move")).to_have_count(1)  # the step too
    await expect(page.locator(".lesson-list li.done")).to_have_count(1)
    await expect(page.locator("[data-lesson='placing']")).to_contain_text("✓")
    # and it goes on from there
    await play(page, LESSONS[1].steps[1].action)
    await expect(page.locator(".told .move")).to_have_count(2)


async def test_the_lessons_in_german_on_a_phone(pages: Pages) -> None:
    page = await pages.open("/learn", viewport=PHONE, locale="de-DE")
    await page.wait_for_selector(".learn svg.board")
    found = WebPages().find("/words/de.json")
    assert found is not None
    german = json.loads(found.body)
    lesson = LESSONS[0]
    await expect(page.locator(".lesson .intro")).to_have_text(german[lesson.intro])
    await expect(page.locator("#learn-say")).to_have_text(german[lesson.steps[0].ask])
    await expect(page.locator("#learn-title")).to_contain_text(german[lesson.title])
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sticks out sideways
    for step in lesson.steps:
        await play(page, step.action)
    await expect(page.locator(".told .outro")).to_have_text(
        german["In a game, a card you pick lights up the lines it can bridge."]
    )


async def test_a_lesson_by_keys_keeps_the_focus(pages: Pages) -> None:
    page = await pages.open("/learn")
    await page.wait_for_selector(".learn svg.board")
    on_body = "() => document.activeElement === document.body"
    # a line, Enter: its two ways offered, the first one focused; Enter plays it
    await page.focus(".learn [data-line='BARI-COCO']")
    await page.keyboard.press("Enter")
    await expect(page.locator("#learn-choices button")).to_have_count(2)
    focused = await page.evaluate("() => document.activeElement.dataset.action")
    assert focused == "place BARI-COCO"
    await page.keyboard.press("Enter")
    await expect(page.locator(".told .move")).to_have_count(1)
    assert not await page.evaluate(on_body)
    # a card picked by Space keeps the focus on that card, through the drawing
    await page.focus(".learn .hand [data-card='GOLA']")
    await page.keyboard.press("Space")
    await expect(page.locator(".learn .hand [data-card='GOLA']")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert await page.evaluate("() => document.activeElement.dataset.card") == "GOLA"
    await page.focus(".learn [data-line='COCO-GOLA']")
    await page.keyboard.press("Enter")
    await expect(page.locator(".told .move")).to_have_count(2)
    assert not await page.evaluate(on_body)
    await page.focus(".learn [data-take='FAAA']")
    await page.keyboard.press("Enter")
    await expect(page.locator("#learn-say")).to_contain_text("Lesson done.")
    assert await page.evaluate("() => document.activeElement.id") == "learn-next"


async def test_the_last_lesson_leads_to_a_game(pages: Pages) -> None:
    """Done with the last lesson, the learner is offered a game against the computer where the
    other lessons offer the next one, not a disabled "Next lesson" and no way on."""
    page = await pages.open("/learn")
    await page.wait_for_selector(".learn svg.board")
    last = LESSONS[-1]
    await page.click(f"[data-lesson='{last.key}']")
    await expect(page.locator("#learn-title")).to_contain_text(f"Lesson {len(LESSONS)} of")
    assert await page.locator("#learn-next").count() == 0
    for step in last.steps:
        await play(page, step.action)
    await expect(page.locator("#learn-say")).to_contain_text("Lesson done.")
    assert await page.evaluate("() => document.activeElement.id") == "learn-play"
    await page.click("#learn-play")
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.view && t.role === 'white'; }",
        arg=table_id,
    )
    await expect(page.locator(".player.black")).to_contain_text("Computer")
