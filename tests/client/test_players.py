"""The client's side of the players (protocol version 3): the lobby's command line read into
messages, the login token file, the state each message makes, the panels drawn; and, headless
against a real server, registering, a rated game, the ratings, the games list and an archived
game replayed, a challenge and the lobby chat."""

from __future__ import annotations

import contextlib
import functools
import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.cli.run import Client
from client.files.login_tokens import LoginTokens
from client.language.i18n import set_language
from client.model.lobby_commands import read_lobby_line
from client.model.players import PlayersState
from client.model.state import ClientState
from client.screens.lobby_screen import render_lobby
from protocol.fields import TimeControl
from protocol.messages import Welcome
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    ChallengeInfo,
    Challenges,
    ChallengeTerms,
    GameEntry,
    Games,
    GetGames,
    GetRatings,
    Ignore,
    LobbyChat,
    LobbyChatEntry,
    LobbyChatMessage,
    LoggedIn,
    LoggedOut,
    Login,
    Logout,
    PlayerNote,
    PlayerStats,
    RatingEntry,
    Ratings,
    Register,
    Resume,
)
from server.net.app import KahunaServer
from tests.client.test_app import Player, driven, until
from tests.conftest import ServerFactory


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def test_the_lobby_line_is_read_into_messages() -> None:
    assert read_lobby_line("ratings").messages == (GetRatings(),)
    assert read_lobby_line("games").messages == (GetGames(None),)
    assert read_lobby_line("games Bob").messages == (GetGames("Bob"),)
    assert read_lobby_line("'hello all").messages == (LobbyChat("hello all"),)
    assert read_lobby_line("say hi").messages == (LobbyChat("hi"),)
    assert read_lobby_line("ignore Bob").messages == (Ignore("Bob", True),)
    assert read_lobby_line("unignore Bob").messages == (Ignore("Bob", False),)
    assert read_lobby_line("logout").messages == (Logout(),)
    assert read_lobby_line("resume 1a2b3c4d").messages == (Resume("1a2b3c4d"),)
    assert read_lobby_line("accept c1").messages == (AnswerChallenge("c1", "accept"),)
    assert read_lobby_line("withdraw c1").messages == (AnswerChallenge("c1", "withdraw"),)
    challenge = read_lobby_line("challenge Bob 3d unrated black").messages
    assert challenge == (
        Challenge("Bob", ChallengeTerms(seat="black", clock=TimeControl(days=3), rated=False)),
    )
    register = read_lobby_line("register Ann")
    assert (register.ask, register.name, register.messages) == ("register", "Ann", ())
    assert read_lobby_line("password").ask == "old_password"
    assert read_lobby_line("challenge Bob soon").refused is not None
    assert read_lobby_line("frobnicate").refused is not None


def test_the_lobby_words_of_german_and_italian() -> None:
    set_language("de")
    assert read_lobby_line("herausfordern Bob 3d schwarz").messages == (
        Challenge("Bob", ChallengeTerms(seat="black", clock=TimeControl(days=3))),
    )
    assert read_lobby_line("wertungen").messages == (GetRatings(),)
    set_language("it")
    assert read_lobby_line("partite Bob").messages == (GetGames("Bob"),)
    assert read_lobby_line("sfida Bob amichevole").messages == (
        Challenge("Bob", ChallengeTerms(rated=False)),
    )


def test_the_login_token_file_is_the_users_alone(tmp_path: Path) -> None:
    tokens = LoginTokens(tmp_path / "kahuna" / "logins.json")
    tokens.keep("ws://a:8765", "Ann", "tok-a")
    tokens.keep("ws://b:8765", "Bob", "tok-b")
    assert tokens.get("ws://a:8765") == ("Ann", "tok-a")
    mode = stat.S_IMODE(os.stat(tokens.path).st_mode)
    assert mode == 0o600
    tokens.keep("ws://a:8765", "Ann", None)
    assert tokens.get("ws://a:8765") is None and tokens.get("ws://b:8765") == ("Bob", "tok-b")


