"""Where the board map puts each island's label and each line's cells, for a map of any size.

Pure geometry: the labels are laid out like the printed board, and the lines are routed between
them so that no two share a cell (client/screens/board_map.py draws what is on them).
"""

from __future__ import annotations

import functools

from shared.board import ISLANDS, LINES

LABEL_W = 5  # "ELAI" plus the token mark
LABEL_H = 2  # the name, then "4of6"

# Where each island's label goes, as the top-left cell of a 5x2 label on a 49x19 map (the map
# of an 80x24 terminal; larger maps scale it): the printed board's layout (shared/board.py's
# POSITIONS), moved a little so that every line has room of its own between the labels.
LAYOUT: dict[str, tuple[int, int]] = {
    "ALOA": (0, 2), "BARI": (21, 0), "COCO": (42, 2),
    "DUDA": (7, 6), "ELAI": (20, 7), "FAAA": (31, 5), "GOLA": (37, 9),
    "HUNA": (5, 12), "IFFI": (19, 12), "JOJO": (30, 11), "KAHU": (41, 13),
    "LALE": (19, 17),
}  # fmt: skip
LAYOUT_SPAN = (44, 17)  # the largest x and y above
Cell = tuple[int, int]


def _tops(width: int, height: int) -> list[Cell]:
    sx, sy = max(width - LABEL_W, 1), max(height - LABEL_H, 1)
    return [
        (round(LAYOUT[n][0] / LAYOUT_SPAN[0] * sx), round(LAYOUT[n][1] / LAYOUT_SPAN[1] * sy))
        for n in ISLANDS
    ]


def _raster(a: Cell, b: Cell) -> list[Cell]:
    (x0, y0), (x1, y1) = a, b
    n = max(abs(x1 - x0), abs(y1 - y0))
    if n == 0:
        return [a]
    return [(round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n)) for i in range(n + 1)]


def _route(width: int, height: int) -> tuple[int, list[Cell], list[list[Cell]]]:
    """Labels and lines on a map of exactly this size, and how many cells lines share (0 when
    the drawing is clean). Each line is a straight run of cells between two cells next to its
    islands' labels, never in a label, never beside a `4of6` count (where it would read as part
    of the line), never next to another island's label, and chosen among the runs close to the
    line between the islands' centres so that no two lines share a cell: the lines are routed
    together, a shared cell getting dearer each round, until no cell is shared."""
    tops = _tops(width, height)
    blocked: set[Cell] = set()
    for x, y in tops:
        blocked |= {(x + dx, y + dy) for dx in range(LABEL_W) for dy in range(LABEL_H)}
        blocked |= {(x - 1, y + 1), (x + LABEL_W, y + 1)}
    near: dict[Cell, set[int]] = {}
    anchors: list[list[Cell]] = []
    for i, (x, y) in enumerate(tops):
        ring = [(x + dx, y - 1) for dx in range(-1, LABEL_W + 1)]
        ring += [(x + dx, y + LABEL_H) for dx in range(-1, LABEL_W + 1)]
        ring += [(x - 1, y), (x + LABEL_W, y)]
        ring = [c for c in ring if 0 <= c[0] < width and 0 <= c[1] < height and c not in blocked]
        anchors.append(ring)
        for c in ring:
            near.setdefault(c, set()).add(i)
    options: list[list[tuple[float, list[Cell]]]] = []
    for a, b in LINES:
        (ax, ay), (bx, by) = tops[a], tops[b]
        cax, cay, cbx, cby = ax + 2, ay + 0.5, bx + 2, by + 0.5
        vx, vy = cbx - cax, (cby - cay) * 2  # a cell is about twice as high as it is wide
        length = max((vx * vx + vy * vy) ** 0.5, 1.0)
        found: list[tuple[float, list[Cell]]] = []
        for pa in anchors[a]:
            for pb in anchors[b]:
                cells = _raster(pa, pb)
                if any(
                    c in blocked or not near.get(c, set()) <= {a, b} or not 0 <= c[1] < height
                    for c in cells
                ):
                    continue
                off = sum(abs((x - cax) * vy - (y - cay) * 2 * vx) for x, y in cells) / length
                found.append((off / len(cells) + 0.02 * len(cells), cells))
        found.sort(key=lambda f: f[0])
        options.append(found[:40])
    if not all(options):
        return 1, [], [[] for _ in LINES]
    used: dict[Cell, int] = {}
    beside: dict[Cell, int] = {}
    history: dict[Cell, int] = {}

    def mark(cells: list[Cell], d: int) -> None:
        for x, y in cells:
            used[(x, y)] = used.get((x, y), 0) + d
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                beside[n] = beside.get(n, 0) + d

    choice = [0] * len(LINES)
    for k in range(len(LINES)):
        mark(options[k][0][1], 1)
    shared = 0
    for round_ in range(30):
        shared = sum(n - 1 for n in used.values() if n > 1)
        if not shared and round_ > 2:
            break
        for c, n in used.items():
            if n > 1:
                history[c] = history.get(c, 0) + 1
        for k in range(len(LINES)):
            mark(options[k][choice[k]][1], -1)
            best, best_cost = 0, float("inf")
            for i, (cost, cells) in enumerate(options[k]):
                for c in cells:
                    cost += used.get(c, 0) * (5 + 3 * history.get(c, 0)) + 0.3 * beside.get(c, 0)
                if cost < best_cost:
                    best, best_cost = i, cost
            choice[k] = best
            mark(options[k][best][1], 1)
    shared = sum(n - 1 for n in used.values() if n > 1)
    return shared, tops, [options[k][choice[k]][1] for k in range(len(LINES))]


@functools.cache
def map_layout(width: int, height: int) -> tuple[list[Cell], list[list[Cell]]]:
    """(label cells, line cells) for a map of at most this size: the map of this size, or if
    its lines cannot all have cells of their own, of a size a little smaller that can."""
    best: tuple[int, list[Cell], list[list[Cell]]] | None = None
    for dw, dh in ((0, 0), (-1, 0), (0, -1), (-2, 0), (-1, -1), (-3, 0), (0, -2), (-2, -1)):
        shared, tops, lines = _route(width + dw, height + dh)
        if tops and (best is None or shared < best[0]):
            best = (shared, tops, lines)
        if tops and not shared:
            break
    if best is None:  # too small for any drawing: the labels alone
        return _tops(width, height), [[] for _ in LINES]
    return best[1], best[2]


def island_cells(width: int, height: int) -> list[Cell]:
    """The top-left cell of each island's label on a map of this size, laid out like the board."""
    return map_layout(width, height)[0]


def line_cells(width: int, height: int) -> list[list[Cell]]:
    """For each line, the map cells it is drawn on (outside the island labels), in order."""
    return map_layout(width, height)[1]
