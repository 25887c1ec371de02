"""Game records: a line-based text format for whole games (write, read, replay), and the whole
state of a game as JSON-ready data. Pure: the command line around them is client/record_tool.py
(`kahuna-record replay FILE`).

The format is documented in docs/records.md. A record is a rendering of the game's log
(shared.history): the options, the first player, the deal (or a set-up position instead), then
every move and, right after the move that caused it, the order of each reshuffle.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from shared.actions import NotationError, parse_action
from shared.board import ISLANDS, iter_bits, line_name, parse_island, parse_line
from shared.game import FULL_DECK, Game
from shared.history import Chance, Ending, LogEntry, LogError, Move
from shared.position import Position, PositionError
from shared.randomness import CardSource, RecordedSource
from shared.results import Result, english_reason
from shared.types import GameOptions, OptionsError, Phase, Seat, Termination

MAGIC = "kahuna-record 1"


class RecordError(ValueError):
    """A record that cannot be read or replayed; names the line and the reason, in English and
    as a code with its parameters (the words a reader's program says it in: client/words.py's
    record_problem). `detail` is a lower layer's own English words, where one said why."""

    def __init__(
        self, line: int, reason: str, code: str, params: dict[str, str] | None = None
    ) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
        self.code = code
        self.params = params or {}


# ----- writing ----------------------------------------------------------------------------


def _names(cards: Sequence[int]) -> str:
    return " ".join(ISLANDS[c] for c in cards)


def _cards_of(counts: Sequence[int]) -> list[int]:
    return [island for island, n in enumerate(counts) for _ in range(n)]


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _header(options: GameOptions) -> list[str]:
    handicap = (
        "none"
        if options.handicap_seat is None
        else f"{options.handicap_seat.name.lower()} {options.handicap_bridges}"
    )
    return [
        MAGIC,
        f"variant1 {_yes(options.variant1)}",
        f"variant2 {_yes(options.variant2)}",
        f"handicap {handicap}",
    ]


def position_lines(position: Position) -> list[str]:
    lines = ["position"]
    for seat in Seat:
        name = seat.name.lower()
        bridges = " ".join(line_name(k) for k in iter_bits(position.bridges[seat]))
        lines.append(f"  bridges {name} {bridges}".rstrip())
    for seat in Seat:
        lines.append(f"  hand {seat.name.lower()} {_names(position.hands[seat])}".rstrip())
    if position.options.variant2:
        for seat in Seat:
            open_cards = _names(position.open_cards[seat])
            lines.append(f"  open {seat.name.lower()} {open_cards}".rstrip())
    lines += [
        f"  face-up {_names(position.face_up)}".rstrip(),
        f"  pile {_names(position.pile)}".rstrip(),
        f"  played {_names(position.played)}".rstrip(),
        f"  face-down {_names(position.face_down)}".rstrip(),
        f"  round {position.round}",
        "  points " + " ".join(f"{w}:{b}" for w, b in position.round_points),
        f"  to-move {position.to_move.name.lower()}",
        f"  opponent-abstained {_yes(position.opponent_abstained)}",
    ]
    if position.phase is Phase.FINAL:
        lines.append(f"  final-turns-left {position.final_turns_left}")
    lines.append("end")
    return [line.rstrip() for line in lines]


def write_record(game: Game) -> str:
    """The complete record of a game so far: it holds every hidden card, so only the host
    (and the players once the game is over, if the host allows) should see it."""
    return record_from_log(
        game.options,
        game.first_player,
        game.log,
        position=game.start_position,
        result=game.result,
        scores=game.scores,
    )


def record_from_log(
    options: GameOptions,
    first: Seat,
    log: Sequence[LogEntry],
    *,
    position: Position | None = None,
    result: Result | None = None,
    scores: tuple[int, int] | None = None,
) -> str:
    """A game's record written from its log alone, without replaying it (a stored log and the
    game's start are enough). `result` and `scores` only feed the closing comment."""
    lines = _header(options)
    entries = list(log)
    if position is not None:
        lines += position_lines(position)
    else:
        deal = entries.pop(0) if entries else None
        if not isinstance(deal, Chance):
            raise LogError(0, "deal", "a fresh game's log starts with the deal")
        lines.append(f"first {first.name.lower()}")
        lines.append(f"deal {_names(deal.order)}")
    for entry in entries:
        if isinstance(entry, Move):
            lines.append(f"{entry.seat.name.lower()} {entry.action}")
        elif isinstance(entry, Ending):
            lines.append(ending_line(entry))
        else:
            lines.append(f"shuffle {_names(entry.order)}")
    if result is not None:
        winner = "draw" if result.winner is None else result.winner.name.lower()
        points = "" if scores is None else f"; points {scores[0]}:{scores[1]}"
        lines.append(f"# result: {winner} ({english_reason(result)}){points}")
    return "\n".join(lines) + "\n"


