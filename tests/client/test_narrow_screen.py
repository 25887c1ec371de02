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


@pytest.fixture(params=["en", "de", "it"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    try:
        yield request.param
    finally:
        set_language("en")


def column(lines: list[str], start: int, width: int, first: int, count: int) -> str:
    """The words of one column of the lines first..first+count-1, joined."""
    pieces = (line[start : start + width].strip() for line in lines[first : first + count])
    return " ".join(piece for piece in pieces if piece)


def test_a_table_with_several_options_and_long_names_wraps_in_its_columns(language: str) -> None:
    """Issue 40: at 80 columns the tables list cut a table's options ('3d/t o.Tipp Wertung')
    and names at 18 characters; each goes on under its column instead."""
    from client.screens.lobby_screen import _table_options

    state = ClientState(name="Ann")
    long_name = "Bartholomew Longname"  # an account's name is at most 20 characters
    options = TableOptions(variant1=True, variant2=True, handicap_seat="black", handicap_bridges=2)
    state.tables = [
        TableInfo(
            "4f3581b6",
            options,
            False,
            Players(PlayerInfo(long_name, True, False, 1662), PlayerInfo("Bob", False, False)),
            3,
            "playing",
            clock=TimeControl(days=3),
            hints=False,
            rated=True,
        ),
        TableInfo("5e4d3c2b", TableOptions(), False, Players(None, None), 0, "waiting"),
    ]
    lines = render_lobby(state, 80, 24).lines()
    assert all(len(line) <= 80 for line in lines)
    at = next(i for i, line in enumerate(lines) if "4f3581b6" in line)
    after = next(i for i, line in enumerate(lines) if "5e4d3c2b" in line)
    rows = after - at
    assert rows > 1  # the table takes the lines it needs, the next one comes after them
    row = lines[at]
    white_x = row.index("Bartholomew")
    assert column(lines, white_x, 18, at, rows) == f"{long_name} 1662"
    wanted = _table_options(options, state.tables[0])
    assert len(wanted) > 12  # more than the column: wrapped
    options_x = white_x + 2 * 19
    assert column(lines, options_x, 12, at, rows) == wanted
    assert lines[at].rstrip().endswith("3")  # the spectators, on the table's first line


def test_the_games_summary_is_wrapped_not_cut(language: str) -> None:
    state = games_state()
    assert state.accounts.games is not None
    stats = PlayerStats(
        [12, 110, 3], {"easy": [10, 2, 0], "normal": [5, 12, 1], "strong": [0, 33, 0]}
    )
    state.accounts.games = attrs.evolve(state.accounts.games, stats=stats)
    lines = render_lobby(state, 80, 24).lines()
    text = " ".join(line.strip() for line in lines)
    for wins, losses, draws in ((10, 2, 0), (5, 12, 1), (0, 33, 0)):
        assert f"{wins}/{losses}/{draws}" in text
    assert "110" in text and all(len(line) <= 80 for line in lines)
    assert "(easy)" not in text or language == "en"  # the level in the player's language
    # the column titles come under the summary, and the games under them
    head = next(i for i, line in enumerate(lines) if "±" in line)
    assert "33" in lines[head - 1] and "4f3581b6" in "".join(lines[head + 1 : head + 4])


def test_a_challengers_name_of_twenty_characters_is_whole(language: str) -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts, state.accounts.account = True, "Ann"
    state.accounts.open("challenges")
    name = "Bartholomew Longname"
    state.accounts.challenges = [ChallengeInfo("c0000001", name, "Ann", ChallengeTerms(), 0.0)]
    lines = render_lobby(state, 80, 24).lines()
    assert any(f"c0000001 {name} Ann" in line for line in lines)


def test_the_ratings_numbers_stand_under_their_titles(language: str) -> None:
    """Seen in tmux in German: 'Wertung' and 'Partien' are longer than the numbers' columns,
    which then stood a character or two left of their titles ('punteggio' in Italian)."""
    from client.language.i18n import _
    from protocol.player_messages import RatingEntry, Ratings

    state = ClientState(name="Ann")
    state.accounts.accounts, state.accounts.account = True, "Ann"
    state.handle(Ratings([RatingEntry("Erika", 1662, 150, 123, 1, 0, 0, True)]))
    state.accounts.open("ratings")
    lines = render_lobby(state, 80, 24).lines()
    head = next(line for line in lines if _("rating") in line and _("games") in line)
    row = next(line for line in lines if "Erika" in line)
    rating_end = head.index(_("rating")) + len(_("rating"))
    games_end = head.index(_("games")) + len(_("games"))
    assert row[rating_end - 4 : rating_end] == "1662"
    assert row[games_end - 3 : games_end] == "123"


def test_the_help_pages_titles_fit_and_the_legend_speaks_the_maps_labels(language: str) -> None:
    """Seen in tmux in Italian: the commands' title ran one word past 80 columns, and the map's
    legend said '4of6' where the map's labels say '4su6' ('4/6' in German)."""
    from client.language.i18n import pgettext
    from client.screens.help_screen import help_lines

    titles = ["".join(text for _style, text in row) for row in help_lines(80)]
    titles = [
        line for line, row in zip(titles, help_lines(80), strict=True) if row[0][0] == "class:title"
    ]
    assert all(len(line) <= 80 for line in titles)
    assert titles[0].endswith(("first", "prima", "geprüft"))  # whole on its line
    label = pgettext("island label, 4 characters at most", "{needed}of{lines}")
    legend = titles[-1]
    assert label.format(needed=4, lines=6) + ":" in legend
