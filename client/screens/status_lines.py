"""The lines above and below a screen's body: the header (where the player is, as whom, and the
connection) and the message, wrapped."""

from __future__ import annotations

import textwrap

from client.language.i18n import _
from client.language.words import seat_name
from client.model.state import ClientState
from client.screens.canvas import Canvas


def header(state: ClientState, width: int) -> Canvas:
    canvas = Canvas(width, 1, "class:header")
    where = _("lobby") if state.table_id is None else _("table {id}").format(id=state.table_id)
    you = state.name
    rating = state.accounts.rating if state.accounts.account == state.name else None
    if rating is not None:
        you += f" ({rating})"
    if state.role == "spectator":
        you += " " + _("(watching)")
    elif state.seat is not None:
        you = _("{name} as {seat}").format(name=you, seat=seat_name(state.seat))
    x = canvas.put(0, 0, " KAHUNA ", "class:header class:brand")
    x = canvas.put(x, 0, f" {where} · {you}", "class:header")
    if state.server and state.table_id is None:  # the server's --name, in the lobby
        conn_width = len(state.connection) + 3
        room = width - x - conn_width - 3
        if room > 4:
            name = state.server if len(state.server) <= room else state.server[: room - 1] + "…"
            canvas.put(x, 0, f" · {name}", "class:header")
    conn = f"{'●' if state.connected else '○'} {state.connection} "
    style = "class:header class:conn.ok" if state.connected else "class:header class:conn.bad"
    canvas.put(max(width - len(conn), 0), 0, conn, style)
    return canvas


MESSAGE_LINES = 3  # a long message is wrapped onto up to this many lines


def message_lines(text: str, width: int) -> list[str]:
    """A message wrapped to the width, on up to MESSAGE_LINES lines (the last one cut)."""
    # a line (BARI-COCO) or a path (/home/ann/kahuna-1f2e.kahuna) is not broken at a hyphen
    lines = textwrap.wrap(text, max(width, 10), subsequent_indent="  ", break_on_hyphens=False)
    lines = lines or [""]
    if len(lines) > MESSAGE_LINES:
        lines = lines[:MESSAGE_LINES]
        lines[-1] = lines[-1][: max(width - 3, 0)] + "..."
    return [line[:width] for line in lines]
