"""Drawing the screens as styled text. Pure: state and a size in, lines of fragments out.

Every screen is drawn on a Canvas of exactly the terminal's size, so the layout is decided here
(and tested here) rather than by the terminal library. Styles are class names ("class:white");
client/app.py maps them to colours, and every distinction the colours make is also made by a
character or by bold/reverse video, so that monochrome terminals and NO_COLOR lose nothing:

    ·   a free line            =   White's bridge          #   Black's bridge
    ○   White's token          ●   Black's token           4of6  control needs 4 of 6 lines
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Iterable, Sequence

from client.i18n import N_, _, ngettext
from client.state import ClientState, LogLine
from client.table import LOW_TIME, describe_control, format_clock, short_control
from client.words import ending_words as _ending_words
from client.words import first_word, level_word, seat_name, status_word
from protocol.messages import PlayerInfo, TableInfo, TableOptions, TimeControl
from shared.board import (
    BRIDGES_PER_PLAYER,
    DEGREE,
    ISLANDS,
    LINES,
    NEEDED,
    NUM_LINES,
)
from shared.results import Result
from shared.types import Phase, Seat, Termination
from shared.views import PublicView

Fragment = tuple[str, str]

FREE_CHAR = "·"
BRIDGE_CHAR = ("=", "#")  # by seat
TOKEN_CHAR = ("○", "●")  # by seat
SEAT_STYLE = ("class:white", "class:black")
LABEL_W = 5  # "ELAI" plus the token mark
LABEL_H = 2  # the name, then "4of6"
MIN_MAP = (36, 12)

KEY_HINTS = N_("F1 help  F2 draw  F3-F5 take 1-3  F6 abstain  F7 end  F8 undo  Tab  ^Q quit")


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


# ----- the board map --------------------------------------------------------------------------


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
        canvas.put(x, y + 1, f"{NEEDED[island]}of{DEGREE[island]}", "class:count")
    return canvas


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
        ("class:count", "3of5"),
        ("class:dim", ":" + _("need 3 of 5")),
    ]


# ----- the side panel ---------------------------------------------------------------------------


def _cards(cards: Iterable[int]) -> str:
    return " ".join(ISLANDS[c] for c in sorted(cards)) or _("none")


def _player_line(state: ClientState, pub: PublicView, seat: Seat, width: int) -> list[Fragment]:
    name = state.player_name(seat)
    info = None if state.players is None else state.players.get(seat)
    if state.seat is seat:
        name += " " + _("(you)")
    if info is not None and info.computer:
        name += " [AI]"  # its level is on the line of the options
    if info is not None and not info.connected and not info.computer:
        name += " " + _("(away)")
    points = _("{n} pt").format(n=pub.scores[seat])
    to_move = pub.to_move is seat and pub.result is None
    room = max(width - 2 - len(seat_name(seat)) - 1 - len(points) - 3, 4)
    if len(name) > room and name.endswith(" [AI]"):
        name = name[:-5]  # a longer colour's name: the options line says "computer" already
    return [
        (SEAT_STYLE[seat] + " class:seatname", f"{TOKEN_CHAR[seat]} {seat_name(seat)}"),
        ("", " " + name[:room].ljust(room) + " "),
        ("class:points", points),
        ("class:arrow", " ◀" if to_move else ""),
    ]


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


def side_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    """The information block above the log: round, players, turn, cards; every line wrapped
    at spaces to the width (a longer translation takes two lines, never a cut word)."""
    return [line for row in _side_lines(state, width) for line in wrap_fragments(row, width)]


def _side_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    pub = state.public
    out: list[list[Fragment]] = []
    if pub is None:
        out.append([("", _("Waiting for the table's state..."))])
        return out
    phase = {
        Phase.HANDICAP: _("handicap"),
        Phase.PLAY: _("play"),
        Phase.FINAL: _("final turns ({n} left)").format(n=pub.final_turns_left),
        Phase.OVER: _("game over"),
    }[pub.phase]
    opts = _options_short(pub.options)
    table = state.table
    if table is not None:
        extra = (
            []
            if table.clock is None
            else [_("clock {control}").format(control=panel_control(table.clock.control))]
        )
        if table.level is not None:
            extra.append(_("computer: {level}").format(level=level_word(table.level)))
        if not table.hints:
            extra.append(_("no hints"))
        opts = ", ".join(([opts] if opts else []) + extra)
    out.append(
        [
            ("class:title", _("Round {n} of 3").format(n=pub.round)),
            ("", f" · {phase}"),
        ]
    )
    for line in textwrap.wrap(opts, width) if opts else []:
        out.append([("class:dim", line)])
    for seat in Seat:
        out.append(_player_line(state, pub, seat, width))
        on_board = pub.bridges[seat].bit_count()
        tokens, held = pub.tokens[seat].bit_count(), pub.hand_sizes[seat]
        detail = "  " + _("tokens {tokens} bridges {bridges} cards {cards}").format(
            tokens=tokens, bridges=on_board, cards=held
        )
        with_supply = "  " + _(
            "tokens {tokens} bridges {bridges} ({left} left) cards {cards}"
        ).format(tokens=tokens, bridges=on_board, left=BRIDGES_PER_PLAYER - on_board, cards=held)
        if len(with_supply) <= width:  # the supply only where the whole line fits
            detail = with_supply
        out.append([("class:dim", detail)])
        if pub.open_cards[seat] and state.seat is not seat:
            out.append(
                [
                    ("class:dim", "  " + _("open:") + " "),
                    ("class:card", _cards(pub.open_cards[seat])),
                ]
            )
        known = [c for c in pub.known[seat] if c not in pub.open_cards[seat]]
        if known:
            if state.seat is seat:
                said = _("{seat} knows you hold").format(seat=seat_name(seat.other))
            else:
                said = _("holds")
            row_known = [
                ("class:dim", f"  {said} "),
                ("class:card", _cards(known)),
                ("class:dim", " " + _("(from the row)")),
            ]
            if sum(len(text) for _style, text in row_known) > width:
                row_known = row_known[:2]  # the cards matter; where they came from, less
            out.append(row_known)
    clock = clock_line(state)
    if clock:
        out.append(clock)
    out.append(_turn_line(state, pub))
    row: list[Fragment] = [("class:label", _("Face up") + " ")]
    for i, card in enumerate(pub.face_up):
        row += [("class:key", f"{i + 1}"), ("class:card", f" {ISLANDS[card]} ")]
    if not pub.face_up:
        row.append(("class:dim", _("none")))
    out.append(row)
    out.append(
        [
            ("class:label", _("Pile") + " "),
            ("", f"{pub.pile_size}"),
            ("class:label", " · " + _("discards") + " "),
            ("", f"{len(pub.played) + pub.face_down_count}"),
            ("class:dim", " " + _("({n} down)").format(n=pub.face_down_count)),
        ]
    )
    if state.seat_view is not None:
        seat_view = state.seat_view
        opened = list(pub.open_cards[seat_view.seat])
        if opened:
            title = _("Your hand ({n} of 5, * lies open)").format(n=len(seat_view.hand))
        else:
            title = _("Your hand ({n} of 5)").format(n=len(seat_view.hand))
        out.append([("class:label", title)])
        cards: list[Fragment] = [("", " ")]
        for card in sorted(seat_view.hand):
            is_open = card in opened
            if is_open:
                opened.remove(card)
            cards.append(("class:card class:hand", ISLANDS[card] + ("*" if is_open else "")))
            cards.append(("", " "))
        if not seat_view.hand:
            cards.append(("class:dim", _("no cards")))
        out.append(cards)
    else:
        for line in textwrap.wrap(_("You are watching: no hand is shown."), width):
            out.append([("class:dim", line)])
    return out


def panel_control(control: TimeControl) -> str:
    """The time control in a few characters: '5+3', '60 s a turn'."""
    if control.per_turn:
        return describe_control(control)
    return describe_control(control).partition(" ")[0]


def clock_line(state: ClientState) -> list[Fragment]:
    """The clocks, counting down: the running one marked ▶, one under 30 seconds in the
    warning colour and with a "!" (for monochrome terminals). Empty without a clock."""
    table = state.table
    if table is None or table.clock is None:
        return []
    clock = table.clock
    over = state.public is not None and state.public.result is not None
    out: list[Fragment] = [("class:label", _("Clock"))]
    for seat in Seat:
        running = clock.running is seat and not over
        if clock.per_turn and not running:
            continue  # a time per turn: only the turn under way has a clock that means anything
        left = state.clock_left(seat)
        assert left is not None
        low = left < LOW_TIME and (running or not clock.per_turn) and not over
        style = "class:clock.low" if low else "class:clock.run" if running else ""
        out.append(("", " "))
        out.append((SEAT_STYLE[seat], TOKEN_CHAR[seat]))
        out.append((style, ("▶" if running else " ") + format_clock(left) + ("!" if low else "")))
    if clock.per_turn:
        if len(out) == 1:
            out.append(("class:dim", " " + _("stopped")))
        out.append(("class:dim", f" ({describe_control(clock.control)})"))
    return out


def _turn_line(state: ClientState, pub: PublicView) -> list[Fragment]:
    if pub.result is not None:
        winner = pub.result.winner
        if winner is None:
            return [("class:title", _("Game over: a draw"))]
        return [("class:title", _("Game over: {seat} wins").format(seat=seat_name(winner)))]
    if state.table_status == "waiting":
        return [("class:dim", _("Waiting for an opponent"))]
    mover = pub.to_move
    if state.seat is mover:
        if pub.phase is Phase.HANDICAP:
            text = _("Your turn: {n} handicap").format(n=pub.handicap_left)
        elif pub.phase is Phase.FINAL:
            text = _("Your turn: the last one")
        elif pub.opponent_abstained:
            text = _("Your turn: you must draw")
        else:
            text = _("Your turn")
        return [("class:you", "▶ " + text)]
    text = _("{seat} to move ({name})").format(seat=seat_name(mover), name=state.player_name(mover))
    return [(SEAT_STYLE[mover], "▶ " + text)]


def result_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    """Each round's scores and the winner, for the end of the game."""
    pub = state.public
    if pub is None or pub.result is None:
        return []
    winner = pub.result.winner
    if winner is None:
        who = _("No winner") if pub.result.kind is Termination.TIE else _("A draw")
    else:
        who = _("{seat} ({name}) wins").format(
            seat=seat_name(winner), name=state.player_name(winner)
        )
    out: list[list[Fragment]] = [[("class:title", _("GAME OVER"))]]
    out += [[("class:title", line)] for line in textwrap.wrap(who, max(width, 10))]
    for line in textwrap.wrap(ending_words(state, pub.result), max(width - 2, 10)):
        out.append([("", f"  {line}")])
    white, black = seat_name(Seat.WHITE), seat_name(Seat.BLACK)
    col = max(len(white), len(black), 5)
    names = [_("Round 1"), _("Round 2"), _("Final")]
    names += [_("Round {n}").format(n=i + 1) for i in range(3, len(pub.round_points))]
    total_word = _("Total")
    name_w = max(9, len(total_word), *(len(n) for n in names))
    out.append([("class:label", " " * (name_w + 3) + f"{white:>{col}}  {black:>{col}}")])
    for name, (w, b) in zip(names, pub.round_points, strict=False):
        out.append([("", f"  {name:<{name_w}} {w:>{col}}  {b:>{col}}")])
    total = pub.scores
    out.append([("class:title", f"  {total_word:<{name_w}} {total[0]:>{col}}  {total[1]:>{col}}")])
    table = state.table
    if state.seat is not None:
        offer = None if table is None else table.rematch_offer
        if table is not None and table.rematch_table is not None:
            said = _("Rematch at table {table}").format(table=table.rematch_table)
            out += [[("class:you", line)] for line in textwrap.wrap(said, width)]
        elif offer is state.seat:
            said = _("You offered a rematch.")
            out += [[("class:dim", line)] for line in textwrap.wrap(said, width)]
        elif offer is not None:
            said = _("{name} offers a rematch: 'accept' plays it.").format(
                name=state.player_name(offer)
            )
            out += [[("class:you", line)] for line in textwrap.wrap(said, width)]
        else:
            out += wrap_fragments(
                [("class:key", _command("rematch")), ("class:dim", ": " + _("play again"))], width
            )
        out += wrap_fragments(
            [
                ("class:key", _command("lobby")),
                ("class:dim", ": " + _("leave") + "   "),
                ("class:key", _command("save")),
                ("class:dim", ": " + _("keep it")),
            ],
            width,
        )
    else:
        said = _("Type 'save' to keep the game, 'lobby' to leave the table.")
        out += [[("class:dim", line)] for line in textwrap.wrap(said, width)]
    return out


