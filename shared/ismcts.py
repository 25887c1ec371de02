"""An information-set Monte Carlo tree search for the computer opponent: `Search` /
`search_action` (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012). No level uses it:
it is kept for comparison with the plan search of shared.search, which the levels of shared.ai
use; it scored 40% against the greedy player where the plan search scores over 90%.

Each iteration deals the cards the searching seat cannot see (shared.sampling), consistently
with its view, and descends one tree whose statistics are shared by all the deals: a node's
children are the actions that were available in the deals that reached it, and a child is
chosen by UCB with its availability count in place of the parent's visits. Children start from
a prior (`PRIOR_VISITS` virtual visits at a prior value): within the searching seat's own turn,
the evaluation (shared.evaluation) of the position after the action; elsewhere a cheap rule
(winning an island, breaking one, ending the turn). The first new child reached ends the
descent; a short greedy playout (win or break islands when the cards allow it, else end the
turn) runs to the end of the opponent's next turn, and the position is scored there with the
greedy player's evaluation (or exactly, when the game is over).

A turn is several decisions; the tree searches single actions. `Search` keeps its tree, so a
caller that plays the whole turn with one `Search` reuses it between the turn's decisions.

Everything depends on the view and the random generator passed in, nothing else: with a fixed
iteration budget a decision is reproducible, whatever the hidden cards really are.
"""

from __future__ import annotations

import math
import random
import time

from shared.actions import Action
from shared.board import ISLAND_MASK, LINES, NEEDED, NUM_ISLANDS
from shared.evaluation import Evaluator, apply_action, initial_state
from shared.legality import legal_actions
from shared.playout import (
    ABSTAIN,
    DISCARD_BASE,
    DRAW,
    END,
    OVER,
    PHASES,
    REMOVE_BASE,
    TAKE_BASE,
    RandomSource,
    Sim,
    from_action,
    is_turn_end,
    to_action,
)
from shared.sample_value import sim_value
from shared.sampling import Sampler
from shared.views import SeatView

EXPLORATION = 0.15  # UCB constant on rewards in [0, 1]
PRIOR_VISITS = 4.0  # virtual visits of a child's prior value
VALUE_SCALE = 5.0  # evaluation points per unit of the logistic that turns them into rewards
HORIZON_TURNS = 2  # playouts stop when this many turns have ended: ours and the opponent's


def _reward(value: float) -> float:
    """An evaluation (for the searching seat) as a reward in (0, 1)."""
    x = value / VALUE_SCALE
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class Node:
    """One information set's child statistics. `value` sums the rewards of the player who
    chose the action leading here."""

    __slots__ = ("avail", "children", "prior", "value", "visits")

    def __init__(self, prior: float) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.prior = prior


def _cheap_prior(sim: Sim, a: int) -> float:
    """A rough prior for an action outside the searching seat's own turn."""
    s = sim.to_move
    if a < REMOVE_BASE:
        line = a >> 1
        me = sim.bridges[s] | (1 << line)
        for island in LINES[line]:
            if (
                not sim.tokens[s] >> island & 1
                and (me & ISLAND_MASK[island]).bit_count() >= NEEDED[island]
            ):
                return 0.9
        return 0.45
    if a < DISCARD_BASE:
        line = (a - REMOVE_BASE) % 81 // 3
        theirs = sim.tokens[1 - s]
        if theirs:
            after = sim.bridges[1 - s] & ~(1 << line)
            for island in LINES[line]:
                if (
                    theirs >> island & 1
                    and (after & ISLAND_MASK[island]).bit_count() < NEEDED[island]
                ):
                    return 0.85
        return 0.3
    if a < TAKE_BASE:
        return 0.3
    return 0.5


