"""The Swiss pairing's rules as properties over random tournaments (docs/tournaments.md, "Swiss
pairing"): random sizes, rounds, results (forfeits included), withdrawals and late joins, every
round checked against what the rules allow, with the test's own reading of them. "Across score
groups only when needed" is checked exactly against every possible pairing where a round has at
most ten players to pair: no pairing at all does better on the hard rules, then the bye's
score, then the score differences. Deterministic (derandomize); KAHUNA_SWISS_EXAMPLES sets how
many tournaments (150 by default, a few seconds; 3000 for a long run)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.core.tournaments.model import Format, Round, Tournament, TournamentError
from server.core.tournaments.outcomes import Outcome
from server.core.tournaments.swiss import Relaxation
from shared.types import Seat

EXAMPLES = int(os.environ.get("KAHUNA_SWISS_EXAMPLES", "150"))
EXHAUSTIVE_UP_TO = 10  # players to pair in a round, the bye's place counted as one


def seats_played(t: Tournament, name: str, rounds: int) -> list[Seat]:
    """The test's own colour history: seats of games played (not forfeits) in the first
    `rounds` rounds."""
    seats = []
    for round_ in t.rounds[:rounds]:
        for game in round_.games:
            if game.outcome in (Outcome.WHITE_WON, Outcome.BLACK_WON, Outcome.DRAW):
                if game.white == name:
                    seats.append(Seat.WHITE)
                elif game.black == name:
                    seats.append(Seat.BLACK)
    return seats


def keeps_colour_rules(seats: list[Seat]) -> bool:
    diff = sum(1 if s is Seat.WHITE else -1 for s in seats)
    three = any(seats[i] is seats[i + 1] is seats[i + 2] for i in range(len(seats) - 2))
    return abs(diff) <= 2 and not three


def can_take(seats: list[Seat], seat: Seat) -> bool:
    after = [*seats, seat]
    diff = sum(1 if s is Seat.WHITE else -1 for s in after)
    return abs(diff) <= 2 and not (len(after) >= 3 and after[-1] is after[-2] is after[-3])


class Before:
    """What the test knows of the players to pair in round `number`, from the rounds before."""

    def __init__(self, t: Tournament, number: int) -> None:
        done = number - 1
        self.present = [e.name for e in t.entrants if e.in_round(number)]
        self.score = {n: t.half_points(n, done) for n in self.present}
        self.met = {
            n: {
                g.white if g.black == n else g.black
                for r in t.rounds[:done]
                for g in r.games
                if n in (g.white, g.black)
            }
            for n in self.present
        }
        self.had_bye = {n: any(r.bye == n for r in t.rounds[:done]) for n in self.present}
        self.seats = {n: seats_played(t, n, done) for n in self.present}
        self.can = {n: {s: can_take(self.seats[n], s) for s in Seat} for n in self.present}

    def colour_ok(self, a: str, b: str) -> bool:
        return any(self.can[a][s] and self.can[b][s.other] for s in (Seat.WHITE, Seat.BLACK))

    def hard(self, a: str, b: str | None) -> tuple[int, int, int]:
        """(second bye, repeat, colours) of a pair, b None for the bye."""
        if b is None:
            return (int(self.had_bye[a]), 0, 0)
        return (0, int(b in self.met[a]), int(not self.colour_ok(a, b)))

    def cost(self, pairs: list[tuple[str, str | None]]) -> tuple[int, ...]:
        """The terms the pairing minimises down to the score differences, summed."""
        lowest = min(self.score.values())
        hard = [self.hard(a, b) for a, b in pairs]
        bye_score = sum(self.score[a] - lowest for a, b in pairs if b is None)
        gaps = sum((self.score[a] - self.score[b]) ** 2 for a, b in pairs if b is not None)
        return (*(sum(h[k] for h in hard) for k in range(3)), bye_score, gaps)


def matchings(nodes: list[str | None]) -> Iterator[list[tuple[str, str | None]]]:
    """Every perfect matching of the nodes (None the bye, only ever last)."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    assert first is not None
    for k, other in enumerate(rest):
        for more in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *more]


def legal_pairing_exists(before: Before) -> bool:
    """Whether some pairing breaks no hard rule: a perfect matching on the legal pairs."""
    graph: nx.Graph[str] = nx.Graph()
    nodes = list(before.present) + (["\x00bye"] if len(before.present) % 2 else [])
    graph.add_nodes_from(nodes)
    for i, a in enumerate(before.present):
        for b in before.present[i + 1 :]:
            if before.hard(a, b) == (0, 0, 0):
                graph.add_edge(a, b)
        if len(before.present) % 2 and not before.had_bye[a]:
            graph.add_edge(a, "\x00bye")
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(nodes)


