"""Version 3's challenges: a registered player challenges another, online or not; the challenge
waits (stored) until the recipient accepts or declines it or the sender withdraws it. Accepting
makes the table with the challenge's terms and the two accounts in its seats: the recipient is
seated at once, the challenger's seat waits for them to `resume` it.

A game of days may begin while the challenger is away; a live game only while they are
connected (it would otherwise be lost by the time they came back).
"""

from __future__ import annotations

from typing import Any

import attrs

from protocol.errors import ErrorCode
from protocol.fields import TableOptions, TimeControl
from protocol.player_messages import (
    ChallengeAnswer,
    ChallengeInfo,
    Challenges,
    ChallengeTerms,
    PlayerNote,
    PlayerNoteName,
)
from server.core.accounts import Account, keep_quiet
from server.core.context import Context
from server.core.game_terms import game_terms
from server.core.lifecycle import Lifecycle
from server.core.names import name_key
from server.core.ratelimit import KeyedBuckets
from server.core.session import Session
from server.core.sessions import clean_text, logged_in_account
from server.core.store import ChallengeGoneOp, ChallengeOp, ChallengeRow
from server.core.table import TableError

MAX_OUT = 20  # challenges one player may have waiting


def terms_to_dict(terms: ChallengeTerms) -> dict[str, Any]:
    return attrs.asdict(terms)


def terms_from_dict(data: dict[str, Any]) -> ChallengeTerms:
    clock = data.get("clock")
    return ChallengeTerms(
        TableOptions(**data.get("options", {})),
        data.get("seat"),
        data.get("first", "white"),
        None if clock is None else TimeControl(**clock),
        bool(data.get("hints", True)),
        bool(data.get("rated", True)),
    )


def bad(reason: str, english: str) -> TableError:
    return TableError.refused(ErrorCode.BAD_CHALLENGE, reason, english)


