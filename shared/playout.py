"""A fast simulation of the complete rules, for search playouts.

`Sim` holds the whole state (hidden cards included) in bit masks and small lists and applies
actions coded as small integers, with no event objects and no checks beyond what `legal()`
already guarantees: an action must come from `legal()` (or `random_action`). It implements every
rule of docs/rules.md (R1-R16: variants, handicap, the premature end, the final turns, scoring
with at most TOKENS_PER_PLAYER tokens counted) and is checked against the checked engine
(shared.game.Game) action by action in tests/shared/test_playout.py.

Action codes (see `to_action` / `from_action`):

    0-53     place: 2 * line + end (end 0 plays the card of the line's first island, 1 the second)
    54-134   remove: 54 + 3 * line + j, j = 0 (a+a), 1 (a+b), 2 (b+b) for the line's islands a, b
    135-215  remove and rebuild (Variant 1), coded like remove from 135
    216-227  discard an island's card
    228-239  take an island's face-up card
    240 draw, 241 abstain, 242 end (a final turn), 243-269 handicap on a line
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from shared.actions import (
    ABSTAIN as ABSTAIN_ACTION,
)
from shared.actions import (
    DRAW as DRAW_ACTION,
)
from shared.actions import (
    END_TURN,
    Action,
    Discard,
    Handicap,
    Place,
    Remove,
    Take,
)
from shared.board import (
    ALL_LINES,
    BRIDGES_PER_PLAYER,
    FACE_UP_SIZE,
    HAND_LIMIT,
    ISLAND_LINES,
    ISLAND_MASK,
    LINES,
    NEEDED,
    NUM_ISLANDS,
    NUM_LINES,
    ROUNDS,
    TOKENS_PER_PLAYER,
    subsets,
)
from shared.control import tokens_kept
from shared.game import Game, Result
from shared.randomness import CardSource
from shared.types import GameOptions, Phase, Seat

PLACE_BASE = 0
REMOVE_BASE = 2 * NUM_LINES  # 54
REBUILD_BASE = REMOVE_BASE + 3 * NUM_LINES  # 135
DISCARD_BASE = REBUILD_BASE + 3 * NUM_LINES  # 216
TAKE_BASE = DISCARD_BASE + NUM_ISLANDS  # 228
DRAW = TAKE_BASE + NUM_ISLANDS  # 240
ABSTAIN = DRAW + 1
END = DRAW + 2
HANDICAP_BASE = DRAW + 3  # 243
NUM_ACTIONS = HANDICAP_BASE + NUM_LINES  # 270

# Phases as small integers.
HANDICAP, PLAY, FINAL, OVER = 0, 1, 2, 3
PHASES = (Phase.HANDICAP, Phase.PLAY, Phase.FINAL, Phase.OVER)
PHASE_CODE = {phase: code for code, phase in enumerate(PHASES)}

_IM = ISLAND_MASK
_NEEDED = NEEDED
_LINES = LINES
# The two cards of each removal code j for each line.
_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(((a, a), (a, b), (b, b)) for a, b in LINES)


# _PLACES[island][free lines of that island] = the placement codes a card of that island allows.
_PLACES: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {
        free: tuple(
            2 * line + (0 if LINES[line][0] == island else 1)
            for line in ISLAND_LINES[island]
            if free >> line & 1
        )
        for free in subsets(ISLAND_MASK[island])
    }
    for island in range(NUM_ISLANDS)
)


# Lines touching the islands of each island mask (Variant 1 forbids placing there).
def _lines_of(islands: int) -> int:
    mask = 0
    for i in range(NUM_ISLANDS):
        if islands >> i & 1:
            mask |= ISLAND_MASK[i]
    return mask


_LINES_OF: tuple[int, ...] = tuple(_lines_of(m) for m in range(1 << NUM_ISLANDS))

# By a mask of held islands: the islands, the lines they reach, and their discard codes.
_HELD_ISLANDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(NUM_ISLANDS) if m >> i & 1) for m in range(1 << NUM_ISLANDS)
)
_REACH: tuple[int, ...] = _LINES_OF
_DISCARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(DISCARD_BASE + i for i in islands) for islands in _HELD_ISLANDS
)


def _action_objects() -> tuple[Action, ...]:
    out: list[Action] = []
    for line in range(NUM_LINES):
        for end in (0, 1):
            out.append(Place(LINES[line][end], line))
    for rebuild in (False, True):
        for line in range(NUM_LINES):
            for pair in _PAIRS[line]:
                out.append(Remove(line, pair, rebuild))
    out.extend(Discard(i) for i in range(NUM_ISLANDS))
    out.extend(Take(i) for i in range(NUM_ISLANDS))
    out.extend((DRAW_ACTION, ABSTAIN_ACTION, END_TURN))
    out.extend(Handicap(k) for k in range(NUM_LINES))
    return tuple(out)


ACTIONS: tuple[Action, ...] = _action_objects()
_CODES: dict[Action, int] = {action: code for code, action in enumerate(ACTIONS)}
assert len(ACTIONS) == NUM_ACTIONS


def to_action(code: int) -> Action:
    """The engine's action for a code."""
    return ACTIONS[code]


