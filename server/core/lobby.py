"""The lobby: the open tables and who watches the list of them."""

from __future__ import annotations

from protocol.errors import ErrorCode
from protocol.messages import Lobby as LobbyMessage
from server.core.table import MemberId, Table, TableError


class Lobby:
    """The listing is built once per change: every watcher (and every subscribe until the next
    change) gets the same message object, so the I/O layer encodes it once too. The core marks
    each change by setting `dirty`; that also drops the built listing."""

    def __init__(self, max_tables: int) -> None:
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.watchers: set[MemberId] = set()
        self._dirty = False
        self._listing: LobbyMessage | None = None

    @property
    def dirty(self) -> bool:
        """A change not yet sent to the watchers."""
        return self._dirty

    @dirty.setter
    def dirty(self, value: bool) -> None:
        if value:
            self._listing = None  # something in some table's info changed
        self._dirty = value

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
        """The list of tables as it is now; the same object until the next change."""
        if self._listing is None:
            self._listing = LobbyMessage([t.info() for t in self.tables.values()])
        return self._listing
