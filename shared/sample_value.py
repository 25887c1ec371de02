"""What a sampled position (shared.playout.Sim) is worth, by the evaluation of
shared.evaluation: the searches of shared.search and shared.ismcts score their samples with it,
and bench/tune_weights.py fits the evaluation's weights to it."""

from __future__ import annotations

from collections.abc import Sequence

from shared.board import (
    ALL_LINES,
    BRIDGES_PER_PLAYER,
    CARDS_PER_ISLAND,
    DEGREE,
    HAND_LIMIT,
    ISLAND_LINES,
    ISLAND_MASK,
    LINE_ENDS_MASK,
    LINES,
    NEEDED,
    NUM_ISLANDS,
    NUM_LINES,
)
from shared.evaluation import (
    DEFAULT_WEIGHTS,
    SCORING_SOON,
    TOKEN,
    WIN,
    Evaluator,
    State,
    Weights,
    island_value,
)
from shared.legality import TurnContext
from shared.playout import FINAL, PHASES, PLAY, Sim
from shared.types import Seat


def leaf_value(
    ctx: TurnContext,
    sim: Sim,
    me: int,
    weights: Weights = DEFAULT_WEIGHTS,
    opponent_hand: bool = False,
    base_points: int = 0,
) -> float:
    """What a sample's position (the game not over) is worth to seat `me`: the evaluation of
    its board and hand, the points it scored beyond `base_points` (its lead in points when the
    search began), and with `opponent_hand` the opponent's cards in hand against it. The
    search scores its samples with this; bench/tune_weights.py fits the weights to it."""
    w = weights
    points = points_lead(sim.points, me) - base_points
    value = sim_value(ctx, sim, me, w) + w.point * points
    if opponent_hand:
        # The evaluation values the searcher's cards in hand, not the opponent's: without
        # this, cards the opponent keeps for its next turn look harmless.
        value -= w.opp_hand * hand_value(ctx, sim, 1 - me, w)
    return value


def points_lead(points: Sequence[tuple[int, int]], me: int) -> int:
    """Seat `me`'s lead in the points of the scorings so far."""
    return sum(p[me] - p[1 - me] for p in points)


