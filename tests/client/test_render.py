"""The client's drawing: a known position puts islands, bridges, tokens and the hand where they
belong, at 80x24 and larger, and nothing spills out of the screen."""

from __future__ import annotations

import re

import attrs
import pytest

from client.model.state import ClientState, LogLine
from client.screens.board_map import BRIDGE_CHAR, FREE_CHAR, TOKEN_CHAR, render_map
from client.screens.canvas import Canvas
from client.screens.lobby_screen import render_lobby
from client.screens.map_layout import LABEL_H, LABEL_W, island_cells, line_cells
from client.screens.render import map_size, render_game
from client.screens.status_lines import message_lines
from protocol.fields import PlayerInfo, Players, TableInfo, TableOptions
from shared.board import DEGREE, ISLANDS, NEEDED, NUM_LINES, parse_island, parse_line
from shared.game import Game, Result
from shared.types import Phase, Seat, Termination
from shared.views import seat_view, spectator_view
from tests.positions import game

SIZES = [(80, 24), (100, 30), (120, 40), (200, 60)]

WHITE_LINES = "ALOA-BARI ALOA-DUDA BARI-ELAI"  # ALOA: 2 of 3, White's
BLACK_LINES = "IFFI-LALE HUNA-LALE KAHU-JOJO"  # LALE: 2 of 3, Black's


def known_game() -> Game:
    return game(
        white=WHITE_LINES,
        black=BLACK_LINES,
        white_hand="BARI ELAI ELAI GOLA",
        black_hand="COCO HUNA",
        face_up="COCO DUDA FAAA",
    )


def known_state(width_name: str = "Ann") -> ClientState:
    g = known_game()
    state = ClientState(name=width_name)
    state.screen = "game"
    state.table_id = "t1"
    state.role = "white"
    state.table_status = "playing"
    state.connection, state.connected = "connected", True
    state.seat_view = seat_view(g, Seat.WHITE)
    state.public = state.seat_view.public
    state.players = Players(PlayerInfo(width_name, True, False), PlayerInfo("Computer", True, True))
    state.log = [LogLine("event", f"event number {i}") for i in range(30)]
    return state


def over(state: ClientState, kind: Termination = Termination.POINTS) -> None:
    """The state's game ended after the final: three rounds' points, White the winner."""
    assert state.public is not None
    state.public = attrs.evolve(
        state.public,
        phase=Phase.OVER,
        round=3,
        round_points=((1, 0), (0, 2), (3, 0)),
        result=Result(Seat.WHITE, kind),
    )


