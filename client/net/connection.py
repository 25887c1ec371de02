"""The WebSocket session: hello, the messages both ways, and reconnecting by itself.

When the connection drops, the session tries again with a growing pause, shows what it is doing
in the state, and on success resumes where it was: the seat (reclaim with the seat's token), the
table it watched (spectate) or the lobby (lobby_subscribe).

A session may know several addresses of one service (a server and its standby, which takes over
when the first dies): each try goes to the next address in turn, and the pause comes after a
whole round of them, so that the one that serves now is found at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections.abc import Callable, Iterable, Sequence
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage, InvalidURI

from client.language.i18n import _
from client.language.words import error_sentence
from client.model.state import ClientState
from client.net.seats_away import SeatsAway
from protocol import CLIENT_MAX_FRAME, ProtocolError, decode_server, encode
from protocol.fields import PROTOCOL_VERSION
from protocol.messages import (
    ClientMessage,
    Error,
    Hello,
    Left,
    Lobby,
    LobbySubscribe,
    Reclaim,
    Resync,
    ServerMessage,
    Spectate,
    TableClosed,
    Welcome,
)
from protocol.player_messages import Resume

log = logging.getLogger(__name__)

# Pauses before the first, second, ... round of tries to connect again (a round tries each address
# once); the last one repeats for as long as the server is away (it may be restarting: it keeps
# its games), and the session never gives up.
BACKOFF = (0.3, 0.7, 1.5, 3.0)
FATAL_CODES = {"version_mismatch", "bad_name", "too_many_connections"}


def certificate_problem(url: str, exc: ssl.SSLCertVerificationError) -> str:
    """What is wrong with a server's certificate, and what to do, in words."""
    why = str(exc.verify_message or exc.reason or exc)
    if exc.verify_code in (18, 19) or "self-signed" in why or "self signed" in why:
        return _(
            "the certificate of {url} is self-signed ({why}): if you trust that server,"
            " connect with --ca-file CERT.pem, its certificate"
        ).format(url=url, why=why)
    if exc.verify_code == 10 or "expired" in why:
        return _("the certificate of {url} has expired ({why}): the server needs a new one").format(
            url=url, why=why
        )
    if exc.verify_code == 62 or "mismatch" in why:
        return _("the certificate of {url} is for another name ({why})").format(url=url, why=why)
    if exc.verify_code in (2, 20):
        return _(
            "the certificate of {url} is signed by an authority this machine does not trust"
            " ({why}): --ca-file PEM names the authority's certificate"
        ).format(url=url, why=why)
    return _("the certificate of {url} was refused: {why}").format(url=url, why=why)