def test_the_state_follows_the_players_messages() -> None:
    kept: list[tuple[str, str | None]] = []
    people = PlayersState(keep_token=lambda name, token: kept.append((name, token)))
    people.handle(Welcome(3, "s", 1, 1, "Ann (guest)", "name_registered", True), "Ann")
    people.login_name, people.login_token = "Ann", "old"
    assert people.login_messages() == [Login("Ann", None, "old")]
    said = people.handle(LoggedIn("Ann", 1500, 350, 0, "tok", [], True), "Ann")
    assert said is not None and "1500" in said and kept == [("Ann", "tok")]
    assert people.login_messages() == []  # logged in already
    games = Games(
        "Ann",
        1500,
        [
            GameEntry(
                "t2",
                "Ann",
                "Bob",
                "playing",
                "white",
                None,
                None,
                True,
                None,
                None,
                1.0,
                None,
                2e9,
                False,
                None,
            )
        ],
        PlayerStats([0, 0, 0], {}),
    )
    said = people.handle(games, "Ann")
    assert people.waiting_moves == ["t2"] and said is not None
    assert said.startswith("1 game waits for your move")  # not "game(s)"
    assert people.attention is not None
    for language, words in (("de", "1 Partie wartet"), ("it", "1 partita aspetta")):
        set_language(language)
        try:
            again = PlayersState()
            again.handle(LoggedIn("Ann", 1500, 350, 0, "tok", [], True), "Ann")
            told = again.handle(games, "Ann")
            assert told is not None and told.startswith(words), told
        finally:
            set_language("en")
    note = people.handle(PlayerNote("challenge_received", None, "Bob"), "Ann")
    assert note is not None and "Bob" in note
    listed = Challenges([ChallengeInfo("c1", "Bob", "Ann", ChallengeTerms(), 1.0)])
    assert people.handle(listed, "Ann") == "1 challenge for you: c lists it."
    people.open("challenges")
    selected = people.selected_challenge()
    assert selected is not None and selected.challenge_id == "c1"
    people.handle(LobbyChatMessage([LobbyChatEntry("Bob", "hi", 1.0)], True), "Ann")
    people.handle(LobbyChatMessage([LobbyChatEntry("Cy", "yo", 2.0)], False), "Ann")
    assert [e.text for e in people.chat] == ["hi", "yo"]
    people.handle(LoggedOut("Ann (guest)"), "Ann")
    assert people.account is None and kept[-1] == ("Ann", None)


def test_the_panels_and_the_lobby_show_ratings() -> None:
    state = ClientState(name="Ann")
    state.handle(Welcome(3, "s", 1, 1, "Ann", None, True))
    state.handle(LoggedIn("Ann", 1532, 120, 4, None, [], False))
    state.handle(Ratings([RatingEntry("Ann", 1532, 120, 4, 3, 1, 0, True)]))
    state.accounts.open("ratings")
    text = render_lobby(state, 100, 24).text()
    assert "Ann (1532)" in text and "Ratings on this server" in text and "3/1/0" in text
    state.handle(LobbyChatMessage([LobbyChatEntry("Bob", "hello club", 1.0)], False))
    state.accounts.open("tables")
    assert "Bob: hello club" in render_lobby(state, 100, 24).text()


def to_move(player: Player) -> bool:
    public = player.state.public
    return player.state.game_running and public is not None and public.to_move is player.state.seat


def drawn(player: Player) -> bool:
    return player.state.pending is None


