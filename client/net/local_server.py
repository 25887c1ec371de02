"""The server inside the client, for `kahuna-client --local`: the one place the client reaches
into server/ (everything else it knows of the server is the protocol)."""

from __future__ import annotations

from client.language.i18n import _
from server.core.config import ServerConfig
from server.net.app import KahunaServer


class LocalServer:
    """A kahuna server on a free loopback port, run in this program's event loop."""

    def __init__(self, computer_delay: float) -> None:
        self.server = KahunaServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                server_name=_("kahuna (inside the client)"),  # the lobby's header says it
                computer_delay=computer_delay,
            )
        )

    async def start(self) -> str:
        """Start it; its URL."""
        await self.server.start()
        return f"ws://127.0.0.1:{self.server.port}"

    async def stop(self) -> None:
        await self.server.stop()
