"""The computer player's decision, as a function a worker process can run.

The searching levels take up to a second of one core a turn (its later plays follow the plan,
shared.search.TurnPlans): they run in a worker process (server/net/app.py), never on the event loop,
so the other tables' updates are not held up. The easy level takes about a millisecond and runs
in place.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from shared.actions import Action
from shared.ai import choose_action
from shared.inference import OpponentTurn
from shared.search import TurnPlans
from shared.views import SeatView, seat_view_from_dict

# The plans this process chose earlier in turns, for any table (their keys say which seat and
# turn): a turn's later decisions that reach the same process follow its plan at once; one
# that reaches another worker searches again, which is only slower.
_PLANS = TurnPlans(size=4096)


# How often a worker looks whether its server is still there.
PARENT_CHECK_EVERY = 0.5


def end_with_server(server_pid: int) -> None:
    """A worker's initializer: the worker ends when the server that started it is gone, however
    it ended (a kill -9 runs no clean-up that could stop its workers): an orphan is given to
    another parent, which a thread of the worker notices."""

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(PARENT_CHECK_EVERY)
        os._exit(0)  # nothing of the worker's is worth keeping: it holds no game

    threading.Thread(target=watch, name="kahuna-server-watch", daemon=True).start()


def decide_in_place(view: SeatView, seed: int, level: str) -> Action:
    """The action the computer plays from this seat's view as the rules engine holds it: the
    easy level's, on the event loop, with no wire form between the table and the choice."""
    return choose_action(view, random.Random(seed), level=level, plans=_PLANS)


def decide(view: dict[str, Any], seed: int, level: str, turns: Sequence[OpponentTurn] = ()) -> str:
    """The action (in the notation) the computer plays from this seat's view (and the
    opponent's last turns as the table saw them, for a level that reads them)."""
    return str(
        choose_action(
            seat_view_from_dict(view),
            random.Random(seed),
            level=level,
            plans=_PLANS,
            opponent_turns=turns or None,
        )
    )
