"""A page watching a game that a Python client plays: every move shows within a second, the
log in words, and the page never holds a hidden card."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.async_api import expect

from protocol.codec import decode_server
from protocol.messages import Command, Resign, Spectate, State, Update
from server.net.app import KahunaServer
from shared.legality import legal_actions
from shared.views import seat_view_from_dict
from tests.conftest import Client, create_table
from tests.web.conftest import Pages
from tests.web.play import table_state

pytestmark = pytest.mark.browser

ACTIONS = 40  # the client's own; the computer's come between them


async def test_a_watching_page_sees_every_move_within_a_second(
    pages: Pages, web_server: KahunaServer
) -> None:
    player = await Client.connect(web_server.port, "Pythonista")
    joined, state = await create_table(player, vs_computer=True)
    table_id = joined.table_id
    page = await pages.open(f"/table/{table_id}")
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.view; }", arg=table_id
    )
    found = await table_state(page, table_id)
    assert found is not None and found["role"] == "spectator"
    rng = random.Random(11)
    version, view = state.version, seat_view_from_dict(state.view)
    drawn_by_player: list[str] = []
    acted = 0
    while acted < ACTIONS and view.public.result is None:
        ctx = view.turn_context()
        if ctx is not None:
            action = rng.choice(legal_actions(ctx))
            await player.send(Command(table_id, version, str(action)))
            acted += 1
        update = await player.expect(Update)
        version, view = update.version, seat_view_from_dict(update.view)
        drawn_by_player += [
            e["card"] for e in update.events if e["type"] == "CardDrawn" and e["card"]
        ]
        # the page has this move within a second of the player's client
        await page.wait_for_function(
            "([id, v]) => { const t = kahuna.tables.get(id); return t && t.version >= v; }",
            arg=[table_id, version],
            timeout=1000,
        )
    await player.send(Resign(table_id))
    version = (await player.expect(Update)).version
    await page.wait_for_selector("#turn:has-text('Game over')", timeout=1000)
    assert drawn_by_player, "the player drew from the pile: a card the page must not see"
    log = await page.locator(".log li").all_text_contents()
    assert len(log) == version  # one line for each action, in words
    assert "Black resigned" in log[-1] or "White resigned" in log[-1]
    # the page shows no hand, and holds none
    assert await page.locator(".hand").count() == 0
    held = await page.evaluate("(id) => JSON.stringify(kahuna.tables.get(id).view)", table_id)
    assert '"hand"' not in held
    assert_no_hidden_card(pages.frames[page])
    await player.close()


def assert_no_hidden_card(frames: list[bytes]) -> None:
    """What the page received, frame by frame: public views only, every drawn card and every
    face-down discard blanked."""
    messages = [decode_server(frame) for frame in frames]
    views: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, State):
            assert message.role == "spectator"
            views.append(message.view)
        elif isinstance(message, Update):
            views.append(message.view)
            events += message.events
    assert views and events
    for view in views:
        assert "hand" not in view and "seat" not in view and "pile" not in view
    for event in events:
        if event["type"] == "CardDrawn":
            assert event["card"] is None
        if event["type"] == "CardDiscarded" and not event["open"]:
            assert event["card"] is None
        if event["type"] == "PlayUndone" and not event["open"]:
            assert event["action"] is None or not event["action"].startswith("discard")


async def test_the_page_says_who_watches(pages: Pages, web_server: KahunaServer) -> None:
    """Protocol version 3's watchers, on the page too: a second spectator comes and goes."""
    player = await Client.connect(web_server.port, "Pythonista")
    joined, _state = await create_table(player, vs_computer=True)
    page = await pages.open(f"/table/{joined.table_id}")
    await page.wait_for_function(
        "(id) => { const t = kahuna.tables.get(id); return t && t.view; }", arg=joined.table_id
    )
    watcher = await Client.connect(web_server.port, "Cy")
    await watcher.send(Spectate(joined.table_id))
    await page.wait_for_selector("#watchers:has-text('Cy')", timeout=2000)
    text = await page.inner_text("#watchers")
    assert text.startswith("watched by") and "Cy" in text
    await watcher.close()
    await page.wait_for_function(
        "() => !document.querySelector('#watchers') ||"
        " !document.querySelector('#watchers').textContent.includes('Cy')",
        timeout=2000,
    )
    await player.close()


async def test_the_lobby_says_a_game_to_watch_is_being_played(
    pages: Pages, web_server: KahunaServer
) -> None:
    """A game under way is "playing" in the lobby's list (läuft, in gioco), not the bare "play"
    (Spiel, gioco) that names the game's phase."""
    player = await Client.connect(web_server.port, "Pythonista")
    joined, _state = await create_table(player, vs_computer=True)
    said = {"en-GB": "playing", "de-DE": "läuft", "it-IT": "in gioco"}
    for locale, playing in said.items():
        page = await pages.open("/", locale=locale)
        row = page.locator(f".table-row[data-table='{joined.table_id}'] .what")
        await expect(row).to_have_text(re.compile(f"^{playing} · "), timeout=5000)
    await player.close()
