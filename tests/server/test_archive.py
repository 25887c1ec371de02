"""Ratings, statistics and the archive in the core: a rated game changes both ratings as
Glicko-2 says, a resignation is a loss, an early end is not rated, a game against the computer
counts per level; the archive lists games newest first and gives their records, and reveals
nothing of a running game's hidden cards."""

from __future__ import annotations

from protocol.codec import encode
from protocol.fields import TableOptions
from protocol.messages import (
    CreateTable,
    GetRecord,
    Join,
    Joined,
    PlayersChanged,
    Record,
    Resign,
    TableNote,
)
from protocol.player_messages import Games, GetGames, GetRatings, LoggedIn, Ratings, Register
from server.core.effects import Effects, RecordRead
from server.core.glicko2 import Rating, rate_game
from server.core.store import AccountOp, ArchiveOp, StoredPlayers
from server.core.table import Closing, MemberId
from shared.board import ISLANDS
from shared.record import write_record
from shared.types import Seat
from tests.server.test_core import codes, the, writes_of
from tests.server.test_logins import SECRET, Accounts


def new_table(h: Accounts, ann: MemberId, bob: MemberId, rated: bool = True) -> str:
    effects = h.send(ann, CreateTable(TableOptions(), False, "white", "white", rated=rated))
    table_id = the(effects, ann, Joined).table_id
    the(h.send(bob, Join(table_id, "black")), bob, Joined)
    return table_id


def rated_table(h: Accounts, rated: bool = True) -> tuple[MemberId, MemberId, str]:
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    return ann, bob, new_table(h, ann, bob, rated)


def members(h: Accounts, table_id: str) -> dict[Seat, MemberId]:
    return {
        seat: holder.member
        for seat, holder in h.table(table_id).seats.items()
        if holder is not None and holder.member is not None
    }


def play_turns(h: Accounts, table_id: str, turns: int) -> None:
    """Each player ends `turns` turns by drawing (or abstaining with a full hand)."""
    table = h.table(table_id)
    seated = members(h, table_id)
    for _ in range(2 * turns):
        legal = [str(a) for a in table.game.legal_actions()]
        action = "draw" if "draw" in legal else "abstain" if "abstain" in legal else legal[0]
        h.act(seated[table.game.to_move], table_id, action)


def play_out(h: Accounts, table_id: str) -> Effects:
    """Random legal actions to the end; every write and message, merged."""
    table = h.table(table_id)
    seated = members(h, table_id)
    merged = Effects()
    for _ in range(5000):
        if table.game.is_over:
            return merged
        effects = h.act(seated[table.game.to_move], table_id)
        merged.writes += effects.writes
        merged.sends += effects.sends
    raise AssertionError("the game did not end")


def test_a_rated_game_played_out_changes_both_ratings_as_glicko2_says() -> None:
    h = Accounts()
    ann, bob, table_id = rated_table(h)
    table = h.table(table_id)
    assert table.rated and table.info().rated
    effects = play_out(h, table_id)
    result = table.game.result
    assert result is not None
    score = 0.5 if result.winner is None else float(result.winner is Seat.WHITE)
    white, black = rate_game(Rating(), Rating(), score)
    accounts = h.core._ctx.accounts
    assert accounts.by_key["ann"].rating == white.rating
    assert accounts.by_key["bob"].rating == black.rating
    (archived,) = writes_of(effects, ArchiveOp)
    game = archived.game
    assert game.rated and (game.white_account, game.black_account) == ("ann", "bob")
    assert game.white_change == round(white.rating) - 1500
    players = [m for m in h.sent_to(ann) if isinstance(m, PlayersChanged)][-1].players
    assert players.white is not None and players.white.rating == round(white.rating)
    listing = the(h.send(bob, GetGames(None)), bob, Games)
    assert [g.table_id for g in listing.games] == [table_id]
    assert listing.games[0].black_change == game.black_change
    board = the(h.send(ann, GetRatings()), ann, Ratings)
    assert {e.name for e in board.players} == {"Ann", "Bob"}
    assert board.players[0].rating >= board.players[1].rating


def test_a_resignation_is_a_loss_and_an_early_end_is_not_rated() -> None:
    h = Accounts()
    ann, bob, table_id = rated_table(h)
    effects = h.send(ann, Resign(table_id))
    (early,) = writes_of(effects, ArchiveOp)
    assert not early.game.rated and early.game.winner == "black"
    assert h.core._ctx.accounts.by_key["ann"].rating == 1500
    second = new_table(h, ann, bob)
    play_turns(h, second, 2)
    effects = h.send(ann, Resign(second))
    (archived,) = writes_of(effects, ArchiveOp)
    assert archived.game.rated and archived.game.ending == "resigned"
    accounts = h.core._ctx.accounts
    assert accounts.by_key["ann"].rating < 1500 < accounts.by_key["bob"].rating
    assert accounts.by_key["ann"].rated == [0, 1, 0]
    listing = the(h.send(ann, GetGames("bob")), ann, Games)
    assert [g.table_id for g in listing.games] == [second, table_id]  # newest first