def _command(english: str) -> str:
    """A command word as the player types it in the chosen language."""
    from client.commands import local_words  # commands needs nothing of this module

    return local_words().get(english, english)


def ending_words(state: ClientState, result: Result) -> str:
    """How the game ended, from the result's kind, in words with the players' names."""
    return _ending_words(result, {seat: state.player_name(seat) for seat in Seat})


def wrap_log(log: Sequence[LogLine], width: int) -> list[list[Fragment]]:
    out: list[list[Fragment]] = []
    for entry in log:
        style = f"class:log.{entry.kind}"
        parts = textwrap.wrap(entry.text, max(width, 10), subsequent_indent="  ") or [""]
        out.extend([(style, part)] for part in parts)
    return out


def _options_short(options: object) -> str:
    v1 = getattr(options, "variant1", False)
    v2 = getattr(options, "variant2", False)
    seat = getattr(options, "handicap_seat", None)
    bridges = getattr(options, "handicap_bridges", 0)
    parts = []
    if v1:
        parts.append(_("Variant 1"))
    if v2:
        parts.append(_("Variant 2"))
    if seat is not None and bridges:
        label = seat_name(seat) if isinstance(seat, Seat) else first_word(str(seat))
        parts.append(_("handicap {seat} +{n}").format(seat=label, n=bridges))
    return ", ".join(parts)


