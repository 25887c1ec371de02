"""The docs that would drift, held to the code: docs/architecture.md's module map names every
module of the packages once and nothing that is gone, its tables carry no hand-kept line counts,
the core's events and `Effects` fields are all in its tables, and the sentences about the one
clock the engine reads name every module of the engine that reads it."""

from __future__ import annotations

import ast
import inspect
import re
import tomllib
from collections import Counter
from pathlib import Path

import attrs

from server.core.core import ServerCore
from server.core.effects import Effects

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
API_CONTRACT = ROOT / "docs" / "api-contract.md"
PACKAGES = ("catalogue", "shared", "protocol", "server", "client")

# a heading of the map names the folder of the rows under it: **`server/core/`: the core...**
HEADING = re.compile(r"^\*\*`([a-z_/]+/)`")
# a row's first cell: a module's name in its heading's folder, or its path from the top
ROW = re.compile(r"^\| `([^`]+\.py)` \|")


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def module_map() -> str:
    return section(ARCHITECTURE.read_text(), "## Module map", "### Before issue 18")


def mapped_modules() -> Counter[str]:
    """Each module the map names, as its path from the top, counted."""
    named: Counter[str] = Counter()
    folder = ""
    for line in module_map().splitlines():
        if heading := HEADING.match(line):
            folder = heading.group(1)
        elif row := ROW.match(line):
            name = row.group(1)
            named[name if "/" in name else folder + name] += 1
    return named


def package_modules(inits: bool = False) -> set[str]:
    """Every module of the packages, as its path from the top; a package's `__init__.py` only
    when asked (the map names one where it holds more than its docstring)."""
    return {
        path.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if (inits or path.name != "__init__.py") and "__pycache__" not in path.parts
    }


def test_every_module_is_in_the_map_once() -> None:
    named = mapped_modules()
    missing = sorted(package_modules() - set(named))
    twice = sorted(name for name, count in named.items() if count > 1)
    assert not missing, f"modules missing from docs/architecture.md's module map: {missing}"
    assert not twice, f"modules named more than once in the module map: {twice}"


def test_every_module_the_map_names_exists() -> None:
    gone = sorted(set(mapped_modules()) - package_modules(inits=True))
    assert not gone, f"the module map names modules that do not exist: {gone}"


def test_the_map_is_read_whole() -> None:
    # the parse above must see the map's rows: a change of its layout would make the two tests
    # above pass on nothing
    assert len(mapped_modules()) >= 100
    assert sum(1 for line in module_map().splitlines() if HEADING.match(line)) >= 10


def test_no_line_counts_in_the_map() -> None:
    headers = [line for line in module_map().splitlines() if line.startswith("| module |")]
    assert headers
    assert all("lines" not in header for header in headers), headers
    counted = [
        line for line in module_map().splitlines() if re.match(r"^\| `[^`]+` \| \d+ \|", line)
    ]
    assert not counted, counted
    assert not re.search(r"\b\d[\d,]* lines\b", module_map())


def test_every_event_of_the_core_is_in_the_events_table() -> None:
    table = section(ARCHITECTURE.read_text(), "| event | returns |", "**Time and randomness")
    events = [
        name
        for name, member in vars(ServerCore).items()
        if inspect.isfunction(member) and not name.startswith("_")
    ]
    assert "frame" in events
    missing = [name for name in events if f"| `{name}(" not in table]
    assert not missing, f"events of ServerCore missing from docs/architecture.md: {missing}"


def test_every_field_of_effects_is_in_the_effects_list() -> None:
    listed = section(ARCHITECTURE.read_text(), "**Effects**", "**Its parts.**")
    fields = [field.name for field in attrs.fields(Effects)]
    missing = [name for name in fields if f"- `{name}`:" not in listed]
    assert not missing, f"fields of Effects missing from docs/architecture.md: {missing}"


def clock_readers() -> set[str]:
    """The engine's modules that import time."""
    readers = set()
    for path in (ROOT / "shared").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if "time" in names:
                readers.add(f"shared.{path.stem}")
    return readers


def test_the_clock_sentences_name_every_module_that_reads_the_clock() -> None:
    readers = clock_readers()
    assert "shared.search" in readers
    architecture = section(ARCHITECTURE.read_text(), "The one clock it reads", "only")
    contract = section(API_CONTRACT.read_text(), "It reads no clock", "only")
    package = section((ROOT / "shared" / "__init__.py").read_text(), "The one clock", "only")
    for where, sentence in (
        ("docs/architecture.md", architecture),
        ("docs/api-contract.md", contract),
        ("shared/__init__.py", package),
    ):
        named = set(re.findall(r"shared\.[a-z_]+", sentence))
        assert named == readers, f"{where} names {sorted(named)}, the clock's readers {readers}"


def test_every_import_contract_is_described() -> None:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    described = section(ARCHITECTURE.read_text(), "The rule is a checked contract", "## Module map")
    bullets = [line for line in described.splitlines() if line.startswith("- **")]
    assert len(bullets) == len(contracts), (
        f"docs/architecture.md describes {len(bullets)} import contracts, pyproject.toml holds "
        f"{len(contracts)}: {[contract['name'] for contract in contracts]}"
    )