def map_of(width: int, height: int) -> tuple[Canvas, int, int]:
    state = known_state()
    assert state.public is not None and state.seat_view is not None
    map_w, map_h, _ = map_size(width, height - 4)
    canvas = render_map(state.public, map_w, map_h, hand=state.seat_view.hand)
    return canvas, map_w, map_h


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_islands_are_where_the_board_has_them_and_never_overlap(width: int, height: int) -> None:
    canvas, map_w, map_h = map_of(width, height)
    cells = island_cells(map_w, map_h)
    boxes = set()
    for island, (x, y) in enumerate(cells):
        assert 0 <= x <= map_w - LABEL_W and 0 <= y <= map_h - LABEL_H
        for dx in range(LABEL_W):
            for dy in range(LABEL_H):
                assert (x + dx, y + dy) not in boxes, f"{ISLANDS[island]} overlaps"
                boxes.add((x + dx, y + dy))
        assert canvas.lines()[y][x : x + 4] == ISLANDS[island]
        assert canvas.lines()[y + 1][x : x + 4] == f"{NEEDED[island]}of{DEGREE[island]}"
    # laid out like the real board: ALOA left of BARI left of COCO; LALE lowest; ELAI above IFFI
    at = {name: cells[i] for i, name in enumerate(ISLANDS)}
    assert at["ALOA"][0] < at["BARI"][0] < at["COCO"][0]
    assert at["LALE"][1] == max(y for _, y in cells)
    assert at["ELAI"][1] < at["IFFI"][1]
    assert at["HUNA"][0] < at["IFFI"][0] < at["KAHU"][0]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_line_is_visible_and_shows_its_owner(width: int, height: int) -> None:
    canvas, map_w, map_h = map_of(width, height)
    paths = line_cells(map_w, map_h)
    owners = {parse_line(n): 0 for n in WHITE_LINES.split()}
    owners |= {parse_line(n): 1 for n in BLACK_LINES.split()}
    for line in range(NUM_LINES):
        assert paths[line], f"line {line} has no cell on the map"
        expected = FREE_CHAR if line not in owners else BRIDGE_CHAR[owners[line]]
        shown = [canvas.char(x, y) for x, y in paths[line]]
        # a cell may be shared with a crossing line; most of the line shows its own state
        assert shown.count(expected) * 2 > len(shown), (line, shown)
        if line in owners:
            style = canvas.style(*paths[line][len(paths[line]) // 2])
            assert ("class:white" if owners[line] == 0 else "class:black") in style


def test_tokens_are_marked_on_their_islands() -> None:
    canvas, map_w, map_h = map_of(80, 24)
    cells = island_cells(map_w, map_h)
    ax, ay = cells[parse_island("ALOA")]
    lx, ly = cells[parse_island("LALE")]
    bx, by = cells[parse_island("BARI")]
    assert canvas.char(ax + 4, ay) == TOKEN_CHAR[0]
    assert "class:token" in canvas.style(ax, ay) and "class:white" in canvas.style(ax, ay)
    assert canvas.char(lx + 4, ly) == TOKEN_CHAR[1]
    assert "class:black" in canvas.style(lx, ly)
    assert canvas.char(bx + 4, by) == " "
    # islands of the cards in hand are underlined
    assert "class:incard" in canvas.style(bx, by)
    assert "class:incard" not in canvas.style(ax, ay)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_game_screen_shows_hand_players_row_and_log(width: int, height: int) -> None:
    state = known_state()
    canvas = render_game(state, width, height - 2)
    lines = canvas.lines()
    assert len(lines) == height - 2 and all(len(line) == width for line in lines)
    text = canvas.text()
    for name in ISLANDS:
        assert name in text
    assert "BARI ELAI ELAI GOLA" in text  # the hand
    assert "Your hand (4 of 5)" in text
    assert "Face up 1 COCO 2 DUDA 3 FAAA" in text
    assert "Ann (you)" in text and "Computer [AI]" in text
    assert "Round 1 of 3" in text
    assert "▶ Your turn" in text
    assert "event number 29" in text  # the newest log line is shown
    assert lines[0].startswith(" KAHUNA ") and "connected" in lines[0]
    # the opponent's hand size: Black holds two cards
    assert "cards 2" in text
    # the bridge supply note is shown whole or not at all (it was cut at 120 columns)
    # each player's line is whole: the bridge supply is shown only where it fits (it was cut)
    details = [line.split("│")[-1] for line in lines if "tokens" in line and "cards" in line]
    assert len(details) == 2
    for detail in details:
        assert re.fullmatch(r"  +tokens \d+ bridges \d+( \(\d+ left\))? cards \d+ *", detail)
    assert ("(22 left)" in text) == (width >= 120)


def test_spectators_see_no_hand() -> None:
    state = known_state()
    state.role, state.seat_view = "spectator", None
    state.public = spectator_view(known_game())
    text = render_game(state, 80, 22).text()
    assert "You are watching" in text
    assert "BARI ELAI ELAI GOLA" not in text


def test_a_line_named_on_the_command_line_is_highlighted() -> None:
    state = known_state()
    line = parse_line("ALOA-BARI")
    canvas = render_game(state, 80, 22, highlight=[line])
    map_w, map_h, _ = map_size(80, 20)
    x, y = line_cells(map_w, map_h)[line][0]
    assert "class:highlight" in canvas.style(x, y + 1)  # the map starts below the header


def test_the_end_of_the_game_shows_each_round_and_the_winner() -> None:
    state = known_state()
    over(state)
    text = render_game(state, 80, 22).text()
    assert "GAME OVER" in text and "White (Ann) wins" in text
    assert "Round 1       1      0" in text
    assert "Round 2       0      2" in text
    assert "Final         3      0" in text
    assert "Total         4      2" in text
    assert "More points after the final" in text and "  scoring." in text
    assert "rematch: play again" in text
    assert "lobby: leave" in text and "save: keep it" in text


def test_the_lobby_lists_tables() -> None:
    state = ClientState(name="Ann")
    state.tables = [
        TableInfo(
            "ab12cd34",
            TableOptions(True, False, "black", 2),
            False,
            Players(PlayerInfo("Bob", True, False), None),
            1,
            "waiting",
        )
    ]
    state.form_open = True
    text = render_lobby(state, 80, 23).text()
    assert "ab12cd34" in text and "Bob" in text and "(free)" in text
    assert "V1 H:B+2" in text
    assert "New table" in text and "Against the computer: yes" in text


def test_a_too_small_terminal_says_so() -> None:
    text = render_game(known_state(), 50, 12).text()
    assert "too small (50x14)" in text  # the terminal: this screen, the command and key lines


@pytest.mark.parametrize(("width", "height"), [(80, 13), (66, 14), (56, 15)])
def test_a_board_without_room_for_its_lines_is_not_drawn(width: int, height: int) -> None:
    """Between the smallest map and 80x24, a map whose lines could not be routed showed the
    islands alone, with no word: now it says the terminal is too small, at its real size."""
    text = render_game(known_state(), width, height).text()
    assert f"too small ({width}x{height + 2})" in text
    assert "Kahuna needs at least 80x24" in text


def test_the_board_is_drawn_at_80x20() -> None:
    text = render_game(known_state(), 80, 18).text()
    assert "too small" not in text and "BARI" in text


def test_the_lobby_marks_a_seat_held_by_this_user() -> None:
    state = ClientState(name="Ann")
    state.tables = [
        TableInfo(
            "ab12cd34",
            TableOptions(),
            True,
            Players(PlayerInfo("Ann", False, False), PlayerInfo("Computer", True, True)),
            0,
            "playing",
        )
    ]
    state.saved_seats = {"ab12cd34": ("white", "token")}
    text = render_lobby(state, 80, 23).text()
    assert "(yours) Ann" in text and "playing" in text


def test_the_lobby_names_the_server_and_says_when_it_is_not_connected() -> None:
    state = ClientState(name="Ann")
    state.server, state.connected, state.connection = "Kahuna club", True, "connected"
    text = render_lobby(state, 80, 24).text()
    assert "Kahuna club" in text.splitlines()[0] and "press n" in text
    state.connected, state.connection = False, "reconnecting"
    text = render_lobby(state, 80, 24).text()
    assert "Not connected: waiting for the server" in text and "press n to create" not in text


def test_the_computer_tag_is_in_the_players_language() -> None:
    from client.language.i18n import set_language
    from client.screens.lobby_screen import _seat_text
    from protocol.fields import PlayerInfo

    computer = PlayerInfo("Computer", True, True)
    set_language("de")
    try:
        assert _seat_text(computer) == "Computer [KI]"
    finally:
        set_language("en")
    assert _seat_text(computer) == "Computer [AI]"


def test_the_help_says_a_removal_takes_two_cards_of_either_end() -> None:
    """As docs/rules.md and the engine: HUNA+HUNA removes HUNA-ELAI as HUNA+ELAI does."""
    from client.screens.help_screen import help_pages

    text = " ".join(
        fragment[1] for page in help_pages(40, 200) for line in page for fragment in line
    )
    assert "each of either end" in text and "both ends" not in text


def test_the_lobby_cursor_passes_over_finished_tables() -> None:
    from protocol.fields import PlayerInfo, Players, TableInfo, TableOptions
    from protocol.messages import Lobby

    def table(table_id: str, status: str) -> TableInfo:
        players = Players(PlayerInfo("Ann", True, False), PlayerInfo("Bob", True, False))
        return TableInfo(table_id, TableOptions(), False, players, 0, status)  # type: ignore[arg-type]

    state = ClientState(name="Zed")
    state.handle(Lobby([table("t1", "over"), table("t2", "over"), table("t3", "playing")]))
    state.place_lobby_cursor()
    assert state.selected_table is not None and state.selected_table.table_id == "t3"


def test_the_help_keys_and_arguments_are_in_the_players_language() -> None:
    from client.language.i18n import set_language
    from client.screens.help_screen import help_pages

    set_language("de")
    try:
        text = " ".join(
            fragment[1] for page in help_pages(40, 200) for line in page for fragment in line
        )
    finally:
        set_language("en")
    assert "speichern [DATEI]" in text and "Strg-Q" in text and "Bild↑  Bild↓" in text
    assert "PgUp" not in text and "[FILE]" not in text


def test_a_message_is_not_wrapped_at_a_hyphen() -> None:
    """The line under the board and the lobby's: a saved file's path, or a line like
    BARI-COCO, was broken after a hyphen ('/work/wt-' then '  lookterm/kahuna-...')."""
    path = "/home/ann/games-kept/kahuna-9cc66e92-20261128-043000.kahuna"
    lines = message_lines(f"Saved the game record to {path}", 80)
    assert lines == ["Saved the game record to", "  " + path]
    said = "Your bridge lies on " + "BARI-COCO, " * 6 + "and on HUNA-LALE."
    assert all(not line.endswith("-") for line in message_lines(said, 60))
