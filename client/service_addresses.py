"""The other addresses of each server this client met, as the server named them (protocol
version 3's welcome, a standby's among them), so that a later run finds the standby even when
the address given is down: $XDG_STATE_HOME/kahuna/addresses.json (or
~/.local/state/kahuna/addresses.json), {first address: [other addresses]}."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def default_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kahuna" / "addresses.json"


class ServiceAddresses:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> list[str]:
        """The other addresses kept for the server known by `key` (its first address)."""
        found = self._read().get(key)
        if not isinstance(found, list):
            return []
        return [u for u in found if isinstance(u, str) and u.startswith(("ws://", "wss://"))]

    def keep(self, key: str, addresses: Sequence[str]) -> None:
        """What the server says its addresses are now (those other than `key`)."""
        others = [u for u in dict.fromkeys(addresses) if u != key]
        data = self._read()
        if data.get(key, []) == others:
            return
        if others:
            data[key] = others
        else:
            data.pop(key, None)
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            tmp.replace(self.path)
