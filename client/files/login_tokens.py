"""The login token of each server this user logged in to, so that the password is typed once per
machine: $XDG_STATE_HOME/kahuna/logins.json (or ~/.local/state/kahuna/logins.json), readable
by the user only (0600), {server URL: {"name": "Ann", "token": "..."}}. `logout` forgets it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from client.files.state_files import changing, read_map, state_file, write_private


def default_path() -> Path:
    return state_file("logins.json")


class LoginTokens:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _read(self) -> dict[str, Any]:
        return read_map(self.path)

    def get(self, url: str) -> tuple[str, str] | None:
        """(name, token) kept for the server."""
        entry = self._read().get(url)
        if isinstance(entry, dict):
            name, token = entry.get("name"), entry.get("token")
            if isinstance(name, str) and isinstance(token, str):
                return name, token
        return None

    def keep(self, url: str, name: str, token: str | None) -> None:
        """Keep the server's token for the name (None: forget the server's)."""
        with changing(self.path):
            data = self._read()
            if token is None:
                if data.pop(url, None) is None:
                    return
            else:
                data[url] = {"name": name, "token": token}
            write_private(self.path, data)  # a token logs in as its player
