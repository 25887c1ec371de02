"""The computer player's decision, as a function a worker process can run.

The searching levels take up to a second of one core a decision: they run in a worker process
(server/app.py), never on the event loop, so the other tables' updates are not held up. The
easy level takes about a millisecond and runs in place.
"""

from __future__ import annotations

import random
from typing import Any

from shared.ai import choose_action
from shared.views import seat_view_from_dict


def decide(view: dict[str, Any], seed: int, level: str) -> str:
    """The action (in the notation) the computer plays from this seat's view."""
    return str(choose_action(seat_view_from_dict(view), random.Random(seed), level=level))
