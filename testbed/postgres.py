"""A real PostgreSQL for the tests and the benchmarks, started by themselves: a cluster made with
Debian's initdb in a temporary directory and run with pg_ctl, listening on a Unix socket in that
directory only (no TCP port). PostgreSQL refuses to run as root, so under root the cluster runs
as the `postgres` user of Debian's package. Each test gets a database of its own.

Durability settings are PostgreSQL's own except fsync, which the tests turn off: they kill
kahuna servers, never PostgreSQL, and a committed transaction is in PostgreSQL's files (the
operating system's buffers) either way. The benchmarks (bench/storage_bench.py --postgresql,
bench/load_bench.py --postgresql, bench/standby_bench.py, bench/cluster_sim.py) keep it on."""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

MISSING = "PostgreSQL is not installed (Debian's postgresql package; .ci/run installs it)"


def bin_dir() -> Path | None:
    """Where Debian keeps initdb and pg_ctl (not on PATH), the newest version first."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    if found:
        return Path(found[0]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


class Cluster:
    """One running PostgreSQL; `database()` makes a new empty database and gives its URL."""

    def __init__(self, fsync: bool = False) -> None:
        binaries = bin_dir()
        if binaries is None:
            raise FileNotFoundError(MISSING)
        self.bin = binaries
        self.dir = Path(tempfile.mkdtemp(prefix="kahuna-pg-"))
        self.data = self.dir / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._count = itertools.count(1)
        self._run("initdb", "-D", str(self.data), "-U", "kahuna", "-A", "trust", "--no-sync")
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.dir}'"
            f" -c fsync={'on' if fsync else 'off'} -c max_connections=200"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o", options,
            "start",
        )  # fmt: skip
        self.admin = psycopg.connect(self.url("postgres"), autocommit=True)

    def _run(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self._as, str(self.bin / program), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.dir,
        )

    def url(self, database: str) -> str:
        return f"postgresql://kahuna@/{database}?host={self.dir}"

    def database(self) -> str:
        name = f"test_{next(self._count)}"
        self.admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.admin.close()
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)
