"""The connections the core knows: what it keeps of each (its name, its protocol version, its
rate limits, its tables), and the rules that apply to a connection before any table does:
how many there may be, hello and names, the message rate, the time to say hello."""

from __future__ import annotations

import logging
import unicodedata

from protocol.errors import ErrorCode
from protocol.fields import SUPPORTED_VERSIONS
from protocol.messages import Hello, Welcome
from server.core.accounts import Account
from server.core.context import Context
from server.core.effects import CLOSE_POLICY
from server.core.names import name_key, stand_in_like
from server.core.ratelimit import TokenBucket
from server.core.session import Session
from server.core.table import MemberId, TableError

log = logging.getLogger(__name__)


def clean_text(text: str) -> str:
    """Drop control and format characters (terminal escapes, bidi overrides) and trim."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()


def logged_in_account(ctx: Context, session: Session, english: str) -> Account:
    """The account the connection is logged in to, or login_required with `english` (what
    the login is needed for)."""
    account = None if session.account is None else ctx.accounts.get(session.account)
    if account is None:
        raise TableError(ErrorCode.LOGIN_REQUIRED, english)
    return account


def chat_text(ctx: Context, session: Session, text: str, now: float) -> str:
    """A line of chat, at a table or in the lobby, cleaned and checked: something said, not too
    long, and within the speaker's chat rate, which it takes from."""
    cleaned = clean_text(text)
    if not cleaned:
        raise TableError(ErrorCode.CHAT_EMPTY, "nothing to say")
    if len(cleaned) > ctx.config.chat_max:
        raise TableError(ErrorCode.CHAT_TOO_LONG, f"at most {ctx.config.chat_max} characters")
    if not ctx.chat_limit.take(session.speaker, now):
        raise TableError(ErrorCode.CHAT_RATE_LIMITED, "too many chat messages; wait a little")
    return cleaned


GUEST_MARK = " (guest)"


def guest_name(name: str, name_max: int) -> str:
    """The name a guest asking for a registered one goes by: it cannot be registered (the
    parentheses), so no account ever takes it."""
    return name[: name_max - len(GUEST_MARK)].rstrip() + GUEST_MARK


# A flood is logged at most once in this many seconds per address, with the number of
# connections of that address closed for it meanwhile: a barrage must not become a log flood.
FLOOD_LOG_EVERY = 10.0