# The closing comment above, for a reader of the file: in English, as the file is; a replay says
# the result in its player's language instead (client/screens/replay.py).
CLOSING_COMMENT = re.compile(r"result: (?:white|black|draw) \(.+\)(?:; points \d+:\d+)?")

# An ending's record line: the seat's name, then these words (a draw agreed names no seat).
_ENDING_WORDS = {
    Termination.RESIGNED: "resigns",
    Termination.TIME: "loses on time",
    Termination.FORFEIT: "forfeits",
}
_AGREED_LINE = "draw agreed"
_ABANDONED_LINE = "game abandoned"  # a moderator closed the table


def ending_line(ending: Ending) -> str:
    """`white resigns`, `black loses on time`, `white forfeits`, `draw agreed` or `game
    abandoned`."""
    if ending.seat is None:
        return _ABANDONED_LINE if ending.kind is Termination.ABANDONED else _AGREED_LINE
    return f"{ending.seat.name.lower()} {_ENDING_WORDS[ending.kind]}"


def _read_ending(words: Sequence[str]) -> Ending | None:
    """The Ending a record line states, or None when the line is not an ending."""
    text = " ".join(w.lower() for w in words)
    if text == _AGREED_LINE:
        return Ending(Termination.AGREED, None)
    if text == _ABANDONED_LINE:
        return Ending(Termination.ABANDONED, None)
    seat_word, _, rest = text.partition(" ")
    for kind, phrase in _ENDING_WORDS.items():
        if rest == phrase and seat_word in ("white", "black"):
            return Ending(kind, Seat.parse(seat_word))
    return None


# ----- reading ----------------------------------------------------------------------------


@attrs.frozen
class ParsedRecord:
    """A record read but not yet replayed: the game's start and its log, with the record's line
    of each log entry so that a replay error can name it."""

    options: GameOptions
    first: Seat
    position: Position | None
    log: tuple[LogEntry, ...]
    lines: tuple[int, ...]

    def start(self, source: CardSource | None = None) -> Game:
        """The game before its first move (the deal or the position); its shuffles after that are
        `source`'s, by default the record's own."""
        if source is None:
            after = self.log if self.position is not None else self.log[1:]
            source = RecordedSource([e.order for e in after if isinstance(e, Chance)])
        return Game.from_log(
            self.options, self.first, self.log[:0] if self.position is not None else self.log[:1],
            position=self.position, source=source,
        )  # fmt: skip

    def replay(self, source: CardSource | None = None) -> Game:
        """The game after every move; RecordError names the line of a move that cannot be. Its
        shuffles after the record's end are `source`'s; by default there are none to have."""
        source = RecordedSource([]) if source is None else source
        try:
            return Game.from_log(
                self.options, self.first, self.log, position=self.position, source=source
            )
        except LogError as exc:
            # Every entry has its line; the deal's check cannot fail on a record read here.
            line = self.lines[min(exc.index, len(self.lines) - 1)] if self.lines else 1
            if exc.kind in _RECORD_WORDING:
                raise RecordError(line, _RECORD_WORDING[exc.kind], exc.kind) from None
            raise RecordError(line, exc.reason, "illegal", {"detail": exc.reason}) from None


# Log errors in a record's own words: there, chance entries are 'shuffle' lines.
_RECORD_WORDING = {
    "chance-missing": "this action reshuffles the discard pile; a 'shuffle' line must follow",
    "chance-stray": "no reshuffle happens here",
    "chance-impossible": "the shuffle is not an order of the discard pile's cards",
}


def _split(text: str) -> list[tuple[int, list[str]]]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((number, line.split()))
    return out


def _cards(number: int, words: Sequence[str]) -> tuple[int, ...]:
    try:
        return tuple(parse_island(w) for w in words)
    except ValueError as exc:
        raise RecordError(number, str(exc), "bad_card", {"detail": str(exc)}) from None


def _yes_no(number: int, word: str) -> bool:
    if word not in ("yes", "no"):
        raise RecordError(number, f"expected yes or no, not {word!r}", "yes_no", {"word": word})
    return word == "yes"


def _seat(number: int, word: str) -> Seat:
    try:
        return Seat.parse(word)
    except ValueError as exc:
        raise RecordError(number, str(exc), "bad_seat", {"word": word}) from None


