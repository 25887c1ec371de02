"""Version 3's accounts in the core: register, log in (with the password or a login token), log
out, change the password, the reservation of registered names at hello, and the operator's
commands a running server picks up (`apply_actions`).

The argon2 work is too slow for the event loop: the core hands it out as a PasswordJob effect and
carries on when `done` gets its result. A check waits its turn in a bounded queue served in turn
across networks and addresses (server/core/password_queue.py); until its answer the connection's
login is under way and a second one is refused. Failed logins are counted from the moment they
arrive and throttled (server/core/login_throttle.py); the refusal is the same, and takes as long,
whether or not the name has an account. A login token is never throttled: the owner is never locked
out.

Registrations count like logins, and an address registers at most `registrations_per_hour`
accounts an hour (counted from the database's registrations at a restart too).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable

import attrs

from protocol.errors import ErrorCode
from protocol.mail_messages import MailNote
from protocol.player_messages import (
    ChangePassword,
    LoggedIn,
    LoggedOut,
    Login,
    LogoutReason,
    PasswordChanged,
    Register,
)
from server.core.accounts import Account, cooling_refusal
from server.core.context import Context
from server.core.effects import PasswordJob
from server.core.login_throttle import LoginThrottle
from server.core.names import account_name_problem, name_key
from server.core.password_queue import Check, PasswordQueue
from server.core.passwords import password_problem
from server.core.session import Session
from server.core.sessions import clean_text, guest_name, logged_in_account
from server.core.store import (
    AccountAction,
    AccountActionDoneOp,
    DropLoginTokensOp,
    LoginTokenOp,
    Registration,
    RegistrationOp,
    hash_token,
)
from server.core.table import TableError

LOGIN_TOKEN_BYTES = 32
HOUR = 3600.0
MAX_REGISTERING_ADDRESSES = 10_000  # addresses whose registrations of the hour are kept


@attrs.frozen
class _Pending:
    """A login under way: what the job's result is for."""

    member: int
    # "register", "login", "check_old" (change_password), "new_hash", "reset_hash", "confirm"
    # (a password asked again: `confirm`)
    kind: str
    key: str
    address: str
    name: str = ""
    counted: bool = False  # counted by the throttle at arrival (see LoginThrottle.attempt)
    registered_at: float | None = None  # register: the wall time counted for its address
    new_password: str | None = attrs.field(default=None, repr=False)  # change_password only
    # confirm: what follows a match
    then: Callable[[Session, float], None] | None = attrs.field(default=None, eq=False)
    refusal: str = ""  # confirm: the bad_password reason of a mismatch
    refused: str | None = None  # confirm: the type of the message its refusal answers


@attrs.frozen
class _Work:
    password: str = attrs.field(repr=False)
    verify: bool
    stored: str | None = attrs.field(default=None, repr=False)


def throttled(reason: str, english: str, seconds: float) -> TableError:
    shown = str(max(1, math.ceil(seconds)))
    return TableError.refused(
        ErrorCode.LOGIN_THROTTLED, reason, english.format(seconds=shown), {"seconds": shown}
    )