# ----- whole screens ----------------------------------------------------------------------------


def header(state: ClientState, width: int) -> Canvas:
    canvas = Canvas(width, 1, "class:header")
    where = _("lobby") if state.table_id is None else _("table {id}").format(id=state.table_id)
    you = state.name
    if state.role == "spectator":
        you += " " + _("(watching)")
    elif state.seat is not None:
        you = _("{name} as {seat}").format(name=you, seat=seat_name(state.seat))
    x = canvas.put(0, 0, " KAHUNA ", "class:header class:brand")
    canvas.put(x, 0, f" {where} · {you}", "class:header")
    conn = f"{'●' if state.connected else '○'} {state.connection} "
    style = "class:header class:conn.ok" if state.connected else "class:header class:conn.bad"
    canvas.put(max(width - len(conn), 0), 0, conn, style)
    return canvas


def map_size(width: int, height: int) -> tuple[int, int, int]:
    """(map width, map height, side panel width) for a game screen body of this size."""
    side = max(30, min(50, round(width * 0.38)))
    map_w = max(width - side - 1, 0)
    map_h = max(height - 1, 0)  # a legend under the map
    map_w = min(map_w, int(map_h * 3.4) + LABEL_W)
    side = width - map_w - 1
    return map_w, map_h, side


MESSAGE_LINES = 3  # a long message is wrapped onto up to this many lines


