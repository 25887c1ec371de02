"""The seats this user holds on servers, kept in a small file so that a client started again
(after the terminal closed or the machine restarted) can take its seat back with its token.

The file is $XDG_STATE_HOME/kahuna/seats.json (or ~/.local/state/kahuna/seats.json), readable by
the user only: {server URL: {table id: {"seat": "white", "token": "..."}}}.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any


def default_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kahuna" / "seats.json"


class SeatStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
            tmp.chmod(0o600)
            tmp.replace(self.path)

    def seats(self, url: str) -> dict[str, tuple[str, str]]:
        """table id -> (seat, token) held on this server."""
        out: dict[str, tuple[str, str]] = {}
        tables = self._read().get(url)
        if isinstance(tables, dict):
            for table_id, entry in tables.items():
                if isinstance(entry, dict):
                    seat, token = entry.get("seat"), entry.get("token")
                    if isinstance(seat, str) and isinstance(token, str):
                        out[str(table_id)] = (seat, token)
        return out

    def remember(self, url: str, table_id: str, seat: str, token: str) -> None:
        data = self._read()
        tables = data.get(url)
        if not isinstance(tables, dict):
            tables = data[url] = {}
        if tables.get(table_id) != {"seat": seat, "token": token}:
            tables[table_id] = {"seat": seat, "token": token}
            self._write(data)

    def forget(self, url: str, table_id: str) -> None:
        data = self._read()
        tables = data.get(url)
        if isinstance(tables, dict) and table_id in tables:
            del tables[table_id]
            if not tables:
                del data[url]
            self._write(data)
