"""One table: a Game, its two seats, its spectators and its chat. Sans-I/O.

Every method takes the id of the member (a connection, or a computer player) that asked, changes
the table or raises TableError (and then changes nothing), and returns the outbox: the messages
to send, each addressed to one member. Views and events leave the game only through shared.views,
so a seat gets its own view and a spectator the public one.

No lock: a table is only ever used by the server core, and the core is only ever called from the
one thread of the event loop, each call running to its end without awaiting anything. So no two
changes of a table can interleave.
"""

from __future__ import annotations

import base64
import hmac
import random
from collections import deque
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

import attrs

from protocol.errors import ErrorCode
from protocol.fields import (
    ChatEntry,
    LevelName,
    PlayerInfo,
    Players,
    RoleName,
    StatusName,
    TableInfo,
    TableOptions,
    seat_name,
)
from protocol.messages import (
    ChatMessage,
    History,
    Joined,
    Left,
    PlayersChanged,
    ServerMessage,
    Spectating,
    State,
    TableClosed,
    Update,
)
from server.core.clock import Clock
from server.core.store import hash_token
from shared.actions import Action, NotationError, parse_action
from shared.events import Event
from shared.game import Game
from shared.legality import IllegalAction, Refusal
from shared.types import GameOptions, Seat, Termination
from shared.views import (
    event_dicts,
    events_to_dicts,
    public_to_dict,
    seat_events,
    seat_view,
    seat_view_to_dict,
    spectator_events,
    spectator_view,
    view_dicts,
)

if TYPE_CHECKING:
    from server.core.config import ServerConfig

MemberId = int
Outbox = list[tuple[MemberId, ServerMessage]]
TOKEN_BYTES = 24  # 192 bits


class _NoCards:
    """The card source of a stored table's placeholder game, which never deals."""

    def shuffled(self, cards: Sequence[int]) -> list[int]:
        raise AssertionError("a stored table's placeholder game never shuffles")


COMPUTER_NAME = "Computer"


def _new_token(rng: random.Random) -> str:
    """A seat's token: TOKEN_BYTES random bytes, URL-safe base64 without padding (the form of
    secrets.token_urlsafe). The core's rng is the system's CSPRNG in the server."""
    return base64.urlsafe_b64encode(rng.randbytes(TOKEN_BYTES)).rstrip(b"=").decode("ascii")


@attrs.frozen
class Closing:
    """Why a table closes: a code, its parameters and the English sentence."""

    code: str
    english: str
    params: dict[str, str] = attrs.field(factory=dict, eq=False)


