"""The replay at /game/ID: an archived game opened by a stranger's fresh page, stepped through by
the buttons and the keys, the board following the record (the bridges the engine has at that
step), the move list, the analysis under it; and from a player's list of games, with the links
to both players' pages."""

from __future__ import annotations

import random
import re

import pytest
import pytest_asyncio
from playwright.async_api import Page, expect

from protocol.messages import GetRecord, Record, Resign
from protocol.player_messages import LoggedIn, Register
from server.net.app import KahunaServer
from shared.board import line_name
from shared.history import Move
from shared.record import read_record
from tests.conftest import Client, ServerFactory, create_table, play_random
from tests.web.conftest import PHONE, Pages

pytestmark = pytest.mark.browser

PLAYOUTS = 32
SEARCH = 100
KEYS = ("first", "previous", "next", "last")  # the step buttons, #replay-KEY


@pytest_asyncio.fixture(loop_scope="session")
async def web_server(make_server: ServerFactory) -> KahunaServer:
    return await make_server(
        web=True, analysis_playouts=PLAYOUTS, analysis_search=SEARCH, password_cost="test"
    )


async def archived_game(port: int, name: str = "Ann", actions: int = 24) -> tuple[str, str]:
    """A game of an account against the computer, resigned: its id and record."""
    client = await Client.connect(port, f"{name}'s robot")
    await client.send(Register(name, f"{name}'s long password"))
    await client.expect(LoggedIn)
    joined, state = await create_table(client, vs_computer=True)
    await play_random(client, joined.table_id, random.Random(5), state, max_actions=actions)
    await client.send(Resign(joined.table_id))
    await client.send(GetRecord(joined.table_id))
    record = (await client.expect(Record)).text
    await client.close()
    return joined.table_id, record


def bridges_after(record: str, steps: int) -> set[str]:
    """Every line with a bridge after the first `steps` entries of the record's log."""
    parsed = read_record(record)
    game = parsed.start()
    for entry in parsed.log[1 : steps + 1]:
        assert isinstance(entry, Move)
        game.apply(entry.action)
    return {line_name(k) for seat in (0, 1) for k in range(27) if game.bridges[seat] >> k & 1}


async def bridges_shown(page: Page) -> set[str]:
    lines = await page.eval_on_selector_all(
        ".replay-board .line.bridge", "(gs) => gs.map((g) => g.dataset.line)"
    )
    return set(lines)


async def where(page: Page) -> str:
    return await page.inner_text("#replay-where")


async def test_a_stranger_replays_an_archived_game(pages: Pages, web_server: KahunaServer) -> None:
    table_id, record = await archived_game(web_server.port)
    page = await pages.open(f"/game/{table_id}")
    await expect(page.locator(".replay-board svg.board")).to_be_visible(timeout=10_000)
    moves = len([e for e in read_record(record).log if not hasattr(e, "order")])
    # the final position first, the result said
    assert (await where(page)).startswith(f"replay {table_id} · action {moves} of {moves}")
    assert "resigned" in await page.inner_text(".replay-result")
    # the players, from the lobby's list while the finished table is open (the record names
    # no one): Ann's page linked, the computer's level
    await expect(page.locator(".replay-players a[href='/player/Ann']")).to_have_text("Ann")
    await expect(page.locator(".replay-players li.black")).to_have_text("Black: Computer (easy)")
    await expect(page.locator("#replay-next")).to_be_disabled()
    # Home: the deal, no bridge
    await page.keyboard.press("Home")
    assert (await where(page)).startswith(f"replay {table_id} · action 0 of")
    assert await bridges_shown(page) == set()
    await expect(page.locator("#replay-first")).to_be_disabled()
    # → steps one action; the board is the engine's after it, step after step
    for step in range(1, 9):
        await page.keyboard.press("ArrowRight")
        assert (await where(page)).startswith(f"replay {table_id} · action {step} of")
        assert await bridges_shown(page) == bridges_after(record, step), step
    await page.keyboard.press("ArrowLeft")
    assert await bridges_shown(page) == bridges_after(record, 7)
    # the buttons do the same
    await page.click("#replay-previous")
    assert (await where(page)).startswith(f"replay {table_id} · action 6 of")
    await page.click("#replay-last")
    assert (await where(page)).startswith(f"replay {table_id} · action {moves} of")
    # a move of the list goes to the position after it
    await page.click(".replay-moves button[data-step='3']")
    assert await bridges_shown(page) == bridges_after(record, 3)
    assert await page.get_attribute(".replay-moves button[data-step='3']", "aria-current") == "step"
    # the analysis under the replay, its chosen turn following the step
    await page.click("#analyse")
    await expect(page.locator("svg.analysis-chart")).to_be_visible(timeout=30_000)
    await page.click(".replay-moves button[data-step='1']")
    assert (await page.inner_text("#analysis-line")).startswith("turn 1 (")


