"""The terminal client's own account commands (protocol version 4): `delete-account` says what
it does and asks twice, the password (not shown) then the account's name typed out, and sends
nothing when either is wrong or Esc'd; `download` fetches every page and writes one file of
records that kahuna-record reads, where records are saved; the logged_out that follows a
deletion says so."""

from __future__ import annotations

from pathlib import Path

from client.model.players import PlayersState
from client.model.state import ClientState
from protocol.account_messages import DeleteAccount, GameRecord, GameRecords, GetGameRecords
from protocol.messages import Error
from protocol.player_messages import LoggedIn, LoggedOut
from shared.record import replay, split_records, write_record
from shared.types import GameOptions, Seat
from tests.client.test_screen_words import lobby_line, typed
from tests.shared.test_record import random_game


def logged_in(state: ClientState) -> None:
    state.handle(LoggedIn("Ann", 1500, 350, 0, "tok", [], False))


def test_delete_account_asks_the_password_then_the_name(tmp_path: Path) -> None:
    line, state, sent = lobby_line(tmp_path)
    line.open()
    typed(line, "delete-account")
    assert state.message == "Log in to delete your account." and sent == []
    logged_in(state)
    line.open()
    typed(line, "delete-account")
    assert "cannot be undone" in state.message
    assert line.prompt() == "password of Ann, to delete the account (not shown): "
    typed(line, "my secret")
    assert line.prompt() == "type Ann to delete the account for good: "
    typed(line, "Anne")
    assert sent == [] and "not deleted" in state.message
    line.open()
    typed(line, "delete-account")
    typed(line, "my secret")
    line.cancel()  # Esc at the name
    assert sent == [] and state.message == "Your account is not deleted."
    line.open()
    typed(line, "delete-account")
    typed(line, "my secret")
    typed(line, "Ann")
    assert sent == [DeleteAccount("my secret")]
    refused = Error("bad_password", "the password is wrong", None, None, "delete_account",
                    "wrong_password")  # fmt: skip
    state.handle(refused)
    line.received(refused)
    assert state.message == "The password is wrong: your account is not deleted."


def test_the_deletion_s_logged_out_says_so() -> None:
    people = PlayersState(keep_token=lambda name, token: None)
    people.handle(LoggedIn("Ann", 1500, 350, 0, "tok", [], False), "Ann")
    said = people.handle(LoggedOut("Ann (guest)", "account_deleted"), "Ann")
    assert said is not None and said.startswith("Your account is deleted")
    assert people.account is None and people.login_token is None


def test_download_writes_every_page_into_one_file(tmp_path: Path) -> None:
    line, state, sent = lobby_line(tmp_path)
    logged_in(state)
    line.open()
    typed(line, "download")
    assert sent == [GetGameRecords(0)]
    records = [
        GameRecord(f"t{i}", "Ann", "Bob", 1.0 + i, f"# game t{i}\n" + write_record(game))
        for i, game in enumerate(random_game(s, GameOptions(), Seat.WHITE) for s in (1, 2, 3))
    ]
    line.received(GameRecords("Ann", 0, 2, records[:2]))
    assert sent[-1] == GetGameRecords(1)
    line.received(GameRecords("Ann", 1, 2, records[2:]))
    path = tmp_path / "kahuna-Ann-games.kahuna"
    assert state.message == f"Saved 3 game records to {path}"
    pieces = split_records(path.read_text(encoding="utf-8"))
    assert [replay(text).result is not None for _, text in pieces] == [True] * 3
    line.received(GameRecords("Ann", 0, 0, []))
    assert state.message == "You have no finished game to download."
