"""Two silences a new player took for faults, said: a rated table's game too short to be rated
(version 4's table_note not_rated), where the rating change would come; and a login kept on
this machine for another account than the --name asked for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from client.cli.options import build_parser
from client.language.i18n import set_language
from client.model.players import PlayersState
from client.model.state import ClientState
from protocol.messages import TableNote
from protocol.player_messages import LoggedIn
from tests.client.test_standby import run_until
from tests.conftest import ServerFactory


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


TOO_SHORT = {
    "en": "Not rated: the game ended before each player had played 2 turns",
    "de": "Nicht gewertet: Die Partie endete, bevor jeder Spieler 2 Züge gespielt hatte",
    "it": "Non valutata: la partita è finita prima che ogni giocatore avesse giocato 2 turni",
}


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_a_game_too_short_to_rate_is_said_in_the_log(language: str) -> None:
    set_language(language)
    state = ClientState(name="Ann")
    state.table_id = "t1"
    state.handle(TableNote("t1", "not_rated", None, "too_short"))
    assert [line.text for line in state.log] == [TOO_SHORT[language]]


def test_a_not_rated_note_of_an_unknown_reason_says_nothing() -> None:
    state = ClientState(name="Ann")
    state.table_id = "t1"
    state.handle(TableNote("t1", "not_rated", None, "some_later_reason"))
    assert state.log == []


KEPT = {
    "en": "Logged in as Ann (1500), a login kept on this machine, not as Carla: ':logout'"
    " forgets it, and the next start plays as Carla, a guest.",
    "de": "Angemeldet als Ann (1500), eine auf diesem Rechner gespeicherte Anmeldung, nicht als"
    " Carla: »:abmelden« vergisst sie, und der nächste Start spielt als Carla, als Gast.",
    "it": "Accesso come Ann (1500), un accesso conservato su questo computer, non come Carla:"
    " «:scollegati» lo dimentica, e il prossimo avvio gioca come Carla, come ospite.",
}


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_a_kept_login_of_another_name_is_said_once(language: str) -> None:
    set_language(language)
    people = PlayersState(name_asked="Carla")
    logged = LoggedIn("Ann", 1500, 350, 0, None, [], False)
    assert people.handle(logged, "Ann") == KEPT[language]
    again = people.handle(logged, "Ann")  # a reconnection's login: said once is enough
    assert again is not None and "Carla" not in again


def test_the_same_name_in_other_letters_says_nothing_more() -> None:
    people = PlayersState(name_asked="ann")
    said = people.handle(LoggedIn("Ann", 1500, 350, 0, None, [], False), "Ann")
    assert said == "Logged in as Ann (1500)."


async def test_name_carla_on_a_machine_keeping_anns_login(
    make_server: ServerFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    server = await make_server(password_cost="test")
    url = f"ws://127.0.0.1:{server.port}"
    args = build_parser().parse_args(["--name", "Ann", "--register", "Ann", url])
    args.password = "Ann has a long password"
    first = ClientState()
    await run_until(args, first, lambda: first.accounts.account == "Ann", "Ann to register")
    carla = ClientState()
    args = build_parser().parse_args(["--name", "Carla", url])
    await run_until(args, carla, lambda: carla.accounts.account == "Ann", "the kept login")
    assert carla.message == KEPT["en"].replace("1500", str(carla.accounts.rating))
    assert carla.name == "Ann"  # the behaviour stays: the kept account plays