class Logins:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.throttle = LoginThrottle()
        self.queue = PasswordQueue(self.throttle, ctx.config.password_queue)
        self.queue.refused = self._refused
        self._pending: dict[int, _Pending] = {}
        self._work: dict[int, _Work] = {}  # the jobs waiting in the queue
        self._busy: set[int] = set()  # members with a job under way
        self._next_job = 1
        self._registering: set[str] = set()  # keys of registrations under way
        self._registered: dict[str, list[float]] = {}  # address -> wall times, the last hour
        # what else a connection that logged in is told (its challenges: server/core/challenges.py)
        self.on_login: Callable[[Session], None] = lambda session: None

    def restore(self, registrations: list[Registration]) -> None:
        """The recent registrations a previous run stored, for the limit per address."""
        for registration in registrations:
            self._registered.setdefault(registration.address, []).append(registration.at)

    # ----- the messages -------------------------------------------------------------------------

    def _ready(self, session: Session, logged_in: bool) -> None:
        if not self.ctx.config.accounts:
            raise TableError(ErrorCode.NO_ACCOUNTS, "this server keeps no accounts")
        if session.member in self._busy:
            raise TableError(ErrorCode.ALREADY_LOGGED_IN, "a login is under way")
        if logged_in:
            logged_in_account(self.ctx, session, "log in first")
        elif session.account is not None:
            raise TableError(ErrorCode.ALREADY_LOGGED_IN, "this connection is logged in")

    def register(self, session: Session, message: Register, now: float) -> None:
        self._ready(session, logged_in=False)
        name = message.name.strip()  # a control or format character refuses it, unseen or not
        problem = account_name_problem(name)
        if problem is not None:
            raise TableError.refused(
                ErrorCode.BAD_ACCOUNT_NAME, problem, "this name cannot be registered"
            )
        key = name_key(name)
        if self.ctx.accounts.get(key) is not None or key in self._registering:
            raise TableError(ErrorCode.NAME_REGISTERED, "this name is registered")
        cooling = self.ctx.accounts.cooling_left(key, self.ctx.config.deleted_name_cooling,
                                                 self.ctx.wall)  # fmt: skip
        if cooling > 0:
            raise cooling_refusal(cooling)
        problem = password_problem(message.password)
        if problem is not None:
            raise TableError.refused(ErrorCode.BAD_PASSWORD, problem, "this password is refused")
        address, wall = session.address, self.ctx.wall
        self._room_to_register(address, wall)
        self._own_record(None, address, False, now)
        rank = 1 if self.throttle.clean(address, now) else 2
        self.throttle.attempt(None, address, now)
        self._registered.setdefault(address, []).append(wall)
        self._registering.add(key)
        pending = _Pending(session.member, "register", key, address, name, True, wall)
        self._job(session, pending, _Work(message.password, False), rank, now)

    def login(self, session: Session, message: Login, now: float) -> None:
        self._ready(session, logged_in=False)
        key = name_key(clean_text(message.name))
        named = self.ctx.accounts.get(key)
        if named is not None:
            key = named.key  # the key it is stored under: an older skeleton's, maybe (names.py)
        if (message.password is None) == (message.token is None):
            raise TableError(ErrorCode.BAD_LOGIN, "give a password or a login token")
        accounts = self.ctx.accounts
        if message.token is not None:  # never throttled: the owner always has a way in
            token_hash = hash_token(message.token)
            account = accounts.get(key)
            if accounts.tokens.get(token_hash) != key or account is None or account.disabled:
                raise TableError(ErrorCode.BAD_LOGIN, "no such name and login token")
            session.login_token = token_hash
            self._logged_in(session, account, new_token=False, created=False)
            return
        address = session.address
        known = accounts.knows(key, address)
        self._own_record(key, address, known, now)
        rank = 0 if known else 1 if self.throttle.clean(address, now) else 2
        self.throttle.attempt(key, address, now)
        account = accounts.get(key)
        stored = None if account is None or account.disabled else account.password_hash
        password = message.password
        assert password is not None
        pending = _Pending(session.member, "login", key, address, counted=True)
        self._job(session, pending, _Work(password, True, stored), rank, now)

    def logout(self, session: Session) -> None:
        self._ready(session, logged_in=True)
        assert session.account is not None and session.name is not None
        if session.login_token is not None:
            self.ctx.write(DropLoginTokensOp(session.account, session.login_token))
            self.ctx.accounts.tokens.pop(session.login_token, None)
        self._logged_out(session)

    def _logged_out(self, session: Session, reason: LogoutReason | None = None) -> None:
        assert session.name is not None
        self.ctx.account_sessions.log_out(session)
        session.login_token = None
        session.name = guest_name(session.name, self.ctx.config.name_max)
        self.ctx.send(session.member, LoggedOut(session.name, reason))

    def _logged_out_everywhere(
        self, account: Account, reason: LogoutReason, keep: Session | None = None
    ) -> None:
        """The account's login tokens dropped and its connections but `keep` logged out, told
        why; a connection already closing is only forgotten as the account's."""
        ctx = self.ctx
        ctx.write(DropLoginTokensOp(account.key, None))
        for token_hash in [t for t, k in ctx.accounts.tokens.items() if k == account.key]:
            del ctx.accounts.tokens[token_hash]
        for other in ctx.account_sessions.of(account.key):  # a copy: logging out changes it
            if other is not keep:
                if other.closing:
                    ctx.account_sessions.log_out(other)
                    other.login_token = None
                else:
                    self._logged_out(other, reason)

    def logged_out_everywhere(self, account: Account, reason: LogoutReason) -> None:
        """Every connection of the account logged out, told why, its login tokens dropped (a
        moderator disabled it: server/core/moderation.py; a password reset)."""
        self._logged_out_everywhere(account, reason)

    def change_password(self, session: Session, message: ChangePassword, now: float) -> None:
        self._ready(session, logged_in=True)
        assert session.account is not None
        problem = password_problem(message.new)
        if problem is not None:
            raise TableError.refused(ErrorCode.BAD_PASSWORD, problem, "this password is refused")
        account = self.ctx.accounts.get(session.account)
        assert account is not None
        self._own_record(account.key, session.address, True, now)
        self.throttle.attempt(account.key, session.address, now)
        pending = _Pending(
            session.member, "check_old", account.key, session.address, counted=True,
            new_password=message.new,
        )  # fmt: skip
        self._job(session, pending, _Work(message.old, True, account.password_hash), 0, now)

    def reset_password(self, session: Session, key: str, password: str, now: float) -> None:
        """Version 4: a reset mail's code was good (server/core/mail.py checked it and used it
        up): the account's new password is hashed, then set, every login of the account
        logged out, and the connection told (`mail_note` `password_reset`)."""
        if session.member in self._busy:
            raise TableError(ErrorCode.ALREADY_LOGGED_IN, "a login is under way")
        pending = _Pending(session.member, "reset_hash", key, session.address)
        self._job(session, pending, _Work(password, False), 1, now)

    def confirm(
        self,
        session: Session,
        password: str,
        now: float,
        then: Callable[[Session, float], None],
        refused: str,
        message_type: str,
    ) -> None:
        """The account's password asked again before something it cannot take back (its
        deletion: server/core/account_deletion.py): checked off the event loop and throttled
        like a login; `then` is called once it matched, else the sender gets bad_password with
        the reason `refused`, as the refusal of its message of `message_type`."""
        self._ready(session, logged_in=True)
        assert session.account is not None
        account = self.ctx.accounts.get(session.account)
        assert account is not None
        self._own_record(account.key, session.address, True, now)
        self.throttle.attempt(account.key, session.address, now)
        pending = _Pending(
            session.member, "confirm", account.key, session.address, account.name, counted=True,
            then=then, refusal=refused, refused=message_type,
        )  # fmt: skip
        self._job(session, pending, _Work(password, True, account.password_hash), 0, now)

    def apply_actions(self, actions: list[AccountAction]) -> None:
        """The operator's commands (kahuna-server accounts) made while this server runs: the
        account disabled, or given a new password; either way its login tokens are dropped and
        its connections logged out."""
        ctx = self.ctx
        for action in actions:
            account = ctx.accounts.get(action.key)
            if account is not None:
                if action.action == "password" and action.password_hash is not None:
                    account.password_hash = action.password_hash
                    account.disabled = False
                else:
                    account.disabled = True
                ctx.write(account.op())
                self._logged_out_everywhere(account, "account_changed")
            ctx.write(AccountActionDoneOp(action.seq, ctx.wall))

    # ----- the throttle and the limits ----------------------------------------------------------

    def _own_record(self, key: str | None, address: str, known: bool, now: float) -> None:
        wait = self.throttle.refused_for(key, address, known, now)
        if wait > 0:
            raise throttled("wait", "too many failed logins; try again in {seconds} s", wait)

    def _room_to_register(self, address: str, wall: float) -> None:
        most = self.ctx.config.registrations_per_hour
        if len(self._registered) > MAX_REGISTERING_ADDRESSES:
            for other in list(self._registered):
                self._recent(other, wall)
        times = self._recent(address, wall)
        if most and len(times) >= most:
            raise throttled(
                "registrations",
                "too many accounts registered from this address; try again in {seconds} s",
                times[0] + HOUR - wall,
            )

    def _recent(self, address: str, wall: float) -> list[float]:
        times = [t for t in self._registered.get(address, []) if t > wall - HOUR]
        if times:
            self._registered[address] = times
        else:
            self._registered.pop(address, None)
        return times

    # ----- the jobs -----------------------------------------------------------------------------

    def _job(self, session: Session, pending: _Pending, work: _Work, rank: int, now: float) -> None:
        job = self._next_job
        self._next_job += 1
        if not self.queue.add(
            Check(job, session.member, pending.key, session.address, rank, now), now
        ):
            self._undo(pending)
            raise throttled(
                "busy", "the server is checking many passwords; try again in {seconds} s", 1.0
            )
        self._pending[job] = pending
        self._work[job] = work
        self._busy.add(session.member)
        self._start(now)

    def _start(self, now: float) -> None:
        """Hand out the checks whose turn it is."""
        for check in self.queue.take(now):
            work = self._work.pop(check.job)
            self.ctx.effects.password_jobs.append(
                PasswordJob(check.job, work.password, work.verify, work.stored)
            )

    def tick(self, now: float) -> None:
        self._start(now)

    def next_wake(self, now: float) -> float | None:
        return self.queue.next_wake(now)

    def _undo(self, pending: _Pending) -> None:
        """A login that was never judged: as if it had not come."""
        if pending.counted:
            self.throttle.withdrawn(None if pending.kind == "register" else pending.key,
                                    pending.address)  # fmt: skip
        if pending.kind == "register":
            self._registering.discard(pending.key)
            self._unregistered(pending)

    def _unregistered(self, pending: _Pending) -> None:
        times = self._registered.get(pending.address)
        if times is not None and pending.registered_at in times:
            times.remove(pending.registered_at)

    def _refused(self, check: Check, wait: float) -> None:
        """The queue let go of a waiting check (it was full of better ones, or the check waited
        too long): its login is refused, unjudged."""
        pending = self._pending.pop(check.job, None)
        self._work.pop(check.job, None)
        if pending is None:
            return
        self._busy.discard(pending.member)
        self._undo(pending)
        error = (
            throttled("busy", "the server is checking many passwords; try again in {seconds} s",
                      wait)
            if wait <= 1
            else throttled("wait", "too many failed logins; try again in {seconds} s", wait)
        )  # fmt: skip
        session = self.ctx.sessions.get(pending.member)
        if session is not None and not session.closing:
            self.ctx.error(session.member, error.code, error.message, refusal=error.refusal)

    def done(self, job: int, result: str | bool | None, now: float) -> None:
        """A PasswordJob's result: the hash, or whether the password matched (None: the work
        failed)."""
        self.queue.finished(job)
        pending = self._pending.pop(job, None)
        if pending is not None:
            self._busy.discard(pending.member)
            if pending.kind == "register":
                self._registering.discard(pending.key)
            session = self.ctx.sessions.get(pending.member)
            if session is None or session.closing:
                self._undo(pending)  # the connection went meanwhile: never answered
            else:
                try:
                    self._finish(session, pending, result, now)
                except TableError as exc:
                    self.ctx.error(
                        session.member, exc.code, exc.message, refused=pending.refused,
                        refusal=exc.refusal,
                    )  # fmt: skip
        self._start(now)

    def _finish(self, session: Session, pending: _Pending, result: object, now: float) -> None:
        ctx = self.ctx
        if result is None:
            self._undo(pending)
            raise TableError(ErrorCode.INTERNAL_ERROR, "the server failed on this password")
        match pending.kind:
            case "register":
                assert isinstance(result, str)
                if ctx.accounts.get(pending.key) is not None or session.account is not None:
                    self._unregistered(pending)
                    if session.account is not None:
                        raise TableError(
                            ErrorCode.ALREADY_LOGGED_IN, "this connection is logged in"
                        )
                    raise TableError(ErrorCode.NAME_REGISTERED, "this name is registered")
                new = Account(pending.key, pending.name, result, created=ctx.wall)
                ctx.accounts.add(new)
                self.throttle.succeeded(None, session.address)
                self._logged_in(session, new, new_token=True, created=True)
                ctx.write(RegistrationOp(new.key, session.address, ctx.wall))
            case "login":
                found = ctx.accounts.get(pending.key)
                if result is not True or found is None or found.disabled:
                    raise TableError(ErrorCode.BAD_LOGIN, "no such name and password")
                if session.account is not None:
                    raise TableError(ErrorCode.ALREADY_LOGGED_IN, "this connection is logged in")
                self.throttle.succeeded(pending.key, session.address)
                self._logged_in(session, found, new_token=True, created=False)
            case "check_old":
                if result is not True:
                    raise TableError.refused(
                        ErrorCode.BAD_PASSWORD, "wrong_password", "the old password is wrong"
                    )
                self.throttle.succeeded(pending.key, session.address)
                assert pending.new_password is not None
                new_hash = attrs.evolve(pending, kind="new_hash", counted=False, new_password=None)
                self._job(session, new_hash, _Work(pending.new_password, False), 0, now)
            case "reset_hash":
                reset_account = ctx.accounts.by_key.get(pending.key)
                if reset_account is None:  # deleted while its new password was hashed
                    raise TableError(ErrorCode.BAD_CODE, "no such code")
                account = reset_account
                assert isinstance(result, str)
                account.password_hash = result
                ctx.write(account.op())
                self._logged_out_everywhere(account, "password_changed")
                ctx.send(session.member, MailNote("password_reset"))
            case "confirm":
                confirmed = ctx.accounts.get(pending.key)
                if confirmed is None or session.account != confirmed.key:  # logged out meanwhile
                    raise TableError(ErrorCode.LOGIN_REQUIRED, "log in first")
                if result is not True:
                    raise TableError.refused(
                        ErrorCode.BAD_PASSWORD, pending.refusal, "the password is wrong"
                    )
                self.throttle.succeeded(pending.key, session.address)
                assert pending.then is not None
                pending.then(session, now)
            case "new_hash":
                account = ctx.accounts.by_key[pending.key]
                assert isinstance(result, str)
                account.password_hash = result
                ctx.write(account.op())
                # every other login is logged out, told why (docs/web.md, README): a second
                # tab must not go on as the account with the old password
                self._logged_out_everywhere(account, "password_changed", keep=session)
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
        ctx.account_sessions.log_in(session, account.key)
        session.name = account.name
        account.last_seen = ctx.wall
        ctx.write(account.op())  # before its token and address, which the database ties to it
        ctx.write(ctx.accounts.logged_in_from(account.key, session.address, ctx.wall))
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
        """The connection is gone: its waiting checks are dropped unjudged, and a running job's
        result will be dropped."""
        self._busy.discard(member)
        for check in self.queue.drop(member):
            self._work.pop(check.job, None)
            pending = self._pending.pop(check.job, None)
            if pending is not None:
                self._undo(pending)
