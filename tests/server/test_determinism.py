"""The core is a function of its events: the same events at the same times, with the same seed,
give the same effects, the cards included. That nothing it imports reads a clock, a socket or
the system's randomness is a contract of pyproject.toml's [tool.importlinter]
(tests/test_layers.py)."""

from __future__ import annotations

import random

from protocol.fields import TableOptions
from protocol.messages import CreateTable, Hello, Join, Reclaim
from server.core.config import ServerConfig
from server.core.table import MemberId
from shared.history import Chance
from tests.server.test_golden_frames import Shell, play, run_session


def test_the_same_events_give_the_same_effects() -> None:
    first, second = run_session(), run_session()
    assert len(first.effects) == len(second.effects) > 100
    for index, (one, other) in enumerate(zip(first.effects, second.effects, strict=True)):
        assert one == other, f"effects {index} differ"
    assert first.recording == second.recording  # the bytes each connection is sent, too


def greeted(shell: Shell, address: str, name: str) -> MemberId:
    member = shell.connect(address)
    assert isinstance(member, int)
    shell.send(member, Hello(2, name))
    return member


def default_session(seed: int, actions: int = 60) -> tuple[Shell, str, int]:
    """Two players at a table, the server restarted halfway, on a default ServerConfig: nothing
    seeded but the core's rng, so the deal and every reshuffle come from it."""
    s = Shell(random.Random(seed), config=ServerConfig)
    ana, bo = greeted(s, "10.0.0.1", "Ana"), greeted(s, "10.0.0.2", "Bo")
    s.send(ana, CreateTable(TableOptions(), seat="white", first="random"))
    game = s.table_of(ana)
    s.send(bo, Join(game))
    play(s, {"white": ana, "black": bo}, game, actions)
    tokens = s.token_of(ana, game), s.token_of(bo, game)
    restored_at = len(s.core.lobby.tables[game].game.log)
    s.restart()  # the game rebuilt from its log; its shuffles from here on are the new core's
    ana, bo = greeted(s, "10.0.0.1", "Ana"), greeted(s, "10.0.0.2", "Bo")
    s.send(ana, Reclaim(game, tokens[0]))
    s.send(bo, Reclaim(game, tokens[1]))
    play(s, {"white": ana, "black": bo}, game, actions)
    return s, game, restored_at


def test_a_default_config_with_only_the_rng_seeded_deals_the_same_cards() -> None:
    (first, game, restored_at), (second, _, _) = default_session(42), default_session(42)
    log = first.core.lobby.tables[game].game.log
    # a reshuffle after the restart: the restored game drew from the new core's rng
    assert any(isinstance(entry, Chance) for entry in log[restored_at:])
    assert len(first.effects) == len(second.effects) > 100
    for index, (one, other) in enumerate(zip(first.effects, second.effects, strict=True)):
        assert one == other, f"effects {index} differ"  # the hands sent, every state written
    assert first.recording == second.recording
    assert log == second.core.lobby.tables[game].game.log


def test_the_cards_follow_the_seed() -> None:
    def deal(seed: int) -> tuple[int, ...]:
        shell, game, _ = default_session(seed, actions=0)
        return tuple(shell.core.lobby.tables[game].game.deal)

    deals = {seed: deal(seed) for seed in (1, 2, 3)}
    assert len(set(deals.values())) == 3
    assert all(deal(seed) == cards for seed, cards in deals.items())
