"""The position evaluation the computer opponent plays by (shared.ai) and searches with
(shared.search): a static score of the board after a turn's plays (tokens, progress towards
majorities, threats the opponent could complete on its next turn, safety of held islands), plus
what the cards still in hand are worth and what the draw at the end of the turn is worth.

The control rules are re-simulated on bit masks (`State`, `apply_action`): a bridge that reaches
NEEDED[island] lines wins the island and removes the opponent's bridges there, which may cost
the opponent other islands. Pure: no I/O, no clocks, no randomness.
"""

from __future__ import annotations

from typing import NamedTuple

from shared.actions import Abstain, Action, Discard, Draw, EndTurn, Handicap, Place, Remove, Take
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
from shared.control import place_bridge, tokens_kept
from shared.legality import TurnContext, legal_actions
from shared.types import Phase
from shared.views import SeatView

# ----- weights of the evaluation ---------------------------------------------------------------

TOKEN = 10.0  # an island held with a Kahuna token
# Progress towards a majority on an island nobody holds, by the number of bridges still missing.
PROGRESS = (0.0, 5.5, 2.5, 0.9, 0.2)
BLOCKED = 0.3  # progress counts this much when the free lines cannot complete the majority
# The opponent's progress, likewise. It moves next, so its progress weighs more than ours (by
# 30%: self-play preferred this to lower weights).
OPP_PROGRESS = (0.0, 7.15, 3.25, 1.17, 0.26)
SAFE = 0.5  # a held island with a bridge to spare cannot be broken by one removal
BRIDGE = 0.15  # a bridge on the board (the last tie-break; and bridges are presence)
FEW_BRIDGES = 4.0  # rounds 2 and 3: a player without a bridge on the board loses at once
CARD_BASE = 0.4  # a card in hand is worth something even with no good use yet
CARD_USE = 0.45  # ...plus this share of the best placement it allows now
PAIR_USE = 0.35  # share of the best removal the hand allows now
TRIGGER = 3.0  # per point: ending the round by taking the last card while ahead
WIN = 1000.0
SCORING_SOON = 2  # cards left to draw in the round (pile and face-up row) that count as soon
SOON_SCALE = 0.5
POINT = 8.0  # a point already scored, in the search's leaves (a token is TOKEN = 10)


class Weights(NamedTuple):
    """The evaluation's weights; the defaults are the constants above. The last two weigh the
    search's leaves (shared.sample_value.leaf_value): a point scored, and the opponent's cards in
    hand (when the level counts them)."""

    progress: tuple[float, ...] = PROGRESS
    opp_progress: tuple[float, ...] = OPP_PROGRESS
    blocked: float = BLOCKED
    safe: float = SAFE
    bridge: float = BRIDGE
    few_bridges: float = FEW_BRIDGES
    card_base: float = CARD_BASE
    card_use: float = CARD_USE
    pair_use: float = PAIR_USE
    trigger: float = TRIGGER
    soon_scale: float = SOON_SCALE
    point: float = POINT
    opp_hand: float = 1.0


DEFAULT_WEIGHTS = Weights()
# Fitted to games (bench/tune_weights.py): the search's leaf value at the start of each turn of
# 600 games of the normal level (400 iterations a decision) against itself, through a logistic,
# against who won them. On the turns of 200 more games left out of the fit, the squared error
# of that prediction fell from 0.148 (the defaults) to 0.140.
# Among other things, a card in hand is worth about twice what the defaults said.
TUNED_WEIGHTS = Weights(
    progress=(0.0, 6.875, 2.5, 0.675, 0.2),
    opp_progress=(0.0, 7.15, 3.25, 2.34, 0.26),
    blocked=0.825,
    safe=2.0,
    bridge=0.2625,
    few_bridges=FEW_BRIDGES,  # a player without bridges loses: too rare in games to fit
    card_base=0.9,
    card_use=1.0125,
    pair_use=0.525,
    trigger=0.75,
    soon_scale=1.0,
    point=6.0,
    opp_hand=1.25,
)  # the strong level's (shared.ai.LEVEL_WEIGHTS)


class State(NamedTuple):
    """A position within the turn of the seat it is seen from: its bridges and tokens, the
    opponent's, and its hand."""

    me: int  # line masks
    opp: int
    my_tokens: int  # island masks
    opp_tokens: int
    hand: tuple[int, ...]  # count per island


def apply_action(state: State, action: Action) -> State:
    """The state after the seat's own play (or handicap bridge); the turn's enders change
    nothing here."""
    me, opp, mt, ot, hand = state
    counts = list(hand)
    if isinstance(action, Place):
        counts[action.card] -= 1
        me, opp, mt, ot = place_bridge(me, opp, mt, ot, action.line)
    elif isinstance(action, Remove):
        for card in action.cards:
            counts[card] -= 1
        opp &= ~(1 << action.line)
        ot = tokens_kept(opp, ot)
        if action.rebuild:
            me, opp, mt, ot = place_bridge(me, opp, mt, ot, action.line)
    elif isinstance(action, Discard):
        counts[action.card] -= 1
    elif isinstance(action, Handicap):
        me, opp, mt, ot = place_bridge(me, opp, mt, ot, action.line)
    return State(me, opp, mt, ot, tuple(counts))


