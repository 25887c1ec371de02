"""Version 4's e-mail in the core, without sockets: an address confirmed by its code before
anything else goes to it, the password reset (the same answer whether or not the account exists,
a code good once for 30 minutes, counted per address, network, account and mailbox), the
notifications and the links that turn them off, and the bytes: no code in any frame, no address
in any frame but its owner's."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.codec import encode
from protocol.fields import TimeControl
from protocol.mail_messages import (
    ConfirmEmail,
    ForgotPassword,
    GetMailSettings,
    MailNote,
    MailSettings,
    ResetPassword,
    SetEmail,
    SetMailSettings,
)
from protocol.messages import Command, Hello, Join, Joined, LobbySubscribe, Welcome
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    Challenges,
    ChallengeTerms,
    GetRatings,
    LoggedIn,
    LoggedOut,
    Login,
    Register,
    Resume,
)
from protocol.tournament_messages import CreateTournament, JoinTournament, StartTournament
from server.core.effects import Effects
from server.core.mail import RESET_FOR, LinkLook
from server.core.mail_throttle import PER_ACCOUNT, PER_NETWORK
from server.core.store import AccountOp, MailOp, MailRow, RoundOp, StoredPlayers, TournamentOp
from server.core.table import MemberId
from tests.server.test_challenges import days_table
from tests.server.test_core import WALL, codes, of, the, writes_of
from tests.server.test_logins import SECRET, Accounts
from tests.server.tournament_harness import NAMES, SWISS

MAIL = {"mail_host": "127.0.0.1", "mail_security": "none"}
ADDRESS = "ann@example.org"
DAY = 86400.0


class Mail(Accounts):
    """The accounts' harness with a server that sends mail, and a wall clock that moves."""

    def __init__(self, **overrides: Any) -> None:
        super().__init__(**{**MAIL, **overrides})
        self.wall = WALL
        self.mails: list[MailRow] = []

    def raw(self, member: MemberId, data: bytes) -> Effects:
        return self.took(self.core.frame(member, data, self.now, self.wall))

    def took(self, effects: Effects) -> Effects:
        effects = super().took(effects)
        assert [op.mail for op in writes_of(effects, MailOp)] == effects.mails
        self.mails += effects.mails
        return effects

    def act(self, member: MemberId, table_id: str, action: str | None = None) -> Effects:
        """One command, a random legal one (the wall clock moves here: no check of its time)."""
        table = self.table(table_id)
        chosen = action or str(self.rng.choice(table.game.legal_actions()))
        effects = self.send(member, Command(table_id, table.version, chosen))
        assert not codes(effects, member), effects
        return effects

    def guest4(self, name: str, address: str | None = None) -> MemberId:
        return self.guest(name, version=4, address=address)

    def account4(self, name: str) -> tuple[MemberId, str]:
        member = self.guest4(name)
        logged = the(self.send(member, Register(name, SECRET)), member, LoggedIn)
        assert logged.token is not None
        return member, logged.token

    def confirmed(self, name: str, address: str) -> tuple[MemberId, str]:
        member, token = self.account4(name)
        self.send(member, SetEmail(address))
        code = self.mails[-1].params["code"]
        the(self.send(member, ConfirmEmail(code)), member, MailSettings)
        return member, token

    def frames_to(self, member: MemberId) -> bytes:
        return b"".join(encode(message, 4) for to, message in self.sent if to == member)

    def every_frame(self) -> bytes:
        return b"".join(encode(message, 4) for _, message in self.sent)


def test_welcome_tells_version_4_whether_the_server_sends_mail() -> None:
    h = Mail()
    member = h.connect()
    assert the(h.send(member, Hello(4, "Ann")), member, Welcome).mail is True
    old = h.connect()
    welcome = the(h.send(old, Hello(3, "Old")), old, Welcome)
    assert b"mail" not in encode(welcome, 3)
    plain = Accounts()
    member = plain.connect()
    assert the(plain.send(member, Hello(4, "Bo")), member, Welcome).mail is False