def _greedy_action(sim: Sim, legal: list[int], rng: random.Random) -> int:
    """The playout policy: win an island, else break one of the opponent's, else end the turn
    (draw, or take a face-up card now and then); discard only when it must."""
    s = sim.to_move
    o = 1 - s
    me = sim.bridges[s]
    my_tokens = sim.tokens[s]
    their_tokens = sim.tokens[o]
    best = -1
    best_gain = 0
    enders: list[int] = []
    for a in legal:
        if a < REMOVE_BASE:
            line = a >> 1
            mine = me | (1 << line)
            gain = 0
            for island in LINES[line]:
                if (
                    not my_tokens >> island & 1
                    and (mine & ISLAND_MASK[island]).bit_count() >= NEEDED[island]
                ):
                    gain += 2
            if gain > best_gain:
                best, best_gain = a, gain
        elif a < DISCARD_BASE:
            if their_tokens:
                line = (a - REMOVE_BASE) % 81 // 3
                after = sim.bridges[o] & ~(1 << line)
                gain = 0
                for island in LINES[line]:
                    if (
                        their_tokens >> island & 1
                        and (after & ISLAND_MASK[island]).bit_count() < NEEDED[island]
                    ):
                        gain += 1
                if gain > best_gain:
                    best, best_gain = a, gain
        elif a >= TAKE_BASE:
            enders.append(a)
    if best >= 0:
        return best
    if DRAW in enders and rng.random() < 0.7:
        return DRAW
    takes = [a for a in enders if a < DRAW]
    if takes:
        return takes[int(rng.random() * len(takes))]
    if DRAW in enders:
        return DRAW
    if END in enders:
        return END
    if ABSTAIN in enders:
        return ABSTAIN
    discards = [a for a in legal if DISCARD_BASE <= a < TAKE_BASE]
    return discards[int(rng.random() * len(discards))] if discards else legal[0]


