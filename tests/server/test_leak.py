"""No leak, checked on the bytes actually sent.

Many random games are played over real sockets with a spectator each. Afterwards the game is
replayed from its deal and shuffles to know the truth at every state version, and every frame each
client received is decoded from its raw bytes and searched for island names (card identities).
A card may appear only where the recipient could know it: its own hand, the face-up row, the cards
played face up, Variant 2 open cards, and events about cards it saw. The opponent's hand, the draw
pile and face-down discards never appear; a spectator's frames hold no hand at all.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import msgpack

from protocol.fields import TableOptions
from protocol.messages import Join, Joined, Reclaim, Spectate, Spectating, State
from server.net.app import KahunaServer
from shared.board import ISLANDS
from shared.events import event_to_dict
from shared.game import Game
from shared.randomness import RecordedSource
from shared.types import Seat
from tests.conftest import Client, create_table, play_random
from tests.server.test_games import follow

CARD_NAMES = set(ISLANDS)


class Truth:
    """What was true after each version: hands, the public cards, the events."""

    def __init__(self, game: Game) -> None:
        replay = Game.new(
            RecordedSource([game.deal, *game.shuffles]), game.first_player, game.options
        )
        self.hands: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        self.events: list[list[dict[str, Any]]] = [[]]
        self._snapshot(replay)
        for action in game.history:
            self.events.append([event_to_dict(e) for e in replay.apply(action)])
            self._snapshot(replay)
        assert replay.result == game.result

    def _snapshot(self, g: Game) -> None:
        def names(seat: Seat) -> tuple[str, ...]:
            return tuple(
                sorted(ISLANDS[c] for c, n in enumerate(g.hand_counts(seat)) for _ in range(n))
            )

        self.hands.append((names(Seat.WHITE), names(Seat.BLACK)))


def island_strings(obj: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(obj, str):
        if obj in CARD_NAMES:
            yield path, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from island_strings(value, f"{path}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from island_strings(value, f"{path}[{i}]")


PUBLIC_CARD_PATHS = (
    ".public.face_up", ".public.played", ".public.open_cards", ".public.tokens", ".public.known",
)  # fmt: skip
SPECTATOR_CARD_PATHS = (".face_up", ".played", ".open_cards", ".tokens", ".known")


def check_known(public: dict[str, object], hands: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    """Known cards are public only because everyone saw them taken: each must still be held."""
    known = public.get("known")
    assert isinstance(known, dict)
    for seat in Seat:
        held = list(hands[seat])
        for card in known[seat.name.lower()]:
            assert card in held, f"{seat.label} is said to hold {card}, holding {held}"
            held.remove(card)


def check_event(event: dict[str, Any], viewer: str | None) -> None:
    kind = event["type"]
    if kind == "CardDrawn" and event["seat"] != viewer:
        assert event["card"] is None, f"{viewer} saw another's draw: {event}"
    if kind == "CardDiscarded" and event["seat"] != viewer and not event["open"]:
        assert event["card"] is None, f"{viewer} saw a face-down discard: {event}"
    if kind == "PlayUndone" and event["seat"] != viewer and not event["open"]:
        # an undone face-down discard stays face down for everyone but its owner
        assert event["action"] is None or not event["action"].startswith("discard"), event
    allowed = {"card", "cards", "replacement", "face_up", "island"}
    for path, _ in island_strings(event):
        assert path.split("[")[0].lstrip(".") in allowed, (path, event)


def check_frames(client: Client, viewer: str | None, truth: Truth) -> int:
    """viewer: 'white', 'black', or None for a spectator. Returns the frames checked."""
    checked = 0
    for data in client.frames:
        frame = msgpack.unpackb(data, raw=False)
        kind = frame["type"]
        if kind == "history":  # version 2: every action's events so far, filtered like updates
            assert len(frame["events"]) == frame["version"]
            for version, events in enumerate(frame["events"], start=1):
                assert len(events) == len(truth.events[version])
                for event in events:
                    check_event(event, viewer)
            checked += 1
            continue
        if kind not in ("state", "update"):
            assert not list(island_strings(frame)), frame
            continue
        version = frame["version"]
        view = frame["view"]
        for event in frame.get("events", []):
            check_event(event, viewer)
        if kind == "update":
            assert len(frame["events"]) == len(truth.events[version])
        check_known(view if viewer is None else view["public"], truth.hands[version])
        if viewer is None:
            assert "hand" not in view and "seat" not in view
            for path, _ in island_strings(view):
                assert path.startswith(SPECTATOR_CARD_PATHS), f"spectator saw {path}"
        else:
            seat = Seat.parse(viewer)
            assert view["seat"] == viewer
            assert tuple(sorted(view["hand"])) == truth.hands[version][seat]
            for path, _ in island_strings(view):
                assert path.startswith(".hand") or path.startswith(PUBLIC_CARD_PATHS), path
        checked += 1
    return checked


async def one_game(server: KahunaServer, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    options = TableOptions(
        variant1=rng.random() < 0.5, variant2=rng.random() < 0.5
    )  # Variant 2 has open cards, which everyone may see
    white = await Client.connect(server.port, f"W{seed}")
    black = await Client.connect(server.port, f"B{seed}")
    watcher = await Client.connect(server.port, f"S{seed}")
    joined, white_state = await create_table(
        white, options=options, first=rng.choice(["white", "black"])
    )
    await watcher.send(Spectate(joined.table_id))
    await watcher.expect(Spectating)
    await black.send(Join(joined.table_id, "black"))
    await black.expect(Joined)
    black_state = await black.expect(State)
    game = server.lobby.tables[joined.table_id].game
    await asyncio.gather(
        play_random(
            white, joined.table_id, random.Random(seed * 2), start=white_state, undo_rate=0.2
        ),
        play_random(
            black, joined.table_id, random.Random(seed * 2 + 1), start=black_state, undo_rate=0.2
        ),
        follow(watcher, joined.table_id),
    )
    # a spectator who comes late and a player who takes the seat back get the whole log
    late = await Client.connect(server.port, f"L{seed}")
    await late.send(Spectate(joined.table_id))
    await late.expect(State)
    again = await Client.connect(server.port, f"W{seed}")
    await again.send(Reclaim(joined.table_id, joined.token))
    await again.expect(State)
    truth = Truth(game)
    checked = check_frames(white, "white", truth) + check_frames(black, "black", truth)
    checked += check_frames(watcher, None, truth) + check_frames(late, None, truth)
    checked += check_frames(again, "white", truth)
    taken_back = [e for events in truth.events for e in events if e["type"] == "PlayUndone"]
    assert taken_back, "the players took plays back"
    assert any(msgpack.unpackb(d)["type"] == "history" for d in late.frames)
    for client in (white, black, watcher, late, again):
        await client.close()
    return checked, len(game.history)


async def test_no_frame_leaks_a_hidden_card(server: KahunaServer) -> None:
    games = 16
    results = await asyncio.gather(*(one_game(server, seed) for seed in range(games)))
    frames = sum(r[0] for r in results)
    actions = sum(r[1] for r in results)
    assert actions > games * 50
    assert frames >= 3 * actions


def test_the_checker_catches_a_leak() -> None:
    """The checks themselves: a view with the opponent's draw in it is caught, and so is an
    undone face-down discard that names its card."""
    leaks: list[tuple[dict[str, Any], str | None]] = [
        ({"type": "CardDrawn", "seat": "black", "card": "ALOA"}, "white"),
        ({"type": "PlayUndone", "seat": "black", "action": "discard ALOA", "open": False}, None),
    ]
    for event, viewer in leaks:
        try:
            check_event(event, viewer)
        except AssertionError:
            continue
        raise AssertionError(f"the leak went unnoticed: {event}")
