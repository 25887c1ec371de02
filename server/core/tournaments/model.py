"""A tournament as plain data: its entrants, its rounds of games and byes, and the changes a
director or a player makes (join, withdraw, remove, a result, the next round paired), each a
new `Tournament` or a `TournamentError` with a code. No clock and no I/O: the server keeps it,
stores it and makes the tables of its games."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum

import attrs

from server.core.tournaments.colours import ColourHistory
from server.core.tournaments.outcomes import WIN, Outcome
from server.core.tournaments.round_robin import berger_round, cycle_length
from server.core.tournaments.swiss import Relaxation, SwissPairing, SwissPlayer, pair_round
from shared.types import Seat


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"  # every pair once
    DOUBLE_ROUND_ROBIN = "double_round_robin"  # every pair twice, the seats swapped


class TournamentError(Exception):
    """A change refused, by code (docs/tournaments.md lists them)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@attrs.frozen
class Entrant:
    """A player: `rating` at the moment of joining (the seed), `joined` the first round they
    can be paired in, `left` the last round they were in after withdrawing or being removed
    (their games up to it stand), `removed` when the director took them out."""

    name: str
    rating: float
    joined: int = 1
    left: int | None = None
    removed: bool = False

    def in_round(self, number: int) -> bool:
        return self.joined <= number and (self.left is None or number <= self.left)


@attrs.frozen
class Game:
    """One game of a round. `first` is the seat that moves first: a tournament's tables are
    dealt with White moving first (docs/tournaments.md, "Colours"), kept with the game so that
    its record says so. `outcome` is None while it is played."""

    white: str
    black: str
    outcome: Outcome | None = None
    first: Seat = Seat.WHITE

    def seat_of(self, name: str) -> Seat | None:
        return Seat.WHITE if name == self.white else Seat.BLACK if name == self.black else None

    def opponent(self, name: str) -> str:
        return self.black if name == self.white else self.white


@attrs.frozen
class Round:
    """A round's games by board, the player with the bye (Swiss: worth a win; round-robin: a
    round off, worth nothing) and the rules its Swiss pairing had to break."""

    number: int
    games: tuple[Game, ...]
    bye: str | None = None
    relaxed: frozenset[Relaxation] = frozenset()

    @property
    def finished(self) -> bool:
        return all(game.outcome is not None for game in self.games)

    def game_of(self, name: str) -> Game | None:
        return next((g for g in self.games if name in (g.white, g.black)), None)


