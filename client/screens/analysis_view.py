"""`kahuna-client --analyse FILE`: a game record's analysis (shared/analysis.py) in words, one
line a turn (its cost and mark, and apart the luck of the card it turned up where that was
worth a note), with a chart of White's chance drawn in block characters (readable at 80 columns
and without colour), each player's average cost and marks, each player's luck in all, and the
turning points.

The work runs in worker processes (two, one a core), off the terminal, with a progress bar on
standard error unless `--plain`, which prints the analysis alone and exits (for scripts and
screen readers).
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import sys
import textwrap
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from client.language.command_words import in_words
from client.language.i18n import _, ngettext, pgettext
from client.language.words import record_problem, seat_name
from client.model.hint import explain
from shared.analysis import (
    DEEP_PLAYOUTS,
    LUCK_NOTE,
    NOISE,
    PLAYOUTS,
    Summary,
    Turn,
    TurnAnalysis,
    analyse_turn,
    summaries,
    turn_seed,
    turning_points,
    turns,
    white_chances,
)
from shared.record import RecordError, read_record
from shared.types import Seat

BLOCKS = " ▁▂▃▄▅▆▇█"
WORKERS = 2


def mark_word(mark: str | None) -> str:
    words = {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}
    return "" if mark is None else words.get(mark, mark)


def seat_width() -> int:
    """The "who" column: as wide as the longer colour's name ("Schwarz") or its title."""
    who = pgettext("analysis column", "who")
    return max(len(seat_name(Seat.WHITE)), len(seat_name(Seat.BLACK)), len(who))


def header_line() -> str:
    turn, who = pgettext("analysis column", "turn"), pgettext("analysis column", "who")
    played, chance = pgettext("analysis column", "played"), _("chance before → after")
    return f"{turn:<4} {who:<{seat_width()}} {played:<34} {chance}"


def decimal(value: float, digits: int = 1) -> str:
    """A number with its decimal separator in the player's language (1.5, 1,5)."""
    return f"{value:.{digits}f}".replace(".", pgettext("decimal separator", "."))


def turn_line(a: TurnAnalysis) -> str:
    played = ", ".join(in_words(action) for action in a.actions)
    line = f"{a.number:>4} {seat_name(a.seat):<{seat_width()}} {played:<34} "
    line += f"{a.before * 100:>3.0f}% → {a.after * 100:>3.0f}%"
    if a.cost >= 0.005 and a.cost > NOISE * a.noise:  # a cost within the noise is none
        line += f"  -{a.cost * 100:.0f}"
    if a.mark:
        line += "  " + mark_word(a.mark)
        if a.best is not None and str(a.best) != (a.actions[0] if a.actions else ""):
            line += "; " + _("better: {play} ({why})").format(
                play=in_words(str(a.best)), why=explain(a.view, a.best)
            )
    luck = luck_words(a.luck, a.actions)
    if luck:
        line += "; " + luck
    return line


def luck_words(luck: float, actions: Sequence[str]) -> str:
    """What the card a turn turned up gave or cost, in words; nothing under LUCK_NOTE."""
    if abs(luck) < LUCK_NOTE:
        return ""
    n = round(abs(luck) * 100)
    drew = bool(actions) and actions[-1] == "draw"
    if drew and luck > 0:
        text = ngettext(
            "the draw gave {n} point of chance", "the draw gave {n} points of chance", n
        )
    elif drew:
        text = ngettext(
            "the draw cost {n} point of chance", "the draw cost {n} points of chance", n
        )
    elif luck > 0:
        text = ngettext(
            "the cards turned up gave {n} point of chance",
            "the cards turned up gave {n} points of chance",
            n,
        )
    else:
        text = ngettext(
            "the cards turned up cost {n} point of chance",
            "the cards turned up cost {n} points of chance",
            n,
        )
    return text.format(n=n)


def luck_line(summary: Summary) -> str:
    """A player's luck in all: what the cards their turns turned up gave or cost them."""
    n = round(abs(summary.luck) * 100)
    seat = seat_name(summary.seat)
    if summary.luck >= 0:
        text = ngettext(
            "{seat}'s luck: the cards turned up gave {n} point of chance in all",
            "{seat}'s luck: the cards turned up gave {n} points of chance in all",
            n,
        )
    else:
        text = ngettext(
            "{seat}'s luck: the cards turned up cost {n} point of chance in all",
            "{seat}'s luck: the cards turned up cost {n} points of chance in all",
            n,
        )
    return text.format(seat=seat, n=n)


