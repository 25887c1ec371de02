"""Login flood benchmark: a script, not a test.

    .venv/bin/python bench/login_flood_bench.py                 # 10 s quiet, then 40 s of flood
    .venv/bin/python bench/login_flood_bench.py --seconds 60 --per-address 8

It starts `kahuna-server` in its own process on 127.0.0.1 with its default limits and the real
password cost (argon2id, RFC 9106's low-memory profile), registers two honest accounts, Ann from
127.0.0.1 and Bea from 127.0.3.1, and then, while an honest game runs and honest logins are timed,
floods the server with password guesses from 50 loopback addresses (127.0.0.2 to 127.0.0.51: the
client sockets are bound to them; all of 127/8 is the loopback on Linux):

- the flood: --per-address connections from each address, each sending a login with a wrong
  password as soon as the last one was answered (after a refusal, 0.1 s later: the message rate
  of a connection is limited), at Ann, at Bea, or at one of 200 other names (a spray);
- honest logins: every --every seconds, Ann from her own machine (127.0.0.1, an address she
  logged in from before) and Bea from a new address of another network (127.0.1.N), each timed
  from the login sent to `logged_in`;
- an honest game: a player from 127.0.0.1 against the computer (easy level, no delay), each of
  its commands timed to the update that answers it.

Printed for the quiet phase and the flood: the honest logins (p50, max, failures), the game's
command round trips (p50, p99, max), the flood's logins judged (a password checked: bad_login)
and refused unjudged (login_throttled) per minute, and the server's CPU. The targets (issue 36):
an honest login delayed by the flood by at most about 2 s, and the flood's guesses judged at a
few a minute per address and name rather than by the hundred.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server_process import cpu_seconds, start_process  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from protocol.codec import decode_server, encode  # noqa: E402
from protocol.fields import TableOptions  # noqa: E402
from protocol.messages import Command, CreateTable, Error, Hello, State, Update  # noqa: E402
from protocol.player_messages import LoggedIn, Login, Register  # noqa: E402
from shared.legality import legal_actions  # noqa: E402
from shared.views import seat_view_from_dict  # noqa: E402

PASSWORD = "honest players' long password"
FLOOD_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 52)]
HOME = "127.0.0.1"  # Ann's machine, and the honest game's
BEA_HOME = "127.0.3.1"
TARGET = 2.0  # seconds the flood may delay an honest login


def start_server(db: str, extra: list[str]) -> tuple[subprocess.Popen[str], int]:
    return start_process(
        ["-m", "server", "--host", "127.0.0.1", "--port", "0", "--no-announce",
         "--log-level", "warning", "--db", db, "--ping-interval", "0", "--computer-delay", "0",
         *extra],
    )  # fmt: skip


async def open_from(port: int, address: str, name: str, version: int = 3) -> ClientConnection:
    ws = await connect(
        f"ws://127.0.0.1:{port}", compression=None, ping_interval=None, open_timeout=10,
        max_size=2**23, local_addr=(address, 0),
    )  # fmt: skip
    await ws.send(encode(Hello(version, name)))
    await ws.recv()  # welcome
    return ws


async def answer(ws: ClientConnection) -> Any:
    """The next logged_in or error (what else comes meanwhile is skipped)."""
    while True:
        message = decode_server(await ws.recv())
        if isinstance(message, LoggedIn | Error):
            return message


# ----- the honest side ----------------------------------------------------------------------


class Honest:
    def __init__(self) -> None:
        self.logins: dict[str, list[float]] = {"ann": [], "bea": []}
        self.failures: list[str] = []
        self.moves: list[float] = []


async def timed_login(
    port: int, address: str, name: str, kind: str, honest: Honest, patience: float
) -> None:
    try:
        ws = await open_from(port, address, "guest")
        try:
            began = time.perf_counter()
            await ws.send(encode(Login(name, PASSWORD, None)))
            async with asyncio.timeout(patience):
                got = await answer(ws)
            if isinstance(got, LoggedIn):
                honest.logins[kind].append(time.perf_counter() - began)
            else:
                honest.failures.append(f"{kind}: {got.code} {got.params}")
        finally:
            await ws.close()
    except Exception as exc:
        honest.failures.append(f"{kind}: {type(exc).__name__} {exc}"[:100])


async def honest_logins(port: int, until: float, every: float, honest: Honest) -> None:
    tasks = []
    n = 0
    while time.perf_counter() < until:
        n += 1
        tasks.append(asyncio.create_task(timed_login(port, HOME, "Ann", "ann", honest, 120)))
        new = f"127.0.1.{n % 250 + 1}"  # a new address of another network each time
        tasks.append(asyncio.create_task(timed_login(port, new, "Bea", "bea", honest, 120)))
        await asyncio.sleep(every)
    await asyncio.gather(*tasks)


async def honest_game(port: int, until: float, honest: Honest) -> None:
    """Games against the computer, one after another; each command timed to its update."""
    rng = random.Random(1)
    ws = await open_from(port, HOME, "player", version=2)
    try:
        while time.perf_counter() < until:
            await ws.send(encode(CreateTable(TableOptions(), True, "white", "white"), 2))
            sent = 0.0
            while time.perf_counter() < until:
                message = decode_server(await ws.recv())
                if not isinstance(message, State | Update):
                    continue
                if isinstance(message, Update) and sent:
                    honest.moves.append(time.perf_counter() - sent)
                    sent = 0.0
                view = seat_view_from_dict(message.view)
                if view.public.result is not None:
                    break
                ctx = view.turn_context()
                if ctx is not None:
                    action = rng.choice(legal_actions(ctx))
                    sent = time.perf_counter()
                    await ws.send(
                        encode(Command(message.table_id, message.version, str(action)), 2)
                    )
    finally:
        await ws.close()


# ----- the flood ------------------------------------------------------------------------------


class Flood:
    def __init__(self) -> None:
        self.judged = 0  # bad_login: a password was checked
        self.refused = 0  # login_throttled
        self.other = 0
        self.connections = 0


async def flooder(port: int, address: str, seed: int, until: float, flood: Flood) -> None:
    rng = random.Random(seed)
    names = ["Ann", "Bea", *(f"player{n}" for n in range(200))]
    try:
        ws = await open_from(port, address, "x")
    except Exception:
        flood.other += 1
        return
    flood.connections += 1
    try:
        while time.perf_counter() < until:
            await ws.send(encode(Login(rng.choice(names), f"guess {rng.random()}", None)))
            remaining = until - time.perf_counter()
            try:
                async with asyncio.timeout(max(0.01, remaining)):
                    got = await answer(ws)
            except TimeoutError:
                return
            if isinstance(got, Error) and got.code == "bad_login":
                flood.judged += 1
            elif isinstance(got, Error) and got.code == "login_throttled":
                flood.refused += 1
                await asyncio.sleep(0.1)
            else:
                flood.other += 1
                await asyncio.sleep(0.1)
    except Exception:
        flood.other += 1
    finally:
        with contextlib.suppress(Exception):
            await ws.close()


# ----- the run ----------------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(name: str, seconds: float, honest: Honest, flood: Flood | None, cpu: float) -> None:
    print(f"\n{name} ({seconds:.0f} s; server CPU {cpu:.1f} s, {100 * cpu / seconds:.0f}%)")
    for kind, label in (("ann", "Ann, from her machine"), ("bea", "Bea, from a new address")):
        times = honest.logins[kind]
        print(
            f"  honest login, {label:<24} {len(times):3d} logins  p50 {quantile(times, 0.5):6.2f} s"
            f"  max {max(times, default=float('nan')):6.2f} s"
        )
    if honest.failures:
        print(f"  honest failures: {len(honest.failures)}: {sorted(set(honest.failures))[:4]}")
    moves = honest.moves
    print(
        f"  honest game: {len(moves)} commands, round trip p50 {1000 * quantile(moves, 0.5):.1f}"
        f" ms, p99 {1000 * quantile(moves, 0.99):.1f} ms, max {1000 * max(moves, default=0):.1f} ms"
    )
    if flood is not None:
        minutes = seconds / 60
        print(
            f"  flood: {flood.connections} connections from {len(FLOOD_ADDRESSES)} addresses;"
            f" guesses judged {flood.judged / minutes:.0f}/min, refused unjudged"
            f" {flood.refused / minutes:.0f}/min, other {flood.other}"
        )


async def flood_all(port: int, seconds: float, per_address: int) -> Flood:
    flood = Flood()
    until = time.perf_counter() + seconds
    await asyncio.gather(
        *(
            flooder(port, address, n * 100 + k, until, flood)
            for n, address in enumerate(FLOOD_ADDRESSES)
            for k in range(per_address)
        )
    )
    return flood


async def phase(port: int, seconds: float, every: float, per_address: int, flooding: bool,
                pid: int) -> tuple[Honest, Flood | None, float]:  # fmt: skip
    """The honest side here, the flood in a process of its own (so that the honest client's
    timings are not its event loop's delays)."""
    honest = Honest()
    cpu = cpu_seconds(pid)
    child = None
    if flooding:
        child = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--flood-child", str(port), "--seconds", str(seconds),
            "--per-address", str(per_address), stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        await asyncio.sleep(1.0)  # its connections open
    until = time.perf_counter() + seconds - (1.0 if flooding else 0.0)
    await asyncio.gather(
        honest_logins(port, until, every, honest), honest_game(port, until, honest)
    )
    flood = None
    if child is not None:
        out, _ = await child.communicate()
        flood = Flood()
        flood.judged, flood.refused, flood.other, flood.connections = map(int, out.split())
    return honest, flood, cpu_seconds(pid) - cpu


async def register(port: int, address: str, name: str) -> None:
    ws = await open_from(port, address, name)
    try:
        await ws.send(encode(Register(name, PASSWORD)))
        got = await answer(ws)
        if not isinstance(got, LoggedIn):
            raise SystemExit(f"could not register {name}: {got}")
    finally:
        await ws.close()


async def main_async(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(str(Path(tmp) / "server.sqlite3"), args.server_arg)
        try:
            await register(port, HOME, "Ann")
            await register(port, BEA_HOME, "Bea")
            quiet = await phase(port, args.quiet, args.every, 0, False, proc.pid)
            report("quiet", args.quiet, *quiet)
            flooded = await phase(port, args.seconds, args.every, args.per_address, True, proc.pid)
            report("login flood", args.seconds, *flooded)
            honest = flooded[0]
            worst = max([*honest.logins["ann"], *honest.logins["bea"]], default=float("inf"))
            base = quantile([*quiet[0].logins["ann"], *quiet[0].logins["bea"]], 0.5)
            print(
                f"\nthe flood delayed an honest login by {worst - base:.2f} s at most"
                f" (target {TARGET:.0f} s); {len(honest.failures)} honest login(s) failed"
            )
            return 0 if worst - base <= TARGET and not honest.failures else 1
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood-child", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument(
        "--server-arg", action="append", default=[], metavar="ARG",
        help="one more argument for kahuna-server (repeat it), e.g. --server-arg=--password-cost"
        " --server-arg=test to see the flood without the argon2 work",
    )  # fmt: skip
    parser.add_argument("--seconds", type=float, default=40.0, help="of flood (default 40)")
    parser.add_argument("--quiet", type=float, default=10.0, help="of quiet first (default 10)")
    parser.add_argument("--every", type=float, default=2.0, help="between honest logins")
    parser.add_argument(
        "--per-address", type=int, default=4, help="flooding connections per address (default 4)"
    )
    args = parser.parse_args()
    if args.flood_child is not None:
        flood = asyncio.run(flood_all(args.flood_child, args.seconds, args.per_address))
        print(flood.judged, flood.refused, flood.other, flood.connections)
        return
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
