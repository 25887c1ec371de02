"""The pure parts of the version-2 client: time controls, the table key, clocks and endings in
words, the lobby and the form, the hint's reasons, the commands' checks."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from client.language.words import ending_words
from client.model.commands import HINTS_OFF, interpret
from client.model.hint import explain
from client.model.state import ClientState
from client.model.table import ClockView, TableView, format_clock, parse_control, table_from_view
from client.screens.lobby_screen import render_lobby, table_lines
from client.screens.render import render_game
from client.screens.side_panel import clock_line
from protocol.fields import PlayerInfo, Players, TableInfo, TableOptions, TimeControl
from shared.actions import Draw, Place, Remove
from shared.board import ISLANDS, LINES, parse_line
from shared.results import Result
from shared.types import Seat, Termination
from shared.views import SeatView
from tests.client.test_render import known_state


def test_time_controls_from_words() -> None:
    assert parse_control("none") is None
    assert parse_control("5+3") == TimeControl(300, 3, 0)
    assert parse_control("30+0") == TimeControl(1800, 0, 0)
    assert parse_control("60/turn") == TimeControl(0, 0, 60)
    assert parse_control("1m/turn") == TimeControl(0, 0, 60)
    for bad in ("5", "0+3", "5+601", "2/turn", "fast"):
        with pytest.raises(ValueError):
            parse_control(bad)


def test_the_table_key_and_the_clocks() -> None:
    view = {
        "table": {
            "clock": {
                "white": 65_000, "black": 29_500, "running": "black",
                "initial": 300, "increment": 3, "per_turn": 0,
            },
            "draw_offer": "white", "rematch_offer": None, "rematch_table": None,
            "claim": None, "level": "strong", "hints": False, "future_key": 1,
        }
    }  # fmt: skip
    table = table_from_view(view)
    assert table is not None and table.clock is not None
    assert table.draw_offer is Seat.WHITE and table.level == "strong" and not table.hints
    assert table_from_view({}) is None  # a version-1 server
    assert table.clock.left(Seat.BLACK, since=10.0, now=12.25) == pytest.approx(27.25)
    assert table.clock.left(Seat.WHITE, since=10.0, now=99.0) == 65.0  # not running
    assert table.clock.left(Seat.BLACK, since=10.0, now=99.0) == 0.0
    assert format_clock(65.0) == "1:05" and format_clock(0.2) == "0:01"
    assert format_clock(3725) == "1:02:05" and format_clock(0) == "0:00"
    state = known_state()
    state.table, state.table_at = table, 0.0
    state.clock_source = lambda: 1.0
    text = "".join(t for _, t in clock_line(state))
    assert text == "Clock ○ 1:05 ●▶0:29!"  # Black runs, under 30 s: marked for NO_COLOR too
    styles = {t: s for s, t in clock_line(state)}
    assert styles["▶0:29!"] == "class:clock.low"
    assert "clock 5+3, computer: strong, no hints" in render_game(state, 100, 30).text()


def test_every_ending_in_words() -> None:
    state = known_state()
    names = {seat: state.player_name(seat) for seat in Seat}
    words = {
        kind: ending_words(Result(Seat.WHITE, kind), names)
        for kind in Termination
        if kind not in (Termination.TIE, Termination.AGREED, Termination.ABANDONED)
    }
    assert words[Termination.RESIGNED] == "Computer (Black) resigned."
    assert words[Termination.TIME] == "Computer (Black) ran out of time."
    assert words[Termination.FORFEIT] == "Computer (Black) left the game and forfeited it."
    assert words[Termination.POINTS] == "More points after the final scoring."
    assert words[Termination.NO_BRIDGES] == "Computer (Black) has no bridge left on the board."
    assert ending_words(Result(None, Termination.AGREED), names) == "The players agreed a draw."
    assert ending_words(Result(None, Termination.ABANDONED), names) == (
        "A moderator closed the table: the game is abandoned, unrated."
    )
    assert ending_words(Result(None, Termination.TIE), names).endswith("a tie.")
    neither = ending_words(Result(None, Termination.NO_BRIDGES), names)
    assert neither == "Neither player has a bridge on the board."
    assert "bridges on the board" in words[Termination.BRIDGES]
    assert "final scoring" in words[Termination.FINAL]


def test_the_lobby_shows_the_level_and_the_clock() -> None:
    table = TableInfo(
        "ab12cd34",
        TableOptions(),
        True,
        Players(PlayerInfo("Ann", True, False), PlayerInfo("Computer", True, True)),
        0,
        "playing",
        clock=TimeControl(600, 5, 0),
        level="strong",
        hints=False,
    )
    (row,) = table_lines(table, 76)
    assert "Computer (strong)" in row and "10+5 nohint" in row
    state = ClientState(name="Ann")
    state.form_open = True
    text = render_lobby(state, 80, 24).text()
    assert "[t] Time control: none" in text and "[l] The computer's level: normal" in text
    state.form.vs_computer = False
    state.form.cycle_clock()
    text = render_lobby(state, 80, 24).text()
    assert "level" not in text  # only against the computer
    assert "[t] Time control: 5+3 (5 min each, +3 s a turn)" in text
    assert "[i] Hints: allowed" in text


def _playing(state: ClientState, table: TableView) -> tuple[SeatView, ClientState]:
    state.table = table
    assert state.seat_view is not None
    return state.seat_view, state


def test_the_table_commands_are_checked_before_sending() -> None:
    view, _state = _playing(known_state(), TableView())
    pub = view.public

    def said(line: str, table: TableView | None = None, status: str = "playing") -> tuple[str, str]:
        out = interpret(line, view, pub, table or TableView(), status)
        return out.kind, out.text

    assert said("draw") == ("action", "draw")  # the draw from the pile stays
    assert said("offer draw") == ("offer_draw", "offer")
    assert said("offer")[0] == "refused"
    assert said("accept")[0] == "refused" and said("decline")[0] == "refused"
    offered = TableView(draw_offer=Seat.BLACK)
    assert said("accept", offered) == ("offer_draw", "accept")
    assert said("decline", offered) == ("decline_draw", "")
    assert said("offer draw", TableView(draw_offer=Seat.WHITE))[0] == "refused"
    assert said("claim")[0] == "refused"
    assert said("claim", TableView(claim=Seat.WHITE)) == ("claim", "")
    assert said("resign") == ("resign", "")
    assert said("resign", status="waiting")[0] == "refused"
    assert said("rematch")[1] == "a rematch is for after the game"
    assert said("hint") == ("hint", "")
    assert said("hint", TableView(hints=False)) == ("refused", HINTS_OFF)
    assert said("undo")[1].startswith("there is nothing to take back")
    # after the game: rematch and accept (of the opponent's rematch offer)
    pub = attrs.evolve(pub, result=Result(Seat.WHITE, Termination.RESIGNED))
    assert said("rematch", status="over") == ("rematch", "offer")
    assert said("accept", TableView(rematch_offer=Seat.BLACK), "over") == ("rematch", "accept")
    assert said("rematch", TableView(rematch_table="t2"), "over")[0] == "refused"
    # a spectator is told these are the players'
    out = interpret("resign", None, pub, TableView(), "playing")
    assert out.kind == "refused" and "watching" in out.text


def test_the_hint_says_what_the_play_does() -> None:
    state = known_state()
    view = state.seat_view
    assert view is not None
    pub = view.public
    mine = pub.bridges[Seat.WHITE]
    # a play that completes a majority wins the island
    for line in range(len(LINES)):
        if (mine | pub.bridges[Seat.BLACK]) >> line & 1:
            continue
        text = explain(view, Place(LINES[line][0], line))
        assert text.startswith(("wins ", "blocks ", "builds toward ", "strengthens "))
    assert explain(view, Draw()).startswith("ends the turn drawing")
    theirs = next(k for k in range(len(LINES)) if pub.bridges[Seat.BLACK] >> k & 1)
    a, b = LINES[theirs]
    text = explain(view, Remove(theirs, (a, b)))
    assert "Black's bridge" in text or text.startswith("takes ")
    line = parse_line("ALOA-BARI")
    assert ISLANDS[LINES[line][0]] in ("ALOA", "BARI")


def test_clock_runs_from_the_start_of_the_game() -> None:
    """A players message starts the game (and has no view): the mover's clock runs from then."""
    state = known_state()
    state.table_status = "waiting"
    state.table = TableView(clock=ClockView((5000, 5000), None, 0, 0, 5))
    now = [100.0]
    state.clock_source = lambda: now[0]
    from protocol.messages import PlayersChanged

    assert state.players is not None
    state.handle(PlayersChanged("t1", "playing", state.players))
    now[0] = 102.0
    assert state.public is not None
    assert state.clock_left(state.public.to_move) == pytest.approx(3.0)


def test_the_form_is_kept_between_runs(tmp_path: Path) -> None:
    from client.files.form_store import keep_form, load_form
    from client.model.table_form import CreateForm
    from protocol.fields import TimeControl

    path = tmp_path / "kahuna" / "form.json"
    assert load_form(path) == CreateForm()  # nothing kept yet
    form = CreateForm(vs_computer=False, seat="black", variant2=True, level="strong")
    form.clock = TimeControl(days=3)
    form.rated = False
    keep_form(form, path)
    assert load_form(path) == form
    path.write_text('{"seat": 7, "clock": {"nonsense": 1}, "level": "strong", "first": "x"}')
    read = load_form(path)
    assert read.seat == "white" and read.clock is None and read.level == "strong"
