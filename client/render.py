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

from client.state import ClientState, LogLine
from client.table import LOW_TIME, describe_control, format_clock, short_control
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

KEY_HINTS = "F1 help  F2 draw  F3-F5 take 1-3  F6 abstain  F7 end  F8 undo  Tab  ^Q quit"


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


MAP_LEGEND: list[Fragment] = [
    ("class:free", FREE_CHAR),
    ("class:dim", "free "),
    ("class:white class:bridge", BRIDGE_CHAR[0]),
    ("class:dim", "White "),
    ("class:black class:bridge", BRIDGE_CHAR[1]),
    ("class:dim", "Black "),
    ("class:white", TOKEN_CHAR[0]),
    ("class:black", TOKEN_CHAR[1]),
    ("class:dim", "tokens "),
    ("class:count", "3of5"),
    ("class:dim", ":need 3 of 5"),
]


# ----- the side panel ---------------------------------------------------------------------------


def _cards(cards: Iterable[int]) -> str:
    return " ".join(ISLANDS[c] for c in sorted(cards)) or "none"


def _player_line(state: ClientState, pub: PublicView, seat: Seat, width: int) -> list[Fragment]:
    name = state.player_name(seat)
    info = None if state.players is None else state.players.get(seat)
    if state.seat is seat:
        name += " (you)"
    if info is not None and info.computer:
        name += " [AI]"  # its level is on the line of the options
    if info is not None and not info.connected and not info.computer:
        name += " (away)"
    points = f"{pub.scores[seat]} pt"
    to_move = pub.to_move is seat and pub.result is None
    room = max(width - 7 - 1 - len(points) - 3, 4)
    return [
        (SEAT_STYLE[seat] + " class:seatname", f"{TOKEN_CHAR[seat]} {seat.label}"),
        ("", " " + name[:room].ljust(room) + " "),
        ("class:points", points),
        ("class:arrow", " ◀" if to_move else ""),
    ]


def side_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    """The information block above the log: round, players, turn, cards."""
    pub = state.public
    out: list[list[Fragment]] = []
    if pub is None:
        out.append([("", "Waiting for the table's state...")])
        return out
    phase = {
        Phase.HANDICAP: "handicap",
        Phase.PLAY: "play",
        Phase.FINAL: f"final turns ({pub.final_turns_left} left)",
        Phase.OVER: "game over",
    }[pub.phase]
    opts = _options_short(pub.options)
    table = state.table
    if table is not None:
        extra = [] if table.clock is None else [f"clock {panel_control(table.clock.control)}"]
        if table.level is not None:
            extra.append(f"computer: {table.level}")
        if not table.hints:
            extra.append("no hints")
        opts = ", ".join(([opts] if opts else []) + extra)
    out.append([("class:title", f"Round {pub.round} of 3"), ("", f" · {phase}")])
    if opts:
        out.append([("class:dim", opts)])
    for seat in Seat:
        out.append(_player_line(state, pub, seat, width))
        on_board = pub.bridges[seat].bit_count()
        tokens, held = pub.tokens[seat].bit_count(), pub.hand_sizes[seat]
        detail = f"  tokens {tokens} bridges {on_board} cards {held}"
        with_supply = (
            f"  tokens {tokens} bridges {on_board} ({BRIDGES_PER_PLAYER - on_board} left)"
            f" cards {held}"
        )
        if len(with_supply) <= width:  # the supply only where the whole line fits
            detail = with_supply
        out.append([("class:dim", detail)])
        if pub.open_cards[seat] and state.seat is not seat:
            out.append([("class:dim", "  open: "), ("class:card", _cards(pub.open_cards[seat]))])
        known = [c for c in pub.known[seat] if c not in pub.open_cards[seat]]
        if known:
            said = f"  {seat.other.label} knows you hold " if state.seat is seat else "  holds "
            out.append(
                [
                    ("class:dim", said),
                    ("class:card", _cards(known)),
                    ("class:dim", " (from the row)"),
                ]
            )
    clock = clock_line(state)
    if clock:
        out.append(clock)
    out.append(_turn_line(state, pub))
    row: list[Fragment] = [("class:label", "Face up ")]
    for i, card in enumerate(pub.face_up):
        row += [("class:key", f"{i + 1}"), ("class:card", f" {ISLANDS[card]} ")]
    if not pub.face_up:
        row.append(("class:dim", "none"))
    out.append(row)
    out.append(
        [
            ("class:label", "Pile "),
            ("", f"{pub.pile_size}"),
            ("class:label", " · discards "),
            ("", f"{len(pub.played) + pub.face_down_count}"),
            ("class:dim", f" ({pub.face_down_count} down)"),
        ]
    )
    if state.seat_view is not None:
        seat_view = state.seat_view
        opened = list(pub.open_cards[seat_view.seat])
        note = ", * lies open" if opened else ""
        out.append([("class:label", f"Your hand ({len(seat_view.hand)} of 5{note})")])
        cards: list[Fragment] = [("", " ")]
        for card in sorted(seat_view.hand):
            is_open = card in opened
            if is_open:
                opened.remove(card)
            cards.append(("class:card class:hand", ISLANDS[card] + ("*" if is_open else "")))
            cards.append(("", " "))
        if not seat_view.hand:
            cards.append(("class:dim", "no cards"))
        out.append(cards)
    else:
        out.append([("class:dim", "You are watching: no hand is shown.")])
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
    out: list[Fragment] = [("class:label", "Clock")]
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
            out.append(("class:dim", " stopped"))
        out.append(("class:dim", f" ({describe_control(clock.control)})"))
    return out