def test_a_server_without_mail_refuses_every_mail_message() -> None:
    h = Accounts()
    member = h.guest("Ann", version=4)
    the(h.send(member, Register("Ann", SECRET)), member, LoggedIn)
    for message in (
        SetEmail(ADDRESS), ConfirmEmail("x"), GetMailSettings(), SetMailSettings("de"),
        ForgotPassword("Ann"), ResetPassword("x", "another good password"),
    ):  # fmt: skip
        assert codes(h.send(member, message), member) == ["no_mail"]


def test_an_address_is_confirmed_by_its_code_and_only_its_owner_sees_it() -> None:
    h = Mail()
    ann, _ = h.account4("Ann")
    bob, _ = h.account4("Bob")
    h.send(bob, LobbySubscribe())
    assert codes(h.send(ann, SetEmail("not an address")), ann) == ["bad_email"]
    effects = h.send(ann, SetEmail(ADDRESS))
    (mail,) = effects.mails
    assert (mail.recipient, mail.kind, mail.params["name"]) == (ADDRESS, "confirm", "Ann")
    code = mail.params["code"]
    assert len(code) >= 22  # 128 bits
    told = the(effects, ann, MailSettings)
    assert (told.address, told.pending) == (None, ADDRESS)
    (stored,) = writes_of(effects, AccountOp)
    assert code not in repr(stored.account.data) and stored.account.data["mail"]["confirm_hash"]
    assert codes(h.send(ann, ConfirmEmail("wrong")), ann) == ["bad_code"]
    assert codes(h.send(bob, ConfirmEmail(code)), bob) == ["bad_code"]  # another account's code
    confirmed = the(h.send(ann, ConfirmEmail(code)), ann, MailSettings)
    assert (confirmed.address, confirmed.pending) == (ADDRESS, None)
    assert codes(h.send(ann, ConfirmEmail(code)), ann) == ["bad_code"]  # used
    h.send(bob, GetRatings())
    h.send(ann, GetMailSettings())
    # the bytes: the address only ever to Ann's connection, the code to nobody
    assert ADDRESS.encode() in h.frames_to(ann)
    assert ADDRESS.encode() not in h.frames_to(bob)
    assert code.encode() not in h.every_frame()
    assert h.mails == [mail]  # nothing else went to the address


def test_the_confirmation_link_confirms_and_an_expired_code_does_not() -> None:
    h = Mail()
    ann, _ = h.account4("Ann")
    h.send(ann, SetEmail(ADDRESS))
    code = h.mails[-1].params["code"]
    effects, good = h.core.mail_link("confirm", "nonsense", h.now, h.wall)
    assert not good and not effects.writes
    effects, good = h.core.mail_link("confirm", code, h.now, h.wall)
    assert good and the(h.took(effects), ann, MailSettings).address == ADDRESS
    h.send(ann, SetEmail("new@example.org"))  # a change is confirmed again: till then, the old
    settings = the(h.send(ann, GetMailSettings()), ann, MailSettings)
    assert (settings.address, settings.pending) == (ADDRESS, "new@example.org")
    late = h.mails[-1].params["code"]
    h.wall += 3 * DAY
    assert not h.core.mail_link("confirm", late, h.now, h.wall)[1]


def test_a_look_at_a_link_says_what_it_would_do_and_does_nothing() -> None:
    """The link's first page (server/net/mail_links.py): scanners fetch it unasked."""
    h = Mail()
    ann, _ = h.account4("Ann")
    bob, _ = h.confirmed("Bob", "bob@example.org")
    h.disconnect(bob)
    h.send(ann, SetEmail(ADDRESS))
    code = h.mails[-1].params["code"]
    h.send(ann, Challenge("Bob", ChallengeTerms(clock=TimeControl(days=3))))
    off = next(m for m in h.mails if m.kind == "challenge").params["off"]
    core = h.core
    accounts = core._ctx.accounts.by_key  # the core's own state, to see it unchanged
    for _ in range(2):  # looked at again: the same
        assert core.mail_link_look("confirm", code, h.now, h.wall) == LinkLook(True, "Ann", ADDRESS)
        assert core.mail_link_look("challenge", off, h.now, h.wall) == LinkLook(True)
    assert core.mail_link_look("confirm", "nonsense", h.now, h.wall) == LinkLook(False)
    assert core.mail_link_look("confirm", off, h.now, h.wall) == LinkLook(False)
    assert core.mail_link_look("challenge", code, h.now, h.wall) == LinkLook(False)
    assert core.mail_link_look("spam", off, h.now, h.wall) == LinkLook(False)
    # nothing gathered by the looks: the next effects are the next message's alone
    effects = h.send(ann, GetMailSettings())
    assert not writes_of(effects, AccountOp) and not effects.mails
    settings = the(effects, ann, MailSettings)
    assert (settings.address, settings.pending) == (None, ADDRESS)
    assert accounts["bob"].mail.off == set()
    # what the look told is what following does, the code used up, then told so
    assert core.mail_link("challenge", off, h.now, h.wall)[1]
    assert accounts["bob"].mail.off == {"challenge"}
    assert core.mail_link("confirm", code, h.now, h.wall)[1]
    assert core.mail_link_look("confirm", code, h.now, h.wall) == LinkLook(False)
    h.send(ann, SetEmail("new@example.org"))
    late = h.mails[-1].params["code"]
    assert core.mail_link_look("confirm", late, h.now, h.wall).good
    h.wall += 3 * DAY  # expired
    assert core.mail_link_look("confirm", late, h.now, h.wall) == LinkLook(False)
    assert accounts["ann"].mail.pending == "new@example.org"


