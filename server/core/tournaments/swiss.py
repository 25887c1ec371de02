"""One round of a Swiss tournament, paired by networkx's maximum-weight matching under the
weights docs/tournaments.md explains ("Swiss pairing"): every pair's cost is a list of terms in
order of importance, and the weights make each term outweigh everything below it over a whole
round, so the matching minimises the terms one after the other. The hard rules (no second bye,
no pair twice, the absolute colour rules) are the three heaviest terms: a pairing that keeps them
all is always preferred, and where none exists the matching breaks the fewest of the lightest
first (colours, then a repeat, then a second bye) and says so in `SwissPairing.relaxed`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from itertools import islice

import attrs
import networkx as nx

from server.core.tournaments.colours import ColourHistory, same_wish_of, seat_of_higher
from shared.types import Seat

BYE = "\x00bye"  # the bye's node in the graph: no account name holds a NUL
# Up to this many players every pair is an edge; above, the candidates first (_candidates)
EXACT_UP_TO = 24
WINDOW = 4


class Relaxation(StrEnum):
    """A hard rule a round had to break because no pairing kept them all."""

    COLOURS = "colours"
    REPEAT = "repeat"
    SECOND_BYE = "second_bye"


@attrs.frozen
class SwissPlayer:
    """What the pairing knows of one player to pair: `rank` is the order at the start (0 the
    top seed, by rating), `score` in half-points."""

    name: str
    rank: int
    score: int
    met: frozenset[str] = frozenset()
    colours: ColourHistory = attrs.field(factory=ColourHistory)
    had_bye: bool = False


@attrs.frozen
class SwissPairing:
    """A round: the games as (white, black) by board, the bye's player, the rules broken."""

    games: tuple[tuple[str, str], ...]
    bye: str | None
    relaxed: frozenset[Relaxation] = frozenset()


@attrs.frozen
class Cost:
    """A pair's (or a bye's) cost, term by term, the heaviest first."""

    second_bye: int = 0
    repeat: int = 0
    colours: int = 0
    bye_score: int = 0
    score_gap: int = 0
    colour_wish: int = 0
    order: int = 0

    @property
    def hard(self) -> bool:
        return bool(self.second_bye or self.repeat or self.colours)

    def terms(self) -> tuple[int, int, int, int, int, int, int]:
        return (
            self.second_bye,
            self.repeat,
            self.colours,
            self.bye_score,
            self.score_gap,
            self.colour_wish,
            self.order,
        )