def message_lines(text: str, width: int) -> list[str]:
    """A message wrapped to the width, on up to MESSAGE_LINES lines (the last one cut)."""
    lines = textwrap.wrap(text, max(width, 10), subsequent_indent="  ") or [""]
    if len(lines) > MESSAGE_LINES:
        lines = lines[:MESSAGE_LINES]
        lines[-1] = lines[-1][: max(width - 3, 0)] + "..."
    return [line[:width] for line in lines]


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
        canvas.blit(0, 1, render_body(state, width, body_h, highlight))
    for i, line in enumerate(lines):
        canvas.put(0, height - len(lines) + i, line, style)
    return canvas


def render_body(state: ClientState, width: int, height: int, highlight: Iterable[int]) -> Canvas:
    canvas = Canvas(width, height)
    map_w, map_h, side_w = map_size(width, height)
    if map_w < MIN_MAP[0] or map_h < MIN_MAP[1]:
        too_small = _("The terminal is too small ({size});").format(size=f"{width}x{height + 3}")
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
    x0 = map_w + 2
    panel_w = side_w - 1
    info = result_lines(state, panel_w) if state.public and state.public.result else []
    info = info or side_lines(state, panel_w)
    y = 0
    for row in info:
        if y >= height:
            break
        put_clipped(canvas, x0, y, row, panel_w)
        y += 1
    if y < height:
        canvas.put(x0 - 1, y, "─" * (side_w), "class:frame")
        title = (
            " " + _("log") + " "
            if not state.log_scroll
            else " " + _("log (-{n}, PgDn)").format(n=state.log_scroll) + " "
        )
        canvas.put(x0 + 1, y, title, "class:frame")
        y += 1
    room = height - y
    if room > 0:
        logs = wrap_log(state.log, panel_w)
        end = max(len(logs) - state.log_scroll, 0)
        for row in logs[max(end - room, 0) : end]:
            put_clipped(canvas, x0, y, row, panel_w)
            y += 1
    return canvas