def from_action(action: Action) -> int:
    """The code of an engine action."""
    return _CODES[action]


def is_turn_end(code: int) -> bool:
    """Whether the action ends the mover's turn: a take, a draw, abstaining or ending it."""
    return TAKE_BASE <= code < HANDICAP_BASE


# The bits of i + 1: those random.Random draws for an index in range(i + 1); for a deck.
_BIT_LENGTHS: tuple[int, ...] = tuple((i + 1).bit_length() for i in range(64))


class RandomSource:
    """A CardSource on a random.Random, shuffling in place: for playouts."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        # random.Random.shuffle's own steps (Fisher-Yates, each index drawn by rejection from
        # getrandbits), so the very same orders, without its two Python calls a card: rounds
        # end in every playout.
        out = list(cards)
        if len(out) > len(_BIT_LENGTHS):
            self.rng.shuffle(out)
            return out
        getrandbits = self.rng.getrandbits
        for i in range(len(out) - 1, 0, -1):
            k = _BIT_LENGTHS[i]
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            out[i], out[j] = out[j], out[i]
        return out


def held_mask(counts: Sequence[int]) -> int:
    """The bit mask of the islands with a nonzero count."""
    return sum(1 << i for i, n in enumerate(counts) if n)


class PublicState(Protocol):
    """What a Game and a PublicView both tell of a game, read to make a `Sim`."""

    @property
    def options(self) -> GameOptions: ...
    @property
    def bridges(self) -> Sequence[int]: ...
    @property
    def tokens(self) -> Sequence[int]: ...
    @property
    def face_up(self) -> Sequence[int]: ...
    @property
    def played(self) -> Sequence[int]: ...
    @property
    def round(self) -> int: ...
    @property
    def round_points(self) -> Sequence[tuple[int, int]]: ...
    @property
    def to_move(self) -> Seat: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def opponent_abstained(self) -> bool: ...
    @property
    def final_turns_left(self) -> int: ...
    @property
    def handicap_left(self) -> int: ...
    @property
    def result(self) -> Result | None: ...


class Sim:
    """The whole state of a game for simulation. Seats and phases are small integers."""

    __slots__ = (
        "abstained",
        "bridges",
        "face_down",
        "face_up",
        "final_left",
        "first",
        "hand",
        "handicap_left",
        "held",
        "open",
        "phase",
        "pile",
        "played",
        "points",
        "reason",
        "round",
        "size",
        "source",
        "to_move",
        "tokens",
        "variant1",
        "variant2",
        "winner",
    )

    def __init__(self, options: GameOptions, source: CardSource) -> None:
        self.variant1 = options.variant1
        self.variant2 = options.variant2
        self.source = source
        self.bridges = [0, 0]
        self.tokens = [0, 0]
        self.hand = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]  # open cards included
        self.open = [[0] * NUM_ISLANDS, [0] * NUM_ISLANDS]
        self.size = [0, 0]
        self.held = [0, 0]  # per seat, the islands of which it holds a card (a bit mask)
        self.face_up: list[int] = []
        self.pile: list[int] = []  # top LAST, so that a draw is pop()
        self.played: list[int] = []
        self.face_down: list[int] = []
        self.round = 1
        self.points: list[tuple[int, int]] = []
        self.to_move = 0
        self.phase = PLAY
        self.abstained = False  # the opponent of the player to move abstained just before
        self.final_left = 0
        self.handicap_left = 0
        self.first = 0
        self.winner: int | None = None
        self.reason = ""

    # ----- making one ---------------------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game, source: CardSource) -> Sim:
        """A simulation of the game as it stands; reshuffles come from `source`."""
        hand = game.hand
        size = (sum(hand[0]), sum(hand[1]))
        first = int(game.first_player)
        return cls.load(game, source, hand, game.open, size, game.pile, game.face_down, first)

    @classmethod
    def load(
        cls,
        public: PublicState,
        source: CardSource,
        hand: Sequence[Sequence[int]],
        opened: Sequence[Sequence[int]],
        size: Sequence[int],
        pile: Sequence[int],
        face_down: Sequence[int],
        first: int,
    ) -> Sim:
        """A simulation of a game whose public part is `public`, with its hidden cards: the
        hands and open cards as counts by island, the hands' sizes, the pile top first, the
        cards face down; `first` moves first after the handicap phase."""
        sim = cls(public.options, source)
        sim.bridges = list(public.bridges)
        sim.tokens = list(public.tokens)
        sim.hand = [list(hand[0]), list(hand[1])]
        sim.open = [list(opened[0]), list(opened[1])]
        sim.size = list(size)
        sim.held = [held_mask(hand[0]), held_mask(hand[1])]
        sim.face_up = list(public.face_up)
        sim.pile = list(reversed(pile))
        sim.played = list(public.played)
        sim.face_down = list(face_down)
        sim.round = public.round
        sim.points = list(public.round_points)
        sim.to_move = int(public.to_move)
        sim.phase = PHASE_CODE[public.phase]
        sim.abstained = public.opponent_abstained
        sim.final_left = public.final_turns_left
        sim.handicap_left = public.handicap_left
        sim.first = first
        if public.result is not None:
            sim.winner = None if public.result.winner is None else int(public.result.winner)
            sim.reason = public.result.reason
        return sim

    def copy(self) -> Sim:
        other = Sim.__new__(Sim)
        other.variant1 = self.variant1
        other.variant2 = self.variant2
        other.source = self.source
        other.bridges = self.bridges[:]
        other.tokens = self.tokens[:]
        other.hand = [self.hand[0][:], self.hand[1][:]]
        other.open = [self.open[0][:], self.open[1][:]]
        other.size = self.size[:]
        other.held = self.held[:]
        other.face_up = self.face_up[:]
        other.pile = self.pile[:]
        other.played = self.played[:]
        other.face_down = self.face_down[:]
        other.round = self.round
        other.points = self.points[:]
        other.to_move = self.to_move
        other.phase = self.phase
        other.abstained = self.abstained
        other.final_left = self.final_left
        other.handicap_left = self.handicap_left
        other.first = self.first
        other.winner = self.winner
        other.reason = self.reason
        return other

    # ----- queries ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        return Result(None if self.winner is None else Seat(self.winner), self.reason)

    @property
    def scores(self) -> tuple[int, int]:
        return (sum(p[0] for p in self.points), sum(p[1] for p in self.points))

    def legal(self) -> list[int]:
        """Every legal action code of the player to move, each once."""
        phase = self.phase
        if phase == OVER:
            return []
        s = self.to_move
        me = self.bridges[s]
        opp = self.bridges[1 - s]
        free = ALL_LINES & ~(me | opp)
        if phase == HANDICAP:
            return [HANDICAP_BASE + k for k in range(NUM_LINES) if free >> k & 1]
        held_mask = self.held[s]
        held = _HELD_ISLANDS[held_mask]
        out: list[int] = []
        variant1 = self.variant1
        supply = me.bit_count() < BRIDGES_PER_PLAYER
        reach = _REACH[held_mask]
        if supply:
            if variant1:
                free &= ~_LINES_OF[self.tokens[1 - s]]
            for i in held:
                out += _PLACES[i][free & _IM[i]]
        out += _removals(self, s, opp & reach, opp, supply)
        out += _DISCARDS[held_mask]
        if phase == FINAL:
            out.append(END)
            return out
        if self.size[s] < HAND_LIMIT:
            seen = 0
            for card in self.face_up:
                if not seen >> card & 1:
                    seen |= 1 << card
                    out.append(TAKE_BASE + card)
            if self.pile:
                out.append(DRAW)
        if not self.abstained:
            out.append(ABSTAIN)
        return out

    # ----- applying -----------------------------------------------------------------------

    def _use(self, s: int, card: int) -> None:
        hand = self.hand[s]
        hand[card] -= 1
        if not hand[card]:
            self.held[s] &= ~(1 << card)
        self.size[s] -= 1
        if self.variant2 and self.open[s][card]:
            self.open[s][card] -= 1

    def _place(self, s: int, line: int) -> None:
        bridges = self.bridges
        tokens = self.tokens
        mine = bridges[s] | (1 << line)
        bridges[s] = mine
        my_tokens = tokens[s]
        gained = doomed = 0
        for island in _LINES[line]:
            if not my_tokens >> island & 1 and (mine & _IM[island]).bit_count() >= _NEEDED[island]:
                gained |= 1 << island
                doomed |= _IM[island]
        if gained:
            tokens[s] = my_tokens | gained
            o = 1 - s
            theirs = bridges[o]
            if theirs & doomed:
                theirs &= ~doomed
                bridges[o] = theirs
                tokens[o] = tokens_kept(theirs, tokens[o])

    def apply(self, a: int) -> None:
        """Apply a legal action code (from legal()); nothing is checked."""
        s = self.to_move
        if a < REMOVE_BASE:
            line = a >> 1
            card = _LINES[line][a & 1]
            self._use(s, card)
            self.played.append(card)
            self._place(s, line)
        elif a < DISCARD_BASE:
            rebuild = a >= REBUILD_BASE
            line, j = divmod(a - (REBUILD_BASE if rebuild else REMOVE_BASE), 3)
            c1, c2 = _PAIRS[line][j]
            self._use(s, c1)
            self._use(s, c2)
            self.played.append(c1)
            self.played.append(c2)
            o = 1 - s
            theirs = self.bridges[o] & ~(1 << line)
            self.bridges[o] = theirs
            self.tokens[o] = tokens_kept(theirs, self.tokens[o])
            if rebuild:
                self._place(s, line)
        elif a < TAKE_BASE:
            card = a - DISCARD_BASE
            self._use(s, card)
            self.face_down.append(card)
        elif a < DRAW:
            card = a - TAKE_BASE
            self.face_up.remove(card)
            if self.pile:
                self.face_up.append(self.pile.pop())
            self.hand[s][card] += 1
            self.held[s] |= 1 << card
            self.size[s] += 1
            if self.variant2:
                self.open[s][card] += 1
            self._end_turn(s, False)
        elif a == DRAW:
            card = self.pile.pop()
            self.hand[s][card] += 1
            self.held[s] |= 1 << card
            self.size[s] += 1
            self._end_turn(s, False)
        elif a == ABSTAIN:
            self._end_turn(s, True)
        elif a == END:
            self._end_turn(s, False)
        else:
            self._place(s, a - HANDICAP_BASE)
            self.handicap_left -= 1
            if not self.handicap_left:
                self.phase = PLAY
                self.to_move = self.first
        if self.round >= 2 and self.phase != OVER and not (self.bridges[0] and self.bridges[1]):
            self._premature_end()

    def _end_turn(self, s: int, abstained: bool) -> None:
        self.abstained = abstained
        if self.phase == FINAL:
            self.final_left -= 1
            if not self.final_left:
                self._final_scoring()
                return
        elif not self.pile and not self.face_up:
            self._depleted()
        self.to_move = 1 - s

    def token_counts(self) -> tuple[int, int]:
        """Tokens as scored: at most TOKENS_PER_PLAYER each (R8)."""
        return (
            min(self.tokens[0].bit_count(), TOKENS_PER_PLAYER),
            min(self.tokens[1].bit_count(), TOKENS_PER_PLAYER),
        )

    def _depleted(self) -> None:
        if self.round < ROUNDS:
            white, black = self.token_counts()
            value = self.round
            self.points.append(
                (value, 0) if white > black else (0, value) if black > white else (0, 0)
            )
            order = self.source.shuffled(self.played + self.face_down)
            self.played = []
            self.face_down = []
            self.face_up = order[:FACE_UP_SIZE]
            self.pile = order[: FACE_UP_SIZE - 1 : -1]  # top last
            self.round += 1
        else:
            self.phase = FINAL
            self.final_left = 2

    def _final_scoring(self) -> None:
        white, black = self.token_counts()
        diff = white - black
        points = (diff, 0) if diff > 0 else (0, -diff)
        self.points.append(points)
        total_w, total_b = self.scores
        if total_w != total_b:
            self._finish(0 if total_w > total_b else 1, "more points")
        elif points[0] != points[1]:
            self._finish(
                0 if points[0] > points[1] else 1, "tied on points, more in the final scoring"
            )
        else:
            w, b = self.bridges[0].bit_count(), self.bridges[1].bit_count()
            if w != b:
                self._finish(0 if w > b else 1, "tied on points, more bridges on the board")
            else:
                self._finish(None, "tied on points and bridges: no winner")

    def _premature_end(self) -> None:
        if not self.bridges[0] and not self.bridges[1]:
            self._finish(None, "neither player has a bridge on the board")
        else:
            loser = 0 if not self.bridges[0] else 1
            self._finish(1 - loser, f"{Seat(loser).label} has no bridge on the board")

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = OVER
        self.winner = winner
        self.reason = reason


_TAKES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _take_codes(face_up: list[int]) -> tuple[int, ...]:
    """The take actions of a face-up row, each island once, in the row's order."""
    row = tuple(face_up)
    codes = _TAKES.get(row)
    if codes is None:
        codes = _TAKES[row] = tuple(TAKE_BASE + card for card in dict.fromkeys(row))
    return codes


