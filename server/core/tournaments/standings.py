"""A tournament's standings: points, then the tie-breaks in the documented order
(docs/tournaments.md, "Standings"). Swiss: Buchholz cut 1, Sonneborn-Berger, direct encounter,
wins; round-robin: Sonneborn-Berger, direct encounter, wins. A Swiss's unplayed rounds (a bye, a
forfeit either way, a round missed by a late joiner or after a withdrawal) count as games
against FIDE's virtual opponent (the tie-break regulations of 2009 to 2022), and an opponent's
own unplayed rounds count as draws in the scores the others' tie-breaks add up."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import attrs

from server.core.tournaments.model import Tournament
from server.core.tournaments.outcomes import WIN


@attrs.frozen
class Standing:
    """One line of the table. `place` is shared by players equal on everything; `buchholz` is
    Buchholz cut 1 (0 in a round-robin, which does not use it)."""

    place: int
    name: str
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    direct_encounter: Fraction
    wins: int
    withdrawn: bool


@attrs.frozen
class Cell:
    """One player's round: the points, the opponent of a played game (None for an unplayed
    round), and whether it counts yet (False while the game is on)."""

    points: Fraction
    opponent: str | None
    counted: bool = True


# The work is done in integers, exactly: points and the scores of Buchholz and the direct
# encounter in half-points, Sonneborn-Berger (a score times a result) in quarter-points; only
# the table's figures are made fractions. Fractions throughout took 9 ms for 64 players after
# seven rounds, and the standings are worked out whenever a tournament's watchers are told.


@attrs.frozen
class _Cell:
    """A Cell in half-points, with whether it is a game won (on the board or by forfeit)."""

    halves: int
    opponent: str | None
    counted: bool = True
    won: bool = False


def _rows(tournament: Tournament) -> dict[str, list[_Cell]]:
    """Every entrant's rounds, from the first paired."""
    bye = tournament.bye_points()
    by_name = [
        {name: game for game in round_.games for name in (game.white, game.black)}
        for round_ in tournament.rounds
    ]
    rows: dict[str, list[_Cell]] = {}
    for entrant in tournament.entrants:
        name = entrant.name
        row = []
        for round_, games in zip(tournament.rounds, by_name, strict=True):
            game = games.get(name)
            if round_.bye == name:
                row.append(_Cell(bye, None))
            elif game is None:
                row.append(_Cell(0, None))  # absent: not yet joined, or gone
            elif game.outcome is None:
                row.append(_Cell(0, None, counted=False))
            else:
                seat = game.seat_of(name)
                assert seat is not None
                halves = game.outcome.half_points(seat)
                opponent = game.opponent(name) if game.outcome.played else None
                row.append(_Cell(halves, opponent, won=halves == WIN))
        rows[name] = row
    return rows


def _virtual_halves(row: list[_Cell], number: int) -> int:
    """virtual_opponent in half-points."""
    before = sum(c.halves for c in row[: number - 1] if c.counted)
    return before + (WIN - row[number - 1].halves) + (len(row) - number)


def virtual_opponent(row: list[Cell], number: int) -> Fraction:
    """FIDE's virtual opponent of an unplayed round `number` (from 1), after the rounds so far:
    the player's score before it, plus the opposite of their result in it, plus a draw in each
    round after it."""
    halves = [_Cell(int(c.points * 2), c.opponent, c.counted) for c in row]
    return Fraction(_virtual_halves(halves, number), 2)


def standings(tournament: Tournament) -> list[Standing]:
    """The table, first place first."""
    rows = _rows(tournament)
    points = {name: sum(c.halves for c in row if c.counted) for name, row in rows.items()}
    swiss = tournament.swiss
    # the score an opponent brings to the others' tie-breaks (an unplayed round: a draw)
    if swiss:
        brought = {
            name: sum(c.halves if c.opponent else 1 for c in row if c.counted)
            for name, row in rows.items()
        }
    else:
        brought = points
    buchholz: dict[str, int] = {}  # half-points
    sonneborn: dict[str, int] = {}  # quarter-points
    wins: dict[str, int] = {}
    for name, row in rows.items():
        parts: list[tuple[int, int]] = []  # (opponent's score, own points)
        for number, cell in enumerate(row, start=1):
            if not cell.counted:
                continue
            if cell.opponent is not None:
                parts.append((brought[cell.opponent], cell.halves))
            elif swiss:
                parts.append((_virtual_halves(row, number), cell.halves))
        scores = sorted(score for score, _ in parts)
        buchholz[name] = sum(scores[1:]) if swiss else 0
        sonneborn[name] = sum(score * own for score, own in parts)
        wins[name] = sum(c.won for c in row)
    if swiss:

        def before(n: str) -> tuple[int, ...]:
            return (points[n], buchholz[n], sonneborn[n])
    else:

        def before(n: str) -> tuple[int, ...]:
            return (points[n], sonneborn[n])

    seed = {e.name: i for i, e in enumerate(tournament.seeded())}
    order = sorted(rows, key=lambda n: (_negated(before(n)), seed[n]))
    direct = {name: 0 for name in rows}
    for group in _runs(order, before):
        if len(group) > 1:
            direct.update((n, int(v * 2)) for n, v in _direct_encounter(tournament, group).items())

    def key(n: str) -> tuple[int, ...]:
        return (*before(n), direct[n], wins[n])

    order = sorted(rows, key=lambda n: (_negated(key(n)), seed[n]))
    withdrawn = {e.name: e.left is not None for e in tournament.entrants}
    table = []
    place = 0
    for i, name in enumerate(order):
        if i == 0 or key(name) != key(order[i - 1]):
            place = i + 1
        table.append(
            Standing(
                place,
                name,
                Fraction(points[name], 2),
                Fraction(buchholz[name], 2),
                Fraction(sonneborn[name], 4),
                Fraction(direct[name], 2),
                wins[name],
                withdrawn[name],
            )
        )
    return table


def _negated(values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-v for v in values)


def _runs(order: list[str], key: Callable[[str], tuple[int, ...]]) -> list[list[str]]:
    """The runs of players equal on `key`, in order."""
    runs: list[list[str]] = []
    for name in order:
        if runs and key(runs[-1][0]) == key(name):
            runs[-1].append(name)
        else:
            runs.append([name])
    return runs


def _direct_encounter(tournament: Tournament, group: list[str]) -> dict[str, Fraction]:
    """The points each of a tied group scored against the others, where every two of them have
    a result against each other (forfeits included); all zero otherwise, which decides
    nothing."""
    members = set(group)
    scored = {name: Fraction(0) for name in group}
    met: set[frozenset[str]] = set()
    for round_ in tournament.rounds:
        for game in round_.games:
            if game.outcome is None or not {game.white, game.black} <= members:
                continue
            met.add(frozenset((game.white, game.black)))
            for name in (game.white, game.black):
                seat = game.seat_of(name)
                assert seat is not None
                scored[name] += Fraction(game.outcome.half_points(seat), 2)
    pairs = len(group) * (len(group) - 1) // 2
    if len(met) < pairs:
        return {name: Fraction(0) for name in group}
    return scored
