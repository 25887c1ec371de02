"""Version 3's chat of the whole lobby, apart from the tables' chats, and the players one ignores.

Only players with an account speak in it (a name that anyone may type would let anyone speak as
anyone); version-3 lobby watchers read it, and the sender gets its own line, watching or not.
A line from a player someone ignores never reaches that someone, nor do that player's
challenges (server/core/challenges.py). The latest KEPT lines are stored, and given to each new
watcher.
"""

from __future__ import annotations

from collections import deque

import attrs

from protocol.errors import ErrorCode
from protocol.player_messages import Ignoring, LobbyChatEntry, LobbyChatMessage
from server.core.accounts import Account, keep_quiet
from server.core.context import Context
from server.core.names import name_key
from server.core.session import Session
from server.core.sessions import chat_text, clean_text, logged_in_account
from server.core.store import LobbyChatOp
from server.core.table import TableError

KEPT = 50


class LobbyChatRoom:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.lines: deque[tuple[str, LobbyChatEntry]] = deque(maxlen=KEPT)  # (sender key, line)

    def restore(self, lines: list[LobbyChatOp]) -> None:
        for line in lines[-KEPT:]:
            account = self.ctx.accounts.get(name_key(line.sender))
            key = name_key(line.sender) if account is None else account.key
            self.lines.append((key, LobbyChatEntry(line.sender, line.text, line.at)))

    def rename_account(self, key: str, stand_in: str, name: str) -> None:
        """A deleted account's lines of the lobby's chat stay, said by its stand-in `name`."""
        self.lines = deque(
            ((stand_in, attrs.evolve(entry, sender=name)) if sender == key else (sender, entry)
             for sender, entry in self.lines),
            maxlen=self.lines.maxlen,
        )  # fmt: skip

    def _account(self, session: Session) -> Account:
        return logged_in_account(self.ctx, session, "log in to speak in the lobby")

    def say(self, session: Session, text: str, now: float) -> None:
        ctx, cfg = self.ctx, self.ctx.config
        account = self._account(session)
        keep_quiet(account, cfg.new_account_quiet, ctx.wall, ErrorCode.CHAT_RATE_LIMITED, "speak")
        cleaned = chat_text(ctx, session, text, now)
        entry = LobbyChatEntry(account.name, cleaned, ctx.wall)
        self.lines.append((account.key, entry))
        ctx.write(LobbyChatOp(entry.sender, entry.text, entry.at))
        message = LobbyChatMessage([entry], False)
        hearers = [
            member
            for member in sorted(ctx.lobby.watchers)
            if self._hears(ctx.sessions.get(member), account.key)
        ]
        if session.member not in ctx.lobby.watchers:
            # the sender hears its own line even when not watching the lobby: every request is
            # answered by what it causes or by one error
            hearers.append(session.member)
        ctx.send_all([(member, message) for member in hearers])

    def _hears(self, session: Session | None, sender: str) -> bool:
        if session is None or session.version < 3:
            return False
        if session.account is None:
            return True
        listener = self.ctx.accounts.get(session.account)
        return listener is None or sender not in listener.ignoring

    def history(self, session: Session) -> None:
        """The latest lines, for a version-3 connection that began to watch the lobby."""
        if session.version < 3:
            return
        entries = [entry for key, entry in self.lines if self._hears(session, key)]
        self.ctx.send(session.member, LobbyChatMessage(entries, True))

    def ignore(self, session: Session, name: str, ignore: bool) -> None:
        account = self._account(session)
        other = self.ctx.accounts.get(name_key(clean_text(name)))
        if other is None:
            raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
        if other.key == account.key:
            raise TableError(ErrorCode.BAD_NAME, "you cannot ignore yourself")
        if ignore:
            account.ignoring.add(other.key)
        else:
            account.ignoring.discard(other.key)
        self.ctx.write(account.op())
        names = sorted(self.ctx.accounts.name_of(key) for key in account.ignoring)
        self.ctx.send(session.member, Ignoring(names))
