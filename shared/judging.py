"""One turn judged in common samples, for the analysis (shared.analysis): skill apart from luck.

Each sample fills in what the mover could not see as the turn began (shared.sampling), and is
played out greedily to the game's end (shared.replies) several ways:

- the turn played, the card its end turns up coming from the sample: the chance the turn left,
  averaged over the cards it could have turned up (`played`);
- the best turn (the search's plan) the same way (`best`);
- the turn played with the card it really turned up put on top of the sample's pile (drawn,
  or turned up into the face-up row after a `take`): the chance once that card was seen
  (`revealed`).

The ways of one sample meet the same hidden cards and the same reshuffles (common random
numbers), so the differences between them, the cost of the turn against the best one and the
luck of its card, are measured with much less noise than the chances themselves; the standard
error of the cost comes from the spread of its differences, sample by sample. This is how GNU
Backgammon tells a player's errors from the luck of the dice: a play is judged against the
best play before the dice that follow are known, and the luck of a roll is what it changed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import attrs

from shared.playout import OVER, RandomSource, Sim
from shared.replies import reply_turn
from shared.sampling import Hidden, Sampler
from shared.views import SeatView

TURN_LIMIT = 400  # greedy turns in one playout before it is called a draw (never reached)


@attrs.frozen
class Shares:
    """What one turn's samples won (a share of the samples, a draw counting half)."""

    samples: int
    played: float  # the turn played, its card from the sample
    best: float  # the best turn, its card from the sample (the turn played's when the same)
    revealed: float | None  # the turn played with the card it turned up; None: not asked
    cost_error: float  # the standard error of best - played


def won(sim: Sim, me: int) -> float:
    """The sample played out greedily to the end: 1 if `me` wins, 0 if it loses, a half for a
    draw (or a playout that never ends)."""
    for _turn in range(TURN_LIMIT):
        if sim.phase == OVER:
            break
        reply_turn(sim)
    if sim.phase != OVER or sim.winner is None:
        return 0.5
    return 1.0 if sim.winner == me else 0.0


def play_turn(sim: Sim, plan: Sequence[int], me: int) -> Sim:
    """The mover's turn in the sample: the plan's actions while it is the mover's turn, the
    rest of the turn greedily if the plan stops short of ending it (a turn cut short by a
    resignation)."""
    for code in plan:
        if sim.phase == OVER or sim.to_move != me:
            break
        sim.apply(code)
    if sim.phase != OVER and sim.to_move == me:
        reply_turn(sim)
    return sim


def reveal(sampler: Sampler, hidden: Hidden, card: int, rng: random.Random) -> Hidden | None:
    """The sample with `card` on top of the draw pile: the top swapped with one of the hidden
    places holding that card, chosen evenly (the opponent's hand, the pile, the face-down
    discards), which makes the samples even among those with that card on top. None when no
    hidden place holds it."""
    pile = list(hidden.pile)
    if not pile:
        return None
    if pile[0] == card:
        return hidden
    opp = sampler.opp
    hand = list(hidden.hands[opp])
    in_hand = hand.count(card) - sampler.known_theirs.count(card)  # known cards stay put
    places = [("hand", 0)] * max(0, in_hand)
    places += [("pile", i) for i, c in enumerate(pile) if c == card]
    places += [("down", i) for i, c in enumerate(hidden.face_down) if c == card]
    if not places:
        return None
    where, index = places[rng.randrange(len(places))]
    top = pile[0]
    pile[0] = card
    face_down = list(hidden.face_down)
    hands = list(hidden.hands)
    if where == "hand":
        hand.remove(card)
        hands[opp] = tuple(sorted([*hand, top]))
    elif where == "pile":
        pile[index] = top
    else:
        face_down[index] = top
    return Hidden((hands[0], hands[1]), tuple(pile), tuple(face_down))


def fresh(base: Sim, seed: int) -> Sim:
    """A copy of the sample whose reshuffles come from `seed`: every way one sample is played
    meets the same ones."""
    sim = base.copy()
    sim.source = RandomSource(random.Random(seed))
    return sim


def judge(
    view: SeatView,
    played: Sequence[int],
    best: Sequence[int] | None,
    card: int | None,
    rng: random.Random,
    samples: int,
) -> Shares:
    """The turn `played` (action codes, from `view`, the mover's as the turn began) against
    `best` (None: the same turn), and with `card` (not None) the card its end really turned up,
    in `samples` common samples."""
    sampler = Sampler(view, view.public.known)
    me = int(view.seat)
    mine = better = seen = 0.0
    differences: list[float] = []
    for _ in range(samples):
        hidden = sampler.sample(rng)
        seed = rng.getrandbits(64)
        base = sampler.sim_of(hidden, RandomSource(random.Random(seed)))
        this = won(play_turn(fresh(base, seed), played, me), me)
        mine += this
        if best is not None:
            other = won(play_turn(fresh(base, seed), best, me), me)
            better += other
            differences.append(other - this)
        if card is not None:
            # (its own generator: the other ways of the samples do not depend on the card)
            shown = reveal(sampler, hidden, card, random.Random(seed))
            if shown is None:  # the card cannot be on top here: the sample as it is
                shown = hidden
            sim = sampler.sim_of(shown, RandomSource(random.Random(seed)))
            seen += won(play_turn(sim, played, me), me)
    error = 0.0
    if best is None:
        better = mine
    elif samples > 1:
        mean = sum(differences) / samples
        spread = sum((d - mean) ** 2 for d in differences) / (samples - 1)
        error = math.sqrt(spread / samples)
    return Shares(
        samples,
        mine / samples,
        better / samples,
        None if card is None else seen / samples,
        error,
    )
