"""Printing to a reader that may stop early: `kahuna-record replay FILE | head` ends quietly,
as `cat FILE | head` does, where Python would end in a BrokenPipeError traceback."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

# what a shell shows for a program that a closed pipe stopped (128 + SIGPIPE), as for cat's
CLOSED_PIPE = 141


def until_the_reader_leaves(run: Callable[[], int]) -> int:
    """run's exit status, its output flushed; CLOSED_PIPE, and nothing more written, when the
    reader of standard output went away first."""
    try:
        status = run()
        sys.stdout.flush()
    except BrokenPipeError:
        # Python flushes standard output once more on its way out, which would fail again (and
        # say so on standard error): what is left goes nowhere instead
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return CLOSED_PIPE
    return status
