"""Issue 40: a game under way is never closed without a result. A player who steps into the
lobby and stays connected is not abandoning it, however long; a player without any connection
past --abandon-timeout loses it by forfeit, rated and archived like any forfeit, and the other
player is told; a restart in between changes none of it (docs/rules.md, R19).

The rules' timing is tested in the core with its injected time; the rest over real sockets,
with a small timeout, and across a restart on a SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from protocol.fields import TimeControl
from protocol.messages import (
    Command,
    GetRecord,
    Join,
    Joined,
    Leave,
    Left,
    Lobby,
    LobbySubscribe,
    Reclaim,
    Record,
    Spectate,
    State,
    TableClosed,
    Update,
)
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    Challenges,
    ChallengeTerms,
    Games,
    GetGames,
    LoggedIn,
    Login,
    PlayerNote,
    Register,
    Resume,
)
from server.core.store import CloseOp, FinishOp
from server.net.app import KahunaServer
from shared.types import Seat
from tests.conftest import Client, create_table, server_config
from tests.server.test_core import Harness, the, writes_of
from tests.server.test_logins import SECRET, Accounts

TIMEOUT = 30.0  # the abandonment timeout of the core's tests, in its injected seconds

# ----- the rules, in the core ---------------------------------------------------------------


def test_r19_a_player_in_the_lobby_is_never_forfeited_while_connected() -> None:
    h = Harness(abandon_timeout=TIMEOUT)
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")
    assert the(h.send(duo.white, Leave(duo.table_id)), duo.white, Left).code == "stepped_away"
    h.send(duo.black, Leave(duo.table_id))
    quiet = h.advance(50 * TIMEOUT)
    assert not quiet.writes and not quiet.sends
    table = h.table(duo.table_id)
    assert not table.closed and table.status == "playing"
    # the connection that stepped away goes: from then on, it is abandoning
    h.disconnect(duo.black)
    h.advance(h.now + TIMEOUT - 1.5)  # the sweep notices within its second
    assert table.status == "playing"
    ended = h.advance(h.now + 2.0)
    (finish,) = writes_of(ended, FinishOp)
    assert finish.result["winner"] == "white" and finish.result["kind"] == "forfeit"
    assert not writes_of(ended, CloseOp)
    again = h.player("Ana")
    back = h.send(again, Reclaim(duo.table_id, duo.white_token))
    assert the(back, again, State).view["public"]["result"] == {
        "winner": "white",
        "kind": "forfeit",
    }


def test_r19_the_first_to_go_loses_and_equally_long_gone_the_one_to_move() -> None:
    h = Harness(abandon_timeout=TIMEOUT)
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")  # black to move
    h.now = 1.0
    h.disconnect(duo.white)  # white goes first: white loses, though the game waits for black
    h.now = 2.0
    h.disconnect(duo.black)
    ended = h.advance(60.0)
    assert writes_of(ended, FinishOp)[0].result["winner"] == "black"
    # gone in the same second, as after a restart: the game waited for the one to move
    h = Harness(abandon_timeout=TIMEOUT)
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")  # black to move
    h.now = 1.0
    h.disconnect(duo.white)
    h.disconnect(duo.black)
    ended = h.advance(60.0)
    assert writes_of(ended, FinishOp)[0].result["winner"] == "white"


def test_r19_an_account_logged_in_anywhere_is_present_at_its_seat() -> None:
    h = Accounts(abandon_timeout=TIMEOUT, new_account_quiet=0.0, registrations_per_hour=0)
    ann, ann_token = h.account("Ann")
    bob, _ = h.account("Bob")
    sent = h.send(ann, Challenge("Bob", ChallengeTerms(first="white")))
    (challenge,) = the(sent, bob, Challenges).challenges
    accepted = h.send(bob, AnswerChallenge(challenge.challenge_id, "accept"))
    table_id = the(accepted, bob, Joined).table_id
    assert the(accepted, ann, PlayerNote).note == "challenge_accepted"
    # Ann never sat down; her connection goes, another of her account comes in the lobby
    h.disconnect(ann)
    elsewhere = h.guest("Ann")
    the(h.send(elsewhere, Login("Ann", None, ann_token)), elsewhere, LoggedIn)
    h.send(bob, Leave(table_id))
    assert not h.advance(10 * TIMEOUT).writes
    assert h.table(table_id).status == "playing"
    h.disconnect(elsewhere)
    ended = h.advance(h.now + TIMEOUT + 1.0)
    (finish,) = writes_of(ended, FinishOp)
    assert (finish.result["winner"], finish.result["kind"]) == ("black", "forfeit")


def test_r19_a_game_of_days_waits_for_its_deadline() -> None:
    h = Accounts(abandon_timeout=TIMEOUT, new_account_quiet=0.0, registrations_per_hour=0)
    ann, _ = h.account("Ann")
    bob, _ = h.account("Bob")
    days = ChallengeTerms(first="white", clock=TimeControl(days=1))
    (challenge,) = the(h.send(ann, Challenge("Bob", days)), bob, Challenges).challenges
    accepted = h.send(bob, AnswerChallenge(challenge.challenge_id, "accept"))
    table_id = the(accepted, bob, Joined).table_id
    h.disconnect(ann)
    h.disconnect(bob)
    assert not writes_of(h.advance(3600.0), FinishOp)
    assert h.table(table_id).status == "playing"


# ----- over real sockets ----------------------------------------------------------------------

SMALL = 0.4  # --abandon-timeout of the tests over sockets, in seconds


def config(**overrides: Any) -> dict[str, Any]:
    return {
        "abandon_timeout": SMALL,
        "sweep_interval": 0.05,
        "password_cost": "test",
        "new_account_quiet": 0.0,
        "registrations_per_hour": 0,
        **overrides,
    }


@pytest.fixture
async def servers() -> AsyncIterator[list[KahunaServer]]:
    """The servers a test starts (one after another on one database), stopped at its end."""
    started: list[KahunaServer] = []
    yield started
    for server in started:
        await server.stop()


async def start(servers: list[KahunaServer], **overrides: Any) -> KahunaServer:
    server = KahunaServer(server_config(**config(**overrides)))
    await server.start()
    servers.append(server)
    return server


async def account(port: int, name: str) -> tuple[Client, str]:
    client = await Client.connect(port, name)
    await client.send(Register(name, SECRET))
    logged = await client.expect(LoggedIn)
    assert logged.token is not None
    return client, logged.token


async def login(port: int, name: str, password: str) -> Client:
    client = await Client.connect(port, name)
    await client.send(Login(name, password))
    await client.expect(LoggedIn)
    return client


class Game:
    """Two players at a running game, each with the version it last saw."""

    def __init__(self, kind: str, table_id: str, white: Client, black: Client) -> None:
        self.kind, self.table_id = kind, table_id
        self.players = {Seat.WHITE: white, Seat.BLACK: black}
        self.tokens: dict[Seat, str] = {}
        self.version = 0

    async def draws(self, turns: int) -> None:
        """Each player ends `turns` turns by drawing, white first (so that a forfeit counts)."""
        for _ in range(turns):
            for seat in Seat:
                await self.draw(seat)

    async def draw(self, seat: Seat, action: str = "draw") -> None:
        """One turn of the seat's, ended by `action`."""
        mover = self.players[seat]
        await mover.send(Command(self.table_id, self.version, action))
        update = await mover.expect(Update)
        self.version = update.version
        await self.players[seat.other].expect(Update)

    async def step_away(self) -> None:
        for client in self.players.values():
            await client.send(Leave(self.table_id))
            assert (await client.expect(Left)).code == "stepped_away"


