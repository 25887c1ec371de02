"""The lobby: the open tables and who watches the list of them."""

from __future__ import annotations

from protocol.errors import ErrorCode
from protocol.messages import Lobby as LobbyMessage
from server.table import MemberId, Table, TableError


class Lobby:
    def __init__(self, max_tables: int) -> None:
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.watchers: set[MemberId] = set()
        self.dirty = False

    def add(self, table: Table) -> None:
        self.tables[table.table_id] = table
        self.dirty = True

    def remove(self, table_id: str) -> Table | None:
        self.dirty = True
        return self.tables.pop(table_id, None)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise TableError(ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id[:40]!r}")
        return table

    def listing(self) -> LobbyMessage:
        return LobbyMessage([t.info() for t in self.tables.values()])
