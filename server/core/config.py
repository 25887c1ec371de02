"""The server's settings: every limit with its default, as one frozen record. A field declared
with `option` or `limit` (server/core/settings.py) is also a kahuna-server flag and a --config key,
with the help given here; the other fields are set in code only."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import attrs

from protocol.fields import DEFAULT_PORT
from server.core.settings import (
    instance_name,
    ip_address,
    limit,
    mail_address,
    natural_float,
    natural_int,
    option,
    port_number,
    positive_float,
    positive_int,
    service_address,
    web_origin,
)
from shared.randomness import CardSource


@attrs.frozen
class ServerConfig:
    host: str = option("0.0.0.0", "address to listen on; 0.0.0.0 is every interface")
    port: int = option(DEFAULT_PORT, "TCP port; 0 picks a free one", port_number)
    server_name: str = option(
        "kahuna-server",
        "the server's name: players see it when they connect and on the LAN",
        instance_name,
        flag="--name",
    )
    # DNS-SD on the LAN (server/net/discovery.py): kahuna-server announces itself unless told not
    # to, a server made in code does not
    announce: bool = option(
        False,
        "do not announce the server on the LAN (DNS-SD over multicast DNS, as _kahuna._tcp,"
        " which kahuna-client --find lists)",
    )
    lan_interfaces: tuple[str, ...] = option(
        (),
        "announce on the interface with this address only (may be repeated); default: the"
        " interface of --host, every one for 0.0.0.0",
        ip_address,
        flag="--lan-interface",
        metavar="ADDR",
    )
    # the web page on the game's port (server/net/web.py): kahuna-server serves it unless told
    # not to
    web: bool = option(
        False, "do not serve the web page (http://HOST:PORT/, the lobby and every table's link)"
    )
    # WebSocket connections from a page of another site (server/net/web.py's OriginCheck)
    allowed_origins: tuple[str, ...] = option(
        (),
        "a web site whose pages may connect (may be repeated), http(s)://HOST[:PORT]: a"
        " browser's WebSocket naming another site than this server's own is refused (403);"
        " clients that name none (the terminal client, bots) are not concerned",
        web_origin,
        flag="--allowed-origin",
        metavar="URL",
    )
    announce_interval: float = 5.0  # seconds between looks at the lobby's numbers to publish
    db: str = option(
        ":memory:",
        "the database that keeps every table, so that games survive a restart: a SQLite file's"
        " path, or postgresql://USER@HOST/DB (a second server on the same one waits as its"
        " standby); ':memory:' keeps nothing",
        metavar="PATH|URL",
    )
    # told to clients of protocol version 3 in `welcome`, so that they follow a takeover
    addresses: tuple[str, ...] = option(
        (),
        "an address clients reach this service at, ws://HOST:PORT or wss://HOST:PORT (may be"
        " repeated: the serving server's and its standby's, the same list for both); clients"
        " are told them, so that they find the standby when it takes over",
        service_address,
        flag="--address",
        metavar="URL",
    )
    records_dir: Path | None = option(  # noqa: RUF009 (option makes an attrs field)
        None,
        "also write the complete record of every finished game to DIR, for the host, as"
        " kahuna-TABLE-DATE-TIME.kahuna (the database keeps them too; players get one over the"
        " protocol once the game is over)",
        Path,
        flag="--records",
        metavar="DIR",
    )
    max_frame: int = limit(
        16 * 1024,
        positive_int,
        "bytes a client frame may hold; longer ones get error frame_too_large",
    )
    hard_max_frame: int = limit(
        256 * 1024, positive_int, "a frame longer than this closes the connection (1009)"
    )
    rate: float = limit(20.0, positive_float, "messages per second per connection")
    burst: int = limit(40, positive_int, "messages a connection may send at once")
    flood_limit: int = limit(
        200, positive_int, "messages dropped for the rate before the connection is closed (1008)"
    )
    max_per_address: int = limit(16, positive_int, "simultaneous connections from one IP address")
    max_connections: int = limit(4096, positive_int, "simultaneous connections in all")
    max_tables: int = limit(2000, positive_int, "open tables in all")
    waiting_per_address: int = limit(
        8,
        positive_int,
        "tables waiting for a second player that one IP address may have at once; a full"
        " server closes the oldest waiting table of the address with the most to make room",
    )
    tables_per_connection: int = limit(
        16, positive_int, "tables one connection may sit or watch at"
    )
    hello_timeout: float = limit(10.0, positive_float, "seconds a new connection has to send hello")
    ping_interval: float | None = limit(
        20.0, natural_float, "seconds between keepalive pings; 0 turns them off"
    )
    ping_timeout: float | None = limit(
        20.0, natural_float, "seconds to wait for a pong before dropping the connection"
    )
    abandon_timeout: float = limit(
        600.0,
        positive_float,
        "seconds a player of a game under way may be without any connection to the server"
        " (one who stepped into the lobby and is connected is not gone) before losing the"
        " game by forfeit; a game of days waits for its deadline instead",
    )
    # long enough for chat and rematch talk
    over_linger: float = limit(600.0, positive_float, "seconds a finished game stays open")
    over_grace: float = 60.0  # ...or this long after its players have all gone
    claim_after: float = limit(
        120.0,
        positive_float,
        "seconds a player may be gone before the opponent may claim the win",
    )
    move_timeout: float = limit(
        1800.0,
        positive_float,
        "without a clock: seconds a player may take over a turn before the opponent may claim"
        " the win",
    )
    sweep_interval: float = 1.0
    send_queue: int = 512  # frames waiting for a slow client before it is disconnected
    send_queue_bytes: int = limit(  # the frame being written counts too
        1024 * 1024,
        positive_int,
        "bytes waiting for a client that reads too slowly before it is disconnected (1008)",
    )
    waiting_grace: float = limit(
        30.0,
        natural_float,
        "seconds a table not yet started waits for its creator to come back",
    )
    handshake_timeout: float = limit(
        5.0, positive_float, "seconds from a TCP connection to an open WebSocket"
    )
    extra_sockets_per_address: int = limit(
        8,
        natural_int,
        "sockets one address may hold beyond --max-per-address (handshakes, closing"
        " connections), counted from accept; over it a new socket is closed at once",
    )
    accept_log_interval: float = 10.0  # seconds between log lines about refused sockets
    # connections the kernel holds for accept(); when full, new ones (anyone's) wait a second
    listen_backlog: int = 1024
    chat_max: int = limit(300, positive_int, "characters in one chat message")
    chat_rate: float = limit(
        0.5,
        positive_float,
        "chat messages per second per account, its connections together (a guest: per connection)",
    )
    chat_burst: int = 5
    challenge_rate: float = limit(
        0.1,
        positive_float,
        "challenges and withdrawals per second per account, its connections together (each"
        " sends the other player a note)",
    )
    challenge_burst: int = 10
    accounts: bool = option(
        True,
        "keep no player accounts: everyone plays as a guest (no register, login, ratings,"
        " archive, challenges or lobby chat)",
    )
    password_cost: str = option(
        "server",
        "the cost of the argon2id password hashes: server (RFC 9106's low-memory profile) or"
        " test (the cheapest, for tests only)",
        choices=("server", "test"),
        group="limits",
    )
    password_queue: int = limit(
        64,
        positive_int,
        "password checks (logins, registrations) that may wait for the hashing threads at once;"
        " more are refused with login_throttled",
    )
    registrations_per_hour: int = limit(
        3, natural_int, "accounts one IP address may register in an hour; 0: no limit"
    )
    new_account_quiet: float = limit(
        600.0,
        natural_float,
        "seconds a new account may neither chat in the lobby nor challenge; 0 turns it off",
    )
    # version 4's deleted accounts (server/core/account_deletion.py)
    deleted_name_cooling: float = option(
        30.0,
        "days a deleted account's name stays reserved before anyone may register it again;"
        " 0: free at once",
        natural_float,
        metavar="DAYS",
        group="limits",
    )
    # version 4's tournaments (server/core/tournament_desk.py)
    tournaments: str = option(
        "everyone",
        "who may make a tournament: everyone (any account) or directors (the accounts named"
        " with `kahuna-server accounts director NAME`)",
        choices=("everyone", "directors"),
    )
    tournament_forfeit: float = limit(
        300.0,
        positive_float,
        "seconds a player of a live tournament has for their first move of a game before they"
        " lose it by forfeit, unless the tournament's director set another time",
    )
    # E-mail (server/core/mail.py, server/jobs/mail_sender.py): off unless a relay is named;
    # in a --config file, these are the keys of its [mail] table (host, port, security...)
    mail_host: str | None = option(
        None,
        "the SMTP relay that sends the players' e-mail (confirmations, password resets, your"
        " move in a game of days); without it nothing about e-mail is offered",
        metavar="HOST",
        group="mail",
    )
    mail_port: int = option(587, "the relay's port", port_number, group="mail")
    mail_security: str = option(
        "starttls",
        "how the connection to the relay is secured: starttls (port 587), tls (port 465) or"
        " none (a relay on this machine only)",
        choices=("starttls", "tls", "none"),
        group="mail",
    )
    mail_user: str | None = option(
        None, "the user name to log in to the relay as (none: no login)", group="mail"
    )
    mail_password_file: str | None = option(
        None,
        "a file holding the relay's password (never given on the command line)",
        metavar="PATH",
        group="mail",
    )
    mail_password_env: str | None = option(
        None,
        "the name of an environment variable holding the relay's password",
        metavar="VAR",
        group="mail",
    )
    mail_from: str = option(
        "kahuna@localhost",
        "the sender's address of the server's mails",
        mail_address,
        metavar="ADDRESS",
        group="mail",
    )
    mail_url: str | None = option(
        None,
        "the server's address on the web, http(s)://HOST[:PORT], for the links in its mails"
        " (default: the first --address, as http(s)://; else http://HOST:PORT of --host and"
        " --port)",
        web_origin,
        metavar="URL",
        group="mail",
    )
    # seconds a mail that failed waits before its next try: doubled each time, up to mail_retry_cap
    mail_retry: float = 30.0
    mail_retry_cap: float = 3600.0
    # seconds between the server's looks for the operator's `kahuna-server accounts` commands
    account_actions_interval: float = 2.0
    chat_history: int = 50  # chat messages sent in a full state
    name_max: int = 32
    computer_delay: float = limit(
        0.8, natural_float, "seconds the computer opponent waits before each action"
    )
    computer_workers: int = limit(
        1, positive_int, "processes in which the searching computer levels think (one core each)"
    )
    # version 3's analyse (server/jobs/analysis_jobs.py): the playouts that judge each view
    # (shared.analysis.PLAYOUTS; fewer in tests), the plan evaluations of the search for each
    # turn's best turn (shared.analysis.SEARCH_ITERATIONS; fewer in tests), and the analyses
    # run at once
    analysis_playouts: int = 128
    analysis_search: int = 2000
    analysis_limit: int = 2
    # Each game's cards are drawn from the core's rng (shared.randomness.DrawnSource), so that
    # the same seed gives the same deals; a factory here gives each game its own source instead
    # (the tests' fixed deals, the golden recording's).
    source_factory: Callable[[], CardSource] | None = None
    # The core's rng, when the core is not handed one: tests seed it. None in the server, whose
    # shell (server/net/app.py) gives the core random.SystemRandom, the operating system's CSPRNG:
    # no token, table id or card can be predicted.
    rng: random.Random | None = attrs.field(default=None, eq=False)

    @property
    def mail(self) -> bool:
        """Whether the server sends e-mail: a relay is named."""
        return self.mail_host is not None and self.accounts