class Session:
    """One client's link to one server (at one or several addresses), kept alive across dropped
    connections."""

    def __init__(
        self,
        url: str | Sequence[str],
        state: ClientState,
        on_change: Callable[[], None] = lambda: None,
        on_message: Callable[[ServerMessage], None] = lambda _m: None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.urls: tuple[str, ...] = (url,) if isinstance(url, str) else tuple(dict.fromkeys(url))
        if not self.urls:
            raise ValueError("a session needs a server address")
        self.url = self.urls[0]  # the address being tried, or connected to
        # Addresses that can never work (a certificate refused, a name that never resolved, the
        # other kind of TLS): what is wrong with each. They are not tried again; the session
        # ends only when every address is here, since another one may serve meanwhile.
        self.broken: dict[str, str] = {}
        # the addresses tried since the last welcome, in this round, and the rounds that failed
        self._tried: set[str] = set()
        self.rounds = 0
        self.ssl_context = ssl_context
        self.state = state
        self.on_change = on_change
        self.on_message = on_message
        self.ws: ClientConnection | None = None
        self.welcomed = asyncio.Event()
        self.stopped = False
        self.fatal: str | None = None
        self.attempts = 0
        self.backoff: tuple[float, ...] = BACKOFF
        self.ever_connected = False
        self.served_by: str | None = None  # the address that welcomed this client last
        self._task: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[ClientMessage] | None = None
        self._lost: str | None = None  # what the player was told when the connection dropped
        self.seats_away = SeatsAway()  # the seats away from the table, taken back quietly

    def learn_addresses(self, urls: Iterable[str]) -> tuple[str, ...]:
        """Add addresses of the same service not known yet (the server may name its standbys);
        they join the round. The ones added."""
        added = tuple(u for u in dict.fromkeys(urls) if u not in self.urls)
        self.urls += added
        return added

    # ----- sending ---------------------------------------------------------------------------

    def send(self, msg: ClientMessage) -> bool:
        """Queue a message, sent in order; False (and nothing sent) while there is no connection.
        A seat the player asks for while it is taken back quietly is theirs without another
        reclaim (client/net/seats_away.py)."""
        if isinstance(msg, Reclaim | Resume) and self._queue_open() and self.seats_away.wanted(msg):
            return True
        return self._queue(msg)

    def _queue_open(self) -> bool:
        return self.ws is not None and self.welcomed.is_set() and self._outbox is not None

    def _queue(self, msg: ClientMessage) -> bool:
        if self.ws is None or not self.welcomed.is_set() or self._outbox is None:
            return False
        self._outbox.put_nowait(msg)
        return True

    async def _write(self, ws: ClientConnection, outbox: asyncio.Queue[ClientMessage]) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await ws.send(encode(await outbox.get()))

    # ----- the loop --------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None]:
        self._task = asyncio.get_running_loop().create_task(self.run())
        return self._task

    async def stop(self) -> None:
        self.stopped = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def run(self) -> None:
        while not self.stopped and self.fatal is None:
            resumed = self.attempts > 0
            if len(self.urls) == 1:
                self._status(_("connecting") if not resumed else _("reconnecting"), False)
            elif not resumed:
                self._status(_("connecting to {url}").format(url=self.url), False)
            else:
                self._status(_("reconnecting to {url}").format(url=self.url), False)
            problem: str | None = None  # what makes this address one that can never work
            try:
                if self.ssl_context is not None and self.url.startswith("wss:"):
                    opening = connect(
                        self.url, max_size=CLIENT_MAX_FRAME, open_timeout=5, ssl=self.ssl_context
                    )
                else:
                    opening = connect(self.url, max_size=CLIENT_MAX_FRAME, open_timeout=5)
                async with opening as ws:
                    self.ws = ws
                    await self._session(ws)
            except InvalidURI as exc:
                problem = _("bad server address: {reason}").format(reason=exc)
            except ssl.SSLCertVerificationError as exc:
                # a certificate does not get better by trying again: say what is wrong
                problem = certificate_problem(self.url, exc)
            except socket.gaierror as exc:
                log.debug("no address: %r", exc)
                # A name that never resolved is a typing error; once the service was reached,
                # a name that does not resolve is more likely the network, which comes back.
                if not self.ever_connected:
                    problem = _("cannot find the server {url}: {reason}").format(
                        url=self.url, reason=exc.strerror or exc
                    )
            except (ssl.SSLError, ConnectionResetError, InvalidMessage, EOFError) as exc:
                # cut off in the opening handshake: perhaps one side speaks TLS and not the other
                log.debug("handshake failed: %r", exc)
                if not self.ever_connected:
                    problem = await self._tls_mismatch()
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
                log.debug("connection failed: %r", exc)
            except Exception:
                # Whatever else breaks a connection must not end the session: try again.
                log.exception("the connection failed")
            finally:
                self.ws = None
                self.welcomed.clear()
            if self.stopped:
                break
            if problem is not None:
                self.broken[self.url] = problem
                if all(u in self.broken for u in self.urls):
                    # every address has its own problem: all of them, in the order given
                    self.fatal = "; ".join(self.broken[u] for u in self.urls)
            if self.fatal is not None:
                self._status(_("stopped: {reason}").format(reason=self.fatal), False)
                break
            failed = self.url
            self._tried.add(failed)
            self.url = self._next_url()
            if self.attempts == 0 and self.ever_connected:
                self._lost = _("Lost the connection to the server; reconnecting...")
                self.state.say(self._lost, "error")
            self.attempts += 1
            if not self.ever_connected:
                self.state.say(
                    _(
                        "Cannot reach a Kahuna server at {url}; trying again."
                        " (Start one with kahuna-server, or play alone with --local.)"
                    ).format(url=failed),
                    "error",
                )
            if not all(u in self._tried or u in self.broken for u in self.urls):
                # the round goes on at once: the next address may be the one that serves now
                await asyncio.sleep(0)
                continue
            pause = self.backoff[min(self.rounds, len(self.backoff) - 1)]
            self.rounds += 1
            self._tried.clear()
            wait = f"{pause:.1f}" if pause < 1 else f"{pause:.0f}"
            self._status(
                _("reconnecting in {wait}s (try {n})").format(wait=wait, n=self.attempts), False
            )
            await asyncio.sleep(pause)

    def _next_url(self) -> str:
        """The address after the current one that may still work (the current one if no other)."""
        at = self.urls.index(self.url)
        for step in range(1, len(self.urls) + 1):
            url = self.urls[(at + step) % len(self.urls)]
            if url not in self.broken:
                return url
        return self.url

    async def _tls_mismatch(self) -> str | None:
        """Whether the server speaks the other kind (TLS or not) than the URL says, tried with
        one WebSocket opening of that kind; what to say if so, None if not."""
        parts = urlsplit(self.url)
        if parts.scheme == "wss":
            other, context = parts._replace(scheme="ws").geturl(), None
        else:
            other, context = parts._replace(scheme="wss").geturl(), ssl.create_default_context()
            context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # only a probe
        try:
            if context is None:
                probe = connect(other, open_timeout=2)
            else:
                probe = connect(other, open_timeout=2, ssl=context)
            async with probe as ws:
                await ws.close()
        except Exception as exc:
            log.debug("the probe of %s failed: %r", other, exc)
            return None
        if parts.scheme == "wss":
            return _("the server at {url} does not speak TLS: connect with {other}").format(
                url=self.url, other=other
            )
        return _("the server at {url} speaks TLS: connect with {other}").format(
            url=self.url, other=other
        )

    async def _session(self, ws: ClientConnection) -> None:
        # A queue per connection: what was not sent when a connection dropped is dropped too
        # (the resumed state tells the player what to do next).
        outbox: asyncio.Queue[ClientMessage] = asyncio.Queue()
        self._outbox = outbox
        writer = asyncio.get_running_loop().create_task(self._write(ws, outbox))
        try:
            await self._receive(ws)
        finally:
            writer.cancel()
            self._outbox = None

    async def _receive(self, ws: ClientConnection) -> None:
        await ws.send(encode(Hello(PROTOCOL_VERSION, self.state.name)))
        async for data in ws:
            try:
                msg = decode_server(data)
            except ProtocolError as exc:
                self.state.say(
                    _("the server sent a message this client cannot read: {reason}").format(
                        reason=exc
                    ),
                    "error",
                )
                self.on_change()
                continue
            if isinstance(msg, Welcome):
                self.welcomed.set()
                self.attempts = self.rounds = 0
                self._tried.clear()
                said = self.state.message
                if self.state.message_kind == "error" and (
                    not self.ever_connected or said == self._lost
                ):
                    self.state.say("")  # the connection is back: what said it was not, goes
                self.ever_connected = True
                self.state.handle(msg)
                if self.served_by is not None and self.served_by != self.url:
                    # a takeover: the player should know why the game goes on elsewhere
                    self.state.tell_connection(
                        _("Now connected to {url}, another address of this server.").format(
                            url=self.url
                        )
                    )
                self.served_by = self.url
                # the service's other addresses (version 3): a standby, to try if this one goes
                self.learn_addresses(u for u in msg.servers if u.startswith(("ws://", "wss://")))
                self._status(_("connected"), True)
                for login in self.state.accounts.login_messages():  # before the seat: its name
                    self.send(login)
                self._resume()
                for again in self.state.tournaments.again():  # the tournament shown, followed
                    self.send(again)
            elif self.seats_away.take(msg, self._queue):
                if isinstance(msg, Error):  # a token refused: the seat file forgets it
                    self.on_message(msg)
                continue
            elif isinstance(msg, Error) and msg.code in FATAL_CODES:
                self.fatal = error_sentence(msg)
                self.state.handle(msg)
            elif (
                isinstance(msg, Error)
                and msg.refused in ("reclaim", "spectate")
                and self.state.table_id is not None
                and msg.table_id == self.state.table_id
            ):
                # The table is gone (closed while we were away, or never was): to the lobby.
                if msg.refused == "reclaim":
                    said = _("Could not take the seat back: {reason}")
                else:
                    said = _("Could not watch the table: {reason}")
                self.state.leave_table()
                self.state.say(
                    said.format(reason=error_sentence(msg)),
                    "error",
                )
                self.send(LobbySubscribe())
            else:
                self.state.handle(msg)
                if isinstance(msg, Lobby):
                    self.seats_away.listed(self.state, msg.tables, self._queue)
                if isinstance(msg, TableClosed | Left) and self.state.table_id is None:
                    self.send(LobbySubscribe())
                if self.state.needs_resync and self.state.table_id is not None:
                    self.state.needs_resync = False
                    self.send(Resync(self.state.table_id))
            self.on_message(msg)
            self.on_change()

    def _resume(self) -> None:
        state = self.state
        if state.table_id is not None and state.token is not None:
            self.send(Reclaim(state.table_id, state.token))
        elif state.table_id is not None and state.role == "spectator":
            self.send(Spectate(state.table_id))
        else:
            self.send(LobbySubscribe())
        self.seats_away.welcomed(state, self._queue)

    def _status(self, text: str, connected: bool) -> None:
        self.state.set_connection(text, connected)
        self.on_change()