def put_clipped(canvas: Canvas, x: int, y: int, row: Sequence[Fragment], width: int) -> None:
    used = 0
    for style, text in row:
        if used >= width:
            break
        piece = text[: width - used]
        canvas.put(x + used, y, piece, style)
        used += len(piece)


# The help: first the rules in brief (F1 opens it), then the commands and keys (`help` opens
# those). Each command is shown as the player types it in the chosen language, and with the
# notation's word where that differs; descriptions are wrapped, never cut.
RULES_TITLE = N_("Kahuna: the rules in brief")
RULES = (
    N_(
        "Two players build bridges between twelve islands. On your turn, play any number of"
        " cards, then draw one: from the pile or one of the three face-up cards (5 in hand at"
        " most)."
    ),
    N_(
        "One card: your bridge on a free line from its island. Two cards naming both ends of"
        " an opponent's bridge: it is removed. A card may also be discarded face down."
    ),
    N_(
        "More than half of an island's lines are yours: your token goes on it, and the"
        " opponent's bridges there are removed."
    ),
    N_("You may abstain from drawing, unless your opponent just did."),
    N_(
        "Pile and face-up cards used up: a scoring (more tokens: 1 point, then 2). After the"
        " third, one last turn each; the final scoring gives the difference in tokens."
    ),
    N_(
        "Most points wins; on a tie, the final scoring, then the bridges. No bridge on the"
        " board in round 2 or 3 loses at once."
    ),
)
RULES_PAGES = 1  # the rules fit one page at 80x24 (tested): `help` opens the page after them
COMMAND_W = 30  # the width of the column of commands and keys

