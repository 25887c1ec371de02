"""kahuna-client --tutorial: the rules taught on the real board, one short lesson at a time.

Each lesson (catalogue/lessons.py, the page's lessons too) is a position and the moves it
expects. The player types each move in the game's notation (Tab completes the legal ones); the
right move is played and explained, any other is refused with the lesson's reason (and the
rules' reason when the rules refuse it too). `hint` tells the move, `next` and `back` (PgDn,
PgUp) change the lesson, `again` starts it over, `quit` (Ctrl-Q) leaves.

The states after each expected move come from client.screens.replay's timeline of the lesson's
record, so the tutorial shows exactly what the engine does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import ColorDepth, Output

from catalogue.lessons import LESSONS, Lesson
from client.language.command_words import canonical, in_words
from client.language.i18n import _, pgettext
from client.language.words import rules_words, seat_name
from client.model.commands import complete
from client.screens.board_map import SEAT_STYLE, TOKEN_CHAR
from client.screens.canvas import Canvas, Fragment
from client.screens.replay import (
    Timeline,
    board_screen,
    game_over_rows,
    hand_rows,
    timeline,
    wrap_rows,
)
from client.screens.screen import (
    CanvasControl,
    color_depth_for,
    complete_or_cycle,
    full_screen_application,
    not_a_terminal,
    with_completions,
)
from client.screens.side_panel import face_up_row
from shared.actions import NotationError, parse_action
from shared.game import Game
from shared.record import read_record
from shared.types import Seat
from shared.views import seat_view

COMMANDS = ("hint", "next", "back", "again", "quit")
ALIASES = {"next": ("n",), "back": ("previous", "b"), "again": ("restart",), "quit": ("exit", "q")}


def lessons() -> tuple[Lesson, ...]:
    """Every lesson, in order, its words in the chosen language."""
    return tuple(lesson.in_language(_) for lesson in LESSONS)


def tutorial_words() -> dict[str, str]:
    """Each word of the tutorial -> that word in the chosen language ('hint' and 'quit' are the
    game's command words; the English words work in every language, as the notation does)."""
    words = {
        "hint": pgettext("command", "hint"),
        "next": pgettext("tutorial", "next"),
        "back": pgettext("tutorial", "back"),
        "again": pgettext("tutorial", "again"),
        "quit": pgettext("command", "quit"),
    }
    return {k: v.lower() for k, v in words.items()}


def tutorial_word(line: str) -> str | None:
    """The tutorial's word (in English) that the line is, or None for a move."""
    typed = line.strip().lower()
    for key, local in tutorial_words().items():
        if typed in (key, local, *ALIASES.get(key, ())):
            return key
    return None


class Tutorial:
    """The lessons, where the player is in them, and what the screen says. No I/O."""

    def __init__(self, chosen: Sequence[Lesson] | None = None) -> None:
        self.lessons = tuple(chosen) if chosen is not None else lessons()
        self.index = 0
        self.quit = False
        self.open(0)

    # ----- where we are ------------------------------------------------------------------------

    def open(self, index: int) -> None:
        """Start lesson `index` from its position."""
        self.index = min(max(index, 0), len(self.lessons) - 1)
        lesson = self.lesson
        text = lesson.record()
        self.timeline: Timeline = timeline(read_record(text), text)
        self.step = 0
        self.told: list[tuple[str, str]] = [("class:title", lesson.title), ("", lesson.intro)]
        self.ask()

    @property
    def lesson(self) -> Lesson:
        return self.lessons[self.index]

    @property
    def game(self) -> Game:
        return self.timeline.steps[self.step].game

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)

    @property
    def last_lesson(self) -> bool:
        return self.index == len(self.lessons) - 1

    def say(self, text: str, kind: str = "info") -> None:
        self.message, self.message_kind = text, kind

    def ask(self) -> None:
        if not self.finished:
            self.say(self.lesson.steps[self.step].ask, "you")
        elif self.last_lesson:
            self.say(_("That was the last lesson. 'again' plays it again; 'quit' leaves."), "you")
        else:
            self.say(_("Lesson done. Type 'next' (or PgDn) for the next one."), "you")

    # ----- what the player types ---------------------------------------------------------------

    def submit(self, text: str) -> bool:
        """Do what the line says; False when it was a move refused (the line stays)."""
        line = text.strip()
        if not line:
            return True
        word = tutorial_word(line)
        if word == "next":
            self.next()
        elif word == "back":
            self.back()
        elif word == "again":
            self.open(self.index)
        elif word == "quit":
            self.quit = True
        elif word == "hint":
            self.hint()
        else:
            return self.play(line)
        return True

    def next(self) -> None:
        if self.last_lesson:
            self.say(_("This is the last lesson."), "error")
        else:
            self.open(self.index + 1)

    def back(self) -> None:
        if self.index == 0:
            self.say(_("This is the first lesson."), "error")
        else:
            self.open(self.index - 1)

    def hint(self) -> None:
        if self.finished:
            self.ask()
            return
        step = self.lesson.steps[self.step]
        self.say(_("Type: {move}").format(move=in_words(step.action)), "you")

    def play(self, text: str) -> bool:
        """The player's move: the lesson's next one is played, any other refused."""
        if self.finished:
            self.ask()
            self.say(self.message + " " + _("(The lesson's moves are all played.)"), "error")
            return False
        step = self.lesson.steps[self.step]
        words = canonical(text).split()
        if words and words[0].lower() in ("white", "black"):  # as a record writes it
            words = words[1:]
        try:
            action = parse_action(" ".join(words))
        except NotationError as exc:
            self.say(
                _("That is not a move: {reason}. {why}").format(
                    reason=rules_words(str(exc)), why=step.why
                ),
                "error",
            )
            return False
        if action != parse_action(step.action):
            reason = self.game.why_illegal(action)
            if reason is not None:
                said = _("Not allowed: {reason}. {why}").format(
                    reason=rules_words(reason), why=step.why
                )
            else:
                said = _("A legal move, but not the one this lesson means. {why}").format(
                    why=step.why
                )
            self.say(said, "error")
            return False
        self.step += 1
        who = seat_name(Seat.parse(step.seat))
        self.told.append(("class:log.you", f"{who}: {in_words(step.action)}"))
        self.told.append(("", step.done))
        if self.finished:
            self.told.append(("class:title", self.lesson.outro))
        self.ask()
        if self.finished:
            self.say(step.done + " " + self.message, "you")
        else:
            self.say(step.done + " " + _("Next: {ask}").format(ask=self.message), "you")
        return True

    # ----- the screen --------------------------------------------------------------------------

    def title(self) -> str:
        return _("tutorial · lesson {i} of {n}: {title}").format(
            i=self.index + 1, n=len(self.lessons), title=self.lesson.title
        )

    def panel(self, width: int) -> list[list[Fragment]]:
        """A short panel: the players' points, tokens and hands, the row and the pile."""
        game = self.game
        out: list[list[Fragment]] = []
        for seat in Seat:
            mover = game.to_move is seat and game.result is None
            out.append(
                [
                    (SEAT_STYLE[seat] + " class:seatname", f"{TOKEN_CHAR[seat]} {seat_name(seat)}"),
                    (
                        "",
                        "  "
                        + _("{p} pt, tokens {t}").format(
                            p=game.scores[seat], t=game.tokens[seat].bit_count()
                        ),
                    ),
                    ("class:arrow", " ◀" if mover else ""),
                ]
            )
            out += hand_rows(game, seat, width)
        if game.result is not None:
            out += game_over_rows(game.result, width)
        out.append(face_up_row(game.face_up))
        out.append(
            [
                ("class:label", _("Pile") + " "),
                ("", str(len(game.pile))),
                ("class:label", " · " + _("round") + " "),
                ("", f"{game.round}"),
            ]
        )
        return out

    def log(self, width: int) -> list[list[Fragment]]:
        rows: list[list[Fragment]] = []
        for style, text in self.told:
            rows += wrap_rows(text, width, style)
        return rows

    def draw(self, width: int, height: int) -> Canvas:
        style = {"error": "class:msg.error", "you": "class:msg.you"}.get(
            self.message_kind, "class:msg"
        )
        return board_screen(
            self.game,
            self.title(),
            self.panel,
            self.log,
            self.message,
            width,
            height,
            recent=self.timeline.steps[self.step].changed_lines,
            message_style=style,
            log_title=_("lesson"),
        )

    def prompt(self) -> str:
        if self.finished:
            return "> "
        return _("{seat}'s move> ").format(seat=seat_name(self.game.to_move))


