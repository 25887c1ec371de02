"""Issue 40, item 1: a game that ends while a player is away from its table (a forfeit by the
opponent's abandonment, a flag of the clock) is told to that player: `player_note` `game_over`,
new in protocol version 4, on their account's connections and on the connection that stepped
away from the seat (docs/rules.md, R19). Version 3 has no such note: its connections get the
bytes they always got. In the core, with its injected time."""

from __future__ import annotations

import msgpack
import pytest

from protocol.codec import decode_server, encode
from protocol.errors import ErrorCode, ProtocolError
from protocol.fields import TimeControl
from protocol.messages import Joined, Leave, Left, Update
from protocol.player_messages import (
    AnswerChallenge,
    Challenge,
    Challenges,
    ChallengeTerms,
    LoggedIn,
    Login,
    PlayerNote,
    Register,
)
from server.core.effects import Effects
from server.core.table import MemberId
from tests.server.test_core import DAYS_SWEEP, Harness, of, the
from tests.server.test_logins import SECRET, Accounts

TIMEOUT = 30.0  # the abandonment timeout, in the core's injected seconds


def wire(effects: Effects, member: MemberId) -> bytes:
    """Every frame the member was sent, as its connection gets them (in its version)."""
    return b"".join(encode(m, version) for to, m, version in effects.sends if to == member)


@pytest.mark.parametrize("version", [3, 4])
def test_a_guest_in_the_lobby_hears_that_the_opponent_forfeited(version: int) -> None:
    h = Harness(abandon_timeout=TIMEOUT)
    duo = h.duo(white_version=version, black_version=version)
    h.act(duo.white, duo.table_id, "draw")
    left = h.send(duo.white, Leave(duo.table_id))
    assert the(left, duo.white, Left).code == "stepped_away"
    h.disconnect(duo.black)  # Bo is gone: past the timeout, Bo forfeits
    ended = h.advance(h.now + TIMEOUT + 2.0)
    assert h.table(duo.table_id).game.result is not None
    assert not of(ended, duo.white, Update)  # Ana is not at the table
    frames = wire(ended, duo.white)
    if version == 3:
        assert not of(ended, duo.white, PlayerNote) and b"game_over" not in frames
        return
    note = the(ended, duo.white, PlayerNote)
    assert note == PlayerNote("game_over", duo.table_id, "Bo", "won", "forfeit")
    assert decode_server(frames, version=4) == note  # the one frame, as version 4 reads it


def account(h: Accounts, name: str, version: int) -> MemberId:
    member = h.guest(name, version)
    the(h.send(member, Register(name, SECRET)), member, LoggedIn)
    return member


def test_an_account_in_the_lobby_hears_that_its_clock_flagged() -> None:
    h = Accounts(abandon_timeout=600.0)
    ann = account(h, "Ann", 4)
    bob = account(h, "Bob", 4)
    # more connections of the two accounts: Ann's in version 3, Bob's in version 4
    ann_old = h.guest("Ann", 3)
    the(h.send(ann_old, Login("Ann", SECRET, None)), ann_old, LoggedIn)
    bob_tab = h.guest("Bob", 4)
    the(h.send(bob_tab, Login("Bob", SECRET, None)), bob_tab, LoggedIn)
    live = ChallengeTerms(seat="white", first="white", clock=TimeControl(initial=60))
    (challenge,) = the(h.send(ann, Challenge("Bob", live)), bob, Challenges).challenges
    accepted = h.send(bob, AnswerChallenge(challenge.challenge_id, "accept"))
    table_id = the(accepted, ann, PlayerNote).table_id
    assert table_id is not None
    # Ann stays in the lobby; her clock runs out
    ended = h.advance(h.now + 61.0)
    assert h.table(table_id).game.result is not None
    lost = PlayerNote("game_over", table_id, "Bob", "lost", "time")
    assert the(ended, ann, PlayerNote) == lost
    assert not of(ended, ann_old, PlayerNote) and b"game_over" not in wire(ended, ann_old)
    # Bob sees the end at the table, and his other connection hears of it
    assert of(ended, bob, Update) and not of(ended, bob, PlayerNote)
    won = PlayerNote("game_over", table_id, "Ann", "won", "time")
    assert the(ended, bob_tab, PlayerNote) == won
    assert decode_server(wire(ended, bob_tab), version=4) == won


def test_a_game_played_at_the_table_brings_no_note() -> None:
    h = Harness(abandon_timeout=TIMEOUT)
    duo = h.duo(white_version=4, black_version=4)
    for effects in h.play_out(duo):
        assert not of(effects, duo.white, PlayerNote) and not of(effects, duo.black, PlayerNote)


def test_version_3_neither_gets_nor_accepts_the_game_over_note() -> None:
    note = PlayerNote("game_over", "t1", "Bob", "lost", "forfeit")
    with pytest.raises(ValueError):
        encode(note, 3)
    with pytest.raises(ProtocolError) as refused:
        decode_server(encode(note, 4), version=3)
    assert refused.value.code is ErrorCode.EXTRA_FIELD  # outcome, ending: version 4's fields
    bare = msgpack.packb({"type": "player_note", "note": "game_over", "table_id": "t", "name": "B"})
    with pytest.raises(ProtocolError) as refused:
        decode_server(bare, version=3)
    assert refused.value.code is ErrorCode.BAD_FIELD
    # the notes of version 3 go to it as they always went, without version 4's fields
    move = PlayerNote("your_move", "t1", "Bob")
    assert msgpack.unpackb(encode(move, 3)) == {
        "type": "player_note",
        "note": "your_move",
        "table_id": "t1",
        "name": "Bob",
    }
    assert decode_server(encode(move, 3), version=3) == move


def test_a_game_of_days_lost_at_its_deadline_is_told_to_both() -> None:
    h = Accounts(abandon_timeout=TIMEOUT, sweep_interval=DAYS_SWEEP)
    ann = account(h, "Ann", 4)
    bob = account(h, "Bob", 4)
    days = ChallengeTerms(seat="white", first="white", clock=TimeControl(days=1))
    (challenge,) = the(h.send(ann, Challenge("Bob", days)), bob, Challenges).challenges
    accepted = h.send(bob, AnswerChallenge(challenge.challenge_id, "accept"))
    table_id = the(accepted, bob, Joined).table_id
    h.send(bob, Leave(table_id))  # both in the lobby now; Ann, to move, never moves
    ended = h.advance(h.now + 86_400.0 + 1.0)
    told = of(ended, ann, PlayerNote)
    assert [n.note for n in told] == ["time_low", "game_over"]  # 12 hours before, then the end
    assert told[-1] == PlayerNote("game_over", table_id, "Bob", "lost", "time")
    assert the(ended, bob, PlayerNote) == PlayerNote("game_over", table_id, "Ann", "won", "time")