# (command words in the notation, what follows them, what it does)
HELP_GAME: tuple[tuple[str, str, str], ...] = (
    ("place", "BARI-DUDA", N_("play a BARI card: your bridge on BARI-DUDA")),
    ("remove", "HUNA-ELAI HUNA+ELAI", N_("two cards of its ends remove that opponent bridge")),
    ("remove", "... rebuild", N_("Variant 1: and put your own bridge there, free")),
    ("discard", "ELAI", N_("put an ELAI card face down under the discards")),
    ("take", "COCO", N_("take the face-up COCO card; ends your turn")),
    ("draw", "", N_("draw the top card of the pile; ends your turn")),
    ("abstain", "", N_("do not draw; ends your turn")),
    ("end", "", N_("end your final turn (no drawing then)")),
    ("handicap", "ALOA-BARI", N_("a free handicap bridge before the first turn")),
    ("undo", "", N_("take back your last play")),
    ("undo turn", "", N_("take back all of this turn's plays")),
)
HELP_TABLE: tuple[tuple[str, str, str], ...] = (
    ("resign", "", N_("give up the game (asks first)")),
    ("offer draw", "", N_("offer a draw ('draw' alone draws from the pile)")),
    ("accept", "", N_("accept your opponent's draw (or rematch) offer")),
    ("decline", "", N_("decline your opponent's draw offer")),
    ("claim", "", N_("win when the server says your opponent is gone")),
    ("rematch", "", N_("after the game: another one, colours swapped")),
    (
        "hint",
        "",
        N_(
            "the normal level's play now, worked out here; a courtesy: refused where hints"
            " are off (though nothing stops a program running beside this)"
        ),
    ),
)
HELP_CLIENT: tuple[tuple[str, str, str], ...] = (
    ("say", "TEXT", N_("chat (or start the line with ')")),
    ("save", "[FILE]", N_("keep the game in a file")),
    ("lobby", "", N_("leave the table")),
    ("resync", "", N_("fetch the whole position again")),
    ("help", "", N_("this screen (F1: the rules in brief)")),
    ("quit", "", N_("leave the program")),
)
HELP_KEYS: tuple[tuple[str, str], ...] = (
    ("F2  Alt-d", N_("draw from the pile")),
    ("F3 F4 F5  Alt-1 Alt-2 Alt-3", N_("take face-up card 1, 2, 3")),
    ("F6  Alt-a", N_("abstain")),
    ("F7  Alt-e", N_("end the final turn")),
    ("F8  Alt-u", N_("undo a play")),
    ("Tab", N_("complete the word")),
    ("Up  Down", N_("the lines typed before")),
    ("PgUp  PgDn", N_("scroll the log; turn the help's pages")),
    ("F1", N_("the rules in brief and this help; Esc closes it")),
    ("Ctrl-Q", N_("quit")),
)


def _entry(key: str, text: str, width: int) -> list[list[Fragment]]:
    """A command or key and what it does, the description wrapped beside it (or under it)."""
    room = max(width - COMMAND_W, 20)
    parts = textwrap.wrap(text, room) or [""]
    if len(key) >= COMMAND_W - 2:
        return [[("class:key", "  " + key)]] + [[("", " " * COMMAND_W + part)] for part in parts]
    out = [[("class:key", f"  {key}".ljust(COMMAND_W)), ("", parts[0])]]
    out += [[("", " " * COMMAND_W + part)] for part in parts[1:]]
    return out


def _command_entry(english: str, rest: str, text: str, width: int) -> list[list[Fragment]]:
    from client.commands import local_words  # commands needs nothing of this module

    local = local_words()
    typed = local.get(english, english)
    if english == "remove" and rest.endswith("rebuild"):
        rest = "... " + local["rebuild"]
    key = f"{typed} {rest}".strip()
    said = _(text)
    if typed != english:  # the notation's word too: records and the server speak it
        said = f"[{english}] {said}"
    return _entry(key, said, width)


def rules_lines(width: int) -> list[list[Fragment]]:
    out: list[list[Fragment]] = [[("class:title", _(RULES_TITLE))]]
    for paragraph in RULES:
        parts = textwrap.wrap(_(paragraph), max(width - 2, 20))
        out.append([("", "• " + parts[0])])
        out += [[("", "  " + part)] for part in parts[1:]]
    return out


