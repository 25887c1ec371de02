"""kahuna-client --replay FILE: a game record stepped through on the board screen.

Any record will do (docs/records.md): one saved by the client's `save`, written by the server's
`--records`, or a position written by hand. The game is over (or was set up), so nothing is
hidden: both hands, the face-down discards and the order of the draw pile are shown.

    ← →          one action back or forward
    ↑ ↓ PgUp PgDn  a turn back or forward
    Home End     the start, the end
    1 2 3        the start of round 1, 2 or 3
    q Ctrl-Q     quit

The steps are built once, by replaying the record's log with its recorded shuffles and keeping
a copy of the game after every action (tests/client/test_replay.py compares each with
Game.from_log on the log's prefix). The drawing reuses the game screen's map
(client/screens/board_map.py) and canvas.
"""

from __future__ import annotations

import functools
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs
from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth, Output

from client.language.command_words import in_words
from client.language.eventlog import describe_events
from client.language.i18n import _
from client.language.words import reason_words, record_problem, seat_name
from client.model.table import TableTournament
from client.screens.analysis_view import chart_with_marker, start_analysis, turn_line
from client.screens.board_map import MIN_MAP, SEAT_STYLE, TOKEN_CHAR, map_legend, render_map
from client.screens.canvas import Canvas, Fragment, put_clipped
from client.screens.render import map_size
from client.screens.screen import (
    CanvasControl,
    color_depth_for,
    full_screen_application,
    not_a_terminal,
)
from client.screens.side_panel import face_up_row
from client.screens.status_lines import MESSAGE_LINES
from shared.analysis import TurnAnalysis, white_chances
from shared.board import ISLANDS
from shared.events import BridgePlaced, BridgeRemoved, Event, GameOver, TurnEnded, event_to_dict
from shared.game import Game
from shared.history import Chance, Ending, Move
from shared.randomness import RecordedSource
from shared.record import CLOSING_COMMENT, ParsedRecord, RecordError, read_record
from shared.results import Result
from shared.types import Phase, Seat
from shared.views import spectator_view

# ----- the steps of a record --------------------------------------------------------------


@attrs.frozen
class Step:
    """The game after one entry of the record's log (step 0: before the first)."""

    game: Game
    entry: Move | Ending | None  # None for the start
    line: int  # the record's line of the entry (of the deal or the position's end for step 0)
    events: tuple[Event, ...]
    comments: tuple[str, ...]  # the record's comments that go with this entry

    @property
    def ends_turn(self) -> bool:
        return any(isinstance(e, TurnEnded | GameOver) for e in self.events)

    @property
    def words(self) -> list[str]:
        """What the entry caused, in words (as the game screen's log tells it)."""
        return describe_events([event_to_dict(e) for e in self.events])

    @property
    def changed_lines(self) -> set[int]:
        return {e.line for e in self.events if isinstance(e, BridgePlaced | BridgeRemoved)}


def entry_text(entry: Move | Ending | None) -> str:
    """The entry as the record writes it, in words: 'White: place BARI-DUDA' ('Weiß: setze
    BARI-DUDA' in German)."""
    if entry is None:
        return _("the start")
    if isinstance(entry, Move):
        return f"{seat_name(entry.seat)}: {in_words(str(entry.action))}"
    return reason_words(Result(entry.winner, entry.kind))