# By a mask of held islands: the lines with both ends held (two placement codes each).
_BOTH: tuple[int, ...] = tuple(
    sum(1 << k for k, (a, b) in enumerate(LINES) if m >> a & 1 and m >> b & 1)
    for m in range(1 << NUM_ISLANDS)
)
_HELD_COUNT: tuple[int, ...] = tuple(m.bit_count() for m in range(1 << NUM_ISLANDS))
# The three per held mask in one lookup for play_random: reach, both, number of discards.
_HELD_INFO: tuple[tuple[int, int, int], ...] = tuple(zip(_REACH, _BOTH, _HELD_COUNT, strict=True))
# The k-th set bit of a line mask in two table lookups instead of a loop: _BITS[m] lists the
# set bits of a 14-bit m, the low half of the 27 lines; the high half is shifted down by 14.
_HALF = 14
_LOW = (1 << _HALF) - 1
_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(_HALF) if m >> k & 1) for m in range(1 << _HALF)
)
# The first island of each line: a card of it plays the line's end 0.
_FIRST: tuple[int, ...] = tuple(a for a, _ in LINES)


def _pairs_mask(counts: Sequence[int]) -> int:
    """The bit mask of the islands with two cards or more (those that pay a removal alone)."""
    mask = 0
    for i, n in enumerate(counts):
        if n >= 2:
            mask |= 1 << i
    return mask