def test_a_reset_from_the_mail_to_a_new_password() -> None:
    h = Mail()
    h.confirmed("Ann", ADDRESS)
    h.account4("Bob")  # an account without an address
    stranger = h.guest4("Stranger")
    answers = {}
    for asked in ("Ann", "Bob", "Nobody", "nobody@example.org"):
        effects = h.send(stranger, ForgotPassword(asked))
        answers[asked] = encode(the(effects, stranger, MailNote), 4)
    assert len(set(answers.values())) == 1  # the same whether or not
    (mail,) = [m for m in h.mails if m.kind == "reset"]
    assert mail.recipient == ADDRESS
    h.send(stranger, ForgotPassword(ADDRESS.upper()))  # by its address, too
    code = h.mails[-1].params["code"]
    assert code not in h.every_frame().decode("latin-1")
    assert codes(h.send(stranger, ResetPassword(code, "short")), stranger) == ["bad_password"]
    assert codes(h.send(stranger, ResetPassword("wrong", "a new good password")), stranger) == [
        "bad_code"
    ]
    elsewhere = h.guest4("Ann")
    the(h.send(elsewhere, Login("Ann", SECRET, None)), elsewhere, LoggedIn)
    done = h.send(stranger, ResetPassword(code, "a new good password"))
    assert the(done, stranger, MailNote).note == "password_reset"
    assert the(done, elsewhere, LoggedOut).reason == "password_changed"
    assert codes(h.send(stranger, ResetPassword(code, "a third good password")), stranger) == [
        "bad_code"
    ]
    other = h.guest4("x")
    assert codes(h.send(other, Login("Ann", SECRET, None)), other) == ["bad_login"]
    the(h.send(other, Login("Ann", "a new good password", None)), other, LoggedIn)
    assert "a new good password" not in repr(h.batches)


def test_a_reset_code_expires_after_30_minutes() -> None:
    h = Mail()
    h.confirmed("Ann", ADDRESS)
    stranger = h.guest4("Stranger")
    h.send(stranger, ForgotPassword("Ann"))
    code = h.mails[-1].params["code"]
    h.wall += RESET_FOR + 1
    assert codes(h.send(stranger, ResetPassword(code, "a new good password")), stranger) == [
        "bad_code"
    ]


def test_ten_thousand_reset_requests_from_50_addresses_send_at_most_the_throttles_mails() -> None:
    h = Mail()
    h.confirmed("Ann", ADDRESS)
    for name in ("Bob", "Cy", "Di", "Ed"):
        h.confirmed(name, f"{name.lower()}@example.org")
    before = len(h.mails)
    askers = [h.guest4(f"G{i}", address=f"127.0.0.{i + 1}") for i in range(50)]
    for n in range(10_000):
        asker = askers[n % 50]
        effects = h.core.frame(asker, encode(ForgotPassword("Ann"), 4), h.now, h.wall)
        h.mails += effects.mails
        assert [type(m) for _, m, _ in effects.sends] == [MailNote]
    sent = h.mails[before:]
    assert 1 <= len(sent) <= PER_ACCOUNT
    # other names from the same network: the network's count cuts them all
    h.wall += 3601
    more = len(h.mails)
    for n in range(10_000):
        name = ("Ann", "Bob", "Cy", "Di", "Ed", "Nobody")[n % 6]
        effects = h.core.frame(askers[n % 50], encode(ForgotPassword(name), 4), h.now, h.wall)
        h.mails += effects.mails
    assert len(h.mails) - more <= min(PER_NETWORK, 5 * PER_ACCOUNT)


