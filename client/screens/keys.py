"""The keys of the lobby and game screens, grouped by what they do. Each group adds its keys to
the bindings in turn: where two keys are the same, prompt-toolkit takes the last one added
whose filter holds, so the order of the groups is kept as it is."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition, Filter, completion_is_selected
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from client.language.i18n import _
from client.model.sending import Send
from client.model.state import ClientState
from client.model.table_form import CreateForm
from client.screens.analysis_view import start_analysis
from client.screens.lobby_actions import create, join, spectate
from client.screens.lobby_line import LobbyLine
from client.screens.lobby_screen import form_keys
from client.screens.screen import complete_or_cycle
from client.screens.tournament_keys import tournament_keys
from protocol.messages import LobbySubscribe
from shared.board import ISLANDS


class Controls(Protocol):
    """What the keys act on: the application (client/screens/app.py)."""

    state: ClientState
    buffer: Buffer
    send: Send
    lobby: LobbyLine

    def ask_quit(self, key: str = "Ctrl-Q") -> None: ...

    def quit(self) -> None: ...

    def quick(self, make: Callable[[], str | None]) -> None: ...

    def accept_completion(self) -> None: ...

    def open_lobby_line(self, text: str) -> None: ...

    def invalidate(self) -> None: ...


def key_bindings(ui: Controls) -> KeyBindings:
    kb = KeyBindings()
    state = ui.state
    game = Condition(lambda: state.screen == "game")
    line = ui.lobby
    in_lobby = Condition(
        lambda: (
            state.screen == "lobby"
            and not state.form_open
            and not line.typing
            and line.replay is None
            and not line.help_open
        )
    )
    touring = Condition(lambda: state.tournaments.view is not None)
    shown = in_lobby & touring  # the tournaments' screen, over the tables and panels
    free = in_lobby & ~touring
    lobby = free & Condition(lambda: state.accounts.panel == "tables")
    panel = free & Condition(lambda: state.accounts.panel != "tables")
    form = Condition(lambda: state.screen == "lobby" and state.form_open)
    _program_keys(kb, ui)
    _quick_keys(kb, ui, game)
    _command_line_keys(kb, ui, game)
    _page_keys(kb, state, game)
    _lobby_keys(kb, ui, lobby)
    _form_keys(kb, ui, form)
    _account_keys(kb, ui, free, panel)
    accounts = free & Condition(lambda: state.accounts.accounts)
    tournament_keys(kb, state, ui.send, shown, accounts, ui.open_lobby_line, line.open_record)
    return kb


def _account_keys(kb: KeyBindings, ui: Controls, lobby: Filter, panel: Filter) -> None:
    """Version 3: the lobby's command line, the players' panels, an archived game replayed."""
    state, line = ui.state, ui.lobby
    accounts = lobby & Condition(lambda: state.accounts.accounts)
    typing = Condition(lambda: state.screen == "lobby" and line.typing)
    replaying = Condition(lambda: state.screen == "lobby" and line.replay is not None)
    kb.add(":", filter=accounts)(_on(lambda: ui.open_lobby_line("")))
    kb.add("'", filter=accounts)(_on(lambda: ui.open_lobby_line("'")))
    kb.add("g", filter=accounts)(_on(lambda: line.show("games")))
    kb.add("R", filter=accounts)(_on(lambda: line.show("ratings")))
    kb.add("c", filter=accounts)(_on(lambda: line.show("challenges")))
    kb.add("escape", filter=typing, eager=True)(_on(line.cancel))
    kb.add("escape", filter=panel, eager=True)(_on(lambda: state.accounts.open("tables")))
    kb.add("up", filter=panel)(_on(lambda: state.accounts.move(-1)))
    kb.add("down", filter=panel)(_on(lambda: state.accounts.move(1)))
    kb.add("enter", filter=panel)(_on(line.open_selected))
    kb.add("x", filter=panel)(_on(line.refuse_selected))
    kb.add("q", filter=panel)(_on(lambda: _back_to_tables(state)))
    moves: dict[str, Callable[[], None]] = {
        "right": lambda: _replay(line, "forward"),
        "left": lambda: _replay(line, "back"),
        "down": lambda: _replay(line, "turn_forward"),
        "pagedown": lambda: _replay(line, "turn_forward"),
        "up": lambda: _replay(line, "turn_back"),
        "pageup": lambda: _replay(line, "turn_back"),
        "home": lambda: _replay(line, "home"),
        "end": lambda: _replay(line, "end"),
        "s": line.save_replay,
        "a": lambda: _analyse(line, ui),
        "q": lambda: _close_replay(line, ui),
        "escape": lambda: _close_replay(line, ui),
    }
    for key, move in moves.items():
        kb.add(key, filter=replaying)(_on(move))
    for number in ("1", "2", "3"):
        kb.add(number, filter=replaying)(_on(functools.partial(_round, line, int(number))))


def _close_replay(line: LobbyLine, ui: Controls) -> None:
    """Back from a replay: to the table it was opened over, whose command line takes the keys
    typed next at once (the focus follows now, not at the next drawing)."""
    line.close_replay()
    ui.invalidate()


def _analyse(line: LobbyLine, ui: Controls) -> None:
    if line.replay is not None:
        start_analysis(line.replay, ui.invalidate)


def _replay(line: LobbyLine, move: str) -> None:
    if line.replay is not None:
        getattr(line.replay, move)()


def _round(line: LobbyLine, number: int) -> None:
    if line.replay is not None:
        line.replay.round(number)


def _on(action: Callable[[], object]) -> Callable[[KeyPressEvent], None]:
    """A key's handler that does `action`."""

    def handler(event: KeyPressEvent) -> None:
        action()

    return handler


