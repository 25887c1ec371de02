"""No English left in German and Italian (issue 37): the visible text of the lobby, a table as
its player, a finished game's replay with its analysis, a player's page, the lessons and the
rules, in each language, holds no sentence of the English catalogue (a msgid, its placeholders
filled with anything) whose translation differs from it. Names, numbers, the islands and
"Kahuna" are no sentences of the catalogue; a msgid the language keeps as it is (a word the
same in both) is no English left."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
import pytest_asyncio
from babel.messages.mofile import read_mo
from playwright.async_api import Browser, Page, expect

from catalogue import LOCALE_DIR
from server.net.app import KahunaServer
from tests.conftest import ServerFactory
from tests.web.conftest import DESKTOP
from tests.web.places import (
    analysing_server,
    lobby_page,
    player_page,
    replay_with_analysis,
    table_against_the_computer,
)
from tests.web.test_replay import archived_game

pytestmark = pytest.mark.browser

# The visible text of the page, a piece a text node (what the page writes with one _() or
# fmt(), or the fixed words between), and the text of inputs' placeholders.
TEXTS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, noscript, [hidden]")) continue;
    if (parent.checkVisibility && !parent.checkVisibility()) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const field of document.querySelectorAll("[placeholder]")) out.push(field.placeholder);
  return out;
}
"""

PLACEHOLDER = re.compile(r"\{[a-z_]*(?::[^}]*)?\}")


@cache
def english_left(language: str) -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """The catalogue's English sentences that `language` says otherwise: those without a
    placeholder as they are, those with one as a pattern (a placeholder matches anything) when
    they have words of their own around it."""
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "kahuna.mo", "rb") as file:
        catalogue = read_mo(file)
    plain: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for message in catalogue:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for english in ids:
            if english in strings:
                continue  # the same words in both languages
            if not PLACEHOLDER.search(english):
                plain.add(english)
                continue
            literal = PLACEHOLDER.sub("", english)
            if len(re.findall(r"[A-Za-z]{3,}", literal)) < 2:
                continue  # "{seat}: {name}", "{n} pt": no words of its own to be English
            parts = [re.escape(p) for p in PLACEHOLDER.split(english)]
            patterns.append(re.compile("^" + ".+?".join(parts) + "$", re.S))
    return frozenset(plain), tuple(patterns)


# Where a piece of text holds several: the separators the page writes between parts.
SEPARATORS = re.compile(r" · |; | – ")


def english_in(texts: list[str], language: str) -> list[str]:
    plain, patterns = english_left(language)
    found = []
    for text in texts:
        for piece in [text, *SEPARATORS.split(text)]:
            piece = piece.strip().rstrip(":").strip()
            if not piece or piece == "Kahuna":
                continue
            if piece in plain or any(p.match(piece) for p in patterns):
                found.append(piece)
    return sorted(set(found))


@pytest_asyncio.fixture(loop_scope="session")
async def web_server(make_server: ServerFactory) -> KahunaServer:
    return await analysing_server(make_server)


async def places(browser: Browser, server: KahunaServer, language: str) -> dict[str, Page]:
    base = f"http://127.0.0.1:{server.port}"

    async def opened(path: str) -> Page:
        options: dict[str, Any] = {"viewport": DESKTOP, "locale": language}
        context = await browser.new_context(**options)
        page = await context.new_page()
        await page.goto(base + path)
        await expect(page.locator("html")).to_have_attribute("lang", language)
        return page

    found: dict[str, Page] = {}
    found["lobby"] = await lobby_page(opened)
    found["table"] = await table_against_the_computer(opened)
    game, _record = await archived_game(server.port, "Ann", actions=16)
    found["replay"] = await replay_with_analysis(opened, game)
    found["player page"] = await player_page(opened, "Ann", game)
    for place in ("learn", "rules"):
        page = await opened(f"/{place}")
        await expect(page.locator("#main > *:not(.notice)").first).to_be_visible()
        found[place] = page
    return found


@pytest.mark.parametrize("language", ["de", "it"])
async def test_no_english_sentence_is_left(
    browser: Browser, web_server: KahunaServer, language: str
) -> None:
    left = {}
    for name, page in (await places(browser, web_server, language)).items():
        found = english_in(await page.evaluate(TEXTS), language)
        if found:
            left[name] = found
    assert left == {}


def test_the_check_finds_english() -> None:
    """What the check calls English: a sentence of the catalogue, also filled in and among
    other parts; not a name, a number, an island or a word the language keeps."""
    texts = [
        "Back to the lobby",
        "Game over: White wins",
        "Runde 2 von 3 · Your turn",
        "Ann",
        "12",
        "ALOA",
        "Kahuna",
        "Zurück zur Lobby",
    ]
    assert english_in(texts, "de") == ["Back to the lobby", "Game over: White wins", "Your turn"]
