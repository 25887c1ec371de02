"""The opponent's reply in the plan search's samples (shared.search): a fast greedy turn on a
Sim, scored on the board alone with a table of the evaluation's island values (shared.evaluation),
and for the paranoid search a few plausible ways to play it."""

from __future__ import annotations

from shared.board import DEGREE, ISLAND_MASK, LINES, NEEDED, NUM_ISLANDS
from shared.control import place_bridge, tokens_kept
from shared.evaluation import BRIDGE, WIN, island_value
from shared.playout import (
    ABSTAIN,
    DISCARD_BASE,
    DRAW,
    END,
    OVER,
    REBUILD_BASE,
    REMOVE_BASE,
    TAKE_BASE,
    Sim,
    is_turn_end,
)

REPLY_CARD = 0.8  # the reply plays a card only for at least this much gain per card


def _ivalue(m: int, o: int, island: int, mine: bool, theirs: bool) -> float:
    return island_value(m, o, island, mine, theirs, 1.0, 1.0)


# _IV[((island * 8 + m) * 8 + o) * 3 + st]: _ivalue of island with m and o bridges, st 0 when
# nobody holds it, 1 when the owner of m holds it, 2 when the other player does.
_IV: tuple[float, ...] = tuple(
    _ivalue(m, o, island, st == 1, st == 2) if m + o <= DEGREE[island] else 0.0
    for island in range(NUM_ISLANDS)
    for m in range(8)
    for o in range(8)
    for st in range(3)
)


def board_total(me: int, opp: int, mt: int, ot: int) -> float:
    """The board's value for the owner of `me` (islands and bridges only)."""
    total = BRIDGE * me.bit_count()
    iv = _IV
    for island in range(NUM_ISLANDS):
        mask = ISLAND_MASK[island]
        st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
        total += iv[
            ((island * 8 + (me & mask).bit_count()) * 8 + (opp & mask).bit_count()) * 3 + st
        ]
    return total


def reply_gain(sim: Sim, a: int) -> float:
    """What play `a` gains the player to move on the board (its own view of it)."""
    s = sim.to_move
    o = 1 - s
    me, opp = sim.bridges[s], sim.bridges[o]
    mt, ot = sim.tokens[s], sim.tokens[o]
    iv = _IV
    if a < REMOVE_BASE:
        line = a >> 1
        gain = BRIDGE
        for island in LINES[line]:
            mask = ISLAND_MASK[island]
            m = (me & mask).bit_count()
            if not mt >> island & 1 and m + 1 >= NEEDED[island]:
                break  # won: bridges go elsewhere too, counted in full below
            st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
            k = ((island * 8 + m) * 8 + (opp & mask).bit_count()) * 3 + st
            gain += iv[k + 24] - iv[k]  # one more of the mover's bridges: m + 1
        else:
            return gain
        me2, opp2, mt2, ot2 = place_bridge(me, opp, mt, ot, line)
        gain = board_total(me2, opp2, mt2, ot2) - board_total(me, opp, mt, ot)
        if sim.round >= 2 and not opp2:
            gain += WIN
        return gain
    rebuild = a >= REBUILD_BASE
    line = (a - (REBUILD_BASE if rebuild else REMOVE_BASE)) // 3
    opp2 = opp & ~(1 << line)
    if rebuild:
        ot2 = tokens_kept(opp2, ot)
        me2, opp2, mt2, ot2 = place_bridge(me, opp2, mt, ot2, line)
        gain = board_total(me2, opp2, mt2, ot2) - board_total(me, opp, mt, ot)
    else:
        # Only the line's two islands change: one bridge fewer, perhaps the token gone.
        gain = 0.0
        for island in LINES[line]:
            mask = ISLAND_MASK[island]
            m = (me & mask).bit_count()
            n = (opp & mask).bit_count()
            st = 1 if mt >> island & 1 else 2 if ot >> island & 1 else 0
            st2 = 0 if st == 2 and n - 1 < NEEDED[island] else st
            base = (island * 8 + m) * 8
            gain += iv[(base + n - 1) * 3 + st2] - iv[(base + n) * 3 + st]
    if sim.round >= 2 and not opp2:
        gain += WIN
    return gain


# What each play gains, by board: (both seats' bridges and tokens, the mover, a late round) ->
# {play: reply_gain}. A search that passes one to reply_turn and reply_options computes each
# gain once for all its samples, the same numbers.
GainMemo = dict[tuple[int, int, int, int, int, bool], dict[int, float]]


def reply_turn(sim: Sim, plays_only: bool = False, memo: GainMemo | None = None) -> None:
    """The player to move plays its turn greedily: the play with the best gain while it is
    worth its cards, then a draw (or the face-up card that ends the round when that scores
    for it, or abstaining rather than ending it when behind). With `plays_only`, it stops
    before ending the turn. `memo`: the gains remembered (GainMemo)."""
    s = sim.to_move
    while True:
        _reply_plays(sim, REPLY_CARD, memo)
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


def reply_options(sim: Sim, memo: GainMemo | None = None) -> list[Sim]:
    """The opponent's turn played a few plausible ways: its greedy plays (or, more eager,
    every play that gains on the board, or none) followed by each way to end the turn.
    `memo`: the gains remembered (GainMemo)."""
    outs: list[Sim] = []
    seen: set[tuple[int, int, int, int]] = set()
    for threshold in (REPLY_CARD, 0.0, None):
        played = sim.copy()
        if threshold is not None:
            _reply_plays(played, threshold, memo)
        key = (played.bridges[0], played.bridges[1], played.tokens[0], played.tokens[1])
        if key in seen:
            continue
        seen.add(key)
        if played.phase == OVER:
            outs.append(played)
            continue
        legal = played.legal()
        enders = [a for a in legal if is_turn_end(a)]
        if not enders:
            reply_turn(played, memo=memo)
            outs.append(played)
            continue
        for a in enders:
            out = played.copy()
            out.apply(a)
            if out.phase != OVER and out.to_move == sim.to_move:
                reply_turn(out, memo=memo)  # a discard is still due
            outs.append(out)
    return outs


def _reply_plays(sim: Sim, threshold: float, memo: GainMemo | None = None) -> None:
    """The player to move plays greedily while a play gains more than `threshold` a card;
    with `memo`, the gains are looked up there first (the same plays)."""
    s = sim.to_move
    while sim.phase != OVER and sim.to_move == s:
        gains: dict[int, float] | None = None
        if memo is not None:
            key = (sim.bridges[0], sim.bridges[1], sim.tokens[0], sim.tokens[1], s, sim.round >= 2)
            gains = memo.get(key)
            if gains is None:
                gains = memo[key] = {}
        best = -1
        best_gain = 0.0
        for a in sim.legal():
            if a >= DISCARD_BASE:
                break  # plays come first in legal()
            cards = 1 if a < REMOVE_BASE else 2
            if gains is None:
                g = reply_gain(sim, a)
            else:
                found = gains.get(a)
                g = gains[a] = reply_gain(sim, a) if found is None else found
            gain = g - threshold * cards
            if gain > best_gain:
                best, best_gain = a, gain
        if best < 0:
            return
        sim.apply(best)
