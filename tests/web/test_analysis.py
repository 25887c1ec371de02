"""The analysis in the page: a finished game's Analyse, the progress while the server works, the
chart of White's chance with its marks, the turning points, a turn's line chosen by a click and
by the arrow keys, and the table of every turn; from a player's list of games too."""

from __future__ import annotations

import asyncio
import random

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from client.screens.analysis_view import luck_line, luck_words
from protocol.messages import GetRecord, Record, Resign
from protocol.player_messages import LoggedIn, Login
from server.jobs.analysis_jobs import SEED
from server.net.app import KahunaServer
from shared.analysis import LUCK_NOTE, analyse, summaries
from shared.record import read_record
from tests.conftest import Client, ServerFactory, create_table, play_random
from tests.web.conftest import Pages
from tests.web.login_form import register

pytestmark = pytest.mark.browser

PLAYOUTS = 32  # the page is tested here, not the engine's judgement (enough to mark a random play)
SEARCH = 100  # (the search's plan evaluations for a turn's best turn)


@pytest_asyncio.fixture(loop_scope="session")
async def web_server(make_server: ServerFactory) -> KahunaServer:
    return await make_server(
        web=True, analysis_playouts=PLAYOUTS, analysis_search=SEARCH, password_cost="test"
    )


async def resigned_game(client: Client, actions: int = 16) -> tuple[str, str]:
    """A short game against the computer, resigned: its table id and record."""
    joined, state = await create_table(client, vs_computer=True)
    await play_random(client, joined.table_id, random.Random(3), state, max_actions=actions)
    await client.send(Resign(joined.table_id))
    await client.send(GetRecord(joined.table_id))
    return joined.table_id, (await client.expect(Record)).text


async def chosen_turn(page: Page) -> str:
    return await page.inner_text("#analysis-line")


async def test_analyse_a_finished_game_and_read_its_turns(
    pages: Pages, web_server: KahunaServer
) -> None:
    player = await Client.connect(web_server.port, "Pythonista")
    table_id, record = await resigned_game(player)
    direct = analyse(read_record(record), seed=SEED, playouts=PLAYOUTS, search=SEARCH)
    page = await pages.open(f"/table/{table_id}")
    await page.wait_for_selector("#turn:has-text('Game over')")
    await page.click("#analyse")
    chart = page.locator("svg.analysis-chart")
    await expect(chart).to_be_visible(timeout=20_000)
    received: list[str] = await page.evaluate("[...kahuna.received]")
    assert "analysis_progress" in received and received[-1] == "analysis"
    # a mark on every inaccuracy, mistake and blunder (the summary counts all three), with its
    # sign (readable without colour)
    marked = [a.number for a in direct if a.mark in ("inaccuracy", "mistake", "blunder")]
    assert marked, "this game (seeded) has mistakes to show"
    shown = await page.eval_on_selector_all(
        ".analysis-chart .mark", "(gs) => gs.map((g) => [Number(g.dataset.turn), g.textContent])"
    )
    assert [n for n, _sign in shown] == marked
    signs = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    assert [sign for _n, sign in shown] == [signs[str(direct[n - 1].mark)] for n in marked]
    # the legend names every mark the summary may count
    await expect(page.locator(".analysis .legend, .legend").first).to_have_text(
        "?! inaccuracy  ? mistake  ?? blunder"
    )
    # the text alternative: a row a turn
    assert await page.locator(".analysis-turns tbody tr").count() == len(direct)
    # a click on the chart's column of turn 3 shows that turn's line
    await page.click(".analysis-chart .hit[data-turn='3']")
    line = await chosen_turn(page)
    turn = direct[2]
    who = "White" if turn.seat.name == "WHITE" else "Black"
    assert line.startswith(f"turn 3 ({who}, Pythonista)")
    assert f"{round(turn.before * 100)}% → {round(turn.after * 100)}%" in line
    # the arrow keys go on from there, on the focused chart
    assert await page.evaluate("document.activeElement.id") == "analysis-chart"
    await page.keyboard.press("ArrowRight")
    assert (await chosen_turn(page)).startswith("turn 4 (")
    await page.keyboard.press("End")
    assert (await chosen_turn(page)).startswith(f"turn {len(direct)} (")
    assert await chart.get_attribute("aria-valuenow") == str(len(direct))
    # the luck of a turn's card, apart from its cost, in the terminal's words (version 4)
    lucky = [a for a in direct if abs(a.luck) >= LUCK_NOTE]
    assert lucky, "this game (seeded) has a card worth a note"
    await page.click(f".analysis-chart .hit[data-turn='{lucky[0].number}']")
    assert luck_words(lucky[0].luck, lucky[0].actions) in await chosen_turn(page)
    quiet = next(a for a in direct if abs(a.luck) < LUCK_NOTE)
    await page.click(f".analysis-chart .hit[data-turn='{quiet.number}']")
    assert "point of chance" not in await chosen_turn(page)
    assert "points of chance" not in await chosen_turn(page)
    # each player's luck in all, a line each
    luck_lines = await page.locator(".summaries li.luck").all_inner_texts()
    assert luck_lines == [luck_line(s) for s in summaries(direct)]
    # the turning points, as buttons that choose their turn
    points = page.locator(".turning-points button")
    costly = sorted((a for a in direct if a.mark), key=lambda a: -a.cost)[:3]
    assert await points.count() == len(costly) > 0
    await points.first.click()
    first = min(a.number for a in costly)
    assert (await chosen_turn(page)).startswith(f"turn {first} (")
    await player.close()


