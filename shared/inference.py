"""What the opponent's last turns say about the cards it holds, for the strong level's samples.

Every player at the table saw the opponent's turns: each play, and how each turn ended. A hand
that explains those choices is likelier than one that does not. `HandPosterior` deals a number
of the opponent's possible hands at random (shared.sampling.Sampler), asks of each how well it
explains the last turns under a model of the opponent (the greedy player of shared.greedy: each
decision the model could have made too counts 1, each it would not have made MISMATCH), and
hands the search its samples' opponent hands in proportion. Going back a turn, the hand held
then is the one held after it, less the card drawn (a card from the pile could be any of them:
each is weighed by its share) and plus the cards played. A model that fits the opponent badly
makes the weights near equal, and the samples near uniform again.

Only public information is read: the public views before each of the opponent's decisions and
the actions it took (shared.seen); a card discarded face down is not seen (its action is None),
and the reading stops at that turn.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence

from shared.actions import TURN_ENDS, Action, Discard, Draw, Place, Remove, Take
from shared.greedy import greedy_would
from shared.sampling import Sampler
from shared.seen import SEEN_TURNS, Seen
from shared.types import Seat
from shared.views import SeatView

__all__ = ["HYPOTHESES", "MISMATCH", "HandPosterior", "OpponentTurn", "cards_used"]

# One of the opponent's turns as everyone saw it (shared.seen).
OpponentTurn = Sequence[Seen]

MISMATCH = 0.25  # a decision of the turn the model would not have made multiplies by this
HYPOTHESES = 160  # opponent hands weighed per decision, at most


def cards_used(action: Action) -> tuple[int, ...]:
    """The cards an action takes from the hand that plays it."""
    if isinstance(action, Place | Discard):
        return (action.card,)
    if isinstance(action, Remove):
        return action.cards
    return ()


class HandPosterior:
    """Opponent hands weighted by how well they explain the opponent's last turns."""

    def __init__(self, sampler: Sampler, turns: Sequence[OpponentTurn]) -> None:
        self.sampler = sampler
        self.opp = Seat(sampler.opp)
        # The readable turns at the end, the last one last: an unreadable turn (a card not
        # seen) cuts the chain there.
        chain: list[tuple[Seen, ...]] = []
        for turn in reversed(turns[-SEEN_TURNS:]):
            if not self._readable(tuple(turn)):
                break
            chain.append(tuple(turn))
        self.turns = tuple(reversed(chain))
        self.hands: list[tuple[int, ...]] = []  # Sampler.opponent_dealt of each hypothesis
        self.weights: list[float] = []
        self._memo: dict[tuple[int, tuple[int, ...]], float] = {}
        self.informative = bool(self.turns)

    def _readable(self, turn: tuple[Seen, ...]) -> bool:
        """Whether a turn can be read: the opponent's, whole, every card seen, no variant 2
        (its open cards), and ended by a draw, a take, abstaining or a final turn's end."""
        if not turn or self.sampler.view.public.options.variant2:
            return False
        if not isinstance(turn[-1][1], TURN_ENDS):
            return False
        return all(a is not None and pub.to_move is self.opp for pub, a in turn)

    def build(
        self, rng: random.Random, hypotheses: int = HYPOTHESES, seconds: float | None = None
    ) -> None:
        """Weigh up to `hypotheses` random opponent hands (fewer if `seconds` run out)."""
        if not self.informative:
            return
        begin = time.monotonic()
        for _ in range(hypotheses):
            if seconds is not None and self.hands and time.monotonic() - begin >= seconds:
                break
            hidden = self.sampler.sample(rng)
            self.hands.append(self.sampler.opponent_dealt(hidden))
            self.weights.append(self.likelihood(hidden.hands[self.opp]))
        if not any(self.weights) or min(self.weights) == max(self.weights):
            self.informative = False  # nothing told apart: uniform samples are better

    def draw(self, rng: random.Random) -> tuple[int, ...] | None:
        """The dealt part of an opponent hand for one sample (None: deal at random)."""
        if not self.informative:
            return None
        return rng.choices(self.hands, self.weights)[0]

    def likelihood(self, hand_now: Sequence[int]) -> float:
        """How well the opponent's turns are explained if it now holds `hand_now`."""
        return self._ended(len(self.turns) - 1, tuple(sorted(hand_now)))

    def _ended(self, t: int, hand: tuple[int, ...]) -> float:
        """How well turns 0..t are explained if turn t ended with `hand` held."""
        if t < 0:
            return 1.0
        key = (t, hand)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        turn = self.turns[t]
        now = Counter(hand)
        used: Counter[int] = Counter()
        for _, action in turn:
            assert action is not None
            used.update(cards_used(action))
        ender = turn[-1][1]
        drawn: list[tuple[int | None, float]]
        if isinstance(ender, Take):
            drawn = [(ender.card, 1.0)]
        elif isinstance(ender, Draw):
            size = now.total()
            drawn = [(card, n / size) for card, n in now.items()] if size else []
        else:
            drawn = [(None, 1.0)]
        total = 0.0
        for card, share in drawn:
            start = now + used
            if card is not None:
                if not start[card]:
                    continue
                start[card] -= 1
            begun = tuple(sorted(start.elements()))
            explained = self._explained(turn, begun)
            if explained:
                total += share * explained * self._ended(t - 1, begun)
        self._memo[key] = total
        return total

    def _explained(self, turn: tuple[Seen, ...], start: tuple[int, ...]) -> float:
        """MISMATCH to the number of the turn's decisions the model would not have made."""
        hand = Counter(start)
        weight = 1.0
        for pub, action in turn:
            assert action is not None
            used = Counter(cards_used(action))
            if hand.total() != pub.hand_sizes[self.opp] or used - hand:
                return 0.0  # this hand could not have made the turn
            view = SeatView(self.opp, pub, tuple(sorted(hand.elements())))
            if not greedy_would(view, action):
                weight *= MISMATCH
            hand -= used
        return weight
