"""Version 4's messages about tournaments (Swiss and round-robin, live or by correspondence) as
frozen attrs classes; docs/protocol.md, Version 4, says who sends what. The whole state of one
tournament goes to those who watch it (`tournament`), the list to whoever asks
(`tournaments`); a player whose game of a round is ready gets a `player_note`
`tournament_round` with the table's id."""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from protocol.fields import TableOptions, TimeControl, since_v4

FormatName = Literal["swiss", "round_robin", "double_round_robin"]
TournamentStatus = Literal["open", "started", "finished"]
# a game's result in a tournament: on the board, by forfeit (the other did not play), or
# neither played
PairingResult = Literal[
    "white_won", "black_won", "draw", "white_won_by_forfeit", "black_won_by_forfeit",
    "double_forfeit",
]  # fmt: skip

# ----- client to server -------------------------------------------------------------------


@attrs.frozen
class TournamentTerms:
    """A tournament as its director asks for it. `rounds`: a Swiss's number of rounds (a
    round-robin's follow from its players). `clock`: nil, no clock; `days` for correspondence.
    `start`: a unix time at which it starts by itself, nil for when the director starts it.
    `forfeit_after`: seconds a player has to make their first move of a game before losing it
    by forfeit (nil: 300 in a live tournament; a game of days: its clock)."""

    name: str
    format: FormatName
    rounds: int = since_v4(0)
    clock: TimeControl | None = since_v4(None)
    rated: bool = since_v4(True)
    options: TableOptions = since_v4(TableOptions())
    start: float | None = since_v4(None)
    forfeit_after: int | None = since_v4(None)


@attrs.frozen
class GetTournaments:
    """Version 4: the server's tournaments, open, under way and finished; with `name`, those
    that player is or was in (answer: `tournaments`)."""

    TYPE: ClassVar[str] = "get_tournaments"
    name: str | None = since_v4(None)


@attrs.frozen
class CreateTournament:
    """Version 4: make a tournament, directed by the sender's account (the server's
    `--tournaments` says who may); the answer is its `tournament`, and the sender watches it."""

    TYPE: ClassVar[str] = "create_tournament"
    terms: TournamentTerms


@attrs.frozen
class JoinTournament:
    """Version 4: play in a tournament not yet started (needs an account)."""

    TYPE: ClassVar[str] = "join_tournament"
    tournament_id: str


@attrs.frozen
class WithdrawTournament:
    """Version 4: leave a tournament: before its start, off its list; after, paired no more."""

    TYPE: ClassVar[str] = "withdraw_tournament"
    tournament_id: str


@attrs.frozen
class StartTournament:
    """Version 4: the director starts the tournament: its first round is paired."""

    TYPE: ClassVar[str] = "start_tournament"
    tournament_id: str


DirectorAction = Literal["remove", "draw_round", "end", "pause", "resume"]


@attrs.frozen
class DirectTournament:
    """Version 4: the director's hand: `remove` the player `name` (before the start, off the
    list; after it, paired no more: their games already paired stand), `draw_round` (the
    round's games still played end as draws), `end` (the tournament ends now, its games still
    played as draws), `pause` (the games under way go on, no round is paired) and `resume`."""

    TYPE: ClassVar[str] = "direct_tournament"
    tournament_id: str
    action: DirectorAction
    name: str | None = since_v4(None)


@attrs.frozen
class WatchTournament:
    """Version 4: get the tournament's state now and at each change (`watch` false: no more)."""

    TYPE: ClassVar[str] = "watch_tournament"
    tournament_id: str
    watch: bool = since_v4(True)


# ----- server to client -------------------------------------------------------------------


@attrs.frozen
class TournamentSummary:
    """One tournament of the list. `round`: the round under way or last played (0 before the
    start); `rounds`: how many it has (a round-robin's: 0 until it starts)."""

    tournament_id: str
    name: str
    format: FormatName
    director: str
    status: TournamentStatus
    players: int
    round: int
    rounds: int
    clock: TimeControl | None
    rated: bool
    start: float | None
    paused: bool  # by its director: no round is paired until they resume it
    # ended by a moderator or the operator (moderate's close_tournament): `finished`, with its
    # standings as they stood then; a game it left unfinished has no result
    closed: bool = since_v4(False)


@attrs.frozen
class Tournaments:
    """Version 4: answer to get_tournaments, the newest first."""

    TYPE: ClassVar[str] = "tournaments"
    tournaments: list[TournamentSummary]
    name: str | None  # the player asked about, as get_tournaments named them


@attrs.frozen
class TournamentPlayer:
    """An entrant: `rating` the seed (the rating at joining); `joined` the first round they
    could play; `withdrawn` once out."""

    name: str
    rating: int
    joined: int
    withdrawn: bool


@attrs.frozen
class Pairing:
    """One game of a round: `table_id` its table (nil for a game never played), `result` nil
    while it is played."""

    board: int
    white: str
    black: str
    table_id: str | None
    result: PairingResult | None


@attrs.frozen
class TournamentRound:
    number: int
    bye: str | None  # the player without a game (a Swiss's bye is worth a win)
    games: list[Pairing]


@attrs.frozen
class StandingEntry:
    """One line of the standings: points, then the tie-breaks in their order (docs/tournaments.md):
    a Swiss's Buchholz cut 1 (0 in a round-robin), Sonneborn-Berger, the direct encounter, the
    wins. `place` is shared by players equal on all of them."""

    place: int
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    direct_encounter: float
    wins: int
    withdrawn: bool


@attrs.frozen
class TournamentState:
    """Version 4: the whole of one tournament, to those who watch it, at every change."""

    TYPE: ClassVar[str] = "tournament"
    summary: TournamentSummary
    options: TableOptions
    forfeit_after: int | None  # seconds for a first move; nil: the game's clock
    players: list[TournamentPlayer]  # in the order of joining
    rounds: list[TournamentRound]  # the first first
    standings: list[StandingEntry]
