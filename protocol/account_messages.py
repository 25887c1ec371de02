"""Version 4's messages about the account its player controls: deleting it (the password given
again) and downloading all of its finished games as records; docs/protocol.md, Version 4,
"Your own account", says who sends what. A deleted account's connections are told by
`logged_out` with the reason `account_deleted`."""

from __future__ import annotations

from typing import ClassVar

import attrs

from protocol.fields import since_v4

# ----- client to server -------------------------------------------------------------------


@attrs.frozen
class DeleteAccount:
    """Version 4: delete the account the connection is logged in to; `password` is its
    password, asked again. Answered by `logged_out` (reason account_deleted) on every
    connection of the account, or an error."""

    TYPE: ClassVar[str] = "delete_account"
    password: str = attrs.field(repr=False)


@attrs.frozen
class GetGameRecords:
    """Version 4: one page of the records of the sender's own finished games, oldest first
    (answer: `game_records`); `page` counts from 0."""

    TYPE: ClassVar[str] = "get_game_records"
    page: int = since_v4(0)


# ----- server to client -------------------------------------------------------------------


@attrs.frozen
class GameRecord:
    """One finished game: who sat where (as the archive names them), when it ended (unix
    time) and its record (docs/records.md)."""

    table_id: str
    white: str
    black: str
    finished: float
    text: str


@attrs.frozen
class GameRecords:
    """Version 4: answer to get_game_records: page `page` of `pages` (0 when the account has
    no finished game), at most RECORDS_PER_PAGE records, the oldest first."""

    TYPE: ClassVar[str] = "game_records"
    name: str
    page: int
    pages: int
    games: list[GameRecord]


RECORDS_PER_PAGE = 50  # a record is a few kilobytes: a page stays far below a client's 4 MiB