@attrs.frozen
class Tournament:
    """The whole state of one tournament. `rounds_planned` is the Swiss's number of rounds; a
    round-robin's follows from its entrants when it starts."""

    format: Format
    rounds_planned: int = 0
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    finished: bool = False

    # --- reading

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def swiss(self) -> bool:
        return self.format is Format.SWISS

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def total_rounds(self) -> int:
        if self.swiss:
            return self.rounds_planned
        players = len(self.entrants)
        cycles = 2 if self.format is Format.DOUBLE_ROUND_ROBIN else 1
        return cycle_length(players) * cycles if players >= 2 else 0

    def entrant(self, name: str) -> Entrant | None:
        return next((e for e in self.entrants if e.name == name), None)

    def seeded(self) -> tuple[Entrant, ...]:
        """The entrants by seed: rating, highest first, then name (a late joiner takes the
        place of their rating)."""
        return tuple(sorted(self.entrants, key=lambda e: (-e.rating, e.name)))

    def bye_points(self) -> int:
        """A bye's half-points: a win in a Swiss (as Lichess and FIDE's pairing-allocated bye);
        nothing in a round-robin, where everyone sits out once."""
        return WIN if self.swiss else 0

    def half_points(self, name: str, rounds: int | None = None) -> int:
        """A player's points in half-points after `rounds` rounds (all of them by default)."""
        total = 0
        for round_ in self.rounds[:rounds]:
            if round_.bye == name:
                total += self.bye_points()
            game = round_.game_of(name)
            if game is not None and game.outcome is not None:
                seat = game.seat_of(name)
                assert seat is not None
                total += game.outcome.half_points(seat)
        return total

    def games_of(self, name: str) -> Iterator[tuple[int, Game]]:
        for round_ in self.rounds:
            game = round_.game_of(name)
            if game is not None:
                yield round_.number, game

    # --- changes

    def join(self, name: str, rating: float) -> Tournament:
        """Joined before the start, or a Swiss under way: into the next round to be paired,
        with no points for the rounds missed (as Lichess)."""
        self._open()
        if self.entrant(name) is not None:
            raise TournamentError("already_joined")
        if self.started and not self.swiss:
            raise TournamentError("round_robin_started")
        if self.swiss and len(self.rounds) >= self.rounds_planned:
            raise TournamentError("no_round_left")
        entrant = Entrant(name, rating, joined=len(self.rounds) + 1)
        return attrs.evolve(self, entrants=(*self.entrants, entrant))

    def withdraw(self, name: str, *, removed: bool = False) -> Tournament:
        """Out before the start (gone from the list), or after it: paired no more, the games
        already paired stand (to be played, or forfeited). A round-robin's later games against
        them are forfeit wins to their opponents. `removed`: the director's doing."""
        self._open()
        entrant = self.entrant(name)
        if entrant is None:
            raise TournamentError("not_joined")
        if entrant.left is not None:
            raise TournamentError("already_withdrawn")
        if not self.started:
            return attrs.evolve(self, entrants=tuple(e for e in self.entrants if e.name != name))
        out = attrs.evolve(entrant, left=len(self.rounds), removed=removed)
        return attrs.evolve(
            self, entrants=tuple(out if e.name == name else e for e in self.entrants)
        )

    def record(self, number: int, name: str, outcome: Outcome) -> Tournament:
        """The result of the game of round `number` that `name` plays; a result is final."""
        if not 1 <= number <= len(self.rounds):
            raise TournamentError("no_such_round")
        round_ = self.rounds[number - 1]
        game = round_.game_of(name)
        if game is None:
            raise TournamentError("no_such_game")
        if game.outcome is not None:
            raise TournamentError("result_recorded")
        done = attrs.evolve(game, outcome=outcome)
        games = tuple(done if g is game else g for g in round_.games)
        rounds = list(self.rounds)
        rounds[number - 1] = attrs.evolve(round_, games=games)
        return attrs.evolve(self, rounds=tuple(rounds))

    def pair_next_round(self) -> Tournament:
        """The next round paired: the Swiss's by weighted matching of those present, the
        round-robin's from Berger's table. Refused while a game of the round is on, when no
        round is left, or with fewer than two players to pair."""
        if self.swiss:
            return self.with_swiss_round(pair_round(self.to_pair()))
        number = self._next_number()
        return attrs.evolve(self, rounds=(*self.rounds, self._round_robin_round(number)))

    def to_pair(self) -> tuple[SwissPlayer, ...]:
        """What the Swiss pairing of the next round is given (`swiss_players`), refused as
        `pair_next_round` is. The server pairs it off its event loop and hands the pairing
        back to `with_swiss_round`."""
        if not self.swiss:
            raise ValueError("a round-robin's rounds are Berger's tables: pair_next_round")
        return tuple(self.swiss_players(self._next_number()))

    def with_swiss_round(self, pairing: SwissPairing) -> Tournament:
        """The next round of a Swiss as `pairing` pairs it (pair_round of `to_pair()`): refused
        as `pair_next_round` is, and where it does not pair exactly those present."""
        number = self._next_number()
        present = {e.name for e in self.entrants if e.in_round(number)}
        paired = [name for game in pairing.games for name in game]
        if pairing.bye is not None:
            paired.append(pairing.bye)
        if len(paired) != len(present) or set(paired) != present:
            raise ValueError("the pairing is not of the players present")
        games = tuple(Game(white, black) for white, black in pairing.games)
        new = Round(number, games, pairing.bye, pairing.relaxed)
        return attrs.evolve(self, rounds=(*self.rounds, new))

    def _next_number(self) -> int:
        """The next round's number, where it may be paired now (else a TournamentError)."""
        self._open()
        if self.current is not None and not self.current.finished:
            raise TournamentError("round_unfinished")
        number = len(self.rounds) + 1
        if number > self.total_rounds:
            raise TournamentError("no_round_left")
        if sum(e.in_round(number) for e in self.entrants) < 2:
            raise TournamentError("too_few_players")
        return number

    def numbered(self, names: list[str]) -> Tournament:
        """The entrants put in this order before the start: a round-robin's numbers in Berger's
        table (`round_robin.draw_numbers` draws them by lot)."""
        if self.started:
            raise TournamentError("started")
        if sorted(names) != sorted(e.name for e in self.entrants):
            raise ValueError("the order names every entrant once")
        by_name = {e.name: e for e in self.entrants}
        return attrs.evolve(self, entrants=tuple(by_name[name] for name in names))

    def end(self) -> Tournament:
        return attrs.evolve(self, finished=True)

    # --- pairing

    def swiss_players(self, number: int) -> list[SwissPlayer]:
        """What the Swiss pairing of round `number` is given: those present, with their score,
        opponents, seats of their played games and whether they had a bye."""
        rank = {e.name: i for i, e in enumerate(self.seeded())}
        # each player's games and byes in one pass over the rounds, not one a player
        games: dict[str, list[Game]] = {}
        byes: dict[str, int] = {}
        for round_ in self.rounds:
            if round_.bye is not None:
                byes[round_.bye] = byes.get(round_.bye, 0) + 1
            for game in round_.games:
                games.setdefault(game.white, []).append(game)
                games.setdefault(game.black, []).append(game)
        players = []
        for entrant in self.entrants:
            if not entrant.in_round(number):
                continue
            name = entrant.name
            own = games.get(name, [])
            met = frozenset(game.opponent(name) for game in own)
            seats = tuple(
                Seat.WHITE if game.white == name else Seat.BLACK
                for game in own
                if game.outcome is not None and game.outcome.played
            )
            score = byes.get(name, 0) * self.bye_points() + sum(
                game.outcome.half_points(Seat.WHITE if game.white == name else Seat.BLACK)
                for game in own
                if game.outcome is not None
            )
            players.append(
                SwissPlayer(name, rank[name], score, met, ColourHistory(seats), name in byes)
            )
        return players

    def _round_robin_round(self, number: int) -> Round:
        order = [e.name for e in self.entrants]  # the table's numbers: the order of joining
        games: list[Game] = []
        bye = None
        for white, black in berger_round(len(order), number):
            if white is None or black is None:
                resting = black if white is None else white
                assert resting is not None
                bye = order[resting]
                continue
            game = Game(order[white], order[black])
            gone = [s for s in (Seat.WHITE, Seat.BLACK) if not self._present(game, s, number)]
            if len(gone) == 2:
                game = attrs.evolve(game, outcome=Outcome.DOUBLE_FORFEIT)
            elif gone:
                game = attrs.evolve(game, outcome=Outcome.forfeit_against(gone[0]))
            games.append(game)
        return Round(number, tuple(games), bye)

    def _present(self, game: Game, seat: Seat, number: int) -> bool:
        entrant = self.entrant(game.white if seat is Seat.WHITE else game.black)
        return entrant is not None and entrant.in_round(number)

    def _open(self) -> None:
        if self.finished:
            raise TournamentError("tournament_finished")
