"""The operator's commands (`kahuna-server accounts|moderation|tournaments ...`) as the tests run
them. `as_program` starts the program itself, `python -m server`, as cron would: a process of its
own, standard input /dev/null, a bare environment. That proves the entry point, and costs about a
second of Python's start and imports a call, so each command's tests do it once or so;
`in_process` runs the same main(argv) (server/cli/serve.py's, which hands the command on) in this
process, with the same standard input and password variable, its output and status captured
alike."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from server.cli import serve
from server.cli.accounts_cli import PASSWORD_ENV

ROOT = Path(__file__).resolve().parent.parent.parent

Done = subprocess.CompletedProcess[str]


def as_program(*args: str, password: str | None = None, locale: str | None = None) -> Done:
    """kahuna-server ARGS as a process of its own; `password` in its environment, and
    LANG=`locale` (none: no locale variable at all)."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if password is not None:
        env[PASSWORD_ENV] = password
    if locale is not None:
        env["LANG"] = locale
    return subprocess.run(
        [sys.executable, "-m", "server", *args], stdin=subprocess.DEVNULL, cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


# sys.stdout, sys.stdin and the environment are the process's: one command at a time
_one_at_a_time = threading.Lock()


def in_process(*args: str, password: str | None = None) -> Done:
    """kahuna-server ARGS run here, as as_program runs it there: standard input /dev/null,
    `password` the only password in the environment, standard output and error captured, an
    exit (argparse's) its status."""
    out, err = io.StringIO(), io.StringIO()
    with (
        _one_at_a_time,
        _password_set(password),
        open(os.devnull) as devnull,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        stdin, sys.stdin = sys.stdin, devnull
        try:
            status = serve.main(list(args))
        except SystemExit as exc:
            if isinstance(exc.code, str):
                print(exc.code, file=sys.stderr)  # as the interpreter does, status 1
            status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        finally:
            sys.stdin = stdin
    return subprocess.CompletedProcess(
        ["kahuna-server", *args], status, out.getvalue(), err.getvalue()
    )


@contextlib.contextmanager
def _password_set(password: str | None) -> Iterator[None]:
    before = os.environ.pop(PASSWORD_ENV, None)
    if password is not None:
        os.environ[PASSWORD_ENV] = password
    try:
        yield
    finally:
        os.environ.pop(PASSWORD_ENV, None)
        if before is not None:
            os.environ[PASSWORD_ENV] = before
