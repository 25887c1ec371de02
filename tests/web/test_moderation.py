"""Moderation in the page, against the real server: a player reports another from the lobby's
chat (the flag beside the name) and from the player's page; a moderator sees the report with
its chat in the lobby's Moderation part, closes it with a note and mutes the player from the
panel's form, and the muted player's socket is told; ends a tournament and gives another one a
new director from the same form, the tournaments offered by name; axe-core finds no serious
violation with the report form and the panel open, in English and German."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from protocol.messages import Error
from protocol.moderation_messages import OPERATOR, ModerationNote
from protocol.player_messages import LobbyChat, LobbyChatMessage, LoggedIn, PlayerNote, Register
from protocol.tournament_messages import (
    CreateTournament,
    JoinTournament,
    TournamentState,
    TournamentTerms,
)
from server.core.store import ModerationLogOp
from server.storage.storage_open import open_storage
from tests.conftest import Client, ServerFactory
from tests.server.moderation_setup import moderators_db, neighbour
from tests.web.conftest import DESKTOP, Pages, accounts_site
from tests.web.login_form import register
from tests.web.test_axe import AXE, SERIOUS, violations

pytestmark = pytest.mark.browser


async def server_with_moderator(
    browser: Browser, tmp_path: Path, make_server: ServerFactory
) -> tuple[int, Pages]:
    """A server with the page whose moderator is Mira (once registered), and pages of it."""
    db = moderators_db(tmp_path, "Mira")
    storage = open_storage(db)  # the grant in the log, as `kahuna-server accounts moderator` does
    storage.write([ModerationLogOp(1.0, OPERATOR, "moderator", "Mira", "")])
    storage.close()
    server, pages = await accounts_site(browser, make_server, db=db)
    return server.port, pages


async def spammer(port: int) -> Client:
    bob = await Client.connect(port, "Bob")
    await bob.send(Register("Bob", "bob's long password"))
    await bob.expect(LoggedIn)
    await bob.send(LobbyChat("buy cheap gold at example.com"))
    await bob.expect(LobbyChatMessage)
    return bob


async def report_from_the_chat(ann: Page, reason: str) -> None:
    line = ann.locator(".lobby-chat .lines li", has_text="buy cheap gold")
    await line.get_by_role("button", name="Report Bob").click()
    form = ann.locator("form.report")
    await expect(form.locator("input[name=reason]")).to_be_focused()
    await form.locator("input[name=reason]").fill(reason)
    await form.get_by_role("button", name="Send the report").click()
    await expect(ann.locator(".notice")).to_have_text(
        "Your report is with the moderators. Thank you.", timeout=5000
    )
    await expect(ann.locator("form.report")).to_have_count(0)


async def moderate(panel: Locator, action: str, target: str, seconds: str, reason: str) -> None:
    """The moderator's action, chosen and sent with the panel's form."""
    form = panel.locator("form.moderate")
    await form.locator("select[name=action]").select_option(action)
    await form.locator("input[name=target]").fill(target)
    await form.locator("select[name=seconds]").select_option(seconds)
    await form.locator("input[name=reason]").fill(reason)
    await form.get_by_role("button", name="Do it").click()


async def test_a_report_from_the_chat_closed_and_a_mute_from_the_panel(
    browser: Browser, make_server: ServerFactory, tmp_path: Path
) -> None:
    port, pages = await server_with_moderator(browser, tmp_path, make_server)
    bob = await spammer(port)
    ann = await pages.open("/")
    mira = await pages.open("/")
    await register(ann, "Ann", "ann's long password")
    await register(mira, "Mira", "mira's long password")
    # a player sees no panel, and no flag beside their own lines
    await expect(ann.locator("section.moderation")).to_have_count(0)
    await expect(mira.locator("section.moderation")).to_be_visible()
    await report_from_the_chat(ann, "spam in the lobby")
    panel = mira.locator("section.moderation")
    report = panel.locator(".report-item")
    await expect(report).to_contain_text("#1 Bob", timeout=5000)
    await expect(report).to_contain_text("reported by Ann")
    await expect(report.locator(".report-chat li.reported")).to_contain_text(
        "buy cheap gold at example.com"
    )
    await report.locator("input[name=note]").fill("muted for an hour")
    await report.get_by_role("button", name="Close report 1").click()
    await expect(panel.locator(".report-item")).to_have_count(0, timeout=5000)
    await expect(panel).to_contain_text("No open reports.")
    await moderate(panel, "mute", "Bob", "3600", "spam in the lobby")
    note = await bob.expect(ModerationNote)
    assert note.note == "muted" and note.reason == "spam in the lobby"
    await expect(panel.locator(".in-force")).to_contain_text("Bob", timeout=5000)
    await panel.locator("details summary").click()
    log = panel.locator(".moderation-log")
    await expect(log.locator("li").first).to_contain_text("Mira muted Bob")
    await expect(log).to_contain_text("Mira closed report 1")
    # the operator's grant: said as a role, not as a player's name
    await expect(log.locator("li").last).to_contain_text("the operator made Mira a moderator")
    await bob.close()
    assert pages.errors == []


async def test_a_ban_by_player_names_the_player_and_never_the_address(
    browser: Browser, make_server: ServerFactory, tmp_path: Path
) -> None:
    port, pages = await server_with_moderator(browser, tmp_path, make_server)
    dan, _refused = await neighbour(port)  # on 127.0.0.2, beside the page's 127.0.0.1
    assert dan is not None
    await dan.send(Register("Dan", "dan's long password"))
    await dan.expect(LoggedIn)
    mira = await pages.open("/")
    await register(mira, "Mira", "mira's long password")
    panel = mira.locator("section.moderation")
    await moderate(panel, "ban_player", "Dan", "86400", "a flood of accounts")
    error = await dan.expect(Error)
    assert error.code == "address_banned"
    await expect(panel.locator(".in-force")).to_contain_text("the addresses of Dan", timeout=5000)
    await expect(mira.locator(".notice")).to_contain_text(
        "Done, and in the log: Mira banned the addresses of Dan."
    )
    await panel.locator("details summary").click()
    await expect(panel.locator(".moderation-log li").first).to_contain_text(
        "Mira banned the addresses of Dan"
    )
    assert "127.0.0.2" not in await mira.content()
    assert pages.errors == []


async def tournament_note(client: Client, name: str) -> PlayerNote:
    while True:
        note = await client.expect(PlayerNote)
        if note.note == name:
            return note


async def test_a_tournament_ended_and_another_handed_on_from_the_panel(
    browser: Browser, make_server: ServerFactory, tmp_path: Path
) -> None:
    port, pages = await server_with_moderator(browser, tmp_path, make_server)
    bob = await spammer(port)
    await bob.send(CreateTournament(TournamentTerms("Buy cheap gold", "swiss", 2)))
    spam = (await bob.expect(TournamentState)).summary.tournament_id
    await bob.send(JoinTournament(spam))
    await bob.send(CreateTournament(TournamentTerms("Club night", "swiss", 3)))
    club = ""
    while not club:
        state = await bob.expect(TournamentState)
        club = state.summary.tournament_id if state.summary.name == "Club night" else ""
    cid = await Client.connect(port, "Cid")
    await cid.send(Register("Cid", "cid's long password"))
    await cid.expect(LoggedIn)
    mira = await pages.open("/")
    await register(mira, "Mira", "mira's long password")
    panel = mira.locator("section.moderation")
    form = panel.locator("form.moderate")
    # the tournaments not over are offered by name for the target's field (their ids unseen)
    offered = form.locator("datalist#moderation-tournaments option")
    await expect(offered).to_have_count(2, timeout=5000)
    labels = {
        await o.get_attribute("value"): await o.get_attribute("label") for o in await offered.all()
    }
    assert labels == {spam: "Tournament: Buy cheap gold", club: "Tournament: Club night"}
    await form.locator("select[name=action]").select_option("close_tournament")
    await form.locator("input[name=target]").fill(spam)
    await form.locator("input[name=reason]").fill("spam in a tournament's name")
    await form.get_by_role("button", name="Do it").click()
    assert (await tournament_note(bob, "tournament_closed")).name == "Buy cheap gold"
    await expect(mira.locator(".notice")).to_contain_text(
        f"Done, and in the log: Mira ended the tournament {spam}.", timeout=5000
    )
    await form.locator("select[name=action]").select_option("hand_tournament")
    await form.locator("input[name=target]").fill(club)
    await form.locator("input[name=name]").fill("Cid")
    await form.locator("input[name=reason]").fill("Bob is away")
    await form.get_by_role("button", name="Do it").click()
    assert (await tournament_note(cid, "tournament_director")).name == "Club night"
    await panel.locator("details summary").click()
    await expect(panel.locator(".moderation-log li").first).to_contain_text(
        f"Mira gave the tournament {club} to Cid to direct", timeout=5000
    )
    await expect(offered).to_have_count(1)  # the one ended is offered no more
    # the same again: refused, said in words
    await form.locator("select[name=action]").select_option("close_tournament")
    await form.locator("input[name=target]").fill(spam)
    await form.locator("input[name=reason]").fill("twice")
    await form.get_by_role("button", name="Do it").click()
    await expect(mira.locator(".notice")).to_have_text(
        "that tournament is over already", timeout=5000
    )
    # its page: ended by a moderator, no winner
    await mira.goto(f"http://127.0.0.1:{port}/tournament/{spam}")
    await expect(mira.locator(".tournament-head .terms")).to_contain_text(
        "ended by a moderator", timeout=5000
    )
    await expect(mira.locator("#tournament-winner")).to_have_count(0)
    await mira.goto(f"http://127.0.0.1:{port}/tournament/{club}")
    await expect(mira.locator(".tournament-head .terms")).to_contain_text("Cid", timeout=5000)
    for client in (bob, cid):
        await client.close()
    assert pages.errors == []


async def test_a_report_from_the_players_page(
    browser: Browser, make_server: ServerFactory, tmp_path: Path
) -> None:
    port, pages = await server_with_moderator(browser, tmp_path, make_server)
    bob = await spammer(port)
    ann = await pages.open("/")
    await register(ann, "Ann", "ann's long password")
    await ann.locator(".lobby-chat .lines a.sender", has_text="Bob").first.click()
    await ann.wait_for_url("**/player/Bob")
    await ann.get_by_role("button", name="Report Bob").click()
    form = ann.locator("form.report")
    await form.locator("input[name=reason]").fill("a rude name")
    await form.get_by_role("button", name="Send the report").click()
    await expect(ann.locator(".notice")).to_contain_text("Your report is with the moderators")
    await ann.get_by_role("button", name="Report Bob").click()
    await ann.locator("form.report input[name=reason]").fill("again")
    await ann.locator("form.report").get_by_role("button", name="Send the report").click()
    await expect(ann.locator(".notice")).to_have_text(
        "your report of that player is open already", timeout=5000
    )
    await bob.close()
    assert pages.errors == []


@pytest.mark.skipif(not AXE.exists(), reason="node_modules/axe-core is missing: `npm ci`")
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
async def test_no_serious_violation_with_the_form_and_the_panel_open(
    browser: Browser, make_server: ServerFactory, tmp_path: Path, locale: str
) -> None:
    port, _pages = await server_with_moderator(browser, tmp_path, make_server)
    bob = await spammer(port)
    opened: list[Page] = []
    for name in ("Ann", "Mira"):
        options: dict[str, Any] = {"viewport": DESKTOP, "locale": locale, "bypass_csp": True}
        context = await browser.new_context(**options)
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{port}/")
        form = page.locator("form.login")
        await form.locator("input[name=name]").fill(name)
        await form.locator("input[name=password]").fill(f"{name}'s long password")
        await form.locator("button[value=register]").click()
        await expect(page.locator(".account")).to_be_visible(timeout=10_000)
        opened.append(page)
    ann, mira = opened
    await ann.locator(".lobby-chat .lines li button.report-player").first.click()
    await ann.locator("form.report input[name=reason]").fill("spam")
    await ann.locator("form.report button.primary").click()
    await ann.locator(".lobby-chat .lines li button.report-player").first.click()  # open again
    await expect(mira.locator("section.moderation .report-item")).to_have_count(1, timeout=5000)
    for page in (ann, mira):
        assert await page.evaluate("document.documentElement.lang") == locale[:2]
        found = await violations(page)
        assert [v for v in found if v["impact"] in SERIOUS] == [], found
    await bob.close()