def chart(chances: Sequence[float], width: int, height: int = 8, zoom: bool = False) -> list[str]:
    """White's chance after each turn, a column of blocks a turn (several turns a column when
    they do not fit), `height` rows; the 50% line marked at the left. `zoom` (the replay's
    small chart): the scale spans only the chances there were, by tenths, its ends labelled,
    so a one-sided game's turns still differ instead of filling every row."""
    if not chances:
        return []
    room = max(width - 6, 10)
    step = max(1, -(-len(chances) // room))
    columns = [
        sum(chances[i : i + step]) / len(chances[i : i + step])
        for i in range(0, len(chances), step)
    ]
    low, high = 0.0, 1.0
    if zoom:
        low = max(0.0, math.floor(min(columns) * 10 + 1e-9) / 10)
        high = min(1.0, math.ceil(max(columns) * 10 - 1e-9) / 10)
        if high - low < 0.3:  # a few tenths at least: a flat line stays a flat line
            low, high = max(0.0, min(low, high - 0.3)), min(1.0, max(high, low + 0.3))
    levels = height * 8
    labels = {height: f"{high:.0%}", 1: f"{low:.0%}"} if zoom else {height: "100%"}
    if low < 0.5 < high:
        labels.setdefault(math.ceil((0.5 - low) / (high - low) * height), "50%")
    rows = []
    for row in range(height, 0, -1):
        cells = []
        for value in columns:
            filled = round((value - low) / (high - low) * levels) - (row - 1) * 8
            cells.append(BLOCKS[max(0, min(8, filled))])
        rows.append(f"{labels.get(row, ''):>4} │" + "".join(cells))
    rows.append("     └" + "─" * len(columns))
    return rows


def chart_with_marker(chances: Sequence[float], width: int, turn: int | None) -> list[str]:
    """The chart, small, with ▲ under the column of the turn the replay is at."""
    rows = chart(chances, width, height=4, zoom=True)
    if turn is None or not chances:
        return rows
    room = max(width - 6, 10)
    step = max(1, -(-len(chances) // room))
    return [*rows, "      " + " " * (turn // step) + "▲"]


def legend_words() -> str:
    return _(
        "A turn's cost is what it lost against the best turn, judged before the card it"
        " turned up was seen; the luck of that card is counted apart."
    )


def no_turns_words() -> str:
    return _("The game ended before a turn was played: there is nothing to analyse.")


def start_analysis(viewer: Any, invalidate: Callable[[], None]) -> None:
    """Analyse the viewer's record in the background (worker processes, waited for in a
    thread); the viewer shows the progress, then the analysis."""
    if viewer.analysis is not None or viewer.analysing or not viewer.record_text:
        return
    viewer.analysing = _("analysing") + "..."
    invalidate()

    def progress(done: int, total: int) -> None:
        viewer.analysing = _("analysing {done}/{total}").format(done=done, total=total)
        invalidate()

    def work() -> None:
        try:
            found = turns(read_record(viewer.record_text))
            if found:
                viewer.analysis = analyse_in_workers(found, PLAYOUTS, progress)
            else:  # resigned, agreed or timed out before the first turn
                viewer.say(no_turns_words(), error=True)
        except Exception as exc:  # the viewer goes on: say what failed
            viewer.say(_("No analysis: {reason}").format(reason=exc), error=True)
        viewer.analysing = ""
        invalidate()

    threading.Thread(target=work, name="kahuna-analysis", daemon=True).start()


def mark_count(mark: str, count: int) -> str:
    """How many turns had the mark, in words ("2 mistakes")."""
    if mark == "inaccuracy":
        text = ngettext("{n} inaccuracy", "{n} inaccuracies", count)
    elif mark == "mistake":
        text = ngettext("{n} mistake", "{n} mistakes", count)
    else:
        text = ngettext("{n} blunder", "{n} blunders", count)
    return text.format(n=count)


def report(analysis: Sequence[TurnAnalysis], width: int = 80) -> list[str]:
    lines = [_("Analysis: each turn judged from its player's own view")]
    lines += textwrap.wrap(legend_words(), width)
    lines.append(header_line())
    for a in analysis:
        lines += textwrap.wrap(turn_line(a), width, subsequent_indent=" " * (seat_width() + 6))
    lines.append("")
    lines.append(_("White's chance of winning, turn by turn:"))
    lines += chart(white_chances(analysis), width)
    lines.append("")
    for summary in summaries(analysis):
        marks = ", ".join(mark_count(mark, count) for mark, count in summary.marks.items() if count)
        text = _("{seat}: average cost {cost} points of chance a turn; {marks}").format(
            seat=seat_name(summary.seat),
            cost=decimal(summary.average_cost * 100),
            marks=marks or _("no marks"),
        )
        lines += textwrap.wrap(text, width, subsequent_indent="  ")  # many marks: two lines
    for summary in summaries(analysis):
        lines += textwrap.wrap(luck_line(summary), width, subsequent_indent="  ")
    points = turning_points(analysis)
    if points:
        text = _("Turning points: {turns}").format(
            turns=", ".join(
                _("turn {n} ({seat})").format(n=p.number, seat=seat_name(p.seat)) for p in points
            )
        )
        lines += textwrap.wrap(text, width, subsequent_indent="  ")
    return lines


def analyse_in_workers(
    turns: Sequence[Turn],
    playouts: int,
    progress: Callable[[int, int], None] | None,
    seed: int = 1,
) -> list[TurnAnalysis]:
    """The turns' work shared among WORKERS processes, in the game's order."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(WORKERS, mp_context=context) as pool:
        futures = [
            pool.submit(analyse_turn, turn, turn_seed(seed, turn), playouts) for turn in turns
        ]
        for done, _future in enumerate(concurrent.futures.as_completed(futures), start=1):
            if progress is not None:
                progress(done, len(turns))
        return [f.result() for f in futures]


def progress_bar(done: int, total: int) -> None:
    width = 30
    filled = done * width // max(total, 1)
    word = _("analysing")
    sys.stderr.write(f"\r{word} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def analyse_main(path: str, plain: bool, deep: bool = False) -> int:
    try:
        text = Path(path).read_text(encoding="utf-8")
        parsed = read_record(text)
        parsed.replay()
    except OSError as exc:
        print(f"kahuna-client: {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except RecordError as exc:
        print(f"kahuna-client: {path}:{exc.line}: {record_problem(exc)}", file=sys.stderr)
        return 1
    found = turns(parsed)
    if not found:  # resigned, agreed or timed out before the first turn
        print(no_turns_words())
        return 0
    playouts = DEEP_PLAYOUTS if deep else PLAYOUTS
    analysis = analyse_in_workers(found, playouts, None if plain else progress_bar)
    print("\n".join(report(analysis)))
    return 0