def _removals(sim: Sim, s: int, targets: int, opp: int, supply: bool) -> list[int]:
    """The removal codes (rebuilds included) of `s` on the lines of `targets` that `s` can
    pay, in the order of Sim.legal."""
    hand = sim.hand[s]
    out: list[int] = []
    rebuilding = sim.variant1 and supply
    while targets:
        low = targets & -targets
        targets ^= low
        line = low.bit_length() - 1
        a, b = _LINES[line]
        ha = hand[a]
        hb = hand[b]
        if ha + hb < 2:
            continue
        base = REMOVE_BASE + 3 * line
        rebuild = False
        if rebuilding:
            after = opp & ~low
            rebuild = (after & _IM[a]).bit_count() < _NEEDED[a] and (
                after & _IM[b]
            ).bit_count() < _NEEDED[b]
        if ha >= 2:
            out.append(base)
            if rebuild:
                out.append(base + 81)
        if ha and hb:
            out.append(base + 1)
            if rebuild:
                out.append(base + 82)
        if hb >= 2:
            out.append(base + 2)
            if rebuild:
                out.append(base + 83)
    return out


def _kth_line(mask: int, k: int) -> int:
    """The k-th (from 0) set bit of a line mask."""
    low = _BITS[mask & _LOW]
    n = len(low)
    return low[k] if k < n else _HALF + _BITS[mask >> _HALF][k - n]


