"""The full-screen prompt-toolkit application of the lobby and game screens.

Drawing is done by client.screens.render on a canvas of the window's size; this module wires the
canvas, the command line (a prompt-toolkit Buffer with completion and history) and the keys
(client/screens/keys.py) to the client state and to a `send` function that hands messages to the
connection. What a typed line asks is decided by client/model/commands.py; the table's requests,
the lobby's actions and saving are client/screens/table_requests.py, client/screens/lobby_actions.py
and client/screens/saving.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.layout.containers import WindowAlign
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput, ConditionalProcessor, PasswordProcessor
from prompt_toolkit.output import ColorDepth, Output

from client.language.command_words import in_words, local_words
from client.language.i18n import _
from client.model.commands import Outcome, interpret
from client.model.hint import suggest
from client.model.sending import Send
from client.model.state import ClientState, too_long_chat
from client.screens import table_requests
from client.screens.canvas import Canvas, fit_keys
from client.screens.command_line import (
    CommandCompleter,
    confirms_resign,
    declines_resign,
    highlighted_lines,
    preview,
)
from client.screens.help_screen import RULES_PAGES, render_lobby_help
from client.screens.keys import key_bindings
from client.screens.lobby_actions import leave_table
from client.screens.lobby_line import LobbyLine
from client.screens.lobby_screen import (
    ACCOUNT_KEYS,
    CHALLENGE_KEYS,
    LOBBY_KEYS,
    PANEL_KEYS,
    form_keys,
    render_lobby,
)
from client.screens.render import KEY_HINTS, render_game
from client.screens.saving import GameSaver
from client.screens.screen import CanvasControl, full_screen_application, with_completions
from client.screens.status_lines import header
from client.screens.tournaments_screen import tournament_hints
from protocol.messages import Chat, Command, Resync, ServerMessage
from protocol.moderation_messages import ReportPlayer


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
        quiet: bool = False,
    ) -> None:
        self.state = state
        self.send = send
        self.quiet = quiet  # no bell, no window title
        self.hint_iterations = hint_iterations  # a fixed budget (tests); None: about 0.2 s
        self.hint_task: asyncio.Future[None] | None = None
        self.saver = GameSaver(state, send, save_dir or Path.cwd())
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
        # the lobby's command line (version 3), its password asked without echo
        self.lobby = LobbyLine(state, send, save_dir or Path.cwd(), self.ring)
        self.lobby.invalidate = self.invalidate
        # a password is not shown; the account's name typed to delete it is
        asking = Condition(
            lambda: self.lobby.asking is not None and self.lobby.asking[0] != "delete_confirm"
        )
        self.lobby_line = Window(
            BufferControl(
                self.lobby.buffer,
                input_processors=[
                    ConditionalProcessor(PasswordProcessor(), asking),
                    BeforeInput(self.lobby.prompt, style="class:prompt"),
                ],
            ),
            height=1,
        )
        in_game = Condition(lambda: self.state.screen == "game")
        lobby_typing = Condition(lambda: self.state.screen == "lobby" and self.lobby.typing)
        body = HSplit(
            [
                ConditionalContainer(self.game_screen, filter=in_game),
                ConditionalContainer(self.lobby_screen, filter=~in_game),
                ConditionalContainer(self.command_line, filter=in_game),
                ConditionalContainer(self.lobby_line, filter=lobby_typing),
                Window(
                    FormattedTextControl(self._hints),
                    height=1,
                    style="class:hints",
                    align=WindowAlign.LEFT,
                ),
            ]
        )
        self.app: Application[None] = full_screen_application(
            Layout(with_completions(body), focused_element=self.lobby_screen),
            key_bindings(self),
            theme=theme,
            input=input,
            output=output,
            color_depth=color_depth,
        )
        self.sync_focus()
        # a key may open or close the lobby's command line: the focus follows before each drawing
        self.app.before_render += lambda _app: self.sync_focus()
        self.app.before_render += lambda _app: self.unscroll()

    # ----- drawing ---------------------------------------------------------------------------

    def _draw_game(self, width: int, height: int) -> Canvas:
        self._text_changed(self.buffer)  # the position may have changed under the typed line
        return render_game(self.state, width, height, self.highlight, self.preview)

    def _draw_lobby(self, width: int, height: int) -> Canvas:
        if self.lobby.help_open:
            canvas = Canvas(width, height)
            canvas.blit(0, 0, header(self.state, width))
            people = self.state.accounts
            help_page = render_lobby_help(
                width,
                height - 1,
                people.accounts,
                people.mail,
                people.moderation is not None,
                self.lobby.help_page,
            )
            canvas.blit(0, 1, help_page)
            return canvas
        if self.lobby.replay is not None:
            return self.lobby.replay.draw(width, height)
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
        width = self.app.output.get_size().columns
        return fit_keys(self._all_hints(), width)

    def _all_hints(self) -> str:
        if self.state.screen == "lobby":
            if self.lobby.help_open:
                return " " + _("Esc, q or F1 closes this help.")
            if self.lobby.replay is not None:
                moves = _("←→ action  ↑↓ turn  Home End  s saves the record  q back")
                return " " + moves + "  a " + _("analysis")
            if self.lobby.typing:
                return " " + _("Enter sends   Esc cancels")
            if self.state.form_open:
                return " " + _("{keys} change an option   Enter create   Esc cancel").format(
                    keys=form_keys(self.state)
                )
            if self.state.tournaments.view is not None:
                return " " + tournament_hints(self.state)
            if self.state.accounts.panel == "challenges":
                return " " + _(CHALLENGE_KEYS)
            if self.state.accounts.panel != "tables":
                return " " + _(PANEL_KEYS)
            if self.state.accounts.accounts:
                return " " + _(ACCOUNT_KEYS)
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
        over = self.state.public is not None and self.state.public.result is not None
        if over and self.state.table is not None and self.state.table.tournament is not None:
            return " " + _("{lobby} leaves the table   {save} keeps it   ^Q quit").format(
                lobby=words["lobby"], save=words["save"]
            )  # a tournament's game has no rematch: the tournament pairs the next
        if over:
            return " " + _(
                "{rematch} plays again   {lobby} leaves the table   {save} keeps it   ^Q quit"
            ).format(rematch=words["rematch"], lobby=words["lobby"], save=words["save"])
        return " " + _(KEY_HINTS)

    def invalidate(self) -> None:
        self.sync_focus()
        self.app.invalidate()

    def open_lobby_line(self, text: str) -> None:
        """The lobby's command line, focused at once: what is typed next goes into it."""
        self.lobby.open(text)
        self.sync_focus()

    def unscroll(self) -> None:
        """A long line scrolls its window sideways, and prompt-toolkit keeps that scroll for the
        next line: a short one (a password's prompt after a long chat line) is shown from its
        first character again."""
        width = self.app.output.get_size().columns
        for window, prompt, buffer in (
            (self.lobby_line, self.lobby.prompt(), self.lobby.buffer),
            (self.command_line, self._prompt(), self.buffer),
        ):
            if len(prompt) + len(buffer.text) < width:
                window.horizontal_scroll = 0

    def sync_focus(self) -> None:
        if self.state.screen == "game":
            want = self.command_line
        elif self.lobby.typing:
            want = self.lobby_line
        else:
            want = self.lobby_screen
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
        self.preview = preview(outcome)
        self.preview_plays = outcome.kind == "action"

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text
        self.preview, self.highlight = None, []
        kept = not self.submit(text)
        if kept:
            self._text_changed(buffer)  # the line stays, and so does what is said about it
        return kept  # a line done with is cleared (the history keeps it); a refused one stays

    def accept_completion(self) -> None:
        """Enter on a chosen completion does what the line under the map says: with it the
        command is whole ("Enter plays: ..."): it is played; otherwise (a word of a longer
        command) the completion is taken and the player goes on typing."""
        self.buffer.complete_state = None
        self._text_changed(self.buffer)
        if self.preview is not None and self.preview_plays:
            self.buffer.validate_and_handle()

    def submit(self, text: str) -> bool:
        """Do what a typed line asks; a game command only if it is legal now. False when it
        was refused or could not be sent: the command line keeps it, to be corrected."""
        state = self.state
        self.quit_armed = False
        if state.resign_armed:
            state.resign_armed = False
            if confirms_resign(text):
                return self.table_message(Outcome("resign", "confirmed"))
            state.say(_("You play on: not resigned."))
            if declines_resign(text):
                self.invalidate()
                return True
        outcome = interpret(text, state.seat_view, state.public, state.table, state.table_status)
        done = False
        if outcome.kind == "none":
            return True
        if outcome.kind in table_requests.TABLE_KINDS:
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
                state.note_sent(outcome.text)
                state.say(_("Sent: {command}").format(command=outcome.text))
                done = True
            else:
                state.say(_("Not connected: the command was not sent. Reconnecting..."), "error")
        elif outcome.kind == "chat":
            if state.table_id is None:
                state.say(_("Chat is for tables."), "error")
            elif len(outcome.text) > state.max_chat:  # kept on the line, to be shortened
                state.say(too_long_chat(outcome.text, state.max_chat), "error")
            elif not self.send(Chat(state.table_id, outcome.text)):
                state.say(_("Not connected: the message was not sent."), "error")
            else:
                done = True
        else:
            done = True
        if outcome.kind == "help":
            state.help_open, state.help_page = True, RULES_PAGES  # the commands
        elif outcome.kind == "save":
            self.saver.save(outcome.text)
        elif outcome.kind == "lobby":
            leave_table(state, self.send)
        elif outcome.kind == "resync":
            if state.table_id is not None:
                self.send(Resync(state.table_id))
        elif outcome.kind == "report":
            name, reason = outcome.text.split(None, 1)
            if not self.send(ReportPlayer(name, reason, state.table_id)):
                state.say(_("Not connected: the report was not sent."), "error")
        elif outcome.kind == "analyse":
            self.lobby.replay_over_table()
        elif outcome.kind == "quit":
            self.ask_quit()
        self.invalidate()
        return done

    def table_message(self, outcome: Outcome) -> bool:
        """resign (asked first), offer draw / accept, decline, claim, rematch; hint."""
        if self.state.table_id is None:
            self.state.say(_("You are not at a table."), "error")
            return False
        if outcome.kind == "hint":
            return self.hint()
        done = table_requests.request(self.state, self.send, outcome)
        self.invalidate()
        return done

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
            said = _("Hint: {play}: {why}").format(play=in_words(str(action)), why=why)
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

    def received(self, msg: ServerMessage) -> None:
        """A message from the server, after the state has taken it: the record asked for."""
        self.lobby.table_entered()
        if self.lobby.received(msg) or self.saver.received(msg):
            self.invalidate()
        elif self.state.accounts.attention is not None:
            self.ring(self.state.accounts.attention)
            self.state.accounts.attention = None

    def ring(self, why: str) -> None:
        """Something wants the player (their move in a game of days, a challenge, time running
        out): the terminal's bell, and the window's title says it. Not with --quiet."""
        if self.quiet or not self.app.is_running:
            return
        output = self.app.output
        output.set_title(f"Kahuna: {why}")
        output.bell()
        output.flush()

    def quit(self) -> None:
        if self.app.is_running:
            self.app.exit()

    def ask_quit(self, key: str = "Ctrl-Q") -> None:
        """Quit; at a game under way (playing or watching) only when asked twice, the second
        time with the same key or the other: one behaviour for Ctrl-Q and Ctrl-C, which the
        question names."""
        state = self.state
        pub = state.public
        in_game = (
            state.table_id is not None
            and state.table_status == "playing"
            and pub is not None
            and pub.result is None
        )
        if in_game and not self.quit_armed:
            self.quit_armed = True
            state.say(
                _("Quit in the middle of the game? Press {key} again to quit.").format(key=key),
                "error",
            )
            return
        self.quit()
