"""The computer player's decision, as a function a worker process can run.

The searching levels take up to a second of one core a turn (its later plays follow the plan,
shared.search.TurnPlans): they run in a worker process (server/app.py), never on the event loop,
so the other tables' updates are not held up. The easy level takes about a millisecond and runs
in place.
"""

from __future__ import annotations

import random
from typing import Any

from shared.ai import choose_action
from shared.search import TurnPlans
from shared.views import seat_view_from_dict

# The plans this process chose earlier in turns, for any table (their keys say which seat and
# turn): a turn's later decisions that reach the same process follow its plan at once; one
# that reaches another worker searches again, which is only slower.
_PLANS = TurnPlans(size=4096)


def decide(view: dict[str, Any], seed: int, level: str) -> str:
    """The action (in the notation) the computer plays from this seat's view."""
    return str(
        choose_action(seat_view_from_dict(view), random.Random(seed), level=level, plans=_PLANS)
    )
