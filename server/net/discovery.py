"""The server's announcement on the LAN: DNS-SD over multicast DNS (python-zeroconf).

The server is announced as an instance of `_kahuna._tcp.local.` named by its name (--name), on
the addresses it listens on, with TXT properties that a client shows before connecting:

    versions  the protocol versions it speaks, "1,2"
    tables    the open tables
    free      the free seats at them
    scheme    ws or wss
    path      the WebSocket path, "/"

The numbers are polled from the lobby and published again when they change, at most once per
`announce_interval`. Nothing here may stop the server: a failure to announce is one log line,
and the server goes on unannounced.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import socket
from collections.abc import Awaitable, Callable, Sequence

import ifaddr
from zeroconf import InterfaceChoice, IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from protocol.fields import SUPPORTED_VERSIONS
from server.core.lobby import Lobby
from shared.types import Seat

log = logging.getLogger(__name__)

SERVICE_TYPE = "_kahuna._tcp.local."
INSTANCE_MAX = 63  # bytes of UTF-8 in a DNS label, the instance name's limit
STOP_TIMEOUT = 2.0  # seconds the goodbye packets may take at a stop
ANYWHERE = ("0.0.0.0", "::", "")

Counts = tuple[int, int]  # open tables, free seats
COUNT_SLICE = 500  # tables counted between two turns of the event loop
Interfaces = list[str] | InterfaceChoice


async def lobby_counts(lobby: Lobby) -> Counts:
    """The open tables and the free seats at them (seats nobody holds, at tables not over).
    It runs on the event loop over every table (every announce_interval), COUNT_SLICE tables
    between two turns of the loop: in one go, 5,000 tables under load held it 6-8 ms."""
    tables = free = 0
    white, black = Seat.WHITE, Seat.BLACK
    found = list(lobby.tables.values())  # as they are now; a table closing meanwhile is counted
    for first in range(0, len(found), COUNT_SLICE):
        if first:
            await asyncio.sleep(0)
        for table in found[first : first + COUNT_SLICE]:
            if table.closed:
                continue
            tables += 1
            seats = table.seats
            nobody = (seats[white] is None) + (seats[black] is None)
            if nobody and not table.over:
                free += nobody
    return tables, free


def instance_name(name: str) -> str:
    """The name as a DNS-SD instance: at most 63 bytes of UTF-8, without control characters."""
    text = "".join(c for c in name if c.isprintable()).strip() or "kahuna-server"
    while len(text.encode()) > INSTANCE_MAX:
        text = text[:-1]
    return text


def host_label(port: int) -> str:
    """A `.local.` host name for the service's SRV record and address records: this machine's
    name with the port, so that it never clashes with the machine's own name (which Avahi or
    Bonjour may announce with other addresses: they would take the clash for a conflict)."""
    label = re.sub(r"[^a-z0-9-]+", "-", socket.gethostname().split(".")[0].lower()).strip("-")
    suffix = f"-{port}"
    return f"kahuna-{label[: INSTANCE_MAX - 7 - len(suffix)]}{suffix}.local.".replace("--", "-")


def interface_addresses() -> list[str]:
    """Every interface's IPv4 address; the loopback ones only when there is no other."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and ip.ip not in found:
                found.append(ip.ip)
    outside = [a for a in found if not ipaddress.ip_address(a).is_loopback]
    return outside or found


def is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


async def announce_plan(host: str, lan_interfaces: Sequence[str]) -> tuple[list[str], Interfaces]:
    """The addresses to announce and the interfaces to announce them on, for a server that
    listens on `host`: the host's address (a name is looked up), or for every interface
    (0.0.0.0) each interface's IPv4 address; --lan-interface narrows both to its addresses."""
    if host in ANYWHERE:
        addresses = list(lan_interfaces) or interface_addresses()
    elif is_address(host):
        addresses = [host]
    else:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, None, family=socket.AF_INET, type=socket.SOCK_STREAM
        )
        addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    interfaces: Interfaces
    if lan_interfaces:
        interfaces = list(lan_interfaces)
    elif host in ANYWHERE:
        interfaces = InterfaceChoice.All
    else:
        interfaces = list(addresses)
    return addresses, interfaces


def properties(counts: Counts, scheme: str) -> dict[str, str]:
    tables, free = counts
    return {
        "versions": ",".join(map(str, SUPPORTED_VERSIONS)),
        "tables": str(tables),
        "free": str(free),
        "scheme": scheme,
        "path": "/",
    }


class Announcer:
    """Announces one server while it runs: `start` returns at once (the announcement and the
    probing for a unique name take a second or two in the background); `stop` says goodbye."""

    def __init__(
        self,
        name: str,
        host: str,
        port: int,
        counts: Callable[[], Awaitable[Counts]],
        *,
        tls: bool = False,
        lan_interfaces: Sequence[str] = (),
        interval: float = 5.0,
    ) -> None:
        self.name = instance_name(name)
        self.host = host
        self.port = port
        self.counts = counts
        self.scheme = "wss" if tls else "ws"
        self.lan_interfaces = tuple(lan_interfaces)
        self.interval = interval
        self.announced = asyncio.Event()  # set once the service is registered
        self.info: AsyncServiceInfo | None = None
        self._zeroconf: AsyncZeroconf | None = None
        self._task: asyncio.Task[None] | None = None
        self._published: Counts | None = None
        self._addresses: list[str] = []

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            await self._register()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("not announced on the LAN (%s: %s)", type(exc).__name__, exc)
            await self._close()
            return
        failing = False  # one log line for a run of failures, not one per interval
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self._refresh()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not failing:
                    what = f"{type(exc).__name__}: {exc}"
                    log.warning("the LAN announcement is not being updated (%s)", what)
                failing = True
            else:
                failing = False

    async def _register(self) -> None:
        addresses, interfaces = await announce_plan(self.host, self.lan_interfaces)
        if not addresses:
            raise OSError("no address to announce")
        version = None
        if isinstance(interfaces, list) and all(
            ipaddress.ip_address(a).version == 4 for a in interfaces
        ):
            version = IPVersion.V4Only
        self._zeroconf = AsyncZeroconf(interfaces=interfaces, ip_version=version)
        counts = await self.counts()
        self._addresses = addresses
        self.info = self._service(f"{self.name}.{SERVICE_TYPE}", counts)
        await self._zeroconf.async_register_service(self.info, allow_name_change=True)
        self._published = counts
        self.announced.set()
        log.info(
            "announced on the LAN as %r (%s) at %s",
            self.info.name.removesuffix(f".{SERVICE_TYPE}"), SERVICE_TYPE, ", ".join(addresses),
        )  # fmt: skip

    def _service(self, full_name: str, counts: Counts) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            full_name,
            port=self.port,
            properties=properties(counts, self.scheme),
            server=host_label(self.port),
            parsed_addresses=self._addresses,
        )

    async def _refresh(self) -> None:
        """Publish the numbers again if they changed."""
        counts = await self.counts()
        if counts == self._published or self.info is None or self._zeroconf is None:
            return
        # the same name (the one the probing settled on), new TXT properties
        info = self._service(self.info.name, counts)
        await self._zeroconf.async_update_service(info)
        self.info = info
        self._published = counts

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        await self._close()

    async def _close(self) -> None:
        zeroconf, self._zeroconf = self._zeroconf, None
        if zeroconf is None:
            return
        try:
            # unregisters (the goodbye packets) and closes the sockets
            await asyncio.wait_for(zeroconf.async_close(), STOP_TIMEOUT)
        except Exception as exc:
            log.debug("the LAN announcement did not close cleanly: %r", exc)
