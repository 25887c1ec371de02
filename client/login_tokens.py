"""The login token of each server this user logged in to, so that the password is typed once per
machine: $XDG_STATE_HOME/kahuna/logins.json (or ~/.local/state/kahuna/logins.json), readable
by the user only (0600), {server URL: {"name": "Ann", "token": "..."}}. `logout` forgets it.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any


def default_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kahuna" / "logins.json"


class LoginTokens:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

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
        data = self._read()
        if token is None:
            if data.pop(url, None) is None:
                return
        else:
            data[url] = {"name": name, "token": token}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.path.with_suffix(".tmp")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            # created 0600: a token logs in as its player, it is never readable by others
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps(data, indent=1))
            tmp.replace(self.path)
