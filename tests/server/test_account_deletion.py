"""Version 4's delete_account in the core, without sockets: the password asked again (a wrong
one changes nothing), refused while a game is under way, the archive's games kept under a
stand-in that names no one, the rating list without the account, its challenges and waiting
tables gone, every connection logged out; and get_game_records' pages."""

from __future__ import annotations

from protocol.account_messages import DeleteAccount, GameRecords, GetGameRecords
from protocol.codec import encode
from protocol.fields import TableOptions
from protocol.messages import CreateTable, Error, Resign, TableClosed
from protocol.player_messages import (
    Challenge,
    Challenges,
    Games,
    GetGames,
    GetRatings,
    LoggedOut,
    Login,
    PlayerNote,
    Ratings,
    Register,
)
from protocol.tournament_messages import (
    JoinTournament,
    StartTournament,
    TournamentState,
    TournamentTerms,
    WatchTournament,
)
from server.core.effects import RecordsRead
from server.core.store import DeleteAccountOp, DropLoginTokensOp, EntrantGoneOp, TournamentOp
from tests.server.test_archive import play_turns, rated_table
from tests.server.test_core import codes, of, the, writes_of
from tests.server.test_logins import SECRET
from tests.server.test_logins import Accounts as V3Accounts
from tests.server.tournament_harness import (
    NAMES,
    last_state,
    made,
    made_and_joined,
    play_round,
    v4_account,
)


class Accounts(V3Accounts):
    """The harness of version 3's accounts, its connections speaking version 4."""

    def guest(self, name: str, version: int = 4, address: str | None = None) -> int:
        return super().guest(name, version, address)


def finished_game(h: Accounts) -> tuple[int, int, str]:
    """Ann and Bob's rated game, ended by Bob's resignation after two turns each."""
    ann, bob, table_id = rated_table(h)
    play_turns(h, table_id, 2)
    h.send(bob, Resign(table_id))
    return ann, bob, table_id


def test_a_wrong_password_deletes_nothing() -> None:
    h = Accounts()
    ann, _, _ = finished_game(h)
    effects = h.send(ann, DeleteAccount("wrong horse battery"))
    (error,) = of(effects, ann, Error)
    assert (error.code, error.reason) == ("bad_password", "wrong_password")
    assert error.refused == "delete_account"
    assert not writes_of(effects, DeleteAccountOp) and not of(effects, ann, LoggedOut)
    assert "ann" in h.core._ctx.accounts.by_key
    assert h.core.sessions[ann].account == "ann"


def test_refused_while_a_game_is_under_way() -> None:
    h = Accounts()
    ann, bob, table_id = rated_table(h)
    effects = h.send(ann, DeleteAccount(SECRET))
    (error,) = of(effects, ann, Error)
    assert (error.code, error.reason) == ("cannot_delete", "playing")
    assert not effects.password_jobs  # refused before any password work
    h.send(bob, Resign(table_id))
    assert not codes(h.send(ann, DeleteAccount(SECRET)), ann)


def test_the_deleted_account_s_games_stay_under_a_stand_in() -> None:
    h = Accounts()
    ann, bob, table_id = finished_game(h)
    bob_rating = h.core._ctx.accounts.by_key["bob"].shown_rating
    again = h.guest("Ann2")
    h.send(again, Login("Ann", SECRET))
    effects = h.send(ann, DeleteAccount(SECRET))
    (op,) = writes_of(effects, DeleteAccountOp)
    assert (op.key, op.name, op.stand_in_name) == ("ann", "Ann", "deleted #1")
    assert op.reserved == ("ann",)
    assert writes_of(effects, DropLoginTokensOp)
    # both of her connections are logged out, told why
    for member in (ann, again):
        assert the(effects, member, LoggedOut).reason == "account_deleted"
        assert h.core.sessions[member].account is None
    games = the(h.send(bob, GetGames(None)), bob, Games)
    (game,) = games.games
    assert (game.white, game.black, game.table_id) == ("deleted #1", "Bob", table_id)
    assert game.black_change is not None  # Bob's rating change stays as it was
    assert h.core._ctx.accounts.by_key["bob"].shown_rating == bob_rating
    ratings = h.send(bob, GetRatings())
    assert [p.name for p in the(ratings, bob, Ratings).players] == ["Bob"]
    assert b"Ann" not in encode(the(ratings, bob, Ratings))
    assert b"Ann" not in encode(games) and b"ann" not in encode(games)
    assert codes(h.send(bob, GetGames("Ann")), bob) == ["no_such_player"]