async def test_analyse_a_finished_table_of_the_lobby(
    pages: Pages, web_server: KahunaServer
) -> None:
    player = await Client.connect(web_server.port, "Pythonista")
    table_id, _record = await resigned_game(player, actions=4)
    page = await pages.open("/")
    row = page.locator(f".table-row[data-table='{table_id}']")
    if not await row.is_visible():  # the finished tables are folded
        await page.click(f"details:has(.table-row[data-table='{table_id}']) > summary")
    await row.locator("button.analyse").click()
    await expect(page.locator("svg.analysis-chart")).to_be_visible(timeout=20_000)
    assert page.url.endswith(f"/table/{table_id}")
    await player.close()


async def test_analyse_from_the_list_of_a_players_games_also_once_closed(
    browser: Browser, make_server: ServerFactory
) -> None:
    """The game's table has closed: the games list's Analyse opens the game's replay from the
    archive (/game/ID), its analysis under it."""
    server = await make_server(
        web=True,
        analysis_playouts=PLAYOUTS,
        analysis_search=SEARCH,
        password_cost="test",
        over_grace=0.1,
    )
    pages = Pages(browser, server.port)
    page = await pages.open("/")
    await register(page, "Ann", "ann's long password")
    player = await Client.connect(server.port, "Ann's robot")
    await player.send(Login("Ann", "ann's long password", None))
    await player.expect(LoggedIn)
    table_id, _record = await resigned_game(player, actions=6)
    await player.close()
    for _ in range(200):  # the finished table closes once nobody is left at it
        if table_id not in server.lobby.tables:
            break
        await asyncio.sleep(0.05)
    assert table_id not in server.lobby.tables
    await page.click("#my-games")  # the player's page, /player/Ann, with the games
    await page.click(f"a[href='/game/{table_id}']")
    await page.click("#analyse")
    await expect(page.locator("svg.analysis-chart")).to_be_visible(timeout=20_000)
    assert page.url.endswith(f"/game/{table_id}")  # the archived game's replay, analysed
    assert await page.locator(".replay-board svg.board").count() == 1
    assert await page.locator(".analysis-turns tbody tr").count() > 0
    assert pages.errors == []


# The box a lobby's card (.part) has: border, background, corners.
BOXED = """
() => [...document.querySelectorAll("#analysis-line > span")].map((s) => {
  const style = getComputedStyle(s);
  return { width: style.borderTopWidth, background: style.backgroundColor,
           radius: style.borderRadius };
})
"""


async def test_the_chosen_turn_is_lines_of_text_not_cards(
    pages: Pages, web_server: KahunaServer
) -> None:
    """The turn's line is a few lines in one box: no piece of it drawn as a lobby's card (its
    pieces were once class "part", which lobby.css boxes, border, white and rounded)."""
    player = await Client.connect(web_server.port, "Pythonista")
    table_id, _record = await resigned_game(player)
    page = await pages.open(f"/table/{table_id}")
    await page.click("#analyse")
    await expect(page.locator("svg.analysis-chart")).to_be_visible(timeout=20_000)
    await page.click(".analysis-chart .hit[data-turn='3']")
    pieces = await page.evaluate(BOXED)
    assert len(pieces) >= 3  # the head, what was played, the chance
    plain = {"width": "0px", "background": "rgba(0, 0, 0, 0)", "radius": "0px"}
    assert pieces == [plain] * len(pieces)
    await player.close()


async def test_the_average_cost_has_the_languages_decimal_sign(
    pages: Pages, web_server: KahunaServer
) -> None:
    """German and Italian write 5,5 where English writes 5.5."""
    player = await Client.connect(web_server.port, "Pythonista")
    table_id, record = await resigned_game(player)
    direct = analyse(read_record(record), seed=SEED, playouts=PLAYOUTS, search=SEARCH)
    costs = [f"{s.average_cost * 100:.1f}".replace(".", ",") for s in summaries(direct)]
    for locale, words in (("de-DE", "im Mittel {} Punkte"), ("it-IT", "in media {} punti")):
        page = await pages.open(f"/table/{table_id}", locale=locale)
        await page.click("#analyse")
        await expect(page.locator("svg.analysis-chart")).to_be_visible(timeout=20_000)
        lines = await page.locator(".summaries li:not(.luck)").all_inner_texts()
        assert len(lines) == len(costs) == 2
        for line, cost in zip(lines, costs, strict=True):
            assert words.format(cost) in line, line
    await player.close()