def _program_keys(kb: KeyBindings, ui: Controls) -> None:
    """Quitting and the help, on every screen."""
    state = ui.state

    @kb.add("c-q")
    def _quit(event: KeyPressEvent) -> None:
        ui.ask_quit()

    @kb.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        if state.screen == "game" and ui.buffer.text:
            ui.buffer.reset()  # Ctrl-C clears a command line, as in a shell
        else:
            ui.ask_quit("Ctrl-C")

    @kb.add("f1")
    def _help(event: KeyPressEvent) -> None:
        if state.screen == "lobby":
            # its keys and commands, a page (two where e-mail's commands make it longer)
            ui.lobby.help_open, ui.lobby.help_page = not ui.lobby.help_open, 0
        else:
            state.help_open, state.help_page = not state.help_open, 0

    lobby_help = Condition(lambda: state.screen == "lobby" and ui.lobby.help_open)
    for key in ("escape", "q"):
        kb.add(key, filter=lobby_help, eager=True)(_on(lambda: _close_lobby_help(ui.lobby)))
    kb.add("pagedown", filter=lobby_help)(_on(lambda: _turn_lobby_help(ui.lobby, 1)))
    kb.add("pageup", filter=lobby_help)(_on(lambda: _turn_lobby_help(ui.lobby, -1)))

    @kb.add("escape", filter=Condition(lambda: state.help_open), eager=True)
    def _close_help(event: KeyPressEvent) -> None:
        state.help_open = False


def _close_lobby_help(line: LobbyLine) -> None:
    line.help_open = False


def _turn_lobby_help(line: LobbyLine, step: int) -> None:
    line.help_page = min(max(line.help_page + step, 0), 9)  # the drawing keeps it in range


def face_up(state: ClientState, index: int) -> str | None:
    """The command that takes face-up card `index`; None when there is no such card."""
    pub = state.public
    if pub is None or index >= len(pub.face_up):
        return None
    return f"take {ISLANDS[pub.face_up[index]]}"


def _quick_keys(kb: KeyBindings, ui: Controls, game: Filter) -> None:
    """A key (and an Alt- key) for each frequent action: the same check as a typed command."""
    state = ui.state
    quick_keys: list[tuple[tuple[str, ...], Callable[[], str | None]]] = [
        (("f2",), lambda: "draw"),
        (("escape", "d"), lambda: "draw"),
        (("f3",), lambda: face_up(state, 0)),
        (("escape", "1"), lambda: face_up(state, 0)),
        (("f4",), lambda: face_up(state, 1)),
        (("escape", "2"), lambda: face_up(state, 1)),
        (("f5",), lambda: face_up(state, 2)),
        (("escape", "3"), lambda: face_up(state, 2)),
        (("f6",), lambda: "abstain"),
        (("escape", "a"), lambda: "abstain"),
        (("f7",), lambda: "end"),
        (("escape", "e"), lambda: "end"),
        (("f8",), lambda: "undo"),
        (("escape", "u"), lambda: "undo"),
    ]
    for keys, make in quick_keys:
        kb.add(*keys, filter=game)(_on(functools.partial(ui.quick, make)))