def _parse_position(
    number: int, body: list[tuple[int, list[str]]], options: GameOptions
) -> Position:
    fields: dict[str, Any] = {}
    bridges = [0, 0]
    hands: list[tuple[int, ...]] = [(), ()]
    opened: list[tuple[int, ...]] = [(), ()]
    seen: set[str] = set()
    for line, words in body:
        key, args = words[0], words[1:]
        tag = key + (" " + args[0] if key in ("bridges", "hand", "open") and args else "")
        if tag in seen:
            raise RecordError(line, f"'{tag}' is given twice", "given_twice", {"word": tag})
        seen.add(tag)
        if key in ("bridges", "hand", "open"):
            if not args:
                raise RecordError(line, f"'{key}' names a seat first", "seat_first", {"word": key})
            seat = _seat(line, args[0])
            if key == "bridges":
                mask = 0
                for word in args[1:]:
                    try:
                        k = parse_line(word)
                    except ValueError as exc:
                        detail = {"detail": str(exc)}
                        raise RecordError(line, str(exc), "bad_line", detail) from None
                    if mask >> k & 1:
                        name = line_name(k)
                        raise RecordError(
                            line, f"{name} is listed twice", "listed_twice", {"word": name}
                        )
                    mask |= 1 << k
                bridges[seat] = mask
            elif key == "hand":
                hands[seat] = _cards(line, args[1:])
            else:
                opened[seat] = _cards(line, args[1:])
        elif key in ("face-up", "pile", "played", "face-down"):
            fields[key.replace("-", "_")] = _cards(line, args)
        elif key == "round":
            if len(args) != 1 or not args[0].isdigit():
                raise RecordError(line, "'round' takes a number", "round_number")
            fields["round"] = int(args[0])
        elif key == "points":
            points = []
            for word in args:
                w, _, b = word.partition(":")
                if not (w.isdigit() and b.isdigit()):
                    raise RecordError(
                        line,
                        f"points are written white:black, not {word!r}",
                        "points_format",
                        {"word": word},
                    )
                points.append((int(w), int(b)))
            fields["round_points"] = tuple(points)
        elif key == "to-move":
            fields["to_move"] = _seat(line, args[0] if args else "")
        elif key == "opponent-abstained":
            fields["opponent_abstained"] = _yes_no(line, args[0] if args else "")
        elif key == "final-turns-left":
            if len(args) != 1 or args[0] not in ("1", "2"):
                raise RecordError(line, "'final-turns-left' is 1 or 2", "final_turns_left")
            fields["final_turns_left"] = int(args[0])
            fields["phase"] = Phase.FINAL
        else:
            raise RecordError(line, f"unknown position line {key!r}", "unknown_line", {"word": key})
    position = Position(
        options=options,
        bridges=(bridges[0], bridges[1]),
        hands=(hands[0], hands[1]),
        open_cards=(opened[0], opened[1]),
        **fields,
    )
    try:
        position.validate()
    except PositionError as exc:
        raise RecordError(
            number, f"impossible position: {exc}", "impossible_position", {"detail": str(exc)}
        ) from None
    return position


def read_record(text: str) -> ParsedRecord:
    """Parse a record into the game's start and its log, without replaying it."""
    lines = _split(text)
    if not lines or " ".join(lines[0][1]) != MAGIC:
        first_line = lines[0][0] if lines else 1
        raise RecordError(
            first_line, f"a record starts with '{MAGIC}'", "not_a_record", {"word": MAGIC}
        )
    header: dict[str, tuple[int, list[str]]] = {}
    index = 1
    while index < len(lines) and lines[index][1][0] in ("variant1", "variant2", "handicap"):
        number, words = lines[index]
        if words[0] in header:
            raise RecordError(
                number, f"'{words[0]}' is given twice", "given_twice", {"word": words[0]}
            )
        header[words[0]] = (number, words[1:])
        index += 1
    options = _parse_options(header)
    if index >= len(lines):
        raise RecordError(lines[-1][0], "the record has no deal and no position", "no_deal")
    number, words = lines[index]
    log: list[LogEntry] = []
    numbers: list[int] = []
    position = None
    if words[0] == "position":
        end = index + 1
        while end < len(lines) and lines[end][1][0] != "end":
            end += 1
        if end >= len(lines):
            raise RecordError(number, "the position has no closing 'end' line", "no_end")
        position = _parse_position(number, lines[index + 1 : end], options)
        first = position.to_move
        index = end + 1
    elif words[0] == "first":
        first = _seat(number, words[1] if len(words) == 2 else "")
        index += 1
        if index >= len(lines) or lines[index][1][0] != "deal":
            raise RecordError(number, "'first' is followed by a 'deal' line", "deal_after_first")
        number, words = lines[index]
        deal = _cards(number, words[1:])
        if Counter(deal) != Counter(FULL_DECK):
            raise RecordError(
                number, "the deal is not the 24 cards, two of each island", "bad_deal"
            )
        log.append(Chance(deal))
        numbers.append(number)
        index += 1
    else:
        raise RecordError(number, "expected 'first' and 'deal', or 'position'", "no_start")
    for number, words in lines[index:]:
        ending = _read_ending(words)
        if words[0] == "shuffle":
            log.append(Chance(_cards(number, words[1:])))
        elif ending is not None:
            log.append(ending)
        else:
            seat = _seat(number, words[0])
            try:
                action = parse_action(" ".join(words[1:]))
            except NotationError as exc:
                detail = {"detail": str(exc)}
                raise RecordError(number, str(exc), "bad_action", detail) from None
            log.append(Move(seat, action))
        numbers.append(number)
    return ParsedRecord(options, first, position, tuple(log), tuple(numbers))


