"""Which actions the player to move may take, decided from what that player can see.

Everything here reads a TurnContext, which both the full game and a seat's own view can build,
so the client validates a command with exactly the rules the server applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import attrs

from catalogue.codes import RULES_ENGLISH
from shared.actions import (
    ABSTAIN,
    DRAW,
    END_TURN,
    Abstain,
    Action,
    Discard,
    Draw,
    EndTurn,
    Handicap,
    Place,
    Remove,
    Take,
    Undo,
)
from shared.board import (
    ALL_LINES,
    BRIDGES_PER_PLAYER,
    HAND_LIMIT,
    ISLAND_LINES,
    ISLAND_MASK,
    ISLANDS,
    LINE_ENDS_MASK,
    LINES,
    NEEDED,
    NUM_ISLANDS,
    NUM_LINES,
    line_name,
    subsets,
)
from shared.types import GameOptions, Phase, Seat


class TurnContext(NamedTuple):
    """What the player to move knows that matters for legality."""

    options: GameOptions
    phase: Phase
    seat: Seat
    bridges: tuple[int, int]  # line bit masks, by seat
    tokens: tuple[int, int]  # island bit masks, by seat
    hand: Sequence[int]  # the mover's card count per island, open cards included
    face_up: Sequence[int]
    pile_size: int
    opponent_abstained: bool
    handicap_left: int
    # The plays of this turn an undo can take back (0 when none). Not in legal_actions().
    undoable: int = 0


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""

    def __init__(
        self, reason: str, code: str = "illegal_action", refusal: Refusal | None = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.refusal = refusal


@attrs.frozen
class Refusal:
    """Why the rules refuse an action: a stable code with its parameters (island and line
    names, a seat, a number), and the English sentence for those who want prose."""

    code: str
    english: str
    params: dict[str, str] = attrs.field(factory=dict, eq=False)


def _no(code: str, shown: Mapping[str, str] | None = None, **params: str) -> Refusal:
    """The refusal `code` with its parameters, and its English from the catalogue's sentence
    filled with them (`shown`: where the English says a parameter otherwise, "White" for the
    code's "white")."""
    english = RULES_ENGLISH[code].format(**{**params, **(shown or {})})
    return Refusal(code, english, params)


def opponent_keeps_control_without(ctx: TurnContext, line: int) -> int:
    """Island mask the opponent would still control at the ends of `line` after losing it."""
    opp = 1 - ctx.seat
    after = ctx.bridges[opp] & ~(1 << line)
    kept = 0
    for island in LINES[line]:
        if (after & ISLAND_MASK[island]).bit_count() >= NEEDED[island]:
            kept |= 1 << island
    return kept


# Every action object that can exist, made once: legal_actions only picks from these.
# _PLACES[island][free lines of that island] = the placements a card of that island allows.
_PLACES: tuple[dict[int, tuple[Place, ...]], ...] = tuple(
    {
        free: tuple(Place(island, line) for line in ISLAND_LINES[island] if free >> line & 1)
        for free in subsets(ISLAND_MASK[island])
    }
    for island in range(NUM_ISLANDS)
)
_REMOVES: tuple[tuple[int, int, tuple[Remove, ...], tuple[Remove, ...]], ...] = tuple(
    (
        a,
        b,
        (Remove(k, (a, a)), Remove(k, (a, b)), Remove(k, (b, b))),
        (Remove(k, (a, a), True), Remove(k, (a, b), True), Remove(k, (b, b), True)),
    )
    for k, (a, b) in enumerate(LINES)
)
_DISCARDS = tuple(Discard(island) for island in range(NUM_ISLANDS))
_TAKES = tuple(Take(island) for island in range(NUM_ISLANDS))
_HANDICAPS = tuple(Handicap(line) for line in range(NUM_LINES))


def legal_actions(ctx: TurnContext) -> list[Action]:
    """Every legal action of the player to move, and only those, except an undo: why_illegal
    allows one while the turn has plays to take back (ctx.undoable), but the list leaves it
    out so that search and the computer never take anything back."""
    phase = ctx.phase
    if phase is Phase.OVER:
        return []
    seat = ctx.seat
    me, opp = ctx.bridges[seat], ctx.bridges[1 - seat]
    free = ALL_LINES & ~(me | opp)
    if phase is Phase.HANDICAP:
        return [_HANDICAPS[k] for k in range(NUM_LINES) if free >> k & 1]
    out: list[Action] = []
    hand = ctx.hand
    held = [island for island in range(NUM_ISLANDS) if hand[island]]
    variant1 = ctx.options.variant1
    has_supply = me.bit_count() < BRIDGES_PER_PLAYER
    if has_supply:
        if variant1:
            for island in range(NUM_ISLANDS):
                if ctx.tokens[1 - seat] >> island & 1:
                    free &= ~ISLAND_MASK[island]
        for island in held:
            out.extend(_PLACES[island][free & ISLAND_MASK[island]])
    reach = 0
    for island in held:
        reach |= ISLAND_MASK[island]
    targets = opp & reach
    while targets:
        low = targets & -targets
        targets ^= low
        line = low.bit_length() - 1
        a, b, plain, rebuilt = _REMOVES[line]
        ha, hb = hand[a], hand[b]
        if ha + hb < 2:
            continue
        rebuild = (
            variant1
            and has_supply
            and not LINE_ENDS_MASK[line] & opponent_keeps_control_without(ctx, line)
        )
        for index, ok in enumerate((ha >= 2, ha and hb, hb >= 2)):
            if ok:
                out.append(plain[index])
                if rebuild:
                    out.append(rebuilt[index])
    for island in held:
        out.append(_DISCARDS[island])
    if phase is Phase.FINAL:
        out.append(END_TURN)
        return out
    if sum(hand) < HAND_LIMIT:
        seen = 0
        for card in ctx.face_up:
            if not seen >> card & 1:
                seen |= 1 << card
                out.append(_TAKES[card])
        if ctx.pile_size:
            out.append(DRAW)
    if not ctx.opponent_abstained:
        out.append(ABSTAIN)
    return out


def refusal(ctx: TurnContext, action: Action) -> Refusal | None:
    """None if the action is legal now, else why not: a code, its parameters and the English
    sentence (clients make their own sentence from the code)."""
    phase = ctx.phase
    if phase is Phase.OVER:
        return _no("game_over")
    if isinstance(action, Undo):
        if phase is Phase.HANDICAP:
            return _no("undo_handicap")
        if not ctx.undoable:
            return _no("nothing_to_undo")
        return None
    me, opp = ctx.bridges[ctx.seat], ctx.bridges[1 - ctx.seat]
    hand = ctx.hand
    if phase is Phase.HANDICAP:
        if not isinstance(action, Handicap):
            return _no(
                "handicap_first",
                {"seat": ctx.seat.label},
                seat=ctx.seat.name.lower(),
                n=str(ctx.handicap_left),
            )
        if (me | opp) >> action.line & 1:
            name = line_name(action.line)
            return _no("line_taken", line=name)
        return None
    if isinstance(action, Handicap):
        return _no("handicap_over")
    if isinstance(action, Place):
        card, line = action.card, action.line
        if card not in LINES[line]:
            return _no("card_not_on_line", card=ISLANDS[card], line=line_name(line))
        if not hand[card]:
            return _no("no_such_card", card=ISLANDS[card])
        if (me | opp) >> line & 1:
            name = line_name(line)
            return _no("line_taken", line=name)
        if me.bit_count() >= BRIDGES_PER_PLAYER:
            return _no("no_bridges_left")
        if ctx.options.variant1 and LINE_ENDS_MASK[line] & ctx.tokens[1 - ctx.seat]:
            return _no("variant1_controlled", line=line_name(line))
        return None
    if isinstance(action, Remove):
        line, (c1, c2) = action.line, action.cards
        ends = LINES[line]
        if c1 not in ends or c2 not in ends:
            return _no("remove_cards", line=line_name(line))
        if not opp >> line & 1:
            return _no("no_opponent_bridge", line=line_name(line))
        if hand[c1] < (2 if c1 == c2 else 1) or not hand[c2]:
            cards = f"{ISLANDS[c1]}+{ISLANDS[c2]}"
            return _no("cards_not_held", cards=cards)
        if action.rebuild:
            if not ctx.options.variant1:
                return _no("rebuild_variant1")
            if me.bit_count() >= BRIDGES_PER_PLAYER:
                return _no("no_bridges_left")
            if LINE_ENDS_MASK[line] & opponent_keeps_control_without(ctx, line):
                return _no("variant1_stays", line=line_name(line))
        return None
    if isinstance(action, Discard):
        if hand[action.card]:
            return None
        name = ISLANDS[action.card]
        return _no("no_such_card", card=name)
    if isinstance(action, EndTurn):
        if phase is not Phase.FINAL:
            return _no("end_not_final")
        return None
    if phase is Phase.FINAL:
        return _no("final_no_draw")
    if isinstance(action, Abstain):
        if ctx.opponent_abstained:
            return _no("abstain_twice")
        return None
    if isinstance(action, Take | Draw):
        if sum(hand) >= HAND_LIMIT:
            if ctx.opponent_abstained:
                return _no("hand_full_draw")
            return _no("hand_full")
        if isinstance(action, Take):
            if action.card not in ctx.face_up:
                name = ISLANDS[action.card]
                return _no("not_face_up", card=name)
        elif not ctx.pile_size:
            return _no("pile_empty")
        return None
    return _no("not_an_action", {"action": repr(action)})


def why_illegal(ctx: TurnContext, action: Action) -> str | None:
    """None if the action is legal now, else the reason in English words."""
    found = refusal(ctx, action)
    return None if found is None else found.english
