"""Version 3's accounts in the core: register, log in (with the password or a login token), log
out, change the password, and the reservation of registered names at hello.

The argon2 work is too slow for the event loop: the core hands it out as a PasswordJob effect and
carries on when `done` gets its result. Until then the connection's login is under way and a
second one is refused. Failed password logins are throttled before any hashing (see
server/login_throttle.py); the refusal is the same, and takes as long, whether or not the name
has an account.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable

import attrs

from protocol.errors import ErrorCode
from protocol.player_messages import (
    ChangePassword,
    LoggedIn,
    LoggedOut,
    Login,
    PasswordChanged,
    Register,
)
from server.accounts import Account
from server.context import Context
from server.effects import PasswordJob
from server.login_throttle import LoginThrottle
from server.names import account_name_problem, name_key
from server.passwords import password_problem
from server.session import Session
from server.sessions import clean_text, guest_name
from server.store import DropLoginTokensOp, LoginTokenOp, hash_token
from server.table import TableError
from shared.legality import Refusal

LOGIN_TOKEN_BYTES = 32


@attrs.frozen
class _Pending:
    """A login under way: what the job's result is for."""

    member: int
    kind: str  # "register", "login", "check_old" (change_password), "new_hash"
    key: str
    name: str = ""
    new_password: str | None = attrs.field(default=None, repr=False)  # change_password only


def refusal(code: ErrorCode, reason: str, english: str) -> TableError:
    return TableError(code, english, refusal=Refusal(reason, english))


