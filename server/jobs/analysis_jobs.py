"""Version 3's analyse, carried out: the analysis of a finished game (shared/analysis.py), run in
the worker processes the computer opponent uses (server/net/app.py's pool), never on the event loop
and never in the core. The core has already decided that the connection may see the game and
handed over its record (server/core/finished.py, an AnalysisJob); this part runs the work and
answers.

- One job a step, as `kahuna-client --analyse` does: the record's turns are found in a worker,
  then each turn is judged in a worker, one after the other, so that an analysis holds at most
  one worker at a time and the computer's turns are never queued behind more than `limit`
  turns' work (about 0.6 s each at the default depth). After each turn, everyone waiting for
  the analysis gets `analysis_progress`; at the end, `analysis`.
- The same analysis wherever it is made: each turn's seed is shared.analysis.turn_seed(SEED,
  turn), the seed `kahuna-client --analyse` uses, so a record analysed there says the same.
- Bounded: a finished game's record never changes, so its analysis is kept (the last
  `cache_size` games, in memory) and asked again is answered at once; a connection has at most
  one analysis under way (another `analyse` meanwhile is answered `busy`); the server runs at
  most `limit` analyses at once (a further game is `busy`; asking for a game already under way
  joins it). An analysis nobody waits for any more (its connections gone) is dropped.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import logging
from collections.abc import Callable, Sequence

import attrs

from protocol.analysis_messages import (
    AnalysedTurn,
    Analysis,
    AnalysisProgress,
    MarkName,
    PlayerAnalysis,
)
from protocol.errors import ErrorCode
from protocol.fields import seat_name
from protocol.messages import Error, ServerMessage
from server.core.effects import AnalysisJob
from server.core.table import MemberId
from server.jobs.worker_jobs import in_worker
from shared.analysis import (
    PLAYOUTS,
    SEARCH_ITERATIONS,
    Turn,
    TurnAnalysis,
    analyse_turn,
    summaries,
    turn_seed,
    turning_points,
    turns,
    white_chances,
)
from shared.reasons import Reason, reason
from shared.record import read_record

log = logging.getLogger(__name__)

SEED = 1  # kahuna-client --analyse's (shared.analysis.analyse's default)
LIMIT = 2  # analyses under way at once
CACHE_SIZE = 64  # finished games whose analysis is kept
MARKS: dict[str, MarkName] = {
    "inaccuracy": "inaccuracy",
    "mistake": "mistake",
    "blunder": "blunder",
}

Send = Callable[[MemberId, ServerMessage, int], None]


# ----- the work, in a worker process --------------------------------------------------------


def record_turns(text: str) -> list[Turn]:
    """The record's turns, each with its mover's views (replaying the game: a worker's job)."""
    return turns(read_record(text))


def judge_turn(
    turn: Turn, seed: int, playouts: int, search: int = SEARCH_ITERATIONS
) -> tuple[TurnAnalysis, Reason | None]:
    """One turn's analysis, and why the play the search prefers is good (a worker's job)."""
    found = analyse_turn(turn, seed, playouts, search)
    return found, None if found.best is None else reason(found.view, found.best)


# ----- the answer ---------------------------------------------------------------------------


def analysis_message(
    table_id: str,
    analysed: Sequence[TurnAnalysis],
    reasons: Sequence[Reason | None],
    playouts: int,
) -> Analysis:
    """The analysis on the wire: every turn, each player's sum, the turning points (a peer of
    version 3 or older gets it without version 4's luck and noise: protocol.codec)."""
    out = []
    for a, why, white in zip(analysed, reasons, white_chances(analysed), strict=True):
        mark = None if a.mark is None else MARKS[a.mark]
        best = None if a.best is None else str(a.best)
        code, params = (None, None) if why is None else (why.code, dict(why.params))
        out.append(
            AnalysedTurn(
                a.number,
                seat_name(a.seat),
                list(a.actions),
                a.before,
                a.after,
                white,
                a.cost,
                mark,
                best,
                code,
                params,
                a.expected,
                a.luck,
                a.noise,
            )
        )
    players = [
        PlayerAnalysis(
            seat_name(s.seat),
            s.average_cost,
            s.marks["inaccuracy"],
            s.marks["mistake"],
            s.marks["blunder"],
            s.luck,
        )
        for s in summaries(analysed)
    ]
    points = [a.number for a in turning_points(analysed)]
    return Analysis(table_id, out, players, points, playouts)


# ----- the runs, on the event loop ----------------------------------------------------------


@attrs.define
class Run:
    """One game's analysis under way, and who waits for it (member -> protocol version)."""

    table_id: str
    waiting: dict[MemberId, int]
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = None


class AnalysisJobs:
    def __init__(
        self,
        pool: Callable[[], concurrent.futures.Executor],
        send: Send,
        connected: Callable[[MemberId], bool],
        *,
        playouts: int = PLAYOUTS,
        search: int = SEARCH_ITERATIONS,
        limit: int = LIMIT,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        self._pool = pool  # made at the first job, as the computer's
        self._send = send
        self._connected = connected
        self.playouts = playouts
        self.search = search
        self.limit = limit
        self.cache_size = cache_size
        self._done: collections.OrderedDict[str, Analysis] = collections.OrderedDict()
        self._runs: dict[str, Run] = {}
        self._asking: dict[MemberId, str] = {}  # a connection's analysis under way

    @property
    def running(self) -> int:
        return len(self._runs)

    def ask(self, job: AnalysisJob) -> None:
        """The core found that job.member may see the game: answer it, now or when done."""
        member, table_id = job.member, job.table_id
        kept = self._done.get(table_id)
        if kept is not None:
            self._done.move_to_end(table_id)
            self._send(member, kept, job.version)
            return
        asking = self._asking.get(member)
        if asking is not None and asking in self._runs:
            self._busy(job, "your_analysis", "your analysis under way must end first")
            return
        run = self._runs.get(table_id)
        if run is None:
            if len(self._runs) >= self.limit:
                self._busy(
                    job, "too_many", "the server runs as many analyses as it may; ask again later"
                )
                return
            run = self._runs[table_id] = Run(table_id, {})
            run.task = asyncio.get_running_loop().create_task(self._run(run, job.text))
        run.waiting[member] = job.version
        self._asking[member] = table_id
        if run.total:
            self._send(member, AnalysisProgress(table_id, run.done, run.total), job.version)

    def stop(self) -> None:
        """The server stops: every run ends unanswered."""
        for run in self._runs.values():
            if run.task is not None:
                run.task.cancel()  # (one not yet begun never runs its finally)
        self._runs.clear()
        self._asking.clear()

    def _busy(self, job: AnalysisJob, reason: str, message: str) -> None:
        error = Error(ErrorCode.BUSY.value, message, job.table_id, None, "analyse", reason, {})
        self._send(job.member, error, job.version)

    def _still_waiting(self, run: Run) -> bool:
        for member in [m for m in run.waiting if not self._connected(m)]:
            del run.waiting[member]
            self._asking.pop(member, None)
        return bool(run.waiting)

    def _tell(self, run: Run, message: ServerMessage) -> None:
        for member, version in list(run.waiting.items()):
            if self._connected(member):
                self._send(member, message, version)

    async def _run(self, run: Run, text: str) -> None:
        try:
            found = await in_worker(self._pool, record_turns, text)
            run.total = len(found)
            self._tell(run, AnalysisProgress(run.table_id, 0, run.total))
            analysed: list[TurnAnalysis] = []
            reasons: list[Reason | None] = []
            for turn in found:
                if not self._still_waiting(run):
                    return  # nobody waits for it any more
                seed = turn_seed(SEED, turn)
                one, why = await in_worker(
                    self._pool, judge_turn, turn, seed, self.playouts, self.search
                )
                analysed.append(one)
                reasons.append(why)
                run.done += 1
                self._tell(run, AnalysisProgress(run.table_id, run.done, run.total))
            message = analysis_message(run.table_id, analysed, reasons, self.playouts)
            self._done[run.table_id] = message
            while len(self._done) > self.cache_size:
                self._done.popitem(last=False)
            self._tell(run, message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the analysis of %s failed", run.table_id)
            failed = "the server failed to analyse this game"
            error = Error(ErrorCode.INTERNAL_ERROR.value, failed, run.table_id, None, "analyse")
            self._tell(run, error)
        finally:
            if self._runs.get(run.table_id) is run:
                del self._runs[run.table_id]
            for member in run.waiting:
                if self._asking.get(member) == run.table_id:
                    del self._asking[member]