class Search:
    """The search for one seat from one view; `run` adds iterations, `best` picks the action.

    `advance(action, view)` moves the root to the child of an own action taken within the same
    turn, keeping its statistics for the next decision.
    """

    def __init__(self, view: SeatView) -> None:
        ctx = view.turn_context()
        if ctx is None:
            raise ValueError(f"it is not {view.seat.label}'s turn")
        self.view = view
        self.ctx = ctx
        self.seat = int(view.seat)
        self.sampler = Sampler(view, view.public.known)  # what every attentive player knows
        self.root = Node(0.5)
        self.iterations = 0
        self.root_ev = Evaluator(ctx, view)
        self.root_state = initial_state(ctx)
        # Rewards measure evaluations from the root's: absolute values would saturate them.
        self.base = self.root_ev.value(self.root_state)
        # Own-turn priors, by the sequence of own actions from the root.
        self.turn_priors: dict[tuple[int, ...], dict[int, float]] = {}
        self.root_path: tuple[int, ...] = ()
        self.legal_root = [from_action(a) for a in legal_actions(ctx)]

    # ----- priors and evaluation ------------------------------------------------------------

    def _own_priors(self, path: tuple[int, ...], legal: list[int]) -> dict[int, float]:
        """The greedy evaluation of each own action in this turn, as a reward."""
        priors = self.turn_priors.get(path)
        if priors is not None:
            return priors
        ev = self.root_ev
        state = self.root_state
        for code in path:
            state = apply_action(state, to_action(code))
        priors = {}
        base_total, gains = ev.board(state)
        enders = {END: 0.0}
        if ev.cards_matter:
            values = ev.card_values(state, gains)
            base_total += ev.hand_value(state, values)
            enders = {from_action(action): v for v, action in ev.draw_options(state, values)}
        for a in legal:
            if a >= TAKE_BASE:
                priors[a] = _reward(base_total + enders.get(a, 0.0) - self.base)
            else:
                priors[a] = _reward(ev.value(apply_action(state, to_action(a))) - self.base)
        self.turn_priors[path] = priors
        return priors

    def _evaluate(self, sim: Sim) -> float:
        """The reward for the searching seat of a playout's last position."""
        me = self.seat
        if sim.phase == OVER:
            if sim.winner is None:
                return 0.5
            return 1.0 if sim.winner == me else 0.0
        return _reward(sim_value(self.ctx, sim, me) - self.base)

    # ----- iterations -------------------------------------------------------------------------

    def iterate(self, rng: random.Random) -> None:
        """One iteration: sample, descend, expand, play out, back up."""
        me = self.seat
        sim = self.sampler.sim(rng, RandomSource(rng))
        for code in self.root_path:
            sim.apply(code)
        node = self.root
        path: list[tuple[Node, int]] = []
        own_path = self.root_path
        own_turn = True  # still in the searching seat's current turn
        turn_ends = 0
        while sim.phase != OVER and turn_ends < HORIZON_TURNS:
            legal = sim.legal()
            mover = sim.to_move
            children = node.children
            if own_turn and mover != me:
                own_turn = False  # the handicap phase ended and the opponent begins
            if own_turn:
                priors = self._own_priors(own_path, legal)
            best_score = -1.0
            best_code = legal[0]
            best_child: Node | None = None
            for a in legal:
                child = children.get(a)
                if child is None:
                    child = Node(priors[a] if own_turn else _cheap_prior(sim, a))
                    children[a] = child
                child.avail += 1
            for a in legal:
                child = children[a]
                n = child.visits + PRIOR_VISITS
                q = (child.value + PRIOR_VISITS * child.prior) / n
                score = q + EXPLORATION * math.sqrt(math.log(child.avail + 1) / n)
                if score > best_score:
                    best_score, best_code, best_child = score, a, child
            assert best_child is not None
            sim.apply(best_code)
            path.append((best_child, mover))
            if is_turn_end(best_code):
                turn_ends += 1
                own_turn = False
            elif own_turn:
                own_path = (*own_path, best_code)
            node = best_child
            if best_child.visits == 0:
                break  # a new child: expanded
        # Playout to the horizon with the greedy policy.
        while sim.phase != OVER and turn_ends < HORIZON_TURNS:
            a = _greedy_action(sim, sim.legal(), rng)
            sim.apply(a)
            if is_turn_end(a):
                turn_ends += 1
        reward = self._evaluate(sim)
        for child, mover in path:
            child.visits += 1
            child.value += reward if mover == me else 1.0 - reward
        self.iterations += 1

    def run(
        self, rng: random.Random, iterations: int | None = None, seconds: float | None = None
    ) -> None:
        """Iterate until `iterations` more are done, or `seconds` have passed (whichever is
        given; with both, whichever comes first)."""
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget, a time budget or both")
        deadline = None if seconds is None else time.monotonic() + seconds
        done = 0
        while iterations is None or done < iterations:
            if deadline is not None and done % 8 == 0 and time.monotonic() >= deadline:
                break
            self.iterate(rng)
            done += 1

    def best(self) -> Action:
        """The most visited root action (the prior breaks ties)."""
        children = self.root.children
        candidates = [a for a in self.legal_root if a in children]
        if not candidates:
            candidates = self.legal_root
            return to_action(candidates[0])
        code = max(candidates, key=lambda a: (children[a].visits, children[a].prior, -a))
        return to_action(code)

    def advance(self, action: Action, view: SeatView) -> bool:
        """Move the root to the child of own `action` when `view` is what this seat sees after
        it, in the same turn; False (and nothing changed) when the tree cannot be reused."""
        code = from_action(action)
        child = self.root.children.get(code)
        ctx = view.turn_context()
        if code >= TAKE_BASE or child is None or ctx is None or view.seat != self.view.seat:
            return False
        sim = self.sampler.sim(random.Random(0), RandomSource(random.Random(0)))
        for done in (*self.root_path, code):
            sim.apply(done)
        pub = view.public
        me = self.seat
        if (
            (sim.bridges[0], sim.bridges[1]) != pub.bridges
            or (sim.tokens[0], sim.tokens[1]) != pub.tokens
            or sim.to_move != pub.to_move
            or PHASES[sim.phase] is not pub.phase
            or tuple(sim.size) != pub.hand_sizes
            or tuple(sim.played) != pub.played
            or tuple(sim.face_up) != pub.face_up
            or len(sim.face_down) != pub.face_down_count
            or sim.hand[me] != [view.hand.count(i) for i in range(NUM_ISLANDS)]
        ):
            return False
        self.root = child
        self.root_path = (*self.root_path, code)
        self.view = view
        self.legal_root = [from_action(a) for a in legal_actions(ctx)]
        return True


def search_action(
    view: SeatView,
    rng: random.Random,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
) -> Action:
    """The search's choice for the seat to move in `view`, decided from that view alone.

    With a time budget only (play), the tree of this turn's previous decision is reused when
    `view` follows from it; with an iteration budget every decision starts afresh, so that it
    depends on the view and `rng` alone."""
    search: Search | None = None
    if iterations is None:
        for i, (old, action) in enumerate(_RECENT):
            if old.advance(action, view):
                search = old
                del _RECENT[i]
                break
    if search is None:
        search = Search(view)
    if len(search.legal_root) == 1:
        return to_action(search.legal_root[0])
    search.run(rng, iterations, seconds)
    choice = search.best()
    if iterations is None and from_action(choice) < TAKE_BASE:
        _RECENT.insert(0, (search, choice))
        del _RECENT[_RECENT_SIZE:]
    return choice


# Searches of recent decisions, for reuse by the next decision of the same turn.
_RECENT: list[tuple[Search, Action]] = []
_RECENT_SIZE = 8
