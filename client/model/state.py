"""Everything the client knows, and how each server message changes it. Pure: no I/O.

The application renders this state; the connection feeds it server messages through
`ClientState.handle`. Keeping it free of prompt-toolkit and sockets makes it testable alone.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Literal

import attrs

from client.language.eventlog import describe_events
from client.language.i18n import _, ngettext
from client.language.words import (
    closing_words,
    error_sentence,
    left_words,
    role_word,
    seat_name,
    seat_word,
)
from client.model.players import PlayersState
from client.model.table import TableView, table_from_view
from client.model.table_form import CreateForm
from client.model.table_talk import Said, absence_words, note_words, turn_words
from client.model.tournaments import TournamentsState, round_note_words
from protocol.fields import ChatEntry, Players, TableInfo
from protocol.mail_messages import MailNote, MailSettings
from protocol.messages import (
    ChatMessage,
    Error,
    History,
    Joined,
    Left,
    Lobby,
    PlayersChanged,
    ServerMessage,
    Spectating,
    State,
    TableClosed,
    TableNote,
    Update,
    Welcome,
)
from protocol.moderation_messages import Moderation, ModerationNote
from protocol.player_messages import (
    Challenges,
    Games,
    Ignoring,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    PasswordChanged,
    PlayerNote,
    Ratings,
    Watchers,
)
from protocol.tournament_messages import Tournaments, TournamentState
from shared.board import BoardNameError, parse_line
from shared.types import Seat
from shared.views import (
    PublicView,
    SeatView,
    ViewFormatError,
    public_from_dict,
    seat_view_from_dict,
)

LOG = logging.getLogger(__name__)

Screen = Literal["lobby", "game"]
# version 3's messages that client/model/players.py takes in (a welcome too)
PLAYERS_MESSAGES = (
    Welcome, LoggedIn, LoggedOut, PasswordChanged, Ratings, Games, Challenges, PlayerNote,
    LobbyChatMessage, Ignoring, MailSettings, MailNote, Moderation, ModerationNote,
)  # fmt: skip
LogKind = Literal["event", "chat", "info", "error", "you"]


@attrs.define
class LogLine:
    kind: LogKind
    text: str
    version: int = 0  # the table's version when it was written: an event line, the version it made


@attrs.define
class ClientState:
    name: str = "player"
    screen: Screen = "lobby"
    help_open: bool = False
    help_page: int = 0
    form_open: bool = False
    form: CreateForm = attrs.Factory(CreateForm)
    # the connection
    connection: str = "connecting"
    connected: bool = False
    server: str = ""
    max_chat: int = 500
    # the lobby
    tables: list[TableInfo] = attrs.Factory(list)
    selected: int = 0
    saved_seats: dict[str, tuple[str, str]] = attrs.Factory(dict)  # table -> (seat, token)
    lobby_placed: bool = False  # the cursor was put on this user's own table (once a visit)
    confirm_takeover: str | None = None  # the table whose seat in use Enter again takes over
    # the table whose seat this client is taking back quietly (client/net/seats_away.py): shown
    # in use, by this very client, so Enter takes it without asking
    quiet_table: str | None = None
    # q just closed a screen over the lobby (the tournaments, a panel): the lobby's next q asks
    # before quitting, so that q pressed repeatedly to go back does not end the program
    quit_asks: bool = False
    # the table
    table_id: str | None = None
    role: str | None = None  # "white", "black" or "spectator"
    token: str | None = None
    version: int = 0
    table_status: str = "waiting"
    seat_view: SeatView | None = None
    public: PublicView | None = None
    players: Players | None = None
    log: list[LogLine] = attrs.Factory(list)
    connection_note: str | None = None  # see tell_connection
    watchers: list[str] = attrs.Factory(list)  # who watches this table (version 3)
    logged_version: int = 0  # the events of versions up to this one are in the log
    log_scroll: int = 0  # lines scrolled back from the newest
    message: str = ""
    message_kind: LogKind = "info"
    transcript: list[str] = attrs.Factory(list)
    pending: str | None = None  # the command sent and not yet answered
    needs_resync: bool = False  # a version was skipped: the connection asks for a full state
    recent_lines: set[int] = attrs.Factory(set)  # lines the opponent's last turn changed
    recent_by: Seat | None = None
    played_yet: bool = False  # this client has sent a command at this table
    # set when the game screen should follow a spectate request (for --spectate)
    want_spectate: str | None = None
    # version 2: the view's "table" key (clocks, offers, claim, level, hints), and when it came
    table: TableView | None = None
    table_at: float = 0.0
    clock_source: Callable[[], float] = time.monotonic  # tests pass a fake clock
    away_since: dict[Seat, float] = attrs.Factory(dict)  # when an opponent was seen to go
    # the seats seen held by a player here at this table: one who comes for the first time
    # before any action (the challenger, after the challenge was accepted) sits down; they are
    # not "back" (one seen away from a game under way may have been there before this client)
    seen_present: set[Seat] = attrs.Factory(set)
    resign_armed: bool = False  # 'resign' was typed once: the next 'yes' or 'resign' resigns
    # version 3: the account, ratings, games, challenges and the lobby's chat
    accounts: PlayersState = attrs.Factory(PlayersState)
    # the new-table form's choices, kept for the next run when a table is made with them
    keep_form: Callable[[CreateForm], None] = lambda form: None
    hinting: int | None = None  # the version a hint is being computed for
    # version 4: the tournaments' list, the one shown, its screen over the lobby
    tournaments: TournamentsState = attrs.Factory(TournamentsState)

    # ----- derived -------------------------------------------------------------------------

    @property
    def seat(self) -> Seat | None:
        if self.role in ("white", "black"):
            return Seat.parse(self.role)
        return None

    @property
    def is_spectator(self) -> bool:
        return self.role == "spectator"

    @property
    def selected_table(self) -> TableInfo | None:
        if 0 <= self.selected < len(self.tables):
            return self.tables[self.selected]
        return None

    def my_seat(self, table: TableInfo) -> tuple[str, str] | None:
        """(seat, token) this user holds at the table: a remembered token whose seat the
        lobby shows with this user's name (a token of the same account under another name, or
        for a seat someone else sits in now, is not this user's)."""
        saved = self.saved_seats.get(table.table_id)
        if saved is None:
            return None
        info = table.players.white if saved[0] == "white" else table.players.black
        if info is None or info.computer or info.name != self.name:
            return None
        return saved

    def own_seat(self, table: TableInfo) -> str | None:
        """The seat this user holds at the table: by a token (my_seat), or, logged in, the seat
        of a game under way that shows the account's name and rating (which `resume` takes back
        without a token: one taken on another machine, or whose token was not kept)."""
        saved = self.my_seat(table)
        if saved is not None:
            return saved[0]
        if self.accounts.account is None or table.status == "waiting":
            return None
        for seat, info in (("white", table.players.white), ("black", table.players.black)):
            account = info is not None and not info.computer and info.rating is not None
            if account and info is not None and info.name == self.name:
                return seat
        return None

    def place_lobby_cursor(self) -> None:
        """On the first listing of a visit to the lobby, the cursor goes to this user's table."""
        if self.lobby_placed or not self.tables:
            return
        self.lobby_placed = True
        for i, table in enumerate(self.tables):
            if self.own_seat(table) is not None and table.status != "over":
                self.selected = i
                return
        # nothing of this user's: the first table that is not over (a finished one lingers
        # only for its players' record and rematch)
        for i, table in enumerate(self.tables):
            if table.status != "over":
                self.selected = i
                return

    @property
    def game_running(self) -> bool:
        return (
            self.table_status == "playing"
            and self.public is not None
            and self.public.result is None
        )

    def clock_left(self, seat: Seat) -> float | None:
        """Seconds left on the seat's clock now, counted down locally; None without a clock."""
        table = self.table
        if table is None or table.clock is None:
            return None
        return table.clock.left(seat, self.table_at, self.clock_source())

    def player_name(self, seat: Seat) -> str:
        info = None if self.players is None else self.players.get(seat)
        return _("(empty seat)") if info is None else info.name

    # ----- feedback ------------------------------------------------------------------------

    def say(self, text: str, kind: LogKind = "info") -> None:
        """The one-line message above the command line."""
        self.message, self.message_kind = text, kind

    def add_log(self, text: str, kind: LogKind = "event") -> None:
        self.log.append(LogLine(kind, text, self.version))
        stamp = time.strftime("%H:%M:%S")
        self.transcript.append(f"{stamp} {text}")
        if self.log_scroll:
            self.log_scroll += 1
        del self.log[:-1000]

    def note_sent(self, command: str) -> None:
        """A command this player sent, for the transcript."""
        self.transcript.append(f"{time.strftime('%H:%M:%S')} > {command}")

    # ----- server messages -----------------------------------------------------------------

    def handle(self, msg: ServerMessage) -> None:
        if isinstance(msg, PLAYERS_MESSAGES):
            said = self.accounts.handle(msg, self.name)
            if isinstance(msg, LoggedIn | LoggedOut):
                self.name = msg.name
            waiting = len(self.accounts.waiting_moves)
            if said and isinstance(msg, Games) and self.screen == "game" and waiting:
                # at a table g is a letter typed: the lists are the lobby's
                said = ngettext(
                    "{count} game waits for your move: in the lobby, g lists your games.",
                    "{count} games wait for your move: in the lobby, g lists your games.",
                    waiting,
                ).format(count=waiting)
            if said:
                self.say(said)
            if isinstance(msg, PlayerNote) and msg.note == "tournament_round":
                self._round_note(msg)
        if isinstance(msg, Tournaments | TournamentState):
            made = self.tournaments.handle(msg, self.accounts.account)
            if made:
                self.say(made)
            new_game, self.tournaments.new_game = self.tournaments.new_game, None
            if new_game is not None and self.screen == "lobby" and self.tournaments.view == "one":
                self.say(round_note_words(new_game, on_screen=True), "you")
        if isinstance(msg, Welcome):
            self.server = msg.server
            self.max_chat = msg.max_chat
            if msg.name:
                self.name = msg.name
        elif isinstance(msg, Lobby):
            # the cursor stays on the table it was on, wherever the list puts it now
            before = self.selected_table
            self.tables = list(msg.tables)
            ids = [t.table_id for t in self.tables]
            if before is not None and before.table_id in ids:
                self.selected = ids.index(before.table_id)
            self.selected = min(self.selected, max(len(self.tables) - 1, 0))
        elif isinstance(msg, Joined):
            if msg.table_id != self.table_id:
                self._enter_table(msg.table_id)
            self.role, self.token = msg.seat, msg.token
            self.say(
                _("You sit at table {table} as {seat}.").format(
                    table=msg.table_id, seat=seat_word(msg.seat)
                )
            )
        elif isinstance(msg, Spectating):
            if msg.table_id != self.table_id:
                self._enter_table(msg.table_id)
            self.role, self.token = "spectator", None
            self.say(_("You watch table {table}.").format(table=msg.table_id))
            self.add_log(
                _("While the game runs, the players do not see what spectators say."), "info"
            )
        elif isinstance(msg, Watchers):
            if msg.table_id == self.table_id:
                self._watchers(msg.names)
        elif isinstance(msg, History):
            self._history(msg)
        elif isinstance(msg, State):
            self._state(msg)
            if self.connection_note:  # after the game's story so far: a takeover
                self.add_log(self.connection_note, "info")
                self.connection_note = None
            self._round_waits()
        elif isinstance(msg, Update):
            self._update(msg)
            self._round_waits()
        elif isinstance(msg, PlayersChanged):
            if msg.table_id == self.table_id:
                self._players_changed(msg.players)
                started = self.table_status == "waiting" and msg.status == "playing"
                self.table_status = msg.status
                if started:
                    self._clock_started()
                    self.add_log(_("The game begins."), "info")
                    self._announce_turn()
        elif isinstance(msg, ChatMessage):
            if msg.table_id == self.table_id:
                self.add_log(chat_line(msg), "chat")
        elif isinstance(msg, TableNote):
            if msg.table_id == self.table_id:
                self._note(msg)
        elif isinstance(msg, TableClosed):
            if msg.table_id == self.table_id:
                self.leave_table()
                self.say(
                    _("Table {table} closed: {reason}.").format(
                        table=msg.table_id, reason=closing_words(msg)
                    ),
                    "error",
                )
        elif isinstance(msg, Left):
            if msg.table_id == self.table_id:
                self.leave_table()
                self.say(
                    _("You left table {table}: {reason}.").format(
                        table=msg.table_id, reason=left_words(msg)
                    ),
                    "error",
                )
        elif isinstance(msg, Error):
            self._error(msg)

    def _round_note(self, msg: PlayerNote) -> None:
        """A tournament's round paired with a game for this player: the bell, and the way to
        it, on the message line and, at another table, in its log."""
        at_table = self.screen == "game" and msg.table_id != self.table_id
        tours = self.tournaments
        # on the tournament's screen, the round already shown there (the cursor on the game)
        on_screen = (
            self.screen == "lobby"
            and tours.view == "one"
            and any(g.table_id == msg.table_id for g in tours.shown_games())
        )
        said = round_note_words(msg, at_table, on_screen)
        if self.tournaments.asked == "start":  # this says more than that it began
            self.tournaments.asked = None
        self.accounts.attention = _("Tournament round")
        self.say(said, "you")
        if at_table:
            self.add_log(said, "you")
            self.tournaments.waiting = (msg.table_id or "", said)

    def _round_waits(self) -> None:
        """The game at this table is over and the next round's game waits: said again, over
        the table's end."""
        waiting = self.tournaments.waiting
        if waiting is None or self.screen != "game" or self.public is None:
            return
        if waiting[0] == self.table_id:
            self.tournaments.waiting = None
        elif self.public.result is not None:
            self.say(waiting[1], "you")

    def _enter_table(self, table_id: str) -> None:
        self.table_id = table_id
        self.screen = "game"
        self.accounts.open("tables")  # back in the lobby, the tables come first
        self.seat_view, self.public, self.players = None, None, None
        self.watchers = []
        self.log = []
        self.logged_version = 0
        self.transcript = []
        self.log_scroll = 0
        self.version = 0
        self.pending = None
        self.recent_lines = set()
        self.played_yet = False
        self.table, self.away_since, self.seen_present = None, {}, set()
        self.resign_armed, self.hinting = False, None
        self.add_log(
            _("Table {table}. F1: the rules in brief, and every command and key.").format(
                table=table_id
            ),
            "info",
        )

    def _watchers(self, names: list[str]) -> None:
        """Who watches now; a player is told who came and who went, as at a real table."""
        if not self.is_spectator:
            for name in names:
                if name not in self.watchers:
                    self.add_log(_("{name} is watching.").format(name=name), "info")
            for name in self.watchers:
                if name not in names:
                    self.add_log(_("{name} stopped watching.").format(name=name), "info")
        self.watchers = list(names)

    def tell_connection(self, text: str) -> None:
        """Something about the connection itself, said now and logged at the table the player is
        taken back to, once its state (and the story so far) is in."""
        self.say(text)
        self.connection_note = text

    def leave_table(self) -> None:
        self.table_id, self.role, self.token = None, None, None
        self.seat_view, self.public, self.players = None, None, None
        self.table = None
        self.resign_armed, self.hinting = False, None
        self.screen = "lobby"
        self.pending = None
        self.lobby_placed = False
        self.confirm_takeover = None

    def _set_view(self, view: dict[str, object]) -> bool:
        self.table = table_from_view(view)
        self.table_at = self.clock_source()
        try:
            if self.role == "spectator" or "public" not in view:
                self.public = public_from_dict(view)
                self.seat_view = None
            else:
                self.seat_view = seat_view_from_dict(view)
                self.public = self.seat_view.public
        except ViewFormatError as exc:
            self.say(
                _("the server sent a view this client cannot read: {reason}").format(reason=exc),
                "error",
            )
            return False
        return True

    def _history(self, msg: History) -> None:
        """The game's log so far (protocol version 2, just before a full state): the event
        lines of the log are rebuilt from it, each version's lines in their place among the
        chat and notices, so that nothing is told twice and nothing is missing."""
        if msg.table_id != self.table_id:
            self._enter_table(msg.table_id)
        told = [describe_events(events) for events in msg.events]
        count = len(told)
        notes: dict[int, list[LogLine]] = {}
        later: list[LogLine] = []
        for line in self.log:
            if line.kind != "event" and line.version <= count:
                notes.setdefault(line.version, []).append(line)
            elif line.version > count:
                later.append(line)
        log = notes.get(0, [])
        for version, lines in enumerate(told, start=1):
            log.extend(LogLine("event", text, version) for text in lines)
            log.extend(notes.get(version, []))
        self.log = (log + later)[-1000:]
        self.log_scroll = min(self.log_scroll, max(len(self.log) - 1, 0))
        stamp = time.strftime("%H:%M:%S")
        for lines in told[self.logged_version :]:
            self.transcript.extend(f"{stamp} {text}" for text in lines)
        self.logged_version = max(self.logged_version, count)

    def _state(self, msg: State) -> None:
        if msg.table_id != self.table_id:
            self._enter_table(msg.table_id)
        self.role = msg.role
        missed = msg.version - self.version
        self.version = msg.version
        if self.public is not None and missed > 0:
            if self.logged_version >= msg.version:
                said = ngettext(
                    "Caught up with {n} missed action; the log tells it.",
                    "Caught up with {n} missed actions; the log tells them.",
                    missed,
                )
            else:
                said = ngettext(
                    "Caught up with {n} missed action; see the board.",
                    "Caught up with {n} missed actions; see the board.",
                    missed,
                )
            self.add_log(said.format(n=missed), "info")
        self.table_status = msg.status
        self.pending = None
        first = self.public is None
        self._set_view(msg.view)
        self._players_changed(msg.players, announce=not first)
        if first:
            for entry in msg.chat:
                self.add_log(chat_line(entry), "chat")
        self._announce_turn()  # also after a reconnection or a resync: what to do now

    def _update(self, msg: Update) -> None:
        if msg.table_id != self.table_id:
            return
        if msg.version != self.version + 1:
            self.needs_resync = True  # an update went missing: ask for the whole state
        self.version = msg.version
        self.pending = None
        mover = self.public.to_move if self.public is not None else None
        if mover is not self.recent_by:  # a new turn: forget the marks of the one before
            self.recent_lines, self.recent_by = set(), mover
        for event in msg.events:
            if event.get("type") in ("BridgePlaced", "BridgeRemoved") and mover is not self.seat:
                with contextlib.suppress(BoardNameError):
                    self.recent_lines.add(parse_line(str(event.get("line"))))
        for line in describe_events(msg.events):
            self.add_log(line, "event")
        self.logged_version = max(self.logged_version, msg.version)
        if self._set_view(msg.view):
            self._announce_turn()
        if self.public is not None and self.public.result is not None:
            self.table_status = "over"

    def _announce_turn(self) -> None:
        pub = self.public
        if pub is None:
            return
        mover = None if self.players is None else self.players.get(pub.to_move)
        said = turn_words(
            pub,
            self.seat,
            self.table_status,
            self.played_yet,
            mover,
            self.player_name(pub.to_move),
            tournament=self.table is not None and self.table.tournament is not None,
        )
        if said is None:
            return
        tournament = None if self.table is None else self.table.tournament
        ended = (
            None if tournament is None else self.tournaments.ended_words(tournament.tournament_id)
        )
        if pub.result is not None and ended is not None:  # its last game: the tournament's end
            said = Said(ended)
        clock = None if self.table is None else self.table.clock
        if said.to_me and clock is not None and clock.days:  # a game of days: one may be away
            self.accounts.attention = _("Your move")
        self.say(said.text, "you" if said.to_me else "info")

    def _players_changed(self, players: Players, announce: bool = True) -> None:
        old = self.players
        self.players = players
        arrived = {s for s in Seat if (p := players.get(s)) is not None and p.connected}
        first_time = arrived - self.seen_present
        self.seen_present |= arrived
        if not announce or old is None:
            return
        for seat in Seat:
            before, after = old.get(seat), players.get(seat)
            if before is None and after is not None:
                self.add_log(
                    _("{name} sat down as {seat}").format(name=after.name, seat=seat_name(seat)),
                    "info",
                )
            elif before is not None and after is None:
                self.add_log(
                    _("{name} left the seat of {seat}").format(
                        name=before.name, seat=seat_name(seat)
                    ),
                    "info",
                )
            elif before is not None and after is not None and before.connected != after.connected:
                if after.connected:
                    self.away_since.pop(seat, None)
                else:
                    self.away_since[seat] = self.clock_source()
                # a player who stepped away (lobby) and one whose connection dropped look the
                # same in the protocol's players message: say only what is known
                if after.connected and seat in first_time and self.version == 0:
                    said = _("{name} sat down as {seat}")
                elif after.connected:
                    said = _("{name} ({seat}) is back")
                else:
                    said = _("{name} ({seat}) is away; the game waits for them")
                self.add_log(said.format(name=after.name, seat=seat_name(seat)), "info")
            old_rating = None if before is None else before.rating
            new_rating = None if after is None else after.rating
            changed = old_rating is not None and new_rating is not None and old_rating != new_rating
            if after is not None and old_rating is not None and new_rating is not None and changed:
                # a rated game ended: the new ratings came
                self.add_log(
                    _("{name}'s rating: {old} → {new} ({change})").format(
                        name=after.name,
                        old=old_rating,
                        new=new_rating,
                        change=f"{new_rating - old_rating:+d}",
                    ),
                    "you" if seat is self.seat else "info",
                )
                if seat is self.seat:
                    self.accounts.rating = new_rating

    def _clock_started(self) -> None:
        """The game began (a players message, which has no view): the mover's clock runs from
        now, as the protocol says, until the next view tells the server's times. (A view that
        says no clock runs is shown as it is: only the server's clock counts.)"""
        table, pub = self.table, self.public
        if table is None or table.clock is None or table.clock.running is not None or pub is None:
            return
        if self.table_status != "playing" or pub.result is not None:
            return
        self.table = attrs.evolve(table, clock=attrs.evolve(table.clock, running=pub.to_move))
        self.table_at = self.clock_source()

    def _note(self, msg: TableNote) -> None:
        """A table note in words, in the log; the one for this player also as the message."""
        seat = None if msg.seat is None else Seat.parse(msg.seat)
        mine = seat is not None and seat is self.seat
        table = self.table
        if table is not None:  # what the note changed, until the next view says it all
            notes: dict[str, dict[str, Any]] = {
                "draw_offered": {"draw_offer": seat},
                "draw_declined": {"draw_offer": None},
                "rematch_offered": {"rematch_offer": seat},
                "rematch_declined": {"rematch_offer": None},
                "rematch_started": {"rematch_offer": None, "rematch_table": msg.detail},
                "claim_available": {"claim": seat},
                "claim_withdrawn": {"claim": None},
            }
            self.table = attrs.evolve(table, **notes.get(msg.note, {}))
        who = "" if seat is None else self.player_name(seat)
        opponent = "" if self.seat is None else self.player_name(self.seat.other)
        absence = ""
        if msg.note == "claim_available" and seat is not None:
            absent = seat.other
            since = self.away_since.get(absent)
            absence = absence_words(
                opponent if mine else self.player_name(absent),
                mine,
                None if self.players is None else self.players.get(absent),
                None if since is None else self.clock_source() - since,
            )
        said = note_words(msg, self.seat, who, opponent, absence)
        if said is None:
            return  # a note this client does not know (or has nothing to say about)
        self.add_log(said.text, "info")
        if said.to_me:  # a question for this player: it goes on the message line too
            self.say(said.text + ".", "you" if seat is not self.seat else "info")

    def _error(self, msg: Error) -> None:
        self.pending = None
        # the sentence is the player's; the code is for whoever reads the debug log (--log)
        LOG.debug("server error %s (%s): %s", msg.code, msg.reason, msg.message)
        self.tournaments.refused(msg)
        if msg.code == "chat_too_long":
            reason = chat_limit_words(self.max_chat)
        else:
            reason = error_sentence(msg)
        self.say(_("Server: {reason}").format(reason=reason), "error")
        if msg.code == "stale_version":
            self.needs_resync = True
            # the log keeps it: the full state that follows tells what to do now
            self.add_log(
                _("The position changed before your command arrived; look again."), "error"
            )

    # ----- connection ----------------------------------------------------------------------

    def set_connection(self, text: str, connected: bool) -> None:
        self.connection, self.connected = text, connected


def chat_limit_words(limit: int) -> str:
    """Why a chat line was refused: how long one may be."""
    return _("a chat line is at most {n} characters").format(n=limit)


def too_long_chat(text: str, limit: int) -> str:
    """A chat line not sent for its length: the limit, and how long it is."""
    return _("Not sent: {reason} (this one has {length}).").format(
        reason=chat_limit_words(limit), length=len(text)
    )


def chat_line(msg: ChatMessage | ChatEntry) -> str:
    """A chat line with the sender's role when it is known: '<Bob (black)> hi'."""
    if msg.role is None:
        return f"<{msg.sender}> {msg.text}"
    return f"<{msg.sender} ({role_word(msg.role)})> {msg.text}"
