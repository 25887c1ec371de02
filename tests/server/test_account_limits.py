"""The limits on chat and challenges count an account's connections together: more connections
of one account do not buy more lines or more notes to a victim (server/core/ratelimit.py's
KeyedBuckets). A guest's table chat is limited per connection. In the core, without sockets;
tests/server/test_abuse.py floods a real server over loopback."""

from __future__ import annotations

from protocol.fields import TableOptions
from protocol.messages import Chat, Error, LobbySubscribe, Spectate
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    ChallengeTerms,
    LobbyChat,
    LobbyChatMessage,
    PlayerNote,
)
from server.core.ratelimit import KeyedBuckets
from server.core.store import ChallengeOp
from server.core.table import MemberId
from tests.server.test_challenges import login
from tests.server.test_core import codes, of, writes_of
from tests.server.test_logins import Accounts

LIVE = ChallengeTerms(TableOptions(), "white", "white", None)


def connections(h: Accounts, name: str, count: int) -> list[MemberId]:
    first, token = h.account(name)
    return [first] + [login(h, name, token) for _ in range(count - 1)]


def test_lobby_chat_is_limited_per_account_across_its_connections() -> None:
    h = Accounts(chat_rate=0.5, chat_burst=5)
    listener = h.guest("Listener")
    h.send(listener, LobbySubscribe())
    many = connections(h, "Spammer", 8)
    said = refused = 0
    for round_ in range(4):  # every connection tries four lines, at the same moment
        for member in many:
            effects = h.send(member, LobbyChat(f"line {round_}"))
            said += len(of(effects, listener, LobbyChatMessage))
            refused += codes(effects, member) == ["chat_rate_limited"]
    assert (said, refused) == (5, 27)  # one burst in all, not one per connection
    h.tick(h.now + 2.0)  # 0.5 a second: one more line
    assert codes(h.send(many[3], LobbyChat("again")), many[3]) == []
    assert codes(h.send(many[5], LobbyChat("and again")), many[5]) == ["chat_rate_limited"]


def test_table_chat_shares_the_accounts_limit_and_guests_have_their_own() -> None:
    h = Accounts(chat_rate=0.5, chat_burst=5)
    one, two = connections(h, "Ann", 2)
    _, table_id, _ = h.create(one)
    h.send(two, Spectate(table_id))
    guests = [h.guest(f"Guest {n}") for n in range(2)]
    for guest in guests:
        h.send(guest, Spectate(table_id))
    for n in range(3):
        assert codes(h.send(one, LobbyChat(f"lobby {n}")), one) == []
    for n in range(2):
        assert codes(h.send(two, Chat(table_id, f"table {n}")), two) == []
    assert codes(h.send(two, Chat(table_id, "one too many")), two) == ["chat_rate_limited"]
    for guest in guests:  # a guest has no account: each connection its own burst
        assert all(codes(h.send(guest, Chat(table_id, f"{n}")), guest) == [] for n in range(5))
        assert codes(h.send(guest, Chat(table_id, "sixth")), guest) == ["chat_rate_limited"]


def test_a_challenge_and_withdraw_loop_on_many_connections_sends_few_notes() -> None:
    h = Accounts(challenge_rate=0.1, challenge_burst=10)
    victim, _ = h.account("Victim")
    many = connections(h, "Pest", 6)
    notes = refused = 0
    for n in range(60):  # a minute's worth of a tight loop, at one moment
        member = many[n % len(many)]
        effects = h.send(member, Challenge("Victim", LIVE))
        ops = writes_of(effects, ChallengeOp)
        refused += codes(effects, member) == ["too_many_challenges"]
        notes += len(of(effects, victim, PlayerNote))
        if ops:
            withdrawn = h.send(member, AnswerChallenge(ops[0].challenge.challenge_id, "withdraw"))
            notes += len(of(withdrawn, victim, PlayerNote))
            refused += codes(withdrawn, member) == ["too_many_challenges"]
    assert notes == 10  # the burst: five challenges and their withdrawals
    assert refused == 55  # every other challenge refused, with reason "wait"
    h.tick(h.now + 10.0)  # 0.1 a second: one more action
    effects = h.send(many[2], Challenge("Victim", LIVE))
    assert len(of(effects, victim, PlayerNote)) == 1


def test_a_refused_challenge_says_to_wait() -> None:
    h = Accounts(challenge_rate=0.1, challenge_burst=1)
    h.account("Victim")
    pest, _ = h.account("Pest")
    assert codes(h.send(pest, Challenge("Victim", LIVE)), pest) == []
    (error,) = of(h.send(pest, Challenge("Victim", LIVE)), pest, Error)
    assert (error.code, error.reason) == ("too_many_challenges", "wait")


def test_keyed_buckets_forget_full_buckets() -> None:
    buckets = KeyedBuckets(rate=1.0, burst=2)
    for key in range(1000):
        assert buckets.take(key, float(key) * 0.001)
    assert len(buckets.buckets) == 1000  # none of them full again yet
    # long after, every one of them is full again: newcomers make room by forgetting them
    for key in range(1000, 1100):
        assert buckets.take(key, 100.0)
    assert len(buckets.buckets) <= 100  # the old ones forgotten
    assert buckets.take("late", 100.0) and buckets.take("late", 100.0)
    assert not buckets.take("late", 100.0)
