"""A server for a benchmark, in a process of its own: started from this checkout (or another), its
port read from the line it prints first, its log kept in a file where the bench reads it at the
end, its CPU time and memory read from /proc (Linux), and stopped. Imported by the bench scripts
beside it; not a script itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
PORT_LINE = r":(\d+)\s*$"  # the end of the first line a server prints: "... listening on ...:PORT"


def start_process(
    args: list[str],
    preexec_fn: Callable[[], None] | None = None,
    cwd: Path = ROOT,
    stderr: int | IO[str] = subprocess.DEVNULL,
) -> tuple[subprocess.Popen[str], int]:
    """`python ARGS` (a server, or another process that prints its port the same way), and the
    port it reports on its first line."""
    proc = subprocess.Popen(
        [sys.executable, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        preexec_fn=preexec_fn,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(PORT_LINE, line)
    if not match:
        proc.kill()
        raise SystemExit(f"the process did not report its port: {line!r}")
    return proc, int(match.group(1))


def start_logged(args: list[str]) -> tuple[subprocess.Popen[str], int, IO[str]]:
    """As start_process, with the process's log in a temporary file: a pipe read only at the
    end would fill and stop the server. `stop` reads it and closes it."""
    log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed by stop)
    proc, port = start_process(args, stderr=log)
    return proc, port, log


def stop(proc: subprocess.Popen[str], log: IO[str] | None = None, wait: float = 10) -> str:
    """End the process (SIGTERM, SIGKILL after `wait` seconds); its log, when it was kept."""
    proc.terminate()
    try:
        proc.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if log is None:
        return ""
    log.seek(0)
    text = log.read()
    log.close()
    return text


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def rss_kib(pid: int) -> tuple[int, int]:
    """Resident memory now and at its peak, in KiB (0 once it is gone)."""
    values = {"VmRSS": 0, "VmHWM": 0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key = line.split(":")[0]
            if key in values:
                values[key] = int(line.split()[1])
    except OSError:
        pass
    return values["VmRSS"], values["VmHWM"]
