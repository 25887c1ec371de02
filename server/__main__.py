"""kahuna-server: run the Kahuna game server (see --help)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.metadata
import ipaddress
import logging
import os
import signal
import socket
import ssl
import sys
import textwrap
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from protocol.messages import SUPPORTED_VERSIONS
from server.app import KahunaServer
from server.config import DEFAULT_PORT, ServerConfig
from server.sqlite_store import default_db_path
from server.store import StorageError

if TYPE_CHECKING:
    from server.discovery import Announcer

log = logging.getLogger("server")

DESCRIPTION = """\
The Kahuna game server. Players connect with the terminal client to ws://HOST:PORT
(or wss:// with --tls-cert/--tls-key). The server holds the hidden hands and the deck;
each client only receives what its seat may see. Stop it with Ctrl-C or SIGTERM.
"""


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is a number from 0 to 65535")
    return port


def _number(kind: type[float] | type[int], least: float, what: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
        if value != value or value in (float("inf"), float("-inf")) or value < least:
            raise argparse.ArgumentTypeError(f"{text!r}: {what}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


positive_int = _number(int, 1, "must be 1 or more")
natural_int = _number(int, 0, "must be 0 or more")
positive_float = _number(float, 1e-9, "must be more than 0")
natural_float = _number(float, 0, "must be 0 or more")


def records_dir(path: Path) -> str | None:
    """Why the --records directory cannot be used, or None when a record can be written there
    (it is made if need be)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"--records {path}: not a directory"
    except OSError as exc:
        return f"--records {path}: cannot make the directory: {exc.strerror or exc}"
    if not path.is_dir():
        return f"--records {path}: not a directory"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"--records {path}: the directory is not writable"
    return None


NAME_MAX = 63  # bytes of UTF-8: the name is also the server's DNS-SD instance name on the LAN


def server_name(text: str) -> str:
    name = text.strip()
    if not name or not name.isprintable() or len(name.encode()) > NAME_MAX:
        raise argparse.ArgumentTypeError(f"{text!r}: a name is 1 to {NAME_MAX} printable bytes")
    return name


def default_name() -> str:
    """This machine's name, as much of it as a server's name holds."""
    name = "".join(c for c in socket.gethostname() if c.isprintable()).strip() or "kahuna-server"
    while len(name.encode()) > NAME_MAX:
        name = name[:-1]
    return name


def ip_address(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an IP address") from None


class AppendReplacing(argparse.Action):
    """Like action="append", except that the values given on the command line replace the
    default (the one the --config file gave) instead of adding to it."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = f"_{self.dest}_given"
        items = (
            list(getattr(namespace, self.dest) or []) if getattr(namespace, given, False) else []
        )
        setattr(namespace, self.dest, [*items, values])
        setattr(namespace, given, True)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Each option's default, and the description and epilog as they are written."""


def raise_fd_limit() -> tuple[int, int] | None:
    """Lift the soft limit on open files to the hard one: every connection is a descriptor.
    Returns the (soft, hard) limits now in force, None where unknown."""
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft, hard


def build_parser() -> argparse.ArgumentParser:
    d = ServerConfig()
    p = argparse.ArgumentParser(
        prog="kahuna-server",
        description=DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="read the options from FILE, a TOML file (its keys are below); flags given as well"
        " override it",
    )
    p.add_argument(
        "--host", default=d.host, help="address to listen on; 0.0.0.0 is every interface"
    )
    p.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT, help="TCP port; 0 picks a free one"
    )
    p.add_argument(
        "--tls-cert", metavar="PEM", help="certificate chain, to serve wss:// (needs --tls-key)"
    )
    p.add_argument("--tls-key", metavar="PEM", help="private key of --tls-cert")
    p.add_argument(
        "--name",
        type=server_name,
        default=default_name(),
        help="the server's name: players see it when they connect and on the LAN",
    )
    p.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the server on the LAN (DNS-SD over multicast DNS, as"
        " _kahuna._tcp, which kahuna-client --find lists)",
    )
    p.add_argument(
        "--lan-interface",
        metavar="ADDR",
        type=ip_address,
        action=AppendReplacing,
        help="announce on the interface with this address only (may be repeated); default:"
        " the interface of --host, every one for 0.0.0.0",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    p.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="how much to log to stderr",
    )
    g = p.add_argument_group("limits")
    g.add_argument(
        "--max-frame",
        type=positive_int,
        default=d.max_frame,
        help="bytes a client frame may hold; longer ones get error frame_too_large",
    )
    g.add_argument(
        "--hard-max-frame",
        type=positive_int,
        default=d.hard_max_frame,
        help="a frame longer than this closes the connection (1009)",
    )
    g.add_argument(
        "--rate", type=positive_float, default=d.rate, help="messages per second per connection"
    )
    g.add_argument(
        "--burst", type=positive_int, default=d.burst, help="messages a connection may send at once"
    )
    g.add_argument(
        "--flood-limit",
        type=positive_int,
        default=d.flood_limit,
        help="messages dropped for the rate before the connection is closed (1008)",
    )
    g.add_argument(
        "--max-per-address",
        type=positive_int,
        default=d.max_per_address,
        help="simultaneous connections from one IP address",
    )
    g.add_argument(
        "--max-connections",
        type=positive_int,
        default=d.max_connections,
        help="simultaneous connections in all",
    )
    g.add_argument(
        "--max-tables", type=positive_int, default=d.max_tables, help="open tables in all"
    )
    g.add_argument(
        "--tables-per-connection",
        type=positive_int,
        default=d.tables_per_connection,
        help="tables one connection may sit or watch at",
    )
    g.add_argument(
        "--hello-timeout",
        type=positive_float,
        default=d.hello_timeout,
        help="seconds a new connection has to send hello",
    )
    g.add_argument(
        "--ping-interval",
        type=natural_float,
        default=d.ping_interval,
        help="seconds between keepalive pings; 0 turns them off",
    )
    g.add_argument(
        "--ping-timeout",
        type=natural_float,
        default=d.ping_timeout,
        help="seconds to wait for a pong before dropping the connection",
    )
    g.add_argument(
        "--abandon-timeout",
        type=positive_float,
        default=d.abandon_timeout,
        help="seconds a disconnected player has to come back before the table closes",
    )
    g.add_argument(
        "--over-linger",
        type=positive_float,
        default=d.over_linger,
        help="seconds a finished game stays open",
    )
    g.add_argument(
        "--chat-max", type=positive_int, default=d.chat_max, help="characters in one chat message"
    )
    g.add_argument(
        "--chat-rate",
        type=positive_float,
        default=d.chat_rate,
        help="chat messages per second per connection",
    )
    g.add_argument(
        "--computer-delay",
        type=natural_float,
        default=d.computer_delay,
        help="seconds the computer opponent waits before each action",
    )
    g.add_argument(
        "--claim-after",
        type=positive_float,
        default=d.claim_after,
        help="seconds a player may be gone before the opponent may claim the win",
    )
    g.add_argument(
        "--move-timeout",
        type=positive_float,
        default=d.move_timeout,
        help="without a clock: seconds a player may take over a turn before the opponent may"
        " claim the win",
    )
    g.add_argument(
        "--computer-workers",
        type=positive_int,
        default=d.computer_workers,
        help="processes in which the searching computer levels think (one core each)",
    )
    g.add_argument(
        "--waiting-grace",
        type=natural_float,
        default=d.waiting_grace,
        help="seconds a table not yet started waits for its creator to come back",
    )
    g.add_argument(
        "--handshake-timeout",
        type=positive_float,
        default=d.handshake_timeout,
        help="seconds from a TCP connection to an open WebSocket",
    )
    g.add_argument(
        "--extra-sockets-per-address",
        type=natural_int,
        default=d.extra_sockets_per_address,
        help="sockets one address may hold beyond --max-per-address (handshakes, closing"
        " connections), counted from accept; over it a new socket is closed at once",
    )
    g.add_argument(
        "--send-queue-bytes",
        type=positive_int,
        default=d.send_queue_bytes,
        help="bytes waiting for a client that reads too slowly before it is disconnected (1008)",
    )
    p.add_argument(
        "--db",
        metavar="PATH",
        default=str(default_db_path()),
        help="the SQLite database that keeps every table, so that games survive a restart;"
        " ':memory:' keeps nothing",
    )
    p.add_argument(
        "--records",
        metavar="DIR",
        type=Path,
        default=None,
        help="also write the complete record of every finished game to DIR, for the host (the"
        " database keeps them too; players get one over the protocol once the game is over)",
    )
    p.epilog = config_help(p)
    return p  # fmt: skip


CONFIG_EXAMPLE = """\
    name = "Kahuna club"
    port = 8765
    db = "/var/lib/kahuna/server.sqlite3"
    records = "/var/lib/kahuna/records"
    lan-interface = ["192.168.1.20"]
    max-tables = 200
"""


def config_keys(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The keys a --config file may hold, each with its option: every long option but --help,
    --version and --config, named without its dashes."""
    keys: dict[str, argparse.Action] = {}
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if not longs or action.dest in ("help", "version", "config"):
            continue
        keys[longs[0].removeprefix("--")] = action
    return keys


def config_help(parser: argparse.ArgumentParser) -> str:
    keys = ", ".join(config_keys(parser))
    return (
        "--config FILE reads the options from a TOML file; flags given as well override it.\n"
        "Each key is a long option's name, with dashes or underscores (max-tables or\n"
        "max_tables), and takes the option's value: a string, a number, true for a flag\n"
        "without a value, a list of addresses for lan-interface. For example:\n\n"
        f"{CONFIG_EXAMPLE}\n"
        + textwrap.fill(f"The keys: {keys}.", 80, break_on_hyphens=False)
        + "\n"
    )


def _kind(action: argparse.Action) -> str:
    """What TOML value an option takes: 'flag', 'list', 'int', 'float' or 'str'."""
    if action.nargs == 0:
        return "flag"
    if isinstance(action, AppendReplacing):
        return "list"
    if action.type is port_number or getattr(action.type, "__name__", "") == "int":
        return "int"
    if getattr(action.type, "__name__", "") == "float":
        return "float"
    return "str"


KIND_WORDS = {
    "flag": "true or false",
    "list": "a list of strings",
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
}
TOML_TYPES = {
    bool: "a boolean",
    int: "a whole number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def _toml_type(value: object) -> str:
    return TOML_TYPES.get(type(value), type(value).__name__)


def _convert(action: argparse.Action, value: object) -> object:
    """The option's value for a TOML value; ValueError says why it cannot be."""
    kind = _kind(action)
    fits = {
        "flag": isinstance(value, bool),
        "list": isinstance(value, list) and all(isinstance(v, str) for v in value),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, int | float) and not isinstance(value, bool),
        "str": isinstance(value, str),
    }[kind]
    if not fits:
        raise ValueError(f"must be {KIND_WORDS[kind]}, not {_toml_type(value)} ({value!r})")
    if kind == "flag":
        return value
    items = value if isinstance(value, list) else [value]
    converted = []
    for item in items:
        if action.choices is not None and item not in action.choices:
            raise ValueError(f"{item!r} is not one of {', '.join(map(repr, action.choices))}")
        if callable(action.type):
            try:
                item = action.type(str(item))
            except (argparse.ArgumentTypeError, ValueError) as exc:
                raise ValueError(str(exc)) from None
        converted.append(item)
    return converted if kind == "list" else converted[0]


def read_config(path: str, parser: argparse.ArgumentParser) -> dict[str, object]:
    """The options a TOML file gives, by their argparse destinations. ValueError names the file
    and, for a key that is not an option or a value the option does not take, the key."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ValueError(f"--config {path}: cannot read it: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"--config {path}: not a TOML file: {exc}") from None
    keys = config_keys(parser)
    values: dict[str, object] = {}
    for key, value in data.items():
        action = keys.get(key.replace("_", "-"))
        if action is None:
            raise ValueError(
                f"--config {path}: unknown key {key!r}; the keys are the long options' names"
                " (kahuna-server --help lists them)"
            )
        if action.dest in values:
            raise ValueError(f"--config {path}: {key!r} is given twice")
        try:
            values[action.dest] = _convert(action, value)
        except ValueError as exc:
            joint = " " if str(exc).startswith("must ") else ": "
            raise ValueError(f"--config {path}: {key!r}{joint}{exc}") from None
    return values


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The options: --config FILE's, with the flags given over them."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--config")
    known, _ = pre.parse_known_args(argv)
    if known.config:
        try:
            parser.set_defaults(**read_config(known.config, parser))
        except ValueError as exc:
            parser.error(str(exc))
    return parser.parse_args(argv)


def _version() -> str:
    try:
        number = importlib.metadata.version("kahuna")
    except importlib.metadata.PackageNotFoundError:
        number = "unknown"
    return f"{number} (protocol versions {', '.join(map(str, SUPPORTED_VERSIONS))})"


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host,
        port=args.port,
        max_frame=args.max_frame,
        hard_max_frame=max(args.hard_max_frame, args.max_frame),
        rate=args.rate,
        burst=args.burst,
        flood_limit=args.flood_limit,
        max_per_address=args.max_per_address,
        max_connections=args.max_connections,
        max_tables=args.max_tables,
        tables_per_connection=args.tables_per_connection,
        hello_timeout=args.hello_timeout,
        ping_interval=args.ping_interval or None,
        ping_timeout=args.ping_timeout or None,
        abandon_timeout=args.abandon_timeout,
        over_linger=args.over_linger,
        chat_max=args.chat_max,
        chat_rate=args.chat_rate,
        computer_delay=args.computer_delay,
        claim_after=args.claim_after,
        move_timeout=args.move_timeout,
        computer_workers=args.computer_workers,
        waiting_grace=args.waiting_grace,
        handshake_timeout=args.handshake_timeout,
        extra_sockets_per_address=args.extra_sockets_per_address,
        send_queue_bytes=args.send_queue_bytes,
        db=args.db,
        records_dir=args.records,
        server_name=args.name,
        announce=not args.no_announce,
        lan_interfaces=tuple(args.lan_interface or ()),
    )


def lan_address() -> str:
    """This host's address on the local network, as other machines would reach it."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        address: str = s.getsockname()[0]
        return address
    return "127.0.0.1"


def tune_gc() -> None:
    """Fewer, larger young collections and rarer full ones: the default thresholds make a
    loaded server pause for tens of milliseconds (measured with bench/load_bench.py). What was
    allocated at start-up is frozen out of every collection (the games restored from the
    database too: KahunaServer.start freezes them)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)


def announce(config: ServerConfig, server: KahunaServer, tls: bool) -> Announcer | None:
    """Start announcing the server on the LAN (in the background), unless it was told not to.
    Nothing here stops the server: a failure is one log line."""
    if not config.announce:
        return None
    try:
        from server.discovery import Announcer, lobby_counts

        announcer = Announcer(
            config.server_name,
            config.host,
            server.port,
            lambda: lobby_counts(server.lobby),
            tls=tls,
            lan_interfaces=config.lan_interfaces,
            interval=config.announce_interval,
        )
        announcer.start()
    except Exception as exc:
        log.warning("not announced on the LAN (%s: %s)", type(exc).__name__, exc)
        return None
    return announcer


async def run(config: ServerConfig, ssl_context: ssl.SSLContext | None) -> int:
    # Handlers first: a SIGTERM right after the address line must still stop cleanly.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    tune_gc()
    server = KahunaServer(config)
    try:
        await server.start(ssl_context)
    except BaseException:
        await server.stop()
        raise
    scheme = "wss" if ssl_context else "ws"
    host = config.host
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    print(
        f"Kahuna server listening; players connect to {scheme}://{shown}:{server.port}", flush=True
    )
    log.info("listening on %s port %s", host, server.port)
    announcer = announce(config, server, tls=ssl_context is not None)
    stopped = loop.create_task(stop.wait())
    failed = loop.create_task(server.failed.wait())
    await asyncio.wait((stopped, failed), return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    failed.cancel()
    log.info("shutting down")
    if announcer is not None:
        await announcer.stop()
    await server.stop()
    log.info("stopped")
    return 1 if server.failed.is_set() else 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parse_args(parser, argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    logging.basicConfig(
        level=getattr(logging, args.log_level.upper()),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    ssl_context = None
    if args.tls_cert:
        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        try:
            ssl_context.load_cert_chain(args.tls_cert, args.tls_key)
        except (OSError, ssl.SSLError) as exc:
            parser.error(f"cannot load the TLS certificate: {exc}")
    if args.records is not None:
        problem = records_dir(args.records)
        if problem is not None:
            parser.error(problem)
    limits = raise_fd_limit()
    if limits is not None and limits[0] < args.max_connections + 64:
        log.warning(
            "at most %d open files (ulimit -n) for --max-connections %d: connections beyond"
            " the file limit will be refused",
            limits[0], args.max_connections,
        )  # fmt: skip
    try:
        return asyncio.run(run(config_from_args(args), ssl_context))
    except StorageError as exc:
        print(f"kahuna-server: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"kahuna-server: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