def pair_round(players: Sequence[SwissPlayer], *, exact: bool = False) -> SwissPairing:
    """Pairs every player given (those present for the round), with one bye for an odd count.
    Above EXACT_UP_TO players the candidate pairs are tried first, unless `exact`."""
    if len({p.name for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    if not players:
        return SwissPairing((), None)
    ordered = sorted(players, key=lambda p: (-p.score, p.rank))
    if len(ordered) > EXACT_UP_TO and not exact:
        # a bye above the lowest score that may have one can mean that the candidates left out
        # the pairs that would have kept it there: then the next ones are tried
        lowest_bye = min((p.score for p in ordered if not p.had_bye), default=None)
        for choose in (_candidates, _fitting_candidates):
            candidates = pair_costs(ordered, choose(ordered))
            matching = _solve(candidates, len(ordered), keep_hard=False)
            if matching is not None:
                pairing = _round(ordered, matching, candidates)
                bye = next((p.score for p in ordered if p.name == pairing.bye), lowest_bye)
                if bye == lowest_bye:
                    return pairing
    costs = pair_costs(ordered)
    matching = _solve(costs, len(ordered), keep_hard=False)
    if matching is None:
        matching = _solve(costs, len(ordered), keep_hard=True)
        assert matching is not None  # every pair is an edge: a perfect matching exists
    return _round(ordered, matching, costs)


def _candidates(ordered: Sequence[SwissPlayer]) -> list[tuple[int, int]]:
    """The pairs worth trying first in a large round, as positions: within a score group those
    near the Dutch opponent (the other half, WINDOW either side), across groups only the
    nearest ends of neighbouring groups. networkx's matching takes time with the edges, and a
    round of 200 players has 20,000 pairs but needs few of them."""
    starts = [0] + [i for i in range(1, len(ordered)) if ordered[i].score != ordered[i - 1].score]
    ends = [*starts[1:], len(ordered)]
    pairs: list[tuple[int, int]] = []
    for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
        size = end - start
        half = size // 2
        for i in range(start, end):
            for j in range(i + 1, end):
                if size <= 2 * WINDOW or abs(j - i - half) <= WINDOW:
                    pairs.append((i, j))
        if k + 1 < len(starts):
            below_end = ends[k + 1]
            for i in range(max(start, end - 2 * WINDOW), end):
                for j in range(end, min(below_end, end + 2 * WINDOW)):
                    pairs.append((i, j))
    return pairs


def _fitting_candidates(ordered: Sequence[SwissPlayer]) -> list[tuple[int, int]]:
    """The pairs to try where `_candidates` leave someone unpaired, as positions: each player's
    nearest WINDOW (either side) of those they may meet, keeping the hard rules, around their
    Dutch opponent in their score group, and around the same depth in each of the two groups
    below and above (the n-th from the bottom of a group with the n-th from the top of the
    next, looked for from both ends so that a few players who cannot float do not push the
    others out of reach), and there also WINDOW either side of the n-th of those who would
    leave both colour wishes. Where colour histories are alike (everyone at the top has had
    Black twice running and must be White) whole score groups float, deeper than `_candidates`
    reach, yet each player still needs only a few edges: some 3,000 for 200 players rather
    than every allowed pair."""
    starts = [0] + [i for i in range(1, len(ordered)) if ordered[i].score != ordered[i - 1].score]
    ends = [*starts[1:], len(ordered)]

    allowed = [(p.colours.allows(Seat.WHITE), p.colours.allows(Seat.BLACK)) for p in ordered]

    def fits(i: int, j: int) -> bool:
        (a_white, a_black), (b_white, b_black) = allowed[i], allowed[j]
        return ((a_white and b_black) or (a_black and b_white)) and (
            ordered[j].name not in ordered[i].met
        )

    def nearest(i: int, target: int, lo: int, hi: int) -> list[int]:
        target = min(max(target, lo), hi)
        up = (j for j in range(target, hi) if j != i and fits(i, j))
        down = (j for j in range(target - 1, lo - 1, -1) if j != i and fits(i, j))
        return [*islice(up, WINDOW), *islice(down, WINDOW)]

    wishes = [p.colours.preference for p in ordered]

    def suited(i: int, rank: int, group: Iterable[int]) -> list[int]:
        """Those in `group` (in the order given) whom i may meet and who leave both colour
        wishes, WINDOW either side of the `rank`-th of them."""
        fitting = (j for j in group if fits(i, j) and not same_wish_of(*wishes[i], *wishes[j]))
        return list(islice(fitting, max(rank - WINDOW, 0), rank + WINDOW))

    pairs: set[tuple[int, int]] = set()
    for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
        half = (end - start) // 2
        for i in range(start, end):
            # the Dutch opponent of the top half is below, of the bottom half above
            for target in (i + half, i - half):
                pairs.update((min(i, j), max(i, j)) for j in nearest(i, target, start, end))
            depth = end - 1 - i
            for lo, hi in zip(starts[k + 1 : k + 3], ends[k + 1 : k + 3], strict=False):
                pairs.update((i, j) for j in nearest(i, lo + depth, lo, hi))
                pairs.update((i, j) for j in suited(i, depth, range(lo, hi)))
            for lo, hi in zip(starts[max(k - 2, 0) : k], ends[max(k - 2, 0) : k], strict=False):
                pairs.update((j, i) for j in nearest(i, hi - 1 - (i - start), lo, hi))
                pairs.update((j, i) for j in suited(i, i - start, range(hi - 1, lo - 1, -1)))
    return sorted(pairs)


def pair_costs(
    ordered: Sequence[SwissPlayer], pairs: Iterable[tuple[int, int]] | None = None
) -> dict[tuple[str, str], Cost]:
    """The cost of each pair of positions (i, j), i < j, in the order given (score, then rank),
    keyed (higher's name, lower's name) — every pair when `pairs` is None — and each player's
    bye as (player, BYE) when the count is odd."""
    groups: dict[int, list[SwissPlayer]] = {}
    for player in ordered:
        groups.setdefault(player.score, []).append(player)
    index = {p.name: i for group in groups.values() for i, p in enumerate(group)}
    allowed = [(p.colours.allows(Seat.WHITE), p.colours.allows(Seat.BLACK)) for p in ordered]
    wishes = [p.colours.preference for p in ordered]
    if pairs is None:
        pairs = ((i, j) for i in range(len(ordered)) for j in range(i + 1, len(ordered)))
    costs: dict[tuple[str, str], Cost] = {}
    for i, j in pairs:
        a, b = ordered[i], ordered[j]
        gap = a.score - b.score
        if gap == 0:
            half = len(groups[a.score]) // 2
            order = abs(index[b.name] - index[a.name] - half)
        else:  # the lowest of the upper group should meet the top of the lower
            order = len(groups[a.score]) - 1 - index[a.name] + index[b.name]
        (a_white, a_black), (b_white, b_black) = allowed[i], allowed[j]
        (wish_a, strength_a), (wish_b, strength_b) = wishes[i], wishes[j]
        costs[a.name, b.name] = Cost(
            repeat=int(b.name in a.met),
            colours=int(not (a_white and b_black) and not (a_black and b_white)),
            score_gap=gap * gap,
            colour_wish=same_wish_of(wish_a, strength_a, wish_b, strength_b),
            order=order,
        )
    if len(ordered) % 2:
        lowest = ordered[-1].score
        for below, p in enumerate(reversed(ordered)):
            costs[p.name, BYE] = Cost(
                second_bye=int(p.had_bye), bye_score=p.score - lowest, order=below
            )
    return costs


def weights(costs: dict[tuple[str, str], Cost], players: int) -> dict[tuple[str, str], int]:
    """The costs as integer weights of a maximum-weight matching: each term's unit is larger
    than the most all the lighter terms can add up to over one round, so a matching of the
    greatest weight minimises the terms in order (lexicographically). Integers keep networkx's
    algorithm exact."""
    edges = (players + 1) // 2
    terms = {pair: cost.terms() for pair, cost in costs.items()}
    bounds = [max(column, default=0) for column in zip(*terms.values(), strict=True)]
    if not bounds:
        return {}
    units = [0] * len(bounds)
    unit = 1
    for k in reversed(range(len(bounds))):
        units[k] = unit
        # a bye's terms count once a round, the others once a game: edges bounds both
        unit *= bounds[k] * edges + 1
    base = unit  # above any round's total cost: every weight is positive
    return {
        pair: base - sum(t * u for t, u in zip(row, units, strict=True))
        for pair, row in terms.items()
    }


def _solve(
    costs: dict[tuple[str, str], Cost], players: int, keep_hard: bool
) -> set[tuple[str, str]] | None:
    """The best matching; without `keep_hard`, on the pairs that break no hard rule only, and
    None where those leave someone unpaired."""
    kept = costs if keep_hard else {pair: c for pair, c in costs.items() if not c.hard}
    graph: nx.Graph[str] = nx.Graph()
    for (a, b), weight in weights(kept, players).items():
        graph.add_edge(a, b, weight=weight)
    matching: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True)
    needed = (players + 1) // 2
    return matching if len(matching) == needed else None


def _round(
    ordered: Sequence[SwissPlayer],
    matching: Iterable[tuple[str, str]],
    costs: dict[tuple[str, str], Cost],
) -> SwissPairing:
    position = {p.name: i for i, p in enumerate(ordered)}
    position[BYE] = len(ordered)
    by_name = {p.name: p for p in ordered}
    pairs = sorted(
        (tuple(sorted(pair, key=position.__getitem__)) for pair in matching),
        key=lambda pair: position[pair[0]],
    )
    games: list[tuple[str, str]] = []
    bye = None
    relaxed: set[Relaxation] = set()
    for higher, lower in pairs:
        cost = costs[higher, lower]
        if cost.second_bye:
            relaxed.add(Relaxation.SECOND_BYE)
        if cost.repeat:
            relaxed.add(Relaxation.REPEAT)
        if cost.colours:
            relaxed.add(Relaxation.COLOURS)
        if lower == BYE:
            bye = higher
            continue
        a, b = by_name[higher], by_name[lower]
        seat = seat_of_higher(a.colours, b.colours, len(games) + 1)
        games.append((higher, lower) if seat is Seat.WHITE else (lower, higher))
    return SwissPairing(tuple(games), bye, frozenset(relaxed))
