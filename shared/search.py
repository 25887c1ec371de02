"""Search for the computer opponent: `plan_action` (what the levels of shared.ai use) compares
whole-turn plans in samples of the hidden cards; see the section "determinized evaluation of
whole-turn plans" below. `Search` / `search_action`, an information-set Monte Carlo tree search
(single-observer ISMCTS, Cowling, Powley and Whitehouse 2012), is kept for comparison: it
scored 40% against the greedy player where the plan search scores over 90%.

Each iteration deals the cards the searching seat cannot see (shared.sampling), consistently
with its view, and descends one tree whose statistics are shared by all the deals: a node's
children are the actions that were available in the deals that reached it, and a child is
chosen by UCB with its availability count in place of the parent's visits. Children start from
a prior (`PRIOR_VISITS` virtual visits at a prior value): within the searching seat's own turn,
the greedy player's evaluation (shared.ai) of the position after the action; elsewhere a cheap
rule (winning an island, breaking one, ending the turn). The first new child reached ends the
descent; a short greedy playout (win or break islands when the cards allow it, else end the
turn) runs to the end of the opponent's next turn, and the position is scored there with the
greedy player's evaluation (or exactly, when the game is over).

A turn is several decisions; the tree searches single actions. `Search` keeps its tree, so a
caller that plays the whole turn with one `Search` reuses it between the turn's decisions.

Everything depends on the view and the random generator passed in, nothing else: with a fixed
iteration budget a decision is reproducible, whatever the hidden cards really are.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import OrderedDict
from collections.abc import Sequence

from shared.actions import Action, Discard, EndTurn
from shared.ai import (
    BRIDGE,
    DEFAULT_WEIGHTS,
    WIN,
    Weights,
    _apply,
    _Evaluator,
    _initial_state,
    _island_value,
    _plays,
    _State,
)
from shared.board import (
    CARDS_PER_ISLAND,
    DEGREE,
    HAND_LIMIT,
    ISLAND_MASK,
    LINES,
    NEEDED,
    NUM_ISLANDS,
)
from shared.control import place_bridge, tokens_kept
from shared.legality import TurnContext, legal_actions
from shared.playout import (
    ABSTAIN,
    DISCARD_BASE,
    DRAW,
    END,
    HANDICAP_BASE,
    OVER,
    PHASES,
    REBUILD_BASE,
    REMOVE_BASE,
    TAKE_BASE,
    RandomSource,
    Sim,
    from_action,
    to_action,
)
from shared.sampling import Sampler
from shared.types import Phase, Seat
from shared.views import SeatView

EXPLORATION = 0.15  # UCB constant on rewards in [0, 1]
PRIOR_VISITS = 4.0  # virtual visits of a child's prior value
VALUE_SCALE = 5.0  # evaluation points per unit of the logistic that turns them into rewards
HORIZON_TURNS = 2  # playouts stop when this many turns have ended: ours and the opponent's

_IM = ISLAND_MASK
_NEEDED = NEEDED
_LINES = LINES


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
        for island in _LINES[line]:
            if (
                not sim.tokens[s] >> island & 1
                and (me & _IM[island]).bit_count() >= _NEEDED[island]
            ):
                return 0.9
        return 0.45
    if a < DISCARD_BASE:
        line = (a - REMOVE_BASE) % 81 // 3
        theirs = sim.tokens[1 - s]
        if theirs:
            after = sim.bridges[1 - s] & ~(1 << line)
            for island in _LINES[line]:
                if theirs >> island & 1 and (after & _IM[island]).bit_count() < _NEEDED[island]:
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
            for island in _LINES[line]:
                if (
                    not my_tokens >> island & 1
                    and (mine & _IM[island]).bit_count() >= _NEEDED[island]
                ):
                    gain += 2
            if gain > best_gain:
                best, best_gain = a, gain
        elif a < DISCARD_BASE:
            if their_tokens:
                line = (a - REMOVE_BASE) % 81 // 3
                after = sim.bridges[o] & ~(1 << line)
                gain = 0
                for island in _LINES[line]:
                    if (
                        their_tokens >> island & 1
                        and (after & _IM[island]).bit_count() < _NEEDED[island]
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


def _is_turn_end(a: int) -> bool:
    return TAKE_BASE <= a < HANDICAP_BASE


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
        self.root_ev = _Evaluator(ctx, view)
        self.root_state = _initial_state(ctx)
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
            state = _apply(state, to_action(code))
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
                priors[a] = _reward(ev.value(_apply(state, to_action(a))) - self.base)
        self.turn_priors[path] = priors
        return priors

    def _evaluate(self, sim: Sim) -> float:
        """The reward for the searching seat of a playout's last position."""
        me = self.seat
        if sim.phase == OVER:
            if sim.winner is None:
                return 0.5
            return 1.0 if sim.winner == me else 0.0
        return _reward(_sim_value(self.ctx, sim, me) - self.base)

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
            if _is_turn_end(best_code):
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
            if _is_turn_end(a):
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