def end_turn(h: Mail, member: MemberId, table_id: str) -> None:
    """Random legal actions of the seat until its turn passes."""
    table = h.table(table_id)
    mover = table.game.to_move
    for _ in range(50):
        h.act(member, table_id)
        if table.game.to_move is not mover:
            return
    raise AssertionError("the turn did not pass")


def days_game(h: Mail, ann: MemberId, bob: MemberId) -> str:
    table_id = days_table(h, ann, 3)
    the(h.send(bob, Join(table_id, "black")), bob, Joined)
    return table_id


def test_your_move_mails_a_player_not_connected_once_a_day_per_game() -> None:
    h = Mail()
    ann, _ = h.confirmed("Ann", ADDRESS)
    bob, bob_token = h.confirmed("Bob", "bob@example.org")
    table_id = days_game(h, ann, bob)
    end_turn(h, ann, table_id)  # Bob is connected: he sees it there
    assert [m.kind for m in h.mails if m.recipient == "bob@example.org"] == ["confirm"]
    end_turn(h, bob, table_id)
    h.disconnect(bob)
    end_turn(h, ann, table_id)
    (turn,) = [m for m in h.mails if m.kind == "turn"]
    assert (turn.recipient, turn.params["opponent"], turn.params["table_id"]) == (
        "bob@example.org", "Ann", table_id,
    )  # fmt: skip

    def bob_comes_back_for_a_turn() -> None:
        """Bob logs in, ends his turn and goes again; then Ann ends hers."""
        bob = h.guest4("Bob")
        h.send(bob, Login("Bob", None, bob_token))
        h.send(bob, Resume(table_id))
        end_turn(h, bob, table_id)
        h.disconnect(bob)
        end_turn(h, ann, table_id)

    bob_comes_back_for_a_turn()
    assert len([m for m in h.mails if m.kind == "turn"]) == 1  # once a day at most
    h.wall += DAY
    bob_comes_back_for_a_turn()
    assert len([m for m in h.mails if m.kind == "turn"]) == 2


def test_a_mails_link_turns_its_kind_off_and_the_settings_turn_it_on() -> None:
    h = Mail()
    ann, _ = h.confirmed("Ann", ADDRESS)
    bob, bob_token = h.confirmed("Bob", "bob@example.org")
    h.disconnect(bob)
    h.send(ann, Challenge("Bob", ChallengeTerms(clock=TimeControl(days=3))))
    (challenge,) = [m for m in h.mails if m.kind == "challenge"]
    assert challenge.params["challenger"] == "Ann"
    assert not h.core.mail_link("challenge", "wrong", h.now, h.wall)[1]
    assert not h.core.mail_link("spam", challenge.params["off"], h.now, h.wall)[1]
    effects, good = h.core.mail_link("challenge", challenge.params["off"], h.now, h.wall)
    assert good and writes_of(effects, AccountOp)
    bob = h.guest4("Bob")
    h.send(bob, Login("Bob", None, bob_token))
    settings = the(h.send(bob, GetMailSettings()), bob, MailSettings)
    assert settings.notify == ["turn", "clock", "tournament_round"]
    changed = h.send(bob, SetMailSettings("de", on=["challenge"], off=["turn", "clock"]))
    assert the(changed, bob, MailSettings) == MailSettings(
        "bob@example.org", None, "de", ["challenge", "tournament_round"]
    )
    h.disconnect(bob)
    h.send(ann, Challenge("Bob", ChallengeTerms(clock=TimeControl(days=5))))
    assert [m.language for m in h.mails if m.kind == "challenge"] == ["en", "de"]


