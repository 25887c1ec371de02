"""The `hint` command: what the computer's normal level would play now, and why in a few words.

Computed on the player's own machine from the player's own view (shared.ai.choose_action sees
only that view): it needs nothing from the server and reveals nothing. The reason is read off
the board before and after the suggested play (shared.control), so it says only what the play
does for certain: the islands it wins or takes, the opponent's island it blocks, how close it
brings an island.
"""

from __future__ import annotations

import random

from client.i18n import _, ngettext
from client.words import seat_name
from shared.actions import Abstain, Action, Discard, Draw, EndTurn, Handicap, Place, Remove, Take
from shared.ai import choose_action
from shared.board import ISLAND_MASK, ISLANDS, LINES, NEEDED, line_name
from shared.control import place_bridge, tokens_kept
from shared.views import SeatView


def suggest(view: SeatView, seed: int, iterations: int | None = None) -> tuple[Action, str]:
    """The normal level's choice for this view and the reason in words. Takes about 0.2 s
    (or exactly `iterations` plan evaluations): run it off the event loop."""
    action = choose_action(view, random.Random(seed), level="normal", iterations=iterations)
    return action, explain(view, action)


def _islands(mask: int) -> list[str]:
    return [ISLANDS[i] for i in range(len(ISLANDS)) if mask >> i & 1]


def _and(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("{some} and {last}").format(some=", ".join(names[:-1]), last=names[-1])


def explain(view: SeatView, action: Action) -> str:
    """What the action does, from comparing the board before and after it."""
    pub = view.public
    me, opp = view.seat, view.seat.other
    mine, theirs = pub.bridges[me], pub.bridges[opp]
    my_tokens, their_tokens = pub.tokens[me], pub.tokens[opp]
    other = seat_name(opp)
    if isinstance(action, Place | Handicap):
        line = action.line
        after = place_bridge(mine, theirs, my_tokens, their_tokens, line)
        won = after[2] & ~my_tokens
        gone = theirs & ~after[1]
        if won:
            if gone:
                return ngettext(
                    "wins {islands} and sweeps away {n} of {other}'s bridges",
                    "wins {islands} and sweeps away {n} of {other}'s bridges",
                    gone.bit_count(),
                ).format(islands=_and(_islands(won)), n=gone.bit_count(), other=other)
            return _("wins {islands}").format(islands=_and(_islands(won)))
        blocked = _blocked(theirs, mine, after[0], line)
        if blocked:
            return _("blocks {other} from {islands}").format(other=other, islands=_and(blocked))
        return _closer(after[0], line, my_tokens)
    if isinstance(action, Remove):
        theirs_after = theirs & ~(1 << action.line)
        lost = their_tokens & ~tokens_kept(theirs_after, their_tokens)
        if lost:
            what = _("takes {islands} from {other} (the bridge {line})").format(
                islands=_and(_islands(lost)), other=other, line=line_name(action.line)
            )
        else:
            what = _("breaks {other}'s bridge {line}").format(
                other=other, line=line_name(action.line)
            )
        if action.rebuild:
            after = place_bridge(mine, theirs_after, my_tokens, their_tokens & ~lost, action.line)
            won = after[2] & ~my_tokens
            if won:
                what += " " + _("and builds there, winning {islands}").format(
                    islands=_and(_islands(won))
                )
            else:
                what += " " + _("and builds there")
        return what
    if isinstance(action, Discard):
        return _("discards {card}: the card it needs least").format(card=ISLANDS[action.card])
    if isinstance(action, Take):
        return _("ends the turn taking {card}, the face-up card it wants most").format(
            card=ISLANDS[action.card]
        )
    if isinstance(action, Draw):
        return _("ends the turn drawing from the pile: no face-up card is worth more")
    if isinstance(action, Abstain):
        return _("ends the turn without drawing")
    if isinstance(action, EndTurn):
        return _("ends the last turn: no play is worth a card")
    return str(action)


def _blocked(theirs: int, mine_before: int, mine_after: int, line: int) -> list[str]:
    """The islands of the line the opponent could still win before the bridge and cannot after
    it (their bridges plus the lines still free fall short of the majority)."""
    out = []
    for island in LINES[line]:
        mask = ISLAND_MASK[island]
        have = (theirs & mask).bit_count()

        def reachable(mine: int, have: int = have, mask: int = mask) -> int:
            return have + (mask & ~mine & ~theirs).bit_count()

        if have and reachable(mine_before) >= NEEDED[island] > reachable(mine_after):
            out.append(ISLANDS[island])
    return out


def _closer(mine: int, line: int, my_tokens: int) -> str:
    a, b = LINES[line]
    best = max(
        (i for i in (a, b) if not my_tokens >> i & 1),
        key=lambda i: (mine & ISLAND_MASK[i]).bit_count() / NEEDED[i],
        default=None,
    )
    if best is None:
        return _("strengthens {a} and {b}, both yours").format(a=ISLANDS[a], b=ISLANDS[b])
    have = (mine & ISLAND_MASK[best]).bit_count()
    return _("builds toward {island}, {have} of the {needed} bridges it needs").format(
        island=ISLANDS[best], have=have, needed=NEEDED[best]
    )
