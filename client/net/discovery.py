"""Kahuna servers on the LAN: browsing DNS-SD over multicast DNS (python-zeroconf) for the
`_kahuna._tcp.local.` instances that kahuna-server announces (server/net/discovery.py).

`LanBrowser` keeps a live list of the servers that answer (for a picker screen: `on_change` is
called whenever the list changes); `find_servers` collects what answers within a few seconds;
`find_main` is `kahuna-client --find`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

import attrs
import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from client.language.i18n import _

log = logging.getLogger(__name__)

SERVICE_TYPE = "_kahuna._tcp.local."  # as server/net/discovery.py announces it
FIND_SECONDS = 3.0  # how long --find listens for answers
RESOLVE_MS = 3000  # how long one server's details may take to arrive


@attrs.frozen
class LanServer:
    """One server as it announces itself."""

    name: str
    address: str  # the address to connect to (of `addresses`, one on this machine's networks)
    port: int
    scheme: str = "ws"  # or wss
    path: str = "/"
    tables: int | None = None  # None: not announced
    free: int | None = None  # free seats
    versions: tuple[int, ...] = ()
    addresses: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        host = self.address
        if ":" in host:
            host = f"[{host}]"
        path = "" if self.path in ("", "/") else self.path
        return f"{self.scheme}://{host}:{self.port}{path}"

    def describe(self) -> str:
        """'3 tables, 1 free seat'."""

        def count(n: int | None, one: str, many: str) -> str:
            return f"? {many}" if n is None else f"{n} {one if n == 1 else many}"

        tables = count(self.tables, "table", "tables")
        return f"{tables}, {count(self.free, 'free seat', 'free seats')}"


def _number(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _local_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    with contextlib.suppress(Exception):
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
                with contextlib.suppress(ValueError):
                    networks.append(
                        ipaddress.ip_network(f"{address}/{ip.network_prefix}", strict=False)
                    )
    return networks


def best_address(addresses: Sequence[str]) -> str:
    """The address most likely to reach the server: one on a network of this machine's, IPv4
    before IPv6, a link-local IPv6 address last."""
    networks = _local_networks()

    def rank(text: str) -> tuple[bool, bool, bool]:
        try:
            address = ipaddress.ip_address(text.partition("%")[0])
        except ValueError:
            return True, True, True
        near = any(address.version == n.version and address in n for n in networks)
        return not near, address.version == 6, address.is_link_local

    return sorted(addresses, key=rank)[0]


def server_from_info(info: AsyncServiceInfo) -> LanServer | None:
    """The server an answer describes, or None without an address or a port."""
    addresses = info.parsed_scoped_addresses(IPVersion.All)
    if not addresses or not info.port:
        return None
    props = info.decoded_properties
    versions = tuple(
        int(v) for v in (props.get("versions") or "").split(",") if v.strip().isdigit()
    )
    scheme = props.get("scheme") or "ws"
    return LanServer(
        name=info.name.removesuffix(f".{SERVICE_TYPE}"),
        address=best_address(addresses),
        port=info.port,
        scheme=scheme if scheme in ("ws", "wss") else "ws",
        path=props.get("path") or "/",
        tables=_number(props.get("tables")),
        free=_number(props.get("free")),
        versions=versions,
        addresses=tuple(addresses),
    )


class LanBrowser:
    """The Kahuna servers on the LAN, kept up to date while it runs (an async context manager,
    or start/stop). `interfaces` keeps the multicast traffic to those interfaces' addresses
    (e.g. ["127.0.0.1"]); None is every interface."""

    def __init__(
        self,
        interfaces: Sequence[str] | None = None,
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.interfaces = list(interfaces) if interfaces else None
        self.on_change = on_change
        self.servers: dict[str, LanServer] = {}  # by the instance's full name
        self._zeroconf: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()

    async def start(self) -> None:
        """Raises OSError (or ValueError for a bad interface) when it cannot listen."""
        if self.interfaces is not None:
            v4 = all(ipaddress.ip_address(a).version == 4 for a in self.interfaces)
            self._zeroconf = AsyncZeroconf(
                interfaces=self.interfaces, ip_version=IPVersion.V4Only if v4 else None
            )
        else:
            self._zeroconf = AsyncZeroconf()
        self._browser = AsyncServiceBrowser(
            self._zeroconf.zeroconf, [SERVICE_TYPE], handlers=[self._on_state_change]
        )

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zeroconf is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._zeroconf.async_close(), 2.0)
            self._zeroconf = None

    async def __aenter__(self) -> LanBrowser:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def found(self) -> list[LanServer]:
        """The servers found so far, by name."""
        return sorted(self.servers.values(), key=lambda s: (s.name.casefold(), s.url))

    async def wait_until(
        self, condition: Callable[[list[LanServer]], bool], timeout: float
    ) -> bool:
        """Wait (at most `timeout` seconds) until the list of servers satisfies `condition`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition(self.found()):
            left = deadline - loop.time()
            if left <= 0:
                return False
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
        return True

    def _on_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            if self.servers.pop(name, None) is not None:
                self._notify()
            return
        task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, service_type, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, zeroconf: Zeroconf, service_type: str, name: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        try:
            if not await info.async_request(zeroconf, RESOLVE_MS):
                log.debug("%s did not tell its address in time", name)
                return
        except Exception as exc:
            log.debug("could not resolve %s: %r", name, exc)
            return
        server = server_from_info(info)
        if server is not None and self.servers.get(name) != server:
            self.servers[name] = server
            self._notify()

    def _notify(self) -> None:
        self._changed.set()
        with contextlib.suppress(Exception):
            self.on_change()


async def find_servers(
    timeout: float = FIND_SECONDS, interfaces: Sequence[str] | None = None
) -> list[LanServer]:
    """The Kahuna servers that answer within `timeout` seconds, by name."""
    async with LanBrowser(interfaces) as browser:
        await asyncio.sleep(timeout)
        return browser.found()


def print_servers(servers: Sequence[LanServer], out: TextIO) -> None:
    name_width = max(len(s.name) for s in servers)
    url_width = max(len(s.url) for s in servers)
    for server in servers:
        out.write(f"{server.name:<{name_width}}  {server.url:<{url_width}}  {server.describe()}\n")


def find_main(
    interfaces: Sequence[str] | None = None,
    timeout: float = FIND_SECONDS,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """kahuna-client --find: list the servers that answer and exit 0, or say that none did and
    exit 1."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        servers = asyncio.run(find_servers(timeout, interfaces))
    except (OSError, ValueError) as exc:
        if interfaces:
            said = _("cannot look for servers on the LAN on {interfaces}: {reason}")
        else:
            said = _("cannot look for servers on the LAN: {reason}")
        text = said.format(interfaces=", ".join(interfaces or ()), reason=exc)
        err.write(f"kahuna-client: {text}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    if not servers:
        if interfaces:
            said = _("no Kahuna server answered on the LAN on {interfaces} within {seconds} s")
        else:
            said = _("no Kahuna server answered on the LAN within {seconds} s")
        text = said.format(interfaces=", ".join(interfaces or ()), seconds=f"{timeout:g}")
        err.write(f"kahuna-client: {text}\n")
        return 1
    print_servers(servers, out)
    out.flush()
    return 0
