"""The board map at 80x24 and larger: islands, their `4of6` counts and the 27 lines never share
a cell, no line runs beside a count (where `ALOA ···3of5···COCO` read as one line), no line
touches an island it does not end at, and each line runs unbroken from one end to the other."""

from __future__ import annotations

import itertools

import pytest

from client.screens.map_layout import LABEL_H, LABEL_W, line_cells
from client.screens.map_layout import island_cells as labels
from client.screens.render import map_size, render_game
from shared.board import ISLANDS, LINES
from tests.client.test_render import known_state

# (terminal width, height, message lines): the map's size as the game screen makes it
SCREENS = [(80, 24, 1), (80, 24, 2), (80, 24, 3), (100, 30, 1), (120, 40, 1), (160, 48, 1)]
SCREENS += [(160, 48, 3), (200, 60, 1), (81, 25, 1), (90, 27, 2)]


def map_of(width: int, height: int, message: int) -> tuple[int, int]:
    body = height - 2 - 1 - message  # command line and key line; header; the message
    map_w, map_h, _ = map_size(width, body)
    return map_w, map_h


def ring(x: int, y: int) -> set[tuple[int, int]]:
    return {(x + dx, y + dy) for dx in range(-1, LABEL_W + 1) for dy in range(-1, LABEL_H + 1)} - {
        (x + dx, y + dy) for dx in range(LABEL_W) for dy in range(LABEL_H)
    }


@pytest.mark.parametrize(("width", "height", "message"), SCREENS)
def test_islands_counts_and_lines_never_collide(width: int, height: int, message: int) -> None:
    map_w, map_h = map_of(width, height, message)
    tops = labels(map_w, map_h)
    paths = line_cells(map_w, map_h)
    label = {
        (x + dx, y + dy): i
        for i, (x, y) in enumerate(tops)
        for dx in range(LABEL_W)
        for dy in range(LABEL_H)
    }
    beside_count = {c for x, y in tops for c in ((x - 1, y + 1), (x + LABEL_W, y + 1))}
    owner: dict[tuple[int, int], int] = {}
    for k, cells in enumerate(paths):
        a, b = LINES[k]
        name = f"{ISLANDS[a]}-{ISLANDS[b]}"
        assert cells, f"{name} is not drawn"
        for cell in cells:
            x, y = cell
            assert 0 <= x < map_w and 0 <= y < map_h, f"{name} leaves the map"
            assert cell not in label, f"{name} runs through {ISLANDS[label[cell]]}"
            assert cell not in beside_count, f"{name} runs beside a count"
            assert cell not in owner, f"{name} shares {cell} with line {owner[cell]}"
            owner[cell] = k
            for i, (ix, iy) in enumerate(tops):
                if i not in (a, b):
                    assert cell not in ring(ix, iy), f"{name} touches {ISLANDS[i]}"
        for (x0, y0), (x1, y1) in itertools.pairwise(cells):
            assert max(abs(x1 - x0), abs(y1 - y0)) == 1, f"{name} is broken"
        ends = {cells[0], cells[-1]}
        assert any(c in ring(*tops[a]) for c in ends) and any(c in ring(*tops[b]) for c in ends)


def test_the_80x24_map_reads_cleanly() -> None:
    """The capture of the issue: no count sits on a line's row between two line cells."""
    lines = render_game(known_state(), 80, 22).lines()
    for row in lines[1:-2]:
        left = row.split("│")[0]
        for count in ("2of3", "3of4", "3of5", "4of6"):
            at = left.find(count)
            while at >= 0:
                before = left[at - 1] if at else " "
                after = left[at + 4 : at + 6]
                assert before == " " and after.strip() == "", row
                at = left.find(count, at + 1)