def check_round(t: Tournament, round_: Round) -> None:
    before = Before(t, round_.number)
    paired = [n for g in round_.games for n in (g.white, g.black)]
    if round_.bye is not None:
        paired.append(round_.bye)
    # every present player exactly once, nobody else
    assert sorted(paired) == sorted(before.present)
    # a bye exactly when the count is odd
    assert (round_.bye is not None) == (len(before.present) % 2 == 1)
    pairs: list[tuple[str, str | None]] = [(g.white, g.black) for g in round_.games]
    if round_.bye is not None:
        pairs.append((round_.bye, None))
    hard = [before.hard(a, b) for a, b in pairs]
    # what the round says it relaxed is what it broke
    broke = {
        Relaxation.SECOND_BYE: any(h[0] for h in hard),
        Relaxation.REPEAT: any(h[1] for h in hard),
        Relaxation.COLOURS: any(h[2] for h in hard),
    }
    assert {r for r, b in broke.items() if b} == set(round_.relaxed)
    if legal_pairing_exists(before):
        assert not round_.relaxed, (round_, before.present)
    # the seats given keep the colour rules for everyone unless colours were relaxed
    if Relaxation.COLOURS not in round_.relaxed:
        for g in round_.games:
            assert can_take(before.seats[g.white], Seat.WHITE)
            assert can_take(before.seats[g.black], Seat.BLACK)
    # score groups: exactly as good as the best of all pairings where they can be counted
    if len(before.present) + len(before.present) % 2 <= EXHAUSTIVE_UP_TO:
        nodes: list[str | None] = list(before.present)
        if len(nodes) % 2:
            nodes.append(None)
        best = min(before.cost(m) for m in matchings(nodes))
        assert before.cost(pairs) == best, (pairs, best)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[Tournament, random.Random, float, float]:
    size = draw(st.integers(2, 40))
    limit = min(9, size - 1 if size % 2 == 0 else size)
    rounds = draw(st.integers(1, limit))
    ratings = draw(st.lists(st.integers(1000, 2400), min_size=size, max_size=size))
    t = Tournament(Format.SWISS, rounds_planned=rounds)
    for i, rating in enumerate(ratings):
        t = t.join(f"p{i:02}", rating)
    rng = draw(st.randoms(use_true_random=False))
    leave = draw(st.sampled_from([0.0, 0.05, 0.15]))
    late = draw(st.sampled_from([0.0, 0.1, 0.3]))
    return t, rng, leave, late


OUTCOMES = [*Outcome]
WEIGHTS = [30, 30, 25, 5, 5, 5]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tournaments())
def test_random_swiss_tournaments_keep_the_pairing_rules(
    case: tuple[Tournament, random.Random, float, float],
) -> None:
    t, rng, leave, late = case
    joined = len(t.entrants)
    while len(t.rounds) < t.rounds_planned:
        if sum(e.in_round(len(t.rounds) + 1) for e in t.entrants) < 2:
            with pytest.raises(TournamentError, match="too_few_players"):
                t.pair_next_round()
            break
        t = t.pair_next_round()
        round_ = t.rounds[-1]
        check_round(t, round_)
        for game in round_.games:
            t = t.record(round_.number, game.white, rng.choices(OUTCOMES, WEIGHTS)[0])
        for entrant in t.entrants:
            if entrant.left is None and rng.random() < leave:
                t = t.withdraw(entrant.name, removed=rng.random() < 0.3)
        if len(t.rounds) < t.rounds_planned and rng.random() < late:
            t = t.join(f"late{joined}", rng.randrange(1000, 2400))
            joined += 1
    # at most one bye a round, never twice to one player unless a round said so
    byes = [r.bye for r in t.rounds if r.bye is not None]
    if not any(Relaxation.SECOND_BYE in r.relaxed for r in t.rounds):
        assert len(byes) == len(set(byes))
    # no pair twice unless a round said so
    if not any(Relaxation.REPEAT in r.relaxed for r in t.rounds):
        pairs = [frozenset((g.white, g.black)) for r in t.rounds for g in r.games]
        assert len(pairs) == len(set(pairs))
    # the colour rules over the whole tournament unless a round relaxed them
    if not any(Relaxation.COLOURS in r.relaxed for r in t.rounds):
        for entrant in t.entrants:
            assert keeps_colour_rules(seats_played(t, entrant.name, len(t.rounds)))