@contextlib.asynccontextmanager
async def account_player(
    server: KahunaServer, name: str, tmp: Path, register: bool
) -> AsyncIterator[Player]:
    with create_pipe_input() as pipe:
        state = ClientState(name=name)
        people = state.accounts
        tokens = LoginTokens(tmp / name / "logins.json")
        url = f"ws://127.0.0.1:{server.port}"
        kept = tokens.get(url)
        if kept is not None:
            people.login_name, people.login_token = kept
        else:
            people.login_name, people.register = name, register
            people.login_password = f"{name} has a long password"
        people.keep_token = lambda who, token: tokens.keep(url, who, token)
        client = Client(url, state, input=pipe, output=DummyOutput(), save_dir=tmp, quiet=True)
        what = f"{name} to log in"
        async with driven(client, pipe, lambda: state.accounts.account == name, what) as p:
            yield p


async def test_accounts_end_to_end(make_server: ServerFactory, tmp_path: Path) -> None:
    server = await make_server(password_cost="test")
    async with (
        account_player(server, "Ann", tmp_path, True) as ann,
        account_player(server, "Bob", tmp_path, True) as bob,
    ):
        assert ann.state.accounts.rating == 1500
        # a rated game: Ann creates it (against a person), Bob joins, two turns each, Ann resigns
        ann.type("n")
        ann.type("c")
        ann.type("\r")
        await until(lambda: ann.state.table_id is not None, "Ann's table")
        table_id = ann.state.table_id
        await until(lambda: any(t.table_id == table_id for t in bob.state.tables), "the table")
        bob.type("\r")
        await until(lambda: bob.state.table_id == table_id, "Bob to sit down")
        for _ in range(2):
            for who in (ann, bob):
                await until(functools.partial(to_move, who), "a turn")
                who.line("draw")
                await until(functools.partial(drawn, who), "the draw")
        ann.line("resign")
        ann.line("yes")
        await until(lambda: bob.state.accounts.rating not in (None, 1500), "the new rating")
        assert any("rating" in line.text for line in bob.state.log)
        ann.line("lobby")
        await until(lambda: ann.state.screen == "lobby", "the lobby")
        ann.type("g")
        await until(
            lambda: ann.state.accounts.games is not None and ann.state.accounts.games.games,
            "Ann's games",
        )
        games = ann.state.accounts.games
        assert games is not None and games.games[0].table_id == table_id
        assert games.games[0].white_change is not None and games.games[0].white_change < 0
        ann.type("\r")  # the finished game, replayed from its record
        await until(lambda: ann.client.ui.lobby.replay is not None, "the replay")
        ann.type("q")
        ann.type("R")
        await until(lambda: len(ann.state.accounts.ratings) == 2, "the ratings")
        # the lobby chat, and a challenge
        bob.line("lobby")
        await until(lambda: bob.state.screen == "lobby", "Bob in the lobby")
        ann.type("q")  # the panel closes: back to the tables
        ann.type(":")
        ann.line("challenge bob 3d")
        await until(lambda: bob.state.accounts.challenges, "the challenge")
        bob.type("c")
        bob.type("\r")
        await until(lambda: bob.state.table_id not in (None, table_id), "the game of days")
        assert bob.state.table is not None and bob.state.table.clock is not None
        assert bob.state.table.clock.days == 3
        # Ann, waiting in the lobby, is sat down at the new table by the acceptance
        await until(lambda: ann.state.table_id == bob.state.table_id, "Ann to sit down")
        assert ann.state.role == "white" and ann.state.screen == "game"
    # the token was kept: a new client logs in without the password
    stored = LoginTokens(tmp_path / "Ann" / "logins.json").get(f"ws://127.0.0.1:{server.port}")
    assert stored is not None and stored[0] == "Ann"
    async with account_player(server, "Ann", tmp_path, False) as again:
        assert again.state.accounts.account == "Ann"
        await until(lambda: again.state.accounts.games is not None, "the games after login")


def test_register_is_sent_once_welcomed() -> None:
    people = PlayersState(accounts=True)
    people.login_name, people.register, people.login_password = "Ann", True, "long password x"
    assert people.login_messages() == [Register("Ann", "long password x")]
    assert people.login_messages() == []  # the password is not kept
