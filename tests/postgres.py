"""The tests' real PostgreSQL: testbed/postgres.py's, which the benchmarks start too."""

from __future__ import annotations

from testbed.postgres import MISSING as MISSING
from testbed.postgres import Cluster as Cluster
