"""The board map: islands where they lie on the real board, the lines, bridges and tokens.

Every distinction the colours make is also made by a character or by bold/reverse video, so
that monochrome terminals and NO_COLOR lose nothing:

    ·   a free line            =   White's bridge          #   Black's bridge
    ○   White's token          ●   Black's token           4of6  control needs 4 of 6 lines
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from client.language.i18n import _, pgettext
from client.language.words import seat_name
from client.screens.canvas import Canvas, Fragment
from client.screens.map_layout import island_cells, line_cells
from shared.board import DEGREE, ISLANDS, NEEDED, NUM_LINES
from shared.types import Seat
from shared.views import PublicView

FREE_CHAR = "·"
BRIDGE_CHAR = ("=", "#")  # by seat
TOKEN_CHAR = ("○", "●")  # by seat
SEAT_STYLE = ("class:white", "class:black")
MIN_MAP = (36, 12)  # the smallest map drawn


def render_map(
    public: PublicView | None,
    width: int,
    height: int,
    *,
    hand: Sequence[int] = (),
    highlight: Iterable[int] = (),
    recent: Iterable[int] = (),
) -> Canvas:
    """The board: islands where they lie on the real board, every line free, White's or Black's,
    the tokens, and for each island how many of its lines give control."""
    canvas = Canvas(width, height)
    bridges = (0, 0) if public is None else public.bridges
    tokens = (0, 0) if public is None else public.tokens
    marked = set(highlight)
    fresh = set(recent)
    paths = line_cells(width, height)
    order = sorted(range(NUM_LINES), key=lambda k: (k in marked, _owner(bridges, k) is not None))
    for k in order:
        owner = _owner(bridges, k)
        if owner is None:
            ch, style = FREE_CHAR, "class:free"
        else:
            ch, style = BRIDGE_CHAR[owner], SEAT_STYLE[owner] + " class:bridge"
        if k in fresh:
            style += " class:recent"
        if k in marked:
            style += " class:highlight"
        for x, y in paths[k]:
            canvas.put(x, y, ch, style)
    in_hand = set(hand)
    for island, (x, y) in enumerate(island_cells(width, height)):
        holder = next((s for s in Seat if tokens[s] >> island & 1), None)
        style = "class:island"
        if holder is not None:
            style = SEAT_STYLE[holder] + " class:token"
        if island in in_hand:
            style += " class:incard"
        canvas.put(x, y, ISLANDS[island], style)
        mark = " " if holder is None else TOKEN_CHAR[holder]
        canvas.put(x + 4, y, mark, "" if holder is None else SEAT_STYLE[holder])
        canvas.put(x, y + 1, island_count(NEEDED[island], DEGREE[island]), "class:count")
    return canvas


def island_count(needed: int, lines: int) -> str:
    """The label under an island: how many of its lines win it ("3of5"), in the player's
    language and never wider than an island's name (4 characters), which the map keeps free."""
    label = pgettext("island label, 4 characters at most", "{needed}of{lines}")
    text = label.format(needed=needed, lines=lines)
    return text if len(text) <= 4 else f"{needed}/{lines}"


def _owner(bridges: tuple[int, int], line: int) -> Seat | None:
    for seat in Seat:
        if bridges[seat] >> line & 1:
            return seat
    return None


def map_legend(width: int = 80) -> list[Fragment]:
    """The line under the map: what its characters mean (what fits of it in the width)."""
    legend = _map_legend()
    while sum(len(text) for _style, text in legend) > width and len(legend) > 1:
        legend.pop()  # the least needed last: never a word cut at the map's edge
    return legend


def _map_legend() -> list[Fragment]:
    return [
        ("class:free", FREE_CHAR),
        ("class:dim", _("free") + " "),
        ("class:white class:bridge", BRIDGE_CHAR[0]),
        ("class:dim", seat_name(Seat.WHITE) + " "),
        ("class:black class:bridge", BRIDGE_CHAR[1]),
        ("class:dim", seat_name(Seat.BLACK) + " "),
        ("class:white", TOKEN_CHAR[0]),
        ("class:black", TOKEN_CHAR[1]),
        ("class:dim", _("tokens") + " "),
        ("class:count", island_count(3, 5)),
        ("class:dim", ":" + _("need 3 of 5")),
    ]
