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

from server.core.tournaments.model import Game, Tournament
from server.core.tournaments.outcomes import WIN

HALF = Fraction(1, 2)


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


def cells(tournament: Tournament, name: str) -> list[Cell]:
    """A player's rounds, from the first paired."""
    row = []
    bye = Fraction(tournament.bye_points(), 2)
    for round_ in tournament.rounds:
        game = round_.game_of(name)
        if round_.bye == name:
            row.append(Cell(bye, None))
        elif game is None:
            row.append(Cell(Fraction(0), None))  # absent: not yet joined, or gone
        elif game.outcome is None:
            row.append(Cell(Fraction(0), None, counted=False))
        else:
            seat = game.seat_of(name)
            assert seat is not None
            points = Fraction(game.outcome.half_points(seat), 2)
            row.append(Cell(points, game.opponent(name) if game.outcome.played else None))
    return row


def virtual_opponent(row: list[Cell], number: int) -> Fraction:
    """FIDE's virtual opponent of an unplayed round `number` (from 1), after the rounds so far:
    the player's score before it, plus the opposite of their result in it, plus a draw in each
    round after it."""
    before = sum((c.points for c in row[: number - 1] if c.counted), Fraction(0))
    return before + (1 - row[number - 1].points) + HALF * (len(row) - number)


def standings(tournament: Tournament) -> list[Standing]:
    """The table, first place first."""
    rows = {e.name: cells(tournament, e.name) for e in tournament.entrants}
    points = {
        name: sum((c.points for c in row if c.counted), Fraction(0)) for name, row in rows.items()
    }
    swiss = tournament.swiss
    # the score an opponent brings to the others' tie-breaks
    if swiss:
        brought = {
            name: sum((c.points if c.opponent else HALF for c in row if c.counted), Fraction(0))
            for name, row in rows.items()
        }
    else:
        brought = points
    buchholz: dict[str, Fraction] = {}
    sonneborn: dict[str, Fraction] = {}
    wins: dict[str, int] = {}
    for name, row in rows.items():
        parts: list[tuple[Fraction, Fraction]] = []  # (opponent's score, own points)
        for number, cell in enumerate(row, start=1):
            if not cell.counted:
                continue
            if cell.opponent is not None:
                parts.append((brought[cell.opponent], cell.points))
            elif swiss:
                parts.append((virtual_opponent(row, number), cell.points))
        scores = sorted(score for score, _ in parts)
        buchholz[name] = sum(scores[1:], Fraction(0)) if swiss else Fraction(0)
        sonneborn[name] = sum((score * own for score, own in parts), Fraction(0))
        wins[name] = sum(_won(game, name) for _, game in tournament.games_of(name))
    if swiss:

        def before(n: str) -> tuple[Fraction, ...]:
            return (points[n], buchholz[n], sonneborn[n])
    else:

        def before(n: str) -> tuple[Fraction, ...]:
            return (points[n], sonneborn[n])

    seed = {e.name: i for i, e in enumerate(tournament.seeded())}
    order = sorted(rows, key=lambda n: (_negated(before(n)), seed[n]))
    direct = {name: Fraction(0) for name in rows}
    for group in _runs(order, before):
        if len(group) > 1:
            direct.update(_direct_encounter(tournament, group))

    def key(n: str) -> tuple[Fraction, ...]:
        return (*before(n), direct[n], Fraction(wins[n]))

    order = sorted(rows, key=lambda n: (_negated(key(n)), seed[n]))
    table = []
    place = 0
    for i, name in enumerate(order):
        if i == 0 or key(name) != key(order[i - 1]):
            place = i + 1
        entrant = tournament.entrant(name)
        assert entrant is not None
        table.append(
            Standing(
                place,
                name,
                points[name],
                buchholz[name],
                sonneborn[name],
                direct[name],
                wins[name],
                entrant.left is not None,
            )
        )
    return table


def _won(game: Game, name: str) -> bool:
    """Won on the board or by forfeit (a bye is no game)."""
    seat = game.seat_of(name)
    return seat is not None and game.outcome is not None and game.outcome.half_points(seat) == WIN


def _negated(values: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    return tuple(-v for v in values)


def _runs(order: list[str], key: Callable[[str], tuple[Fraction, ...]]) -> list[list[str]]:
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
