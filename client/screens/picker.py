"""The server picker: started with no address and no server on this machine, kahuna-client shows
the Kahuna servers on the LAN (DNS-SD, client.net.discovery.LanBrowser), live, to pick one with the
arrow keys and Enter, or to type an address instead; Esc or Ctrl-Q quits.

    choose_server(...)   the URL to connect to: this machine's server when it answers, else the
                         one picked (or the exit status when the player quit)
    ServerPicker         the screen: the list, the cursor, the address line
    render_picker(...)   the drawing (a canvas, like the other screens)
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import textwrap
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal
from urllib.parse import urlsplit

from prompt_toolkit.application import Application, create_app_session
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import ColorDepth, Output

from client.language.i18n import _, ngettext
from client.net.discovery import LanBrowser, LanServer
from client.screens.canvas import Canvas
from client.screens.screen import CanvasControl, full_screen_application

PROBE_SECONDS = 1.0  # how long the server on this machine may take to accept a connection
ADDRESS: Literal["address"] = "address"  # the list's last item: "Type an address..."

Item = LanServer | Literal["address"]
Check = Callable[[str], str]  # an address typed in -> its URL; ValueError when it can never work


async def answers(url: str, timeout: float = PROBE_SECONDS) -> bool:
    """Whether something accepts a TCP connection at the URL's host and port."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    try:
        _reader, writer = await asyncio.wait_for(
            asyncio.open_connection(parts.hostname, port), timeout
        )
    except (OSError, TimeoutError, ValueError):
        return False
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return True


async def choose_server(
    local_url: str,
    interfaces: Sequence[str] | None,
    check: Check,
    *,
    input: Input | None = None,
    output: Output | None = None,
    color_depth: ColorDepth | None = None,
    theme: str = "dark",
    probe: Callable[[str], Awaitable[bool]] = answers,
) -> str | int:
    """Started with no address: this machine's server (`local_url`) when it answers, else the
    server picked on the LAN. The URL, or the exit status when the player quit instead (0, or
    128 + the signal that ended the picker)."""
    if await probe(local_url):
        return local_url
    picker = ServerPicker(
        interfaces,
        check,
        local_url=local_url,
        input=input,
        output=output,
        color_depth=color_depth,
        theme=theme,
        probe=probe,
    )
    picked = await picker.run()
    if picked is not None:
        return picked
    return 128 + picker.signalled if picker.signalled else 0


def server_numbers(server: LanServer) -> str:
    """'3 tables, 1 free seat', in the player's language ('?' for a number not announced)."""
    n, free = server.tables, server.free
    tables = _("? tables") if n is None else ngettext("{n} table", "{n} tables", n).format(n=n)
    seats = (
        _("? free seats")
        if free is None
        else ngettext("{n} free seat", "{n} free seats", free).format(n=free)
    )
    return _("{tables}, {free}").format(tables=tables, free=seats)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def render_picker(
    servers: Sequence[LanServer],
    cursor: int,
    width: int,
    height: int,
    *,
    local_url: str | None = None,
    interfaces: Sequence[str] | None = None,
    problem: str | None = None,
    message: str = "",
) -> Canvas:
    """The picker above the key line: what is searched, the servers found and "Type an
    address..." (the item `cursor` selected), and a message (an address refused)."""
    canvas = Canvas(width, height)
    if height < 3:
        return canvas
    header = Canvas(width, 1, "class:header")
    x = header.put(0, 0, " KAHUNA ", "class:header class:brand")
    header.put(x, 0, " " + _("choose a server"), "class:header")
    canvas.blit(0, 0, header)
    y = 2
    if local_url is not None:
        said = _("No Kahuna server answers on this machine ({url}).").format(url=local_url)
        canvas.put(1, y, _clip(said, width - 2), "class:dim")
        y += 1
    where = ", ".join(interfaces) if interfaces else None
    if problem is not None:
        said = (
            _("Cannot search the LAN on {where}: {problem}")
            if where
            else _("Cannot search the LAN: {problem}")
        ).format(where=where, problem=problem)
        canvas.put(1, y, _clip(said, width - 2), "class:msg.error")
    else:
        said = (
            _("Searching the LAN ({where}) for Kahuna servers...")
            if where
            else _("Searching the LAN for Kahuna servers...")
        ).format(where=where)
        found = ngettext("{n} found", "{n} found", len(servers)).format(n=len(servers))
        canvas.put(1, y, _clip(f"{said} {found}", width - 2), "class:title")
    y += 2
    items: list[Item] = [*servers, ADDRESS]
    bottom = height - 2  # a line for the message
    name_w = min(max((len(s.name) for s in servers), default=0), 28)
    url_w = min(max((len(s.url) for s in servers), default=0), 40)
    room = max(bottom - y, 1)
    first = max(0, min(cursor - room + 1, len(items) - room))
    for i, item in enumerate(items[first : first + room], start=first):
        if item == ADDRESS:
            row = _("Type an address...")
        else:
            assert isinstance(item, LanServer)
            name = _clip(item.name, name_w)
            row = f"{name:<{name_w}}  {_clip(item.url, url_w):<{url_w}}  {server_numbers(item)}"
        selected = i == cursor
        style = "class:selected" if selected else "class:dim" if item == ADDRESS else ""
        canvas.put(1, y, _clip(("> " if selected else "  ") + row, width - 2), style)
        y += 1
    if not servers and problem is None:
        # one sentence in two messages (as the catalogs have it), wrapped to the width
        said = _("None has answered yet. A server started with --no-announce, on another network,")
        then = _("or behind a firewall that drops multicast is not seen: type its address.")
        note = f"{said} {then}"
        lines = textwrap.wrap(note, max(width - 2, 20))
        if y + len(lines) < bottom:
            for i, line in enumerate(lines):
                canvas.put(1, y + 1 + i, line, "class:dim")
    if message:
        canvas.put(0, height - 1, _clip(message, width), "class:msg.error")
    return canvas