# ===== determinized evaluation of whole-turn plans ===============================================
#
# The levels of shared.ai search here. A candidate is a whole turn: the plays (placements,
# removals, discards when the hand is full) and the way the turn ends (a draw, a face-up card,
# abstaining, the end of a final turn). The candidates are the best plans by the greedy
# evaluation of the turn's end (the greedy player's own plan is among them, looked at deeper
# than it does, to the end of the turn), the best plan of each first play, and ending the turn
# at once in every way. Each candidate is then played in samples of the hidden cards: the
# plan, then the opponent's reply with a greedy policy that sees its sampled hand, then the
# greedy evaluation for the searching seat (points scored meanwhile included; an ended game
# scores exactly), after the searching seat's own plays of its next turn (greedy, like the
# reply): the greedy evaluation is made for the end of a play phase, and at the start of a
# turn it misjudges both sides' threats (without those plays the search scored 42% against the
# greedy player, with them 91%, 200 plan evaluations a decision). All candidates meet the
# same samples (common random numbers), and the worse half is dropped at fixed shares of the
# budget (successive halving). The choice is the first action of the best plan; the next
# decision of the turn plans again.

PLAN_WIDTH = 24  # states kept per depth while enumerating the turn's plays
PLAN_CANDIDATES = 12  # plans compared in samples (more come from distinct first plays)
TERMINAL = 300.0  # a game won (or minus, lost) before the searching seat moves again
REPLY_CARD = 0.8  # the reply plays a card only for at least this much gain per card
LEAF_PLAYS = True  # the searching seat's next plays before the evaluation


def _ivalue(m: int, o: int, island: int, mine: bool, theirs: bool) -> float:
    return _island_value(m, o, island, mine, theirs, 1.0, 1.0)


# _IV[((island * 8 + m) * 8 + o) * 3 + st]: _ivalue of island with m and o bridges, st 0 when
# nobody holds it, 1 when the owner of m holds it, 2 when the other player does.
_IV: tuple[float, ...] = tuple(
    _ivalue(m, o, island, st == 1, st == 2) if m + o <= DEGREE[island] else 0.0
    for island in range(NUM_ISLANDS)
    for m in range(8)
    for o in range(8)
    for st in range(3)
)


def _board_total(me: int, opp: int, mt: int, ot: int) -> float:
    """The board's value for the owner of `me` (islands and bridges only)."""
    total = BRIDGE * me.bit_count()
    iv = _IV
    for island in range(NUM_ISLANDS):
        mask = _IM[island]
        st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
        total += iv[
            ((island * 8 + (me & mask).bit_count()) * 8 + (opp & mask).bit_count()) * 3 + st
        ]
    return total


def _reply_gain(sim: Sim, a: int) -> float:
    """What play `a` gains the player to move on the board (its own view of it)."""
    s = sim.to_move
    o = 1 - s
    me, opp = sim.bridges[s], sim.bridges[o]
    mt, ot = sim.tokens[s], sim.tokens[o]
    iv = _IV
    if a < REMOVE_BASE:
        line = a >> 1
        gain = BRIDGE
        for island in _LINES[line]:
            mask = _IM[island]
            m = (me & mask).bit_count()
            if not mt >> island & 1 and m + 1 >= _NEEDED[island]:
                break  # won: bridges go elsewhere too, counted in full below
            st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
            k = ((island * 8 + m) * 8 + (opp & mask).bit_count()) * 3 + st
            gain += iv[k + 24] - iv[k]  # one more of the mover's bridges: m + 1
        else:
            return gain
        me2, opp2, mt2, ot2 = place_bridge(me, opp, mt, ot, line)
        gain = _board_total(me2, opp2, mt2, ot2) - _board_total(me, opp, mt, ot)
        if sim.round >= 2 and not opp2:
            gain += WIN
        return gain
    rebuild = a >= REBUILD_BASE
    line = (a - (REBUILD_BASE if rebuild else REMOVE_BASE)) // 3
    opp2 = opp & ~(1 << line)
    if rebuild:
        ot2 = tokens_kept(opp2, ot)
        me2, opp2, mt2, ot2 = place_bridge(me, opp2, mt, ot2, line)
        gain = _board_total(me2, opp2, mt2, ot2) - _board_total(me, opp, mt, ot)
    else:
        # Only the line's two islands change: one bridge fewer, perhaps the token gone.
        gain = 0.0
        for island in _LINES[line]:
            mask = _IM[island]
            m = (me & mask).bit_count()
            n = (opp & mask).bit_count()
            st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
            st2 = 0 if st == 2 and n - 1 < _NEEDED[island] else st
            base = (island * 8 + m) * 8
            gain += iv[(base + n - 1) * 3 + st2] - iv[(base + n) * 3 + st]
    if sim.round >= 2 and not opp2:
        gain += WIN
    return gain


