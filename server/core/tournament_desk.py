"""Version 4's tournaments on the server: made by an account (any, or the directors only, as
`--tournaments` says), joined and left by accounts, started by their director or at their start
time; each round paired by server/core/tournaments/ (the model, the Swiss pairing, Berger's
tables, the standings), its tables made with both seats held for their players at their colours
and the tournament's clock, the players told (`player_note` `tournament_round`), each result
taken into the model when its game ends, and the next round paired when the last game of the
round has ended. Everything is written as it happens (schema version 5), so that a restart on
the same database goes on with the round.

A live tournament's player who makes no first move within the forfeit time (the director's, else
`tournament_forfeit`) loses that game by forfeit; in a game of days the clock does it."""

from __future__ import annotations

import logging
from fractions import Fraction
from typing import Any

import attrs

from protocol.errors import ErrorCode
from protocol.fields import TableOptions, TimeControl
from protocol.player_messages import NOTE_SINCE, PlayerNote
from protocol.tournament_messages import (
    DirectorAction,
    Pairing,
    PairingResult,
    StandingEntry,
    TournamentPlayer,
    TournamentRound,
    Tournaments,
    TournamentState,
    TournamentStatus,
    TournamentSummary,
    TournamentTerms,
)
from server.core.accounts import Account
from server.core.archive import turns_completed
from server.core.clock import Clock
from server.core.context import Context
from server.core.effects import PairingJob
from server.core.game_terms import game_terms
from server.core.lifecycle import Lifecycle
from server.core.names import name_key
from server.core.play import Play
from server.core.session import Session
from server.core.sessions import clean_text, logged_in_account
from server.core.store import (
    EntrantGoneOp,
    EntrantOp,
    EntrantRow,
    PairingResultOp,
    PairingRow,
    RoundOp,
    RoundRow,
    StoredTournament,
    TournamentOp,
    TournamentRow,
)
from server.core.table import Closing, MemberId, Outbox, Table, TableError
from server.core.tournaments.model import (
    Entrant,
    Format,
    Game,
    Round,
    Tournament,
    TournamentError,
)
from server.core.tournaments.outcomes import Outcome
from server.core.tournaments.standings import Standing, standings
from server.core.tournaments.swiss import Relaxation, SwissPairing, pair_round
from shared.types import Seat, Termination

log = logging.getLogger(__name__)

NAME_MAX = 60  # characters of a tournament's name
ROUNDS_MAX = 30  # a Swiss's rounds at most
PLAYERS_MAX = 256  # entrants of one tournament at most
FORFEIT_MIN, FORFEIT_MAX = 30, 7 * 86400  # seconds a director may give for a first move
LISTED = 100  # tournaments get_tournaments lists, the newest
START_AHEAD = 366 * 86400.0  # seconds ahead a start time may be
FIRST_MOVE = "first_move"  # the timer of a tournament game's first moves
STARTS = "tournament_start"  # the timer of a tournament's start time
TELLS = "tournament_tell"  # the timer of the watchers' state after results
TELL_EVERY = 1.0  # seconds: the watchers get the results at most this often


def bad(reason: str, english: str) -> TableError:
    return TableError.refused(ErrorCode.BAD_TOURNAMENT, reason, english)


def bad_hand(reason: str, english: str) -> TableError:
    """A moderator's action on a tournament refused (docs/protocol.md, Moderation)."""
    return TableError.refused(ErrorCode.BAD_MODERATION, reason, english)


def terms_to_dict(terms: TournamentTerms) -> dict[str, Any]:
    return attrs.asdict(terms)


def terms_from_dict(data: dict[str, Any]) -> TournamentTerms:
    clock = data.get("clock")
    return TournamentTerms(
        data["name"],
        data["format"],
        int(data.get("rounds", 0)),
        None if clock is None else TimeControl(**clock),
        bool(data.get("rated", True)),
        TableOptions(**data.get("options", {})),
        data.get("start"),
        data.get("forfeit_after"),
    )