class ServerPicker:
    """The picker screen, its LAN browser and its keys. `run` returns the URL picked, or None
    when the player quit (`signalled`: SIGTERM or SIGHUP ended it)."""

    def __init__(
        self,
        interfaces: Sequence[str] | None,
        check: Check,
        *,
        local_url: str | None = None,
        input: Input | None = None,
        output: Output | None = None,
        color_depth: ColorDepth | None = None,
        theme: str = "dark",
        probe: Callable[[str], Awaitable[bool]] = answers,
    ) -> None:
        self.interfaces = list(interfaces) if interfaces else None
        self.check = check
        self.local_url = local_url
        self.probe = probe
        self._probing = False
        self.browser = LanBrowser(self.interfaces, on_change=self._changed)
        self.problem: str | None = None  # why the LAN cannot be searched
        self.message = ""  # why an address typed in was refused
        self.index = 0  # the cursor's item when `key` is not in the list (any more)
        self.key: tuple[str, str] | Literal["address"] | None = None  # None: not moved yet
        self.typing = False
        self.signalled = 0
        self.buffer = Buffer(multiline=False, accept_handler=self._accept)
        self.list_window = Window(CanvasControl(self.draw, focusable=True))
        self.address_window = Window(
            BufferControl(
                self.buffer,
                input_processors=[BeforeInput(lambda: _("Address:") + " ", style="class:prompt")],
            ),
            height=1,
        )
        typing = Condition(lambda: self.typing)
        body = HSplit(
            [
                self.list_window,
                ConditionalContainer(self.address_window, filter=typing),
                Window(FormattedTextControl(self._hints), height=1, style="class:hints"),
            ]
        )
        self.app: Application[str | None] = full_screen_application(
            Layout(body, focused_element=self.list_window),
            self._bindings(),
            theme=theme,
            input=input,
            output=output,
            color_depth=color_depth,
        )

    # ----- the list --------------------------------------------------------------------------

    def servers(self) -> list[LanServer]:
        return self.browser.found()

    def items(self) -> list[Item]:
        return [*self.servers(), ADDRESS]

    @staticmethod
    def _key(item: Item) -> tuple[str, str] | Literal["address"]:
        return ADDRESS if isinstance(item, str) else (item.name, item.url)

    def cursor(self) -> int:
        """The selected item: the one moved to while it is listed, else the same place."""
        items = self.items()
        if self.key is not None:
            for i, item in enumerate(items):
                if self._key(item) == self.key:
                    return i
        return min(self.index, len(items) - 1)

    def selected(self) -> Item:
        return self.items()[self.cursor()]

    def move(self, step: int) -> None:
        items = self.items()
        self.index = max(0, min(self.cursor() + step, len(items) - 1))
        self.key = self._key(items[self.index])
        self.app.invalidate()

    def _changed(self) -> None:
        """The LAN's list changed: a server that came back may be this machine's, whose absence
        the header says; it is asked again (the header then says nothing of it)."""
        if self.local_url is not None and not self._probing:
            with contextlib.suppress(RuntimeError):  # no loop running: nothing to ask with
                asyncio.get_running_loop().create_task(self._probe_local())
        self.app.invalidate()

    async def _probe_local(self) -> None:
        url = self.local_url
        if url is None:
            return
        self._probing = True
        try:
            if await self.probe(url):
                self.local_url = None
                self.app.invalidate()
        finally:
            self._probing = False

    def draw(self, width: int, height: int) -> Canvas:
        return render_picker(
            self.servers(),
            self.cursor(),
            width,
            height,
            local_url=self.local_url,
            interfaces=self.interfaces,
            problem=self.problem,
            message=self.message,
        )

    def _hints(self) -> str:
        if self.typing:
            return " " + _("Enter connects   Esc back to the list   ^Q quit")
        return " " + _("↑↓ choose   Enter connects   or type an address   Esc/^Q quit")

    # ----- choosing ----------------------------------------------------------------------------

    def choose(self) -> None:
        """Enter on the list: connect to the server, or type an address."""
        item = self.selected()
        if item == ADDRESS:
            self.start_typing("")
        else:
            assert isinstance(item, LanServer)
            self.app.exit(result=item.url)

    def start_typing(self, text: str) -> None:
        self.typing = True
        self.buffer.insert_text(text)
        self.app.layout.focus(self.address_window)
        self.app.invalidate()

    def stop_typing(self) -> None:
        self.typing = False
        self.message = ""
        self.app.layout.focus(self.list_window)
        self.app.invalidate()

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text.strip()
        if not text:
            self.stop_typing()
            return False
        try:
            url = self.check(text)
        except ValueError as exc:
            self.message = str(exc)
            return True  # the line stays, to be corrected
        self.app.exit(result=url)
        return True

    def quit(self) -> None:
        if self.app.is_running and not self.app.is_done:
            self.app.exit(result=None)

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        on_list = Condition(lambda: not self.typing)
        typing = Condition(lambda: self.typing)

        @kb.add("c-q")
        def _quit(event: KeyPressEvent) -> None:
            self.quit()

        @kb.add("escape", filter=on_list, eager=True)
        @kb.add("c-c", filter=on_list)
        def _quit_list(event: KeyPressEvent) -> None:
            self.quit()

        @kb.add("escape", filter=typing, eager=True)
        def _back(event: KeyPressEvent) -> None:
            self.stop_typing()

        @kb.add("c-c", filter=typing)
        def _clear(event: KeyPressEvent) -> None:
            if self.buffer.text:
                self.buffer.reset()
                self.message = ""
            else:
                self.stop_typing()

        @kb.add("up")
        def _up(event: KeyPressEvent) -> None:
            if self.typing:
                self.stop_typing()
            self.move(-1)

        @kb.add("down")
        def _down(event: KeyPressEvent) -> None:
            if self.typing:
                self.stop_typing()
            self.move(1)

        @kb.add("home", filter=on_list)
        def _home(event: KeyPressEvent) -> None:
            self.move(-len(self.items()))

        @kb.add("end", filter=on_list)
        def _end(event: KeyPressEvent) -> None:
            self.move(len(self.items()))

        @kb.add("enter", filter=on_list)
        def _enter(event: KeyPressEvent) -> None:
            self.choose()

        @kb.add(Keys.Any, filter=on_list)
        def _type(event: KeyPressEvent) -> None:
            if event.data.isprintable() and not event.data.isspace():
                self.start_typing(event.data)

        return kb

    # ----- running -----------------------------------------------------------------------------

    async def run(self) -> str | None:
        """Search the LAN and show the list until a server is picked (its URL) or the player
        quits (None). A LAN that cannot be searched is said on the screen; typing an address
        works all the same."""
        try:
            await self.browser.start()
        except (OSError, ValueError) as exc:
            self.problem = str(exc) or type(exc).__name__
            await self.browser.stop()
        loop = asyncio.get_running_loop()

        def on_signal(signum: int) -> None:
            self.signalled = signum
            self.quit()

        handled = []
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, on_signal, signum)
                handled.append(signum)
        app = self.app
        try:
            with create_app_session(input=app.input, output=app.output):
                return await app.run_async()
        finally:
            for signum in handled:
                loop.remove_signal_handler(signum)
            await self.browser.stop()
