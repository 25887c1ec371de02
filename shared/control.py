"""Control of islands on bit masks: the one place the majority rule is computed.

The game applies it (and tells the events); the computer opponent uses the same functions to
look ahead, so the two can never disagree about who holds what.
"""

from __future__ import annotations

from shared.board import ISLAND_MASK, LINES, NEEDED, NUM_ISLANDS


def majority_mask(bridges: int) -> int:
    """The islands on which these bridges hold more than half of the lines."""
    mask = 0
    for island in range(NUM_ISLANDS):
        if (bridges & ISLAND_MASK[island]).bit_count() >= NEEDED[island]:
            mask |= 1 << island
    return mask


def tokens_kept(bridges: int, tokens: int) -> int:
    """The tokens that stay after bridges were lost: only those on a strict majority."""
    kept = rest = tokens
    while rest:
        low = rest & -rest
        rest ^= low
        island = low.bit_length() - 1
        if (bridges & ISLAND_MASK[island]).bit_count() < NEEDED[island]:
            kept &= ~low
    return kept


def place_bridge(
    mine: int, theirs: int, my_tokens: int, their_tokens: int, line: int
) -> tuple[int, int, int, int]:
    """A bridge on `line` and what follows: islands won, the opponent's bridges there removed,
    and the opponent's tokens that no longer stand on a majority taken off.

    Returns (mine, theirs, my_tokens, their_tokens) after it all.
    """
    mine |= 1 << line
    gained = doomed = 0
    for island in LINES[line]:
        if (
            not my_tokens >> island & 1
            and (mine & ISLAND_MASK[island]).bit_count() >= NEEDED[island]
        ):
            gained |= 1 << island
            doomed |= theirs & ISLAND_MASK[island]
    if doomed:
        theirs &= ~doomed
        their_tokens = tokens_kept(theirs, their_tokens)
    return mine, theirs, my_tokens | gained, their_tokens
