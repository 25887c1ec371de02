"""What the server core asks to be kept, and the interface that keeps it: the storage operations
the core builds, the tables as they come back, and the `Storage` protocol that a database
implements (server/storage/sqlite_store.py, server/storage/pg_store.py). Nothing here does I/O, so
the core may import it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Protocol

import attrs


class StorageError(Exception):
    """The database cannot be opened, read or written; the message names the path and why."""


class DatabaseInUse(StorageError):
    """Another server holds the database (its lock): a command that may run beside it opens it
    `shared` instead (server/cli/accounts_cli.py)."""


class NoDatabase(StorageError):
    """Opened not to be created (`create=False`, the operator's commands): there is no such
    database, or it holds no kahuna tables yet."""


class StandbyStopped(StorageError):
    """A server waiting as a standby for a database another one serves was told to stop."""


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


def hash_address(key: str, address: str) -> bytes:
    """An address an account logged in from, as kept: salted with the account's key, so that the
    same address is not one value across accounts. It hides the address from a reader of the
    database, not from one who tries every IPv4 address."""
    return hashlib.sha256(f"kahuna login address\0{key}\0{address}".encode()).digest()


@attrs.frozen
class CreateTableOp:
    table_id: str
    options: dict[str, Any]  # GameOptions.to_dict() form
    first: str  # "white" or "black"
    vs_computer: bool
    created: float  # unix time


@attrs.frozen
class SetSeatOp:
    table_id: str
    seat: str
    name: str
    token_hash: bytes
    computer: bool
    account: str | None = None  # the key of the account that holds the seat, if any


@attrs.frozen
class ClearSeatOp:
    table_id: str
    seat: str


@attrs.frozen
class AppendLogOp:
    table_id: str
    index: int  # position of entries[0] in the table's log, 0-based
    entries: tuple[Any, ...]  # opaque msgpack-able values
    at: float


@attrs.frozen
class ChatOp:
    table_id: str
    sender: str
    text: str
    at: float
    role: str | None = None  # "white", "black" or "spectator"


@attrs.frozen
class TableStateOp:
    """What a table holds besides its log, seats and chat (clocks, offers, its settings), as a
    JSON-able map that replaces the one stored before."""

    table_id: str
    state: dict[str, Any]
    at: float


@attrs.frozen
class FinishOp:
    table_id: str
    result: dict[str, Any]  # JSON-able
    record: str  # the full game record text
    at: float


@attrs.frozen
class CloseOp:
    """The table is gone from the server and is not loaded again; a finished game's result and
    record stay in the database."""

    table_id: str
    reason: str
    at: float


# ----- players (protocol version 3) -------------------------------------------------------


@attrs.frozen
class AccountRow:
    """An account as stored. `key` (server/core/names.py's name_key of the name) is what makes two
    spellings one name; `data` is a JSON-able map of what grows with the account (its statistics,
    the players it ignores)."""

    key: str
    name: str
    password_hash: str  # argon2id, in its own encoded form
    rating: float
    deviation: float
    volatility: float
    created: float  # unix time
    last_seen: float
    disabled: bool
    data: dict[str, Any] = attrs.Factory(dict)


@attrs.frozen
class AccountOp:
    """The account as it now is, inserted or replacing the stored one whole."""

    account: AccountRow


@attrs.frozen
class LoginTokenOp:
    """A login token was given to a client of the account (only its hash is kept)."""

    token_hash: bytes
    key: str
    at: float


@attrs.frozen
class DropLoginTokensOp:
    """Forget one login token of the account (logout), or all of them (None: a new password)."""

    key: str
    token_hash: bytes | None


@attrs.frozen
class KnownAddressOp:
    """The account logged in from an address (its hash_address); `dropped`: the hashes of
    older ones no longer kept."""

    key: str
    address_hash: bytes
    at: float
    dropped: tuple[bytes, ...] = ()


@attrs.frozen
class RegistrationOp:
    """Where and when an account was registered: the limit per address (server/core/logins.py) and
    the operator's `kahuna-server accounts recent`."""

    key: str
    address: str
    at: float


@attrs.frozen
class AccountActionOp:
    """The operator's command on an account, made while a server may run
    (server/cli/accounts_cli.py): written to the account's row at once, and kept for the running
    server, which applies it at its next look (`load_account_actions`) and marks it done.
    `action` "disable", or "password" with the new hash (which also enables the account)."""

    key: str
    action: str
    password_hash: str | None
    at: float


@attrs.frozen
class AccountActionDoneOp:
    seq: int
    at: float


@attrs.frozen
class AccountAction:
    """An operator's command not yet applied by a server."""

    seq: int
    key: str
    action: str
    password_hash: str | None = attrs.field(repr=False)


@attrs.frozen
class TournamentActionOp:
    """The operator's command on a tournament (server/cli/tournaments_cli.py), made while a
    server may run: kept for the server, which applies it to the tournament it holds in memory
    at its next look (`load_tournament_actions`, or its next start) and marks it done. The
    tournament's rows are the server's alone to write: its tables, clocks and rounds are in its
    memory. `action` "close" (ended, as a moderator's close_tournament) or "hand" (`director`,
    an account key, directs it from then on), with the operator's `reason` for the log."""

    tournament_id: str
    action: str
    director: str | None
    reason: str
    at: float


@attrs.frozen
class TournamentActionDoneOp:
    seq: int
    at: float


@attrs.frozen
class TournamentAction:
    """An operator's command on a tournament not yet applied by a server."""

    seq: int
    tournament_id: str
    action: str
    director: str | None
    reason: str


@attrs.frozen
class Registration:
    key: str
    address: str
    at: float


@attrs.frozen
class ChallengeRow:
    challenge_id: str
    sender: str  # account keys
    recipient: str
    terms: dict[str, Any]  # JSON-able: protocol.messages.ChallengeTerms as a map
    created: float


@attrs.frozen
class ChallengeOp:
    """A challenge was made."""

    challenge: ChallengeRow


@attrs.frozen
class ChallengeGoneOp:
    """A challenge was accepted, declined or withdrawn (`answer`), or lapsed."""

    challenge_id: str
    answer: str
    at: float


@attrs.frozen
class ArchivedGame:
    """A finished game in the archive of its players: one row for every game that had an
    account at either seat. The record itself is the table's `FinishOp` record."""

    table_id: str
    white: str  # the names at the seats
    black: str
    white_account: str | None  # account keys
    black_account: str | None
    winner: str | None  # "white", "black", or None for a draw
    ending: str  # the result's reason code
    rated: bool
    white_change: int | None  # the rating changes of a rated game
    black_change: int | None
    vs_computer: bool
    level: str | None  # the computer's, against it
    started: float  # unix times
    finished: float
    tournament_id: str | None = None  # version 5: the tournament the game was of, its round
    round: int | None = None


@attrs.frozen
class ArchiveOp:
    game: ArchivedGame


@attrs.frozen
class LobbyChatOp:
    sender: str
    text: str
    at: float


# ----- tournaments (schema version 5) -------------------------------------------------------


@attrs.frozen
class TournamentRow:
    """A tournament as stored: `terms` (JSON-able) its format's details, clock, options and
    start; `status` "open" (taking entrants), "started" or "finished"; `standings` the final
    table, kept once it is finished."""

    tournament_id: str
    name: str
    director: str  # account key
    format: str  # server/core/tournaments/model.py's Format
    terms: dict[str, Any]
    created: float
    status: str = "open"
    standings: list[Any] | None = None


@attrs.frozen
class EntrantRow:
    """A player of a tournament: `position` the order of joining (a round-robin's table
    numbers), `joined` the first round they could be paired in, `left` the last they were in."""

    tournament_id: str
    account: str  # account key
    rating: float  # the seed: the rating at joining
    position: int
    joined: int = 1
    left: int | None = None
    removed: bool = False


@attrs.frozen
class PairingRow:
    """One game of a round, by board; `table_id` None for a game never played (a forfeit
    decided at the pairing), `outcome` None while it is played."""

    board: int
    white: str  # account keys
    black: str
    table_id: str | None
    outcome: str | None = None


@attrs.frozen
class RoundRow:
    tournament_id: str
    number: int
    bye: str | None  # account key
    relaxed: tuple[str, ...]  # the pairing rules the round had to break
    paired: float  # unix time
    games: tuple[PairingRow, ...]


@attrs.frozen
class TournamentOp:
    """The tournament as it now is, inserted or replacing the stored one whole."""

    tournament: TournamentRow


@attrs.frozen
class EntrantOp:
    """An entrant as they now are, inserted or replacing the stored one."""

    entrant: EntrantRow


@attrs.frozen
class EntrantGoneOp:
    """An entrant withdrawn before the start: gone from the list."""

    tournament_id: str
    account: str


@attrs.frozen
class RoundOp:
    """A round paired: its games, written with their tables' CreateTableOps before it."""

    round: RoundRow


@attrs.frozen
class PairingResultOp:
    """The result of a game of a round, final."""

    tournament_id: str
    number: int
    board: int
    outcome: str


@attrs.frozen
class DirectorOp:
    """The operator made the account a tournament director (`director`), or no longer one
    (server/cli/accounts_cli.py)."""

    key: str
    director: bool
    at: float


# ----- deleted accounts (schema version 6) -----------------------------------------------

# The key of a deleted account's stand-in: no name has a key starting so (names carry no "#"),
# so no registration can meet it. Its row keeps the account's games, challenges and
# tournaments pointing somewhere (the database's foreign keys) under the anonymous name.
DELETED_KEY = "#deleted "
DELETED_NAME = "deleted #{number}"


def is_deleted_key(key: str) -> bool:
    return key.startswith(DELETED_KEY)


@attrs.frozen
class DeleteAccountOp:
    """The account deleted by its player (server/core/account_deletion.py): everything stored
    that pointed to `key` points to `stand_in` (a stand-in account row, made here, named
    `stand_in_name`), every `name` in the games it played and in the lobby's chat becomes
    `stand_in_name`; its login tokens, addresses and the operator's commands go; the name keys
    `reserved` are kept as deleted at `at`, for the cooling time."""

    key: str
    name: str
    stand_in: str
    stand_in_name: str
    at: float
    # the name keys kept as deleted: `key`, and the name's key of today where it differs (an
    # account stored under an older skeleton: server/core/names.py)
    reserved: tuple[str, ...] = ()


@attrs.frozen
class NamesCooledOp:
    """The deleted names whose cooling time was over `before` (a unix time) are forgotten: the
    database keeps no deleted account's name longer than it must."""

    before: float


@attrs.frozen
class DeletedName:
    """A name key whose account was deleted at `at` (a name waits the cooling time)."""

    key: str
    at: float


# ----- moderation (schema version 6) --------------------------------------------------------


@attrs.frozen
class ModeratorOp:
    """The operator made the account a moderator (`moderator`), or no longer one
    (server/cli/accounts_cli.py); a running server sees the change at its next look
    (`load_moderation`)."""

    key: str
    moderator: bool
    at: float


@attrs.frozen
class ModerationLogOp:
    """A line of the moderation log: `moderator` a name (or "operator"), `action` what was
    done (protocol/moderation_messages.py's LoggedAction), `target` a name, table id, address,
    network, report number or tournament id; `name` the account a tournament was given to."""

    at: float
    moderator: str
    action: str
    target: str
    reason: str
    until: float | None = None
    name: str | None = None


@attrs.frozen
class SanctionRow:
    """A mute (`kind` "mute", `target` an account key) or a ban (`kind` "ban", `target` a
    network in CIDR form) in force until `until` (unix time). A ban by player keeps, in
    `player`, the account key of the player whose addresses it bans: the moderators are shown
    that name, never the network."""

    kind: str
    target: str
    until: float
    reason: str
    moderator: str  # a name
    at: float
    player: str | None = None


@attrs.frozen
class SanctionOp:
    """A mute or ban, inserted or replacing the one of the same kind and target."""

    sanction: SanctionRow


@attrs.frozen
class SanctionGoneOp:
    """A mute or ban lifted before its time."""

    kind: str
    target: str


@attrs.frozen
class ReportRow:
    """A player's report of another: `reporter` and `account` account keys, `chat` the lines
    kept with it ([place, sender, text, at] each), `closed` when a moderator closed it."""

    report_id: int
    at: float
    reporter: str
    account: str
    reason: str
    table_id: str | None
    chat: list[Any]
    closed: float | None = None
    closed_by: str | None = None
    note: str | None = None


@attrs.frozen
class ReportOp:
    report: ReportRow


@attrs.frozen
class ReportClosedOp:
    report_id: int
    closed_by: str  # the moderator's name
    note: str
    at: float


@attrs.frozen
class StoredModeration:
    """What the core is given back of moderation at a start (ServerCore.restore_moderation), and
    what a running server reads anew each account_actions_interval (the moderators)."""

    moderators: list[str] = attrs.Factory(list)  # account keys
    sanctions: list[SanctionRow] = attrs.Factory(list)  # in force or not: the core drops old
    open_reports: list[ReportRow] = attrs.Factory(list)  # oldest first
    log: list[ModerationLogOp] = attrs.Factory(list)  # the latest, oldest first
    last_report: int = 0  # the highest report number ever given


@attrs.frozen
class StoredTournament:
    tournament: TournamentRow
    entrants: list[EntrantRow]  # by position
    rounds: list[RoundRow]  # by number


# ----- e-mail (schema version 6) ------------------------------------------------------------


@attrs.frozen
class MailRow:
    """A mail the core decided to send, as queued: to `recipient`, of `kind` (server/core/mail.py's
    kinds), in `language`, with the `params` its text is made from (server/jobs/mail_text.py):
    a link's code among them, so they are cleared once it is sent. `next_try` (unix time) is
    when the sender tries it next, `attempts` how often it failed."""

    mail_id: str
    recipient: str = attrs.field(repr=False)
    kind: str
    language: str
    params: dict[str, Any] = attrs.field(repr=False)
    created: float
    attempts: int = 0
    next_try: float = 0.0


@attrs.frozen
class MailOp:
    """A mail queued, to be sent once this write is stored."""

    mail: MailRow


@attrs.frozen
class MailSentOp:
    """The relay took the mail: it leaves the queue (its address and codes are forgotten)."""

    mail_id: str
    at: float


@attrs.frozen
class MailRetryOp:
    """The relay could not take the mail: tried again at `next_try`."""

    mail_id: str
    attempts: int
    next_try: float


StorageOp = (
    CreateTableOp | SetSeatOp | ClearSeatOp | AppendLogOp | ChatOp | TableStateOp | FinishOp
    | CloseOp | AccountOp | LoginTokenOp | DropLoginTokensOp | ChallengeOp | ChallengeGoneOp
    | ArchiveOp | LobbyChatOp | KnownAddressOp | RegistrationOp | AccountActionOp
    | AccountActionDoneOp | TournamentOp | EntrantOp | EntrantGoneOp | RoundOp
    | PairingResultOp | DirectorOp | MailOp | MailSentOp | MailRetryOp | DeleteAccountOp
    | NamesCooledOp | ModeratorOp | ModerationLogOp | SanctionOp | SanctionGoneOp | ReportOp
    | ReportClosedOp | TournamentActionOp | TournamentActionDoneOp
)  # fmt: skip


@attrs.frozen
class StoredSeat:
    name: str
    token_hash: bytes
    computer: bool
    account: str | None = None


@attrs.frozen
class StoredTable:
    table_id: str
    options: dict[str, Any]
    first: str
    vs_computer: bool
    created: float
    updated: float  # the latest time carried by an op on this table (seat ops carry none)
    seats: dict[str, StoredSeat]  # "white"/"black"; absent when free
    log: list[Any]  # entries in index order
    chat: list[tuple[str, str, str | None]]  # (sender, text, role), the last chat_limit
    finished: bool
    state: dict[str, Any] = attrs.Factory(dict)  # the last TableStateOp's map


@attrs.frozen
class StoredPlayers:
    """What the core is given back of the players at a start (ServerCore.restore_players)."""

    accounts: list[AccountRow] = attrs.Factory(list)
    login_tokens: list[tuple[bytes, str]] = attrs.Factory(list)
    challenges: list[ChallengeRow] = attrs.Factory(list)
    archive: list[ArchivedGame] = attrs.Factory(list)
    lobby_chat: list[LobbyChatOp] = attrs.Factory(list)
    # (account key, hash_address), oldest first
    known_addresses: list[tuple[str, bytes]] = attrs.Factory(list)
    registrations: list[Registration] = attrs.Factory(list)  # the recent ones
    account_actions: list[AccountAction] = attrs.Factory(list)
    tournaments: list[StoredTournament] = attrs.Factory(list)  # oldest first
    directors: list[str] = attrs.Factory(list)  # account keys
    deleted_names: list[DeletedName] = attrs.Factory(list)  # schema version 6


class Storage(Protocol):
    # Whether a write waits on a network and a disk (PostgreSQL): the server then writes from a
    # thread of its own (server/storage/writer.py) rather than on its event loop.
    remote: bool

    def write(self, ops: Sequence[StorageOp]) -> None:
        """Apply all ops in one transaction; once this returns they survive a kill -9."""

    def load_open_tables(self, chat_limit: int) -> list[StoredTable]:
        """Every table not closed (waiting, playing, or finished but not closed), oldest first."""

    def finished_record(self, table_id: str) -> str | None:
        """The record of a finished game, closed or not; None if the game never finished."""

    def table_ids(self) -> set[str]:
        """Every table id ever stored, closed ones included."""

    def load_accounts(self) -> list[AccountRow]:
        """Every account, oldest first."""

    def load_login_tokens(self) -> list[tuple[bytes, str]]:
        """Every login token's hash, with its account's key."""

    def load_challenges(self) -> list[ChallengeRow]:
        """The challenges standing (neither answered nor lapsed), oldest first."""

    def load_archive(self) -> list[ArchivedGame]:
        """Every archived game, oldest first."""

    def load_lobby_chat(self, limit: int) -> list[LobbyChatOp]:
        """The latest `limit` lines of the lobby's chat, oldest first."""

    def load_known_addresses(self) -> list[tuple[str, bytes]]:
        """Every account's login addresses (their hashes), the least recent first."""

    def load_registrations(self, since: float) -> list[Registration]:
        """The registrations at `since` or later, oldest first."""

    def load_account_actions(self) -> list[AccountAction]:
        """The operator's commands no server has applied yet, in order."""

    def load_tournament_actions(self) -> list[TournamentAction]:
        """The operator's commands on tournaments no server has applied yet, in order."""

    def load_tournaments(self) -> list[StoredTournament]:
        """Every tournament with its entrants, rounds, pairings and results, oldest first."""

    def load_directors(self) -> list[str]:
        """The accounts (keys) the operator made tournament directors."""

    def load_mail_queue(self) -> list[MailRow]:
        """The mails not yet sent, oldest first."""

    def load_deleted_names(self) -> list[DeletedName]:
        """The name keys of deleted accounts, each with its latest deletion."""

    def load_moderation(self, log_limit: int) -> StoredModeration:
        """The moderators, the mutes and bans, the open reports and the latest `log_limit`
        lines of the moderation log."""

    def load_moderators(self) -> list[str]:
        """The accounts (keys) the operator made moderators."""

    def load_moderation_log(self, limit: int) -> list[ModerationLogOp]:
        """The latest `limit` lines of the moderation log, oldest first."""

    def alive(self) -> None:
        """Raise a StorageError when the database can no longer be written (a lost connection),
        so that the server stops before anyone is told what it could not store. Asked between
        writes of a `remote` storage only (server/storage/writer.py): a file is not lost that
        way."""

    def close(self) -> None: ...
