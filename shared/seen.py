"""The turns a player made, as everyone at the table saw them, rebuilt from a game's log: what
the strong level reads for the cards its opponent holds (shared.inference).

Public only: the public view before each decision and the action taken; a card discarded face
down is not seen, and stands as None.
"""

from __future__ import annotations

from shared.actions import TURN_ENDS, Action, Discard, Handicap
from shared.game import Game
from shared.history import Chance, Move
from shared.randomness import RecordedSource
from shared.types import Seat
from shared.views import PublicView, seat_view

__all__ = ["SEEN_TURNS", "Seen", "seen_turns"]

# One decision as everyone saw it: the public view before it, and the action taken (None for a
# card discarded face down).
Seen = tuple[PublicView, Action | None]

SEEN_TURNS = 4  # turns a caller hands the computer by default, and the most it reads


def seen_turns(game: Game, of: Seat, count: int = SEEN_TURNS) -> list[list[Seen]]:
    """The last `count` whole turns `of` played in `game`, as the table saw them: the public
    view before each decision and the action (None for a card discarded face down). Rebuilt
    from the game's log, so a game restored from storage reads the same."""
    log = game.log
    moves = [(i, entry) for i, entry in enumerate(log) if isinstance(entry, Move)]
    turns: list[list[tuple[int, Move]]] = []  # the moves of each turn, with their log indexes
    for i, move in moves:
        if turns and turns[-1][-1][1].seat is move.seat and not _ends(turns[-1][-1][1].action):
            turns[-1].append((i, move))
        else:
            turns.append([(i, move)])
    wanted = [t for t in turns if t[0][1].seat is of and _ends(t[-1][1].action)][-count:]
    if not wanted:
        return []
    start = wanted[0][0][0]
    replay = Game.from_log(
        game.options,
        game.first_player,
        log[:start],
        position=game.start_position,
        source=RecordedSource([e.order for e in log[start:] if isinstance(e, Chance)]),
    )
    turn_of = {i: n for n, turn in enumerate(wanted) for i, _ in turn}
    out: list[list[Seen]] = [[] for _ in wanted]
    last = wanted[-1][-1][0]
    for i, move in moves:
        if i < start:
            continue
        if i > last:
            break  # the rest is not read: no need to play it
        if i in turn_of:
            action = None if isinstance(move.action, Discard) else move.action
            out[turn_of[i]].append((seat_view(replay, of).public, action))
        replay.apply(move.action)
    return out


def _ends(action: Action) -> bool:
    """Whether the action ends a turn (a handicap bridge counts as a turn of its own)."""
    return isinstance(action, (*TURN_ENDS, Handicap))