def _turn_line(state: ClientState, pub: PublicView) -> list[Fragment]:
    if pub.result is not None:
        winner = pub.result.winner
        who = "a draw" if winner is None else f"{winner.label} wins"
        return [("class:title", f"Game over: {who}")]
    if state.table_status == "waiting":
        return [("class:dim", "Waiting for an opponent")]
    mover = pub.to_move
    if state.seat is mover:
        text = "▶ Your turn"
        if pub.phase is Phase.HANDICAP:
            text += f": {pub.handicap_left} handicap"
        elif pub.phase is Phase.FINAL:
            text += ": the last one"
        elif pub.opponent_abstained:
            text += ": you must draw"
        return [("class:you", text)]
    return [(SEAT_STYLE[mover], f"▶ {mover.label} to move ({state.player_name(mover)})")]


def result_lines(state: ClientState, width: int) -> list[list[Fragment]]:
    """Each round's scores and the winner, for the end of the game."""
    pub = state.public
    if pub is None or pub.result is None:
        return []
    winner = pub.result.winner
    if winner is None:
        who = "No winner" if pub.result.kind is Termination.TIE else "A draw"
    else:
        who = f"{winner.label} ({state.player_name(winner)}) wins"
    out: list[list[Fragment]] = [[("class:title", "GAME OVER")], [("class:title", who)]]
    for line in textwrap.wrap(ending_words(state, pub.result), max(width - 2, 10)):
        out.append([("", f"  {line}")])
    out.append([("class:label", "            White  Black")])
    names = ["Round 1", "Round 2", "Final"]
    for i, (w, b) in enumerate(pub.round_points):
        name = names[i] if i < len(names) else f"Round {i + 1}"
        out.append([("", f"  {name:<9} {w:>5}  {b:>5}")])
    total = pub.scores
    out.append([("class:title", f"  {'Total':<9} {total[0]:>5}  {total[1]:>5}")])
    table = state.table
    if state.seat is not None:
        offer = None if table is None else table.rematch_offer
        if table is not None and table.rematch_table is not None:
            out.append([("class:you", f"Rematch at table {table.rematch_table}")])
        elif offer is state.seat:
            out.append([("class:dim", "You offered a rematch.")])
        elif offer is not None:
            out.append([("class:you", f"{state.player_name(offer)} offers a rematch:")])
            out.append([("class:you", "'accept' plays it.")])
        else:
            out.append([("class:key", "rematch"), ("class:dim", ": play again")])
        out.append([("class:key", "lobby"), ("class:dim", ": leave   "), ("class:key", "save"),
                    ("class:dim", ": keep it")])  # fmt: skip
    else:
        out.append([("class:dim", "Type 'save' to keep the game,")])
        out.append([("class:dim", "'lobby' to leave the table.")])
    return out


def ending_words(state: ClientState, result: Result) -> str:
    """How the game ended, from the result's kind, in words with the players' names."""
    kind = result.kind
    loser = result.loser

    def named(seat: Seat) -> str:
        return f"{state.player_name(seat)} ({seat.label})"

    if kind is Termination.RESIGNED and loser is not None:
        return f"{named(loser)} resigned."
    if kind is Termination.TIME and loser is not None:
        return f"{named(loser)} ran out of time."
    if kind is Termination.FORFEIT and loser is not None:
        return f"{named(loser)} left the game and forfeited it."
    if kind is Termination.AGREED:
        return "The players agreed a draw."
    if kind is Termination.POINTS:
        return "More points after the final scoring."
    if kind is Termination.FINAL:
        return "Tied on points; more points in the final scoring."
    if kind is Termination.BRIDGES:
        return "Tied on points and in the final scoring; more bridges on the board."
    if kind is Termination.TIE:
        return "Tied on points and on bridges: a tie."
    if kind is Termination.NO_BRIDGES:
        if loser is None:
            return "Neither player has a bridge on the board."
        return f"{named(loser)} has no bridge left on the board."
    return result.reason


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
        parts.append("Variant 1")
    if v2:
        parts.append("Variant 2")
    if seat is not None and bridges:
        label = seat.label if isinstance(seat, Seat) else str(seat).capitalize()
        parts.append(f"handicap {label} +{bridges}")
    return ", ".join(parts)


