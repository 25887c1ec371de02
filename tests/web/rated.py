"""Accounts and their games made over the protocol, for the page's tests of the lobby and of a
player's page: the archive then holds what the page shows (ratings that moved, results against
the computer), as real games left it."""

from __future__ import annotations

import asyncio
import random

from protocol.fields import TableOptions
from protocol.messages import CreateTable, Join, Joined, State
from protocol.player_messages import LoggedIn, Register
from tests.conftest import Client, play_random

PASSWORD = "a long enough password"


async def account(port: int, name: str) -> Client:
    """A connection registered and logged in as `name`."""
    client = await Client.connect(port, name)
    await client.send(Register(name, PASSWORD))
    await client.expect(LoggedIn)
    return client


async def rated_game(white: Client, black: Client, seed: int) -> str:
    """A rated game between two accounts, played to its end by random legal actions; returns
    its table id."""
    await white.send(CreateTable(TableOptions(), False, "white", "white", rated=True))
    joined = await white.expect(Joined)
    waiting = await white.expect(State)
    await black.send(Join(joined.table_id, None))
    await black.expect(Joined)
    started = await black.expect(State)
    rng = random.Random(seed)
    await asyncio.gather(
        play_random(white, joined.table_id, random.Random(rng.random()), start=waiting),
        play_random(black, joined.table_id, random.Random(rng.random()), start=started),
    )
    return joined.table_id


async def computer_game(player: Client, seed: int, level: str = "easy") -> str:
    """A game against the computer, played to its end; returns its table id."""
    await player.send(CreateTable(TableOptions(), True, "white", "white", level=level))  # type: ignore[arg-type]
    joined = await player.expect(Joined)
    state = await player.expect(State)
    await play_random(player, joined.table_id, random.Random(seed), start=state)
    return joined.table_id
