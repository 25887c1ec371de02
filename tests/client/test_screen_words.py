"""What the terminal client says to a player: sentences, never the server's raw codes (those go
to the debug log), and a chat line over the limit refused with the limit said."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest
from prompt_toolkit.output import DummyOutput

from client.language.i18n import set_language
from client.model.lobby_commands import read_lobby_line
from client.model.state import ClientState
from client.net.local_server import LocalServer
from client.screens.analysis_view import report
from client.screens.app import KahunaApp
from client.screens.canvas import fit_keys
from client.screens.help_screen import render_lobby_help
from client.screens.lobby_line import LobbyLine
from client.screens.lobby_screen import form_keys, render_form
from client.screens.replay import ReplayViewer, timeline
from protocol.messages import Chat, ClientMessage, Error
from protocol.player_messages import (
    AnswerChallenge,
    ChallengeInfo,
    ChallengeTerms,
    ChangePassword,
    GameEntry,
    Games,
    GetGames,
    LobbyChat,
    Login,
    PlayerStats,
    RatingEntry,
    Register,
)
from shared.analysis import analyse
from shared.game import Result
from shared.record import read_record
from shared.types import Seat
from tests.client.test_analysis import resigned_game
from tests.client.test_app import until
from tests.client.test_keys import running
from tests.client.test_render import known_state


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (Error("bad_login", "bad login"), "Server: no account has that name and password"),
        (
            Error("chat_too_long", "at most 300 characters"),
            "Server: a chat line is at most 300 characters",
        ),
    ],
)
def test_a_refusal_is_a_sentence_and_its_code_goes_to_the_debug_log(
    error: Error, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    state = ClientState(name="Ann")
    state.max_chat = 300
    with caplog.at_level(logging.DEBUG, logger="client.model.state"):
        state.handle(error)
    assert state.message == said and state.message_kind == "error"
    assert "[" not in state.message
    assert error.code in caplog.text


async def test_a_chat_line_over_the_limit_stays_on_the_line_and_says_the_limit() -> None:
    state = known_state()
    state.max_chat = 20
    async with running(state) as ui:
        ui.pipe.send_text("'" + "x" * 25 + "\r")
        await until(lambda: "Not sent" in state.message, "the refusal")
        assert state.message == "Not sent: a chat line is at most 20 characters (this one has 25)."
        assert ui.app.buffer.text == "'" + "x" * 25  # kept, to be shortened
        assert not ui.sent
        ui.pipe.send_text("\b" * 5 + "\r")
        await until(lambda: ui.sent, "the shorter line")
        assert ui.sent == [Chat("t1", "x" * 20)]


def test_a_lobby_chat_line_over_the_limit_stays_on_the_line(tmp_path: Path) -> None:
    state = ClientState(name="Ann")
    state.max_chat = 10
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    line = LobbyLine(state, send, tmp_path, lambda _why: None)
    line.open("'" + "y" * 11)
    line.buffer.validate_and_handle()
    assert sent == [] and line.typing and line.buffer.text == "'" + "y" * 11
    assert state.message == "Not sent: a chat line is at most 10 characters (this one has 11)."
    line.open("'" + "y" * 10)
    line.buffer.validate_and_handle()
    assert sent == [LobbyChat("y" * 10)] and not line.typing


# ----- logging in and passwords on the lobby's line -------------------------------------------


def lobby_line(tmp_path: Path) -> tuple[LobbyLine, ClientState, list[ClientMessage]]:
    state = ClientState(name="Ann")
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    return LobbyLine(state, send, tmp_path, lambda _why: None), state, sent


def typed(line: LobbyLine, text: str) -> None:
    line.buffer.text = text
    line.buffer.validate_and_handle()


def test_a_new_password_is_asked_twice(tmp_path: Path) -> None:
    line, state, sent = lobby_line(tmp_path)
    line.open()
    typed(line, "password")
    assert line.prompt() == "old password (not shown): "
    typed(line, "old secret")
    assert line.prompt() == "new password (not shown): "
    typed(line, "new secret")
    assert line.prompt() == "the same password again (not shown): "
    typed(line, "new secrte")  # a typing error: the new one is asked again, nothing is sent
    assert sent == [] and line.prompt() == "new password (not shown): "
    assert state.message == "The two passwords differ: type the new one again."
    typed(line, "new secret")
    typed(line, "new secret")
    assert sent == [ChangePassword("old secret", "new secret")] and not line.typing


def test_registration_asks_twice_and_login_always_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAHUNA_PASSWORD", "an old one")  # for --login; never the lobby's
    line, _state, sent = lobby_line(tmp_path)
    line.open()
    typed(line, "register Ann")
    assert line.prompt() == "password for Ann (not shown): " and sent == []
    typed(line, "secret one")
    assert line.prompt() == "the same password again (not shown): "
    typed(line, "secret one")
    assert sent == [Register("Ann", "secret one")]
    line.open()
    typed(line, "login Bob")
    assert line.prompt() == "password for Bob (not shown): " and len(sent) == 1
    typed(line, "bobs secret")
    assert sent[-1] == Login("Bob", "bobs secret", None)


def test_a_refused_password_is_asked_again(tmp_path: Path) -> None:
    line, state, sent = lobby_line(tmp_path)
    line.open()
    typed(line, "login Ann")
    typed(line, "wrong")
    refusal = Error("bad_login", "no such name and password")  # after the hashing: no type
    state.handle(refusal)
    assert line.received(refusal)
    assert line.typing and line.prompt() == "password for Ann (not shown): "
    assert state.message.startswith("No account has the name Ann with that password")
    assert "or the server's operator disabled it" in state.message  # the server says no more
    typed(line, "right")
    assert sent[-1] == Login("Ann", "right", None)


def test_a_refused_login_password_from_the_command_line_is_asked_again(tmp_path: Path) -> None:
    """--login Ann with a wrong password: not a guest in silence, the password is asked."""
    line, state, _sent = lobby_line(tmp_path)
    state.accounts.accounts = True
    state.accounts.login_name, state.accounts.login_password = "Ann", "wrong"
    assert state.accounts.login_messages() == [Login("Ann", "wrong", None)]
    refusal = Error("bad_login", "no such name and password")  # after the hashing: no type
    state.handle(refusal)
    line.received(refusal)
    assert line.typing and line.prompt() == "password for Ann (not shown): "


def test_a_revoked_saved_login_says_so_and_is_forgotten(tmp_path: Path) -> None:
    line, state, _sent = lobby_line(tmp_path)
    kept: list[tuple[str, str | None]] = []
    state.accounts.keep_token = lambda name, token: kept.append((name, token))
    state.accounts.accounts = True
    state.accounts.login_name, state.accounts.login_token = "Ann", "t0ken"
    assert state.accounts.login_messages() == [Login("Ann", None, "t0ken")]
    refusal = Error("bad_login", "no such name and login token", refused="login")
    state.handle(refusal)
    line.received(refusal)
    assert state.message == (
        "Your saved login as Ann was revoked or has expired: you play as a guest;"
        " ':login Ann' logs in again."
    )
    assert "no account has that name" not in state.message
    assert kept == [("Ann", None)] and state.accounts.login_token is None
    assert not line.typing  # nothing asked: the guest plays on


# ----- no English left in German and Italian ------------------------------------------------


@pytest.fixture
def language() -> Iterator[Callable[[str], None]]:
    yield set_language
    set_language("en")


def test_the_german_game_over_key_bar_keeps_lobby_at_80_columns(
    language: Callable[[str], None],
) -> None:
    language("de")
    state = known_state()
    assert state.public is not None
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    ui = KahunaApp(state, lambda _m: True, output=DummyOutput())
    shown = fit_keys(ui._all_hints(), 80)
    assert "revanche" in shown and "lobby" in shown and "speichern" in shown


def test_the_italian_replay_header_and_the_local_servers_name(
    language: Callable[[str], None],
) -> None:
    language("it")
    record = resigned_game(5, 6)
    viewer = ReplayViewer(timeline(read_record(record), record), "t1", record)
    header = " ".join(viewer.draw(80, 24).lines()[:2])
    assert "rivedi t1" in header and "replay" not in header
    assert LocalServer(0.0).server.config.server_name == "kahuna (nel client)"
    language("de")
    assert LocalServer(0.0).server.config.server_name == "kahuna (im Client)"


def test_the_german_analysis_has_its_columns_and_decimal_comma(
    language: Callable[[str], None],
) -> None:
    analysis = analyse(read_record(resigned_game(11, 12)), playouts=8, search=50)
    language("de")
    lines = report(analysis, 100)
    head = next(line for line in lines if line.startswith("Zug"))
    played = head.index("gespielt")
    rows = [line for line in lines if line[:4].strip().isdigit()]
    assert any("Schwarz" in row for row in rows) and any("Weiß" in row for row in rows)
    for row in rows:
        assert row[played - 1] == " " and row[played] != " "  # "Schwarz" fits its column
    costs = [line for line in lines if "im Mittel" in line]
    assert len(costs) == 2 and all(re.search(r"im Mittel \d+,\d Punkte", c) for c in costs)


# ----- the lobby's keys and help --------------------------------------------------------------


def test_a_guests_g_says_why_there_is_no_list_of_games(tmp_path: Path) -> None:
    """The server keeps the games of accounts only, and a guest's name is never an account's:
    g asked for the guest's name's games and showed an empty "Games of" and the server's "no
    player has that name". It says instead how to have an account; a player logged in asks."""
    line, state, sent = lobby_line(tmp_path)
    state.accounts.accounts = True
    line.show("games")
    assert sent == [] and state.accounts.panel == "tables"
    assert state.message == (
        "A guest's games are not kept: ':register NAME' makes an account, ':login NAME' logs"
        " in to yours."
    )
    state.accounts.account = "Ann"
    line.show("games")
    assert (sent, state.accounts.panel) == ([GetGames(None)], "games")