def _parse_options(header: dict[str, tuple[int, list[str]]]) -> GameOptions:
    values: dict[str, Any] = {}
    for key in ("variant1", "variant2"):
        if key in header:
            number, args = header[key]
            values[key] = _yes_no(number, args[0] if len(args) == 1 else "")
    if "handicap" in header:
        number, args = header["handicap"]
        if args != ["none"]:
            if len(args) != 2 or args[1] not in ("1", "2", "3"):
                raise RecordError(
                    number, "handicap is 'none' or a seat and 1-3 bridges", "handicap_format"
                )
            values["handicap_seat"] = _seat(number, args[0])
            values["handicap_bridges"] = int(args[1])
    try:
        return GameOptions(**values)
    except OptionsError as exc:
        detail = {"detail": str(exc)}
        raise RecordError(header["handicap"][0], str(exc), "bad_options", detail) from None


def split_records(text: str) -> list[tuple[int, str]]:
    """The records of a file of many (docs/records.md, "A file of many records"), each with the
    number of the file's line it starts at: a record begins at each `kahuna-record` line, and the
    comments and blank lines before it belong to it. A file of one record is one piece; one
    without any is one piece too, refused by whoever reads it."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, raw in enumerate(lines) if " ".join(raw.split("#", 1)[0].split()) == MAGIC]
    if len(starts) <= 1:
        return [(1, text)]
    bounds: list[int] = []
    for start in starts:
        first = start  # the comments and blank lines just before belong to it
        while first > 0 and lines[first - 1].split("#", 1)[0].strip() == "":
            first -= 1
        bounds.append(first if not bounds or first > bounds[-1] else start)
    bounds[0] = 0
    ends = [*bounds[1:], len(lines)]
    return [(b + 1, "".join(lines[b:e])) for b, e in zip(bounds, ends, strict=True)]


def replay(text: str) -> Game:
    """Replay a whole record; a broken record raises RecordError naming its line."""
    return read_record(text).replay()


# ----- the whole state as data -------------------------------------------------------------


def game_to_json(game: Game) -> dict[str, Any]:
    """The whole state, hidden parts included: records hold them anyway."""

    def seat_dict(seat: Seat) -> dict[str, Any]:
        return {
            "bridges": [line_name(k) for k in iter_bits(game.bridges[seat])],
            "tokens": [ISLANDS[i] for i in iter_bits(game.tokens[seat])],
            "hand": [ISLANDS[c] for c in _cards_of(game.hidden[seat])],
            "open_cards": [ISLANDS[c] for c in _cards_of(game.open[seat])],
            "points": game.scores[seat],
        }

    # The result's codes, and its sentence for a reader.
    result = None
    if game.result is not None:
        result = {**game.result.to_dict(), "reason": english_reason(game.result)}
    return {
        "phase": game.phase.value,
        "round": game.round,
        "to_move": game.to_move.name.lower(),
        "round_points": [list(p) for p in game.round_points],
        "white": seat_dict(Seat.WHITE),
        "black": seat_dict(Seat.BLACK),
        "face_up": [ISLANDS[c] for c in game.face_up],
        "pile": [ISLANDS[c] for c in game.pile],
        "played": [ISLANDS[c] for c in game.played],
        "face_down": [ISLANDS[c] for c in game.face_down],
        "actions": game.move_count,
        "result": result,
    }
