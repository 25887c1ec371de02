"""Version 4: a player deletes their own account (`delete_account`, the password given again).

What it leaves: the account's finished games stay in the archive, replayable, under a stand-in
name, "deleted #N" (N counts the deletions on this server, so that one game's two seats,
and two games of one deleted player, keep telling their players apart), as do its past results
in tournaments and its lines of the lobby's chat; the records themselves name no one. What
goes: the account (the rating list forgets it; its opponents' past rating changes stay as they
were), its login tokens (every connection of the account is logged out, reason
account_deleted), its standing challenges, the tables where it holds a seat (none is playing:
see below), its place in tournaments not started.

Refused, changing nothing (cannot_delete): while a game of the account is under way, a game of
days too (finish or resign it first), and while it directs a tournament not finished or still
plays in one under way (withdraw first). The name is reserved for --deleted-name-cooling days
after the deletion: register is refused (name_registered, reason deleted_recently), and a guest
asking for it at hello gets a guest's name, as for a registered one.
"""

from __future__ import annotations

from protocol.account_messages import DeleteAccount
from protocol.errors import ErrorCode
from server.core.accounts import Account
from server.core.archive import Archive
from server.core.challenges import ChallengeBoard
from server.core.context import Context
from server.core.lifecycle import Lifecycle
from server.core.lobby_chat import LobbyChatRoom
from server.core.logins import Logins
from server.core.names import name_key
from server.core.session import Session
from server.core.sessions import logged_in_account
from server.core.store import DELETED_KEY, DELETED_NAME, DeleteAccountOp
from server.core.table import Closing, TableError
from server.core.tournament_desk import TournamentDesk


class AccountDeletion:
    def __init__(
        self,
        ctx: Context,
        logins: Logins,
        tables: Lifecycle,
        archive: Archive,
        challenges: ChallengeBoard,
        desk: TournamentDesk,
        lobby_chat: LobbyChatRoom,
    ) -> None:
        self.ctx = ctx
        self.logins = logins
        self.tables = tables
        self.archive = archive
        self.challenges = challenges
        self.desk = desk
        self.lobby_chat = lobby_chat

    def delete(self, session: Session, password: str, now: float) -> None:
        """delete_account: refused at once when the account may not go now (no password work
        for nothing), else the password is checked off the event loop and then it goes."""
        account = logged_in_account(self.ctx, session, "log in to delete your account")
        self._deletable(account)
        self.logins.confirm(
            session, password, now, self._confirmed, "wrong_password", DeleteAccount.TYPE
        )

    def _confirmed(self, session: Session, now: float) -> None:
        assert session.account is not None
        account = self.ctx.accounts.get(session.account)
        assert account is not None
        self._deletable(account)  # a game may have begun while the password was checked
        self._delete(session, account, now)

    def _deletable(self, account: Account) -> None:
        key = account.key
        for table in self.ctx.lobby.tables.values():
            if table.closed or table.status != "playing":
                continue
            if any(h is not None and h.account == key for h in table.seats.values()):
                raise TableError.refused(
                    ErrorCode.CANNOT_DELETE, "playing", "finish or resign your games first"
                )
        if self.desk.holds(key):
            raise TableError.refused(
                ErrorCode.CANNOT_DELETE,
                "tournament",
                "withdraw from your tournaments (or let the ones you direct finish) first",
            )

    def _stand_in(self) -> tuple[str, str]:
        """The next free stand-in: its key and its name."""
        taken = self.ctx.accounts.stand_ins
        number = len(taken) + 1
        while f"{DELETED_KEY}{number}" in taken:
            number += 1
        return f"{DELETED_KEY}{number}", DELETED_NAME.format(number=number)

    def _delete(self, session: Session, account: Account, now: float) -> None:
        ctx, key = self.ctx, account.key
        stand_in, stand_in_name = self._stand_in()
        # first what still names the account as it is: its challenges answered, its open
        # tournaments left, its tables closed, its connections logged out
        self.challenges.drop_account(key)
        self.desk.leave_open(session, now)
        gone = Closing("account_deleted", "a player's account was deleted")
        for table in list(ctx.lobby.tables.values()):
            if not table.closed and any(
                h is not None and h.account == key for h in table.seats.values()
            ):
                self.tables.close_table(table, gone, now)
        self.logins.logged_out_everywhere(account, "account_deleted")
        # then the account itself, and everything stored that pointed to it
        reserved = tuple(dict.fromkeys((key, name_key(account.name))))
        ctx.write(DeleteAccountOp(key, account.name, stand_in, stand_in_name, ctx.wall, reserved))
        accounts = ctx.accounts
        del accounts.by_key[key]
        for alias in [a for a, k in accounts.aliases.items() if k == key]:
            del accounts.aliases[alias]
        accounts.addresses.pop(key, None)
        accounts.stand_ins[stand_in] = stand_in_name
        for name in reserved:
            accounts.deleted[name] = ctx.wall
        self.archive.rename_account(key, stand_in, stand_in_name)
        self.lobby_chat.rename_account(key, stand_in, stand_in_name)
        self.desk.rename_account(key, stand_in)
        for other in accounts.by_key.values():
            if key in other.ignoring:  # a name registered again later is someone else
                other.ignoring.discard(key)
                ctx.write(other.op())