class Logins:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.throttle = LoginThrottle()
        self._pending: dict[int, _Pending] = {}
        self._busy: set[int] = set()  # members with a job under way
        self._next_job = 1
        self._registering: set[str] = set()  # keys of registrations under way
        # what else a connection that logged in is told (its challenges: server/challenges.py)
        self.on_login: Callable[[Session], None] = lambda session: None

    # ----- the messages -------------------------------------------------------------------------

    def _ready(self, session: Session, logged_in: bool) -> None:
        if not self.ctx.config.accounts:
            raise TableError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        if session.member in self._busy:
            raise TableError(ErrorCode.ALREADY_LOGGED_IN, "a login is under way")
        if logged_in and session.account is None:
            raise TableError(ErrorCode.LOGIN_REQUIRED, "log in first")
        if not logged_in and session.account is not None:
            raise TableError(ErrorCode.ALREADY_LOGGED_IN, "this connection is logged in")

    def register(self, session: Session, message: Register) -> None:
        self._ready(session, logged_in=False)
        name = clean_text(message.name)
        problem = account_name_problem(name)
        if problem is not None:
            raise refusal(ErrorCode.BAD_ACCOUNT_NAME, problem, "this name cannot be registered")
        key = name_key(name)
        if key in self.ctx.accounts.by_key or key in self._registering:
            raise TableError(ErrorCode.NAME_REGISTERED, "this name is registered")
        problem = password_problem(message.password)
        if problem is not None:
            raise refusal(ErrorCode.BAD_PASSWORD, problem, "this password is refused")
        self._registering.add(key)
        self._job(session, _Pending(session.member, "register", key, name), message.password)

    def login(self, session: Session, message: Login, now: float) -> None:
        self._ready(session, logged_in=False)
        key = name_key(clean_text(message.name))
        if (message.password is None) == (message.token is None):
            raise TableError(ErrorCode.BAD_LOGIN, "give a password or a login token")
        accounts = self.ctx.accounts
        if message.token is not None:
            token_hash = hash_token(message.token)
            account = accounts.get(key)
            if accounts.tokens.get(token_hash) != key or account is None or account.disabled:
                raise TableError(ErrorCode.BAD_LOGIN, "no such name and login token")
            session.login_token = token_hash
            self._logged_in(session, account, new_token=False, created=False)
            return
        self._throttled(key, session.address, now)
        account = accounts.get(key)
        stored = None if account is None or account.disabled else account.password_hash
        password = message.password
        assert password is not None
        self._job(session, _Pending(session.member, "login", key), password, stored)

    def logout(self, session: Session) -> None:
        self._ready(session, logged_in=True)
        assert session.account is not None and session.name is not None
        if session.login_token is not None:
            self.ctx.write(DropLoginTokensOp(session.account, session.login_token))
            self.ctx.accounts.tokens.pop(session.login_token, None)
        session.account = session.login_token = None
        session.name = guest_name(session.name, self.ctx.config.name_max)
        self.ctx.send(session.member, LoggedOut(session.name))

    def change_password(self, session: Session, message: ChangePassword, now: float) -> None:
        self._ready(session, logged_in=True)
        assert session.account is not None
        problem = password_problem(message.new)
        if problem is not None:
            raise refusal(ErrorCode.BAD_PASSWORD, problem, "this password is refused")
        self._throttled(session.account, session.address, now)
        account = self.ctx.accounts.get(session.account)
        assert account is not None
        pending = _Pending(session.member, "check_old", account.key, new_password=message.new)
        self._job(session, pending, message.old, account.password_hash)

    # ----- the jobs -----------------------------------------------------------------------------

    def _throttled(self, key: str, address: str, now: float) -> None:
        wait = self.throttle.check(key, address, now)
        if wait > 0:
            seconds = str(math.ceil(wait))
            english = f"too many failed logins; try again in {seconds} s"
            raise TableError(
                ErrorCode.LOGIN_THROTTLED,
                english,
                refusal=Refusal("wait", english, {"seconds": seconds}),
            )

    def _job(
        self, session: Session, pending: _Pending, password: str, stored: str | None = None
    ) -> None:
        job = self._next_job
        self._next_job += 1
        self._pending[job] = pending
        self._busy.add(session.member)
        verify = pending.kind in ("login", "check_old")
        self.ctx.effects.password_jobs.append(PasswordJob(job, password, verify, stored))

    def done(self, job: int, result: str | bool | None, now: float) -> None:
        """A PasswordJob's result: the hash, or whether the password matched (None: the work
        failed)."""
        pending = self._pending.pop(job, None)
        if pending is None:
            return
        self._busy.discard(pending.member)
        if pending.kind == "register":
            self._registering.discard(pending.key)
        session = self.ctx.sessions.get(pending.member)
        if session is None or session.closing:
            return  # the connection went meanwhile
        try:
            self._finish(session, pending, result, now)
        except TableError as exc:
            self.ctx.error(session.member, exc.code, exc.message, refusal=exc.refusal)

    def _finish(self, session: Session, pending: _Pending, result: object, now: float) -> None:
        ctx = self.ctx
        if result is None:
            raise TableError(ErrorCode.INTERNAL_ERROR, "the server failed on this password")
        match pending.kind:
            case "register":
                assert isinstance(result, str)
                if pending.key in ctx.accounts.by_key:
                    raise TableError(ErrorCode.NAME_REGISTERED, "this name is registered")
                if session.account is not None:
                    raise TableError(ErrorCode.ALREADY_LOGGED_IN, "this connection is logged in")
                new = Account(pending.key, pending.name, result, created=ctx.wall)
                ctx.accounts.add(new)
                self.throttle.succeeded(pending.key, session.address, now)
                self._logged_in(session, new, new_token=True, created=True)
            case "login":
                found = ctx.accounts.get(pending.key)
                if result is not True or found is None or found.disabled:
                    self.throttle.failed(pending.key, session.address, now)
                    raise TableError(ErrorCode.BAD_LOGIN, "no such name and password")
                if session.account is not None:
                    raise TableError(ErrorCode.ALREADY_LOGGED_IN, "this connection is logged in")
                self.throttle.succeeded(pending.key, session.address, now)
                self._logged_in(session, found, new_token=True, created=False)
            case "check_old":
                if result is not True:
                    self.throttle.failed(pending.key, session.address, now)
                    raise refusal(
                        ErrorCode.BAD_PASSWORD, "wrong_password", "the old password is wrong"
                    )
                assert pending.new_password is not None
                self._job(session, attrs.evolve(pending, kind="new_hash"), pending.new_password)
            case "new_hash":
                account = ctx.accounts.by_key[pending.key]
                assert isinstance(result, str)
                account.password_hash = result
                ctx.write(account.op())
                ctx.write(DropLoginTokensOp(account.key, None))
                for token_hash in [t for t, k in ctx.accounts.tokens.items() if k == account.key]:
                    del ctx.accounts.tokens[token_hash]
                for other in ctx.sessions.values():
                    if other.account == account.key:
                        other.login_token = None
                token = self._new_token(account)
                session.login_token = hash_token(token)
                ctx.send(session.member, PasswordChanged(token))

    def _new_token(self, account: Account) -> str:
        raw = self.ctx.rng.randbytes(LOGIN_TOKEN_BYTES)
        token = base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")
        token_hash = hash_token(token)
        self.ctx.accounts.tokens[token_hash] = account.key
        self.ctx.write(LoginTokenOp(token_hash, account.key, self.ctx.wall))
        return token

    def _logged_in(
        self, session: Session, account: Account, new_token: bool, created: bool
    ) -> None:
        ctx = self.ctx
        session.account = account.key
        session.name = account.name
        account.last_seen = ctx.wall
        ctx.write(account.op())  # before its token, which the database ties to it
        token = self._new_token(account) if new_token else None
        if token is not None:
            session.login_token = hash_token(token)
        ctx.send(
            session.member,
            LoggedIn(
                account.name,
                account.shown_rating,
                round(account.deviation),
                account.rated_games,
                token,
                sorted(ctx.accounts.name_of(k) for k in account.ignoring),
                created,
            ),
        )
        self.on_login(session)

    def forget(self, member: int) -> None:
        """The connection is gone: a job's result for it will be dropped."""
        self._busy.discard(member)