async def rated_game(port: int) -> Game:
    """Ann challenges Bob to a rated game; Bob accepts, Ann sits down with `resume`."""
    ann, _ = await account(port, "Ann")
    bob, _ = await account(port, "Bob")
    await ann.send(Challenge("Bob", ChallengeTerms(seat="white", first="white", rated=True)))
    challenges: list[Any] = []
    while not challenges:  # the first list came with the login
        challenges = (await bob.expect(Challenges)).challenges
    (challenge,) = challenges
    await bob.send(AnswerChallenge(challenge.challenge_id, "accept"))
    joined = await bob.expect(Joined)
    await bob.expect(State)
    note = await ann.expect(PlayerNote)
    assert (note.note, note.table_id) == ("challenge_accepted", joined.table_id)
    await ann.send(Resume(joined.table_id))
    await ann.expect(Joined)
    await ann.expect(State)
    return Game("rated", joined.table_id, ann, bob)


async def plain_game(port: int) -> Game:
    """Two guests: Ann creates a table, Bob joins it."""
    ann = await Client.connect(port, "Ann")
    bob = await Client.connect(port, "Bob")
    joined, _ = await create_table(ann, first="white")
    await bob.send(Join(joined.table_id, None))
    joined_b = await bob.expect(Joined)
    await bob.expect(State)
    game = Game("plain", joined.table_id, ann, bob)
    game.tokens = {Seat.WHITE: joined.token, Seat.BLACK: joined_b.token}
    return game


async def new_game(port: int, kind: str) -> Game:
    return await (rated_game(port) if kind == "rated" else plain_game(port))


async def come_back(game: Game, seat: Seat, client: Client) -> State:
    """Take the seat back: an account with `resume`, a guest with its token."""
    if game.kind == "rated":
        await client.send(Resume(game.table_id))
    else:
        await client.send(Reclaim(game.table_id, game.tokens[seat]))
    await client.expect(Joined)
    return await client.expect(State)


async def over_in_lobby(client: Client, table_id: str) -> None:
    """Wait for the lobby listing (to a watcher of the lobby) to show the game over."""
    for _ in range(100):
        listing = await client.expect(Lobby, timeout=10)
        if any(t.table_id == table_id and t.status == "over" for t in listing.tables):
            return
    raise AssertionError("the lobby never showed the game over")


