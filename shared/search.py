"""The search of the levels "normal" and "strong" of shared.ai: determinized evaluation of
whole-turn plans, `plan_action` (and `PlanSearch`, `TurnPlans`).

A candidate is a whole turn: the plays (placements,
removals, discards when the hand is full) and the way the turn ends (a draw, a face-up card,
abstaining, the end of a final turn). The candidates are the best plans by the greedy
evaluation of the turn's end (the greedy player's own plan is among them, looked at deeper
than it does, to the end of the turn), the best plan of each first play, and ending the turn
at once in every way. Each candidate is then played in samples of the hidden cards: the
plan, then the opponent's reply with a greedy policy that sees its sampled hand, then the
greedy evaluation for the searching seat (points scored meanwhile included; an ended game
scores exactly), after the searching seat's own plays of its next turn (greedy, like the
reply): the greedy evaluation is made for the end of a play phase, and at the start of a
turn it misjudges both sides' threats (without those plays the search scored 42% against the
greedy player, with them 91%, 200 plan evaluations a decision). All candidates meet the
same samples (common random numbers), and the worse half is dropped at fixed shares of the
budget (successive halving). The choice is the first action of the best plan; the next
decision of the turn plans again, unless it follows the plan chosen (TurnPlans).

Everything depends on the view and the random generator passed in, nothing else: with a fixed
iteration budget a decision is reproducible, whatever the hidden cards really are. Only a time
budget reads the clock.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import OrderedDict
from collections.abc import Sequence

from shared.actions import Action, Discard, EndTurn
from shared.board import HAND_LIMIT, NUM_ISLANDS
from shared.evaluation import (
    DEFAULT_WEIGHTS,
    Evaluator,
    State,
    Weights,
    apply_action,
    initial_state,
    own_plays,
)
from shared.inference import HandPosterior, OpponentTurn
from shared.legality import legal_actions
from shared.playout import OVER, RandomSource, Sim, from_action, is_turn_end, to_action
from shared.replies import GainMemo, reply_options, reply_turn
from shared.sample_value import LeafValue, leaf_value, points_lead
from shared.sampling import Sampler
from shared.types import Phase
from shared.views import SeatView

PLAN_WIDTH = 24  # states kept per depth while enumerating the turn's plays
PLAN_CANDIDATES = 12  # plans compared in samples (more come from distinct first plays)
TERMINAL = 300.0  # a game won (or minus, lost) before the searching seat moves again
LEAF_PLAYS = True  # the searching seat's next plays before the evaluation
INFER_SHARE = 0.1  # of a time budget, at most, for weighing the opponent's hands


class PlanSearch:
    """Whole-turn plans for the seat to move in one view, compared in common samples."""

    def __init__(
        self,
        view: SeatView,
        *,
        candidates: int | None = None,
        deep: int = 0,
        paranoid: bool = False,
        opponent_hand: bool = False,
        weights: Weights = DEFAULT_WEIGHTS,
        fast: bool = False,
        opponent_turns: Sequence[OpponentTurn] | None = None,
        extra: Sequence[tuple[int, ...]] = (),
    ) -> None:
        ctx = view.turn_context()
        if ctx is None:
            raise ValueError(f"it is not {view.seat.label}'s turn")
        self.view = view
        self.ctx = ctx
        self.seat = int(view.seat)
        self.candidates = PLAN_CANDIDATES if candidates is None else candidates
        self.deep = deep
        self.paranoid = paranoid
        self.opponent_hand = opponent_hand
        self.weights = weights
        self.sampler = Sampler(view, view.public.known)  # what every attentive player knows
        self.opponent_turns = opponent_turns
        self.ev = Evaluator(ctx, view, weights)
        self.legal_root = [from_action(a) for a in legal_actions(ctx)]
        if not self.legal_root:
            raise ValueError("there is no legal action: the game is over")
        pub = view.public
        self.base_points = points_lead(pub.round_points, self.seat)
        # The same leaf values and replies, faster (shared.sample_value.LeafValue, and the
        # replies' gains remembered), or leaf_value and the replies as they were.
        self.leaf: LeafValue | None = None
        self.memo: GainMemo | None = None
        if fast:
            self.leaf = LeafValue(ctx, self.seat, weights, opponent_hand, self.base_points)
            self.memo = {}
        self.plans = self._candidates()
        self.plans += [plan for plan in extra if plan not in self.plans]  # (the analysis's)

    # ----- candidates -----------------------------------------------------------------------

    def _candidates(self) -> list[tuple[int, ...]]:
        """Plans as action codes, the best first by the greedy evaluation of the turn's end."""
        ev = self.ev
        ctx = self.ctx
        start = initial_state(ctx)
        legal = set(self.legal_root)
        # Every distinct state the turn's plays reach, with the plays that reach it.
        seen: dict[tuple[int, int, tuple[int, ...]], tuple[int, ...]] = {
            (start.me, start.opp, start.hand): ()
        }
        states: list[tuple[State, tuple[int, ...]]] = [(start, ())]
        frontier = states
        full = ctx.phase is Phase.PLAY and sum(ctx.hand) >= HAND_LIMIT
        while frontier:
            grown: list[tuple[float, State, tuple[int, ...]]] = []
            for state, path in frontier:
                if not sum(state.hand):
                    continue
                follows: list[Action] = own_plays(ev, state)
                if full and sum(state.hand) >= HAND_LIMIT:
                    follows += [Discard(c) for c in range(NUM_ISLANDS) if state.hand[c]]
                for action in follows:
                    after = apply_action(state, action)
                    key = (after.me, after.opp, after.hand)
                    if key in seen:
                        continue
                    code = from_action(action)
                    seen[key] = (*path, code)
                    grown.append((ev.value(after), after, (*path, code)))
            grown.sort(key=lambda t: -t[0])
            frontier = [(s, p) for _, s, p in grown[:PLAN_WIDTH]]
            states += [(s, p) for _, s, p in grown]
        # Each state with each way to end the turn from it.
        scored: list[tuple[float, tuple[int, ...]]] = []
        for state, path in states:
            if path and path[0] not in legal:
                continue
            total, gains = ev.board(state)
            if ev.cards_matter:
                values = ev.card_values(state, gains)
                total += ev.hand_value(state, values)
                enders = ev.draw_options(state, values)
            else:
                enders = [(0.0, EndTurn())]
            for v, ender in enders:
                code = from_action(ender)
                if not path and code not in legal:
                    continue
                scored.append((total + v, (*path, code)))
        scored.sort(key=lambda t: -t[0])
        chosen: list[tuple[int, ...]] = []
        firsts: set[int] = set()
        for _, plan in scored:
            if len(chosen) < self.candidates or plan[0] not in firsts:
                chosen.append(plan)
                firsts.add(plan[0])
        # Ending the turn at once, every way: holding the cards is a plan too.
        for _, plan in scored:
            if len(plan) == 1 and plan not in chosen:
                chosen.append(plan)
        return chosen

    # ----- samples ----------------------------------------------------------------------------

    def _outcome(self, sim: Sim, plan: tuple[int, ...]) -> float:
        """The plan played in a sample, the opponent's reply, and the evaluation."""
        me = self.seat
        for code in plan:
            if sim.phase == OVER or sim.to_move != me:
                break
            sim.apply(code)
        if self.paranoid and sim.phase != OVER and sim.to_move != me:
            return min(self._score(out) for out in reply_options(sim, self.memo))
        if sim.phase != OVER and sim.to_move != me:
            reply_turn(sim, memo=self.memo)
        return self._score(sim)

    def _score(self, sim: Sim) -> float:
        """The position after the opponent's reply, for the searching seat."""
        me = self.seat
        for _ in range(self.deep):
            # A whole turn more for each side, both greedy.
            if sim.phase != OVER and sim.to_move == me:
                reply_turn(sim, memo=self.memo)
            if sim.phase != OVER and sim.to_move != me:
                reply_turn(sim, memo=self.memo)
        if LEAF_PLAYS and sim.phase != OVER and sim.to_move == me:
            reply_turn(sim, plays_only=True, memo=self.memo)
        if sim.phase == OVER:
            if sim.winner is None:
                return 0.0
            return TERMINAL if sim.winner == me else -TERMINAL
        if self.leaf is not None:
            return self.leaf(sim)
        return leaf_value(self.ctx, sim, me, self.weights, self.opponent_hand, self.base_points)

    def run(
        self, rng: random.Random, iterations: int | None = None, seconds: float | None = None
    ) -> tuple[int, ...]:
        """Compare the plans in samples until `iterations` plan evaluations are done or
        `seconds` have passed; the best plan. Successive halving over the whole budget: with
        K plans there are ceil(log2 K) rounds, each ending at its share of the budget, and
        each round but the last drops the worse half of the plans still compared."""
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget, a time budget or both")
        begin = time.monotonic()
        posterior: HandPosterior | None = None
        if self.opponent_turns is not None:
            posterior = HandPosterior(self.sampler, self.opponent_turns)
            posterior.build(rng, seconds=None if seconds is None else seconds * INFER_SHARE)
        alive = list(range(len(self.plans)))
        totals = [0.0] * len(self.plans)
        rounds = max(1, math.ceil(math.log2(len(self.plans))))
        samples = 0
        done = 0
        for r in range(1, rounds + 1):
            share = r / rounds
            while True:
                if iterations is not None and done + len(alive) > iterations * share:
                    break
                if seconds is not None and time.monotonic() - begin >= seconds * share:
                    break
                seed = rng.getrandbits(64)
                dealt = None if posterior is None else posterior.draw(rng)
                base = self.sampler.sim(rng, RandomSource(rng), dealt=dealt)
                for i in alive:
                    sim = base.copy()
                    sim.source = RandomSource(random.Random(seed))
                    totals[i] += self._outcome(sim, self.plans[i])
                done += len(alive)
                samples += 1
            if r < rounds and len(alive) > 1:
                alive.sort(key=lambda i: (-totals[i], i))
                alive = sorted(alive[: (len(alive) + 1) // 2])
        self.samples = samples
        best = max(alive, key=lambda i: (totals[i], -i))
        return self.plans[best]

    def margin(
        self, rng: random.Random, better: tuple[int, ...], worse: tuple[int, ...], samples: int
    ) -> float:
        """How many standard errors of its own estimate this search finds `better` better than
        `worse`: the mean of their difference in `samples` new common samples over its
        standard error (infinite when every sample finds the same difference, above 0)."""
        differences = []
        for _ in range(samples):
            seed = rng.getrandbits(64)
            base = self.sampler.sim(rng, RandomSource(rng))
            values = []
            for plan in (better, worse):
                sim = base.copy()
                sim.source = RandomSource(random.Random(seed))
                values.append(self._outcome(sim, plan))
            differences.append(values[0] - values[1])
        mean = sum(differences) / samples
        spread = sum((d - mean) ** 2 for d in differences) / max(1, samples - 1)
        error = math.sqrt(spread / samples)
        if error == 0.0:
            return math.inf if mean > 0 else 0.0
        return mean / error


def _turn_key(view: SeatView, state: State) -> tuple[object, ...]:
    """What stays fixed during the turn of the seat to move, with the turn's `state` (its
    bridges, tokens and hand): two views with equal keys are the same point of the same turn,
    up to the discards (face up or down) that its plays made."""
    pub = view.public
    opp = 1 - int(view.seat)
    return (
        view.seat, pub.options, pub.phase, pub.round, pub.round_points, pub.face_up,
        pub.pile_size, pub.opponent_abstained, pub.final_turns_left, pub.handicap_left,
        pub.hand_sizes[opp], pub.open_cards[opp], state,
    )  # fmt: skip


class TurnPlans:
    """The rest of the plans chosen at earlier decisions of turns, so that a turn's later
    decisions follow the plan its first decision chose instead of searching again.

    Nothing is learnt during one's own turn: the plays reveal nothing to the player making
    them, and new cards arrive only when the turn ends. A second search of the same turn would
    answer the same question with the same knowledge, and the strong level would take a second
    of thinking for every card it plays. A caller keeps one per computer player (or per worker
    process: the keys say which seat, turn and point of the turn they are for); without one,
    every decision searches.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._next: OrderedDict[tuple[object, ...], int] = OrderedDict()

    def follow(self, view: SeatView) -> Action | None:
        """The next action of a plan recorded for this point of this turn, if it is legal."""
        ctx = view.turn_context()
        if ctx is None:
            return None
        code = self._next.pop(_turn_key(view, initial_state(ctx)), None)
        if code is None:
            return None
        action = to_action(code)
        return action if action in legal_actions(ctx) else None

    def record(self, view: SeatView, plan: Sequence[int]) -> None:
        """Remember what `plan` (chosen at `view`, its first action about to be played) does
        at each later point of the turn."""
        ctx = view.turn_context()
        if ctx is None:
            return
        state = initial_state(ctx)
        for done, code in itertools.pairwise(plan):
            if is_turn_end(done):
                break
            state = apply_action(state, to_action(done))
            key = _turn_key(view, state)
            self._next[key] = code
            self._next.move_to_end(key)
        while len(self._next) > self.size:
            self._next.popitem(last=False)


def plan_action(
    view: SeatView,
    rng: random.Random,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    candidates: int | None = None,
    deep: int = 0,
    paranoid: bool = False,
    opponent_hand: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
    plans: TurnPlans | None = None,
    fast: bool = False,
    opponent_turns: Sequence[OpponentTurn] | None = None,
) -> Action:
    """The first action of the best whole-turn plan for the seat to move in `view`, decided
    from that view alone. `candidates` plans at least are compared (PLAN_CANDIDATES by
    default); with `deep`, that many more whole turns of each side are played greedily in the
    samples before the evaluation. `paranoid`: each plan meets the opponent's worst reply of a
    few; `opponent_hand`: the cards the opponent holds after its reply count against the plan;
    `weights`: the evaluation's; `fast`: the samples are played and scored by faster
    code with the same results (shared.sample_value.LeafValue, the replies' gains remembered).
    With `plans`, a decision later in a turn follows the plan chosen earlier in it (see
    TurnPlans), and the plan chosen now is recorded there."""
    if plans is not None:
        followed = plans.follow(view)
        if followed is not None:
            return followed
    plan, _search = searched_plan(
        view,
        rng,
        iterations=iterations,
        seconds=seconds,
        candidates=candidates,
        deep=deep,
        paranoid=paranoid,
        opponent_hand=opponent_hand,
        weights=weights,
        fast=fast,
        opponent_turns=opponent_turns,
    )
    if plans is not None:
        plans.record(view, plan)
    return to_action(plan[0])


def searched_plan(
    view: SeatView,
    rng: random.Random,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    candidates: int | None = None,
    deep: int = 0,
    paranoid: bool = False,
    opponent_hand: bool = False,
    weights: Weights = DEFAULT_WEIGHTS,
    fast: bool = False,
    opponent_turns: Sequence[OpponentTurn] | None = None,
    extra: Sequence[tuple[int, ...]] = (),
) -> tuple[tuple[int, ...], PlanSearch]:
    """The whole-turn plan (action codes) whose first action plan_action plays, with the same
    arguments (a single legal action is a plan of that action alone), and the search that
    chose it; with the `extra` plans among its candidates."""
    search = PlanSearch(
        view,
        candidates=candidates,
        deep=deep,
        paranoid=paranoid,
        opponent_hand=opponent_hand,
        weights=weights,
        fast=fast,
        opponent_turns=opponent_turns,
        extra=extra,
    )
    if len(search.legal_root) == 1:
        return (search.legal_root[0],), search
    if len(search.plans) == 1:
        return search.plans[0], search
    return search.run(rng, iterations, seconds), search
