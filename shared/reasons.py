"""Why a play is good, as a code and its parameters: what the hint and the analysis's preferred
turn say of it, read off the board before and after the play (shared.control), so it says only
what the play does for certain: the islands it wins or takes, the opponent's island it blocks,
how close it brings an island.

Codes, not sentences, so that every client words them in its language: the terminal client in
client/model/hint.py, the web page in web/analysis.mjs (the server sends them in protocol version
3's `analysis`). Each parameter's value is a string, as in the protocol's refusal codes: islands
joined by "+" (in the board's order), a seat as "white" or "black", a count in digits.

| code          | params                                         | the play                        |
|---------------|------------------------------------------------|---------------------------------|
| wins          | islands                                        | a bridge that wins islands      |
| wins_sweeping | islands, n, other                              | and removes n of other's bridges|
| blocks        | other, islands                                 | keeps other from islands        |
| toward        | island, have, needed                           | brings an island closer         |
| strengthens   | a, b                                           | a line between two of one's own |
| takes         | islands, other, line (rebuild, won)            | removes a bridge, taking islands|
| breaks        | other, line (rebuild, won)                     | removes a bridge                |
| discards      | card                                           | the card needed least           |
| takes_card    | card                                           | ends the turn with a face-up one|
| draws         |                                                | ends the turn from the pile     |
| abstains      |                                                | ends the turn without drawing   |
| ends          |                                                | ends a final turn               |
| other         | action                                         | anything else (the notation)    |

`rebuild` ("yes") comes with a Variant 1 removal that builds there; `won` then names the
islands that building wins, if any.
"""

from __future__ import annotations

import attrs

from shared.actions import Abstain, Action, Discard, Draw, EndTurn, Handicap, Place, Remove, Take
from shared.board import ISLAND_MASK, ISLANDS, LINES, NEEDED, line_name
from shared.control import place_bridge, tokens_kept
from shared.types import Seat
from shared.views import SeatView


@attrs.frozen
class Reason:
    code: str
    params: dict[str, str] = attrs.Factory(dict)


def islands_of(mask: int) -> list[str]:
    return [ISLANDS[i] for i in range(len(ISLANDS)) if mask >> i & 1]


def _joined(mask: int) -> str:
    return "+".join(islands_of(mask))


def _seat(seat: Seat) -> str:
    return "white" if seat is Seat.WHITE else "black"


def reason(view: SeatView, action: Action) -> Reason:
    """What the action does for the view's seat, from comparing the board before and after."""
    pub = view.public
    me, opp = view.seat, view.seat.other
    mine, theirs = pub.bridges[me], pub.bridges[opp]
    my_tokens, their_tokens = pub.tokens[me], pub.tokens[opp]
    other = _seat(opp)
    if isinstance(action, Place | Handicap):
        line = action.line
        after = place_bridge(mine, theirs, my_tokens, their_tokens, line)
        won = after[2] & ~my_tokens
        gone = theirs & ~after[1]
        if won and gone:
            n = str(gone.bit_count())
            return Reason("wins_sweeping", {"islands": _joined(won), "n": n, "other": other})
        if won:
            return Reason("wins", {"islands": _joined(won)})
        blocked = _blocked(theirs, mine, after[0], line)
        if blocked:
            return Reason("blocks", {"other": other, "islands": "+".join(blocked)})
        return _closer(after[0], line, my_tokens)
    if isinstance(action, Remove):
        theirs_after = theirs & ~(1 << action.line)
        lost = their_tokens & ~tokens_kept(theirs_after, their_tokens)
        params = {"other": other, "line": line_name(action.line)}
        code = "takes" if lost else "breaks"
        if lost:
            params["islands"] = _joined(lost)
        if action.rebuild:
            params["rebuild"] = "yes"
            after = place_bridge(mine, theirs_after, my_tokens, their_tokens & ~lost, action.line)
            won = after[2] & ~my_tokens
            if won:
                params["won"] = _joined(won)
        return Reason(code, params)
    if isinstance(action, Discard):
        return Reason("discards", {"card": ISLANDS[action.card]})
    if isinstance(action, Take):
        return Reason("takes_card", {"card": ISLANDS[action.card]})
    if isinstance(action, Draw):
        return Reason("draws")
    if isinstance(action, Abstain):
        return Reason("abstains")
    if isinstance(action, EndTurn):
        return Reason("ends")
    return Reason("other", {"action": str(action)})


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


def _closer(mine: int, line: int, my_tokens: int) -> Reason:
    a, b = LINES[line]
    best = max(
        (i for i in (a, b) if not my_tokens >> i & 1),
        key=lambda i: (mine & ISLAND_MASK[i]).bit_count() / NEEDED[i],
        default=None,
    )
    if best is None:
        return Reason("strengthens", {"a": ISLANDS[a], "b": ISLANDS[b]})
    have = (mine & ISLAND_MASK[best]).bit_count()
    return Reason(
        "toward", {"island": ISLANDS[best], "have": str(have), "needed": str(NEEDED[best])}
    )
