"""The other addresses of each server this client met, as the server named them (protocol
version 3's welcome, a standby's among them), so that a later run finds the standby even when
the address given is down: $XDG_STATE_HOME/kahuna/addresses.json (or
~/.local/state/kahuna/addresses.json), {first address: [other addresses]}."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from client.files.state_files import changing, read_map, state_file, write_private


def default_path() -> Path:
    return state_file("addresses.json")


class ServiceAddresses:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def get(self, key: str) -> list[str]:
        """The other addresses kept for the server known by `key` (its first address)."""
        found = read_map(self.path).get(key)
        if not isinstance(found, list):
            return []
        return [u for u in found if isinstance(u, str) and u.startswith(("ws://", "wss://"))]

    def keep(self, key: str, addresses: Sequence[str]) -> None:
        """What the server says its addresses are now (those other than `key`)."""
        others = [u for u in dict.fromkeys(addresses) if u != key]
        with changing(self.path):
            data = read_map(self.path)
            if data.get(key, []) == others:
                return
            if others:
                data[key] = others
            else:
                data.pop(key, None)
            write_private(self.path, data)
