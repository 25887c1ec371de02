"""The table's tests' helpers: a game against the computer started from the page's own
connection (whatever the lobby looks like), and positions reached by play."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

# The create_table the lobby's "Play the computer now" sends (web/new-table.mjs computerGame).
COMPUTER_GAME: dict[str, Any] = {
    "options": {"variant1": False, "variant2": False, "handicap_seat": None, "handicap_bridges": 0},
    "vs_computer": True,
    "seat": "white",
    "first": "white",
    "clock": None,
    "level": "easy",
    "hints": True,
    "rated": False,
}

# A message sent on the page's own connection, once it is open.
SEND = """
async ([type, fields]) => {
  const { app } = await import("/assets/state.mjs");
  await new Promise((ok) => {
    const wait = () => (app.conn && app.conn.ready ? ok() : setTimeout(wait, 20));
    wait();
  });
  app.conn.send(type, fields);
}
"""


async def send(page: Page, kind: str, fields: dict[str, Any]) -> None:
    await page.wait_for_function("() => window.kahuna !== undefined")
    await page.evaluate(SEND, [kind, fields])


async def sit_against_the_computer(page: Page, **changes: Any) -> str:
    """A new table against the computer with the page in White's seat, at its screen with the
    playable lines shown; its id."""
    await send(page, "create_table", {**COMPUTER_GAME, **changes})
    await page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    await page.wait_for_selector(".line.active")
    return table_id


async def my_turn(page: Page, table_id: str, timeout: float = 10000) -> None:
    """Until the page's player is to move, with the seat back and nothing pending."""
    await page.wait_for_function(
        """(id) => { const t = kahuna.tables.get(id);
          return t && t.view && t.status === 'playing' && !t.pending
            && t.view.public.to_move === t.role && document.querySelector('#turn-hint'); }""",
        arg=table_id,
        timeout=timeout,
    )