def _comments(text: str) -> dict[int, tuple[str, bool]]:
    """For each line with a comment: (the comment, whether the line holds nothing else). The
    closing comment a record is written with ("result: white (more points); points 7:0") is
    not one: it is English, and the panel says the result in the player's language."""
    out: dict[int, tuple[str, bool]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        code, sep, comment = raw.partition("#")
        if sep and comment.strip() and not CLOSING_COMMENT.fullmatch(comment.strip()):
            out[number] = (comment.strip(), not code.strip())
    return out


def _start_lines(text: str) -> tuple[int, int]:
    """The record's first statement's line ('kahuna-record 1': the comments above it are the
    file's own, not the game's) and the line that closes the start: its 'deal' line, or the
    position's 'end'."""
    in_position = False
    first = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        first = first or number
        if words[0] == "position":
            in_position = True
        elif (in_position and words[0] == "end") or (not in_position and words[0] == "deal"):
            return first, number
    return first, 0


@attrs.frozen
class Timeline:
    """Every state of a recorded game, from the start to the last entry."""

    steps: tuple[Step, ...]

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def turn_starts(self) -> list[int]:
        """The steps at which a turn begins (and the last step)."""
        marks = [0] + [i for i, step in enumerate(self.steps) if i and step.ends_turn]
        if marks[-1] != self.last:
            marks.append(self.last)
        return marks

    def next_turn(self, index: int) -> int:
        return next((i for i in self.turn_starts() if i > index), self.last)

    def previous_turn(self, index: int) -> int:
        return next((i for i in reversed(self.turn_starts()) if i < index), 0)

    def round_start(self, number: int) -> int | None:
        """The first step of round `number`, or None when the record never reaches it."""
        return next((i for i, s in enumerate(self.steps) if s.game.round == number), None)


def timeline(parsed: ParsedRecord, text: str = "") -> Timeline:
    """The states of a record; RecordError (naming the line) for one that does not replay."""
    parsed.replay()  # the engine checks every entry and names the line of a bad one
    skip = 0 if parsed.position is not None else 1
    orders = [e.order for e in parsed.log[skip:] if isinstance(e, Chance)]
    game = parsed.start(source=RecordedSource(orders))
    comments = _comments(text)
    first_line, start_line = _start_lines(text)
    start_line = start_line or (parsed.lines[0] if parsed.lines else 0)
    statement_lines = [parsed.lines[i] for i in range(skip, len(parsed.log))]

    def said(first: int, last: int) -> tuple[str, ...]:
        return tuple(
            comment
            for n, (comment, alone) in sorted(comments.items())
            if first <= n <= last and (alone or n == last)
        )

    steps = [Step(game.clone(), None, start_line, (), said(first_line + 1, start_line))]
    previous = start_line
    for i in range(skip, len(parsed.log)):
        entry, line = parsed.log[i], parsed.lines[i]
        if isinstance(entry, Chance):
            previous = line
            continue
        if isinstance(entry, Move):
            events = game.apply(entry.action)
        else:
            events = game.end(entry.kind, entry.seat)
        later = [n for n in statement_lines if n > line]
        last = line if later else max([line, *comments])  # the closing comments go last
        steps.append(Step(game.clone(), entry, line, tuple(events), said(previous + 1, last)))
        previous = line
    return Timeline(tuple(steps))


def load(path: str | Path) -> Timeline:
    """A record file's states; RecordError for a broken record, OSError for a missing file."""
    text = Path(path).read_text(encoding="utf-8")
    return timeline(read_record(text), text)


# ----- drawing -------------------------------------------------------------------------------


def card_rows(
    label: str, cards: Sequence[int], width: int, style: str = "class:card"
) -> list[list[Fragment]]:
    """'  hand ALOA BARI' wrapped to the width, the cards in their given order."""
    names = " ".join(ISLANDS[c] for c in cards) or _("none")
    rows = textwrap.wrap(names, max(width - len(label), 10)) or [""]
    out: list[list[Fragment]] = [[("class:label", label), (style, rows[0])]]
    out += [[("", " " * len(label)), (style, row)] for row in rows[1:]]
    return out


def phase_words(game: Game) -> str:
    if game.phase is Phase.HANDICAP:
        return _("handicap")
    if game.phase is Phase.FINAL:
        return _("final turns ({n} left)").format(n=game.final_turns_left)
    if game.phase is Phase.OVER:
        return _("game over")
    return _("play")


def game_panel(
    game: Game,
    width: int,
    tournament: TableTournament | None = None,
    players: tuple[str, str] | None = None,
) -> list[list[Fragment]]:
    """The whole state beside the map, nothing hidden: points, tokens and bridges, both hands,
    whose turn, the face-up row, the draw pile top first, the discards up and down. A
    tournament's game says its tournament and round first, and the game's rounds apart from
    them, as the table's panel does (client/screens/side_panel.py); `players` (White's and
    Black's names, where the client knows them: the record names no one) beside their seats."""
    out: list[list[Fragment]] = []
    if tournament is None:
        game_round = _("Round {n} of 3").format(n=game.round)
    else:
        said = _("{name} · round {n}").format(name=tournament.name, n=tournament.round)
        out += [[("class:title", line)] for line in textwrap.wrap(said, max(width, 10))]
        game_round = _("Game: round {n} of 3").format(n=game.round)
    phase = f" · {phase_words(game)}"
    if len(game_round) + len(phase) <= width:
        out.append([("class:title", game_round), ("", phase)])
    else:  # the phase on a line of its own rather than cut
        out += [[("class:title", game_round)], [("", phase_words(game))]]
    for seat in Seat:
        points = _("{n} pt").format(n=game.scores[seat])
        mover = game.to_move is seat and game.result is None
        name = f"{TOKEN_CHAR[seat]} {seat_name(seat)}"
        if players is not None:
            room = width - len(name) - len(points) - 4
            who = players[0 if seat is Seat.WHITE else 1]
            if room >= 3:
                name += " " + (who if len(who) <= room else who[: room - 1] + "…")
        pad = max(width - len(name) - len(points) - 3, 1)
        out.append(
            [
                (SEAT_STYLE[seat] + " class:seatname", name),
                ("", " " * pad),
                ("class:points", points),
                ("class:arrow", " ◀" if mover else ""),
            ]
        )
        out.append(
            [
                (
                    "class:dim",
                    "  "
                    + _("tokens {t} bridges {b}").format(
                        t=game.tokens[seat].bit_count(), b=game.bridges[seat].bit_count()
                    ),
                )
            ]
        )
        out += hand_rows(game, seat, width)
        opened = [c for c, n in enumerate(game.open[seat]) for _i in range(n)]
        if opened:
            out += card_rows("  " + _("open") + " ", opened, width)
    if game.result is not None:
        out += game_over_rows(game.result, width)
    else:
        out.append(
            [(SEAT_STYLE[game.to_move], "▶ " + _("{seat} to move").format(
                seat=seat_name(game.to_move)))]
        )  # fmt: skip
    out.append(face_up_row(game.face_up))
    out += card_rows(_("Pile") + " ", game.pile, width)
    out.append(
        [
            ("class:label", _("Discards") + " "),
            ("", _("{up} up, {down} down").format(up=len(game.played), down=len(game.face_down))),
        ]
    )
    if game.face_down:
        out += card_rows("  " + _("down") + " ", game.face_down, width)
    return out


def hand_rows(game: Game, seat: Seat, width: int) -> list[list[Fragment]]:
    """'  hand ALOA BARI': the cards in `seat`'s hand (open ones too), wrapped to the width."""
    hand = [c for c, n in enumerate(game.hand[seat]) for _i in range(n)]
    return card_rows("  " + _("hand") + " ", hand, width, "class:card class:hand")


def game_over_rows(result: Result, width: int) -> list[list[Fragment]]:
    """'Game over: White wins', then how, wrapped to the width."""
    winner = result.winner
    who = _("a draw") if winner is None else _("{seat} wins").format(seat=seat_name(winner))
    return [
        [("class:title", _("Game over: {who}").format(who=who))],
        *wrap_rows(reason_words(result), width, "class:dim", "  "),
    ]


def short_name(name: str, room: int) -> str:
    """A file name in `room` characters: without the record's suffix first, then cut in the
    middle (its start and its end, the table and the time, say most)."""
    if len(name) <= room:
        return name
    for suffix in (".kahuna.txt", ".kahuna", ".txt"):
        if name.endswith(suffix):
            name = name.removesuffix(suffix)
            break
    if len(name) <= room:
        return name
    if room < 5:
        return name[: max(room, 0)]
    head = (room - 1) // 2
    return name[:head] + "…" + name[len(name) - (room - 1 - head) :]


def board_screen(
    game: Game,
    title: str,
    panel: Callable[[int], list[list[Fragment]]],
    log: Callable[[int], list[list[Fragment]]],
    message: str,
    width: int,
    height: int,
    *,
    recent: set[int] | frozenset[int] = frozenset(),
    message_style: str = "class:msg",
    message_room: int = 3,
    log_title: str = "",
) -> Canvas:
    """The game screen's layout: a title line, the map on the left, the panel and under it
    the log on the right (its last lines), and the message wrapped at the bottom."""
    canvas = Canvas(width, height)
    if height < 3:
        return canvas
    canvas.put(0, 0, " " * width, "class:header")
    x = canvas.put(0, 0, " KAHUNA ", "class:header class:brand")
    canvas.put(x, 0, f" {title}"[: max(width - x, 0)], "class:header")
    lines = _message_lines(message, width)[:message_room] if message else []
    body_h = height - 1 - message_room  # the room kept whatever is said: the map stays put
    map_w, map_h, side_w = map_size(width, body_h)
    if map_w < MIN_MAP[0] or map_h < MIN_MAP[1]:
        canvas.put(0, 1, _("The terminal is too small ({w}x{h});").format(w=width, h=height),
                   "class:msg.error")  # fmt: skip
        canvas.put(0, 2, _("Kahuna needs at least 80x24."), "class:msg.error")
        return canvas
    canvas.blit(0, 1, render_map(spectator_view(game), map_w, map_h, recent=recent))
    canvas.put_fragments(0, 1 + map_h, map_legend())
    x0, panel_w = map_w + 2, side_w - 1
    for y in range(1, 1 + body_h):
        canvas.put(map_w, y, "│", "class:frame")
    y = 1
    for row in panel(panel_w):
        if y > body_h:
            break
        put_clipped(canvas, x0, y, row, panel_w)
        y += 1
    if y <= body_h:
        canvas.put(x0 - 1, y, "─" * side_w, "class:frame")
        canvas.put(x0 + 1, y, " " + (log_title or _("log")) + " ", "class:frame")
        y += 1
    room = body_h + 1 - y
    if room > 0:
        for row in log(panel_w)[-room:]:
            put_clipped(canvas, x0, y, row, panel_w)
            y += 1
    for i, line in enumerate(lines):
        canvas.put(0, height - len(lines) + i, line, message_style)
    return canvas


def _message_lines(text: str, width: int) -> list[str]:
    """The message as the game screen wraps it, a line like BARI-COCO kept whole."""
    lines = textwrap.wrap(text, max(width, 10), subsequent_indent="  ", break_on_hyphens=False)
    if len(lines) > MESSAGE_LINES:
        lines = lines[:MESSAGE_LINES]
        lines[-1] = lines[-1][: max(width - 3, 0)] + "..."
    return [line[:width] for line in lines or [""]]


def wrap_rows(text: str, width: int, style: str, indent: str = "") -> list[list[Fragment]]:
    rows = textwrap.wrap(
        text,
        max(width, 10),
        initial_indent=indent,
        subsequent_indent="  ",
        break_on_hyphens=False,  # BARI-COCO is one word
    )
    return [[(style, row)] for row in rows or [""]]


# ----- the viewer ----------------------------------------------------------------------------


class ReplayViewer:
    """Where the viewer is in the record, the keys that move it, and the screen."""

    def __init__(
        self,
        steps: Timeline,
        name: str,
        record_text: str = "",
        tournament: TableTournament | None = None,
        players: tuple[str, str] | None = None,
    ) -> None:
        self.timeline = steps
        self.name = name
        self.tournament = tournament  # a tournament's game: its tournament and round
        self.players = players  # White's and Black's names, where known
        self.index = 0
        self.note = ""  # said once, at the bottom (a round the record never reaches)
        self.note_style = "class:msg.error"
        self.record_text = record_text  # for the analysis (key a)
        self.analysis: list[TurnAnalysis] | None = None
        self.analysing = ""  # the analysis's progress while it runs

    @property
    def step(self) -> Step:
        return self.timeline.steps[self.index]

    @property
    def game(self) -> Game:
        return self.step.game

    def go(self, index: int) -> None:
        self.index = min(max(index, 0), self.timeline.last)
        self.note = ""

    def say(self, text: str, error: bool = False) -> None:
        """A line at the bottom until the next move: the replay covers the screen whose own
        line would say it (where a record was saved to, say), unseen until the replay closes."""
        self.note = text
        self.note_style = "class:msg.error" if error else "class:msg"

    def forward(self) -> None:
        self.go(self.index + 1)

    def back(self) -> None:
        self.go(self.index - 1)

    def turn_forward(self) -> None:
        self.go(self.timeline.next_turn(self.index))

    def turn_back(self) -> None:
        self.go(self.timeline.previous_turn(self.index))

    def home(self) -> None:
        self.go(0)

    def end(self) -> None:
        self.go(self.timeline.last)

    def round(self, number: int) -> None:
        found = self.timeline.round_start(number)
        if found is None:
            self.say(_("The record never reaches round {n}.").format(n=number), error=True)
        else:
            self.go(found)

    def log_rows(self, width: int) -> list[list[Fragment]]:
        """Every action up to this one, each with what it caused; the next one dimmed. With an
        analysis: its chart last, the turn the viewer is in marked under it."""
        rows: list[list[Fragment]] = []
        for i, step in enumerate(self.timeline.steps[1 : self.index + 1], start=1):
            current = i == self.index
            mark = "▶" if current else " "
            style = "class:title" if current else "class:log.you"
            rows += wrap_rows(f"{mark}{i} {entry_text(step.entry)}", width, style)
            for words in step.words:
                rows += wrap_rows(words, width, "" if current else "class:log.info", "  ")
        if self.index < self.timeline.last:
            after = self.timeline.steps[self.index + 1].entry
            rows += wrap_rows(
                _("next: {entry}").format(entry=entry_text(after)), width, "class:dim", " "
            )
        if self.analysis:  # at the end, where the log's last rows are always shown
            turn = self.current_turn()
            number = None if turn is None else turn.number - 1
            for line in chart_with_marker(white_chances(self.analysis), width, number):
                rows.append([("class:title", line)])
        return rows

    def current_turn(self) -> TurnAnalysis | None:
        """The analysed turn the viewer is in (the first before the first action)."""
        if not self.analysis:
            return None
        found = self.analysis[0]
        for turn in self.analysis:
            if turn.step < self.index:
                found = turn
        return found

    def message(self) -> str:
        if self.note:
            return self.note
        if self.analysing:
            return self.analysing
        turn = self.current_turn()
        if turn is not None:
            return turn_line(turn)
        said = " ".join(self.step.comments)
        if said:
            return said
        if self.index == 0:
            return _("The start of the record. → steps forward one action, ↓ a whole turn.")
        if self.index == self.timeline.last:
            return _("The end of the record. ← steps back, Home goes to the start.")
        return ""

    def title(self, width: int = 200) -> str:
        """The header's words; a long file name gives way (in its middle) to the action and
        the round, which the header must show whole. `width`: the header's, after "KAHUNA"."""
        if self.tournament is None:
            words = _("replay {name} · action {i} of {n} · round {r}")
        else:  # the tournament's round is in the panel: the header's is the game's
            words = _("replay {name} · action {i} of {n} · game round {r}")
        numbers = {"i": self.index, "n": self.timeline.last, "r": self.game.round}
        room = width - 1 - len(words.format(name="", **numbers))
        return words.format(name=short_name(self.name, room), **numbers)

    def draw(self, width: int, height: int) -> Canvas:
        return board_screen(
            self.game,
            self.title(width - len(" KAHUNA ")),
            lambda w: game_panel(self.game, w, self.tournament, self.players),
            self.log_rows,
            self.message(),
            width,
            height,
            recent=self.step.changed_lines,
            message_style=self.note_style if self.note else "class:msg",
        )


def keys_line() -> str:
    return (
        " "
        + _("←→ action  ↑↓ PgUp PgDn turn  Home End  1 2 3 round  q quit")
        + "  a "
        + _("analysis")
    )


def replay_application(
    viewer: ReplayViewer,
    *,
    input: Input | None = None,
    output: Output | None = None,
    color_depth: ColorDepth | None = None,
    theme: str = "dark",
) -> Application[None]:
    kb = KeyBindings()
    moves = {
        "right": viewer.forward,
        "left": viewer.back,
        "down": viewer.turn_forward,
        "pagedown": viewer.turn_forward,
        "up": viewer.turn_back,
        "pageup": viewer.turn_back,
        "home": viewer.home,
        "end": viewer.end,
    }
    for key, move in moves.items():
        kb.add(key)(_handler(move))
    for number in (1, 2, 3):
        kb.add(str(number))(_handler(functools.partial(viewer.round, number)))

    @kb.add("a")
    def _analyse(event: KeyPressEvent) -> None:
        start_analysis(viewer, event.app.invalidate)

    @kb.add("q")
    @kb.add("c-q")
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    body = HSplit(
        [
            Window(CanvasControl(viewer.draw, focusable=True)),
            Window(FormattedTextControl(keys_line), height=1, style="class:hints"),
        ]
    )
    return full_screen_application(
        Layout(body),
        kb,
        theme=theme,
        input=input,
        output=output,
        color_depth=color_depth,
    )


def _handler(move: Callable[[], None]) -> Callable[[KeyPressEvent], None]:
    def handler(event: KeyPressEvent) -> None:
        move()

    return handler


def replay_main(
    path: str,
    *,
    no_color: bool = False,
    theme: str = "dark",
    input: Input | None = None,
    output: Output | None = None,
) -> int:
    """kahuna-client --replay FILE: 1 with FILE:LINE: reason for a broken record, 2 for a file
    that cannot be read (or no terminal), else 0 once the viewer quits."""
    try:
        steps = load(path)
    except RecordError as exc:
        print(f"{path}:{exc.line}: {record_problem(exc)}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else _("not a UTF-8 text file")
        print(f"{path}: {reason}", file=sys.stderr)
        return 2
    if input is None and not_a_terminal():
        return 2
    viewer = ReplayViewer(steps, Path(path).name, Path(path).read_text(encoding="utf-8"))
    app = replay_application(
        viewer, input=input, output=output, color_depth=color_depth_for(no_color), theme=theme
    )
    app.run()
    return 0
