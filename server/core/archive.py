"""Version 3's record of the players: when a game with an account at a seat ends, the ratings
(Glicko-2, server/core/glicko2.py) and statistics change and the game joins the archive; the answers
to get_ratings and get_games (a finished game's record: server/core/finished.py).

What counts: a rated table (Table.rated) changes both ratings, a resignation, a forfeit and a
loss on time being losses and an agreed draw a draw, unless the game is aborted, over before each
player completed ABORT_TURNS turns. A game against the computer counts, unrated, in the player's
statistics for its level.
"""

from __future__ import annotations

import attrs

from protocol.errors import ErrorCode
from protocol.fields import SeatName, seat_name
from protocol.player_messages import GameEntry, Games, PlayerStats, RatingEntry, Ratings
from server.core.accounts import Account
from server.core.context import Context
from server.core.glicko2 import Rating, rate_game
from server.core.names import name_key
from server.core.session import Session
from server.core.sessions import logged_in_account
from server.core.store import ArchivedGame, ArchiveOp
from server.core.table import SeatHolder, Table, TableError
from shared.actions import TURN_ENDS
from shared.history import Move
from shared.types import Seat, Termination

ABORT_TURNS = 2  # turns each player completes before a game counts
LEADERBOARD_SIZE = 100
GAMES_LISTED = 200
_WIN, _LOSS, _DRAW = 0, 1, 2


def turns_completed(table: Table) -> dict[Seat, int]:
    done = {Seat.WHITE: 0, Seat.BLACK: 0}
    for entry in table.game.log:
        if isinstance(entry, Move) and isinstance(entry.action, TURN_ENDS):
            done[entry.seat] += 1
    return done