def sim_value(ctx: TurnContext, sim: Sim, me: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The greedy evaluation of a sample's position for seat `me` (it sees its own hand)."""
    opp = 1 - me
    hand = sim.hand[me]
    unknown = [CARDS_PER_ISLAND] * NUM_ISLANDS
    for i in range(NUM_ISLANDS):
        unknown[i] -= hand[i] + sim.open[opp][i]
    for card in sim.face_up:
        unknown[card] -= 1
    for card in sim.played:
        unknown[card] -= 1
    ev, state = _sample_evaluator(ctx, sim, me, unknown, weights)
    return ev.value(state)


def hand_value(ctx: TurnContext, sim: Sim, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """What the cards in `seat`'s hand of a sample are worth to it on this board, valued as the
    evaluation values the searcher's own: the placements and removals they allow."""
    if not any(sim.hand[seat]):
        return 0.0
    # The unseen cards only value a draw, which a hand's worth leaves out.
    ev, state = _sample_evaluator(ctx, sim, seat, [0] * NUM_ISLANDS, weights)
    _, gains = ev.board(state)
    return ev.hand_value(state, ev.card_values(state, gains))


def _sample_evaluator(
    ctx: TurnContext,
    sim: Sim,
    seat: int,
    unknown: list[int],
    weights: Weights = DEFAULT_WEIGHTS,
) -> tuple[Evaluator, State]:
    """The greedy evaluator of a sample's position as `seat` sees it (its own hand, `unknown`
    the cards it cannot see), and that position as its state."""
    opp = 1 - seat
    hand = tuple(sim.hand[seat])
    sub = TurnContext(
        ctx.options,
        PHASES[sim.phase],
        Seat(seat),
        (sim.bridges[0], sim.bridges[1]),
        (sim.tokens[0], sim.tokens[1]),
        hand,
        sim.face_up,
        len(sim.pile),
        sim.abstained if sim.to_move == seat else False,
        0,
    )
    ev = Evaluator.from_parts(sub, sim.round, sim.final_left, unknown, weights)
    return ev, State(sim.bridges[seat], sim.bridges[opp], sim.tokens[seat], sim.tokens[opp], hand)


# ----- the same value, faster ------------------------------------------------------------------

# Island values are looked up in tables: _TABLES[(weights, my_w, threat)] = (now, plus), each
# indexed by ((island * _M + m) * _M + o) * 3 + st, st 0 when nobody holds the island, 1 when the
# owner of m does, 2 when the other player does. `now` is island_value; `plus` what the island is
# worth with one more of m's bridges (a token when that wins it), as Evaluator.board counts it.
_M = 9
_TABLES: dict[tuple[Weights, float, float], tuple[tuple[float, ...], tuple[float, ...]]] = {}


def _tables(w: Weights, my_w: float, threat: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    key = (w, my_w, threat)
    found = _TABLES.get(key)
    if found is not None:
        return found
    now: list[float] = []
    plus: list[float] = []
    for island in range(NUM_ISLANDS):
        need = NEEDED[island]
        for m in range(_M):
            for o in range(_M):
                for st in range(3):
                    mine, theirs = st == 1, st == 2
                    if m + o > DEGREE[island]:  # no such island: never looked up
                        now.append(0.0)
                    else:
                        now.append(island_value(m, o, island, mine, theirs, my_w, threat, w))
                    if not theirs and m + 1 >= need and not mine:
                        plus.append(TOKEN)
                    elif m + 1 + o > DEGREE[island]:  # no free line there: never used
                        plus.append(0.0)
                    else:
                        plus.append(island_value(m + 1, o, island, mine, theirs, my_w, threat, w))
    found = (tuple(now), tuple(plus))
    _TABLES[key] = found
    return found


class LeafValue:
    """leaf_value, to the last bit, in about a third of its time: one search's leaves (the
    strong level's; the normal level keeps leaf_value, the yardstick as it was). The island
    values come from tables instead of Evaluator.board's calls, and no Evaluator is built
    for each leaf. tests/shared/test_search.py compares the two on many samples."""

    def __init__(
        self,
        ctx: TurnContext,
        me: int,
        weights: Weights = DEFAULT_WEIGHTS,
        opponent_hand: bool = False,
        base_points: int = 0,
    ) -> None:
        self.me = me
        self.w = weights
        self.opponent_hand = opponent_hand
        self.base_points = base_points
        self.variant1 = ctx.options.variant1
        # The board's value and the cards' values by board (and table of island values, which
        # _TABLES keeps): the samples of one search meet the same boards again and again.
        self._boards: dict[tuple[int, int, int, int, bool, int], tuple[float, list[float]]] = {}

    def __call__(self, sim: Sim) -> float:
        """leaf_value(ctx, sim, me, weights, opponent_hand, base_points), the game not over."""
        w = self.w
        me = self.me
        opp = 1 - me
        phase = sim.phase
        final = phase == FINAL
        threat = 0.0 if final and sim.final_left <= 1 else 1.0
        soon = phase == PLAY and len(sim.pile) + len(sim.face_up) <= SCORING_SOON
        my_w = w.soon_scale if soon else 1.0
        if soon:
            threat *= w.soon_scale
        now_t, plus_t = _tables(w, my_w, threat)
        cards = phase == PLAY
        b_me, b_opp = sim.bridges[me], sim.bridges[opp]
        t_me, t_opp = sim.tokens[me], sim.tokens[opp]
        late = sim.round >= 2 or final
        total, values = self._board_values(now_t, plus_t, b_me, b_opp, t_me, t_opp, late)
        if cards:
            hand = sim.hand[me]
            total += self._hand_value(now_t, b_me, b_opp, t_me, t_opp, hand, values)
            unknown = [CARDS_PER_ISLAND] * NUM_ISLANDS
            theirs_open = sim.open[opp]
            for i in range(NUM_ISLANDS):
                unknown[i] -= hand[i] + theirs_open[i]
            for card in sim.face_up:
                unknown[card] -= 1
            for card in sim.played:
                unknown[card] -= 1
            unknown = [max(0, n) for n in unknown]
            abstained = sim.abstained if sim.to_move == me else False
            total += self._best_ender(sim, values, unknown, b_me, b_opp, t_me, t_opp, abstained)
        points = points_lead(sim.points, me) - self.base_points
        value = total + w.point * points
        if self.opponent_hand and any(sim.hand[opp]):
            _, values = self._board_values(now_t, plus_t, b_opp, b_me, t_opp, t_me, late)
            held = self._hand_value(now_t, b_opp, b_me, t_opp, t_me, sim.hand[opp], values)
            value -= w.opp_hand * held
        return value

    def _board_values(
        self,
        now_t: tuple[float, ...],
        plus_t: tuple[float, ...],
        me: int,
        opp: int,
        mt: int,
        ot: int,
        late: bool,
    ) -> tuple[float, list[float]]:
        """The board's value for the owner of `me`, and what a card of each island is worth
        to it there (Evaluator.card_values), remembered."""
        key = (me, opp, mt, ot, late, id(now_t))
        found = self._boards.get(key)
        if found is None:
            total, gains = self._board(now_t, plus_t, me, opp, mt, ot, late)
            found = (total, self._card_values(gains))
            self._boards[key] = found
        return found

    def _board(
        self,
        now_t: tuple[float, ...],
        plus_t: tuple[float, ...],
        me: int,
        opp: int,
        mt: int,
        ot: int,
        late: bool,
    ) -> tuple[float, list[float]]:
        """Evaluator.board: the board's value for the owner of `me`, and the gain of its
        placing a bridge on each line."""
        w = self.w
        total = 0.0
        now = [0.0] * NUM_ISLANDS
        plus = [0.0] * NUM_ISLANDS
        for island in range(NUM_ISLANDS):
            mask = ISLAND_MASK[island]
            st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
            k = ((island * _M + (me & mask).bit_count()) * _M + (opp & mask).bit_count()) * 3 + st
            v = now_t[k]
            now[island] = v
            total += v
            plus[island] = plus_t[k]
        n_me, n_opp = me.bit_count(), opp.bit_count()
        total += w.bridge * n_me
        if late:
            if not opp:
                total += WIN
            elif n_opp <= 2:
                total += w.few_bridges * (3 - n_opp) * 0.5
            if n_me <= 2:
                total -= w.few_bridges * (3 - n_me)
        elif n_me <= 1:
            total -= w.few_bridges * 0.5 * (2 - n_me)
        gains = [0.0] * NUM_LINES
        if n_me < BRIDGES_PER_PLAYER:
            free = ALL_LINES & ~(me | opp)
            variant1 = self.variant1
            while free:
                low = free & -free
                line = low.bit_length() - 1
                free ^= low
                if variant1 and LINE_ENDS_MASK[line] & ot:
                    continue
                a, b = LINES[line]
                gains[line] = plus[a] - now[a] + plus[b] - now[b]
        return total, gains

    def _card_values(self, gains: list[float]) -> list[float]:
        base, use = self.w.card_base, self.w.card_use
        values = [base] * NUM_ISLANDS
        for island in range(NUM_ISLANDS):
            best = 0.0
            for line in ISLAND_LINES[island]:
                if gains[line] > best:
                    best = gains[line]
            values[island] += use * best
        return values

    def _hand_value(
        self,
        now_t: tuple[float, ...],
        me: int,
        opp: int,
        mt: int,
        ot: int,
        hand: list[int],
        values: list[float],
    ) -> float:
        """Evaluator.hand_value for the owner of `me` holding `hand`."""
        total = 0.0
        for island in range(NUM_ISLANDS):
            if hand[island]:
                total += values[island] * hand[island]
        best = 0.0
        rest = opp
        while rest:
            low = rest & -rest
            line = low.bit_length() - 1
            rest ^= low
            a, b = LINES[line]
            if (hand[a] and hand[b] and a != b) or hand[a] >= 2 or hand[b] >= 2:
                gain = 0.0
                for island in (a, b):
                    mask = ISLAND_MASK[island]
                    m = (me & mask).bit_count()
                    o = (opp & mask).bit_count()
                    mine = mt >> island & 1
                    theirs = ot >> island & 1
                    st = 1 if mine else 2 if theirs else 0
                    still = 2 if theirs and o - 1 >= NEEDED[island] else 0
                    st2 = 1 if mine else still
                    base = (island * _M + m) * _M
                    gain += now_t[(base + o - 1) * 3 + st2] - now_t[(base + o) * 3 + st]
                if gain > best:
                    best = gain
        return total + self.w.pair_use * best

    def _best_ender(
        self,
        sim: Sim,
        values: list[float],
        unknown: list[int],
        me: int,
        opp: int,
        mt: int,
        ot: int,
        abstained: bool,
    ) -> float:
        """The best of Evaluator.draw_options in the play phase."""
        w = self.w
        best: float | None = None
        if sum(sim.hand[self.me]) < HAND_LIMIT:
            face_up = sim.face_up
            rnd = sim.round
            ends_round = not sim.pile and len(face_up) == 1 and rnd < 3
            ahead = mt.bit_count() - ot.bit_count()
            for card in set(face_up):
                v = values[card]
                if ends_round:
                    if ahead > 0:
                        v += w.trigger * rnd
                    if rnd == 1:
                        if not me:
                            v -= WIN
                        elif not opp:
                            v += WIN
                if best is None or v > best:
                    best = v
            unknown_total = sum(unknown)
            if sim.pile and unknown_total:
                mean = sum(v * n for v, n in zip(values, unknown, strict=True))
                v = mean / unknown_total
                if best is None or v > best:
                    best = v
        if not abstained and (best is None or best < 0.0):
            best = 0.0
        return -WIN if best is None else best
