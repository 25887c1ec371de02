"""A grid of styled characters, and the text layout the screens share.

Every screen is drawn on a Canvas of exactly the terminal's size, so the layout is decided by
the drawing modules (and tested there) rather than by the terminal library. Styles are class
names ("class:white"); client/screens/themes.py maps them to colours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

Fragment = tuple[str, str]


class Canvas:
    """A grid of styled characters, turned into prompt-toolkit fragments line by line."""

    def __init__(self, width: int, height: int, style: str = "") -> None:
        self.width, self.height = max(width, 0), max(height, 0)
        self.cells: list[list[tuple[str, str]]] = [
            [(style, " ")] * self.width for _ in range(self.height)
        ]

    def put(self, x: int, y: int, text: str, style: str = "") -> int:
        """Write text from (x, y), clipped to the canvas; returns the column after it."""
        if not 0 <= y < self.height:
            return x + len(text)
        row = self.cells[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                row[x + i] = (style, ch)
        return x + len(text)

    def put_fragments(self, x: int, y: int, fragments: Iterable[Fragment]) -> int:
        for style, text in fragments:
            x = self.put(x, y, text, style)
        return x

    def blit(self, x: int, y: int, other: Canvas) -> None:
        for dy, row in enumerate(other.cells):
            if 0 <= y + dy < self.height:
                for dx, cell in enumerate(row):
                    if 0 <= x + dx < self.width:
                        self.cells[y + dy][x + dx] = cell

    def char(self, x: int, y: int) -> str:
        return self.cells[y][x][1]

    def style(self, x: int, y: int) -> str:
        return self.cells[y][x][0]

    def lines(self) -> list[str]:
        return ["".join(ch for _, ch in row) for row in self.cells]

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines())

    def row(self, y: int) -> list[Fragment]:
        """Row y as fragments, neighbouring cells of one style joined."""
        out: list[Fragment] = []
        style, run = "", list[str]()
        for cell_style, ch in self.cells[y]:
            if cell_style != style and run:
                out.append((style, "".join(run)))
                run = []
            style = cell_style
            run.append(ch)
        if run:
            out.append((style, "".join(run)))
        return out

    def fragments(self) -> list[Fragment]:
        out: list[Fragment] = []
        for y in range(self.height):
            if y:
                out.append(("", "\n"))
            out.extend(self.row(y))
        return out


def put_clipped(canvas: Canvas, x: int, y: int, row: Sequence[Fragment], width: int) -> None:
    used = 0
    for style, text in row:
        if used >= width:
            break
        piece = text[: width - used]
        canvas.put(x + used, y, piece, style)
        used += len(piece)


def wrap_fragments(row: Sequence[Fragment], width: int) -> list[list[Fragment]]:
    """A row of styled text wrapped at spaces onto lines of at most `width` (the lines after
    the first indented by two), so that no word is cut; a word longer than a line is cut."""
    if sum(len(text) for _style, text in row) <= width:
        return [list(row)]
    words: list[list[Fragment]] = [[]]  # each word with its styles, and the spaces before it
    for style, text in row:
        if text.startswith(" (") and text.endswith(")"):  # "(3 down)" stays together
            words += [[(style, text[1:])]]
            continue
        for i, piece in enumerate(text.split(" ")):
            if i:
                words.append([])
            if piece:
                words[-1].append((style, piece))
    lines: list[list[Fragment]] = [[]]
    used = 0
    for word in words:
        size = sum(len(text) for _style, text in word)
        if not size:
            continue
        if used and used + 1 + size > width:
            lines.append([("", " ")])
            used = 1
        elif used:
            lines[-1].append(("", " "))
            used += 1
        lines[-1].extend(word)
        used += size
    return lines


def fit_keys(line: str, width: int) -> str:
    """A key line cut to the width by whole items (items are apart by two spaces or more),
    dropping from the middle: the first (the screen's own keys) and the last two (help and
    quit) stay, where the rest is found."""
    if len(line) <= width:
        return line
    lead = line[: len(line) - len(line.lstrip())]
    items = [item.strip() for item in re.split(r" {2,}", line.strip()) if item.strip()]
    gap = "   " if "   " in line else "  "
    while len(items) > 3 and len(lead + gap.join(items)) > width:
        del items[-3]
    return (lead + gap.join(items))[:width]