class Sessions:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.per_address: dict[str, int] = {}
        # per address: when its flood was last logged, and the closes not logged since
        self.flood_logged: dict[str, tuple[float, int]] = {}

    def open(self, address: str, now: float) -> MemberId | ErrorCode:
        """A new connection: its member id, or the reason to refuse it."""
        ctx, cfg = self.ctx, self.ctx.config
        if len(ctx.sessions) >= cfg.max_connections:
            return ErrorCode.SERVER_FULL
        if self.per_address.get(address, 0) >= cfg.max_per_address:
            return ErrorCode.TOO_MANY_CONNECTIONS
        member = ctx.new_member()
        ctx.sessions[member] = Session(
            member,
            address,
            now,
            TokenBucket(cfg.rate, cfg.burst, now),
            TokenBucket(cfg.rate, cfg.flood_limit, now),
        )
        self.per_address[address] = self.per_address.get(address, 0) + 1
        ctx.wake_for_sweep(now)
        return member

    def close(self, member: MemberId) -> Session | None:
        """The connection is gone: forget it (its tables are the caller's business)."""
        session = self.ctx.sessions.pop(member, None)
        if session is None:
            return None
        left = self.per_address.get(session.address, 1) - 1
        if left:
            self.per_address[session.address] = left
        else:
            self.per_address.pop(session.address, None)
        self.ctx.lobby.watchers.discard(member)
        self.ctx.account_sessions.gone(session)
        return session

    def within_rate(self, session: Session, now: float) -> bool:
        """Whether a frame that came now is read; a flood closes the connection."""
        if session.bucket.take(now):
            return True
        if not session.flood.take(now):
            self._log_flood(session, now)
            self.ctx.error(session.member, ErrorCode.RATE_LIMITED, "message flood; closing")
            self.ctx.close(session, CLOSE_POLICY, "message flood")
        elif now - session.last_rate_error >= 1.0:  # so that a flood does not become one
            session.last_rate_error = now
            self.ctx.error(session.member, ErrorCode.RATE_LIMITED, "too many messages; slow down")
        return False

    def _log_flood(self, session: Session, now: float) -> None:
        address = session.address
        logged_at, unlogged = self.flood_logged.get(address, (now - FLOOD_LOG_EVERY, 0))
        if now - logged_at < FLOOD_LOG_EVERY:
            self.flood_logged[address] = (logged_at, unlogged + 1)
            return
        also = f" (and {unlogged} more of its connections since the last such line)"
        log.warning(
            "closing connection %s from %s: flood%s",
            session.member, address, also if unlogged else "",
        )  # fmt: skip
        self.flood_logged[address] = (now, 0)
        if len(self.flood_logged) > 4 * self.ctx.config.max_connections:  # bounded memory
            for stale in [a for a, (at, _n) in self.flood_logged.items() if now - at > 60.0]:
                del self.flood_logged[stale]

    def hello(self, session: Session, hello: Hello) -> None:
        cfg = self.ctx.config
        if session.greeted:
            raise TableError(ErrorCode.ALREADY_GREETED, "hello was already sent")
        if hello.version not in SUPPORTED_VERSIONS:
            newest = SUPPORTED_VERSIONS[-1]
            self.ctx.error(
                session.member,
                ErrorCode.VERSION_MISMATCH,
                f"this server speaks protocol versions {SUPPORTED_VERSIONS[0]} to {newest},"
                f" not {hello.version}",
                version=newest,
                refused=hello.TYPE,
            )
            self.ctx.close(session, CLOSE_POLICY, "protocol version mismatch")
            return
        name = clean_text(hello.name)
        if not name or len(name) > cfg.name_max:
            raise TableError(ErrorCode.BAD_NAME, f"a name has 1 to {cfg.name_max} characters")
        note = None
        key = name_key(name)
        accounts = self.ctx.accounts
        # a deleted account's name is no one's to take during its cooling time either, nor is
        # a deleted account's stand-in's ever
        if cfg.accounts and (
            accounts.get(key) is not None
            or accounts.cooling_left(key, cfg.deleted_name_cooling, self.ctx.wall) > 0
            or stand_in_like(name)
        ):
            name, note = guest_name(name, cfg.name_max), "name_registered"
        session.name = name
        session.version = hello.version
        welcome = Welcome(
            hello.version, cfg.server_name, cfg.max_frame, cfg.chat_max, name, note, cfg.accounts,
            list(cfg.addresses), cfg.mail,
        )  # fmt: skip
        self.ctx.send(session.member, welcome)

    def room_for_one_more(self, session: Session) -> None:
        """Refuses a table past the number one connection may sit or watch at."""
        limit = self.ctx.config.tables_per_connection
        if len(session.tables) >= limit:
            raise TableError(
                ErrorCode.TOO_MANY_TABLES,
                f"one connection sits or watches at {limit} tables at most; leave one first",
            )

    def sweep(self, pending: list[Session], now: float, most: int) -> int:
        """Close the connections that said no hello in time, looking at `most` of those
        pending at the end of the list (taken off it); how many more may be looked at."""
        while most and pending:
            most -= 1
            session = pending.pop()
            if self.ctx.sessions.get(session.member) is not session:
                continue  # gone since the sweep began
            late = now - session.opened >= self.ctx.config.hello_timeout
            if late and not session.greeted and not session.closing:
                self.ctx.error(session.member, ErrorCode.HELLO_REQUIRED, "no hello in time")
                self.ctx.close(session, CLOSE_POLICY, "no hello")
        return most
