"""The server's settings: every limit with its default, as one frozen record."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import attrs

from shared.randomness import CardSource, SecureSource

DEFAULT_PORT = 8765


@attrs.frozen
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    server_name: str = "kahuna-server"
    max_frame: int = 16 * 1024  # bytes a client frame may hold; longer: error frame_too_large
    hard_max_frame: int = 256 * 1024  # longer than this: the WebSocket closes with 1009
    rate: float = 20.0  # messages per second per connection, sustained
    burst: int = 40  # messages a connection may send at once
    flood_limit: int = 200  # messages dropped for the rate before the connection is closed
    max_per_address: int = 16  # simultaneous connections from one IP address
    max_connections: int = 4096
    max_tables: int = 2000
    tables_per_connection: int = 16  # tables one connection may sit or watch at
    hello_timeout: float = 10.0  # seconds to send hello after connecting
    ping_interval: float | None = 20.0  # keepalive pings; a dead peer is dropped
    ping_timeout: float | None = 20.0
    abandon_timeout: float = 600.0  # a seat left empty this long closes its table
    over_linger: float = 600.0  # a finished game stays open this long for chat and rematch talk
    over_grace: float = 60.0  # ...or this long after its players have all gone
    claim_after: float = 120.0  # a player gone this long: the opponent may claim the win
    move_timeout: float = 1800.0  # without a clock: a turn this long, likewise
    sweep_interval: float = 1.0
    send_queue: int = 512  # frames waiting for a slow client before it is disconnected
    send_queue_bytes: int = 1024 * 1024  # ...or bytes waiting (the frame being written too)
    waiting_grace: float = 30.0  # a waiting table closes this long after its creator has gone
    handshake_timeout: float = 5.0  # seconds from TCP accept to an open WebSocket
    # TCP connections one address may hold open beyond max_per_address, counted from accept
    # (handshakes under way, connections closing); over it a new socket is closed at once
    extra_sockets_per_address: int = 8
    accept_log_interval: float = 10.0  # seconds between log lines about refused sockets
    # connections the kernel holds for accept(); when full, new ones (anyone's) wait a second
    listen_backlog: int = 1024
    chat_max: int = 300  # characters
    chat_rate: float = 0.5  # chat messages per second, sustained
    chat_burst: int = 5
    chat_history: int = 50  # chat messages sent in a full state
    name_max: int = 32
    computer_delay: float = 0.8  # seconds the computer "thinks" before each action
    computer_workers: int = 1  # processes for the searching levels (each decision on one core)
    db: str = ":memory:"  # the SQLite database; kahuna-server's default is a file (--db)
    records_dir: Path | None = None  # where the host keeps the full record of each finished game
    # DNS-SD on the LAN (server/discovery.py): kahuna-server announces itself unless told not to
    announce: bool = False
    lan_interfaces: tuple[str, ...] = ()  # announce on these addresses' interfaces only
    announce_interval: float = 5.0  # seconds between looks at the lobby's numbers to publish
    source_factory: Callable[[], CardSource] = SecureSource
    rng: random.Random = attrs.field(factory=random.SystemRandom, eq=False)