def help_lines(width: int = 80) -> list[list[Fragment]]:
    """The commands and keys, one screen line each."""
    out: list[list[Fragment]] = []
    for title, entries in (
        (N_("Commands: the game's notation; Tab completes, each is checked first"), HELP_GAME),
        (N_("The table"), HELP_TABLE),
        (N_("The client"), HELP_CLIENT),
    ):
        out += [[("class:title", line)] for line in textwrap.wrap(_(title), width)]
        for english, rest, text in entries:
            out += _command_entry(english, rest, text, width)
    out.append([("class:title", _("Keys"))])
    for key, text in HELP_KEYS:
        out += _entry(key, _(text), width)
    legend = _("Map: · free  = White  # Black  ○ ● tokens  4of6: 4 of its 6 lines win the island")
    out += [[("class:title", line)] for line in textwrap.wrap(legend, width)]
    return out


def help_pages(height: int, width: int = 80) -> list[list[list[Fragment]]]:
    """The help cut into pages of this height (the last line of each: where it is): the rules
    in brief first, then the commands and keys."""
    size = max(height - 1, 1)
    rules = rules_lines(width)
    rules.append([("class:dim", _("PgDn: the commands and keys"))])
    pages = [rules[i : i + size] for i in range(0, len(rules), size)]
    lines = help_lines(width)
    return pages + [lines[i : i + size] for i in range(0, len(lines), size)]


def render_help(width: int, height: int, page: int = 0) -> Canvas:
    canvas = Canvas(width, height)
    pages = help_pages(height, width)
    page = min(max(page, 0), len(pages) - 1)
    for y, row in enumerate(pages[page][:height]):
        put_clipped(canvas, 0, y, row, width)
    if len(pages) > 1:
        where = _("page {page} of {pages}: PgDn and PgUp turn the pages, Esc closes").format(
            page=page + 1, pages=len(pages)
        )
        canvas.put(0, height - 1, where[:width], "class:dim")
    return canvas


# ----- the lobby ------------------------------------------------------------------------------


def _seat_text(info: PlayerInfo | None, level: str | None = None) -> str:
    if info is None:
        return _("(free)")
    if info.computer:
        return f"{info.name} ({level_word(level)})" if level else f"{info.name} [AI]"
    return info.name + ("" if info.connected else " " + _("(away)"))


def _table_options(options: TableOptions, table: TableInfo | None = None) -> str:
    parts = []
    if table is not None and table.clock is not None:
        parts.append(short_control(table.clock))
    if table is not None and not table.hints:
        parts.append("nohint")
    if options.variant1:
        parts.append("V1")
    if options.variant2:
        parts.append("V2")
    if options.handicap_seat is not None and options.handicap_bridges:
        parts.append(f"H:{options.handicap_seat[0].upper()}+{options.handicap_bridges}")
    return " ".join(parts) or _("standard")


def table_row(table: TableInfo, width: int, mine: str | None = None) -> str:
    """One table of the lobby; `mine` names the seat this user holds a token for (marked
    "(yours)", or "(in use)" while another client of this user sits in it)."""
    level = table.level if table.vs_computer else None
    white = _seat_text(table.players.white, level)
    black = _seat_text(table.players.black, level)
    players = table.players
    for seat, info in (("white", players.white), ("black", players.black)):
        if mine == seat and info is not None:
            text = (_("(in use)") if info.connected else _("(yours)")) + " " + info.name
            white, black = (text, black) if seat == "white" else (white, text)
    options = _table_options(table.options, table)
    row = (
        f"{table.table_id:<8.8} {white:<17.17} {black:<17.17} {options:<13.13}"
        f" {status_word(table.status):<7.7} {table.spectators:>5}"
    )
    return row[:width]


