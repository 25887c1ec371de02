"""The seats this user holds on servers, kept in a small file so that a client started again
(after the terminal closed or the machine restarted) can take its seat back with its token.

The file is $XDG_STATE_HOME/kahuna/seats.json (or ~/.local/state/kahuna/seats.json), created
readable by the user only (0600):
{server URL: {table id: [{"seat": "white", "token": "...", "name": "Ann"}, ...]}}.

A token belongs to the name that earned it: several clients of one account (Ann and Bob on one
machine, each with --name) share the file, and each sees only its own seats. A table may hold a
seat of each. Files written before the name was kept ({table id: {"seat", "token"}}) are read
as seats of no known name, which the lobby offers only where the seat's player has this name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from client.files.state_files import changing, read_map, state_file, write_private


def default_path() -> Path:
    return state_file("seats.json")


def _entries(value: object) -> list[dict[str, str]]:
    """The seats stored for one table, in either form, each with seat, token and name."""
    items = value if isinstance(value, list) else [value]
    out: list[dict[str, str]] = []
    for item in items:
        if isinstance(item, dict):
            seat, token, name = item.get("seat"), item.get("token"), item.get("name", "")
            if isinstance(seat, str) and isinstance(token, str) and isinstance(name, str):
                out.append({"seat": seat, "token": token, "name": name})
    return out


class SeatStore:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _read(self) -> dict[str, Any]:
        return read_map(self.path)

    def _write(self, data: dict[str, Any]) -> None:
        write_private(self.path, data)

    def seats(self, url: str, name: str | None = None) -> dict[str, tuple[str, str]]:
        """table id -> (seat, token) held on this server by `name` (None: by anyone); a seat
        stored without a name (an older file) counts for every name."""
        out: dict[str, tuple[str, str]] = {}
        tables = self._read().get(url)
        if isinstance(tables, dict):
            for table_id, value in tables.items():
                for entry in _entries(value):
                    if name is None or entry["name"] in ("", name):
                        out.setdefault(str(table_id), (entry["seat"], entry["token"]))
        return out

    def remember(self, url: str, table_id: str, seat: str, token: str, name: str = "") -> None:
        with changing(self.path):
            self._remember(url, table_id, seat, token, name)

    def _remember(self, url: str, table_id: str, seat: str, token: str, name: str) -> None:
        data = self._read()
        tables = data.get(url)
        if not isinstance(tables, dict):
            tables = data[url] = {}
        old = _entries(tables.get(table_id))
        new = {"seat": seat, "token": token, "name": name}
        # one seat, one token: the seat taken replaces what was stored for it (and for this
        # name at this table)
        kept = [e for e in old if e["seat"] != seat and not (name and e["name"] == name)]
        if old != [*kept, new]:
            tables[table_id] = [*kept, new]
            self._write(data)

    def forget(self, url: str, table_id: str, name: str | None = None) -> None:
        """Forget the table's seats (only `name`'s, if given)."""
        with changing(self.path):
            self._forget(url, table_id, name)

    def _forget(self, url: str, table_id: str, name: str | None) -> None:
        data = self._read()
        tables = data.get(url)
        if not isinstance(tables, dict) or table_id not in tables:
            return
        entries = _entries(tables[table_id])
        kept = [] if name is None else [e for e in entries if e["name"] not in ("", name)]
        if kept:
            tables[table_id] = kept
        else:
            del tables[table_id]
        if not tables:
            del data[url]
        self._write(data)