def test_enter_on_the_ratings_opens_the_players_games(tmp_path: Path) -> None:
    line, state, sent = lobby_line(tmp_path)
    state.accounts.accounts = True
    state.accounts.ratings = [
        RatingEntry("Bob", 1700, 60, 12, 8, 3, 1, True),
        RatingEntry("Cy", 1600, 80, 5, 3, 2, 0, False),
    ]
    state.accounts.open("ratings")
    state.accounts.move(1)
    line.open_selected()
    assert sent == [GetGames("Cy")] and state.accounts.panel == "games"


async def test_f1_and_help_open_the_lobbys_help_with_every_commands_syntax() -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts = True
    async with running(state) as ui:
        ui.pipe.send_text("\x1bOP")  # F1
        await until(lambda: ui.app.lobby.help_open, "the help")
        drawn = ui.app._draw_lobby(80, 23).lines()
        assert drawn[0].startswith(" KAHUNA ")  # the header stays
        text = "\n".join(drawn)
        for syntax in (
            "challenge NAME [3d] [unrated] [white|black]",
            "resume ID",
            "ignore NAME",
            "accept/decline ID",
            "in the challenges: decline one, or withdraw your own",
        ):
            assert syntax in text
        # how to close it is said once, by the key bar under it (the help's last line said it
        # again, right above)
        assert ui.app._all_hints() == " Esc, q or F1 closes this help."
        assert "closes this help" not in text
        ui.pipe.send_text("q")  # closes the help, does not quit
        await until(lambda: not ui.app.lobby.help_open, "the help closed")
        assert ui.app.app.is_running
        ui.pipe.send_text(":help\r")
        await until(lambda: ui.app.lobby.help_open, "the help from the command line")
        assert "Unknown" not in state.message