@attrs.define
class Held:
    """A tournament as the desk keeps it: the model (entrants and results by account key), its
    tables by (round, board) and back, and the connections that watch it."""

    tournament_id: str
    director: str  # account key
    terms: TournamentTerms
    created: float
    model: Tournament
    positions: dict[str, int]  # account key -> the order of joining
    boards: dict[tuple[int, int], str] = attrs.Factory(dict)  # (round, board) -> table id
    watchers: set[MemberId] = attrs.Factory(set)
    paused: bool = False  # by its director: no round is paired meanwhile
    # ended by a moderator or the operator (close): its standings stay as they stood then, and a
    # game it left unfinished takes no result
    closed: bool = False
    begun: bool = False  # started: its first round may still be being paired
    pairing: PairingJob | None = None  # the round being paired off the event loop
    told_at: float = float("-inf")  # when the watchers last had the state
    tell_pending: bool = False  # a result they have not had yet, for TELL_EVERY
    notes_due: int | None = None  # the round whose players are told with the next tell
    # the last standings worked out, with the model they are of
    _standings: tuple[Tournament, list[Standing]] | None = attrs.field(default=None, init=False)

    def standings(self) -> list[Standing]:
        """The model's standings, worked out once for each model (the final ones are both
        written and told)."""
        if self._standings is None or self._standings[0] is not self.model:
            self._standings = (self.model, standings(self.model))
        return self._standings[1]

    @property
    def status(self) -> TournamentStatus:
        if self.model.finished:
            return "finished"
        return "started" if self.model.started or self.begun else "open"

    @property
    def correspondence(self) -> bool:
        return self.terms.clock is not None and self.terms.clock.days > 0


