"""The rules in short at /rules, in a real browser: in English the text of docs/rules.md's
summary (catalogue/rules_summary.py), in German and Italian the catalogue's translations with no
English sentence of the catalogue left on the page; its links go to the lessons and back."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page, expect

from catalogue.rules_summary import SUMMARY
from server.net.web import WebPages
from tests.web.conftest import PHONE, Pages

pytestmark = pytest.mark.browser

TEXTS = """
() => {
  const out = [];
  const walk = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const text = walk.currentNode.textContent.trim();
    if (text) out.push(text);
  }
  return out;
}
"""


def english() -> list[str]:
    return [text for heading, paragraphs in SUMMARY for text in (heading, *paragraphs)]


async def shown(page: Page) -> list[str]:
    await page.wait_for_selector("article.rules")
    texts: list[str] = await page.evaluate(TEXTS)
    return texts


async def test_the_rules_in_english_are_the_docs_summary(pages: Pages) -> None:
    page = await pages.open("/rules", locale="en-GB")
    texts = await shown(page)
    assert texts[0] == "The rules in short"
    assert texts[1 : 1 + len(english())] == english()
    assert await page.locator("article.rules h2").count() == len(SUMMARY)
    assert await page.title() == "Kahuna · The rules in short"
    await page.click("a[href='/learn']")
    await page.wait_for_selector(".learn svg.board")
    assert page.url.endswith("/learn")
    await page.go_back()
    await page.wait_for_selector("article.rules")
    await page.click("a[href='/learn']")
    await page.click(".lesson-list a[href='/rules']")  # and back from the lessons
    await page.wait_for_selector("article.rules")
    await page.click(".rules-links a[href='/']")
    await expect(page.locator("article.rules")).to_have_count(0)  # the lobby, drawn instead
    assert page.url.endswith("/")


@pytest.mark.parametrize("language", ["de", "it"])
async def test_the_rules_in_german_and_italian_leave_no_english(
    pages: Pages, language: str
) -> None:
    found = WebPages().find(f"/words/{language}.json")
    assert found is not None
    words: dict[str, object] = json.loads(found.body)
    page = await pages.open("/rules", locale=language, viewport=PHONE)
    texts = await shown(page)
    translated = [words[text] for text in english()]
    assert texts[1 : 1 + len(translated)] == translated
    # no sentence of the English catalogue that has a translation of its own is on the page
    left = [t for t in texts if t in words and words[t] != t]
    assert left == []
    assert not set(texts) & set(english())
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    await expect(page.locator("html")).to_have_attribute("lang", language)


# The colour of each link of the rules' and the lessons' ways on, and of the lobby's.
LINK_COLOURS = """
(selector) => [...document.querySelectorAll(selector)].map((a) => getComputedStyle(a).color)
"""


async def test_the_ways_on_are_coloured_as_the_pages_other_links(pages: Pages) -> None:
    """The links to the lessons, the rules and the lobby read as the page's other links (the
    lesson list's, the lobby's), not in the browser's own blue."""
    page = await pages.open("/rules")
    await page.wait_for_selector("article.rules")
    deep = "rgb(31, 85, 115)"  # style.css's --sea-deep, #1f5573
    assert set(await page.evaluate(LINK_COLOURS, ".rules-links a")) == {deep}
    await page.click(".rules-links a[href='/learn']")
    await page.wait_for_selector(".learn svg.board")
    assert set(await page.evaluate(LINK_COLOURS, ".lesson-list a")) == {deep}
