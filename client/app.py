"""The full-screen prompt-toolkit application: the lobby and game screens, keys, command line.

Drawing is done by client.render on a canvas of the window's size; this module only wires the
canvas, the command line (a prompt-toolkit Buffer with completion and history) and the keys to
the client state and to a `send` function that hands messages to the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import cast

from prompt_toolkit.application import Application, create_app_session
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition, completion_is_selected
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    UIContent,
    UIControl,
    Window,
)
from prompt_toolkit.layout.containers import WindowAlign
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style

from client.commands import Outcome, complete, interpret, local_words
from client.connection import Session
from client.hint import suggest
from client.i18n import _
from client.render import (
    KEY_HINTS,
    LOBBY_KEYS,
    RULES_PAGES,
    Canvas,
    render_game,
    render_lobby,
)
from client.seats import SeatStore
from client.state import ClientState
from client.words import error_sentence, reason_words, role_word, seat_name, seat_word
from protocol.messages import (
    Chat,
    Claim,
    ClientMessage,
    Command,
    CreateTable,
    DeclineDraw,
    Error,
    FirstName,
    GetRecord,
    Join,
    Joined,
    Leave,
    Lobby,
    LobbySubscribe,
    LobbyUnsubscribe,
    OfferDraw,
    Reclaim,
    Record,
    Rematch,
    Resign,
    Resync,
    SeatName,
    ServerMessage,
    Spectate,
    TableClosed,
    TableNote,
    TableOptions,
)
from shared.board import ISLAND_LINES, ISLANDS, BoardNameError, parse_island, parse_line
from shared.types import Seat

DARK: dict[str, str] = {
    "header": "bg:#005f87 #ffffff",
    "brand": "bold",
    "conn.bad": "bg:#af0000 #ffffff bold",
    "free": "#808080",
    "white": "bold #ffffff",
    "black": "bold #ff8700",
    "token": "reverse",
    "bridge": "bold",
    "highlight": "reverse",
    "recent": "underline",
    "incard": "underline",
    "island": "bold",
    "count": "#8a8a8a",
    "title": "bold",
    "label": "#87afd7",
    "dim": "#8a8a8a",
    "key": "bold #5fafff",
    "card": "bold",
    "you": "bold #5fff5f",
    "arrow": "bold",
    "points": "bold",
    "frame": "#585858",
    "value": "bold",
    "selected": "reverse",
    "log.chat": "#5fd7ff",
    "log.info": "#8a8a8a",
    "log.error": "#ff5f5f",
    "log.you": "bold",
    "msg.error": "bold #ff5f5f",
    "msg.you": "bold #5fff5f",
    "msg.ok": "#5fff5f",
    "clock.run": "bold",
    "clock.low": "bold #ffffff bg:#af0000",
    "prompt": "bold",
    "hints": "reverse",
}
# A light background: no white or pale text on it; White's pieces are dark on a light grey.
LIGHT: dict[str, str] = {
    **DARK,
    "free": "#767676",
    "white": "bold #000000 bg:#d0d0d0",
    "black": "bold #af5f00",
    "count": "#6c6c6c",
    "label": "#005f87",
    "dim": "#6c6c6c",
    "key": "bold #005faf",
    "you": "bold #008700",
    "frame": "#9e9e9e",
    "log.chat": "#005f87",
    "log.info": "#6c6c6c",
    "log.error": "#af0000",
    "msg.error": "bold #af0000",
    "msg.you": "bold #008700",
    "msg.ok": "#008700",
}
THEMES: dict[str, dict[str, str]] = {"dark": DARK, "light": LIGHT}
STYLE = Style.from_dict(DARK)


def style_for(theme: str) -> Style:
    return Style.from_dict(THEMES.get(theme, DARK))


Send = Callable[[ClientMessage], bool]
TABLE_KINDS = ("resign", "offer_draw", "decline_draw", "claim", "rematch", "hint")


class CanvasControl(UIControl):
    """A control that asks for a canvas of exactly its window's size on every redraw."""

    def __init__(self, draw: Callable[[int, int], Canvas], focusable: bool = False) -> None:
        self.draw = draw
        self.focusable = focusable

    def create_content(self, width: int, height: int) -> UIContent:
        canvas = self.draw(width, height)
        lines = [cast(StyleAndTextTuples, canvas.row(y)) for y in range(canvas.height)]
        return UIContent(get_line=lines.__getitem__, line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return self.focusable


class CommandCompleter(Completer):
    def __init__(self, state: ClientState) -> None:
        self.state = state

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        for cand in complete(document.text_before_cursor, self.state.seat_view):
            yield Completion(cand.text + " ", cand.start, display=cand.text, display_meta=cand.meta)


def _ascii(word: str) -> str:
    """The word without its accents ('sì': 'si'), as a keyboard without them types it."""
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()


def highlighted_lines(text: str) -> list[int]:
    """The board lines a command being typed names, to show them on the map."""
    out: list[int] = []
    for word in text.split()[1:]:
        with contextlib.suppress(BoardNameError):
            out.append(parse_line(word))
            continue
        with contextlib.suppress(BoardNameError):  # an island alone: all its lines
            out.extend(ISLAND_LINES[parse_island(word.split("-")[0].split("+")[0])])
    return out


class KahunaApp:
    def __init__(
        self,
        state: ClientState,
        send: Send,
        *,
        input: Input | None = None,
        output: Output | None = None,
        color_depth: ColorDepth | None = None,
        save_dir: Path | None = None,
        theme: str = "dark",
        hint_iterations: int | None = None,
    ) -> None:
        self.state = state
        self.send = send
        self.hint_iterations = hint_iterations  # a fixed budget (tests); None: about 0.2 s
        self.hint_task: asyncio.Future[None] | None = None
        self.save_dir = save_dir or Path.cwd()
        self.saving: tuple[str, Path] | None = None  # (table, file) waiting for its record
        self.preview: tuple[str, str] | None = None
        self.preview_plays = False  # the preview says that Enter plays the line
        self.quit_armed = False
        self.highlight: list[int] = []
        self.buffer = Buffer(
            multiline=False,
            completer=CommandCompleter(state),
            complete_while_typing=False,
            history=InMemoryHistory(),
            accept_handler=self._accept,
            on_text_changed=self._text_changed,
        )
        self.game_screen = Window(CanvasControl(self._draw_game))
        self.lobby_screen = Window(CanvasControl(self._draw_lobby, focusable=True))
        self.command_line = Window(
            BufferControl(
                self.buffer, input_processors=[BeforeInput(self._prompt, style="class:prompt")]
            ),
            height=1,
        )
        in_game = Condition(lambda: self.state.screen == "game")
        body = HSplit(
            [
                ConditionalContainer(self.game_screen, filter=in_game),
                ConditionalContainer(self.lobby_screen, filter=~in_game),
                ConditionalContainer(self.command_line, filter=in_game),
                Window(
                    FormattedTextControl(self._hints),
                    height=1,
                    style="class:hints",
                    align=WindowAlign.LEFT,
                ),
            ]
        )
        root = FloatContainer(
            body,
            floats=[
                Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8)),
            ],
        )
        self.app: Application[None] = Application(
            layout=Layout(root, focused_element=self.lobby_screen),
            key_bindings=self._bindings(),
            style=style_for(theme),
            full_screen=True,
            input=input,
            output=output,
            color_depth=color_depth,
            mouse_support=False,
        )
        self.sync_focus()

    # ----- drawing ---------------------------------------------------------------------------

    def _draw_game(self, width: int, height: int) -> Canvas:
        self._text_changed(self.buffer)  # the position may have changed under the typed line
        return render_game(self.state, width, height, self.highlight, self.preview)

    def _draw_lobby(self, width: int, height: int) -> Canvas:
        return render_lobby(self.state, width, height)

    def _prompt(self) -> str:
        state = self.state
        if state.is_spectator:
            return _("watching") + "> "
        pub = state.public
        playing = state.table_status == "playing" and pub is not None and pub.result is None
        if playing and pub is not None and state.seat is pub.to_move:
            return _("your move") + "> "
        return "> "

    def _hints(self) -> str:
        if self.state.screen == "lobby":
            if self.state.form_open:
                return " " + _("c s f 1 2 h t l i change an option   Enter create   Esc cancel")
            return " " + _(LOBBY_KEYS)
        words = local_words()
        if self.state.help_open:
            return " " + _("Esc or F1 closes the help   PgDn/PgUp turn its pages")
        if self.state.resign_armed:
            return " " + _("{yes} resigns the game   anything else plays on").format(
                yes=words["yes"]
            )
        if self.state.is_spectator:
            return " " + _(
                "F1 help   PgUp/PgDn scroll the log   'TEXT chats   {lobby} leaves   ^Q quit"
            ).format(lobby=words["lobby"])
        if self.state.public is not None and self.state.public.result is not None:
            return " " + _(
                "{rematch} plays again   {lobby} leaves the table   {save} keeps it   ^Q quit"
            ).format(rematch=words["rematch"], lobby=words["lobby"], save=words["save"])
        return " " + _(KEY_HINTS)

    def invalidate(self) -> None:
        self.sync_focus()
        self.app.invalidate()

    def sync_focus(self) -> None:
        want = self.command_line if self.state.screen == "game" else self.lobby_screen
        if self.app.layout.current_window is not want:
            self.app.layout.focus(want)

    # ----- the command line --------------------------------------------------------------------

    def _text_changed(self, buffer: Buffer) -> None:
        text = buffer.text
        self.highlight = highlighted_lines(text)
        self.preview, self.preview_plays = None, False
        if not text.strip():
            return
        state = self.state
        outcome = interpret(text, state.seat_view, state.public, state.table, state.table_status)
        if outcome.kind == "action":
            self.preview = (
                "class:msg.ok",
                _("Enter plays: {command}").format(command=outcome.text),
            )
            self.preview_plays = True
        elif outcome.kind == "refused" and outcome.action is not None:
            self.preview = (
                "class:msg.error",
                _("Not allowed: {reason}").format(reason=outcome.text),
            )

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text
        self.preview, self.highlight = None, []
        kept = not self.submit(text)
        if kept:
            self._text_changed(buffer)  # the line stays, and so does what is said about it
        return kept  # a line done with is cleared (the history keeps it); a refused one stays

    def submit(self, text: str) -> bool:
        """Do what a typed line asks; a game command only if it is legal now. False when it
        was refused or could not be sent: the command line keeps it, to be corrected."""
        state = self.state
        self.quit_armed = False
        if state.resign_armed:
            state.resign_armed = False
            words = local_words()
            said = text.strip().lower()
            if said in ("yes", "y", "resign", words["yes"], words["resign"], _ascii(words["yes"])):
                return self.table_message(Outcome("resign", "confirmed"))
            state.say(_("You play on: not resigned."))
            if text.strip().lower() in ("no", "n", _("no")):
                self.invalidate()
                return True
        outcome = interpret(text, state.seat_view, state.public, state.table, state.table_status)
        done = False
        if outcome.kind == "none":
            return True
        if outcome.kind in TABLE_KINDS:
            return self.table_message(outcome)
        if outcome.kind == "refused":
            state.say(_("Not sent: {reason}").format(reason=outcome.text), "error")
        elif outcome.kind == "action":
            if state.table_id is None:
                state.say(_("You are not at a table."), "error")
            elif state.pending is not None:
                state.say(
                    _("Wait: '{command}' is on its way to the server.").format(
                        command=state.pending
                    ),
                    "error",
                )
            elif self.send(Command(state.table_id, state.version, outcome.text)):
                state.pending = outcome.text
                state.played_yet = True
                state.transcript.append(f"{time.strftime('%H:%M:%S')} > {outcome.text}")
                state.say(_("Sent: {command}").format(command=outcome.text))
                done = True
            else:
                state.say(_("Not connected: the command was not sent. Reconnecting..."), "error")
        elif outcome.kind == "chat":
            if state.table_id is None:
                state.say(_("Chat is for tables."), "error")
            elif not self.send(Chat(state.table_id, outcome.text[: state.max_chat])):
                state.say(_("Not connected: the message was not sent."), "error")
            else:
                done = True
        else:
            done = True
        if outcome.kind == "help":
            state.help_open, state.help_page = True, RULES_PAGES  # the commands
        elif outcome.kind == "save":
            self.save(outcome.text)
        elif outcome.kind == "lobby":
            self.go_to_lobby()
        elif outcome.kind == "resync":
            if state.table_id is not None:
                self.send(Resync(state.table_id))
        elif outcome.kind == "quit":
            self.ask_quit()
        self.invalidate()
        return done

    def table_message(self, outcome: Outcome) -> bool:
        """resign (asked first), offer draw / accept, decline, claim, rematch; hint."""
        state = self.state
        table_id = state.table_id
        if table_id is None:
            state.say(_("You are not at a table."), "error")
            return False
        kind = outcome.kind
        if kind == "hint":
            return self.hint()
        if kind == "resign" and outcome.text != "confirmed":
            state.resign_armed = True
            words = local_words()
            state.say(
                _(
                    "Resign and lose this game? Type '{yes}' (or '{resign}' again) to resign;"
                    " anything else plays on."
                ).format(yes=words["yes"], resign=words["resign"]),
                "error",
            )
            self.invalidate()
            return True
        messages: dict[str, tuple[ClientMessage, str]] = {
            "resign": (Resign(table_id), _("You resign...")),
            "offer_draw": (
                OfferDraw(table_id),
                _("You accept the draw...")
                if outcome.text == "accept"
                else _("You offer a draw..."),
            ),
            "decline_draw": (DeclineDraw(table_id), _("You decline the draw...")),
            "claim": (Claim(table_id), _("You claim the win...")),
            "rematch": (
                Rematch(table_id),
                _("You accept the rematch...")
                if outcome.text == "accept"
                else _("You offer a rematch..."),
            ),
        }
        msg, said = messages[kind]
        if not self.send(msg):
            state.say(_("Not connected: nothing was sent. Reconnecting..."), "error")
            self.invalidate()
            return False
        state.transcript.append(f"{time.strftime('%H:%M:%S')} > {kind.replace('_', ' ')}")
        state.say(said)
        self.invalidate()
        return True

    def hint(self) -> bool:
        """What the normal level would play now, computed in a worker thread from this
        player's own view (nothing is asked of the server, nothing is revealed)."""
        state = self.state
        view = state.seat_view
        if view is None:
            return False
        if state.hinting is not None:
            state.say(_("Thinking about a hint already..."))
            self.invalidate()
            return True
        version = state.version
        state.hinting = version
        state.say(_("Thinking about a hint..."))
        self.invalidate()
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(None, suggest, view, version, self.hint_iterations)

        async def shown() -> None:
            try:
                action, why = await work
            except Exception as exc:  # the engine found nothing: say so, never crash the UI
                state.hinting = None
                state.say(_("No hint: {reason}").format(reason=exc), "error")
                self.invalidate()
                return
            if state.hinting != version or state.version != version:
                if state.hinting == version:
                    state.hinting = None
                return  # the position changed (or the table): that hint is for another one
            state.hinting = None
            said = _("Hint: {play}: {why}").format(play=action, why=why)
            state.say(said + ".", "you")
            state.add_log(said, "you")
            self.invalidate()

        self.hint_task = asyncio.ensure_future(shown())
        return True

    async def tick(self) -> None:
        """Redraw each second while a clock runs, so the clocks count down on the screen."""
        while True:
            state = self.state
            running = state.table is not None and state.table.clock is not None
            if running and state.table is not None and state.table.clock is not None:
                seat = state.table.clock.running
                left = None if seat is None else state.clock_left(seat)
                if left is not None and state.game_running:
                    self.app.invalidate()
                    await asyncio.sleep(min(max(left % 1.0, 0.05), 1.0) + 0.01)
                    continue
            await asyncio.sleep(0.5)

    def quick(self, make: Callable[[], str | None]) -> None:
        """A key for a frequent action: the same check as a typed command."""
        if self.state.screen != "game" or self.state.help_open:
            return
        text = make()
        if text is None:
            self.state.say(_("There is no such card in the face-up row."), "error")
            self.invalidate()
            return
        self.submit(text)

    def _face_up(self, index: int) -> str | None:
        pub = self.state.public
        if pub is None or index >= len(pub.face_up):
            return None
        return f"take {ISLANDS[pub.face_up[index]]}"

    def save(self, name: str) -> Path | None:
        """Write the game. A finished game: its full record, asked of the server (get_record)
        and written when it comes (see `received`); a game under way: the client's transcript
        (the commands sent and the log), since a record would show the hidden cards. Returns the
        file written now, None when nothing was written (yet)."""
        state = self.state
        if not state.transcript or state.table_id is None:
            state.say(_("Nothing to save yet."), "error")
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = Path(name) if name else self.save_dir / f"kahuna-{state.table_id}-{stamp}.kahuna.txt"
        over = state.public is not None and state.public.result is not None
        if not over:
            return self._write(path, self.transcript_text(), record=False)
        if self.send(GetRecord(state.table_id)):
            self.saving = (state.table_id, path)
            state.say(_("Asking the server for the game record..."))
            return None
        written = self._write(path, self.transcript_text(), record=False)
        if written is not None:
            state.say(
                _(
                    "Not connected: saved the transcript to {path};"
                    " 'save' again once connected writes the full record."
                ).format(path=path),
                "error",
            )
        return written

    def received(self, msg: ServerMessage) -> None:
        """A message from the server, after the state has taken it: the record asked for."""
        if self.saving is None:
            return
        table_id, path = self.saving
        if isinstance(msg, Record) and msg.table_id == table_id:
            self.saving = None
            self._write(path, msg.text, record=True)
        elif isinstance(msg, Error) and msg.refused == GetRecord.TYPE:
            self.saving = None
            if self._write(path, self.transcript_text(), record=False) is not None:
                self.state.say(
                    _(
                        "The server gave no record ({reason}): saved the transcript to {path}"
                    ).format(reason=error_sentence(msg), path=path),
                    "error",
                )
        self.invalidate()

    def _write(self, path: Path, text: str, record: bool) -> Path | None:
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.state.say(_("Could not save: {reason}").format(reason=exc), "error")
            return None
        if record:
            self.state.say(_("Saved the game record to {path}").format(path=path))
        else:
            self.state.say(_("Saved the game transcript to {path}").format(path=path))
        return path

    def transcript_text(self) -> str:
        state = self.state
        lines = [
            "# " + _("Kahuna game transcript (the client's log: commands sent and what happened)"),
            "# "
            + _("table {table}; you: {name} ({role})").format(
                table=state.table_id, name=state.name, role=seat_word(state.role or "")
            ),
        ]
        pub = state.public
        if pub is not None:
            for seat in Seat:
                lines.append(f"# {seat_name(seat)}: {state.player_name(seat)}")
            if pub.result is not None:
                lines.append(
                    "# "
                    + _("result: {reason}; points {white}:{black}").format(
                        reason=reason_words(pub.result), white=pub.scores[0], black=pub.scores[1]
                    )
                )
        return "\n".join(lines + state.transcript) + "\n"

    def go_to_lobby(self) -> None:
        state = self.state
        table, seat = state.table_id, state.seat
        started = state.table_status != "waiting" and state.public is not None
        over = state.public is not None and state.public.result is not None
        if table is not None:
            self.send(Leave(table))
        state.leave_table()
        state.help_open = False
        self.send(LobbySubscribe())
        if table is not None and seat is not None and started and not over:
            state.say(
                _(
                    "You stepped away from table {table}: your {seat} seat waits for you"
                    " (select the table, Enter sits you down again)."
                ).format(table=table, seat=seat_name(seat))
            )
        elif table is not None and seat is not None and not started:
            state.say(
                _("You gave up your seat at table {table}. Back in the lobby.").format(table=table)
            )
        else:
            state.say(_("Back in the lobby."))
        self.invalidate()

    def quit(self) -> None:
        if self.app.is_running:
            self.app.exit()

    def ask_quit(self) -> None:
        """Quit; in a game under way, only when asked twice (the seat's token goes with us)."""
        state = self.state
        pub = state.public
        in_game = (
            state.seat is not None
            and state.table_status == "playing"
            and pub is not None
            and pub.result is None
        )
        if in_game and not self.quit_armed:
            self.quit_armed = True
            state.say(_("Quit in the middle of the game? Press Ctrl-Q again to quit."), "error")
            return
        self.quit()

    # ----- the lobby ---------------------------------------------------------------------------

    def join(self, seat: SeatName | None) -> None:
        state = self.state
        table = state.selected_table
        if table is None:
            state.say(_("No table selected: press n to create one."), "error")
            return
        confirmed = state.confirm_takeover == table.table_id
        state.confirm_takeover = None
        mine = state.my_seat(table)
        if mine is not None and seat in (None, mine[0]):
            info = table.players.white if mine[0] == "white" else table.players.black
            if info is not None and info.connected and not confirmed:
                # another client of this name sits there now: taking the seat throws it out
                state.confirm_takeover = table.table_id
                players = table.players
                free = "w" if players.white is None else "b" if players.black is None else ""
                said = _(
                    "Your {seat} seat at table {table} is in use by another client:"
                    " Enter again takes it over (the other goes to the lobby)"
                ).format(seat=role_word(mine[0]), table=table.table_id)
                if free:
                    said += "; " + _("{key} takes the free seat").format(key=free)
                state.say(said + ".", "error")
                return
            if self.send(Reclaim(table.table_id, mine[1])):
                self.send(LobbyUnsubscribe())
                state.say(
                    _("Taking your {seat} seat at table {table} back...").format(
                        seat=role_word(mine[0]), table=table.table_id
                    )
                )
            return
        if seat is None and table.players.white is not None and table.players.black is not None:
            self.spectate()
            return
        if self.send(Join(table.table_id, seat)):
            self.send(LobbyUnsubscribe())
            state.say(_("Joining table {table}...").format(table=table.table_id))

    def spectate(self) -> None:
        table = self.state.selected_table
        if table is None:
            self.state.say(_("No table selected."), "error")
            return
        if self.send(Spectate(table.table_id)):
            self.send(LobbyUnsubscribe())
            self.state.say(_("Watching table {table}...").format(table=table.table_id))

    def create(self) -> None:
        form = self.state.form
        options = TableOptions(
            form.variant1, form.variant2, form.handicap_seat, form.handicap_bridges
        )
        msg = CreateTable(
            options,
            form.vs_computer,
            form.seat,
            form.first,
            clock=form.clock,
            level=form.level,
            hints=form.hints,
        )
        if self.send(msg):
            self.send(LobbyUnsubscribe())
            self.state.form_open = False
            self.state.say(_("Creating the table..."))
        else:
            self.state.say(_("Not connected."), "error")

    # ----- keys --------------------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        state = self.state
        game = Condition(lambda: state.screen == "game")
        lobby = Condition(lambda: state.screen == "lobby" and not state.form_open)
        form = Condition(lambda: state.screen == "lobby" and state.form_open)

        @kb.add("c-q")
        def _quit(event: KeyPressEvent) -> None:
            self.ask_quit()

        @kb.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            if state.screen == "game" and self.buffer.text:
                self.buffer.reset()  # Ctrl-C clears a command line, as in a shell
            else:
                self.ask_quit()

        @kb.add("f1")
        def _help(event: KeyPressEvent) -> None:
            if state.screen == "lobby":
                state.say(_("Lobby: {keys}").format(keys=_(LOBBY_KEYS)))
            else:
                state.help_open, state.help_page = not state.help_open, 0

        @kb.add("escape", filter=Condition(lambda: state.help_open), eager=True)
        def _close_help(event: KeyPressEvent) -> None:
            state.help_open = False

        quick_keys: list[tuple[tuple[str, ...], Callable[[], str | None]]] = [
            (("f2",), lambda: "draw"),
            (("escape", "d"), lambda: "draw"),
            (("f3",), lambda: self._face_up(0)),
            (("escape", "1"), lambda: self._face_up(0)),
            (("f4",), lambda: self._face_up(1)),
            (("escape", "2"), lambda: self._face_up(1)),
            (("f5",), lambda: self._face_up(2)),
            (("escape", "3"), lambda: self._face_up(2)),
            (("f6",), lambda: "abstain"),
            (("escape", "a"), lambda: "abstain"),
            (("f7",), lambda: "end"),
            (("escape", "e"), lambda: "end"),
            (("f8",), lambda: "undo"),
            (("escape", "u"), lambda: "undo"),
        ]
        for keys, make in quick_keys:
            kb.add(*keys, filter=game)(self._quick_handler(make))

        @kb.add("tab", filter=game)
        def _complete(event: KeyPressEvent) -> None:
            buffer = self.buffer
            if buffer.complete_state is not None:
                buffer.complete_next()
                return
            # one candidate: taken at once, so that the next Tab completes the next word
            found = list(
                buffer.completer.get_completions(
                    buffer.document, CompleteEvent(completion_requested=True)
                )
            )
            if len(found) == 1:
                buffer.apply_completion(found[0])
            elif found:
                buffer.start_completion(select_first=True)

        @kb.add("enter", filter=game & completion_is_selected)
        def _accept_completion(event: KeyPressEvent) -> None:
            # Enter does what the line under the map says: with the chosen completion the
            # command is whole ("Enter plays: ..."): it is played; otherwise (a word of a
            # longer command) the completion is taken and the player goes on typing.
            self.buffer.complete_state = None
            self._text_changed(self.buffer)
            if self.preview is not None and self.preview_plays:
                self.buffer.validate_and_handle()

        @kb.add("pageup", filter=game)
        def _log_back(event: KeyPressEvent) -> None:
            if state.help_open:
                state.help_page = max(state.help_page - 1, 0)
                return
            state.log_scroll = min(state.log_scroll + 5, max(len(state.log) - 1, 0))

        @kb.add("pagedown", filter=game)
        def _log_forward(event: KeyPressEvent) -> None:
            if state.help_open:
                state.help_page = min(state.help_page + 1, 9)  # the drawing keeps it in range
                return
            state.log_scroll = max(state.log_scroll - 5, 0)

        # the lobby
        @kb.add("up", filter=lobby)
        def _up(event: KeyPressEvent) -> None:
            state.selected = max(state.selected - 1, 0)
            state.confirm_takeover = None

        @kb.add("down", filter=lobby)
        def _down(event: KeyPressEvent) -> None:
            state.selected = min(state.selected + 1, max(len(state.tables) - 1, 0))
            state.confirm_takeover = None

        @kb.add("enter", filter=lobby)
        @kb.add("j", filter=lobby)
        def _join(event: KeyPressEvent) -> None:
            self.join(None)

        @kb.add("w", filter=lobby)
        def _join_white(event: KeyPressEvent) -> None:
            self.join("white")

        @kb.add("b", filter=lobby)
        def _join_black(event: KeyPressEvent) -> None:
            self.join("black")

        @kb.add("s", filter=lobby)
        def _spectate(event: KeyPressEvent) -> None:
            self.spectate()

        @kb.add("n", filter=lobby)
        def _new(event: KeyPressEvent) -> None:
            state.form_open = True

        @kb.add("r", filter=lobby)
        def _refresh(event: KeyPressEvent) -> None:
            self.send(LobbySubscribe())

        @kb.add("q", filter=lobby)
        def _lobby_quit(event: KeyPressEvent) -> None:
            self.quit()

        # the new-table form
        @kb.add("escape", filter=form, eager=True)
        def _cancel(event: KeyPressEvent) -> None:
            state.form_open = False

        @kb.add("enter", filter=form)
        def _create(event: KeyPressEvent) -> None:
            self.create()

        @kb.add("c", filter=form)
        def _computer(event: KeyPressEvent) -> None:
            state.form.vs_computer = not state.form.vs_computer

        @kb.add("s", filter=form)
        def _seat(event: KeyPressEvent) -> None:
            state.form.seat = "black" if state.form.seat == "white" else "white"

        @kb.add("f", filter=form)
        def _first(event: KeyPressEvent) -> None:
            order: tuple[FirstName, ...] = ("white", "black", "random")
            state.form.first = order[(order.index(state.form.first) + 1) % 3]

        @kb.add("1", filter=form)
        def _v1(event: KeyPressEvent) -> None:
            state.form.variant1 = not state.form.variant1

        @kb.add("2", filter=form)
        def _v2(event: KeyPressEvent) -> None:
            state.form.variant2 = not state.form.variant2

        @kb.add("h", filter=form)
        def _handicap(event: KeyPressEvent) -> None:
            state.form.cycle_handicap()

        @kb.add("t", filter=form)
        def _clock(event: KeyPressEvent) -> None:
            state.form.cycle_clock()

        @kb.add("l", filter=form)
        def _level(event: KeyPressEvent) -> None:
            state.form.cycle_level()

        @kb.add("i", filter=form)
        def _hints(event: KeyPressEvent) -> None:
            state.form.hints = not state.form.hints

        return kb

    def _quick_handler(self, make: Callable[[], str | None]) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            self.quick(make)

        return handler