def _reply_turn(sim: Sim, plays_only: bool = False) -> None:
    """The player to move plays its turn greedily: the play with the best gain while it is
    worth its cards, then a draw (or the face-up card that ends the round when that scores
    for it, or abstaining rather than ending it when behind). With `plays_only`, it stops
    before ending the turn."""
    s = sim.to_move
    while True:
        _reply_plays(sim, REPLY_CARD)
        if plays_only or sim.phase == OVER or sim.to_move != s:
            return
        sim.apply(_reply_ender(sim, sim.legal()))
        if sim.phase == OVER or sim.to_move != s:
            return


def _reply_ender(sim: Sim, legal: list[int]) -> int:
    if END in legal:
        return END
    takes = [a for a in legal if TAKE_BASE <= a < DRAW]
    if takes and not sim.pile and len(sim.face_up) == 1 and sim.round < 3:
        s = sim.to_move
        ahead = sim.tokens[s].bit_count() - sim.tokens[1 - s].bit_count()
        if ahead > 0 or ABSTAIN not in legal:
            return takes[0]
        return ABSTAIN
    if DRAW in legal:
        return DRAW
    if takes:
        # The face-up card that pairs with one in hand, else the first.
        hand = sim.hand[sim.to_move]
        for a in takes:
            if hand[a - TAKE_BASE]:
                return a
        return takes[0]
    if ABSTAIN in legal:
        return ABSTAIN
    # A full hand after the opponent abstained: discard the least useful card.
    discards = [a for a in legal if DISCARD_BASE <= a < TAKE_BASE]
    if discards:
        hand = sim.hand[sim.to_move]
        return max(discards, key=lambda a: (hand[a - DISCARD_BASE], -a))
    return legal[0]


def _reply_options(sim: Sim) -> list[Sim]:
    """The opponent's turn played a few plausible ways: its greedy plays (or, more eager,
    every play that gains on the board, or none) followed by each way to end the turn."""
    outs: list[Sim] = []
    seen: set[tuple[int, int, int, int]] = set()
    for threshold in (REPLY_CARD, 0.0, None):
        played = sim.copy()
        if threshold is not None:
            _reply_plays(played, threshold)
        key = (played.bridges[0], played.bridges[1], played.tokens[0], played.tokens[1])
        if key in seen:
            continue
        seen.add(key)
        if played.phase == OVER:
            outs.append(played)
            continue
        legal = played.legal()
        enders = [a for a in legal if _is_turn_end(a)]
        if not enders:
            _reply_turn(played)
            outs.append(played)
            continue
        for a in enders:
            out = played.copy()
            out.apply(a)
            if out.phase != OVER and out.to_move == sim.to_move:
                _reply_turn(out)  # a discard is still due
            outs.append(out)
    return outs


