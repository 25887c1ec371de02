"""kahuna-client: play Kahuna in a terminal against a person or the computer (see --help)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output

from client.app import Client
from client.seats import SeatStore
from client.state import ClientState
from protocol.messages import CreateTable, ServerMessage, TableOptions, Welcome
from server.config import DEFAULT_PORT

DESCRIPTION = f"""\
Kahuna, Günter Cornett's two-player game of islands and bridges, in a terminal.

  kahuna-client --local            play against the computer, nothing else needed
  kahuna-client                    connect to a kahuna-server on this machine (port {DEFAULT_PORT})
  kahuna-client HOST[:PORT]        connect to a server elsewhere (or a ws:// or wss:// URL)
  kahuna-client HOST --spectate T  watch table T

In the lobby: arrows select a table, Enter joins it, s watches it, n creates a table (against
the computer or a person, with the variants and a handicap). In a game, type commands in the
game's notation (Tab completes them; F1 lists them all), e.g. 'place BARI-DUDA', 'take COCO',
'draw'. F2 draws from the pile, F3-F5 take a face-up card, F6 abstains, F7 ends a final turn.
A dropped connection is retried by itself, and the seat is taken back.
"""


def server_url(text: str | None) -> str:
    """'host', 'host:port' or a ws:// / wss:// URL, as a URL."""
    if not text:
        return f"ws://127.0.0.1:{DEFAULT_PORT}"
    if "://" in text:
        return text
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or (host.count(":") and not host.endswith("]")):
        host, port = text, str(DEFAULT_PORT)
    return f"ws://{host}:{port}"


def default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = ""
    return (name or "player")[:32]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kahuna-client",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "url",
        nargs="?",
        metavar="SERVER",
        help=f"HOST, HOST:PORT or ws://HOST:PORT (default: this machine, port {DEFAULT_PORT})",
    )
    p.add_argument(
        "--name", default=default_name(), help="your name at the table (default: %(default)s)"
    )
    p.add_argument("--spectate", metavar="TABLE", help="watch this table instead of the lobby")
    p.add_argument(
        "--local",
        action="store_true",
        help="start a server inside this program on a free loopback port and play the computer",
    )
    g = p.add_argument_group("the game --local starts (in the lobby, press n for the same choices)")
    g.add_argument("--seat", choices=["white", "black"], default="white", help="your colour")
    g.add_argument(
        "--first", choices=["white", "black", "random"], default="white", help="who moves first"
    )
    g.add_argument(
        "--variant1",
        action="store_true",
        help="Variant 1: no bridges at the opponent's islands, free rebuild",
    )
    g.add_argument(
        "--variant2",
        action="store_true",
        help="Variant 2: cards drawn from the face-up row lie open",
    )
    g.add_argument(
        "--handicap",
        metavar="SEAT:N",
        help="handicap play: SEAT (white or black) places N (1-3) free bridges first, e.g. white:2",
    )
    g.add_argument(
        "--computer-delay",
        type=float,
        default=0.8,
        help="seconds the computer waits before each action",
    )
    p.add_argument("--no-color", action="store_true", help="no colours (also when NO_COLOR is set)")
    p.add_argument("--log", metavar="FILE", help="write a debug log to FILE")
    return p


def parse_handicap(text: str | None) -> tuple[str | None, int]:
    if not text:
        return None, 0
    seat, _, count = text.partition(":")
    seat = seat.strip().lower()
    if seat not in ("white", "black") or not count.strip().isdigit() or not 1 <= int(count) <= 3:
        raise argparse.ArgumentTypeError("--handicap is SEAT:N, like white:2 (N from 1 to 3)")
    return seat, int(count)


def local_table(args: argparse.Namespace) -> CreateTable:
    seat, bridges = parse_handicap(args.handicap)
    options = TableOptions(
        args.variant1,
        args.variant2,
        "white" if seat == "white" else "black" if seat == "black" else None,
        bridges,
    )
    return CreateTable(options, True, args.seat, args.first)


async def run_client(
    args: argparse.Namespace,
    *,
    input: Input | None = None,
    output: Output | None = None,
    state: ClientState | None = None,
) -> int:
    state = state or ClientState()
    state.name = args.name
    server = None
    url = server_url(args.url)
    if args.local:
        from server.app import KahunaServer
        from server.config import ServerConfig

        server = KahunaServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                server_name="kahuna (inside the client)",
                computer_delay=args.computer_delay,
            )
        )
        await server.start()
        url = f"ws://127.0.0.1:{server.port}"
    if args.spectate:
        state.table_id, state.role, state.screen = args.spectate, "spectator", "game"
    auto_create = local_table(args) if args.local else None

    def on_message(msg: ServerMessage) -> None:
        nonlocal auto_create
        if isinstance(msg, Welcome) and auto_create is not None and state.table_id is None:
            client.send(auto_create)
            auto_create = None
            state.say("Starting a game against the computer...")

    color = ColorDepth.DEPTH_1_BIT if args.no_color or os.environ.get("NO_COLOR") else None

    client = Client(
        url,
        state,
        input=input,
        output=output,
        color_depth=color,
        on_message=on_message,
        save_dir=Path.cwd(),
        seats=None if args.local else SeatStore(),
    )
    try:
        await client.run()
    finally:
        if server is not None:
            await server.stop()
    session = client.session
    if session.fatal:
        print(f"kahuna-client: {session.fatal}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        parse_handicap(args.handicap)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    args.name = args.name.strip()
    if not 1 <= len(args.name) <= 32 or not args.name.isprintable():
        parser.error("--name takes 1 to 32 printable characters")
    root = logging.getLogger()
    if args.log:
        logging.basicConfig(filename=args.log, level=logging.DEBUG)
    else:
        root.addHandler(logging.NullHandler())  # nothing may write over the full-screen display
        root.setLevel(logging.CRITICAL)
    try:
        return asyncio.run(run_client(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