def test_the_time_running_low_in_a_game_of_days_mails_once_for_the_move() -> None:
    h = Mail()
    ann, _ = h.confirmed("Ann", ADDRESS)
    bob, _ = h.confirmed("Bob", "bob@example.org")
    table_id = days_game(h, ann, bob)
    h.act(ann, table_id, "draw")
    h.disconnect(bob)
    h.tick(h.now + 1.5 * DAY)
    assert not [m for m in h.mails if m.kind == "clock"]
    h.tick(h.now + 1.0 * DAY)
    (low,) = [m for m in h.mails if m.kind == "clock"]
    assert low.recipient == "bob@example.org" and 1 <= low.params["hours"] <= 24
    h.tick(h.now + 0.4 * DAY)
    assert len([m for m in h.mails if m.kind == "clock"]) == 1


@pytest.mark.parametrize("count", [PER_ACCOUNT])
def test_confirmation_mails_are_counted(count: int) -> None:
    h = Mail()
    ann, _ = h.account4("Ann")
    for i in range(count):
        assert not codes(h.send(ann, SetEmail(f"a{i}@example.org")), ann)
    assert codes(h.send(ann, SetEmail("late@example.org")), ann) == ["login_throttled"]
    assert of(h.send(ann, SetEmail(None)), ann, MailSettings)[0].pending is None


def test_a_paired_tournament_round_mails_its_players_not_connected() -> None:
    h = Mail()
    members = {name: h.confirmed(name, f"{name.lower()}@example.org")[0] for name in NAMES}
    created = h.send(members["Ann"], CreateTournament(SWISS))
    (op,) = writes_of(created, TournamentOp)
    tournament_id = op.tournament.tournament_id
    for member in members.values():
        h.send(member, JoinTournament(tournament_id))
    for name in ("Bob", "Cid"):
        h.disconnect(members[name])
    started = h.send(members["Ann"], StartTournament(tournament_id))
    (paired,) = writes_of(started, RoundOp)
    mailed = {m.recipient: m for m in started.mails}
    assert set(mailed) == {"bob@example.org", "cid@example.org"} - {
        f"{name.lower()}@example.org" for name in ("Bob", "Cid") if _has_bye(paired, name)
    }
    assert mailed  # one of the two at least has a game (the other may have the bye)
    for mail in mailed.values():
        assert mail.kind == "tournament_round" and mail.params["tournament"] == "Club night"
        assert mail.params["round"] == 1 and mail.params["table_id"]


def _has_bye(paired: RoundOp, name: str) -> bool:
    return paired.round.bye == name.lower()


def test_the_mail_state_survives_a_restart_with_its_account() -> None:
    h = Mail()
    ann, _ = h.confirmed("Ann", ADDRESS)
    h.send(ann, SetMailSettings("it", off=["clock"]))
    (row,) = [op.account for op in writes_of(h.send(ann, SetEmail("new@example.org")), AccountOp)]
    again = Mail()
    again.core.restore_players(StoredPlayers([row]), 0.0, WALL)
    member = again.guest4("Ann")
    the(again.send(member, Login("Ann", SECRET, None)), member, LoggedIn)
    settings = the(again.send(member, GetMailSettings()), member, MailSettings)
    assert settings == MailSettings(ADDRESS, "new@example.org", "it",
                                    ["turn", "challenge", "tournament_round"])  # fmt: skip
    code = h.mails[-1].params["code"]
    assert code not in repr(row) and ADDRESS not in repr(h.mails[-1])
    assert the(again.send(member, ConfirmEmail(code)), member, MailSettings).address == (
        "new@example.org"
    )


def test_a_challenger_away_hears_of_the_first_move_when_the_challenge_is_accepted() -> None:
    h = Mail()
    ann, _ = h.confirmed("Ann", ADDRESS)
    bob, _ = h.confirmed("Bob", "bob@example.org")
    h.send(ann, Challenge("Bob", ChallengeTerms(seat="white", clock=TimeControl(days=3))))
    h.disconnect(ann)
    (waiting,) = [m for m in h.sent_to(bob) if isinstance(m, Challenges)][-1].challenges
    h.send(bob, AnswerChallenge(waiting.challenge_id, "accept"))
    (turn,) = [m for m in h.mails if m.kind == "turn"]
    assert turn.recipient == ADDRESS and turn.params["opponent"] == "Bob"