class Client:
    """The application and its connection to one server, run together."""

    def __init__(
        self,
        url: str,
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
    ) -> None:
        self.state = state
        self.url = url
        self.seats = seats
        self.done = False
        self.outer_on_message = on_message
        if seats is not None:
            state.saved_seats = seats.seats(url, state.name)
        self.ui = KahunaApp(
            state,
            self.send,
            input=input,
            output=output,
            color_depth=color_depth,
            save_dir=save_dir,
            theme=theme,
            hint_iterations=hint_iterations,
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
        if store is not None:
            if isinstance(msg, Joined):
                store.remember(self.url, msg.table_id, msg.seat, msg.token, state.name)
            elif isinstance(msg, TableNote) and msg.note == "rematch_started":
                # the game there is over and its seat is done with: the new table's token
                # (the joined that follows) is the one to keep
                store.forget(self.url, msg.table_id, state.name)
            elif isinstance(msg, TableClosed) or (
                isinstance(msg, Error)
                and msg.code in ("bad_token", "no_such_table")
                and msg.table_id is not None
            ):
                assert msg.table_id is not None
                # a closed table is no one's; a refused token was this name's
                store.forget(
                    self.url, msg.table_id, None if isinstance(msg, TableClosed) else state.name
                )
            elif isinstance(msg, Lobby):
                listed = {t.table_id for t in msg.tables}
                for table_id in list(store.seats(self.url)):
                    if table_id not in listed and table_id != state.table_id:
                        store.forget(self.url, table_id)
            state.saved_seats = store.seats(self.url, state.name)
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
