"""The game screen, drawn as styled text: state and a size in, a canvas out. Pure.

The screen is the header, the board map (client/screens/board_map.py) with the side panel and the
log beside it (client/screens/side_panel.py), or the help in their place
(client/screens/help_screen.py), and the message at the bottom. The lobby is
client/screens/lobby_screen.py.
"""

from __future__ import annotations

from collections.abc import Iterable

from client.language.i18n import N_, _
from client.model.state import ClientState
from client.screens.board_map import MIN_MAP, map_legend, render_map
from client.screens.canvas import Canvas
from client.screens.help_screen import help_pages, render_help
from client.screens.map_layout import LABEL_W, line_cells
from client.screens.side_panel import render_side
from client.screens.status_lines import header, message_lines

KEY_HINTS = N_("F1 help  F2 draw  F3-F5 take 1-3  F6 abstain  F7 end  F8 undo  Tab  ^Q quit")


def map_size(width: int, height: int) -> tuple[int, int, int]:
    """(map width, map height, side panel width) for a game screen body of this size."""
    side = max(30, min(50, round(width * 0.38)))
    map_w = max(width - side - 1, 0)
    map_h = max(height - 1, 0)  # a legend under the map
    map_w = min(map_w, int(map_h * 3.4) + LABEL_W)
    side = width - map_w - 1
    return map_w, map_h, side


def render_game(
    state: ClientState,
    width: int,
    height: int,
    highlight: Iterable[int] = (),
    preview: tuple[str, str] | None = None,
) -> Canvas:
    """The game screen above the command line: header, map, side panel and log, and the
    message (or `preview`, (style, text): what Enter would do with the line being typed),
    wrapped onto as many lines as it needs at the bottom."""
    canvas = Canvas(width, height)
    if height < 3:
        return canvas
    canvas.blit(0, 0, header(state, width))
    if preview is not None:
        style, text = preview
    else:
        text = state.message
        style = {
            "error": "class:msg.error",
            "you": "class:msg.you",
        }.get(state.message_kind, "class:msg")
    lines = message_lines(text, width)[: max(height - 2, 1)]
    body_h = height - 1 - len(lines)
    if state.help_open:
        # the page asked for, kept in range (the number of pages depends on the height)
        state.help_page = min(state.help_page, len(help_pages(body_h, width)) - 1)
        canvas.blit(0, 1, render_help(width, body_h, state.help_page))
    else:
        # the terminal's own height: this canvas, the command line and the key line
        canvas.blit(0, 1, render_body(state, width, body_h, highlight, height + 2))
    for i, line in enumerate(lines):
        canvas.put(0, height - len(lines) + i, line, style)
    return canvas


def render_body(
    state: ClientState,
    width: int,
    height: int,
    highlight: Iterable[int],
    screen_height: int | None = None,
) -> Canvas:
    """`screen_height`: the terminal's, as a refusal to draw says it (default: this body's
    with the header, one message line, the command line and the key line)."""
    canvas = Canvas(width, height)
    map_w, map_h, side_w = map_size(width, height)
    small = map_w < MIN_MAP[0] or map_h < MIN_MAP[1]
    # a map whose lines cannot all be routed draws the islands alone: not a board to play on
    if small or not any(line_cells(map_w, map_h)):
        terminal = f"{width}x{screen_height or height + 4}"
        too_small = _("The terminal is too small ({size});").format(size=terminal)
        canvas.put(0, 0, too_small, "class:msg.error")
        canvas.put(0, 1, _("Kahuna needs at least 80x24."), "class:msg.error")
        return canvas
    hand = state.seat_view.hand if state.seat_view is not None else ()
    canvas.blit(
        0,
        0,
        render_map(
            state.public,
            map_w,
            map_h,
            hand=hand,
            highlight=highlight,
            recent=state.recent_lines,
        ),
    )
    canvas.put_fragments(0, map_h, map_legend(map_w))
    for y in range(height):
        canvas.put(map_w, y, "│", "class:frame")
    canvas.blit(map_w + 1, 0, render_side(state, side_w, height))
    return canvas
