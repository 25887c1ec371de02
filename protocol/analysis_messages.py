"""The messages of protocol version 3 about the analysis of a finished game (docs/protocol.md,
Analysis) as frozen attrs classes, with the fields version 4 added (the luck of the draws, the
noise of a turn's cost)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import attrs

from protocol.fields import SeatName, since_v4


@attrs.frozen
class Analyse:
    """Version 3: the analysis of a finished game the sender may see (as with get_record: one it
    plays or watches at, or one of the archive), turn by turn (docs/protocol.md, Analysis)."""

    TYPE: ClassVar[str] = "analyse"
    table_id: str


@attrs.frozen
class AnalysisProgress:
    """Version 3: how far the analysis asked for has come: `done` of `total` turns."""

    TYPE: ClassVar[str] = "analysis_progress"
    table_id: str
    done: int
    total: int


MarkName = Literal["inaccuracy", "mistake", "blunder"]


@attrs.frozen
class AnalysedTurn:
    """One turn of an analysis (shared.analysis.TurnAnalysis on the wire). The chances are the
    mover's, from the mover's own view, between 0 and 1; `white` is White's after the turn, as
    the chart draws it. `cost` is what the play cost, judged before the cards the turn drew were
    seen (the best turn's expected chance less the turn's, never below 0); `luck` (version 4)
    what those cards then gave (`after - expected`). `best` is the play the search prefers as
    the turn began (the notation; nil when there was none to choose), `reason` and `params`
    why, as a code of shared.reasons (nil with `best` nil)."""

    number: int  # 1-based
    seat: SeatName
    played: list[str]  # the turn's actions, in the notation
    before: float
    after: float
    white: float
    cost: float  # the best turn's expected chance less this turn's, never below 0
    mark: MarkName | None
    best: str | None
    reason: str | None
    params: dict[str, Any] | None
    # version 4
    expected: float = since_v4(0.0)  # the chance after the turn, before its draw was seen
    luck: float = since_v4(0.0)  # after - expected: what the cards drawn gave (or took)
    noise: float = since_v4(0.0)  # the standard error of `cost`


@attrs.frozen
class PlayerAnalysis:
    """A player's turns in sum: the average cost of a turn and the count of each mark; and
    (version 4) the luck of the player's draws, summed."""

    seat: SeatName
    average_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int
    luck: float = since_v4(0.0)  # version 4


@attrs.frozen
class Analysis:
    """Version 3: the answer to analyse: every turn, each player's sum, and the turning points
    (the numbers of the two or three turns that cost the most, in the game's order)."""

    TYPE: ClassVar[str] = "analysis"
    table_id: str
    turns: list[AnalysedTurn]
    players: list[PlayerAnalysis]
    turning_points: list[int]
    playouts: int  # the playouts that judged each view (the depth)