class ChallengeBoard:
    def __init__(self, ctx: Context, tables: Lifecycle) -> None:
        self.ctx = ctx
        self.tables = tables
        self.standing: dict[str, ChallengeRow] = {}
        # challenges and withdrawals per account, all its connections together: each sends the
        # other player a note, and a loop of the two must not flood them
        self.limit = KeyedBuckets(ctx.config.challenge_rate, ctx.config.challenge_burst)

    def restore(self, rows: list[ChallengeRow]) -> None:
        for row in rows:
            self.standing[row.challenge_id] = row

    def _account(self, session: Session) -> Account:
        return logged_in_account(self.ctx, session, "log in to challenge a player")

    # ----- the messages -------------------------------------------------------------------------

    def challenge(self, session: Session, name: str, terms: ChallengeTerms) -> None:
        ctx = self.ctx
        sender = self._account(session)
        keep_quiet(sender, ctx.config.new_account_quiet, ctx.wall, ErrorCode.BAD_CHALLENGE,
                   "challenge")  # fmt: skip
        recipient = ctx.accounts.get(name_key(clean_text(name)))
        if recipient is None or recipient.disabled:
            raise TableError(ErrorCode.NO_SUCH_PLAYER, "no player has this name")
        if recipient.key == sender.key:
            raise bad("self", "you cannot challenge yourself")
        if sender.key in recipient.ignoring:
            raise bad("ignored", f"{recipient.name} does not take your challenges")
        if sum(1 for row in self.standing.values() if row.sender == sender.key) >= MAX_OUT:
            raise TableError(
                ErrorCode.TOO_MANY_CHALLENGES, f"at most {MAX_OUT} challenges wait at once"
            )
        game_terms(terms.options, terms.clock, lambda why: bad("bad_terms", why))
        self._within_limit(sender)
        while True:
            challenge_id = ctx.rng.randbytes(4).hex()
            if challenge_id not in self.standing:
                break
        row = ChallengeRow(challenge_id, sender.key, recipient.key, terms_to_dict(terms), ctx.wall)
        self.standing[challenge_id] = row
        ctx.write(ChallengeOp(row))
        self._lists(sender.key, recipient.key)
        self._note(recipient.key, "challenge_received", None, sender.name)
        ctx.mail_notice(recipient.key, "challenge", {"challenger": sender.name}, "")

    def answer(
        self, session: Session, challenge_id: str, answer: ChallengeAnswer, now: float
    ) -> None:
        ctx = self.ctx
        me = self._account(session)
        row = self.standing.get(challenge_id)
        mine = row is not None and (
            row.sender == me.key if answer == "withdraw" else row.recipient == me.key
        )
        if row is None or not mine:
            raise TableError(ErrorCode.NO_SUCH_CHALLENGE, "no such challenge of yours")
        if answer == "withdraw":
            self._within_limit(me)
        table_id = None
        if answer == "accept":
            challenger = ctx.accounts.by_key[row.sender]
            terms = terms_from_dict(row.terms)
            live = terms.clock is None or not terms.clock.days
            online = ctx.account_sessions.online(challenger.key)
            if live and not online:
                raise bad("away", f"{challenger.name} is not connected; a live game needs both")
            table_id = self.tables.create_for_challenge(session, challenger, terms, now)
        del self.standing[challenge_id]
        ctx.write(ChallengeGoneOp(challenge_id, answer, ctx.wall))
        self._lists(row.sender, row.recipient)
        other = row.recipient if answer == "withdraw" else row.sender
        note: PlayerNoteName = {
            "accept": "challenge_accepted",
            "decline": "challenge_declined",
            "withdraw": "challenge_withdrawn",
        }[answer]  # type: ignore[assignment]
        self._note(other, note, table_id, me.name)

    def _within_limit(self, account: Account) -> None:
        if not self.limit.take(account.key, self.ctx.now):
            english = "too many challenges and withdrawals in a short time; wait a little"
            raise TableError.refused(ErrorCode.TOO_MANY_CHALLENGES, "wait", english)

    def drop_account(self, key: str) -> None:
        """The account is being deleted: its challenges go, withdrawn (sent) or declined
        (received), and the other players are told as if it had answered."""
        name = self.ctx.accounts.name_of(key)
        for row in [r for r in self.standing.values() if key in (r.sender, r.recipient)]:
            answer = "withdraw" if row.sender == key else "decline"
            del self.standing[row.challenge_id]
            self.ctx.write(ChallengeGoneOp(row.challenge_id, answer, self.ctx.wall))
            other = row.recipient if row.sender == key else row.sender
            self._lists(other)
            note: PlayerNoteName = (
                "challenge_withdrawn" if answer == "withdraw" else "challenge_declined"
            )
            self._note(other, note, None, name)

    def logged_in(self, session: Session) -> None:
        """A connection logged in: its player's challenges."""
        if session.account is not None:
            self.ctx.send(session.member, self._list_for(session.account))

    # ----- telling the players ------------------------------------------------------------------

    def _list_for(self, key: str) -> Challenges:
        name_of = self.ctx.accounts.name_of
        return Challenges(
            [
                ChallengeInfo(
                    row.challenge_id,
                    name_of(row.sender),
                    name_of(row.recipient),
                    terms_from_dict(row.terms),
                    row.created,
                )
                for row in self.standing.values()
                if key in (row.sender, row.recipient)
            ]
        )

    def _sessions_of(self, key: str) -> list[int]:
        return [s.member for s in self.ctx.account_sessions.of(key)]

    def _lists(self, *keys: str) -> None:
        for key in keys:
            listing = self._list_for(key)
            self.ctx.send_all([(member, listing) for member in self._sessions_of(key)])

    def _note(self, key: str, note: PlayerNoteName, table_id: str | None, name: str) -> None:
        message = PlayerNote(note, table_id, name)
        self.ctx.send_all([(member, message) for member in self._sessions_of(key)])
