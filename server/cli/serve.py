"""kahuna-server: run the Kahuna game server (see --help)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.metadata
import logging
import os
import signal
import socket
import ssl
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from protocol.fields import SUPPORTED_VERSIONS
from server.cli.command_line import SettingsParser, record_from
from server.core.config import ServerConfig
from server.core.settings import NAME_MAX, option
from server.core.store import StandbyStopped, Storage, StorageError
from server.jobs.mail_sender import relay_of
from server.net.app import KahunaServer
from server.net.tls import server_context
from server.storage.sqlite_store import default_db_path
from server.storage.storage_open import check_db, is_postgresql, open_storage, safe_name

if TYPE_CHECKING:
    from server.net.discovery import Announcer

log = logging.getLogger("server")

DESCRIPTION = """\
The Kahuna game server. Players connect with the terminal client to ws://HOST:PORT
(or wss:// with --tls-cert/--tls-key). The server holds the hidden hands and the deck;
each client only receives what its seat may see. Stop it with Ctrl-C or SIGTERM.

The players' accounts, also while the server runs (see kahuna-server accounts --help):
  kahuna-server accounts list                   name, rating, games, last seen of each
  kahuna-server accounts recent                 the registrations of the last hours
  kahuna-server accounts reset-password NAME    a new password (asked, or $KAHUNA_PASSWORD)
  kahuna-server accounts disable NAME...        no more logins; its clients are logged out
  kahuna-server accounts moderator NAME         NAME moderates (--revoke: no longer)
  kahuna-server moderation log                  the moderators' actions, with their reasons
"""


@attrs.frozen
class ProcessSettings:
    """kahuna-server's settings that are not the server's (ServerConfig): TLS and the log."""

    tls_cert: str | None = option(
        None, "certificate chain, to serve wss:// (needs --tls-key)", metavar="PEM"
    )
    tls_key: str | None = option(None, "private key of --tls-cert", metavar="PEM")
    log_level: str = option(
        "info", "how much to log to stderr", choices=("debug", "info", "warning", "error")
    )


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


def host_name() -> str:
    """This machine's name, as much of it as a server's name holds."""
    name = "".join(c for c in socket.gethostname() if c.isprintable()).strip() or "kahuna-server"
    while len(name.encode()) > NAME_MAX:
        name = name[:-1]
    return name


def state_db() -> str:
    """kahuna-server's database: a file in the user's state directory."""
    return str(default_db_path())


def build_parser() -> SettingsParser:
    # what kahuna-server runs with unless told otherwise, where a server made in code differs
    program_defaults = {"server_name": host_name, "db": state_db}
    parser = SettingsParser(
        ServerConfig,
        ProcessSettings,
        program_defaults=program_defaults,
        prog="kahuna-server",
        description=DESCRIPTION,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    return parser


def _version() -> str:
    try:
        number = importlib.metadata.version("kahuna")
    except importlib.metadata.PackageNotFoundError:
        number = "unknown"
    return f"{number} (protocol versions {', '.join(map(str, SUPPORTED_VERSIONS))})"


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    config = record_from(ServerConfig, args)
    # a frame over max_frame gets error frame_too_large: the hard limit is never under it
    return attrs.evolve(config, hard_max_frame=max(config.hard_max_frame, config.max_frame))


def lan_address() -> str:
    """This host's address on the local network, as other machines would reach it."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        address: str = s.getsockname()[0]
        return address
    return "127.0.0.1"


def tune_gc() -> None:
    """Small young collections and rare full ones. A collection's pause grows with what it
    looks at: every object that survived a young collection is looked at again in the next
    middle one, and under load thousands survive (the messages and tasks in flight). At
    20,000 young objects each young collection paused the server 10-25 ms; at 1,000 and 5 a
    middle one still took 5 ms on average and up to 14. At 500 and 1 (a middle collection every
    second young one) they take about 1 ms, at most 5, and the collector's time in all is lower
    (bench/load_bench.py --probe, 5,000 tables at 5 s: 0.17 s of CPU in 20 s against 0.27).
    Full collections, over every object, stay rare: after 6,000 middle ones (about every 25
    minutes under that load, as at 2,000 with middle ones every 5; and only once a quarter of
    the heap is new, as always). What was allocated at start-up is frozen out of every
    collection (the games restored from the database too: KahunaServer.start freezes them)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(500, 1, 6_000)


def announce(config: ServerConfig, server: KahunaServer, tls: bool) -> Announcer | None:
    """Start announcing the server on the LAN (in the background), unless it was told not to.
    Nothing here stops the server: a failure is one log line."""
    if not config.announce:
        return None
    try:
        from server.net.discovery import Announcer, lobby_counts

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


async def storage_when_free(db: str, stop: asyncio.Event) -> Storage | None:
    """The database's storage, once this server may serve it. A PostgreSQL database that
    another server serves is waited for, as its standby (server/storage/pg_store.py), until that
    server ends; None if this one is stopped first."""
    if not is_postgresql(db):
        return open_storage(db)
    giving_up = threading.Event()

    def on_standby() -> None:
        print(
            f"Kahuna server on standby: another server serves {safe_name(db)}; this one takes over"
            " when that one ends",
            flush=True,
        )
        log.info("on standby: another server serves the database")

    opening = asyncio.ensure_future(asyncio.to_thread(open_storage, db, giving_up, on_standby))
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait((opening, stopped), return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if not opening.done():
        giving_up.set()
    try:
        return await opening
    except StandbyStopped:
        return None


async def run(config: ServerConfig, ssl_context: ssl.SSLContext | None) -> int:
    # Handlers first: a SIGTERM right after the address line must still stop cleanly.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    tune_gc()
    storage = await storage_when_free(config.db, stop)
    if storage is None:
        return 0
    server = KahunaServer(config, storage)
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
    if config.web:
        page = f"{'https' if ssl_context else 'http'}://{shown}:{server.port}/"
        print(f"In a browser: {page}", flush=True)
        log.info("the web page: %s", page)
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
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["accounts"]:  # the operator's commands on the accounts
        from server.cli import accounts_cli

        return accounts_cli.main(given[1:])
    if given[:1] == ["moderation"]:  # the operator reads the moderation log
        from server.cli import moderation_cli

        return moderation_cli.main(given[1:])
    if given[:1] == ["tournaments"]:  # the operator lists, ends or hands on a tournament
        from server.cli import tournaments_cli

        return tournaments_cli.main(given[1:])
    parser = build_parser()
    args = parser.parse_with_config(argv)
    process = record_from(ProcessSettings, args)
    config = config_from_args(args)
    if bool(process.tls_cert) != bool(process.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    logging.basicConfig(
        level=getattr(logging, process.log_level.upper()),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    ssl_context = None
    if process.tls_cert:
        try:
            ssl_context = server_context(process.tls_cert, process.tls_key)
        except (OSError, ssl.SSLError) as exc:
            parser.error(f"cannot load the TLS certificate: {exc}")
    if config.records_dir is not None:
        problem = records_dir(config.records_dir)
        if problem is not None:
            parser.error(problem)
    try:
        relay_of(config)  # a password file or variable that is not there stops it here
    except ValueError as exc:
        parser.error(str(exc))
    problem = check_db(config.db)
    if problem is not None:
        parser.error(problem)
    limits = raise_fd_limit()
    if limits is not None and limits[0] < config.max_connections + 64:
        log.warning(
            "at most %d open files (ulimit -n) for --max-connections %d: connections beyond"
            " the file limit will be refused",
            limits[0], config.max_connections,
        )  # fmt: skip
    try:
        return asyncio.run(run(config, ssl_context))
    except StorageError as exc:
        print(f"kahuna-server: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"kahuna-server: {exc}", file=sys.stderr)
        return 1