class TableError(Exception):
    """A request the table refuses; nothing was changed."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        version: int | None = None,
        refusal: Refusal | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version
        self.refusal = refusal  # for illegal_action: the rules' reason as a code

    @classmethod
    def refused(
        cls, code: ErrorCode, reason: str, english: str, params: dict[str, str] | None = None
    ) -> TableError:
        """A refusal whose reason a client reads as a code (`reason`, with its `params`), the
        same English its message."""
        return cls(code, english, refusal=Refusal(reason, english, params or {}))


class FlagFell(TableError):
    """A seat acted after a clock ran out: refused as game_over, for the caller to end the game
    on time first (Play.act)."""

    def __init__(self, seat: Seat) -> None:
        super().__init__(ErrorCode.GAME_OVER, "the time ran out")
        self.seat = seat  # whose time ran out


@attrs.define
class SeatHolder:
    name: str
    token_hash: bytes  # the token itself is handed to its player once and kept nowhere
    computer: bool
    member: MemberId | None  # the connected member, None while disconnected
    since: float  # when the seat was last left without a connection
    account: str | None = None  # version 3: the key of the account that holds the seat
    rating: int | None = None  # that account's rating, as shown
    # The connection that stepped away from the seat (`leave`) and may still be connected: its
    # player is in the lobby, not gone. None once the seat is taken back or that connection
    # was seen gone.
    away: MemberId | None = None
    # When the seat's player was last known to be connected (at the table or elsewhere): the
    # abandonment clock counts from here (server/core/lifecycle.py, Lifecycle.sweep).
    present_at: float = attrs.field(
        default=attrs.Factory(lambda holder: holder.since, takes_self=True)
    )


class Table:
    def __init__(
        self,
        table_id: str,
        game: Game,
        *,
        rng: random.Random,
        vs_computer: bool = False,
        chat_history: int = 50,
        now: float = 0.0,
        history: list[list[Event]] | None = None,
    ) -> None:
        self.table_id = table_id
        self.rng = rng  # where the seats' tokens come from
        # The game and the events of each action so far, unfiltered: events[i] made version
        # i + 1. Plain attributes once there (every command reads them); a stored table gets
        # them when first asked, from replaying its log (`game`, below).
        self.game = game
        self.events: list[list[Event]] = history if history is not None else []
        self.loaded = True  # the game is in memory
        self.vs_computer = vs_computer
        self.version = len(self.events)
        self.options = game.options
        self._rebuild: Callable[[], tuple[Game, list[list[Event]]]] | None = None
        self._finished = False
        self.seats: dict[Seat, SeatHolder | None] = {Seat.WHITE: None, Seat.BLACK: None}
        self.spectators: dict[MemberId, str] = {}
        self.watchers_told: tuple[str, ...] = ()  # the spectators' names as last told (v3)
        self.chat_log: deque[ChatEntry] = deque(maxlen=chat_history)
        self.created = now
        self.created_wall = 0.0  # unix time, for the archive
        self.rated_requested = True  # version 3: rated, if both seats come to hold accounts
        self.over_since: float | None = None
        self.closed = False
        self.stored_log = 0  # entries of game.log already written to storage
        self.finish_stored = False  # the result and record are written
        # Chosen at creation (version 2; a version-1 table plays the easy computer, no clock).
        self.level: LevelName = "easy"
        self.hints = True
        self.clock: Clock | None = None
        # The life of the game around the moves (server/core/core.py keeps them; all are stored).
        self.draw_offer: Seat | None = None  # who offers a draw now
        self.rematch_offer: Seat | None = None  # who offers a rematch now
        self.rematch_to: str | None = None  # the rematch's table, once it started
        self.turn_since = now  # when the seat to move began its turn
        self.turn_started = False  # both seats were taken once: the game (and its clock) began
        self.claim_noted: Seat | None = None  # told it may claim (this turn, this absence)

    @classmethod
    def stored(
        cls,
        table_id: str,
        options: GameOptions,
        version: int,
        finished: bool,
        rebuild: Callable[[], tuple[Game, list[list[Event]]]],
        *,
        rng: random.Random,
        vs_computer: bool,
        chat_history: int,
        now: float,
    ) -> Table:
        """A table of a previous run whose game is rebuilt from its log only when first needed:
        a server with thousands of stored games starts at once, the lobby and the timers
        needing none of them."""
        table = cls.__new__(cls)
        placeholder = Game(options, _NoCards())
        cls.__init__(
            table, table_id, placeholder, rng=rng, vs_computer=vs_computer,
            chat_history=chat_history, now=now,
        )  # fmt: skip
        del table.game, table.events  # until first asked for
        table.loaded = False
        table.version = version
        table._finished = finished
        table._rebuild = rebuild
        return table

    @cached_property
    def game(self) -> Game:
        """A stored table's game, rebuilt when first asked for (then an attribute, as a new
        table's is from the start)."""
        assert self._rebuild is not None
        game, self.events = self._rebuild()
        self._rebuild = None
        self.loaded = True
        assert len(self.events) == self.version, "the stored log replays to its version"
        return game

    @cached_property
    def events(self) -> list[list[Event]]:
        self.game  # noqa: B018 (rebuilt on first use, which sets the events)
        return self.events

    @property
    def over(self) -> bool:
        return self.game.is_over if self.loaded else self._finished

    # ----- queries ------------------------------------------------------------------------

    @property
    def status(self) -> StatusName:
        if self.over:
            return "over"
        if self.seats[Seat.WHITE] is None or self.seats[Seat.BLACK] is None:
            return "waiting"
        return "playing"

    def seat_of(self, member: MemberId) -> Seat | None:
        for seat, holder in self.seats.items():
            if holder is not None and holder.member == member:
                return seat
        return None

    def present_role(self, member: MemberId) -> RoleName:
        """The member's role here; refused to anyone not at this table. The one check of who
        may read and speak at it: its state, its chat, its record."""
        role = self.role_of(member)
        if role is None:
            raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at this table")
        return role

    def acting_seat(self, member: MemberId) -> Seat:
        """The seat the member acts for; refused to a spectator and to anyone not here. The
        one check of who may act at this table: its moves, offers, claims and rematches."""
        seat = self.seat_of(member)
        if seat is None:
            if member in self.spectators:
                raise TableError(ErrorCode.SPECTATOR_CANNOT_ACT, "spectators cannot act")
            raise TableError(ErrorCode.NOT_AT_TABLE, "you have no seat at this table")
        return seat

    def role_of(self, member: MemberId) -> RoleName | None:
        seat = self.seat_of(member)
        if seat is not None:
            return seat_name(seat)
        return "spectator" if member in self.spectators else None

    def members(self) -> list[MemberId]:
        out = [h.member for h in self.seats.values() if h is not None and h.member is not None]
        return out + list(self.spectators)

    def players(self) -> Players:
        def info(holder: SeatHolder | None) -> PlayerInfo | None:
            if holder is None:
                return None
            connected = holder.computer or holder.member is not None
            return PlayerInfo(holder.name, connected, holder.computer, holder.rating)

        return Players(info(self.seats[Seat.WHITE]), info(self.seats[Seat.BLACK]))

    def info(self) -> TableInfo:
        return TableInfo(
            self.table_id,
            TableOptions.from_game_options(self.options),
            self.vs_computer,
            self.players(),
            len(self.spectators),
            self.status,
            None if self.clock is None else self.clock.control,
            self.level,
            self.hints,
            self.rated_shown,
        )

    @property
    def correspondence(self) -> bool:
        """Version 3: a game of days per move, which waits for its players however long."""
        return self.clock is not None and self.clock.correspondence

    @property
    def rated(self) -> bool:
        """Version 3: the result changes ratings: asked for, two accounts, no computer."""
        white, black = self.seats[Seat.WHITE], self.seats[Seat.BLACK]
        return (
            self.rated_requested
            and not self.vs_computer
            and white is not None
            and black is not None
            and white.account is not None
            and black.account is not None
            and white.account != black.account
        )

    @property
    def rated_shown(self) -> bool:
        """What the lobby says: rated, or (while a seat is free) rated if an account takes it."""
        if not self.rated_requested or self.vs_computer:
            return False
        holders = [h for h in self.seats.values() if h is not None]
        return (
            bool(holders)
            and all(h.account is not None for h in holders)
            and (len(holders) < 2 or self.rated)
        )

    def claimant(self, now: float, config: ServerConfig) -> Seat | None:
        """The seat that may claim the win now: its opponent has been gone for claim_after
        seconds, or (without a clock) has not acted for move_timeout seconds on its turn."""
        if self.status != "playing" or self.correspondence:
            return None  # a game of days waits for its players: only its clock decides
        for seat in Seat:
            mine, theirs = self.seats[seat], self.seats[seat.other]
            if mine is None or theirs is None or mine.computer or mine.member is None:
                continue
            if theirs.computer:
                continue
            if theirs.member is None and now - theirs.since >= config.claim_after:
                return seat
            idle = self.game.to_move is seat.other and self.clock is None
            if idle and now - self.turn_since >= config.move_timeout:
                return seat
        return None

    def claim_refusal(self, seat: Seat, now: float, config: ServerConfig) -> TableError:
        """Why the seat may not claim yet."""
        theirs = self.seats[seat.other]
        if theirs is not None and not theirs.computer and theirs.member is None:
            wait = str(max(1, round(config.claim_after - (now - theirs.since))))
            english = f"your opponent may still come back; you may claim in {wait} s"
            return TableError.refused(
                ErrorCode.CANNOT_CLAIM, "claim_wait", english, {"seconds": wait}
            )
        english = "you may claim when your opponent is gone or idle past the limit"
        return TableError.refused(ErrorCode.CANNOT_CLAIM, "claim_not_yet", english)

    def chat_for(self, member: MemberId) -> list[ChatEntry]:
        """The chat a member may read: while the game runs, the players do not see what the
        spectators say (as on Lichess); afterwards everyone sees everything."""
        if self.seat_of(member) is None or self.status != "playing":
            return list(self.chat_log)
        return [entry for entry in self.chat_log if entry.role != "spectator"]

    def name_at_table(self, name: str, member: MemberId) -> str:
        """The name a newcomer goes by here: the seated players' names and the computer's are
        taken, so nobody else can write in their name; a taken name gets a number."""
        taken = {h.name.casefold() for h in self.seats.values() if h is not None}
        taken |= {n.casefold() for m, n in self.spectators.items() if m != member}
        taken.add(COMPUTER_NAME.casefold())
        candidate, number = name, 2
        while candidate.casefold() in taken:
            candidate, number = f"{name} ({number})", number + 1
        return candidate

    def state_for(self, member: MemberId) -> State:
        seat = self.seat_of(member)
        if seat is None:
            role: RoleName = "spectator"
            view = public_to_dict(spectator_view(self.game))
        else:
            role = seat_name(seat)
            view = seat_view_to_dict(seat_view(self.game, seat))
        return State(
            self.table_id,
            self.version,
            role,
            self.status,
            view,
            self.players(),
            self.chat_for(member),
        )

    def history_for(self, member: MemberId) -> History:
        """The game's log so far, each action's events filtered for this member's role."""
        seat = self.seat_of(member)
        if seat is None:
            logged = [events_to_dicts(spectator_events(e)) for e in self.events]
        else:
            logged = [events_to_dicts(seat_events(e, seat)) for e in self.events]
        return History(self.table_id, self.version, logged)

    def _players_changed(self, skip: MemberId | None = None) -> Outbox:
        message = self.players_message()
        return [(m, message) for m in self.members() if m != skip]

    def players_message(self) -> PlayersChanged:
        return PlayersChanged(self.table_id, self.status, self.players())

    # ----- seats --------------------------------------------------------------------------

    def join(
        self,
        member: MemberId,
        name: str,
        seat: Seat | None = None,
        *,
        computer: bool = False,
        now: float = 0.0,
        account: str | None = None,
        rating: int | None = None,
    ) -> Outbox:
        """Seat a player (a free seat when `seat` is None); hands it its token in Joined.
        `account`: the key of the account the player is logged in to, and its rating."""
        if self.seat_of(member) is not None:
            raise TableError(ErrorCode.ALREADY_AT_TABLE, "you already have a seat at this table")
        if seat is None:
            free = [s for s in Seat if self.seats[s] is None]
            if not free:
                raise TableError(ErrorCode.TABLE_FULL, "both seats are taken")
            seat = free[0]
        elif self.seats[seat] is not None:
            raise TableError(ErrorCode.SEAT_TAKEN, f"the {seat_name(seat)} seat is taken")
        self.spectators.pop(member, None)
        if not computer:
            name = self.name_at_table(name, member)
        token = _new_token(self.rng)
        self.seats[seat] = SeatHolder(
            name, hash_token(token), computer, member, now, account, rating
        )
        out: Outbox = [(member, Joined(self.table_id, seat_name(seat), token))]
        out.append((member, self.state_for(member)))
        return out + self._players_changed(skip=member)

    def hold_seat(
        self, seat: Seat, name: str, account: str, rating: int | None, now: float
    ) -> None:
        """Version 3: the seat is the account's, its player not yet here (an accepted
        challenge's challenger): they take it with `resume`, which gives them its token."""
        if self.seats[seat] is not None:
            raise TableError(ErrorCode.SEAT_TAKEN, f"the {seat_name(seat)} seat is taken")
        token_hash = hash_token(_new_token(self.rng))  # no one holds this one: resume makes one
        self.seats[seat] = SeatHolder(name, token_hash, False, None, now, account, rating)

    def spectate(self, member: MemberId, name: str) -> Outbox:
        if self.role_of(member) is not None:
            raise TableError(ErrorCode.ALREADY_AT_TABLE, "you are already at this table")
        self.spectators[member] = self.name_at_table(name, member)
        return [(member, Spectating(self.table_id)), (member, self.state_for(member))]

    def reclaim(self, member: MemberId, token: str, now: float = 0.0) -> Outbox:
        """Take back a seat with its token, from any connection; the old one is let go."""
        found: Seat | None = None
        offered = hash_token(token)
        for seat, holder in self.seats.items():
            # compare against both seats, always, in constant time
            if holder is not None and hmac.compare_digest(holder.token_hash, offered):
                found = seat
        if found is None:
            raise TableError(ErrorCode.BAD_TOKEN, "this token claims no seat at this table")
        return self._take_seat(member, found, token, now)

    def resume(self, member: MemberId, account: str, now: float = 0.0) -> Outbox:
        """Version 3: take back the seat the account holds, from any connection, with a new
        token (the old one no longer claims it); the old connection is let go."""
        found = [s for s, h in self.seats.items() if h is not None and h.account == account]
        if len(found) != 1:
            raise TableError(ErrorCode.NOT_AT_TABLE, "your account holds no seat at this table")
        holder = self.seats[found[0]]
        assert holder is not None
        token = _new_token(self.rng)
        holder.token_hash = hash_token(token)
        return self._take_seat(member, found[0], token, now)

    def _take_seat(self, member: MemberId, found: Seat, token: str, now: float) -> Outbox:
        holder = self.seats[found]
        assert holder is not None
        current = self.seat_of(member)
        if current is not None and current is not found:
            raise TableError(ErrorCode.ALREADY_AT_TABLE, "you hold the other seat of this table")
        out: Outbox = []
        previous = holder.member
        if previous is not None and previous != member:
            left = Left(
                self.table_id, "your seat was reclaimed from elsewhere", "reclaimed_elsewhere"
            )
            out.append((previous, left))
        self.spectators.pop(member, None)
        holder.member = member
        holder.since = holder.present_at = now
        holder.away = None
        out.append((member, Joined(self.table_id, seat_name(found), token)))
        out.append((member, self.state_for(member)))
        return out + self._players_changed(skip=member)

    def leave(self, member: MemberId, now: float = 0.0) -> Outbox:
        """Leave the table. A seat in a waiting game is given up; in a started game the player
        only steps away: the token still takes the seat back, and the game waits."""
        if member in self.spectators:
            del self.spectators[member]
            return [(member, Left(self.table_id, "you stopped watching", "stopped_watching"))]
        seat = self.seat_of(member)
        if seat is None:
            raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at this table")
        holder = self.seats[seat]
        assert holder is not None
        if self.status == "waiting":
            self.seats[seat] = None
            left = Left(self.table_id, "you gave up your seat", "gave_up_seat")
        else:
            # stepped away, still connected: no abandonment while that connection lives
            holder.member, holder.away = None, member
            holder.since = holder.present_at = now
            english = "you left the table; your token takes the seat back"
            left = Left(self.table_id, english, "stepped_away")
        return [(member, left), *self._players_changed(skip=member)]

    def disconnect(self, member: MemberId, now: float = 0.0) -> Outbox:
        """The member's connection is gone: the seat waits for its token."""
        if member in self.spectators:
            del self.spectators[member]
            return []
        seat = self.seat_of(member)
        if seat is None:
            return []
        holder = self.seats[seat]
        assert holder is not None
        holder.member = None
        holder.since = holder.present_at = now
        return self._players_changed(skip=member)

    @property
    def empty(self) -> bool:
        """No human has a seat (a waiting table whose players all left)."""
        return all(h is None or h.computer for h in self.seats.values())

    def settled(self) -> bool:
        """Both seats held by someone present and the game not over: nothing the sweep looks
        for can be due (expired() is None and no one has gone). Most tables of a busy server
        are so, and this look costs a fraction of expired()'s (5 us a table)."""
        seats = self.seats
        white, black = seats[Seat.WHITE], seats[Seat.BLACK]
        return (
            white is not None
            and black is not None
            and white.member is not None
            and black.member is not None
            and not (white.computer and black.computer)
            and not self.over
        )

    def expired(
        self,
        now: float,
        abandon_timeout: float,
        over_linger: float,
        over_grace: float,
        waiting_grace: float | None = None,
    ) -> Closing | None:
        """Why the table should close now, if it should. A game not yet started waits only
        `waiting_grace` for a player who has gone (None: `abandon_timeout`). A game under way
        never closes here: abandoned, it ends with a result (a forfeit: Lifecycle.sweep), and
        its table then closes as every finished game's does (`over_linger`, `over_grace`)."""
        if self.empty:
            return Closing("nobody_seated", "nobody is seated")
        if waiting_grace is not None and self.status == "waiting":
            for holder in self.seats.values():
                gone = holder is not None and holder.member is None and not holder.computer
                if gone and holder is not None and now - holder.since >= waiting_grace:
                    return Closing(
                        "left_before_start",
                        f"{holder.name} left before the game started",
                        {"player": holder.name},
                    )
        if self.over:
            if self.over_since is None:
                self.over_since = now
            humans = [h for h in self.seats.values() if h is not None and not h.computer]
            # A grace, so that a player whose connection dropped (or whose server restarted)
            # right at the end still comes back to the result and its record.
            over_since = self.over_since
            if all(
                h.member is None and now - max(h.since, over_since) >= over_grace for h in humans
            ):
                return Closing("over_and_left", "the game is over and the players left")
            if now - self.over_since >= over_linger:
                return Closing("over", "the game is over")
        if self.status != "waiting":
            return None
        for holder in self.seats.values():
            gone = holder is not None and holder.member is None and not holder.computer
            if gone and holder is not None and now - holder.since >= abandon_timeout:
                return Closing(
                    "abandoned", f"{holder.name} did not come back", {"player": holder.name}
                )
        return None

    def close(self, closing: Closing) -> Outbox:
        self.closed = True
        message = TableClosed(self.table_id, closing.english, closing.code, closing.params)
        return [(m, message) for m in self.members()]

    # ----- play ---------------------------------------------------------------------------

    def command(
        self, member: MemberId, version: int, action: str | Action, now: float = 0.0
    ) -> tuple[Seat, Outbox]:
        """Apply one action of the member's seat, in the notation (a player's) or as the rules
        engine's own (the computer's, chosen in place); every check comes before any change.
        A clock that has run out refuses it with FlagFell, whoever's turn it is. When the turn
        passes, the other seat's begins (and its clock runs) at `now`. Returns the seat that
        acted and everyone's update, the mover's first."""
        seat = self.acting_seat(member)
        fallen = self.out_of_time(now)
        if fallen is not None:
            raise FlagFell(fallen)
        if self.status == "waiting":
            raise TableError(
                ErrorCode.GAME_NOT_STARTED, "the game starts when both seats are taken"
            )
        if self.game.is_over:
            raise TableError(ErrorCode.GAME_OVER, "the game is over")
        if version != self.version:
            raise TableError(
                ErrorCode.STALE_VERSION,
                f"the command was made against version {version}; the table is at {self.version}",
                self.version,
            )
        if self.game.to_move is not seat:
            raise TableError(ErrorCode.NOT_YOUR_TURN, f"{self.game.to_move.label} is to move")
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except NotationError as exc:
                raise TableError(ErrorCode.BAD_NOTATION, str(exc)) from None
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            raise TableError(ErrorCode.ILLEGAL_ACTION, exc.reason, refusal=exc.refusal) from None
        self.events.append(events)
        self.version += 1
        out = self._updates(seat, events)
        if not self.game.is_over and self.game.to_move is not seat:
            self.turn_since = now
            self.claim_noted = None
            if self.clock is not None:
                self.clock.turn_passed(seat, now)
        return seat, out

    def out_of_time(self, now: float) -> Seat | None:
        """The seat whose clock has run out while the game runs (its flag has fallen)."""
        clock = self.clock
        if clock is None or clock.running is None or self.status != "playing":
            return None
        return clock.running if clock.left_at(clock.running, now) <= 0 else None

    def _updates(self, mover: Seat, events: list[Event]) -> Outbox:
        public, *seat_views = view_dicts(self.game)
        watched, *seat_logs = event_dicts(events)
        out: Outbox = []
        for seat in (mover, mover.other):
            holder = self.seats[seat]
            if holder is not None and holder.member is not None:
                update = Update(self.table_id, self.version, seat_logs[seat], seat_views[seat])
                out.append((holder.member, update))
        if self.spectators:
            update = Update(self.table_id, self.version, watched, public)
            out.extend((m, update) for m in self.spectators)
        return out

    def resync(self, member: MemberId) -> Outbox:
        self.present_role(member)
        return [(member, self.state_for(member))]

    def chat(self, member: MemberId, text: str) -> Outbox:
        """Text already checked for length and rate by the caller. While the game runs, what
        a spectator says goes to the spectators only."""
        role = self.present_role(member)
        seat = self.seat_of(member)
        if seat is not None:
            holder = self.seats[seat]
            assert holder is not None
            sender = holder.name
        else:
            sender = self.spectators[member]
        self.chat_log.append(ChatEntry(sender, text, role))
        message = ChatMessage(self.table_id, sender, text, role)
        if role == "spectator" and self.status == "playing":
            return [(m, message) for m in self.spectators]
        return [(m, message) for m in self.members()]

    def end(self, kind: Termination, seat: Seat | None) -> Outbox:
        """End the game otherwise than by playing it out (resigned, agreed, time, forfeit):
        it is the next version, told to everyone like an action."""
        if self.status == "waiting":
            raise TableError(ErrorCode.GAME_NOT_STARTED, "the game has not started")
        if self.game.is_over:
            raise TableError(ErrorCode.GAME_OVER, "the game is over")
        events = self.game.end(kind, seat)
        self.events.append(events)
        self.version += 1
        return self._updates(seat or self.game.to_move, events)