class TournamentDesk:
    def __init__(self, ctx: Context, tables: Lifecycle, play: Play) -> None:
        self.ctx = ctx
        self.tables = tables
        self.play = play
        self.held: dict[str, Held] = {}  # by id, oldest first
        self.directors: set[str] = set()  # the accounts that may make one under `directors`
        self._pairings = 0  # the PairingJobs handed out, for their numbers
        ctx.tournament_game_over = self.game_over

    # ----- from storage -----------------------------------------------------------------------

    def restore(self, stored: list[StoredTournament], directors: list[str], now: float) -> None:
        self.directors = set(directors)
        for kept in stored:
            row = kept.tournament
            terms = terms_from_dict(row.terms)
            entrants = tuple(
                Entrant(e.account, e.rating, e.joined, e.left, e.removed) for e in kept.entrants
            )
            rounds = tuple(
                Round(
                    r.number,
                    tuple(
                        Game(g.white, g.black, None if g.outcome is None else Outcome(g.outcome))
                        for g in r.games
                    ),
                    r.bye,
                    frozenset(Relaxation(x) for x in r.relaxed),
                )
                for r in kept.rounds
            )
            model = Tournament(
                Format(row.format), terms.rounds, entrants, rounds, row.status == "finished"
            )
            held = Held(
                row.tournament_id,
                row.director,
                terms,
                row.created,
                model,
                {e.account: e.position for e in kept.entrants},
                paused=bool(row.terms.get("paused", False)),
                closed=bool(row.terms.get("closed", False)),
                begun=row.status == "started",
            )
            for r in kept.rounds:
                for g in r.games:
                    if g.table_id is not None:
                        held.boards[r.number, g.board] = g.table_id
                        self.ctx.tournament_tables[g.table_id] = (row.tournament_id, r.number)
            self.held[row.tournament_id] = held
            self.ctx.tournament_names[row.tournament_id] = terms.name

    def tables_restored(self, now: float) -> None:
        """After the tables came back: the first-move forfeits of the games under way count
        afresh from now, the start times wait again, and a round that was being paired when
        the server stopped (its last round over, or none yet) is asked for again."""
        for held in self.held.values():
            if held.status == "open" and held.terms.start is not None:
                self._schedule_start(held, now)
            if held.status != "started":
                continue
            if self._to_pair(held):
                self._next_round(held, now)
                continue
            if held.model.current is None:
                continue
            number = held.model.current.number
            for (round_number, _), table_id in held.boards.items():
                table = self.ctx.lobby.tables.get(table_id)
                if round_number == number and table is not None and not table.game.is_over:
                    self._schedule_first_move(held, table, now)

    # ----- the messages -------------------------------------------------------------------------

    def listing(self, session: Session, name: str | None) -> None:
        """The newest tournaments, or (`name`) those the player is or was in."""
        held = list(self.held.values())
        if name is not None:
            player = self.ctx.accounts.get(name_key(clean_text(name)))
            if player is None:
                raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
            held = [h for h in held if h.model.entrant(player.key) is not None]
            name = player.name
        self.ctx.send(session.member, self._listing(held, name))

    def _listing(self, held: list[Held], name: str | None = None) -> Tournaments:
        newest = held[-LISTED:][::-1]
        return Tournaments([self._summary(h) for h in newest], name)

    def _tell_lobby(self) -> None:
        """The lobby's watchers get the list anew when a tournament is made, starts or ends:
        what a lobby shows of it changes then (a join or a result does not send it; the list
        is asked for again). Versions 1 to 3 do not know the message: send_all leaves them
        out, so their bytes are as before."""
        watchers = self.ctx.lobby.watchers
        if watchers:
            listing = self._listing(list(self.held.values()))
            self.ctx.send_all([(member, listing) for member in sorted(watchers)])

    def create(self, session: Session, terms: TournamentTerms, now: float) -> None:
        ctx = self.ctx
        account = logged_in_account(ctx, session, "log in to make a tournament")
        if ctx.config.tournaments == "directors" and account.key not in self.directors:
            raise bad("not_director", "only the server's tournament directors make tournaments")
        terms = self._checked(terms)
        while True:
            tournament_id = ctx.rng.randbytes(4).hex()
            if tournament_id not in self.held:
                break
        held = Held(
            tournament_id,
            account.key,
            terms,
            ctx.wall,
            Tournament(Format(terms.format), terms.rounds),
            {},
        )
        self.held[tournament_id] = held
        self.ctx.tournament_names[tournament_id] = terms.name
        self._write(held)
        held.watchers.add(session.member)
        if terms.start is not None:
            self._schedule_start(held, now)
        self._tell(held)
        self._tell_lobby()
        log.info("tournament %s made by %s: %s", tournament_id, account.name, terms.format)

    def _checked(self, terms: TournamentTerms) -> TournamentTerms:
        name = clean_text(terms.name)
        if not name or len(name) > NAME_MAX:
            raise bad("bad_terms", f"a tournament's name has 1 to {NAME_MAX} characters")
        swiss = terms.format == "swiss"
        if swiss and not 1 <= terms.rounds <= ROUNDS_MAX:
            raise bad("bad_terms", f"a Swiss has 1 to {ROUNDS_MAX} rounds")
        if not swiss and terms.rounds != 0:
            raise bad("bad_terms", "a round-robin's rounds follow from its players: give 0")
        game_terms(terms.options, terms.clock, lambda why: bad("bad_terms", why))
        forfeit = terms.forfeit_after
        if forfeit is not None and not FORFEIT_MIN <= forfeit <= FORFEIT_MAX:
            raise bad("bad_terms", f"the time for a first move is {FORFEIT_MIN} to {FORFEIT_MAX} s")
        start = terms.start
        if start is not None and not self.ctx.wall < start <= self.ctx.wall + START_AHEAD:
            raise bad("bad_terms", "the start time is to come, within a year")
        return attrs.evolve(terms, name=name)

    def join(self, session: Session, tournament_id: str, now: float) -> None:
        account = logged_in_account(self.ctx, session, "log in to play in a tournament")
        held = self._get(tournament_id)
        if len(held.model.entrants) >= PLAYERS_MAX:
            raise bad("full", f"a tournament has {PLAYERS_MAX} players at most")
        held.model = self._change(lambda: held.model.join(account.key, account.rating))
        held.positions[account.key] = max(held.positions.values(), default=-1) + 1
        self._write_entrant(held, account.key)
        held.watchers.add(session.member)
        self._tell(held)

    def withdraw(self, session: Session, tournament_id: str, now: float) -> None:
        account = logged_in_account(self.ctx, session, "log in to leave a tournament")
        self._withdraw(self._get(tournament_id), account.key)

    def start(self, session: Session, tournament_id: str, now: float) -> None:
        account = logged_in_account(self.ctx, session, "log in to start a tournament")
        held = self._get(tournament_id)
        if held.director != account.key:
            raise bad("not_director", "only the tournament's director starts it")
        if held.status != "open":
            raise bad("started", "the tournament has started already")
        if len(held.model.entrants) < 2:
            raise bad("too_few_players", "a tournament needs two players at least")
        self._begin(held, now)

    def direct(
        self,
        session: Session,
        tournament_id: str,
        action: DirectorAction,
        name: str | None,
        now: float,
    ) -> None:
        account = logged_in_account(self.ctx, session, "log in to direct a tournament")
        held = self._get(tournament_id)
        if held.director != account.key:
            raise bad("not_director", "only the tournament's director does that")
        if held.status == "finished":
            raise bad("tournament_finished", _REFUSALS["tournament_finished"])
        if action == "remove":
            player = None if name is None else self.ctx.accounts.get(name_key(clean_text(name)))
            if player is None or held.model.entrant(player.key) is None:
                raise bad("not_joined", "no such player in this tournament")
            self._withdraw(held, player.key, removed=True)
            return
        if action in ("pause", "resume"):
            held.paused = action == "pause"
            self._write(held)
            if self._to_pair(held):
                self._next_round(held, now)  # the round ended while paused
            else:
                self._tell(held)
            return
        if action == "end":
            # finished first, so that the games drawn below pair no further round
            held.model = held.model.end()
        self._draw_round(held, now)
        if action == "end":
            self._finish(held)

    def _withdraw(self, held: Held, key: str, removed: bool = False) -> None:
        """`key` is out (`removed`: by the director): before the start gone from the list and
        the database, after it kept in both, marked out; the watchers are told."""
        held.model = self._change(lambda: held.model.withdraw(key, removed=removed))
        if held.model.entrant(key) is None:
            held.positions.pop(key, None)
            self.ctx.write(EntrantGoneOp(held.tournament_id, key))
        else:
            self._write_entrant(held, key)
        self._tell(held)

    def _draw_round(self, held: Held, now: float) -> None:
        """The games of the current round still played end as draws (agreed), each taking its
        result as any game's end does."""
        current = held.model.current
        if current is None:
            return
        for board, game in enumerate(current.games, start=1):
            table_id = held.boards.get((current.number, board))
            table = None if table_id is None else self.ctx.lobby.tables.get(table_id)
            if game.outcome is None and table is not None and table.status == "playing":
                self.play.end(table, Termination.AGREED, None, now)

    def watch(self, session: Session, tournament_id: str, watch: bool) -> None:
        held = self._get(tournament_id)
        if not watch:
            held.watchers.discard(session.member)
            return
        held.watchers.add(session.member)
        self.ctx.send(session.member, self._state(held))

    # ----- a moderator's or the operator's hand (server/core/moderation.py) ----------------------

    def close(self, tournament_id: str, closing: Closing, now: float) -> str:
        """The tournament ends at once, with its standings as they stand: a round being paired
        is dropped, its games under way end as abandoned (unrated, no result in the
        tournament) and their tables close, as a moderator's close_table does; the watchers, the
        lobby and its players and director are told. Its name, for the log's reader."""
        held = self._get(tournament_id)
        if held.status == "finished":
            raise bad_hand("tournament_finished", _REFUSALS["tournament_finished"])
        # closed and finished first: the games ended below take no result and pair nothing
        held.closed = True
        held.model = held.model.end()
        held.pairing = None  # its answer, should it come, finds no tournament waiting for it
        for table in self._tables_playing(held):
            self.play.end(table, Termination.ABANDONED, None, now)
            self.tables.close_table(table, closing, now)
        self._write(held)
        self._tell(held)
        self._tell_lobby()
        told = {e.name for e in held.model.entrants if e.left is None} | {held.director}
        self._note(told, PlayerNote("tournament_closed", None, held.terms.name))
        log.info("tournament %s closed: %s", held.tournament_id, closing.english)
        return held.terms.name

    def hand(self, tournament_id: str, director: Account) -> None:
        """The tournament is directed by `director` from now on (its director gone, say): the
        watchers and the lobby see the new director, who is told."""
        held = self._get(tournament_id)
        if held.status == "finished":
            raise bad_hand("tournament_finished", _REFUSALS["tournament_finished"])
        if director.key == held.director:
            raise bad_hand("already_director", "that player directs the tournament already")
        if director.disabled:
            raise bad_hand("disabled", "that account is disabled")
        held.director = director.key
        self._write(held)
        self._tell(held)
        self._tell_lobby()
        self._note({director.key}, PlayerNote("tournament_director", None, held.terms.name))
        log.info("tournament %s: directed by %s", held.tournament_id, director.name)

    def _tables_playing(self, held: Held) -> list[Table]:
        """The tables of the tournament whose games are under way (only the current round's
        can be)."""
        current = held.model.current
        if current is None:
            return []
        found = []
        for board in range(1, len(current.games) + 1):
            table_id = held.boards.get((current.number, board))
            table = None if table_id is None else self.ctx.lobby.tables.get(table_id)
            if table is not None and not table.closed and table.status == "playing":
                found.append(table)
        return found

    def _note(self, keys: set[str], note: PlayerNote) -> None:
        """The note to every version-4 connection of these accounts."""
        since = NOTE_SINCE[note.note]
        self.ctx.send_all(
            [
                (s.member, note)
                for s in self.ctx.account_sessions.of_all(keys)
                if s.version >= since and not s.closing
            ]
        )

    # ----- a deleted account (server/core/account_deletion.py) ---------------------------------

    def holds(self, key: str) -> bool:
        """Whether the account may not be deleted for a tournament: one it directs that is not
        finished, or one under way it still plays in (an open one it only left is no bar)."""
        for held in self.held.values():
            if held.status == "finished":
                continue
            if held.director == key:
                return True
            entrant = held.model.entrant(key)
            if held.status == "started" and entrant is not None and entrant.left is None:
                return True
        return False

    def leave_open(self, session: Session, now: float) -> None:
        """The account of the connection is deleted: it leaves the tournaments not started."""
        key = session.account
        for held in list(self.held.values()):
            if held.status == "open" and key is not None and held.model.entrant(key) is not None:
                self.withdraw(session, held.tournament_id, now)

    def rename_account(self, key: str, stand_in: str) -> None:
        """A deleted account's key becomes its stand-in's everywhere the desk keeps it (the
        database's rows were rewritten by the DeleteAccountOp before); a finished tournament's
        final table is written again with it."""

        def renamed(name: str) -> str:
            return stand_in if name == key else name

        for held in self.held.values():
            if key not in held.positions and key != held.director:
                continue
            model = held.model
            held.model = attrs.evolve(
                model,
                entrants=tuple(attrs.evolve(e, name=renamed(e.name)) for e in model.entrants),
                rounds=tuple(
                    attrs.evolve(
                        r,
                        games=tuple(
                            attrs.evolve(g, white=renamed(g.white), black=renamed(g.black))
                            for g in r.games
                        ),
                        bye=None if r.bye is None else renamed(r.bye),
                    )
                    for r in model.rounds
                ),
            )
            held.positions = {renamed(k): p for k, p in held.positions.items()}
            held.director = renamed(held.director)
            if held.status == "finished":
                self._write(held)
            self._tell(held)

    def forget(self, member: MemberId) -> None:
        """A connection gone: it watches nothing any more."""
        for held in self.held.values():
            held.watchers.discard(member)

    def _get(self, tournament_id: str) -> Held:
        held = self.held.get(tournament_id)
        if held is None:
            raise TableError(ErrorCode.NO_SUCH_TOURNAMENT, "no tournament has this id")
        return held

    def _change(self, change: Any) -> Tournament:
        try:
            changed: Tournament = change()
        except TournamentError as exc:
            raise bad(exc.code, _REFUSALS.get(exc.code, exc.code)) from None
        return changed

    # ----- the rounds ---------------------------------------------------------------------------

    def _begin(self, held: Held, now: float) -> None:
        if len(held.model.entrants) < 2:
            log.info("tournament %s ends: fewer than two players at its start", held.tournament_id)
            self._finish(held)
            return
        held.begun = True
        self._write(held)  # started, before its first round is paired: a restart pairs it
        log.info("tournament %s starts with %d players", held.tournament_id,
                 len(held.model.entrants))  # fmt: skip
        self._next_round(held, now)
        if not held.model.finished:  # else _finish told the lobby
            self._tell_lobby()

    def _next_round(self, held: Held, now: float) -> None:
        """Pair the next round and make its tables; a round whose games were all decided at its
        pairing (a round-robin's forfeits) is followed by the next at once. After the last, or
        when fewer than two players are left to pair, the tournament is over. A Swiss round is
        paired off the event loop: asked for here (a PairingJob), made in `round_paired`."""
        if held.pairing is not None:
            return  # asked for already; `round_paired` checks it against the players then
        while True:
            model = held.model
            number = len(model.rounds) + 1
            present = [e for e in model.entrants if e.in_round(number)]
            if number > model.total_rounds or (model.swiss and len(present) < 2):
                self._finish(held)
                return
            if model.swiss:
                self._pairings += 1
                job = PairingJob(self._pairings, held.tournament_id, number, model.to_pair())
                held.pairing = job
                self.ctx.effects.pairing_jobs.append(job)
                # started, at once; or the last result of a round, as any result is told
                self._tell(held, result=number > 1)
                return
            held.model = model.pair_next_round()
            paired = self._round_made(held, number, now)
            if not paired.finished:
                break
        self._tell(held)

    def round_paired(self, job: int, pairing: SwissPairing | None, now: float) -> None:
        """A PairingJob's pairing (None: the worker failed, and it is made here): the round's
        tables made, as `_next_round` would have. One that no longer fits (the tournament ended
        meanwhile, or a player joined or left, so that those to pair are others) is dropped,
        and the round asked for again where it is still to be paired."""
        held = next((h for h in self.held.values() if h.pairing and h.pairing.job == job), None)
        if held is None:
            return  # the server's earlier life's, or dropped
        asked, held.pairing = held.pairing, None
        assert asked is not None
        model = held.model
        if model.finished:
            return
        try:
            fits = len(model.rounds) + 1 == asked.number and model.to_pair() == asked.players
        except TournamentError:  # too few players left, say: _next_round says what follows
            fits = False
        if not fits:
            log.info("tournament %s: round %d to pair again, its players changed meanwhile",
                     held.tournament_id, asked.number)  # fmt: skip
            self._next_round(held, now)
            return
        if pairing is None:
            log.error("tournament %s: round %d paired on the event loop, the worker failed",
                      held.tournament_id, asked.number)  # fmt: skip
            pairing = pair_round(asked.players)
        held.model = model.with_swiss_round(pairing)
        self._round_made(held, asked.number, now, notes=False)
        self._tell_soon(held, asked.number)

    def _round_made(self, held: Held, number: int, now: float, notes: bool = True) -> Round:
        """The round just paired in the model: its tables made, it written, its players told
        (`notes`; else by the caller)."""
        paired = held.model.current
        assert paired is not None and paired.number == number
        rows = []
        for board, game in enumerate(paired.games, start=1):
            table_id = None
            if game.outcome is None:
                table = self._table_for(held, number, game, now)
                table_id = table.table_id
                held.boards[number, board] = table_id
                self.ctx.tournament_tables[table_id] = (held.tournament_id, number)
            outcome = None if game.outcome is None else game.outcome.value
            rows.append(PairingRow(board, game.white, game.black, table_id, outcome))
        relaxed = tuple(sorted(r.value for r in paired.relaxed))
        self.ctx.write(
            RoundOp(
                RoundRow(
                    held.tournament_id, number, paired.bye, relaxed, self.ctx.wall, tuple(rows)
                )
            )
        )
        if notes:
            self._note_players(held, number)
        log.info("tournament %s: round %d paired", held.tournament_id, number)
        return paired

    def _to_pair(self, held: Held) -> bool:
        """Whether the tournament's next round is due and not asked for: started, not paused,
        its last round (if any) over."""
        current = held.model.current
        return (
            held.status == "started"
            and not held.paused
            and held.pairing is None
            and (current is None or current.finished)
        )

    def _table_for(self, held: Held, number: int, game: Game, now: float) -> Table:
        accounts = self.ctx.accounts
        white, black = accounts.by_key[game.white], accounts.by_key[game.black]
        terms = held.terms
        clock = None if terms.clock is None else Clock.new(terms.clock)
        table = self.tables.create_for_tournament(
            white, black, terms.options.to_game_options(), clock, terms.rated, now
        )
        self._schedule_first_move(held, table, now)
        return table

    def logged_in(self, session: Session) -> None:
        """A connection logged in (version 4): a note for each game of the player's in a round
        under way that waits for them away from its table, as when the round was paired."""
        key = session.account
        if key is None or session.version < NOTE_SINCE["tournament_round"]:
            return
        for held in self.held.values():
            current = held.model.current
            if held.status != "started" or current is None:
                continue
            for board, game in enumerate(current.games, start=1):
                table_id = held.boards.get((current.number, board))
                table = None if table_id is None else self.ctx.lobby.tables.get(table_id)
                if game.outcome is not None or table is None or key not in (game.white, game.black):
                    continue
                holder = table.seats[Seat.WHITE if key == game.white else Seat.BLACK]
                if holder is not None and holder.member is None:
                    opponent = self.ctx.accounts.name_of(game.opponent(key))
                    note = PlayerNote("tournament_round", table.table_id, opponent)
                    self.ctx.send(session.member, note)

    def _note_players(self, held: Held, number: int) -> None:
        """Each player of the round's games made at a table: where their game is."""
        since = NOTE_SINCE["tournament_round"]
        paired = held.model.rounds[number - 1]
        playing = {key for game in paired.games for key in (game.white, game.black)}
        members = {
            key: [s.member for s in self.ctx.account_sessions.of(key) if s.version >= since]
            for key in playing
        }
        outbox: Outbox = []
        for board, game in enumerate(paired.games, start=1):
            table_id = held.boards.get((number, board))
            if table_id is None:
                continue
            for key in (game.white, game.black):
                note = PlayerNote(
                    "tournament_round", table_id, self.ctx.accounts.name_of(game.opponent(key))
                )
                params = {
                    "tournament": held.terms.name,
                    "round": number,
                    "opponent": note.name,
                }
                self.ctx.mail_notice(key, "tournament_round", params, table_id)
                outbox += [(member, note) for member in members.get(key, ())]
        self.ctx.send_all(outbox)

    def game_over(self, table: Table, now: float) -> None:
        """A game has ended (its result, record and archive written): a tournament's takes its
        result, and the last of a round pairs the next."""
        where = self.ctx.tournament_tables.get(table.table_id)
        if where is None:
            return
        held = self.held.get(where[0])
        result = table.game.result
        if held is None or result is None or held.closed:
            return  # a closed tournament's standings stay as they stood when it was closed
        number = where[1]
        board = next(b for (n, b), t in held.boards.items() if t == table.table_id and n == number)
        game = held.model.rounds[number - 1].games[board - 1]
        outcome = _outcome(table, result.winner, result.kind)
        try:
            held.model = held.model.record(number, game.white, outcome)
        except TournamentError as exc:
            log.warning("tournament %s round %d board %d: %s", held.tournament_id, number,
                        board, exc.code)  # fmt: skip
            return
        self.ctx.write(PairingResultOp(held.tournament_id, number, board, outcome.value))
        current = held.model.current
        if held.model.finished or held.paused:
            self._tell(held, result=True)  # ended or paused by its director: no round now
        elif current is not None and current.number == number and current.finished:
            self._next_round(held, now)
        else:
            self._tell(held, result=True)

    def _finish(self, held: Held) -> None:
        held.model = held.model.end()
        self._write(held)
        self._tell(held)
        self._tell_lobby()
        log.info("tournament %s finished", held.tournament_id)

    # ----- the timers -------------------------------------------------------------------------

    def _forfeit_after(self, held: Held) -> float | None:
        if held.terms.forfeit_after is not None:
            return float(held.terms.forfeit_after)
        return None if held.correspondence else self.ctx.config.tournament_forfeit

    def _schedule_first_move(self, held: Held, table: Table, now: float) -> None:
        after = self._forfeit_after(held)
        if after is not None:
            self.ctx.timers.schedule(now + after, table.table_id, FIRST_MOVE)

    def _schedule_start(self, held: Held, now: float) -> None:
        start = held.terms.start
        assert start is not None
        self.ctx.timers.schedule(now + max(0.0, start - self.ctx.wall), held.tournament_id, STARTS)

    def _waiting_first_move(self, table: Table) -> tuple[float, float | None] | None:
        """A tournament game still waiting for a first move (a turn ended): the forfeit time,
        and when the player to move loses by it (None: the player to move has made theirs, the
        other has not yet had a turn since). None when nothing is waited for: no forfeit time,
        the game over, or both have moved (the clock and the rules of any game go on)."""
        where = self.ctx.tournament_tables.get(table.table_id)
        held = None if where is None else self.held.get(where[0])
        after = None if held is None else self._forfeit_after(held)
        if after is None or table.game.is_over or table.status != "playing":
            return None
        turns = turns_completed(table)
        if all(turns.values()):
            return None
        if turns[table.game.to_move]:
            return after, None
        return after, table.turn_since + after

    def first_move_due(self, table: Table, now: float) -> None:
        """A game's first moves: the player to move who has made none within the forfeit time
        of their turn's start loses the game by forfeit; else a look again when it may be due."""
        waiting = self._waiting_first_move(table)
        if waiting is None:
            return
        after, due = waiting
        if due is None or now < due:
            again = now + after if due is None else due
            self.ctx.timers.schedule(again, table.table_id, FIRST_MOVE)
            return
        self._forfeit(table, after, now)

    def move_coming(self, table_id: str, now: float) -> None:
        """A command comes for a table: in a tournament's game whose player to move has let
        the time for a first move run out, the forfeit falls first, whether or not its timer
        has been handled yet (as a clock's flag falls before a move: Table.command). So a first
        move at or after the forfeit time loses the game, one before it stands, and which of the
        move and the timer the server takes first decides nothing (docs/tournaments.md)."""
        table = self.ctx.lobby.tables.get(table_id)
        if table is None or table.closed or table_id not in self.ctx.tournament_tables:
            return
        waiting = self._waiting_first_move(table)
        if waiting is not None and waiting[1] is not None and now >= waiting[1]:
            self._forfeit(table, waiting[0], now)

    def _forfeit(self, table: Table, after: float, now: float) -> None:
        log.info("table %s: no first move in %.0f s, forfeit", table.table_id, after)
        self.play.end(table, Termination.FORFEIT, table.game.to_move, now)

    def start_due(self, tournament_id: str, now: float) -> None:
        held = self.held.get(tournament_id)
        if held is None or held.status != "open" or held.paused:
            return  # started by its director meanwhile, or held back
        self._begin(held, now)

    # ----- telling and writing ------------------------------------------------------------------

    def _summary(self, held: Held) -> TournamentSummary:
        model, terms = held.model, held.terms
        return TournamentSummary(
            held.tournament_id,
            terms.name,
            terms.format,
            self.ctx.accounts.name_of(held.director),
            held.status,
            sum(1 for e in model.entrants if e.left is None),
            len(model.rounds),
            model.total_rounds,
            terms.clock,
            terms.rated,
            terms.start,
            held.paused,
            held.closed,
        )

    def _state(self, held: Held) -> TournamentState:
        name_of = self.ctx.accounts.name_of
        model = held.model
        rounds = [
            TournamentRound(
                r.number,
                None if r.bye is None else name_of(r.bye),
                [
                    Pairing(
                        board,
                        name_of(g.white),
                        name_of(g.black),
                        held.boards.get((r.number, board)),
                        None if g.outcome is None else _wire_result(g.outcome),
                    )
                    for board, g in enumerate(r.games, start=1)
                ],
            )
            for r in model.rounds
        ]
        table = (
            [
                StandingEntry(
                    s.place, name_of(s.name), float(s.points), float(s.buchholz),
                    float(s.sonneborn_berger), float(s.direct_encounter), s.wins, s.withdrawn,
                )
                for s in held.standings()
            ]
            if model.started
            else []
        )  # fmt: skip
        after = self._forfeit_after(held)
        return TournamentState(
            self._summary(held),
            held.terms.options,
            None if after is None else round(after),  # in force: the director's or the server's
            [
                TournamentPlayer(name_of(e.name), round(e.rating), e.joined, e.left is not None)
                for e in model.entrants
            ],
            rounds,
            table,
        )

    def _tell(self, held: Held, result: bool = False) -> None:
        """The state to the watchers: at once, or (`result`: a game's result and nothing else)
        at most every TELL_EVERY seconds, the results meanwhile together: the standings of a
        large tournament take a while to work out, and a round's games end close together."""
        if not held.watchers:
            held.tell_pending = False
            return
        now = self.ctx.now
        if result and now < held.told_at + TELL_EVERY:
            if not held.tell_pending:
                held.tell_pending = True
                self.ctx.timers.schedule(held.told_at + TELL_EVERY, held.tournament_id, TELLS)
            return
        held.tell_pending = False
        held.told_at = now
        state = self._state(held)
        self.ctx.send_all([(member, state) for member in sorted(held.watchers)])

    def _tell_soon(self, held: Held, number: int) -> None:
        """The state to the watchers, then round `number`'s notes to its players, at the
        core's next wake (the shell's next turn of its loop, `tick`): a round's tables made
        (some 4 ms of the loop for 64 players) and its state worked out, encoded and sent to
        every watcher (some 3 ms more) in two turns, between which the other tables' commands
        are answered. A player who hears of their game has the round's state already."""
        held.tell_pending = bool(held.watchers)
        held.notes_due = number
        self.ctx.timers.schedule(self.ctx.now, held.tournament_id, TELLS)

    def tell_due(self, tournament_id: str) -> None:
        held = self.held.get(tournament_id)
        if held is None:
            return
        if held.tell_pending:
            self._tell(held)
        number, held.notes_due = held.notes_due, None
        if number is not None:
            self._note_players(held, number)

    def _write(self, held: Held) -> None:
        final = None
        if held.model.finished and held.model.started:
            final = [
                {
                    "place": s.place, "name": s.name, "points": _number(s.points),
                    "buchholz": _number(s.buchholz),
                    "sonneborn_berger": _number(s.sonneborn_berger),
                    "direct_encounter": _number(s.direct_encounter), "wins": s.wins,
                    "withdrawn": s.withdrawn,
                }
                for s in held.standings()
            ]  # fmt: skip
        self.ctx.write(
            TournamentOp(
                TournamentRow(
                    held.tournament_id,
                    held.terms.name,
                    held.director,
                    held.terms.format,
                    {**terms_to_dict(held.terms), "paused": held.paused, "closed": held.closed},
                    held.created,
                    held.status,
                    final,
                )
            )
        )

    def _write_entrant(self, held: Held, key: str) -> None:
        entrant = held.model.entrant(key)
        assert entrant is not None
        self.ctx.write(
            EntrantOp(
                EntrantRow(
                    held.tournament_id,
                    key,
                    entrant.rating,
                    held.positions[key],
                    entrant.joined,
                    entrant.left,
                    entrant.removed,
                )
            )
        )