def test_an_unknown_lobby_command_points_to_help() -> None:
    request = read_lobby_line("frobnicate")
    assert request.refused == "Unknown command frobnicate: 'help' lists the commands."


def test_the_forms_key_bar_lists_the_keys_the_form_shows() -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts = True
    state.form.vs_computer = True
    assert form_keys(state) == "c s f 1 2 h t l i"  # the level, not the rating
    state.form.vs_computer = False
    assert form_keys(state) == "c s f 1 2 h t i r"  # the rating, not the level
    state.accounts.accounts = False
    assert form_keys(state) == "c s f 1 2 h t i"


def test_games_waiting_are_said_at_a_table_without_the_lobbys_key() -> None:
    state = known_state()
    state.accounts.accounts, state.accounts.account = True, "Ann"
    game = GameEntry(
        "9a8b7c6d", "Bob", "Ann", "playing", "black", None, None, True,
        None, None, 0.0, None, None, False, None,
    )  # fmt: skip
    state.handle(Games("Ann", 1500, [game], PlayerStats([0, 0, 0], {})))
    assert state.message == "1 game waits for your move: in the lobby, g lists your games."


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_the_lobbys_help_fits_80x24(lang: str, language: Callable[[str], None]) -> None:
    language(lang)
    lines = render_lobby_help(80, 22, True).lines()  # under the header, above the key bar
    assert not any("page" in line or "Seite" in line or "pagina" in line for line in lines)
    assert any(line.lstrip().startswith("'TEXT") for line in lines)
    assert lines[-2].lstrip().startswith("tournament new")  # the last command, a row to spare


async def test_a_password_prompt_after_a_long_line_is_shown_from_its_start() -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts, state.max_chat = True, 100
    async with running(state) as ui:
        ui.pipe.send_text("'" + "z" * 150)  # longer than the screen: the line scrolls sideways
        await until(lambda: ui.app.lobby_line.horizontal_scroll > 0, "the line scrolled")
        ui.pipe.send_text("\r")  # refused (too long), kept; cleared, then a login asked
        await until(lambda: "Not sent" in state.message, "the refusal")
        ui.pipe.send_text("\x01\x0b" + "login Bob\r")  # Ctrl-A Ctrl-K: the line emptied
        await until(lambda: ui.app.lobby.asking is not None, "the password asked")
        ui.app.app.invalidate()
        await asyncio.sleep(0.2)  # drawn
        assert ui.app.lobby.prompt() == "password for Bob (not shown): "
        assert ui.app.lobby_line.horizontal_scroll == 0


