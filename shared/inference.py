"""What the opponent's last turn says about its hidden hand: a player who could have won an
island with one card and ended its turn without doing it probably does not hold that card.

At the first decision of the searching seat's turn the board is the one the opponent left. A
card is *telling* when one bridge placed with it would have won the opponent an island on that
board. The opponent's hidden hand may hold at most one telling card without saying anything
(the card it drew at the end of its turn came after its plays; none when it abstained); each
telling card beyond that makes the hand less likely by a factor TELLING_ODDS, since a player
sometimes holds a winning card for a reason (an island won now could be broken at once). The
plan search (shared.search) deals the opponent's hand with these likelihoods
(shared.sampling.Sampler's `likelihood`), where it dealt it uniformly.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.board import BRIDGES_PER_PLAYER, LINE_ENDS_MASK, LINES, NUM_LINES
from shared.control import place_bridge
from shared.legality import TurnContext
from shared.types import Phase

TELLING_ODDS = 0.2  # how much less likely a hand is for each telling card beyond those allowed


def telling_islands(ctx: TurnContext) -> int:
    """The islands (a mask) whose cards would each have won the opponent an island with one
    bridge on the board as it stands, or 0 when the board says nothing about its hand: later
    in the searching seat's turn (its own plays changed the board), outside the play phase, or
    when the opponent has no bridge left to place."""
    if ctx.phase is not Phase.PLAY or ctx.undoable:
        return 0
    opp = 1 - int(ctx.seat)
    theirs, mine = ctx.bridges[opp], ctx.bridges[int(ctx.seat)]
    their_tokens, my_tokens = ctx.tokens[opp], ctx.tokens[int(ctx.seat)]
    if theirs.bit_count() >= BRIDGES_PER_PLAYER:
        return 0
    taken = theirs | mine
    mask = 0
    for line in range(NUM_LINES):
        if taken >> line & 1:
            continue
        if ctx.options.variant1 and LINE_ENDS_MASK[line] & my_tokens:
            continue  # Variant 1: nobody builds at an island the other player holds
        _, _, won, _ = place_bridge(theirs, mine, their_tokens, my_tokens, line)
        if won != their_tokens:
            a, b = LINES[line]
            mask |= 1 << a | 1 << b
    return mask


class HandLikelihood:
    """How likely a dealing of the opponent's hidden cards is, given its last turn (see the
    module). The hand it played its turn with held no telling card; then it drew one card,
    which may be any, unless it abstained. So a dealing with no telling card is as likely as
    before (1), one with a single telling card only if that card is the one drawn (1 in the
    number of cards dealt), and the rest of the time a player who held the card for a reason:
    TELLING_ODDS for each telling card that cannot be the new one."""

    def __init__(self, ctx: TurnContext) -> None:
        self.telling = telling_islands(ctx)
        self.drew = not ctx.opponent_abstained

    @property
    def informative(self) -> bool:
        return self.telling != 0

    def __call__(self, cards: Sequence[int]) -> float:
        telling = self.telling
        count = sum(1 for card in cards if telling >> card & 1)
        if not count:
            return 1.0
        if self.drew and count == 1:
            new = 1.0 / len(cards)  # the telling card is the one drawn after the plays
            return new + (1.0 - new) * TELLING_ODDS
        return TELLING_ODDS ** (count - 1 if self.drew else count)


__all__ = ["TELLING_ODDS", "HandLikelihood", "telling_islands"]
