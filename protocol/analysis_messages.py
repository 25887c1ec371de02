"""The messages of protocol version 3 about the analysis of a finished game (docs/protocol.md,
Analysis) as frozen attrs classes."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import attrs

from protocol.fields import SeatName


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
    the chart draws it. `best` is the play the search prefers as the turn began (the notation;
    nil when there was none to choose), `reason` and `params` why, as a code of
    shared.reasons (nil with `best` nil)."""

    number: int  # 1-based
    seat: SeatName
    played: list[str]  # the turn's actions, in the notation
    before: float
    after: float
    white: float
    cost: float  # before - after, never below 0
    mark: MarkName | None
    best: str | None
    reason: str | None
    params: dict[str, Any] | None


@attrs.frozen
class PlayerAnalysis:
    """A player's turns in sum: the average cost of a turn and the count of each mark."""

    seat: SeatName
    average_cost: float
    inaccuracies: int
    mistakes: int
    blunders: int


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
