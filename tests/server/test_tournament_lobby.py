"""The lobby's tournaments list pushed (protocol version 4): a lobby watcher of version 4 gets
`tournaments` anew when a tournament is made, starts or ends, and not for a join or a game's
result; watchers of versions 1 to 3 get nothing of it, byte for byte."""

from __future__ import annotations

from protocol.messages import Hello, LobbySubscribe, Resign
from protocol.player_messages import Resume
from protocol.tournament_messages import (
    DirectTournament,
    JoinTournament,
    StartTournament,
    Tournaments,
    TournamentTerms,
)
from server.core.table import MemberId
from tests.server.test_logins import Accounts
from tests.server.tournament_harness import last_state, made, v4_account


def lobby_watcher(h: Accounts, name: str, version: int) -> MemberId:
    member = h.connect()
    h.send(member, Hello(version, name))
    h.send(member, LobbySubscribe())
    return member


def listings(h: Accounts, member: MemberId, since: int) -> list[list[tuple[str, str]]]:
    """The lists the member was sent after the `since`-th message: (name, status) each."""
    return [
        [(t.name, t.status) for t in m.tournaments]
        for to, m in h.sent[since:]
        if to == member and isinstance(m, Tournaments)
    ]


def test_the_lobby_hears_of_a_tournament_made_started_and_ended() -> None:
    h = Accounts()
    ann, bob = v4_account(h, "Ann"), v4_account(h, "Bob")
    watcher = lobby_watcher(h, "Watcher", 4)
    old = {version: lobby_watcher(h, f"Old{version}", version) for version in (1, 2, 3)}
    before = len(h.sent)
    heard = {member: len(h.sent_to(member)) for member in old.values()}
    tournament_id = made(h, ann, TournamentTerms("Club night", "swiss", 1))
    assert listings(h, watcher, before) == [[("Club night", "open")]]
    assert listings(h, ann, before) == []  # not in the lobby: she watches the tournament
    mark = len(h.sent)
    h.send(ann, JoinTournament(tournament_id))
    h.send(bob, JoinTournament(tournament_id))
    assert listings(h, watcher, mark) == []  # a join changes a count only: not pushed
    h.send(ann, StartTournament(tournament_id))
    assert listings(h, watcher, mark) == [[("Club night", "started")]]
    mark = len(h.sent)
    (game,) = last_state(h, ann).rounds[0].games
    h.send(ann, Resume(game.table_id or ""))
    h.send(ann, Resign(game.table_id or ""))  # the only game: the tournament is over
    assert listings(h, watcher, mark) == [[("Club night", "finished")]]
    mark = len(h.sent)
    other = made(h, ann, TournamentTerms("Second", "swiss", 2))
    h.send(ann, DirectTournament(other, "end"))  # ended by its director before the start
    assert listings(h, watcher, mark) == [
        [("Second", "open"), ("Club night", "finished")],
        [("Second", "finished"), ("Club night", "finished")],
    ]
    # versions 1 to 3 in the lobby all along: not one message more from any of it
    assert {member: len(h.sent_to(member)) for member in old.values()} == heard