def _outcome(table: Table, winner: Seat | None, kind: Termination) -> Outcome:
    """A tournament game's outcome from its result: lost by a player who had not made a move,
    by forfeit or on time, it is a game not played (the tie-breaks and the colours count it
    so); any other ending a game played. Time counts as forfeit here because a live
    tournament's clock and its first-move forfeit may fall at the same moment (5 minutes each
    by default), and which timer the server handles first must not decide the kind of result."""
    if winner is None:
        return Outcome.DRAW
    loser = winner.other
    unplayed = kind in (Termination.FORFEIT, Termination.TIME)
    if unplayed and not turns_completed(table)[loser]:
        return Outcome.forfeit_against(loser)
    return Outcome.WHITE_WON if winner is Seat.WHITE else Outcome.BLACK_WON


def _wire_result(outcome: Outcome) -> PairingResult:
    result: PairingResult = outcome.value
    return result


def _number(value: Fraction) -> float:
    return float(value)


_REFUSALS = {
    "already_joined": "you are in this tournament already",
    "round_robin_started": "a round-robin takes no player once started",
    "no_round_left": "the tournament has no round left to join",
    "not_joined": "you are not in this tournament",
    "already_withdrawn": "you have left this tournament already",
    "tournament_finished": "the tournament is over",
}