def test_an_unrated_table_and_a_guest_opponent_change_no_rating() -> None:
    h = Accounts()
    ann, _, table_id = rated_table(h, rated=False)
    play_turns(h, table_id, 2)
    effects = h.send(ann, Resign(table_id))
    assert not writes_of(effects, ArchiveOp)[0].game.rated
    assert all(op.account.rating == 1500 for op in writes_of(effects, AccountOp))


def test_games_against_the_computer_count_per_level_unrated() -> None:
    h = Accounts()
    ann, _ = h.account("Ann")
    effects = h.send(ann, CreateTable(TableOptions(), True, "white", "white", level="strong"))
    table_id = the(effects, ann, Joined).table_id
    assert not h.table(table_id).rated
    effects = h.send(ann, Resign(table_id))
    assert h.core._ctx.accounts.by_key["ann"].computer == {"strong": [0, 1, 0]}
    assert writes_of(effects, ArchiveOp)[0].game.level == "strong"
    stats = the(h.send(ann, GetGames(None)), ann, Games).stats
    assert stats.computer == {"strong": [0, 1, 0]} and stats.rated == [0, 0, 0]


def test_a_closed_tables_record_comes_from_the_archive() -> None:
    h = Accounts()
    ann, bob, table_id = rated_table(h)
    h.send(ann, Resign(table_id))
    record = write_record(h.table(table_id).game)
    h.core._tables.close_table(h.table(table_id), Closing("over", "over"), h.now)
    assert table_id not in h.core.lobby.tables
    effects = h.send(bob, GetRecord(table_id))
    assert effects.record_reads == [RecordRead(bob, table_id)]
    answer = h.took(h.core.record_read(bob, table_id, record, h.now, 0.0))
    assert the(answer, bob, Record).text == record
    assert codes(h.send(bob, GetRecord("nothere")), bob) == ["no_such_game"]


def test_the_archive_and_the_ratings_come_back_after_a_restart() -> None:
    h = Accounts()
    ann, _, table_id = rated_table(h)
    play_turns(h, table_id, 2)
    h.send(ann, Resign(table_id))
    ops = [op for batch in h.batches for op in batch]
    accounts = {op.account.key: op.account for op in ops if isinstance(op, AccountOp)}
    archive = [op.game for op in ops if isinstance(op, ArchiveOp)]
    again = Accounts()
    again.took(
        again.core.restore_players(StoredPlayers(list(accounts.values()), [], [], archive), 0, 0)
    )
    viewer = again.guest("Viewer")
    listing = the(again.send(viewer, GetGames("Ann")), viewer, Games)
    assert [g.table_id for g in listing.games] == [table_id]
    assert listing.rating == round(accounts["ann"].rating) < 1500


def test_lists_of_games_reveal_no_hidden_card_of_a_running_game() -> None:
    h = Accounts()
    ann, _, table_id = rated_table(h)
    play_turns(h, table_id, 1)
    watcher = h.guest("Watcher")
    answers: list[Games | Ratings] = [
        the(h.send(watcher, GetGames("Ann")), watcher, Games),
        the(h.send(ann, GetGames(None)), ann, Games),
        the(h.send(watcher, GetRatings()), watcher, Ratings),
    ]
    sent = b"".join(encode(m) for m in answers)
    game = h.table(table_id).game
    assert game.hand[0] and game.hand[1]
    for island in ISLANDS:  # a card is an island's name: none is in these answers
        assert island.encode() not in sent
    listing = the(h.send(ann, GetGames(None)), ann, Games)
    assert listing.games[0].status == "playing"
    assert listing.games[0].to_move == game.to_move.name.lower()
    assert codes(h.send(watcher, GetRecord(table_id)), watcher) == ["not_at_table"]


def test_a_rated_game_too_short_to_count_is_said_to_version_4_only() -> None:
    h = Accounts()
    ann = h.guest("Ann", 4)
    the(h.send(ann, Register("Ann", SECRET)), ann, LoggedIn)
    bob, _ = h.account("Bob")  # version 3: the note is not in its protocol
    table_id = new_table(h, ann, bob)
    h.send(ann, Resign(table_id))
    said = [m for m in h.sent_to(ann) if isinstance(m, TableNote)]
    assert said == [TableNote(table_id, "not_rated", None, "too_short")]
    assert not [m for m in h.sent_to(bob) if isinstance(m, TableNote)]
    second = new_table(h, ann, bob)
    play_turns(h, second, 2)  # long enough: rated, and nothing more said
    h.send(ann, Resign(second))
    assert len([m for m in h.sent_to(ann) if isinstance(m, TableNote)]) == 1
    unrated = new_table(h, ann, bob, rated=False)  # not asked rated: nothing to explain
    h.send(ann, Resign(unrated))
    assert len([m for m in h.sent_to(ann) if isinstance(m, TableNote)]) == 1
