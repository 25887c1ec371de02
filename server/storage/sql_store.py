"""The Storage in SQL, whichever database runs it: the statements every operation becomes, the
bookkeeping that guards the tables' logs, and the batched `updated` times. A database's module
(server/storage/sqlite_store.py, server/storage/pg_store.py) opens the connection, checks and
prepares the schema, and says how a transaction starts and which errors its driver raises.

The statements are written once, with `?` for a parameter (a driver that writes `%s` gets them
translated) and only SQL that SQLite and PostgreSQL read alike: upserts with ON CONFLICT,
subqueries with a name, `greatest` spelled by the database (SQLite calls it `max`).

The guards. The storage is the only writer of its database (a lock held while it is open: a file
lock for SQLite, an advisory lock for PostgreSQL), so it keeps every open table's next log index
as committed, which refuses an op for an unknown or closed table and a log that would not continue
where it stands, without asking the database each time.

The `updated` times. A table's `updated` is written at most every TOUCH_EVERY seconds, a batch of
TOUCH_BATCH tables with a write, the longest waiting first, rather than with every stored action:
the latest time is kept in memory and reported by `load_open_tables`, a CloseOp writes its table's,
and `close` writes them all. After a kill -9 a table's time may lag by TOUCH_EVERY; only the
closing of idle tables reads it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import time
from collections.abc import Sequence
from typing import Any

import msgpack

from server.core.store import (
    AccountAction,
    AccountActionDoneOp,
    AccountActionOp,
    AccountOp,
    AccountRow,
    AppendLogOp,
    ArchivedGame,
    ArchiveOp,
    ChallengeGoneOp,
    ChallengeOp,
    ChallengeRow,
    ChatOp,
    ClearSeatOp,
    CloseOp,
    CreateTableOp,
    DeleteAccountOp,
    DeletedName,
    DirectorOp,
    DropLoginTokensOp,
    EntrantGoneOp,
    EntrantOp,
    EntrantRow,
    FinishOp,
    KnownAddressOp,
    LobbyChatOp,
    LoginTokenOp,
    MailOp,
    MailRetryOp,
    MailRow,
    MailSentOp,
    ModerationLogOp,
    ModeratorOp,
    NamesCooledOp,
    PairingResultOp,
    PairingRow,
    Registration,
    RegistrationOp,
    ReportClosedOp,
    ReportOp,
    ReportRow,
    RoundOp,
    RoundRow,
    SanctionGoneOp,
    SanctionOp,
    SanctionRow,
    SetSeatOp,
    StorageError,
    StorageOp,
    StoredModeration,
    StoredSeat,
    StoredTable,
    StoredTournament,
    TableStateOp,
    TournamentAction,
    TournamentActionDoneOp,
    TournamentActionOp,
    TournamentOp,
    TournamentRow,
)

TOUCH_EVERY = 1.0  # seconds between writes of the tables' `updated` times (see above)
TOUCH_BATCH = 64  # tables whose `updated` one write carries at most


def _keep_latest(times: dict[str, float], table_id: str, at: float) -> None:
    if at > times.get(table_id, at - 1):
        times[table_id] = at


@functools.cache
def insert_log(count: int) -> str:
    """One INSERT statement of `count` log entries."""
    rows = ", ".join(["(?, ?, ?)"] * count)
    return f"INSERT INTO log (table_id, idx, entry) VALUES {rows}"


def _log_rows(op: AppendLogOp) -> list[tuple[str, int, bytes]]:
    return [
        (op.table_id, op.index + i, msgpack.packb(entry, use_bin_type=True))
        for i, entry in enumerate(op.entries)
    ]


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class SqlStorage:
    """`Storage` over one connection `self._conn` that its subclass opens, in autocommit: a
    transaction spans exactly one write() (see `_begin`), and a move stored alone is one
    statement, its own transaction."""

    GREATEST = "max"  # the database's name of the larger of two values
    remote = False  # see server/core/store.py's Storage
    # the driver's errors: a database error becomes a StorageError, as do these two raised
    # while encoding a value
    ERRORS: tuple[type[Exception], ...] = ()

    def __init__(self, name: str) -> None:
        self.path = name  # what the messages call the database: a path, or a URL's safe part
        self._conn: Any = None
        # Open tables' next log index, as committed; and the changes of the transaction under
        # way, kept apart until its COMMIT (None: closed in it).
        self._open_tables: dict[str, int] = {}
        self._pending: dict[str, int | None] = {}
        # Tables' latest `updated` not yet written, as committed, the longest waiting first;
        # and the transaction's own.
        self._touched: dict[str, float] = {}
        self._pending_touches: dict[str, float] = {}
        self._touch_due = 0.0  # time.monotonic() from which the touches are written
        # what a failed write or read may raise, besides StorageError
        self._failures: tuple[type[Exception], ...] = (*self.ERRORS, ValueError, TypeError)

    # ----- what a database says differently ------------------------------------------------

    def _execute(self, sql: str, args: Sequence[Any] = ()) -> Any:
        """Run one statement whose result is wanted; the cursor (rowcount, fetchone, fetchall,
        iteration)."""
        return self._conn.execute(sql, args)

    def _run(self, sql: str, args: Sequence[Any] = ()) -> None:
        """Run one statement of a write whose result is not wanted: a database across a network
        may send it with the transaction's others, together (server/storage/pg_store.py)."""
        self._conn.execute(sql, args)

    def _execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)

    def _begin(self) -> None:
        """Start the transaction of one write, taking the database's write lock at once."""
        self._run("BEGIN")

    def _begin_read(self) -> None:
        """Start a transaction whose queries all see the same state."""
        self._execute("BEGIN")

    def _commit(self) -> None:
        """Commit; raises what any statement of the transaction met."""
        self._run("COMMIT")

    def _rollback(self) -> None:
        self._execute("ROLLBACK")

    # ----- writing ----------------------------------------------------------------------------

    def write(self, ops: Sequence[StorageOp]) -> None:
        if not ops:
            return
        if len(ops) == 1 and type(ops[0]) is AppendLogOp and self._append_alone(ops[0]):
            return
        try:
            self._begin()
        except self.ERRORS as e:
            raise StorageError(f"{self.path}: cannot start a transaction: {e}") from e
        self._pending = {}
        self._pending_touches = {}
        try:
            for op in ops:
                self._apply(op)
            due = time.monotonic() >= self._touch_due
            batch = self._touch_batch(TOUCH_BATCH) if due else {}
            self._write_touches(batch)
            self._commit()
        except BaseException as e:
            with contextlib.suppress(*self.ERRORS):  # the original error is the one to report
                self._rollback()
            if isinstance(e, StorageError):
                raise
            if isinstance(e, self._failures):
                raise StorageError(f"{self.path}: write failed, nothing written: {e}") from e
            raise
        for table_id, next_index in self._pending.items():
            if next_index is None:
                self._open_tables.pop(table_id, None)
            else:
                self._open_tables[table_id] = next_index
        self._settle_touches(batch)
        if due and not self._touched:  # else the next writes carry the rest
            self._touch_due = time.monotonic() + TOUCH_EVERY

    def _append_alone(self, op: AppendLogOp) -> bool:
        """A move stored by itself, the most common write of all: one INSERT of all its
        entries, which is its own transaction. False: not such a write (a table not yet known
        here, the touches due), to be written as usual."""
        next_index = self._open_tables.get(op.table_id)
        if next_index is None or not op.entries or time.monotonic() >= self._touch_due:
            return False
        self._check_continues(op, next_index)
        try:
            rows = _log_rows(op)
            self._run(insert_log(len(rows)), [value for row in rows for value in row])
        except self._failures as e:
            raise StorageError(f"{self.path}: write failed, nothing written: {e}") from e
        self._open_tables[op.table_id] = next_index + len(op.entries)
        _keep_latest(self._touched, op.table_id, op.at)
        return True

    def _check_continues(self, op: AppendLogOp, next_index: int) -> None:
        if op.index != next_index:
            raise StorageError(
                f"{self.path}: log of table {op.table_id} continues at index "
                f"{next_index}, not {op.index}; nothing written"
            )

    def _apply(self, op: StorageOp) -> None:
        run = self._run
        match op:
            case CreateTableOp():
                run(
                    "INSERT INTO tables (id, options, first, vs_computer, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        op.table_id, _json(op.options), op.first, int(op.vs_computer),
                        op.created, op.created,
                    ),
                )  # fmt: skip
                self._pending[op.table_id] = 0
            case SetSeatOp():
                self._require_table(op.table_id, op)
                if type(op.token_hash) is not bytes:  # a raw token passed for its hash
                    raise StorageError(f"{self.path}: a seat's token hash must be bytes")
                run(
                    "INSERT INTO seats (table_id, seat, name, token_hash, computer, account)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET"
                    " name = excluded.name, token_hash = excluded.token_hash,"
                    " computer = excluded.computer, account = excluded.account",
                    (op.table_id, op.seat, op.name, op.token_hash, int(op.computer), op.account),
                )
            case ClearSeatOp():
                self._require_table(op.table_id, op)
                run("DELETE FROM seats WHERE table_id = ? AND seat = ?", (op.table_id, op.seat))
            case AppendLogOp():
                next_index = self._require_table(op.table_id, op)
                self._check_continues(op, next_index)
                rows = _log_rows(op)
                if rows:
                    run(insert_log(len(rows)), [value for row in rows for value in row])
                self._pending[op.table_id] = next_index + len(op.entries)
                self._touch(op.table_id, op.at)
            case ChatOp():
                self._require_table(op.table_id, op)
                run(
                    "INSERT INTO chat (table_id, sender, text, at, role) VALUES (?, ?, ?, ?, ?)",
                    (op.table_id, op.sender, op.text, op.at, op.role),
                )
                self._touch(op.table_id, op.at)
            case TableStateOp():
                self._require_table(op.table_id, op)
                run("UPDATE tables SET state = ? WHERE id = ?", (_json(op.state), op.table_id))
                self._touch(op.table_id, op.at)
            case FinishOp():
                self._require_table(op.table_id, op)
                run(
                    "INSERT INTO finished (table_id, result, record, at) VALUES (?, ?, ?, ?)",
                    (op.table_id, _json(op.result), op.record, op.at),
                )
                self._touch(op.table_id, op.at)
            case CloseOp():
                self._require_table(op.table_id, op)
                # the time of its last touch not yet written goes with it
                at = max(op.at, self._latest_touch(op.table_id) or op.at)
                run(
                    "UPDATE tables SET status = 'closed', close_reason = ?,"
                    f" updated = {self.GREATEST}(updated, ?) WHERE id = ?",
                    (op.reason, at, op.table_id),
                )
                self._pending[op.table_id] = None
            case _:
                self._apply_players(op)

    def _apply_players(self, op: StorageOp) -> None:
        """The operations of version 3's players, which name no open table."""
        run = self._run
        match op:
            case AccountOp(account=a):
                run(
                    "INSERT INTO accounts (name_key, name, password_hash, rating, deviation,"
                    " volatility, created, last_seen, disabled, data)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name_key) DO UPDATE SET"
                    " name = excluded.name, password_hash = excluded.password_hash,"
                    " rating = excluded.rating, deviation = excluded.deviation,"
                    " volatility = excluded.volatility, created = excluded.created,"
                    " last_seen = excluded.last_seen, disabled = excluded.disabled,"
                    " data = excluded.data",
                    (
                        a.key, a.name, a.password_hash, a.rating, a.deviation, a.volatility,
                        a.created, a.last_seen, int(a.disabled), _json(a.data),
                    ),
                )  # fmt: skip
            case LoginTokenOp():
                run(
                    "INSERT INTO login_tokens (token_hash, account, created) VALUES (?, ?, ?)"
                    " ON CONFLICT (token_hash) DO UPDATE SET account = excluded.account,"
                    " created = excluded.created",
                    (op.token_hash, op.key, op.at),
                )
            case DropLoginTokensOp(key=key, token_hash=None):
                run("DELETE FROM login_tokens WHERE account = ?", (key,))
            case DropLoginTokensOp():
                run(
                    "DELETE FROM login_tokens WHERE account = ? AND token_hash = ?",
                    (op.key, op.token_hash),
                )
            case ChallengeOp(challenge=ch):
                run(
                    "INSERT INTO challenges (id, sender, recipient, terms, created)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (ch.challenge_id, ch.sender, ch.recipient, _json(ch.terms), ch.created),
                )
            case ChallengeGoneOp():
                done = self._execute(
                    "UPDATE challenges SET answer = ?, answered = ?"
                    " WHERE id = ? AND answer IS NULL",
                    (op.answer, op.at, op.challenge_id),
                )
                if done.rowcount != 1:
                    raise StorageError(
                        f"{self.path}: challenge {op.challenge_id} is not standing; nothing written"
                    )
            case ArchiveOp(game=g):
                run(
                    "INSERT INTO archive (table_id, white, black, white_account, black_account,"
                    " winner, ending, rated, white_change, black_change, vs_computer, level,"
                    " started, finished, tournament_id, round)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        g.table_id, g.white, g.black, g.white_account, g.black_account, g.winner,
                        g.ending, int(g.rated), g.white_change, g.black_change,
                        int(g.vs_computer), g.level, g.started, g.finished, g.tournament_id,
                        g.round,
                    ),
                )  # fmt: skip
            case LobbyChatOp():
                run(
                    "INSERT INTO lobby_chat (sender, text, at) VALUES (?, ?, ?)",
                    (op.sender, op.text, op.at),
                )
            case _:
                self._apply_safety(op)

    def _apply_safety(self, op: StorageOp) -> None:
        """Version 4's operations: login addresses, registrations, the operator's commands."""
        run = self._run
        match op:
            case KnownAddressOp():
                run(
                    "INSERT INTO login_addresses (account, address_hash, last) VALUES (?, ?, ?)"
                    " ON CONFLICT (account, address_hash) DO UPDATE SET last = excluded.last",
                    (op.key, op.address_hash, op.at),
                )
                for dropped in op.dropped:
                    run(
                        "DELETE FROM login_addresses WHERE account = ? AND address_hash = ?",
                        (op.key, dropped),
                    )
            case RegistrationOp():
                run(
                    "INSERT INTO registrations (account, address, at) VALUES (?, ?, ?)"
                    " ON CONFLICT (account) DO UPDATE SET address = excluded.address,"
                    " at = excluded.at",
                    (op.key, op.address, op.at),
                )
            case AccountActionOp():
                # the row at once (a stopped server's database is then as the command left
                # it), and the command for a running server, which writes rows from memory
                if op.action == "disable":
                    run("UPDATE accounts SET disabled = 1 WHERE name_key = ?", (op.key,))
                else:
                    run(
                        "UPDATE accounts SET password_hash = ?, disabled = 0 WHERE name_key = ?",
                        (op.password_hash, op.key),
                    )
                run("DELETE FROM login_tokens WHERE account = ?", (op.key,))
                run(
                    "INSERT INTO account_actions (account, action, password_hash, at)"
                    " VALUES (?, ?, ?, ?)",
                    (op.key, op.action, op.password_hash, op.at),
                )
            case AccountActionDoneOp():
                run("UPDATE account_actions SET done = ? WHERE seq = ?", (op.at, op.seq))
            case _:
                self._apply_tournaments(op)

    def _apply_tournaments(self, op: StorageOp) -> None:
        """Version 5's operations: tournaments, their entrants, rounds and results."""
        run = self._run
        match op:
            case TournamentOp(tournament=t):
                standings = None if t.standings is None else _json(t.standings)
                run(
                    "INSERT INTO tournaments (id, name, director, format, terms, created, status,"
                    " standings) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                    " name = excluded.name, director = excluded.director, terms = excluded.terms,"
                    " status = excluded.status, standings = excluded.standings",
                    (
                        t.tournament_id, t.name, t.director, t.format, _json(t.terms), t.created,
                        t.status, standings,
                    ),
                )  # fmt: skip
            case EntrantOp(entrant=e):
                run(
                    "INSERT INTO tournament_entrants (tournament_id, account, rating, position,"
                    " joined, left_after, removed) VALUES (?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (tournament_id, account) DO UPDATE SET"
                    " rating = excluded.rating, position = excluded.position,"
                    " joined = excluded.joined, left_after = excluded.left_after,"
                    " removed = excluded.removed",
                    (
                        e.tournament_id, e.account, e.rating, e.position, e.joined, e.left,
                        int(e.removed),
                    ),
                )  # fmt: skip
            case EntrantGoneOp():
                run(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND account = ?",
                    (op.tournament_id, op.account),
                )
            case RoundOp(round=r):
                run(
                    "INSERT INTO tournament_rounds (tournament_id, number, bye, relaxed, paired)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (r.tournament_id, r.number, r.bye, _json(sorted(r.relaxed)), r.paired),
                )
                for g in r.games:
                    run(
                        "INSERT INTO tournament_games (tournament_id, round, board, white, black,"
                        " table_id, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (r.tournament_id, r.number, g.board, g.white, g.black, g.table_id,
                         g.outcome),
                    )  # fmt: skip
            case PairingResultOp():
                done = self._execute(
                    "UPDATE tournament_games SET outcome = ? WHERE tournament_id = ?"
                    " AND round = ? AND board = ? AND outcome IS NULL",
                    (op.outcome, op.tournament_id, op.number, op.board),
                )
                if done.rowcount != 1:
                    raise StorageError(
                        f"{self.path}: game {op.board} of round {op.number} of tournament"
                        f" {op.tournament_id} has no result to take; nothing written"
                    )
            case DirectorOp(director=True):
                run(
                    "INSERT INTO tournament_directors (account, at) VALUES (?, ?)"
                    " ON CONFLICT (account) DO NOTHING",
                    (op.key, op.at),
                )
            case DirectorOp():
                run("DELETE FROM tournament_directors WHERE account = ?", (op.key,))
            case TournamentActionOp():
                run(
                    "INSERT INTO tournament_actions (tournament_id, action, director, reason, at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (op.tournament_id, op.action, op.director, op.reason, op.at),
                )
            case TournamentActionDoneOp():
                run("UPDATE tournament_actions SET done = ? WHERE seq = ?", (op.at, op.seq))
            case ModeratorOp(moderator=True):
                run(
                    "INSERT INTO moderators (account, at) VALUES (?, ?)"
                    " ON CONFLICT (account) DO NOTHING",
                    (op.key, op.at),
                )
            case ModeratorOp():
                run("DELETE FROM moderators WHERE account = ?", (op.key,))
            case ModerationLogOp():
                run(
                    "INSERT INTO moderation_log (at, moderator, action, target, reason, until,"
                    " name) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (op.at, op.moderator, op.action, op.target, op.reason, op.until, op.name),
                )
            case SanctionOp(sanction=m):
                run(
                    "INSERT INTO sanctions (kind, target, until, reason, moderator, at, player)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, target) DO UPDATE SET"
                    " until = excluded.until, reason = excluded.reason,"
                    " moderator = excluded.moderator, at = excluded.at, player = excluded.player",
                    (m.kind, m.target, m.until, m.reason, m.moderator, m.at, m.player),
                )
            case SanctionGoneOp():
                run("DELETE FROM sanctions WHERE kind = ? AND target = ?", (op.kind, op.target))
            case ReportOp(report=r):
                run(
                    "INSERT INTO reports (id, at, reporter, account, reason, table_id, chat)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (r.report_id, r.at, r.reporter, r.account, r.reason, r.table_id,
                     _json(r.chat)),
                )  # fmt: skip
            case ReportClosedOp():
                done = self._execute(
                    "UPDATE reports SET closed = ?, closed_by = ?, note = ?"
                    " WHERE id = ? AND closed IS NULL",
                    (op.at, op.closed_by, op.note, op.report_id),
                )
                if done.rowcount != 1:
                    raise StorageError(
                        f"{self.path}: report {op.report_id} is not open; nothing written"
                    )
            case DeleteAccountOp():
                self._delete_account(op)
            case NamesCooledOp():
                run("DELETE FROM deleted_names WHERE deleted < ?", (op.before,))
            case _:
                self._apply_mail(op)

    def _apply_mail(self, op: StorageOp) -> None:
        """Version 6's operations: the mail queue."""
        run = self._run
        match op:
            case MailOp(mail=m):
                run(
                    "INSERT INTO mail_queue (id, recipient, kind, language, params, created,"
                    " attempts, next_try) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        m.mail_id, m.recipient, m.kind, m.language, _json(m.params), m.created,
                        m.attempts, m.next_try,
                    ),
                )  # fmt: skip
            case MailSentOp():
                # the address and the codes go: a sent mail is only a line of the count
                run(
                    "UPDATE mail_queue SET sent = ?, recipient = '', params = '{}' WHERE id = ?",
                    (op.at, op.mail_id),
                )
            case MailRetryOp():
                run(
                    "UPDATE mail_queue SET attempts = ?, next_try = ? WHERE id = ?",
                    (op.attempts, op.next_try, op.mail_id),
                )
            case _:
                raise StorageError(f"{self.path}: unknown operation {type(op).__name__}")

    def _delete_account(self, op: DeleteAccountOp) -> None:
        """Version 6: an account deleted by its player. The stand-in row comes first, so that
        every row pointing to the account may point to it instead (the foreign keys), and the
        account's own row goes last."""
        run = self._run
        key, new = op.key, op.stand_in
        run(
            "INSERT INTO accounts (name_key, name, password_hash, rating, deviation, volatility,"
            " created, last_seen, disabled, data) VALUES (?, ?, '', 0, 0, 0, ?, ?, 1, ?)",
            (new, op.stand_in_name, op.at, op.at, _json({"deleted": op.at})),
        )
        for table in ("login_tokens", "login_addresses", "account_actions",
                      "tournament_directors"):  # fmt: skip
            run(f"DELETE FROM {table} WHERE account = ?", (key,))
        for table, column in (
            ("registrations", "account"), ("challenges", "sender"),
            ("challenges", "recipient"), ("tournaments", "director"),
            ("tournament_entrants", "account"), ("tournament_rounds", "bye"),
            ("tournament_games", "white"), ("tournament_games", "black"),
        ):  # fmt: skip
            run(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, key))
        for seat in ("white", "black"):
            run(
                f"UPDATE archive SET {seat} = ?, {seat}_account = ? WHERE {seat}_account = ?",
                (op.stand_in_name, new, key),
            )
        run(
            "UPDATE seats SET name = ?, account = ? WHERE account = ?", (op.stand_in_name, new, key)
        )
        # what they said at their own tables, and in the lobby, under the name no one has now
        run(
            "UPDATE chat SET sender = ? WHERE sender = ?"
            " AND table_id IN (SELECT table_id FROM seats WHERE account = ?)",
            (op.stand_in_name, op.name, new),
        )
        run("UPDATE lobby_chat SET sender = ? WHERE sender = ?", (op.stand_in_name, op.name))
        run("DELETE FROM accounts WHERE name_key = ?", (key,))
        for reserved in op.reserved or (key,):
            run(
                "INSERT INTO deleted_names (name_key, deleted) VALUES (?, ?)"
                " ON CONFLICT (name_key) DO UPDATE SET deleted = excluded.deleted",
                (reserved, op.at),
            )

    def _flush(self) -> None:
        """Write every table's `updated` not yet written, now."""
        try:
            self._begin()
            try:
                self._write_touches(self._touched)
                self._commit()
            except BaseException:
                with contextlib.suppress(*self.ERRORS):
                    self._rollback()
                raise
        except self.ERRORS as e:
            raise StorageError(f"{self.path}: cannot write the tables' times: {e}") from e
        self._touched = {}
        self._touch_due = time.monotonic() + TOUCH_EVERY

    def _require_table(self, table_id: str, op: StorageOp) -> int:
        """The table's next log index; refuses a table unknown or closed. Foreign keys would
        catch an unknown table on insert, but not on update or delete, and an op aimed at a
        table already closed is a bug in the caller either way. The answer is kept for the
        tables this storage has seen open (it is the only writer: see the lock), which saves
        two queries of every stored action."""
        if table_id in self._pending:
            known = self._pending[table_id]
        else:
            known = self._open_tables.get(table_id)
        if known is not None:
            return known
        closed_here = table_id in self._pending
        row = self._execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise StorageError(f"{self.path}: {type(op).__name__} for unknown table {table_id}")
        if closed_here or row[0] != "open":
            raise StorageError(f"{self.path}: {type(op).__name__} for closed table {table_id}")
        (next_index,) = self._execute(
            "SELECT coalesce(max(idx) + 1, 0) FROM log WHERE table_id = ?", (table_id,)
        ).fetchone()
        self._pending[table_id] = int(next_index)
        return int(next_index)

    def _touch(self, table_id: str, at: float) -> None:
        _keep_latest(self._pending_touches, table_id, at)

    def _latest_touch(self, table_id: str) -> float | None:
        """The latest `updated` of the table not yet written, this transaction's included."""
        times = [t for t in (self._touched, self._pending_touches) if table_id in t]
        return max(t[table_id] for t in times) if times else None

    def _touch_batch(self, most: int) -> dict[str, float]:
        """The first `most` tables whose time is not yet written, with their latest times: the
        committed ones first (the longest waiting), then the transaction's own; a table the
        transaction closes has its time from its CloseOp. Looks at those tables alone, not at
        every table touched."""
        batch: dict[str, float] = {}
        for table_id in itertools.chain(self._touched, self._pending_touches):
            if len(batch) >= most:
                break
            if table_id in batch or self._pending.get(table_id, 0) is None:
                continue
            latest = self._latest_touch(table_id)
            assert latest is not None
            batch[table_id] = latest
        return batch

    def _settle_touches(self, batch: dict[str, float]) -> None:
        """After the COMMIT: the times written are no longer waiting, the transaction's others
        join the waiting ones."""
        for table_id, next_index in self._pending.items():
            if next_index is None:
                self._touched.pop(table_id, None)  # its CloseOp wrote the time
        for table_id in batch:
            self._touched.pop(table_id, None)
        for table_id, at in self._pending_touches.items():
            if table_id not in batch and self._pending.get(table_id, 0) is not None:
                _keep_latest(self._touched, table_id, at)

    def _write_touches(self, batch: dict[str, float]) -> None:
        """Within the transaction: the tables' `updated` times."""
        if batch:
            self._execute_many(
                f"UPDATE tables SET updated = {self.GREATEST}(updated, ?) WHERE id = ?",
                [(at, table_id) for table_id, at in batch.items()],
            )

    # ----- reading ----------------------------------------------------------------------------

    def load_open_tables(self, chat_limit: int) -> list[StoredTable]:
        try:
            return self._load_open_tables(chat_limit)
        except self._failures as e:
            raise StorageError(f"{self.path}: cannot load the open tables: {e}") from e

    def _load_open_tables(self, chat_limit: int) -> list[StoredTable]:
        run = self._execute
        # One read transaction, so the four queries see the same state.
        self._begin_read()
        try:
            rows = run(
                "SELECT t.id, t.options, t.first, t.vs_computer, t.created, t.updated,"
                " f.table_id IS NOT NULL, t.state"
                " FROM tables t LEFT JOIN finished f ON f.table_id = t.id"
                " WHERE t.status = 'open' ORDER BY t.seq"
            ).fetchall()
            seats: dict[str, dict[str, StoredSeat]] = {row[0]: {} for row in rows}
            logs: dict[str, list[Any]] = {row[0]: [] for row in rows}
            chats: dict[str, list[tuple[str, str, str | None]]] = {row[0]: [] for row in rows}
            for table_id, seat, name, token_hash, computer, account in run(
                "SELECT s.table_id, s.seat, s.name, s.token_hash, s.computer, s.account"
                " FROM tables t JOIN seats s ON s.table_id = t.id WHERE t.status = 'open'"
            ):
                seats[table_id][seat] = StoredSeat(name, bytes(token_hash), bool(computer), account)
            for table_id, entry in run(
                "SELECT l.table_id, l.entry FROM tables t JOIN log l ON l.table_id = t.id"
                " WHERE t.status = 'open' ORDER BY t.seq, l.idx"
            ):
                logs[table_id].append(msgpack.unpackb(entry, raw=False))
            if chat_limit > 0:
                for table_id, sender, text, role in run(
                    "SELECT table_id, sender, text, role FROM ("
                    "  SELECT h.table_id, h.sender, h.text, h.role, h.id, row_number() OVER"
                    "   (PARTITION BY h.table_id ORDER BY h.id DESC) AS back"
                    "  FROM tables t JOIN chat h ON h.table_id = t.id WHERE t.status = 'open'"
                    ") AS recent WHERE back <= ? ORDER BY table_id, id",
                    (chat_limit,),
                ):
                    chats[table_id].append((sender, text, role))
        finally:
            self._execute("COMMIT")
        return [
            StoredTable(
                table_id=table_id,
                options=json.loads(options),
                first=first,
                vs_computer=bool(vs_computer),
                created=created,
                updated=max(updated, self._touched.get(table_id, updated)),
                seats=seats[table_id],
                log=logs[table_id],
                chat=chats[table_id],
                finished=bool(finished),
                state=json.loads(state),
            )
            for table_id, options, first, vs_computer, created, updated, finished, state in rows
        ]

    def _read(self, what: str, query: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            rows: list[Any] = self._execute(query, args).fetchall()
        except self.ERRORS as e:
            raise StorageError(f"{self.path}: cannot read {what}: {e}") from e
        return rows

    def finished_record(self, table_id: str) -> str | None:
        query = "SELECT record FROM finished WHERE table_id = ?"
        rows = self._read(f"the record of {table_id}", query, (table_id,))
        return str(rows[0][0]) if rows else None

    def table_ids(self) -> set[str]:
        return {row[0] for row in self._read("the table ids", "SELECT id FROM tables")}

    # ----- the players (version 3) --------------------------------------------------------------

    def load_accounts(self) -> list[AccountRow]:
        rows = self._read(
            "the accounts",
            "SELECT name_key, name, password_hash, rating, deviation, volatility, created,"
            " last_seen, disabled, data FROM accounts ORDER BY created, name_key",
        )
        return [
            AccountRow(key, name, hashed, rating, rd, vol, created, seen, bool(off), json.loads(d))
            for key, name, hashed, rating, rd, vol, created, seen, off, d in rows
        ]

    def load_login_tokens(self) -> list[tuple[bytes, str]]:
        rows = self._read("the login tokens", "SELECT token_hash, account FROM login_tokens")
        return [(bytes(token_hash), account) for token_hash, account in rows]

    def load_challenges(self) -> list[ChallengeRow]:
        rows = self._read(
            "the challenges",
            "SELECT id, sender, recipient, terms, created FROM challenges"
            " WHERE answer IS NULL ORDER BY seq",
        )
        return [
            ChallengeRow(cid, sender, recipient, json.loads(terms), created)
            for cid, sender, recipient, terms, created in rows
        ]

    def load_archive(self) -> list[ArchivedGame]:
        rows = self._read(
            "the archive",
            "SELECT table_id, white, black, white_account, black_account, winner, ending, rated,"
            " white_change, black_change, vs_computer, level, started, finished, tournament_id,"
            " round FROM archive ORDER BY seq",
        )
        # the columns in ArchivedGame's order; the flags are stored as 0 and 1
        return [
            ArchivedGame(
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8], r[9], bool(r[10]),
                r[11], r[12], r[13], r[14], r[15],
            )
            for r in rows
        ]  # fmt: skip

    def load_lobby_chat(self, limit: int) -> list[LobbyChatOp]:
        rows = self._read(
            "the lobby chat",
            "SELECT sender, text, at FROM (SELECT id, sender, text, at FROM lobby_chat"
            " ORDER BY id DESC LIMIT ?) AS recent ORDER BY id",
            (max(0, limit),),
        )
        return [LobbyChatOp(sender, text, at) for sender, text, at in rows]

    def load_known_addresses(self) -> list[tuple[str, bytes]]:
        rows = self._read(
            "the login addresses",
            "SELECT account, address_hash FROM login_addresses ORDER BY last, account",
        )
        return [(key, bytes(address_hash)) for key, address_hash in rows]

    def load_registrations(self, since: float) -> list[Registration]:
        rows = self._read(
            "the registrations",
            "SELECT account, address, at FROM registrations WHERE at >= ? ORDER BY at, account",
            (since,),
        )
        return [Registration(key, address, at) for key, address, at in rows]

    def load_account_actions(self) -> list[AccountAction]:
        rows = self._read(
            "the operator's commands",
            "SELECT seq, account, action, password_hash FROM account_actions"
            " WHERE done IS NULL ORDER BY seq",
        )
        return [AccountAction(int(seq), key, action, hashed) for seq, key, action, hashed in rows]

    def load_tournament_actions(self) -> list[TournamentAction]:
        rows = self._read(
            "the operator's commands on tournaments",
            "SELECT seq, tournament_id, action, director, reason FROM tournament_actions"
            " WHERE done IS NULL ORDER BY seq",
        )
        return [
            TournamentAction(int(seq), tournament_id, action, director, reason)
            for seq, tournament_id, action, director, reason in rows
        ]

    def load_tournaments(self) -> list[StoredTournament]:
        tournaments = self._read(
            "the tournaments",
            "SELECT id, name, director, format, terms, created, status, standings"
            " FROM tournaments ORDER BY seq",
        )
        entrants: dict[str, list[EntrantRow]] = {row[0]: [] for row in tournaments}
        rounds: dict[str, list[RoundRow]] = {row[0]: [] for row in tournaments}
        for tid, account, rating, position, joined, left, removed in self._read(
            "the tournaments' entrants",
            "SELECT tournament_id, account, rating, position, joined, left_after, removed"
            " FROM tournament_entrants ORDER BY tournament_id, position",
        ):
            entrants[tid].append(
                EntrantRow(tid, account, rating, position, joined, left, bool(removed))
            )
        games: dict[tuple[str, int], list[PairingRow]] = {}
        for tid, number, board, white, black, table_id, outcome in self._read(
            "the tournaments' games",
            "SELECT tournament_id, round, board, white, black, table_id, outcome"
            " FROM tournament_games ORDER BY tournament_id, round, board",
        ):
            games.setdefault((tid, number), []).append(
                PairingRow(board, white, black, table_id, outcome)
            )
        for tid, number, bye, relaxed, paired in self._read(
            "the tournaments' rounds",
            "SELECT tournament_id, number, bye, relaxed, paired FROM tournament_rounds"
            " ORDER BY tournament_id, number",
        ):
            played = tuple(games.get((tid, number), ()))
            rounds[tid].append(
                RoundRow(tid, number, bye, tuple(json.loads(relaxed)), paired, played)
            )
        return [
            StoredTournament(
                TournamentRow(
                    tid, name, director, fmt, json.loads(terms), created, status,
                    None if standings is None else json.loads(standings),
                ),
                entrants[tid],
                rounds[tid],
            )
            for tid, name, director, fmt, terms, created, status, standings in tournaments
        ]  # fmt: skip

    def load_directors(self) -> list[str]:
        rows = self._read(
            "the tournament directors", "SELECT account FROM tournament_directors ORDER BY account"
        )
        return [key for (key,) in rows]

    def load_mail_queue(self) -> list[MailRow]:
        rows = self._read(
            "the mail queue",
            "SELECT id, recipient, kind, language, params, created, attempts, next_try"
            " FROM mail_queue WHERE sent IS NULL ORDER BY seq",
        )
        return [
            MailRow(mid, to, kind, language, json.loads(params), created, attempts, next_try)
            for mid, to, kind, language, params, created, attempts, next_try in rows
        ]

    def load_deleted_names(self) -> list[DeletedName]:
        rows = self._read(
            "the deleted names", "SELECT name_key, deleted FROM deleted_names ORDER BY deleted"
        )
        return [DeletedName(key, at) for key, at in rows]

    def load_moderators(self) -> list[str]:
        rows = self._read("the moderators", "SELECT account FROM moderators ORDER BY account")
        return [key for (key,) in rows]

    def load_moderation(self, log_limit: int) -> StoredModeration:
        sanctions = self._read(
            "the mutes and bans",
            "SELECT kind, target, until, reason, moderator, at, player FROM sanctions"
            " ORDER BY kind, target",
        )
        reports = self._read(
            "the open reports",
            "SELECT id, at, reporter, account, reason, table_id, chat FROM reports"
            " WHERE closed IS NULL ORDER BY id",
        )
        ((last,),) = self._read("the reports' numbers", "SELECT max(id) FROM reports")
        return StoredModeration(
            self.load_moderators(),
            [SanctionRow(*row) for row in sanctions],
            [
                ReportRow(int(rid), at, reporter, account, reason, table_id, json.loads(chat))
                for rid, at, reporter, account, reason, table_id, chat in reports
            ],
            self.load_moderation_log(log_limit),
            int(last or 0),
        )

    def load_moderation_log(self, limit: int) -> list[ModerationLogOp]:
        rows = self._read(
            "the moderation log",
            "SELECT at, moderator, action, target, reason, until, name FROM moderation_log"
            " ORDER BY seq DESC LIMIT ?",
            (limit,),
        )
        return [ModerationLogOp(*row) for row in reversed(rows)]

    def flush_times(self) -> None:
        """At close: the tables' times not yet written; they lag, as after a kill -9, if the
        database cannot take them."""
        if self._touched:
            with contextlib.suppress(StorageError):
                self._flush()
