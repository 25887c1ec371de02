"""Version 4's Swiss rounds, paired off the event loop: networkx's matching takes tens of
milliseconds for a round of 64 players and more than a hundred for 200, a stall every other
table's commands would wait behind. The core hands a round out as a PairingJob (the players to
pair, as plain data); it is paired here, in the worker processes the computer opponent and the
analysis use (server/net/app.py's pool), and the pairing goes back to the core as an event
(ServerCore.round_paired). A failed worker answers None, and the core pairs the round itself
rather than leave the tournament waiting."""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable

from server.core.effects import PairingJob
from server.core.tournaments.swiss import SwissPairing, pair_round
from server.jobs.worker_jobs import in_worker

log = logging.getLogger(__name__)


async def pair_in_worker(
    pool: Callable[[], concurrent.futures.Executor], job: PairingJob
) -> SwissPairing | None:
    """The round's pairing, made in a worker process; None where the work failed."""
    try:
        return await in_worker(pool, pair_round, job.players)
    except Exception:
        log.exception("tournament %s: round %d not paired in a worker", job.tournament_id,
                      job.number)  # fmt: skip
        return None