def _reply_plays(sim: Sim, threshold: float) -> None:
    """The player to move plays greedily while a play gains more than `threshold` a card."""
    s = sim.to_move
    while sim.phase != OVER and sim.to_move == s:
        best = -1
        best_gain = 0.0
        for a in sim.legal():
            if a >= DISCARD_BASE:
                break  # plays come first in legal()
            cards = 1 if a < REMOVE_BASE else 2
            gain = _reply_gain(sim, a) - threshold * cards
            if gain > best_gain:
                best, best_gain = a, gain
        if best < 0:
            return
        sim.apply(best)


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
        self.ev = _Evaluator(ctx, view, weights)
        self.legal_root = [from_action(a) for a in legal_actions(ctx)]
        if not self.legal_root:
            raise ValueError("there is no legal action: the game is over")
        pub = view.public
        self.base_points = _points_lead(pub.round_points, self.seat)
        self.plans = self._candidates()

    # ----- candidates -----------------------------------------------------------------------

    def _candidates(self) -> list[tuple[int, ...]]:
        """Plans as action codes, the best first by the greedy evaluation of the turn's end."""
        ev = self.ev
        ctx = self.ctx
        start = _initial_state(ctx)
        legal = set(self.legal_root)
        # Every distinct state the turn's plays reach, with the plays that reach it.
        seen: dict[tuple[int, int, tuple[int, ...]], tuple[int, ...]] = {
            (start.me, start.opp, start.hand): ()
        }
        states: list[tuple[_State, tuple[int, ...]]] = [(start, ())]
        frontier = states
        full = ctx.phase is Phase.PLAY and sum(ctx.hand) >= HAND_LIMIT
        while frontier:
            grown: list[tuple[float, _State, tuple[int, ...]]] = []
            for state, path in frontier:
                if not sum(state.hand):
                    continue
                follows: list[Action] = _plays(ev, state)
                if full and sum(state.hand) >= HAND_LIMIT:
                    follows += [Discard(c) for c in range(NUM_ISLANDS) if state.hand[c]]
                for action in follows:
                    after = _apply(state, action)
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
            return min(self._score(out) for out in _reply_options(sim))
        if sim.phase != OVER and sim.to_move != me:
            _reply_turn(sim)
        return self._score(sim)

    def _score(self, sim: Sim) -> float:
        """The position after the opponent's reply, for the searching seat."""
        me = self.seat
        for _ in range(self.deep):
            # A whole turn more for each side, both greedy.
            if sim.phase != OVER and sim.to_move == me:
                _reply_turn(sim)
            if sim.phase != OVER and sim.to_move != me:
                _reply_turn(sim)
        if LEAF_PLAYS and sim.phase != OVER and sim.to_move == me:
            _reply_turn(sim, plays_only=True)
        if sim.phase == OVER:
            if sim.winner is None:
                return 0.0
            return TERMINAL if sim.winner == me else -TERMINAL
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
                base = self.sampler.sim(rng, RandomSource(rng))
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
    points = _points_lead(sim.points, me) - base_points
    value = _sim_value(ctx, sim, me, w) + w.point * points
    if opponent_hand:
        # The evaluation values the searcher's cards in hand, not the opponent's: without
        # this, cards the opponent keeps for its next turn look harmless.
        value -= w.opp_hand * _hand_value(ctx, sim, 1 - me, w)
    return value


def _points_lead(points: Sequence[tuple[int, int]], me: int) -> int:
    """Seat `me`'s lead in the points of the scorings so far."""
    return sum(p[me] - p[1 - me] for p in points)


def _sim_value(ctx: TurnContext, sim: Sim, me: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
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


def _hand_value(ctx: TurnContext, sim: Sim, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
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
) -> tuple[_Evaluator, _State]:
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
    ev = _Evaluator.from_parts(sub, sim.round, sim.final_left, unknown, weights)
    return ev, _State(sim.bridges[seat], sim.bridges[opp], sim.tokens[seat], sim.tokens[opp], hand)


def _turn_key(view: SeatView, state: _State) -> tuple[object, ...]:
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
        code = self._next.pop(_turn_key(view, _initial_state(ctx)), None)
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
        state = _initial_state(ctx)
        for done, code in itertools.pairwise(plan):
            if _is_turn_end(done):
                break
            state = _apply(state, to_action(done))
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
) -> Action:
    """The first action of the best whole-turn plan for the seat to move in `view`, decided
    from that view alone. `candidates` plans at least are compared (PLAN_CANDIDATES by
    default); with `deep`, that many more whole turns of each side are played greedily in the
    samples before the evaluation. `paranoid`: each plan meets the opponent's worst reply of a
    few; `opponent_hand`: the cards the opponent holds after its reply count against the plan;
    `weights`: the evaluation's.
    With `plans`, a decision later in a turn follows the plan chosen earlier in it (see
    TurnPlans), and the plan chosen now is recorded there."""
    if plans is not None:
        followed = plans.follow(view)
        if followed is not None:
            return followed
    search = PlanSearch(
        view,
        candidates=candidates,
        deep=deep,
        paranoid=paranoid,
        opponent_hand=opponent_hand,
        weights=weights,
    )
    if len(search.legal_root) == 1:
        return to_action(search.legal_root[0])
    plan = search.plans[0] if len(search.plans) == 1 else search.run(rng, iterations, seconds)
    if plans is not None:
        plans.record(view, plan)
    return to_action(plan[0])
