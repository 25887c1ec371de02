"""A player's action followed through the server's code: a script, not a test.

    .venv/bin/python bench/action_trace.py                        # this tree
    .venv/bin/python bench/action_trace.py --root /tmp/base-tree  # another checkout (say 9df2074)
    .venv/bin/python bench/action_trace.py --steps               # and every stop, with its function

It builds a ServerCore with a seeded rng and a seeded deal, seats two players (protocol version
3) at a table with a clock and one spectator, plays to the first turn on which the player to move
may `place` a bridge, and then follows two frames through the core with sys.setprofile: that
`place` and the `draw` that ends the turn. For each it prints the server's files in the order
the code runs through them (a stop is each time the code arrives in a file of server/, by a call
or by returning to its caller; code of shared/, protocol/ and the standard library is passed
through, as a reader of the server would take it as read), the stops, the files, and the
returns to a file already left: the stops that arrive in a file visited before, which is what a
reader following the action has to go back to (stops minus files).

Issue 41 asks that a player's action make at most half the returns it made at 9df2074. The
script works on both layouts of the server (server/core.py there, server/core/core.py since),
importing from the tree given with --root.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent.parent
WALL = 1_700_000_000.0


def load(root: Path) -> dict[str, Any]:
    """The core and what feeding it needs, from the tree at `root` (either layout)."""
    sys.path.insert(0, str(root))
    found: dict[str, Any] = {}
    for name, places in {
        "ServerCore": ("server.core.core", "server.core"),
        "ServerConfig": ("server.core.config", "server.config"),
    }.items():
        for place in places:
            try:
                found[name] = getattr(importlib.import_module(place), name)
                break
            except (ImportError, AttributeError):
                continue
        else:
            raise SystemExit(f"no {name} in {root}")
    for name, place in {
        "encode": "protocol.codec",
        "TableOptions": "protocol.fields",
        "TimeControl": "protocol.fields",
        "Command": "protocol.messages",
        "CreateTable": "protocol.messages",
        "Hello": "protocol.messages",
        "Join": "protocol.messages",
        "Spectate": "protocol.messages",
        "SeededSource": "shared.randomness",
    }.items():
        found[name] = getattr(importlib.import_module(place), name)
    module = sys.modules[found["ServerCore"].__module__]
    assert Path(module.__file__ or "").resolve().is_relative_to(root), "imported another tree"
    return found


class Game:
    """Two players and a spectator at one table with a clock, fed to a core in events."""

    def __init__(self, api: dict[str, Any], seed: int) -> None:
        self.api = api
        seeds = itertools.count(seed)
        config = api["ServerConfig"](
            source_factory=lambda: api["SeededSource"](next(seeds)), rng=random.Random(seed)
        )
        self.core = api["ServerCore"](config, rng=random.Random(seed))
        self.now = 0.0
        self.white = self.connect("10.0.0.1", "Ana")
        self.black = self.connect("10.0.0.2", "Bo")
        watcher = self.connect("10.0.0.3", "Cy")
        clock = api["TimeControl"](initial=600, increment=5)
        self.send(self.white, api["CreateTable"](api["TableOptions"](), clock=clock))
        (self.table_id,) = self.core.lobby.tables
        self.send(self.black, api["Join"](self.table_id))
        self.send(watcher, api["Spectate"](self.table_id))

    def connect(self, address: str, name: str) -> int:
        member = self.core.connect(address, self.now)
        assert isinstance(member, int), member
        self.send(member, self.api["Hello"](3, name))
        return member

    def send(self, member: int, message: Any) -> Any:
        self.now += 1.0
        data = self.api["encode"](message, 3)
        return self.core.frame(member, data, self.now, WALL + self.now)

    @property
    def table(self) -> Any:
        return self.core.lobby.tables[self.table_id]

    def legal(self) -> list[str]:
        return [str(a) for a in self.table.game.legal_actions()]

    def command(self, action: str) -> Callable[[], Any]:
        """The frame of the player to move's action, ready to be handed to the core."""
        table = self.table
        mover = self.white if table.game.to_move.name == "WHITE" else self.black
        message = self.api["Command"](self.table_id, table.version, action)
        return lambda: self.send(mover, message)

    def to_a_placement(self, chooser: random.Random) -> str:
        """Play on (draws and takes) until the player to move may place a bridge."""
        for _ in range(200):
            legal = self.legal()
            places = sorted(a for a in legal if a.startswith("place "))
            if places:
                return places[0]
            ends = [a for a in legal if a.split()[0] in ("draw", "take")]
            self.command(chooser.choice(ends or legal))()
        raise SystemExit("no placement came")


def trace(run: Callable[[], Any], server: Path) -> list[tuple[str, str]]:
    """The stops of one call: each arrival in a file of server/, with what brought it there."""
    prefix = str(server) + os.sep
    stops: list[tuple[str, str]] = []

    def home(frame: FrameType | None) -> str | None:
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(prefix):
                return name[len(prefix) :]
            frame = frame.f_back
        return None

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            where, how = home(frame), frame.f_code.co_name
        elif event == "return":
            where, how = home(frame.f_back), "back"
        else:
            return
        if where is not None and (not stops or stops[-1][0] != where):
            stops.append((where, how))

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return stops


def report(label: str, stops: list[tuple[str, str]], steps: bool) -> int:
    files = list(dict.fromkeys(where for where, _ in stops))
    returns = len(stops) - len(files)
    counts = f"{len(stops)} stops in {len(files)} files, {returns} returns to a file already left"
    print(f"{label}: {counts}")
    if steps:
        for where, how in stops:
            print(f"    {where:<24} {how}")
    else:
        print("    " + " > ".join(Path(where).stem for where, _ in stops))
    return returns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the tree to trace (default: this)")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--steps", action="store_true", help="list every stop and its function")
    args = parser.parse_args()
    root = args.root.resolve()
    api = load(root)
    game = Game(api, args.seed)
    place = game.to_a_placement(random.Random(args.seed))
    for label, action in ((place, place), ("draw", "draw")):
        assert action in game.legal(), f"{action} is not legal here: {game.legal()}"
        version = game.table.version
        report(label, trace(game.command(action), root / "server"), args.steps)
        assert game.table.version == version + 1, f"{action} was refused"
    print(f"(tree {root}, seed {args.seed}, table {game.table_id})")


if __name__ == "__main__":
    main()