class Archive:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.entries: dict[str, ArchivedGame] = {}
        self.by_account: dict[str, list[str]] = {}  # account key -> its games, oldest first

    def restore(self, games: list[ArchivedGame]) -> None:
        for game in games:
            self._index(game)

    def _index(self, game: ArchivedGame) -> None:
        self.entries[game.table_id] = game
        for key in {game.white_account, game.black_account}:
            if key is not None:
                self.by_account.setdefault(key, []).append(game.table_id)

    def rename_account(self, key: str, stand_in: str, name: str) -> None:
        """A deleted account's games stay, its seats held by its stand-in named `name` (the
        DeleteAccountOp rewrote the stored rows alike); it has no list of games any more."""
        for table_id in self.by_account.pop(key, []):
            game = self.entries[table_id]
            if game.white_account == key:
                game = attrs.evolve(game, white=name, white_account=stand_in)
            if game.black_account == key:
                game = attrs.evolve(game, black=name, black_account=stand_in)
            self.entries[table_id] = game

    # ----- a game ends --------------------------------------------------------------------------

    def game_over(self, table: Table) -> None:
        """The game at the table has just ended (its FinishOp is written)."""
        ctx = self.ctx
        result = table.game.result
        assert result is not None
        holders = {seat: table.seats[seat] for seat in Seat}
        keys = {seat: None if h is None or h.computer else h.account for seat, h in holders.items()}
        if keys[Seat.WHITE] is None and keys[Seat.BLACK] is None:
            return
        accounts = {seat: None if k is None else ctx.accounts.get(k) for seat, k in keys.items()}
        turns = turns_completed(table)
        # a game a moderator closed (abandoned) is never rated, whoever was ahead, nor counted
        # against the computer: archived, with its record, and that is all
        rated = (
            table.rated
            and min(turns.values()) >= ABORT_TURNS
            and result.kind is not Termination.ABANDONED
        )
        changes: dict[Seat, int | None] = {Seat.WHITE: None, Seat.BLACK: None}
        white, black = accounts[Seat.WHITE], accounts[Seat.BLACK]
        if rated and white is not None and black is not None:
            score = 0.5 if result.winner is None else float(result.winner is Seat.WHITE)
            new_white, new_black = rate_game(_rating(white), _rating(black), score)
            pairs = ((Seat.WHITE, white, new_white), (Seat.BLACK, black, new_black))
            for seat, account, new in pairs:
                before = account.shown_rating
                account.rating, account.deviation = new.rating, new.deviation
                account.volatility = new.volatility
                changes[seat] = account.shown_rating - before
                account.rated[_outcome(result.winner, seat)] += 1
        elif table.vs_computer and result.kind is not Termination.ABANDONED:
            for seat, player in accounts.items():
                if player is not None:
                    tally = player.computer.setdefault(table.level, [0, 0, 0])
                    tally[_outcome(result.winner, seat)] += 1
        for changed in {id(a): a for a in accounts.values() if a is not None}.values():
            changed.last_seen = ctx.wall
            ctx.write(changed.op())
        game = ArchivedGame(
            table.table_id,
            _name(holders[Seat.WHITE]),
            _name(holders[Seat.BLACK]),
            keys[Seat.WHITE],
            keys[Seat.BLACK],
            None if result.winner is None else seat_name(result.winner),
            result.kind.value,
            rated,
            changes[Seat.WHITE],
            changes[Seat.BLACK],
            table.vs_computer,
            table.level if table.vs_computer else None,
            table.created_wall,
            ctx.wall,
            *ctx.tournament_tables.get(table.table_id, (None, None)),
        )
        ctx.write(ArchiveOp(game))
        self._index(game)
        # asked rated, between accounts, not abandoned, yet not rated: too short, and said so
        # (version 4), lest the missing rating change look like a fault
        too_short = table.rated and white is not None and black is not None and not rated
        if too_short and result.kind is not Termination.ABANDONED:
            ctx.note(table, "not_rated", None, "too_short")
        if rated:
            for seat, rated_account in accounts.items():
                holder = holders[seat]
                if holder is not None and rated_account is not None:
                    holder.rating = rated_account.shown_rating
            players = table.players_message()
            ctx.send_all([(m, players) for m in table.members()])

    # ----- the answers --------------------------------------------------------------------------

    def ratings(self, session: Session) -> None:
        ctx = self.ctx
        online = ctx.account_sessions.accounts()
        entries = [
            RatingEntry(
                a.name,
                a.shown_rating,
                round(a.deviation),
                a.rated_games,
                a.rated[_WIN],
                a.rated[_LOSS],
                a.rated[_DRAW],
                a.key in online,
            )
            for a in ctx.accounts.leaderboard()[:LEADERBOARD_SIZE]
        ]
        ctx.send(session.member, Ratings(entries))

    def games(self, session: Session, name: str | None) -> None:
        ctx = self.ctx
        if name is None:
            account: Account | None = logged_in_account(ctx, session, "log in to list your games")
        else:
            account = ctx.accounts.get(name_key(name))
        if account is None:
            raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
        running = [self.table_entry(t) for t in self._tables_of(account.key)]
        finished = [
            archived_entry(self.entries[table_id])
            for table_id in reversed(self.by_account.get(account.key, [])[-GAMES_LISTED:])
        ]
        stats = PlayerStats(
            list(account.rated),
            {level: list(wld) for level, wld in sorted(account.computer.items())},
        )
        entries = sorted(running, key=lambda g: -g.started) + finished
        ctx.send(session.member, Games(account.name, account.shown_rating, entries, stats))

    def _tables_of(self, key: str) -> list[Table]:
        return [
            table
            for table in self.ctx.lobby.tables.values()
            if not table.closed
            and table.status == "playing"
            and any(h is not None and h.account == key for h in table.seats.values())
        ]

    def table_entry(self, table: Table) -> GameEntry:
        """A game at its table as a games list gives it: a running one, or one over that is no
        game of the archive (no account at it, so nothing was rated; when it ended is not
        kept: `finished` nil). Only its members are given it then (server/core/finished.py)."""
        white, black = table.seats[Seat.WHITE], table.seats[Seat.BLACK]
        result = table.game.result
        clock = table.clock
        deadline = None
        if clock is not None and result is None:
            deadline = clock.deadline(self.ctx.now, self.ctx.wall)
        to_move = None if result is not None else seat_name(table.game.to_move)
        winner = None if result is None or result.winner is None else seat_name(result.winner)
        computer = [seat_name(s) for s, h in table.seats.items() if h is not None and h.computer]
        guests = [
            seat_name(s)
            for s, h in table.seats.items()
            if h is not None and not h.computer and h.account is None
        ]
        return GameEntry(
            table.table_id, _name(white), _name(black), "playing" if result is None else "over",
            to_move, winner, None if result is None else result.kind.value, table.rated, None,
            None, table.created_wall, None, deadline, table.vs_computer,
            table.level if table.vs_computer else None, computer[0] if computer else None, guests,
        )  # fmt: skip


def _rating(account: Account) -> Rating:
    return Rating(account.rating, account.deviation, account.volatility)


def _outcome(winner: Seat | None, seat: Seat) -> int:
    if winner is None:
        return _DRAW
    return _WIN if winner is seat else _LOSS


def _name(holder: SeatHolder | None) -> str:
    return "" if holder is None else holder.name


def archived_entry(game: ArchivedGame) -> GameEntry:
    """A game of the archive as a games list (and version 4's `record`) gives it: the names and
    the public facts, never the accounts' keys it is kept with. A seat without an account was
    the computer's in a game against it, else a guest's (an archived game has an account at
    the other seat)."""
    keys: tuple[tuple[SeatName, str | None], ...] = (
        ("white", game.white_account), ("black", game.black_account),
    )  # fmt: skip
    keyless = [seat for seat, key in keys if key is None]
    computer = keyless[0] if game.vs_computer and keyless else None
    guests = [] if game.vs_computer else keyless
    return GameEntry(
        game.table_id, game.white, game.black, "over", None,
        "white" if game.winner == "white" else "black" if game.winner == "black" else None,
        game.ending, game.rated, game.white_change, game.black_change, game.started,
        game.finished, None, game.vs_computer,
        "easy" if game.level == "easy" else "normal" if game.level == "normal"
        else "strong" if game.level == "strong" else None,
        computer, guests,
    )  # fmt: skip
