"""What the client's full-screen views share (the game and lobby, the replay, the tutorial, the
server picker): a canvas shown in a window, the application's set-up, the Tab key of a command
line, and the checks of the terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, cast

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import AnyContainer, Float, FloatContainer, Layout, UIContent, UIControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.output import ColorDepth, Output

from client.screens.canvas import Canvas
from client.screens.themes import style_for


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


def full_screen_application(
    layout: Layout,
    key_bindings: KeyBindings,
    *,
    theme: str,
    input: Input | None,
    output: Output | None,
    color_depth: ColorDepth | None,
) -> Application[Any]:
    """The application of a view: the whole terminal, in the theme's colours, no mouse."""
    return Application(
        layout=layout,
        key_bindings=key_bindings,
        style=style_for(theme),
        full_screen=True,
        input=input,
        output=output,
        color_depth=color_depth,
        mouse_support=False,
    )


def with_completions(body: AnyContainer) -> FloatContainer:
    """The body with the menu of a command line's completions floating at its cursor."""
    return FloatContainer(
        body, floats=[Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))]
    )


def complete_or_cycle(buffer: Buffer) -> None:
    """The Tab key of a command line: the next completion when the menu is open; else the one
    candidate taken at once (so that the next Tab completes the next word), or the menu of
    them, the first chosen."""
    if buffer.complete_state is not None:
        buffer.complete_next()
        return
    found = list(
        buffer.completer.get_completions(buffer.document, CompleteEvent(completion_requested=True))
    )
    if len(found) == 1:
        buffer.apply_completion(found[0])
    elif found:
        buffer.start_completion(select_first=True)


def not_a_terminal() -> bool:
    """True (after saying so) when the full screen cannot be drawn."""
    for stream, what in ((sys.stdin, "standard input"), (sys.stdout, "standard output")):
        if not stream.isatty():
            print(
                f"kahuna-client: {what} is not a terminal: kahuna-client is a full-screen"
                " program; run it in a terminal (see --help)",
                file=sys.stderr,
            )
            return True
    return False


def color_depth_for(no_color: bool) -> ColorDepth | None:
    """One bit (no colours) for --no-color or NO_COLOR; else the terminal's own."""
    return ColorDepth.DEPTH_1_BIT if no_color or os.environ.get("NO_COLOR") else None
