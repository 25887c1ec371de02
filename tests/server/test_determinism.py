"""The core is a function of its events: the same events at the same times, with the same seed,
give the same effects; and nothing in it reads a clock, a socket or the system's randomness."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.server.test_golden_frames import run_session

ROOT = Path(__file__).parents[2]
# what only the I/O layer may touch; the core gets the time and its rng with every event
FORBIDDEN = {
    "asyncio", "sqlite3", "websockets", "threading", "fcntl", "socket", "secrets", "time",
    "server.sqlite_store", "server.journal", "server.app", "server.connection",
}  # fmt: skip


def test_the_same_events_give_the_same_effects() -> None:
    first, second = run_session(), run_session()
    assert len(first.effects) == len(second.effects) > 100
    for index, (one, other) in enumerate(zip(first.effects, second.effects, strict=True)):
        assert one == other, f"effects {index} differ"
    assert first.recording == second.recording  # the bytes each connection is sent, too


def _source(module: str) -> Path | None:
    path = ROOT / module.replace(".", "/")
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_the_core_imports_no_io() -> None:
    """Every module of the project that server/core.py reaches, directly or not."""
    seen: dict[str, set[str]] = {}
    todo = ["server.core"]
    while todo:
        module = todo.pop()
        path = _source(module)
        if module in seen or path is None:
            continue
        seen[module] = _imports(path)
        todo += seen[module]
    assert {"server.core", "server.table", "server.sessions", "server.lifecycle"} <= set(seen)
    found = {
        module: sorted(n for n in names if n in FORBIDDEN or n.split(".")[0] in FORBIDDEN)
        for module, names in seen.items()
    }
    assert {module: bad for module, bad in found.items() if bad} == {}
