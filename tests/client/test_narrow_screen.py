"""The terminal client at 80x24, in English, German and Italian: nothing a player needs is cut
(the rating change, a name, a translated result), a long lobby chat line is wrapped, and the
clock of a game of days is in the player's language."""

from __future__ import annotations

import time
from collections.abc import Iterator

import attrs
import pytest

from client.language.i18n import set_language
from client.model.state import ClientState
from client.model.table import format_clock
from client.screens.lobby_screen import render_lobby
from client.screens.render import render_game
from protocol.fields import PlayerInfo, Players, TableInfo, TableOptions, TimeControl
from protocol.player_messages import (
    ChallengeInfo,
    ChallengeTerms,
    GameEntry,
    Games,
    LobbyChatEntry,
    PlayerStats,
)
from tests.client.test_render import known_state


@pytest.fixture
def german() -> Iterator[None]:
    set_language("de")
    try:
        yield
    finally:
        set_language("en")


def games_state() -> ClientState:
    state = ClientState(name="Ann")
    state.accounts.accounts, state.accounts.account = True, "Ann"
    now = time.time()
    finished = GameEntry(
        "4f3581b6", "Ann", "Bartholomew the Long", "over", None, "white", "points", True,
        162, -162, now - 3600, now - 60, None, False, None,
    )  # fmt: skip
    running = GameEntry(
        "9a8b7c6d", "Bob", "Ann", "playing", "black", None, None, True,
        None, None, now - 3600, None, now + 2 * 86400 + 23 * 3600 + 30, False, None,
    )  # fmt: skip
    stats = PlayerStats([1, 0, 0], {})
    state.accounts.games = Games("Ann", 1662, [running, finished], stats)
    state.accounts.open("games")
    return state


def test_the_games_list_keeps_the_rating_change_at_80_columns() -> None:
    lines = render_lobby(games_state(), 80, 24).lines()
    row = next(line for line in lines if "4f3581b6" in line)
    assert "+162" in row and "Bartholomew t…" in row
    assert "won" in row
    running = next(line for line in lines if "9a8b7c6d" in line)
    assert "running: your move (2d 23h)" in running


def test_the_games_list_in_german_cuts_only_with_an_ellipsis(german: None) -> None:
    lines = render_lobby(games_state(), 80, 24).lines()
    running = next(line for line in lines if "9a8b7c6d" in line)
    assert "läuft: du bist am Zug (2 T 23 Std)" in running
    assert "+162" in next(line for line in lines if "4f3581b6" in line)


def test_a_long_lobby_chat_line_is_wrapped_not_cut() -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts = True
    said = " ".join(f"word{i}" for i in range(45))  # about 250 characters
    state.accounts.chat = [LobbyChatEntry("Bob", "hello", 0.0), LobbyChatEntry("Cy", said, 1.0)]
    text = " ".join(line.strip() for line in render_lobby(state, 80, 24).lines())
    assert "Cy: " + said in text


def test_names_in_the_side_panel_are_whole(german: None) -> None:
    state = known_state("Ann (guest)")
    state.players = Players(
        PlayerInfo("Ann (guest)", True, False, 1662), PlayerInfo("Computer", True, True)
    )
    lines = render_game(state, 80, 24, [], None).lines()
    text = " ".join(line.strip() for line in lines)
    assert "Ann (guest) 1662 (du)" in text
    assert "Computer [KI]" in text


def test_the_clock_of_a_game_of_days_is_in_the_players_language(german: None) -> None:
    assert format_clock(2 * 86400 + 23 * 3600 + 5) == "2 T 23 Std"
    set_language("it")
    assert format_clock(2 * 86400 + 23 * 3600 + 5) == "2 g 23 h"
    set_language("en")
    assert format_clock(2 * 86400 + 23 * 3600 + 5) == "2d 23h"


def test_the_challenges_in_german_are_whole_at_80_columns(german: None) -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts, state.accounts.account = True, "Ann"
    state.accounts.open("challenges")
    text = " ".join(line.strip() for line in render_lobby(state, 80, 24).lines())
    assert "herausfordern NAME [3d] [ungewertet] [schwarz] stellt eine." in text
    terms = ChallengeTerms(clock=TimeControl(days=3), seat="black")
    state.accounts.challenges = [
        ChallengeInfo(f"c{i:07}", "Bartholomew Longname", "Ann", terms, 0.0) for i in range(12)
    ]
    state.accounts.cursor = 11
    lines = render_lobby(state, 80, 24).lines()
    text = " ".join(line.strip() for line in lines)
    assert "3 T pro Zug, gewertet, Herausforderer spielt Schwarz" in text
    assert any(line.startswith(" > c0000011") for line in lines)  # the selected one in view


def test_a_tables_translated_options_are_whole_at_80_columns(german: None) -> None:
    state = ClientState(name="Ann")
    state.tables = [
        TableInfo(
            "4f3581b6",
            TableOptions(),
            False,
            Players(PlayerInfo("Ann", True, False, 1662), PlayerInfo("Bob", False, False, 1338)),
            0,
            "playing",
            clock=TimeControl(days=3),
            hints=False,
            rated=True,
        )
    ]
    lines = render_lobby(state, 80, 24).lines()
    row = next(line for line in lines if "4f3581b6" in line)
    assert "3d/t o.Tipp" in row and len(row.rstrip()) <= 80
    state.tables = [attrs.evolve(state.tables[0], hints=True)]
    row = next(line for line in render_lobby(state, 80, 24).lines() if "4f3581b6" in line)
    assert "3d/t Wertung " in row
    header = next(line for line in lines if "Optionen" in line)
    assert header.index("Optionen") == row.index("3d/t")  # the column under its title