# ----- whole screens ----------------------------------------------------------------------------


def header(state: ClientState, width: int) -> Canvas:
    canvas = Canvas(width, 1, "class:header")
    where = "lobby" if state.table_id is None else f"table {state.table_id}"
    you = state.name
    if state.role == "spectator":
        you += " (watching)"
    elif state.seat is not None:
        you += f" as {state.seat.label}"
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
        state.help_page = min(state.help_page, len(help_pages(body_h)) - 1)
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
        canvas.put(0, 0, f"The terminal is too small ({width}x{height + 3});", "class:msg.error")
        canvas.put(0, 1, "Kahuna needs at least 80x24.", "class:msg.error")
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
    canvas.put_fragments(0, map_h, MAP_LEGEND)
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
        _put_clipped(canvas, x0, y, row, panel_w)
        y += 1
    if y < height:
        canvas.put(x0 - 1, y, "─" * (side_w), "class:frame")
        title = " log " if not state.log_scroll else f" log (-{state.log_scroll}, PgDn) "
        canvas.put(x0 + 1, y, title, "class:frame")
        y += 1
    room = height - y
    if room > 0:
        logs = wrap_log(state.log, panel_w)
        end = max(len(logs) - state.log_scroll, 0)
        for row in logs[max(end - room, 0) : end]:
            _put_clipped(canvas, x0, y, row, panel_w)
            y += 1
    return canvas


def _put_clipped(canvas: Canvas, x: int, y: int, row: Sequence[Fragment], width: int) -> None:
    used = 0
    for style, text in row:
        if used >= width:
            break
        piece = text[: width - used]
        canvas.put(x + used, y, piece, style)
        used += len(piece)


HELP_TEXT = """\
Commands: the game's notation. Tab completes; each is checked before it is sent.
  place BARI-DUDA             play a BARI card: your bridge on BARI-DUDA
  remove HUNA-ELAI HUNA+ELAI  two cards of its ends remove that opponent bridge
  remove ... rebuild          Variant 1: and put your own bridge there, free
  discard ELAI                put an ELAI card face down under the discards
  take COCO                   take the face-up COCO card; ends your turn
  draw                        draw the top card of the pile; ends your turn
  abstain                     do not draw; ends your turn
  end                         end your final turn (no drawing then)
  handicap ALOA-BARI          a free handicap bridge before the first turn
  undo / undo turn            take back your last play / all of this turn's
The table
  resign                      give up the game (asks first)
  offer draw                  offer a draw ('draw' alone draws from the pile)
  accept / decline            answer your opponent's draw (or rematch) offer
  claim                       win when the server says your opponent is gone
  rematch                     after the game: another one, colours swapped
  hint                        the normal level's play now, worked out here;
                              a courtesy: refused where hints are off (though
                              nothing stops a program running beside this)
Client commands
  say TEXT  (or 'TEXT) chat      save [FILE]  keep the game in a file
  lobby     leave the table      resync       fetch the whole position again
  help      this screen          quit         leave the program
Keys
  F2  Alt-d      draw from pile  F3 F4 F5  Alt-1 2 3  take face-up card 1, 2, 3
  F6  Alt-a      abstain         F7  Alt-e            end the final turn
  F8  Alt-u      undo a play
  Tab  complete  Up/Down history PgUp/PgDn            scroll the log
  F1  help       Esc  close it   Ctrl-Q               quit
Map: · free  = White  # Black  ○ ● tokens  4of6: 4 of its 6 lines win the island"""


def help_lines() -> list[list[Fragment]]:
    out: list[list[Fragment]] = []
    for line in HELP_TEXT.splitlines():
        if not line.startswith(" "):
            out.append([("class:title", line)])
        else:
            out.append([("class:key", line[:30]), ("", line[30:])])
    return out


def help_pages(height: int) -> list[list[list[Fragment]]]:
    """The help screen cut into pages of this height (the last line of each: where it is)."""
    lines = help_lines()
    if len(lines) <= height:
        return [lines]
    size = max(height - 1, 1)
    return [lines[i : i + size] for i in range(0, len(lines), size)]