async def check_forfeit(server: KahunaServer, game: Game, loser: Seat, told: Client) -> None:
    """The game is over by the loser's forfeit, archived (rated for accounts) with its record,
    and `told` (at the table or not) can read all of it."""
    table = server.lobby.tables[game.table_id]
    result = table.game.result
    assert result is not None and (result.kind.value, result.winner) == ("forfeit", loser.other)
    await told.send(GetRecord(game.table_id))
    record = await told.expect(Record)
    assert f"{loser.name.lower()} forfeits" in record.text
    if game.kind == "plain":
        return
    await told.send(GetGames(None))
    games = await told.expect(Games)
    (entry,) = [g for g in games.games if g.table_id == game.table_id]
    assert (entry.status, entry.ending, entry.rated) == ("over", "forfeit", True)
    assert entry.winner == loser.other.name.lower()
    changes = {Seat.WHITE: entry.white_change, Seat.BLACK: entry.black_change}
    lost, won = changes[loser], changes[loser.other]
    assert lost is not None and lost < 0
    assert won is not None and won > 0


@pytest.mark.parametrize("kind", ["rated", "plain"])
async def test_both_in_the_lobby_connected_past_the_timeout_keep_the_game(
    servers: list[KahunaServer], kind: str
) -> None:
    server = await start(servers)
    game = await new_game(server.port, kind)
    await game.draws(1)
    await game.step_away()
    watcher = await Client.connect(server.port, "Cy")
    await watcher.send(Spectate(game.table_id))
    await watcher.expect(State)
    await asyncio.sleep(8 * SMALL)
    for client in (*game.players.values(), watcher):
        said = await client.quiet(0.1)
        assert not [m for m in said if isinstance(m, TableClosed | Update)], said
    table = server.lobby.tables[game.table_id]
    assert table.status == "playing" and not table.closed
    if kind == "rated":
        await game.players[Seat.BLACK].send(GetGames(None))
        (entry,) = (await game.players[Seat.BLACK].expect(Games)).games
        assert (entry.table_id, entry.status) == (game.table_id, "playing")
    for seat, client in game.players.items():
        state = await come_back(game, seat, client)
        assert (state.status, state.version) == ("playing", game.version)
    await game.draws(1)  # and the game goes on


@pytest.mark.parametrize("where", ["at the table", "in the lobby"])
@pytest.mark.parametrize("kind", ["rated", "plain"])
async def test_a_player_gone_past_the_timeout_loses_by_forfeit(
    servers: list[KahunaServer], kind: str, where: str
) -> None:
    server = await start(servers)
    game = await new_game(server.port, kind)
    await game.draws(2)  # each completed two turns: the game counts
    ann, bob = game.players[Seat.WHITE], game.players[Seat.BLACK]
    if where == "in the lobby":
        await game.step_away()
        await bob.send(LobbySubscribe())
        await asyncio.sleep(4 * SMALL)  # both connected: nothing happens
        assert server.lobby.tables[game.table_id].status == "playing"
    await ann.close()
    if where == "at the table":
        update = await bob.expect(Update)
        assert update.view["public"]["result"] == {"winner": "black", "kind": "forfeit"}
    else:
        await over_in_lobby(bob, game.table_id)
        state = await come_back(game, Seat.BLACK, bob)  # the finished table is still open
        assert state.view["public"]["result"] == {"winner": "black", "kind": "forfeit"}
    await check_forfeit(server, game, Seat.WHITE, bob)
    if kind == "rated":  # the one who left finds it in their games, and its record
        ann = await login(server.port, "Ann", SECRET)
        await check_forfeit(server, game, Seat.WHITE, ann)


@pytest.mark.parametrize("kind", ["rated", "plain"])
async def test_a_restart_in_between_changes_nothing(
    servers: list[KahunaServer], tmp_path: Path, kind: str
) -> None:
    """Both in the lobby, the server restarts. Bob comes back (logs in; a guest takes the seat
    back) and stays away from the table past the timeout: he keeps the game. Ann never comes
    back: her abandonment clock, started again at the restart, runs out and she forfeits."""
    db = str(tmp_path / "kahuna.sqlite3")
    timeout = 2.0  # room for the restart and the coming back (a slow machine included)
    server = await start(servers, db=db, abandon_timeout=timeout)
    game = await new_game(server.port, kind)
    await game.draws(2)
    await game.draw(Seat.WHITE, "abstain")  # Bob to move: had he been taken for gone, he would lose
    await game.step_away()
    await asyncio.sleep(1.5 * timeout)
    assert server.lobby.tables[game.table_id].status == "playing"
    await server.stop()
    servers.remove(server)
    for client in game.players.values():
        await client.close()
    server = await start(servers, db=db, abandon_timeout=timeout)
    table = server.lobby.tables[game.table_id]
    assert table.status == "playing" and table.version == game.version
    if kind == "rated":
        bob = await login(server.port, "Bob", SECRET)
    else:
        bob = await Client.connect(server.port, "Bob")
        await come_back(game, Seat.BLACK, bob)
        await bob.send(Leave(game.table_id))  # and steps away again, connected
        await bob.expect(Left)
    await bob.send(LobbySubscribe())
    await over_in_lobby(bob, game.table_id)
    if kind == "plain":  # a guest reads the record at the table
        state = await come_back(game, Seat.BLACK, bob)
        assert state.status == "over"
    await check_forfeit(server, game, Seat.WHITE, bob)