def random_action(sim: Sim, rand: Callable[[], float]) -> int:
    """A legal action code drawn uniformly from `sim.legal()` with one call of `rand` (a float
    in [0, 1)), without listing the legal actions: they are counted by kind with mask tables
    and only the drawn one is built. Index i of the draw is not index i of legal(): the
    placements come in another order (every legal code stays equally likely)."""
    phase = sim.phase
    if phase == HANDICAP:
        legal = sim.legal()
        return legal[int(rand() * len(legal))]
    s = sim.to_move
    hand = sim.hand[s]
    held = sim.held[s]
    me = sim.bridges[s]
    opp = sim.bridges[1 - s]
    reach = _REACH[held]
    both = _BOTH[held]
    fr = 0
    n_first = n_place = 0
    supply = me.bit_count() < BRIDGES_PER_PLAYER
    if supply:
        free = ALL_LINES & ~(me | opp)
        if sim.variant1:
            free &= ~_LINES_OF[sim.tokens[1 - s]]
        fr = free & reach
        n_first = fr.bit_count()
        n_place = n_first + (fr & both).bit_count()
    targets = opp & (both | _REACH[_pairs_mask(hand)])
    removals = _removals(sim, s, targets, opp, supply) if targets else []
    n_play = n_place + len(removals)
    n_discard = n_play + _HELD_COUNT[held]
    takes: tuple[int, ...] = ()
    draw = False
    if phase == FINAL:
        total = n_discard + 1
    else:
        if sim.size[s] < HAND_LIMIT:
            takes = _take_codes(sim.face_up)
            draw = bool(sim.pile)
        total = n_discard + len(takes) + draw + (not sim.abstained)
    r = int(rand() * total)
    if r < n_first:
        line = _kth_line(fr, r)
        return 2 * line + (not held >> _FIRST[line] & 1)
    if r < n_place:
        return 2 * _kth_line(fr & both, r - n_first) + 1
    if r < n_play:
        return removals[r - n_place]
    if r < n_discard:
        return DISCARD_BASE + _HELD_ISLANDS[held][r - n_play]
    if phase == FINAL:
        return END
    r -= n_discard
    if r < len(takes):
        return takes[r]
    if draw and r == len(takes):
        return DRAW
    return ABSTAIN


