"""axe-core (pinned in package.json, installed by `npm ci`, which `make lint-js` runs before the
tests in `make test`) over the page's places in English and German: the lobby, a table as its
player and as a spectator, a player's page and a finished game's replay; and the pages of the
mails' links. No serious or critical violation on any of them.

axe.min.js is put into each page by Playwright (the page's Content-Security-Policy allows
scripts of its own origin only, so the test's context bypasses it: the page itself is as
served)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from protocol.mail_messages import MailSettings, SetEmail
from server.net.app import KahunaServer
from tests.conftest import Client, ServerFactory, create_table, play_random
from tests.server.smtp import SmtpServer
from tests.server.test_mail_smtp import account, link
from tests.web.conftest import DESKTOP
from tests.web.places import (
    analysing_server,
    lobby_page,
    player_page,
    replay_with_analysis,
    table_against_the_computer,
)
from tests.web.test_replay import archived_game
from tests.web.test_tournament_page import started_tournament

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not AXE.exists(),
        reason="node_modules/axe-core is missing: `npm ci` installs it (make lint-js does)",
    ),
]

SERIOUS = ("serious", "critical")

RUN = """
async () => {
  // besides axe's rules by default, one it counts as experimental: a control's name that is
  // not its visible label (what a voice control user says to click it)
  const rules = { "label-content-name-mismatch": { enabled: true } };
  const result = await axe.run(document, { resultTypes: ["violations"], rules });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 4),
  }));
}
"""


@pytest_asyncio.fixture(loop_scope="session")
async def web_server(make_server: ServerFactory) -> KahunaServer:
    return await analysing_server(make_server)


async def violations(page: Page) -> list[dict[str, Any]]:
    await page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = await page.evaluate(RUN)
    return found


async def places(browser: Browser, server: KahunaServer, locale: str) -> dict[str, Page]:
    """Each place of the page, ready to be checked, in a context of its own."""
    port = server.port
    base = f"http://127.0.0.1:{port}"

    async def opened(path: str) -> Page:
        options: dict[str, Any] = {"viewport": DESKTOP, "locale": locale, "bypass_csp": True}
        context = await browser.new_context(**options)
        page = await context.new_page()
        await page.goto(base + path)
        return page

    found: dict[str, Page] = {}
    found["lobby"] = await lobby_page(opened)
    found["table as player"] = await table_against_the_computer(opened)
    host = await Client.connect(port, "Host")
    joined, state = await create_table(host, vs_computer=True)
    # long enough for the log to scroll
    await play_random(host, joined.table_id, random.Random(4), state, max_actions=60)
    spectator = await opened(f"/table/{joined.table_id}")
    await expect(spectator.locator(".board").first).to_be_visible(timeout=10_000)
    found["table as spectator"] = spectator
    game, _record = await archived_game(port, "Ann", actions=12)
    found["player page"] = await player_page(opened, "Ann", game)
    found["replay"] = await replay_with_analysis(opened, game)
    players, paired = await started_tournament(server, ("Tia", "Udo", "Vic", "Wes"))
    tournament = await opened(f"/tournament/{paired.summary.tournament_id}")
    await expect(tournament.locator("table.standings tbody tr")).to_have_count(4)
    found["tournament"] = tournament
    for client in players.values():
        await client.close()
    await host.close()
    return found


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
async def test_no_serious_violation_on_any_place(
    browser: Browser, web_server: KahunaServer, locale: str
) -> None:
    pages = await places(browser, web_server, locale)
    serious: dict[str, list[dict[str, Any]]] = {}
    counts = {}
    for name, page in pages.items():
        assert await page.evaluate("document.documentElement.lang") == locale[:2]
        found = await violations(page)
        counts[name] = [(v["id"], v["impact"]) for v in found]
        bad = [v for v in found if v["impact"] in SERIOUS]
        if bad:
            serious[name] = bad
    print(f"axe-core, {locale}: the violations of each place: {counts}")
    assert serious == {}
    # the check itself finds what it is to find: a button with no name is a critical violation
    lobby = pages["lobby"]
    await lobby.evaluate("document.body.append(document.createElement('button'))")
    assert "button-name" in {v["id"] for v in await violations(lobby) if v["impact"] in SERIOUS}


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
async def test_no_serious_violation_on_the_pages_of_the_mails_links(
    browser: Browser, make_server: ServerFactory, smtp: SmtpServer, locale: str
) -> None:
    """The pages of server/net/mail_links.py, made by the server rather than the page's
    modules: a link's question with its button, the answer once pressed, a link not good, and
    the reset form."""
    server = await make_server(web=True, password_cost="test", **smtp.settings())
    ann = await account(server, "Ann")
    await ann.send(SetEmail("ann@example.org"))
    await ann.expect(MailSettings)
    (mail,) = await smtp.wait_for(1)
    confirm = link(mail, "/mail/confirm").split(str(server.port), 1)[1]
    options: dict[str, Any] = {"viewport": DESKTOP, "locale": locale, "bypass_csp": True}
    context = await browser.new_context(**options)
    page = await context.new_page()
    counts = {}
    for name, path in (
        ("question", confirm),
        ("answer", None),
        ("not good", "/mail/off?kind=turn&code=wrong"),
        ("reset", "/reset?code=whatever"),
    ):
        if path is None:
            await page.click("main.mail-link form button")
            await page.wait_for_url("**do=1")
        else:
            await page.goto(f"http://127.0.0.1:{server.port}{path}")
        await expect(page.locator("main.mail-link h1")).to_be_visible()
        # (the reset form's words, and its lang, are set by reset.mjs once they load)
        await expect(page.locator("html")).to_have_attribute("lang", locale[:2])
        found = await violations(page)
        counts[name] = [(v["id"], v["impact"]) for v in found]
        assert [v for v in found if v["impact"] in SERIOUS] == [], name
    print(f"axe-core, {locale}: the violations of the mails' links' pages: {counts}")
    await context.close()
    await ann.close()
