"""pyproject.toml's packages: setuptools builds every file of the game's packages (the gettext
catalogues, the page and its vendored module among them) and says nothing of a directory it
would ignore, where `make play` printed some 170 lines of "Package would be ignored" for the
data directories. Built offline with the installed setuptools' build_py, as a wheel's build
does, from a copy of the sources."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shared", "protocol", "server", "client", "catalogue", "web")
LEFT_OUT = {"catalogue/babel.cfg"}  # the extraction's settings (make pot), not the game's
# what setuptools says of a directory left out of the packages, by version (68+, 61-67)
IGNORED = ("would be ignored", "as data is deprecated", "absent from the `packages`")


def sources(root: Path) -> set[str]:
    return {
        path.relative_to(root).as_posix()
        for package in PACKAGES
        for path in (root / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_every_file_of_the_packages_is_built_without_a_warning(tmp_path: Path) -> None:
    source = tmp_path / "source"
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = tmp_path / "built"
    done = subprocess.run(
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "build_py", "-d", built],
        cwd=source, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert not [line for line in said.splitlines() if any(w in line for w in IGNORED)], said
    expected = sources(ROOT) - LEFT_OUT
    assert {"catalogue/locale/de/LC_MESSAGES/kahuna.mo", "web/vendor/msgpack.mjs"} <= expected
    assert sources(built) == expected