# The islands that share a line with each island: those whose majority a loss of the
# island's lines can break.
_NEAR: tuple[int, ...] = tuple(
    sum(1 << end for line in ISLAND_LINES[i] for end in LINES[line] if end != i)
    for i in range(NUM_ISLANDS)
)
# Per line, for play_random's placements: its islands a and b, their line masks and the
# bridges each needs for a majority.
_LINE_INFO: tuple[tuple[int, int, int, int, int, int], ...] = tuple(
    (a, b, _IM[a], _IM[b], _NEEDED[a], _NEEDED[b]) for a, b in LINES
)


# 1 << k by a lookup (a shift allocates a new int past 256).
_BIT_OF: tuple[int, ...] = tuple(1 << k for k in range(NUM_LINES))


def _face_up_mask(face_up: Sequence[int]) -> int:
    """The bit mask of the islands in a face-up row (those a take can name)."""
    mask = 0
    for card in face_up:
        mask |= 1 << card
    return mask


def play_random(
    sim: Sim, rng: random.Random, record: list[int] | None = None, max_turns: int = -1
) -> int:
    """Play uniformly random legal actions until the game ends (or `max_turns` turns have
    ended, when not negative); return the number of actions. Each choice is one rng.random()
    a decision, uniform over Sim.legal (counted by kind with mask tables as in
    `random_action`, though in another order), with the common actions applied inline
    (placements, discards and the ends of turns; removals, the handicap phase and the ends of
    rounds go through Sim): this is the benchmark's and the playouts' hot loop
    (tests/shared/test_playout.py replays its games in the checked engine and checks that every
    legal action has its share of the draws). Every action taken is appended to `record`
    when given."""
    rand = rng.random
    trunc = math.trunc  # int() of a float in [0, n), without int's slower construction call
    plays = 0  # the actions that did not end a turn
    turns = 0
    if max_turns == 0:
        return 0
    # The handicap phase (only at the start of a game) goes through Sim.
    while sim.phase == HANDICAP:
        a = rng.choice(sim.legal())
        sim.apply(a)
        plays += 1
        if record is not None:
            record.append(a)
    phase = sim.phase
    if phase == OVER:
        return plays
    bridges = sim.bridges
    tokens = sim.tokens
    hands = sim.hand
    helds = sim.held
    opens = sim.open
    size = sim.size
    variant1 = sim.variant1
    variant2 = sim.variant2
    held_islands = _HELD_ISLANDS
    held_info = _HELD_INFO
    held_count = _HELD_COUNT
    reaches = _REACH
    boths = _BOTH
    lines_of = _LINES_OF
    bits = _BITS
    line_info = _LINE_INFO
    bit_of = _BIT_OF
    near_of = _NEAR
    full, hand_limit, all_lines = BRIDGES_PER_PLAYER, HAND_LIMIT, ALL_LINES
    low_bits, half = _LOW, _HALF
    face_up = sim.face_up
    pile = sim.pile
    played = sim.played
    face_down = sim.face_down
    # The islands of the face-up row: what a take can name.
    fu = _face_up_mask(face_up)
    # The mover's state in locals, and the opponent's, swapped at the end of each turn; held
    # and size are written back to the Sim only before Sim reads them (a removal) and at the
    # end. `pair`: the islands held twice (with held, the lines a removal can be paid for).
    abstained = sim.abstained
    s = sim.to_move
    o = 1 - s
    me, opp = bridges[s], bridges[o]
    hand, ohand = hands[s], hands[o]
    held, oheld = helds[s], helds[o]
    pair, opair = _pairs_mask(hand), _pairs_mask(ohand)
    cards, ocards = size[s], size[o]
    # The lines with no bridge (the same for both seats).
    empty = all_lines ^ (me | opp)
    # The ways to end the turn, in this order: t_low takes, a draw if d_low > t_low, an
    # abstention if e_low > d_low, or the end of a final turn (e_low 1). Each turn's end sets
    # them for the next turn.
    if phase == FINAL:
        t_low = d_low = 0
        e_low = 1
    else:
        t_low = held_count[fu]
        d_low = t_low + 1 if pile else t_low
        e_low = d_low if abstained else d_low + 1
    # The lines the mover can build on: `empty` for both seats until one has spent its
    # supply, or always with Variant 1 (then set each turn).
    special = variant1 or me.bit_count() >= full or opp.bit_count() >= full
    free = empty
    stop = max_turns  # set to `turns` when the game ends
    while True:
        # No take or draw with a full hand (until a play): only the last e_low - d_low ways.
        n_end = e_low if cards < hand_limit else e_low - d_low
        if special:
            free = empty if me.bit_count() < full else 0
            if variant1:
                free &= ~lines_of[tokens[o]]
        # The actions of one turn: plays and discards until one ends it.
        while True:
            if held:
                reach, both, n_held = held_info[held]
                fr = reach & free
                n_first = fr.bit_count()
                # Placements: one a free line with one end held, two with both. Removals: one
                # a line of the opponent's with both ends held, one per end held twice.
                if both:
                    n_place = n_first + (fr & both).bit_count()
                    n_play = n_place + (opp & both).bit_count()
                else:
                    n_place = n_play = n_first
                if pair:
                    n_play += (opp & reaches[pair]).bit_count() + (opp & boths[pair]).bit_count()
                if variant1 and n_play != n_place and me.bit_count() < full:
                    # Variant 1's rebuilds: listed.
                    targets = opp & (both | reaches[pair])
                    n_play = n_place + len(_removals(sim, s, targets, opp, True))
                n_discard = n_play + n_held
                r = trunc(rand() * (n_discard + n_end))
                if r < n_discard:
                    plays += 1
                    if r < n_place:
                        if r < n_first:
                            low = bits[fr & low_bits]
                            n = len(low)
                            line = low[r] if r < n else half + bits[fr >> half][r - n]
                            a, b, ima, imb, na, nb = line_info[line]
                            if held >> a & 1:
                                card = a
                                code = 2 * line
                            else:
                                card = b
                                code = 2 * line + 1
                        else:
                            r -= n_first
                            fr &= both
                            low = bits[fr & low_bits]
                            n = len(low)
                            line = low[r] if r < n else half + bits[fr >> half][r - n]
                            a, b, ima, imb, na, nb = line_info[line]
                            card = b
                            code = 2 * line + 1
                        if record is not None:
                            record.append(code)
                        left = hand[card] - 1
                        hand[card] = left
                        if not left:
                            held ^= bit_of[card]
                        elif left == 1:
                            pair ^= bit_of[card]
                        cards -= 1
                        if variant2 and opens[s][card]:
                            opens[s][card] -= 1
                        played.append(card)
                        # The bridge, and the islands it wins (inlined Sim._place).
                        bit = bit_of[line]
                        me |= bit
                        bridges[s] = me
                        empty ^= bit
                        if me.bit_count() < full:
                            free ^= bit
                        else:
                            free = 0
                            special = True
                        # An island is won when its count reaches the majority: one bridge
                        # short of it, the mover held no token there (tokens go with a
                        # majority); past it, the mover has the token already.
                        won_a = (me & ima).bit_count() == na
                        if won_a or (me & imb).bit_count() == nb:
                            gained = doomed = near = 0
                            if won_a:
                                gained = bit_of[a]
                                doomed = ima
                                near = near_of[a]
                            if (me & imb).bit_count() == nb:
                                gained |= bit_of[b]
                                doomed |= imb
                                near |= near_of[b]
                            tokens[s] |= gained
                            if opp & doomed:
                                empty |= opp & doomed
                                opp &= ~doomed
                                bridges[o] = opp
                                # Only the islands near the lost lines can lose their token.
                                theirs = tokens[o]
                                if theirs & near:
                                    tokens[o] = theirs & ~near | tokens_kept(opp, theirs & near)
                                if sim.round >= 2 and not opp:
                                    sim._premature_end()
                                    phase = OVER
                                    stop = turns
                                    break
                                if me.bit_count() < full:
                                    free = empty & ~lines_of[tokens[o]] if variant1 else empty
                    elif r < n_play:
                        targets = opp & (both | reaches[pair])
                        a = _removals(sim, s, targets, opp, me.bit_count() < full)[r - n_place]
                        if record is not None:
                            record.append(a)
                        sim.to_move = s
                        helds[s] = held
                        size[s] = cards
                        sim.apply(a)
                        held = helds[s]
                        cards = size[s]
                        phase = sim.phase
                        if phase == OVER:
                            stop = turns
                            break
                        me, opp = bridges[s], bridges[o]
                        pair = _pairs_mask(hand)
                        empty = all_lines ^ (me | opp)
                        if me.bit_count() < full:
                            free = empty & ~lines_of[tokens[o]] if variant1 else empty
                        else:
                            free = 0
                    else:
                        card = held_islands[held][r - n_play]
                        if record is not None:
                            record.append(DISCARD_BASE + card)
                        left = hand[card] - 1
                        hand[card] = left
                        if not left:
                            held ^= bit_of[card]
                        elif left == 1:
                            pair ^= bit_of[card]
                        cards -= 1
                        if variant2 and opens[s][card]:
                            opens[s][card] -= 1
                        face_down.append(card)
                    n_end = e_low  # a play leaves the hand below the limit
                    continue
                r -= n_discard
            else:
                # An empty hand (a decision in six) can only end the turn.
                r = trunc(rand() * n_end)
            if n_end != e_low:
                r += d_low  # a full hand
            # The end of the turn (inlined Sim.apply, Sim._end_turn).
            turns += 1
            if r < t_low:
                card = held_islands[fu][r]
                face_up.remove(card)
                if card not in face_up:
                    fu ^= bit_of[card]
                if variant2:
                    opens[s][card] += 1
                if record is not None:
                    record.append(TAKE_BASE + card)
                abstained = False
                got = hand[card] + 1
                hand[card] = got
                held |= bit_of[card]
                if got == 2:
                    pair |= bit_of[card]
                cards += 1
                if pile:
                    card = pile.pop()
                    face_up.append(card)
                    fu |= bit_of[card]
                    t_low = held_count[fu]
                    d_low = t_low + 1 if pile else t_low
                elif face_up:
                    t_low = d_low = held_count[fu]
                else:
                    # The last card of the round (the row refills while the pile lasts).
                    sim._depleted()
                    phase = sim.phase
                    face_up = sim.face_up
                    pile = sim.pile
                    played = sim.played
                    face_down = sim.face_down
                    fu = _face_up_mask(face_up)
                    if sim.round >= 2 and phase != OVER and not (me and opp):
                        sim._premature_end()
                        phase = OVER
                        stop = turns
                    if phase == FINAL:
                        t_low = d_low = 0
                    else:
                        t_low = held_count[fu]
                        d_low = t_low + 1 if pile else t_low
                e_low = d_low + 1
            elif r < d_low:
                card = pile.pop()  # the row stays full while the pile lasts: no round ends
                if record is not None:
                    record.append(DRAW)
                abstained = False
                got = hand[card] + 1
                hand[card] = got
                held |= bit_of[card]
                if got == 2:
                    pair |= bit_of[card]
                cards += 1
                if not pile:
                    d_low = t_low
                e_low = d_low + 1
            elif phase == FINAL:
                if record is not None:
                    record.append(END)
                abstained = False
                sim.final_left -= 1
                if not sim.final_left:
                    sim._final_scoring()
                    phase = OVER
                    stop = turns
                    break  # the mover stays to move, as in Sim._end_turn
            else:
                abstained = True
                if record is not None:
                    record.append(ABSTAIN)
                e_low = d_low
            s, o = o, s
            me, opp = opp, me
            hand, ohand = ohand, hand
            held, oheld = oheld, held
            pair, opair = opair, pair
            cards, ocards = ocards, cards
            break
        if turns == stop:
            break
    sim.to_move = s
    sim.abstained = abstained
    helds[s] = held
    helds[o] = oheld
    size[s] = cards
    size[o] = ocards
    return plays + turns
