"""A command line of the client's whose reader has gone, as `... | head` once head has quit: the
tests that it ends quietly (client/cli/pipes.py) run it through here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def run_into_a_closed_pipe(*argv: str) -> subprocess.CompletedProcess[str]:
    """`python ARGV` from the project's root, its output into a pipe whose reader is gone before
    anything is written (so every write fails); its error output kept."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    finally:
        os.close(write)
