"""The client's small files in the user's state directory ($XDG_STATE_HOME/kahuna, or
~/.local/state/kahuna): where each is, reading one as a JSON map, and writing one whole,
readable by the user alone, one client at a time (several clients of one user share them)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def state_file(name: str) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "kahuna" / name


def read_map(path: Path) -> dict[str, Any]:
    """The file's JSON map; an empty one for a file missing, unreadable or not a map."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@contextlib.contextmanager
def changing(path: Path) -> Iterator[None]:
    """Read and rewrite the file within, one process at a time: two clients of one user that
    each took a seat at once both keep theirs (the second read waits for the first write)."""
    if sys.platform == "win32":  # no flock there: as before, the last write wins
        yield
        return
    import fcntl

    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield  # a directory that cannot be written: nothing will be written either
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # and the lock with it


def write_private(path: Path, data: object) -> None:
    """Replace the file with `data` as JSON, created 0600 (seat and login tokens play as their
    player: never readable by others, not even for a moment); a failure leaves it as it was."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # each process its own
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=1))
        tmp.replace(path)