async def test_the_games_list_opens_the_replay_with_the_players_pages(
    pages: Pages, web_server: KahunaServer
) -> None:
    table_id, _record = await archived_game(web_server.port, "Bea", actions=8)
    page = await pages.open("/player/Bea")
    await page.click(f"a[href='/game/{table_id}']")
    await expect(page.locator(".replay-board svg.board")).to_be_visible(timeout=10_000)
    assert page.url.endswith(f"/game/{table_id}")
    link = page.locator(".replay-players a[href='/player/Bea']")
    await expect(link).to_have_text("Bea")
    # the computer has no page: its level, not a link
    assert await page.locator(".replay-players a").count() == 1
    await expect(page.locator(".replay-players li.black")).to_have_text("Black: Computer (easy)")
    await link.click()
    assert page.url.endswith("/player/Bea")
    await page.go_back()
    await expect(page.locator(".replay-board svg.board")).to_be_visible()
    assert page.url.endswith(f"/game/{table_id}")


async def test_a_game_the_archive_does_not_have_says_so(pages: Pages) -> None:
    page = await pages.open("/game/nosuchgame")
    await expect(page.locator(".replay .notice")).to_have_text(
        "This game is not kept on the server.", timeout=10_000
    )


async def test_the_replay_fits_a_phone(pages: Pages, web_server: KahunaServer) -> None:
    """At 360 px: no sideways scroll, the board as wide as the screen, the step buttons on one
    row and 44 px high."""
    table_id, _record = await archived_game(web_server.port, "Cy", actions=16)
    page = await pages.open(f"/game/{table_id}", viewport=PHONE)
    await expect(page.locator(".replay-board svg.board")).to_be_visible(timeout=10_000)
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    board = await page.locator(".replay-board svg.board").bounding_box()
    assert board is not None and board["width"] >= PHONE["width"] - 40
    boxes = [await page.locator(f"#replay-{key}").bounding_box() for key in KEYS]
    assert all(b is not None and b["height"] >= 44 for b in boxes)
    assert len({round(b["y"]) for b in boxes if b is not None}) == 1


async def test_a_taken_card_is_said_in_the_languages_order(
    pages: Pages, web_server: KahunaServer
) -> None:
    """The move list says a take as the card's other plays are said, a sentence with the card
    where the language puts it: "GOLA nehmen" in German, not "nehmen GOLA"."""
    table_id, record = await archived_game(web_server.port, "Cleo")
    takes = [
        str(e.action).split()[1]
        for e in read_record(record).log
        if isinstance(e, Move) and str(e.action).startswith("take ")
    ]
    assert takes, "this game (seeded) takes face-up cards"
    said = {"en-GB": "Take {}", "de-DE": "{} nehmen", "it-IT": "Prendi {}"}
    for locale, words in said.items():
        page = await pages.open(f"/game/{table_id}", locale=locale)
        await expect(page.locator(".replay-board svg.board")).to_be_visible(timeout=10_000)
        take = re.compile("^" + re.escape(words).replace(r"\{\}", "([A-Z]{4})") + "$")
        texts = await page.locator(".replay-moves button[data-step]").all_inner_texts()
        taken = [found.group(1) for text in texts if (found := take.match(text.strip()))]
        assert taken == takes, locale
