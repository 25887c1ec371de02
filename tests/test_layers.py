"""The layers of the code, a contract checked by import-linter (pyproject.toml's
[tool.importlinter], `make layers` prints its report): which package may import which, no import
cycles between the modules of a package, and a server core that reaches no I/O, clock or
randomness. A broken contract fails here with the imports that break it, file and line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept() -> None:
    lint = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    run = subprocess.run(
        [sys.executable, "-c", lint, "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        pytest.fail(run.stdout + run.stderr, pytrace=False)
