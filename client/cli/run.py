"""The client run: the application (client/screens/app.py) and its connection to one server
(client/net/connection.py) together, and the seat file (client/files/seats.py) kept in step."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable, Sequence
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output

from client.files.seats import SeatStore
from client.language.i18n import _
from client.model.state import ClientState
from client.net.connection import Session
from client.screens.app import KahunaApp
from protocol.messages import (
    ClientMessage,
    Error,
    Joined,
    Lobby,
    ServerMessage,
    TableClosed,
    TableNote,
)
from protocol.player_messages import GetGames, LoggedIn, PlayerNote, Resume


class Client:
    """The application and its connection to one server, run together."""

    def __init__(
        self,
        url: str | Sequence[str],
        state: ClientState,
        *,
        input: Input | None = None,
        output: Output | None = None,
        color_depth: ColorDepth | None = None,
        on_message: Callable[[ServerMessage], None] = lambda _m: None,
        save_dir: Path | None = None,
        seats: SeatStore | None = None,
        theme: str = "dark",
        ssl_context: ssl.SSLContext | None = None,
        hint_iterations: int | None = None,
        quiet: bool = False,
    ) -> None:
        self.state = state
        # The seat file's key for the server: its first address, whichever address serves now,
        # so that the seats taken at one address of a server are found at its standby's.
        self.key = url if isinstance(url, str) else url[0]
        self.seats = seats
        self.done = False
        self.outer_on_message = on_message
        if seats is not None:
            state.saved_seats = seats.seats(self.key, state.name)
        self.ui = KahunaApp(
            state,
            self.send,
            input=input,
            output=output,
            color_depth=color_depth,
            save_dir=save_dir,
            theme=theme,
            hint_iterations=hint_iterations,
            quiet=quiet,
        )
        self.session = Session(
            url,
            state,
            on_change=self.ui.invalidate,
            on_message=self._on_message,
            ssl_context=ssl_context,
        )

    def send(self, msg: ClientMessage) -> bool:
        return self.session.send(msg)

    def _on_message(self, msg: ServerMessage) -> None:
        """Keep the seat file in step: a seat taken is remembered, a table gone is forgotten."""
        state, store = self.state, self.seats
        if store is None:
            remember_in_memory(state, msg)
        if store is not None:
            if isinstance(msg, Joined):
                store.remember(self.key, msg.table_id, msg.seat, msg.token, state.name)
            elif isinstance(msg, TableNote) and msg.note == "rematch_started":
                # the game there is over and its seat is done with: the new table's token
                # (the joined that follows) is the one to keep
                store.forget(self.key, msg.table_id, state.name)
            elif isinstance(msg, TableClosed) or (
                isinstance(msg, Error)
                and msg.code in ("bad_token", "no_such_table")
                and msg.table_id is not None
            ):
                assert msg.table_id is not None
                # a closed table is no one's; a refused token was this name's
                store.forget(
                    self.key, msg.table_id, None if isinstance(msg, TableClosed) else state.name
                )
            elif isinstance(msg, Lobby):
                listed = {t.table_id for t in msg.tables}
                for table_id in list(store.seats(self.key)):
                    if table_id not in listed and table_id != state.table_id:
                        store.forget(self.key, table_id)
            state.saved_seats = store.seats(self.key, state.name)
            if isinstance(msg, Lobby) and state.table_id is None:
                mine = [(t, state.my_seat(t)) for t in msg.tables]
                held = [(t, seat) for t, seat in mine if seat is not None]
                if held and not state.message:
                    table, (seat, _token) = held[0]
                    info = table.players.white if seat == "white" else table.players.black
                    if info is not None and info.connected:
                        said = _(
                            "You have a seat at table {table}:"
                            " another client of yours sits in it now."
                        )
                    else:
                        said = _("You have a seat at table {table}: Enter takes it back.")
                    state.say(said.format(table=table.table_id))
        if isinstance(msg, Lobby) and state.table_id is None:
            state.place_lobby_cursor()
        if isinstance(msg, LoggedIn):
            # the player's games: which wait for their move (said once after logging in)
            self.send(GetGames(None))
        if (
            isinstance(msg, PlayerNote)
            and msg.note == "challenge_accepted"
            and msg.table_id is not None
            and state.table_id is None
            and self.ui.lobby.replay is None
        ):
            # A challenger waiting in the lobby sits down at once, as on Lichess; one at another
            # table or in a replay is only told (the note says how to sit down).
            self.send(Resume(msg.table_id))
        self.ui.received(msg)
        self.outer_on_message(msg)

    def _session_ended(self, _task: asyncio.Task[None]) -> None:
        """A server that can never be reached (a certificate refused, a name that does not
        resolve, a refused hello) before any game: the program ends and says why."""
        if self.session.fatal is not None and not self.session.ever_connected and not self.done:
            if self.ui.app.is_running:
                self.ui.quit()
            else:  # not drawn yet: as soon as it is
                asyncio.get_running_loop().call_later(0.05, self._session_ended, _task)

    async def run(self) -> None:
        # An app session of its own, so that several clients can run in one event loop (tests).
        app = self.ui.app
        with create_app_session(input=app.input, output=app.output):
            task = self.session.start()
            task.add_done_callback(self._session_ended)
            ticker = asyncio.get_running_loop().create_task(self.ui.tick())
            try:
                await app.run_async()
            finally:
                ticker.cancel()
                self.done = True
                await self.session.stop()


def remember_in_memory(state: ClientState, msg: ServerMessage) -> None:
    """Without a seat file (--local): the seats of this run, kept in memory, so that a table
    left for the lobby (a finished game and its rematch) is sat at again, not watched."""
    if isinstance(msg, Joined):
        state.saved_seats[msg.table_id] = (msg.seat, msg.token)
    elif isinstance(msg, TableClosed) or (
        isinstance(msg, TableNote) and msg.note == "rematch_started"
    ):
        state.saved_seats.pop(msg.table_id, None)