# ----- evaluation ------------------------------------------------------------------------------


def island_value(
    m: int,
    o: int,
    island: int,
    mine: bool,
    theirs: bool,
    my_w: float,
    threat: float,
    w: Weights = DEFAULT_WEIGHTS,
) -> float:
    """What island `island` is worth to me with m of my bridges and o of the opponent's."""
    need = NEEDED[island]
    if mine:
        return TOKEN + (w.safe if m > need else 0.0)
    if theirs:
        return -TOKEN - (w.safe if o > need else 0.0)
    free = DEGREE[island] - m - o
    value = 0.0
    if m:
        p = w.progress[need - m] * my_w
        value += p if m + free >= need else p * w.blocked
    if o:
        p = w.opp_progress[need - o] * threat
        value -= p if o + free >= need else p * w.blocked
    return value


class Evaluator:
    """Scores positions for one decision: the fixed parts of the view are kept here."""

    def __init__(
        self, ctx: TurnContext, view: SeatView, weights: Weights = DEFAULT_WEIGHTS
    ) -> None:
        pub = view.public
        # Cards this seat cannot see anywhere: the opponent's hidden hand, the draw pile and the
        # face-down discards. A blind draw is one of them.
        unknown = [CARDS_PER_ISLAND] * NUM_ISLANDS
        for card in (*view.hand, *pub.face_up, *pub.played, *pub.open_cards[1 - ctx.seat]):
            unknown[card] -= 1
        self.setup(ctx, pub.round, pub.final_turns_left, unknown, weights)

    @classmethod
    def from_parts(
        cls,
        ctx: TurnContext,
        round: int,
        final_turns_left: int,
        unknown: list[int],
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> Evaluator:
        """An evaluator for a position given by parts (search positions have no view)."""
        ev = cls.__new__(cls)
        ev.setup(ctx, round, final_turns_left, unknown, weights)
        return ev

    def setup(
        self,
        ctx: TurnContext,
        round: int,
        final_turns_left: int,
        unknown: list[int],
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.w = weights
        self.ctx = ctx
        self.phase = ctx.phase
        self.variant1 = ctx.options.variant1
        self.round = round
        # In the last of the final turns only the tokens count; cards are worth nothing then.
        self.last_word = ctx.phase is Phase.FINAL and final_turns_left <= 1
        self.threat = 0.0 if self.last_word else 1.0
        # Just before a scoring only tokens count: progress is worth less then.
        soon = ctx.phase is Phase.PLAY and ctx.pile_size + len(ctx.face_up) <= SCORING_SOON
        self.my_w = weights.soon_scale if soon else 1.0
        if soon:
            self.threat *= weights.soon_scale
        self.cards_matter = ctx.phase is Phase.PLAY
        self.unknown = [max(0, n) for n in unknown]
        self.unknown_total = sum(self.unknown)
        self.cache: dict[tuple[int, int, tuple[int, ...]], float] = {}

    # The board alone.
    def board(self, s: State) -> tuple[float, list[float]]:
        """The board's value, and per line the gain of my placing a bridge there next."""
        me, opp, mt, ot = s.me, s.opp, s.my_tokens, s.opp_tokens
        threat, my_w, w = self.threat, self.my_w, self.w
        total = 0.0
        # Per island: value now, and value with one more of my bridges (for card values).
        now = [0.0] * NUM_ISLANDS
        plus = [0.0] * NUM_ISLANDS
        for island in range(NUM_ISLANDS):
            mask = ISLAND_MASK[island]
            m = (me & mask).bit_count()
            o = (opp & mask).bit_count()
            mine = bool(mt >> island & 1)
            theirs = bool(ot >> island & 1)
            v = island_value(m, o, island, mine, theirs, my_w, threat, w)
            now[island] = v
            total += v
            if not theirs and m + 1 >= NEEDED[island] and not mine:
                plus[island] = TOKEN  # the opponent's bridges there go: `now` counted them
            else:
                plus[island] = island_value(m + 1, o, island, mine, theirs, my_w, threat, w)
        n_me, n_opp = me.bit_count(), opp.bit_count()
        total += w.bridge * n_me
        if self.round >= 2 or self.phase is Phase.FINAL:
            if not opp:
                total += WIN
            elif n_opp <= 2:
                total += w.few_bridges * (3 - n_opp) * 0.5
            if n_me <= 2:
                total -= w.few_bridges * (3 - n_me)
        elif n_me <= 1:
            total -= w.few_bridges * 0.5 * (2 - n_me)
        gains = [0.0] * NUM_LINES
        free = ALL_LINES & ~(me | opp)
        if n_me < BRIDGES_PER_PLAYER:
            for line in range(NUM_LINES):
                if not free >> line & 1:
                    continue
                if self.variant1 and LINE_ENDS_MASK[line] & ot:
                    continue
                a, b = LINES[line]
                gains[line] = plus[a] - now[a] + plus[b] - now[b]
        return total, gains

    def removal_gain(self, s: State, line: int) -> float:
        """Roughly what removing the opponent's bridge on `line` is worth to me."""
        opp = s.opp & ~(1 << line)
        gain = 0.0
        for island in LINES[line]:
            mask = ISLAND_MASK[island]
            m = (s.me & mask).bit_count()
            o = (s.opp & mask).bit_count()
            mine = bool(s.my_tokens >> island & 1)
            theirs = bool(s.opp_tokens >> island & 1)
            still = theirs and (opp & mask).bit_count() >= NEEDED[island]
            before = island_value(m, o, island, mine, theirs, self.my_w, self.threat, self.w)
            after = island_value(m, o - 1, island, mine, still, self.my_w, self.threat, self.w)
            gain += after - before
        return gain

    def card_values(self, s: State, gains: list[float]) -> list[float]:
        values = [self.w.card_base] * NUM_ISLANDS
        card_use = self.w.card_use
        for island in range(NUM_ISLANDS):
            best = 0.0
            for line in ISLAND_LINES[island]:
                if gains[line] > best:
                    best = gains[line]
            values[island] += card_use * best
        return values

    def hand_value(self, s: State, values: list[float]) -> float:
        hand = s.hand
        total = 0.0
        for island in range(NUM_ISLANDS):
            if hand[island]:
                total += values[island] * hand[island]
        # Two cards that can remove an opponent's bridge are a threat worth keeping.
        best = 0.0
        opp = s.opp
        while opp:
            low = opp & -opp
            line = low.bit_length() - 1
            opp ^= low
            a, b = LINES[line]
            if (hand[a] and hand[b] and a != b) or hand[a] >= 2 or hand[b] >= 2:
                g = self.removal_gain(s, line)
                if g > best:
                    best = g
        return total + self.w.pair_use * best

    def draw_options(self, s: State, values: list[float]) -> list[tuple[float, Action]]:
        """The ways to end the turn from here, each with its value."""
        ctx = self.ctx
        if ctx.phase is Phase.FINAL:
            return [(0.0, EndTurn())]
        out: list[tuple[float, Action]] = []
        size = sum(s.hand)
        if size < HAND_LIMIT:
            ahead = s.my_tokens.bit_count() - s.opp_tokens.bit_count()
            # Taking the last face-up card from an empty pile ends the round at once.
            ends_round = not ctx.pile_size and len(ctx.face_up) == 1 and self.round < 3
            for card in set(ctx.face_up):
                v = values[card]
                if ends_round:
                    if ahead > 0:
                        v += self.w.trigger * self.round  # the interim scoring goes my way
                    if self.round == 1:  # the second round begins: no bridge, no game
                        if not s.me:
                            v -= WIN
                        elif not s.opp:
                            v += WIN
                out.append((v, Take(card)))
            if ctx.pile_size and self.unknown_total:
                mean = sum(v * n for v, n in zip(values, self.unknown, strict=True))
                out.append((mean / self.unknown_total, Draw()))
        if not ctx.opponent_abstained:
            out.append((0.0, Abstain()))
        return out

    def value(self, s: State) -> float:
        key = (s.me, s.opp, s.hand)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        total, gains = self.board(s)
        if self.cards_matter:
            values = self.card_values(s, gains)
            total += self.hand_value(s, values)
            options = self.draw_options(s, values)
            total += max(v for v, _ in options) if options else -WIN
        self.cache[key] = total
        return total


def evaluate(view: SeatView) -> float:
    """The AI's opinion of the position for `view.seat` (higher is better), cards included."""
    ctx = view.turn_context()
    if ctx is None:
        pub = view.public
        counts = [0] * NUM_ISLANDS
        for card in view.hand:
            counts[card] += 1
        ctx = TurnContext(
            pub.options, pub.phase, view.seat, pub.bridges, pub.tokens, tuple(counts),
            pub.face_up, pub.pile_size, False, pub.handicap_left,
        )  # fmt: skip
    ev = Evaluator(ctx, view)
    return ev.value(initial_state(ctx))


def initial_state(ctx: TurnContext) -> State:
    """The position of the seat to move, as a State."""
    seat = ctx.seat
    return State(
        ctx.bridges[seat],
        ctx.bridges[1 - seat],
        ctx.tokens[seat],
        ctx.tokens[1 - seat],
        tuple(ctx.hand),
    )


def own_plays(ev: Evaluator, s: State) -> list[Action]:
    """Place and remove actions from the state `s` within this turn."""
    ctx = ev.ctx
    seat = ctx.seat
    bridges = (s.me, s.opp) if seat == 0 else (s.opp, s.me)
    tokens = (s.my_tokens, s.opp_tokens) if seat == 0 else (s.opp_tokens, s.my_tokens)
    sub = ctx._replace(bridges=bridges, tokens=tokens, hand=s.hand)
    return [a for a in legal_actions(sub) if isinstance(a, Place | Remove)]
