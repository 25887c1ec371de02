"""The tournaments' screen's keys and what they do (version 4): T in the lobby opens the list;
Enter opens one (watched while it is shown); j, w and s join, withdraw and start it; Enter on a
game of the round goes to one's own table (resume) or watches another; q goes back."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from client.language.i18n import _
from client.model.sending import Send
from client.model.state import ClientState
from protocol.messages import ClientMessage, LobbyUnsubscribe, Spectate
from protocol.player_messages import Resume
from protocol.tournament_messages import (
    GetTournaments,
    JoinTournament,
    StartTournament,
    WatchTournament,
    WithdrawTournament,
)


def open_list(state: ClientState, send: Send) -> None:
    if send(GetTournaments()):
        state.tournaments.view = "list"
    else:
        state.say(_("Not connected."), "error")


def open_selected(state: ClientState, send: Send) -> None:
    """Enter: in the list, the tournament shown (and watched); in one, the selected game."""
    tours = state.tournaments
    if tours.view == "one":
        go_to_game(state, send)
        return
    chosen = tours.selected()
    if chosen is None:
        return
    if send(WatchTournament(chosen.tournament_id)):
        tours.view, tours.watching, tours.current = "one", chosen.tournament_id, None
        tours.game_cursor = 0


def back(state: ClientState, send: Send) -> None:
    """q: from a tournament to the list (it is watched no more), from the list to the lobby."""
    tours = state.tournaments
    if tours.view == "one":
        if tours.watching is not None:
            send(WatchTournament(tours.watching, False))
        tours.view, tours.watching, tours.current = "list", None, None
        send(GetTournaments())
    else:
        tours.view = None


def go_to_game(state: ClientState, send: Send) -> None:
    """One's own game of the round still played: its seat taken back (resume), as the lobby's
    Enter on a running game; another game played: watched."""
    tours = state.tournaments
    game = tours.selected_game()
    if game is None or game.table_id is None:
        state.say(_("No game to go to here."), "error")
        return
    me = state.accounts.account
    if game.result is not None:
        state.say(_("That game is over: g lists your games, to replay it."))
        return
    if me in (game.white, game.black):
        if send(Resume(game.table_id)):
            send(LobbyUnsubscribe())
            state.say(_("Going to table {table}...").format(table=game.table_id))
    elif send(Spectate(game.table_id)):
        send(LobbyUnsubscribe())
        state.say(_("Watching table {table}...").format(table=game.table_id))


def act(state: ClientState, send: Send, what: str) -> None:
    """j, w, s on the tournament shown: join, withdraw, start."""
    tours = state.tournaments
    ident = tours.watching
    if ident is None or tours.view != "one":
        return
    messages: dict[str, ClientMessage] = {
        "join": JoinTournament(ident),
        "withdraw": WithdrawTournament(ident),
        "start": StartTournament(ident),
    }
    said = {
        "join": _("Joining the tournament..."),
        "withdraw": _("Withdrawing from the tournament..."),
        "start": _("Starting the tournament..."),
    }
    if send(messages[what]):
        tours.asked = what
        state.say(said[what])
    else:
        state.say(_("Not connected."), "error")


def tournament_keys(
    kb: KeyBindings, state: ClientState, send: Send, shown: Filter, lobby: Filter,
    open_line: Callable[[str], None],
) -> None:  # fmt: skip
    """`shown`: the tournaments' screen has the keys; `lobby`: the lobby's tables or panels
    have them (T opens the list there)."""

    def on(action: Callable[[], object]) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            action()

        return handler

    kb.add("T", filter=lobby)(on(lambda: open_list(state, send)))
    kb.add("up", filter=shown)(on(lambda: state.tournaments.move(-1)))
    kb.add("down", filter=shown)(on(lambda: state.tournaments.move(1)))
    kb.add("enter", filter=shown)(on(lambda: open_selected(state, send)))
    kb.add("r", filter=shown)(on(lambda: send(GetTournaments())))
    kb.add("j", filter=shown)(on(lambda: act(state, send, "join")))
    kb.add("w", filter=shown)(on(lambda: act(state, send, "withdraw")))
    kb.add("s", filter=shown)(on(lambda: act(state, send, "start")))
    kb.add("q", filter=shown)(on(lambda: back(state, send)))
    kb.add("escape", filter=shown, eager=True)(on(lambda: back(state, send)))
    kb.add(":", filter=shown)(on(lambda: open_line("")))