def test_challenges_and_waiting_tables_go_and_the_name_cools() -> None:
    h = Accounts()
    ann, bob, _ = finished_game(h)
    h.send(ann, Challenge("Bob"))
    h.send(ann, CreateTable(TableOptions(), False, "white", "white"))
    effects = h.send(ann, DeleteAccount(SECRET))
    assert the(effects, bob, Challenges).challenges == []
    assert the(effects, bob, PlayerNote).note == "challenge_withdrawn"
    # the finished game's table and the one waiting for a player
    assert [c.code for c in of(effects, ann, TableClosed)] == ["account_deleted"] * 2
    assert not h.core.lobby.tables
    guest = h.guest("Someone")
    error = of(h.send(guest, Register("Ann", SECRET)), guest, Error)[0]
    assert (error.code, error.reason) == ("name_registered", "deleted_recently")
    assert error.params == {"days": "30"}
    # a guest does not get the name either while it cools
    assert h.core.sessions[h.guest("Ann")].name != "Ann"
    # nor does anyone register a stand-in's name
    error = of(h.send(guest, Register("deleted #2", SECRET)), guest, Error)[0]
    assert (error.code, error.reason) == ("bad_account_name", "bad_characters")
    # and no guest goes by one
    assert h.core.sessions[h.guest("deleted #1")].name == "deleted #1 (guest)"


def test_the_name_is_free_at_once_without_a_cooling_time() -> None:
    h = Accounts(deleted_name_cooling=0.0)
    ann, _, _ = finished_game(h)
    h.send(ann, DeleteAccount(SECRET))
    guest = h.guest("Ann")
    assert h.core.sessions[guest].name == "Ann"
    assert not codes(h.send(guest, Register("Ann", SECRET)), guest)
    # the new Ann is someone else: none of the old games are hers
    assert the(h.send(guest, GetGames(None)), guest, Games).games == []


def test_game_records_come_in_pages_read_from_storage() -> None:
    h = Accounts()
    ann, _, table_id = finished_game(h)
    effects = h.send(ann, GetGameRecords(0))
    (read,) = effects.records_reads
    assert isinstance(read, RecordsRead)
    assert (read.table_ids, read.page, read.pages, read.name) == ((table_id,), 0, 1, "Ann")
    answer = h.took(h.core.records_read(read, ["kahuna-record 1\n"], h.now, 0.0))
    records = the(answer, ann, GameRecords)
    assert [(g.table_id, g.white, g.black) for g in records.games] == [(table_id, "Ann", "Bob")]
    assert codes(h.send(ann, GetGameRecords(1)), ann) == ["bad_field"]
    guest = h.guest("Guest")
    assert codes(h.send(guest, GetGameRecords(0)), guest) == ["login_required"]


def test_tournaments_hold_an_account_until_finished_and_then_keep_its_stand_in() -> None:
    h = V3Accounts()
    players = {name: v4_account(h, name) for name in NAMES[:3]}
    ann, bob, cid = players["Ann"], players["Bob"], players["Cid"]
    open_one = made(h, cid, TournamentTerms("Later", "round_robin"))
    h.send(ann, JoinTournament(open_one))
    tournament_id = made_and_joined(
        h, bob, players.values(), TournamentTerms("Club night", "swiss", 1)
    )
    h.send(bob, StartTournament(tournament_id))
    effects = h.send(ann, DeleteAccount(SECRET))
    # her game of the round under way, or (her bye) the round itself
    assert [(e.code, e.reason in ("playing", "tournament")) for e in of(effects, ann, Error)] == [
        ("cannot_delete", True)
    ]
    play_round(h, players, tournament_id, "Cid")
    assert last_state(h, ann).summary.status == "finished"
    h.send(ann, WatchTournament(tournament_id, False))
    effects = h.send(ann, DeleteAccount(SECRET))
    assert not codes(effects, ann)
    # she left the open one; the finished one keeps her results under the stand-in
    assert writes_of(effects, EntrantGoneOp) == [EntrantGoneOp(open_one, "ann")]
    (final,) = [op.tournament for op in writes_of(effects, TournamentOp)]
    assert "ann" not in repr(final.standings) and "#deleted 1" in repr(final.standings)
    state = the(h.send(bob, WatchTournament(tournament_id)), bob, TournamentState)
    names = {p.name for p in state.players} | {s.name for s in state.standings}
    assert names == {"deleted #1", "Bob", "Cid"}
    assert b"Ann" not in encode(state)
    # the director of one not finished is held too
    (error,) = of(h.send(cid, DeleteAccount(SECRET)), cid, Error)
    assert (error.code, error.reason) == ("cannot_delete", "tournament")