def render_help(width: int, height: int, page: int = 0) -> Canvas:
    canvas = Canvas(width, height)
    pages = help_pages(height)
    page = min(max(page, 0), len(pages) - 1)
    for y, row in enumerate(pages[page][:height]):
        _put_clipped(canvas, 0, y, row, width)
    if len(pages) > 1:
        where = f"page {page + 1} of {len(pages)}: PgDn and PgUp turn the pages, Esc closes"
        canvas.put(0, height - 1, where[:width], "class:dim")
    return canvas


# ----- the lobby ------------------------------------------------------------------------------


def _seat_text(info: PlayerInfo | None, level: str | None = None) -> str:
    if info is None:
        return "(free)"
    if info.computer:
        return f"{info.name} ({level})" if level else f"{info.name} [AI]"
    return info.name + ("" if info.connected else " (away)")


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
    return " ".join(parts) or "standard"


def table_row(table: TableInfo, width: int, mine: str | None = None) -> str:
    """One table of the lobby; `mine` names the seat this user holds a token for (marked
    "(yours)", or "(in use)" while another client of this user sits in it)."""
    level = table.level if table.vs_computer else None
    white = _seat_text(table.players.white, level)
    black = _seat_text(table.players.black, level)
    players = table.players
    for seat, info in (("white", players.white), ("black", players.black)):
        if mine == seat and info is not None:
            text = ("(in use) " if info.connected else "(yours) ") + info.name
            white, black = (text, black) if seat == "white" else (white, text)
    options = _table_options(table.options, table)
    row = (
        f"{table.table_id:<8.8} {white:<17.17} {black:<17.17} {options:<13.13}"
        f" {table.status:<7.7} {table.spectators:>5}"
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
    canvas.put(1, y, "Tables on this server", "class:title")
    y += 1
    canvas.put(
        3,
        y,
        f"{'table':<8} {'White':<17} {'Black':<17} {'options':<13} {'status':<7} watch",
        "class:label",
    )
    y += 1
    if not state.tables:
        canvas.put(3, y, "No tables yet: press n to create one.", "class:dim")
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
    elif height - y >= len(LOBBY_INTRO) + 2:
        for i, line in enumerate(LOBBY_INTRO):
            canvas.put(1, height - 2 - len(LOBBY_INTRO) + i, line[: width - 2], "class:dim")
    style = "class:msg.error" if state.message_kind == "error" else "class:msg"
    for i, line in enumerate(lines):
        canvas.put(0, full_height - len(lines) + i, line, style)
    return canvas


FORM_HEIGHT = 12


def render_form(state: ClientState, width: int) -> Canvas:
    form = state.form
    canvas = Canvas(width, FORM_HEIGHT)
    handicap = (
        "none"
        if form.handicap_seat is None
        else f"{form.handicap_seat.capitalize()} places {form.handicap_bridges} free bridge(s)"
    )
    rows = [
        ("c", "Against the computer", "yes" if form.vs_computer else "no (wait for a person)"),
        ("s", "Your seat", form.seat.capitalize()),
        ("f", "First to move", form.first.capitalize()),
        ("1", "Variant 1 (no bridges at opponent's islands)", "on" if form.variant1 else "off"),
        ("2", "Variant 2 (drawn face-up cards lie open)", "on" if form.variant2 else "off"),
        ("h", "Handicap", handicap),
        ("t", "Time control", describe_control(form.clock)),
    ]
    if form.vs_computer:
        rows.append(("l", "The computer's level", form.level))
    hints = "allowed" if form.hints else "off (a courtesy between the players)"
    rows.append(("i", "Hints", hints))
    canvas.put(1, 0, "New table", "class:title")
    for i, (key, what, value) in enumerate(rows, start=1):
        x = canvas.put(3, i, f"[{key}] ", "class:key")
        x = canvas.put(x, i, f"{what}: ")
        canvas.put(x, i, value, "class:value")
    canvas.put(3, FORM_HEIGHT - 1, "Enter: create and sit down   Esc: cancel", "class:dim")
    return canvas


LOBBY_INTRO = (
    "Kahuna: two sorcerers build bridges between twelve islands. Hold more than",
    "half of an island's lines: your token goes on it and the other's bridges go.",
    "One card builds a bridge, two break one; three scorings decide the game.",
    "Press n for a new table (against the computer or a person), Enter to join.",
)
LOBBY_KEYS = "↑↓ select  Enter join  w/b sit as White/Black  s watch  n new table  ^Q quit"
