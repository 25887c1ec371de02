"""The seats a player holds at games they stepped away from, taken back quietly after a
reconnection so that the server knows the player is still there.

A server that restarted (or that sees a new connection after a dropped one) takes the player of
such a seat for gone, and past --abandon-timeout the game is forfeited (docs/rules.md, R19),
though the player sits connected in the lobby. So, on the first lobby listing after each
welcome, every running game's seat this client keeps a token for, shown without a connection,
is taken back with its token (`reclaim`) and stepped away from again at once (`leave`): the
seat is then held by this connection, away at the lobby, as it was before. One table at a time,
since a connection may be at only a few tables at once; the player sees none of it.

The player may ask for such a seat (Enter in the lobby) while it is being taken back quietly:
the seat is then theirs and not stepped away from again (`wanted`), and what the table sends
goes to the screen as after any reclaim of theirs."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from client.model.sending import Send
from client.model.state import ClientState
from protocol.fields import TableInfo
from protocol.messages import (
    ChatMessage,
    Error,
    History,
    Joined,
    Leave,
    Left,
    LobbySubscribe,
    LobbyUnsubscribe,
    PlayersChanged,
    Reclaim,
    ServerMessage,
    Spectating,
    State,
    TableClosed,
    TableNote,
    Update,
)
from protocol.player_messages import Resume, Watchers

log = logging.getLogger(__name__)

# what a table sends to one of its players: none of it is for a player who is not there
TABLE_MESSAGES = (
    Joined, State, History, Update, PlayersChanged, ChatMessage, TableNote, Watchers, Spectating,
    Left,
)  # fmt: skip


class SeatsAway:
    """The quiet taking back of the seats away from the table, for one session."""

    def __init__(self) -> None:
        self.due = False  # a welcome came: the next lobby listing says which seats to take
        self.unsubscribe = False  # the lobby was asked for only to read that listing
        self.waiting: list[tuple[str, str]] = []  # (table, token) still to take back
        self.current: str | None = None  # the table being taken back and left again
        self.leaving = False  # its leave was sent
        self.kept = False  # the player asked for the current table before its leave was sent
        self.asked: Reclaim | Resume | None = None  # asked for after: sent once Left comes
        self.state: ClientState | None = None  # the session's, from its first welcome

    def welcomed(self, state: ClientState, send: Send) -> None:
        """A new connection: the seats away are read from its first listing. A player at a
        table asks for the listing too (and for no more of the lobby once it came)."""
        self.due, self.unsubscribe, self.state = True, False, state
        self.waiting = []
        self._next(send)
        if state.table_id is not None and any(t != state.table_id for t in state.saved_seats):
            self.unsubscribe = send(LobbySubscribe())

    def listed(self, state: ClientState, tables: Sequence[TableInfo], send: Send) -> None:
        """A lobby listing: the first after a welcome starts taking the seats away back."""
        if not self.due:
            return
        self.due = False
        if self.unsubscribe and state.table_id is not None:
            send(LobbyUnsubscribe())
        self.unsubscribe = False
        for table in tables:
            if table.table_id == state.table_id or table.status != "playing":
                continue
            mine = state.my_seat(table)
            info = None if mine is None else getattr(table.players, mine[0])
            if mine is not None and info is not None and not info.connected:
                self.waiting.append((table.table_id, mine[1]))
        self._next(send)

    def wanted(self, msg: Reclaim | Resume) -> bool:
        """The player asks for a seat: whether this takes their message over (not to be sent
        now). A table still waiting is left to the player's message. The current one is the
        player's: kept as it is taken back if its leave is not sent yet, else asked for again
        once that leave is answered (the server refuses a reclaim of a seat the connection
        sits in, and the leave would then take the player away from it)."""
        if msg.table_id != self.current:
            self.waiting = [w for w in self.waiting if w[0] != msg.table_id]
            return False
        if self.leaving:
            self.asked = msg
        else:
            self.kept = True
        log.debug("the seat at %s is wanted by the player", msg.table_id)
        return True

    def _next(self, send: Send) -> None:
        self.current, self.leaving, self.kept, self.asked = None, False, False, None
        while self.waiting and self.current is None:
            table_id, token = self.waiting.pop(0)
            if send(Reclaim(table_id, token)):
                self.current = table_id
                log.debug("taking the seat at %s back quietly", table_id)
        if self.state is not None:  # the lobby shows that seat in use by this very client
            self.state.quiet_table = self.current

    def take(self, msg: ServerMessage, send: Send) -> bool:
        """Whether the message is the answer of a table being taken back quietly, for no one
        to see (an error of its refused token goes on to the seat file, not to the player)."""
        table_id = getattr(msg, "table_id", None)
        if self.current is None or table_id != self.current:
            return False
        if isinstance(msg, TableClosed):
            self._next(send)
            return False  # a closed table is forgotten as usual
        if self.kept or (self.asked is not None and isinstance(msg, Error | Left)):
            return self._hand_over(msg, send)
        if isinstance(msg, Error):
            if msg.refused not in (Reclaim.TYPE, Leave.TYPE):
                return False
            log.debug("the seat at %s was not taken back: %s", table_id, msg.code)
            self._next(send)
            return True
        if not isinstance(msg, TABLE_MESSAGES):
            return False
        if isinstance(msg, Joined) and not self.leaving:
            self.leaving = send(Leave(msg.table_id))
        elif isinstance(msg, Left):
            self._next(send)
        return True

    def _hand_over(self, msg: ServerMessage, send: Send) -> bool:
        """The current table is the player's from this message on."""
        asked = self.asked
        self._next(send)
        if asked is None:
            return False  # the reclaim's answer is the player's, and what follows it
        if isinstance(msg, Error) and msg.refused == Reclaim.TYPE:
            return False  # the seat is not theirs to take: they read why
        send(asked)  # the leave answered (or refused): the player's reclaim goes now
        return True
