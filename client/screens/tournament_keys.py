"""The tournaments' screen's keys and what they do (version 4): T in the lobby opens the list;
Enter opens one (watched while it is shown); j, w and s join, withdraw and start it; Enter on a
game of the round goes to one's own table (with the seat's saved token, else resume), watches
another, or replays one that is over; q goes back. Its
director's: ←→ select a player, x removes them, D draws the round's games still played, E ends
the tournament (each of these three asked y/n first), p pauses or resumes it. A moderator's
(version 4): C and H open the command line with `closetournament ID ` or `handtournament ID `
for the tournament shown, to be finished with the reason (and the new director's name)."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from client.language.i18n import _
from client.model import moderation
from client.model.sending import Send
from client.model.state import ClientState
from protocol.messages import ClientMessage, LobbyUnsubscribe, Reclaim, Spectate
from protocol.player_messages import Resume
from protocol.tournament_messages import (
    DirectorAction,
    DirectTournament,
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


def open_selected(state: ClientState, send: Send, replay: Callable[[str], None]) -> None:
    """Enter: in the list, the tournament shown (and watched); in one, the selected game."""
    tours = state.tournaments
    if tours.view == "one":
        go_to_game(state, send, replay)
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
        state.quit_asks = True


def go_to_game(state: ClientState, send: Send, replay: Callable[[str], None]) -> None:
    """One's own game of the round still played: its seat taken back as the lobby's Enter
    does (client/screens/lobby_actions.py, `join`): with the seat's token this client saved
    (`reclaim`), else by the account (`resume`); another game played: watched; a game over:
    replayed (`replay` asks for its record)."""
    tours = state.tournaments
    game = tours.selected_game()
    if game is None or game.table_id is None:
        state.say(_("No game to go to here."), "error")
        return
    me = state.accounts.account
    if game.result is not None:
        replay(game.table_id)
        return
    if me in (game.white, game.black):
        seat = "white" if me == game.white else "black"
        saved = state.saved_seats.get(game.table_id)
        back = (
            Reclaim(game.table_id, saved[1])
            if saved is not None and saved[0] == seat
            else Resume(game.table_id)
        )
        if send(back):
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
    shown = tours.current
    if what == "withdraw" and shown is not None and shown.summary.status == "started":
        # under way there is no coming back: asked first, and what becomes of the game said
        tours.confirm = ("withdraw", None)
        state.say(_("Withdraw? You are paired no more; your game of this round goes on. y/n"))
        return
    if send(messages[what]):
        tours.asked = what
        state.say(said[what])
    else:
        state.say(_("Not connected."), "error")


def direct(state: ClientState, send: Send, action: DirectorAction) -> None:
    """x, D, E, p on the tournament shown, by its director: pause and resume at once, the
    others asked y/n first."""
    tours = state.tournaments
    me = state.accounts.account
    tours.confirm = None
    if tours.view != "one" or tours.watching is None or not tours.is_director(me):
        return
    assert tours.current is not None
    if tours.current.summary.status == "finished":
        state.say(_("The tournament is over."), "error")
        return
    if action in ("pause", "resume"):
        action = "resume" if tours.current.summary.paused else "pause"
        _send_direct(state, send, action, None)
        return
    name = None
    if action == "remove":
        name = tours.selected_player()
        if name is None:
            state.say(_("No player to remove."), "error")
            return
        question = _("Remove {name} from the tournament? y/n").format(name=name)
    elif action == "draw_round":
        question = _("End the round's games still played as draws? y/n")
    else:
        question = _("End the tournament now (its games still played drawn)? y/n")
    tours.confirm = (action, name)
    state.say(question)


def answer(state: ClientState, send: Send, yes: bool) -> None:
    """y or n to the director's question."""
    tours = state.tournaments
    asked, tours.confirm = tours.confirm, None
    if asked is None:
        return
    if not yes:
        state.say(_("Nothing done."))
    elif asked[0] == "withdraw":
        assert tours.watching is not None
        if send(WithdrawTournament(tours.watching)):
            tours.asked = "withdraw"
            state.say(_("Withdrawing from the tournament..."))
        else:
            state.say(_("Not connected."), "error")
    else:
        _send_direct(state, send, asked[0], asked[1])