class MoveCompleter(Completer):
    """Tab completes the legal moves of the player to move, and the tutorial's words."""

    def __init__(self, tutorial: Tutorial) -> None:
        self.tutorial = tutorial

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        game = self.tutorial.game
        before = document.text_before_cursor
        if game.result is None and not self.tutorial.finished:
            view = seat_view(game, game.to_move)
            for cand in complete(before, view):
                yield Completion(
                    cand.text + " ", cand.start, display=cand.text, display_meta=cand.meta
                )
        typed = before.strip().lower()
        if typed and " " not in typed:
            local = tutorial_words()
            found = [local[key] for key in COMMANDS if local[key].startswith(typed)]
            found = found or [key for key in COMMANDS if key.startswith(typed)]  # English typed
            for word in dict.fromkeys(found):
                yield Completion(word, -len(typed))


def keys_line() -> str:
    return " " + _("type the move  Tab completes  hint  PgDn next  PgUp back  again  ^Q quit")


def tutorial_application(
    tutorial: Tutorial,
    *,
    input: Input | None = None,
    output: Output | None = None,
    color_depth: ColorDepth | None = None,
    theme: str = "dark",
) -> Application[None]:
    def accept(buffer: Buffer) -> bool:
        buffer.complete_state = None  # the menu closes, whatever became of the line
        kept = not tutorial.submit(buffer.text)
        if tutorial.quit:
            app.exit()
        return kept  # a refused move stays on the line, to be corrected

    buffer = Buffer(
        multiline=False,
        completer=MoveCompleter(tutorial),
        complete_while_typing=False,
        accept_handler=accept,
    )
    command_line = Window(
        BufferControl(
            buffer, input_processors=[BeforeInput(tutorial.prompt, style="class:prompt")]
        ),
        height=1,
    )
    kb = KeyBindings()

    @kb.add("c-q")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    @kb.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        if buffer.text:
            buffer.reset()
        else:
            event.app.exit()

    @kb.add("pagedown")
    def _next(event: KeyPressEvent) -> None:
        buffer.reset()
        tutorial.next()

    @kb.add("pageup")
    def _back(event: KeyPressEvent) -> None:
        buffer.reset()
        tutorial.back()

    @kb.add("tab")
    def _complete(event: KeyPressEvent) -> None:
        complete_or_cycle(buffer)

    body = HSplit(
        [
            Window(CanvasControl(tutorial.draw)),
            command_line,
            Window(FormattedTextControl(keys_line), height=1, style="class:hints"),
        ]
    )
    app: Application[None] = full_screen_application(
        Layout(with_completions(body), focused_element=command_line),
        kb,
        theme=theme,
        input=input,
        output=output,
        color_depth=color_depth,
    )
    return app


def tutorial_main(
    *,
    no_color: bool = False,
    theme: str = "dark",
    input: Input | None = None,
    output: Output | None = None,
) -> int:
    """kahuna-client --tutorial: 0 once the player leaves (2 without a terminal)."""
    if input is None and not_a_terminal():
        return 2
    tutorial = Tutorial()
    app = tutorial_application(
        tutorial, input=input, output=output, color_depth=color_depth_for(no_color), theme=theme
    )
    with contextlib.suppress(EOFError):
        app.run()
    return 0