async def test_the_form_changes_only_the_options_it_shows() -> None:
    state = ClientState(name="Ann")
    state.accounts.accounts = True
    async with running(state) as ui:
        ui.pipe.send_text("n")
        await until(lambda: state.form_open, "the form")
        assert state.form.vs_computer and state.form.rated
        ui.pipe.send_text("rl")  # against the computer: no rating shown, the level is
        await until(lambda: state.form.level != "normal", "the level changed")
        assert state.form.rated
        ui.pipe.send_text("c")  # against a person: the rating shown, the level not
        await until(lambda: not state.form.vs_computer, "a person")
        level = state.form.level
        ui.pipe.send_text("lr")
        await until(lambda: not state.form.rated, "the rating changed")
        assert state.form.level == level


def test_a_password_not_given_says_what_is_now(tmp_path: Path) -> None:
    """Esc at a password's prompt: the line that asked for it goes (seen in tmux: after --login
    with a wrong password, Esc left 'type it again' on the screen of a guest)."""
    line, state, _sent = lobby_line(tmp_path)
    state.name = "Erika (guest)"
    refusal = Error("bad_login", "no such name and password")
    line.open()
    typed(line, "login Erika")
    state.handle(refusal)
    line.received(refusal)
    assert line.asking is not None
    line.cancel()
    assert state.message == "Not logged in: you play as Erika (guest)."
    state.accounts.account = "Erika"
    line.open()
    typed(line, "password")
    line.cancel()
    assert state.message == "Your password is unchanged."
    line.open("say hi")
    line.cancel()  # nothing was asked: the line above stays
    assert state.message == "Your password is unchanged."


def test_a_challenge_sent_says_so(tmp_path: Path) -> None:
    """Seen in tmux: after ':challenge Erika 3d' the status line still said the welcome."""
    line, state, sent = lobby_line(tmp_path)
    state.say("Welcome, Ann: your account is made; your rating is 1500.")
    line.open()
    typed(line, "challenge Bob 3d")
    assert [type(m).__name__ for m in sent] == ["Challenge"]
    assert state.message == (
        "Your challenge to Bob is on its way: your challenges list it until the answer."
    )
    assert state.accounts.panel == "challenges"


@pytest.mark.parametrize(
    ("lang", "handicap", "clock"),
    [
        ("en", "Handicap: none", "Time control: none"),
        ("de", "Vorgabe: keine", "Bedenkzeit: keine"),
        ("it", "Handicap: nessuno", "Tempo di gioco: nessuno"),
    ],
)
def test_the_new_tables_none_agrees_with_its_option(
    lang: str, handicap: str, clock: str, language: Callable[[str], None]
) -> None:
    """Italian said "Handicap: nessuna" and "Tempo di gioco: nessuna", the feminine of the
    cards' "none" (Scoperte nessuna): each option has its own word."""
    language(lang)
    state = ClientState(name="Ann")
    text = render_form(state, 80).text()
    assert handicap in text and clock in text


@pytest.mark.parametrize(
    ("lang", "first"), [("en", "↑↓ Enter"), ("de", "↑↓ Enter"), ("it", "↑↓ Invio")]
)
def test_the_lobbys_help_names_the_enter_key_in_the_language(
    lang: str, first: str, language: Callable[[str], None]
) -> None:
    """The Italian help said "↑↓ Enter" beside "Invio ti fa sedere", as its key bar says Invio."""
    language(lang)
    lines = render_lobby_help(80, 22, True).lines()
    assert lines[1].startswith(f"  {first} ")


async def test_the_challenges_key_bar_says_enter_accepts_and_x_refuses(tmp_path: Path) -> None:
    """The challenges' key bar said "Enter open", where Enter accepts a challenge at once, and
    did not name x (decline, withdraw); Enter on one's own challenge did nothing, silently."""
    state = ClientState(name="Ann")
    state.accounts.accounts, state.accounts.account = True, "Ann"
    state.accounts.challenges = [
        ChallengeInfo("c0000001", "Bob", "Ann", ChallengeTerms(), 0.0),
        ChallengeInfo("c0000002", "Ann", "Cid", ChallengeTerms(), 0.0),
    ]
    async with running(state) as ui:
        ui.pipe.send_text("c")
        await until(lambda: state.accounts.panel == "challenges", "the challenges")
        hints = ui.app._all_hints()
        assert "Enter accept" in hints and "x decline or withdraw" in hints
        assert "Enter accept" in fit_keys(hints, 80)
    line, state, sent = lobby_line(tmp_path)
    state.accounts.accounts, state.accounts.account = True, "Ann"
    state.accounts.challenges = [ChallengeInfo("c0000002", "Ann", "Cid", ChallengeTerms(), 0.0)]
    state.accounts.open("challenges")
    line.open_selected()
    assert sent == []
    assert state.message == "Your challenge to Cid waits for their answer: x withdraws it."
    line.refuse_selected()
    assert sent == [AnswerChallenge("c0000002", "withdraw")]