def _send_direct(state: ClientState, send: Send, action: DirectorAction, name: str | None) -> None:
    tours = state.tournaments
    assert tours.watching is not None
    if not send(DirectTournament(tours.watching, action, name)):
        state.say(_("Not connected."), "error")
        return
    tours.asked, tours.asked_name = action, name
    state.say(_("Asking the server..."))


def moderate(state: ClientState, open_line: Callable[[str], None], command: str) -> None:
    """C or H on a tournament shown to a moderator: the command line, its command and the
    tournament's id typed, what else it takes (a reason; a name, then a reason) for them to
    type. A tournament over already is said so at once."""
    tours = state.tournaments
    shown = tours.current
    if tours.view != "one" or shown is None or state.accounts.moderation is None:
        return
    if shown.summary.status == "finished":
        state.say(_("The tournament is over."), "error")
        return
    word = moderation.local_words()[command]
    open_line(f"{word} {shown.summary.tournament_id} ")


def tournament_keys(
    kb: KeyBindings, state: ClientState, send: Send, shown: Filter, lobby: Filter,
    open_line: Callable[[str], None], replay: Callable[[str], None],
) -> None:  # fmt: skip
    """`shown`: the tournaments' screen has the keys; `lobby`: the lobby's tables or panels
    have them (T opens the list there); `replay` asks for a finished game's record."""

    def on(action: Callable[[], object]) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            action()

        return handler

    kb.add("T", filter=lobby)(on(lambda: open_list(state, send)))
    kb.add("up", filter=shown)(on(lambda: state.tournaments.move(-1)))
    kb.add("down", filter=shown)(on(lambda: state.tournaments.move(1)))
    kb.add("enter", filter=shown)(on(lambda: open_selected(state, send, replay)))
    kb.add("r", filter=shown)(on(lambda: send(GetTournaments())))
    kb.add("j", filter=shown)(on(lambda: act(state, send, "join")))
    kb.add("w", filter=shown)(on(lambda: act(state, send, "withdraw")))
    kb.add("s", filter=shown)(on(lambda: act(state, send, "start")))
    directing = shown & Condition(
        lambda: (
            state.tournaments.view == "one"
            and state.tournaments.is_director(state.accounts.account)
        )
    )
    asking = shown & Condition(lambda: state.tournaments.confirm is not None)
    kb.add("left", filter=directing)(on(lambda: state.tournaments.move_player(-1)))
    kb.add("right", filter=directing)(on(lambda: state.tournaments.move_player(1)))
    kb.add("x", filter=directing)(on(lambda: direct(state, send, "remove")))
    kb.add("D", filter=directing)(on(lambda: direct(state, send, "draw_round")))
    kb.add("E", filter=directing)(on(lambda: direct(state, send, "end")))
    kb.add("p", filter=directing)(on(lambda: direct(state, send, "pause")))
    moderating = shown & Condition(
        lambda: state.tournaments.view == "one" and state.accounts.moderation is not None
    )
    kb.add("C", filter=moderating)(on(lambda: moderate(state, open_line, "closetournament")))
    kb.add("H", filter=moderating)(on(lambda: moderate(state, open_line, "handtournament")))
    kb.add("y", filter=asking)(on(lambda: answer(state, send, True)))
    kb.add("n", filter=asking)(on(lambda: answer(state, send, False)))
    kb.add("escape", filter=asking, eager=True)(on(lambda: answer(state, send, False)))
    kb.add("q", filter=shown & ~asking)(on(lambda: back(state, send)))
    kb.add("escape", filter=shown & ~asking, eager=True)(on(lambda: back(state, send)))
    kb.add(":", filter=shown)(on(lambda: open_line("")))
