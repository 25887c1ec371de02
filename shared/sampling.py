"""Complete hidden states consistent with what one seat sees, for search.

A seat sees its own hand, the face-up row, the cards played face up since the last reshuffle,
the open cards of Variant 2, and only the numbers of the other cards: the opponent's hidden
hand, the draw pile and the face-down discards. `Sampler` deals those unseen cards at random
among the three places, so that every sample shows the seat exactly the view it came from.

Cards a player surely holds ("known cards": everyone saw them taken from the face-up row and
they have not been played since) can be given per seat; a sample then puts them in that
player's hand. For the seat itself they must be in its hand (it sees its hand anyway).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from shared.board import NUM_ISLANDS
from shared.game import FULL_DECK
from shared.playout import Sim
from shared.position import Position
from shared.randomness import CardSource
from shared.types import Phase, Seat
from shared.views import SeatView


class SamplingError(ValueError):
    """A view (or known cards) that no complete state matches."""


class Hidden(NamedTuple):
    """What a seat cannot see, filled in."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]  # hidden hand cards per seat (not open ones)
    pile: tuple[int, ...]  # top first
    face_down: tuple[int, ...]


class Sampler:
    """Deals the cards a seat cannot see, consistently with its view, as often as asked."""

    def __init__(self, view: SeatView, known: Sequence[Sequence[int]] | None = None) -> None:
        pub = view.public
        self.view = view
        seat = view.seat
        self.seat = int(seat)
        opp = 1 - self.seat
        self.opp = opp
        mine = Counter(view.hand)
        my_open = Counter(pub.open_cards[seat])
        if my_open - mine:
            raise SamplingError("the seat's open cards are not in its hand")
        self.my_hidden = tuple(sorted((mine - my_open).elements()))
        seen = Counter(view.hand) + Counter(pub.face_up) + Counter(pub.played)
        seen += Counter(pub.open_cards[opp])
        unseen = Counter(FULL_DECK) - seen
        if seen - Counter(FULL_DECK):
            raise SamplingError("the view shows more cards of an island than exist")
        self.opp_hidden_size = pub.hand_sizes[opp] - len(pub.open_cards[opp])
        if pub.hand_sizes[self.seat] != len(view.hand):
            raise SamplingError("the seat's hand size does not match its hand")
        known_mine: Sequence[int] = ()
        known_theirs: Sequence[int] = ()
        if known is not None:
            known_mine, known_theirs = known[self.seat], known[opp]
        if Counter(known_mine) - mine:
            raise SamplingError("a card known to be in the seat's hand is not in it")
        # Known cards lying open are already placed; the rest must be hidden in the hand.
        theirs_known = Counter(known_theirs) - Counter(pub.open_cards[opp])
        if theirs_known - unseen:
            raise SamplingError("a card known to be in the opponent's hand cannot be there")
        if theirs_known.total() > self.opp_hidden_size:
            raise SamplingError("more known cards than the opponent's hidden hand holds")
        self.known_theirs = tuple(sorted(theirs_known.elements()))
        self.pool = sorted((unseen - theirs_known).elements())
        self.random_in_hand = self.opp_hidden_size - len(self.known_theirs)
        if len(self.pool) != self.random_in_hand + pub.pile_size + pub.face_down_count:
            raise SamplingError("the unseen cards do not fill the hidden places")

    def sample(self, rng: random.Random, dealt: Sequence[int] | None = None) -> Hidden:
        """One complete filling of the hidden places, uniformly among those consistent; with
        `dealt` (the `random_in_hand` cards of an earlier sample's opponent hand that are not
        known cards: `opponent_dealt`), the opponent holds those and the rest is dealt."""
        if dealt is None:
            pool = self.pool[:]
            rng.shuffle(pool)
        else:
            rest = list((Counter(self.pool) - Counter(dealt)).elements())
            rng.shuffle(rest)
            pool = [*dealt, *rest]
        k = self.random_in_hand
        pile_end = k + self.view.public.pile_size
        theirs = tuple(sorted((*self.known_theirs, *pool[:k])))
        hands = (self.my_hidden, theirs) if self.seat == 0 else (theirs, self.my_hidden)
        return Hidden(hands, tuple(pool[k:pile_end]), tuple(pool[pile_end:]))

    def opponent_dealt(self, hidden: Hidden) -> tuple[int, ...]:
        """The cards of the opponent's hidden hand in `hidden` that are not known cards."""
        dealt = Counter(hidden.hands[self.opp]) - Counter(self.known_theirs)
        return tuple(sorted(dealt.elements()))

    def position(self, hidden: Hidden) -> Position:
        """The sample as a set-up position (the play phase or a final turn only)."""
        pub = self.view.public
        return Position(
            options=pub.options,
            bridges=pub.bridges,
            hands=hidden.hands,
            open_cards=pub.open_cards,
            face_up=pub.face_up,
            pile=hidden.pile,
            played=pub.played,
            face_down=hidden.face_down,
            round=pub.round,
            round_points=pub.round_points,
            to_move=pub.to_move,
            phase=pub.phase,
            final_turns_left=pub.final_turns_left,
            opponent_abstained=pub.opponent_abstained,
        )

    def sim(
        self,
        rng: random.Random,
        source: CardSource,
        first: Seat | None = None,
        dealt: Sequence[int] | None = None,
    ) -> Sim:
        """A sample as a playout state; reshuffles come from `source`. In the handicap phase
        the view does not say who moves first after it: `first` (by default the opponent of
        the handicapped player) stands in. `dealt`: as for `sample`."""
        return self.sim_of(self.sample(rng, dealt), source, first)

    def sim_of(self, hidden: Hidden, source: CardSource, first: Seat | None = None) -> Sim:
        """The view with `hidden` filled in, as a playout state (see `sim`)."""
        pub = self.view.public
        hand = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
        opened = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
        for s in (0, 1):
            for card in hidden.hands[s]:
                hand[s][card] += 1
            for card in pub.open_cards[s]:
                hand[s][card] += 1
                opened[s][card] += 1
        if pub.phase is Phase.HANDICAP:
            after = int(first) if first is not None else 1 - int(pub.to_move)
        else:
            after = int(pub.to_move)
        return Sim.load(
            pub, source, hand, opened, pub.hand_sizes, hidden.pile, hidden.face_down, after
        )