def _command_line_keys(kb: KeyBindings, ui: Controls, game: Filter) -> None:
    """Tab completes; Enter on a chosen completion does what the line under the map says."""
    kb.add("tab", filter=game)(_on(lambda: complete_or_cycle(ui.buffer)))
    kb.add("enter", filter=game & completion_is_selected)(_on(ui.accept_completion))


def _page_keys(kb: KeyBindings, state: ClientState, game: Filter) -> None:
    """PgUp and PgDn: the help's pages while it is open, else the log."""

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


def _lobby_keys(kb: KeyBindings, ui: Controls, lobby: Filter) -> None:
    """The list of tables: move, join (or watch), open the new-table form, refresh, quit."""
    state = ui.state

    @kb.add("up", filter=lobby)
    def _up(event: KeyPressEvent) -> None:
        state.selected = max(state.selected - 1, 0)
        state.confirm_takeover = None
        state.quit_asks = False

    @kb.add("down", filter=lobby)
    def _down(event: KeyPressEvent) -> None:
        state.selected = min(state.selected + 1, max(len(state.tables) - 1, 0))
        state.confirm_takeover = None
        state.quit_asks = False

    join_any = _on(lambda: join(state, ui.send, None))
    kb.add("j", filter=lobby)(join_any)
    kb.add("enter", filter=lobby)(join_any)
    kb.add("w", filter=lobby)(_on(lambda: join(state, ui.send, "white")))
    kb.add("b", filter=lobby)(_on(lambda: join(state, ui.send, "black")))
    kb.add("s", filter=lobby)(_on(lambda: spectate(state, ui.send)))

    @kb.add("n", filter=lobby)
    def _new(event: KeyPressEvent) -> None:
        state.form_open = True

    kb.add("r", filter=lobby)(_on(lambda: ui.send(LobbySubscribe())))
    kb.add("q", filter=lobby)(_on(lambda: _lobby_q(ui)))


def _lobby_q(ui: Controls) -> None:
    """q in the lobby quits at once, unless q has just closed a screen over it: then it asks
    once (q pressed again and again to go back from a tournament would quit unasked)."""
    state = ui.state
    if state.quit_asks:
        state.quit_asks = False
        state.say(_("These are the tables. Press q again to quit."))
    else:
        ui.quit()


def _back_to_tables(state: ClientState) -> None:
    state.accounts.open("tables")
    state.quit_asks = True


# The new-table form's keys, each changing one option.
FORM_KEYS: dict[str, Callable[[CreateForm], None]] = {
    "c": CreateForm.toggle_computer,
    "s": CreateForm.switch_seat,
    "f": CreateForm.cycle_first,
    "1": CreateForm.toggle_variant1,
    "2": CreateForm.toggle_variant2,
    "h": CreateForm.cycle_handicap,
    "t": CreateForm.cycle_clock,
    "l": CreateForm.cycle_level,
    "i": CreateForm.toggle_hints,
    "r": CreateForm.toggle_rated,
}


def _form_keys(kb: KeyBindings, ui: Controls, form: Filter) -> None:
    """The new-table form: Esc closes it, Enter creates the table, a letter changes an option."""
    state = ui.state

    @kb.add("escape", filter=form, eager=True)
    def _cancel(event: KeyPressEvent) -> None:
        state.form_open = False

    kb.add("enter", filter=form)(_on(lambda: create(state, ui.send)))
    for key, change in FORM_KEYS.items():
        kb.add(key, filter=form)(_on(functools.partial(_change_form, state, key, change)))


def _change_form(state: ClientState, key: str, change: Callable[[CreateForm], None]) -> None:
    # only an option the form shows: a hidden one changed unseen would surprise at the table
    if key in form_keys(state).split():
        change(state.form)