def render_lobby(state: ClientState, width: int, height: int) -> Canvas:
    """The lobby above the key line: the server's tables, live, and the new-table form."""
    canvas = Canvas(width, height)
    if height < 3:
        return canvas
    canvas.blit(0, 0, header(state, width))
    lines = message_lines(state.message, width)
    full_height, height = height, height - len(lines) + 1  # the rest is laid out above it
    y = 2
    canvas.put(1, y, _("Tables on this server"), "class:title")
    y += 1
    white, black = seat_name(Seat.WHITE), seat_name(Seat.BLACK)
    # translated outside the f-string, where the extraction of the messages sees them
    table_title, options_title, status_title = _("table"), _("options"), _("status")
    columns = (
        f"{table_title:<8.8} {white:<17} {black:<17} {options_title:<13.13} {status_title:<7.7} "
        + _("watching")
    )
    canvas.put(3, y, columns, "class:label")
    y += 1
    if not state.tables:
        canvas.put(3, y, _("No tables yet: press n to create one."), "class:dim")
        y += 1
    list_room = max(height - y - (FORM_HEIGHT + 2 if state.form_open else 3), 1)
    first = max(0, state.selected - list_room + 1)
    for i, table in enumerate(state.tables[first : first + list_room], start=first):
        selected = i == state.selected
        style = "class:selected" if selected else ""
        saved = state.my_seat(table)
        row = table_row(table, width - 4, None if saved is None else saved[0])
        canvas.put(1, y, ("> " if selected else "  ") + row, style)
        y += 1
    y += 1
    if state.form_open:
        form_y = max(y, height - FORM_HEIGHT - 1)
        canvas.blit(0, form_y, render_form(state, width))
    else:
        intro = textwrap.wrap(_(LOBBY_INTRO), max(width - 2, 20))
        if height - y >= len(intro) + 2:
            for i, line in enumerate(intro):
                canvas.put(1, height - 2 - len(intro) + i, line, "class:dim")
    style = "class:msg.error" if state.message_kind == "error" else "class:msg"
    for i, line in enumerate(lines):
        canvas.put(0, full_height - len(lines) + i, line, style)
    return canvas


FORM_HEIGHT = 12


def render_form(state: ClientState, width: int) -> Canvas:
    form = state.form
    canvas = Canvas(width, FORM_HEIGHT)
    if form.handicap_seat is None:
        handicap = _("none")
    else:
        handicap = ngettext(
            "{seat} places {n} free bridge", "{seat} places {n} free bridges", form.handicap_bridges
        ).format(seat=first_word(form.handicap_seat), n=form.handicap_bridges)
    rows = [
        (
            "c",
            _("Against the computer"),
            _("yes") if form.vs_computer else _("no (wait for a person)"),
        ),
        ("s", _("Your seat"), first_word(form.seat)),
        ("f", _("First to move"), first_word(form.first)),
        (
            "1",
            _("Variant 1 (no bridges at opponent's islands)"),
            _("on") if form.variant1 else _("off"),
        ),
        (
            "2",
            _("Variant 2 (drawn face-up cards lie open)"),
            _("on") if form.variant2 else _("off"),
        ),
        ("h", _("Handicap"), handicap),
        ("t", _("Time control"), describe_control(form.clock)),
    ]
    if form.vs_computer:
        rows.append(("l", _("The computer's level"), level_word(form.level)))
    hints = _("allowed") if form.hints else _("off (a courtesy between the players)")
    rows.append(("i", _("Hints"), hints))
    canvas.put(1, 0, _("New table"), "class:title")
    for i, (key, what, value) in enumerate(rows, start=1):
        x = canvas.put(3, i, f"[{key}] ", "class:key")
        x = canvas.put(x, i, f"{what}: ")
        canvas.put(x, i, value, "class:value")
    canvas.put(3, FORM_HEIGHT - 1, _("Enter: create and sit down   Esc: cancel"), "class:dim")
    return canvas


LOBBY_INTRO = N_(
    "Kahuna: two sorcerers build bridges between twelve islands. Hold more than half of an"
    " island's lines: your token goes on it and the other's bridges go. One card builds a"
    " bridge, two break one; three scorings decide the game. Press n for a new table"
    " (against the computer or a person), Enter to join."
)
LOBBY_KEYS = N_("↑↓ select  Enter join  w/b sit as White/Black  s watch  n new table  ^Q quit")
