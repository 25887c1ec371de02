"""Who watches a table (protocol version 3's `watchers`): a player is told who comes and goes
and sees the names beside the game; a spectator is told that the players do not read the
spectators' chat while the game runs."""

from __future__ import annotations

from client.language.i18n import set_language
from client.model.state import ClientState
from client.screens.render import render_game
from protocol.messages import Spectating
from protocol.player_messages import Watchers
from tests.client.test_render import known_state


def test_a_player_hears_who_comes_and_goes_and_sees_the_names() -> None:
    set_language("en")
    state = known_state()
    state.log = []
    state.handle(Watchers("t1", ["Cy"]))
    state.handle(Watchers("t1", ["Cy", "Dee"]))
    state.handle(Watchers("t1", ["Dee"]))
    state.handle(Watchers("elsewhere", ["Eve"]))  # another table's: not this one's
    assert [line.text for line in state.log] == [
        "Cy is watching.",
        "Dee is watching.",
        "Cy stopped watching.",
    ]
    assert "watched by Dee" in render_game(state, 100, 30).text()
    state.handle(Watchers("t1", []))
    assert "watched by" not in render_game(state, 100, 30).text()


def test_a_spectator_is_told_the_players_do_not_read_their_chat() -> None:
    set_language("en")
    state = ClientState(name="Cy")
    state.handle(Spectating("t9"))
    assert state.is_spectator
    assert "the players do not see what spectators say" in state.log[-1].text
    state.handle(Watchers("t9", ["Cy"]))  # a spectator is not told of themselves
    assert "Cy is watching." not in [line.text for line in state.log]
    assert state.watchers == ["Cy"]
