"""The terminal client's tournaments (version 4): the lobby's commands read, the screen drawn at
80 columns in each language, and a tournament made, joined, started and its round's games taken
by two clients over real sockets."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from client.language.i18n import _, set_language
from client.model.state import ClientState
from client.model.tournaments import read_clock, read_tournament_line
from client.screens.lobby_screen import render_lobby
from client.screens.tournament_keys import act, answer, go_to_game
from client.screens.tournaments_screen import LIST_KEYS, ONE_KEYS, points
from protocol.fields import TableOptions, TimeControl
from protocol.messages import ClientMessage, Error, LobbyUnsubscribe, Reclaim
from protocol.player_messages import PlayerNote, Resume
from protocol.tournament_messages import (
    CreateTournament,
    DirectTournament,
    GetTournaments,
    Pairing,
    StandingEntry,
    TournamentPlayer,
    TournamentRound,
    Tournaments,
    TournamentState,
    TournamentSummary,
    WithdrawTournament,
)
from shared.game import Result
from shared.types import Seat
from tests.client.test_app import until
from tests.client.test_players import account_player
from tests.client.test_render import known_state
from tests.conftest import ServerFactory

LANGUAGES = ("en", "de", "it")


@pytest.fixture(autouse=True)
def english() -> object:
    set_language("en")
    yield None
    set_language("en")


def test_the_lobby_commands() -> None:
    made = read_tournament_line('tournament new "Club night" swiss 5 5+3 unrated')
    assert made is not None and made.refused is None and made.creating
    (message,) = made.messages
    assert isinstance(message, CreateTournament)
    terms = message.terms
    assert (terms.name, terms.format, terms.rounds, terms.rated) == (
        "Club night",
        "swiss",
        5,
        False,
    )
    assert terms.clock == TimeControl(initial=300, increment=3)
    rr = read_tournament_line("tournament new Month double 3d")
    assert rr is not None and isinstance(rr.messages[0], CreateTournament)
    assert rr.messages[0].terms.format == "double_round_robin"
    assert rr.messages[0].terms.clock == TimeControl(days=3)
    listing = read_tournament_line("tournaments")
    assert listing is not None and listing.show_list and listing.messages == (GetTournaments(),)
    for bad in ("tournament new X swiss", "tournament new X knockout", "tournament new X rr 9z"):
        refused = read_tournament_line(bad)
        assert refused is not None and refused.refused and not refused.messages, bad
    assert read_tournament_line("games") is None
    assert read_clock("0+3") is None and read_clock("2d") == TimeControl(days=2)


def summary(status: str = "started") -> TournamentSummary:
    return TournamentSummary(
        tournament_id="5c0ffee1" if status == "started" else "5c0ffee2",
        name="Donnerstagsturnier des Vereins am langen Abend",
        format="swiss",
        director="Annamaria",
        status=status,  # type: ignore[arg-type]
        players=9,
        round=2,
        rounds=4,
        clock=TimeControl(initial=300, increment=3),
        rated=True,
        start=None,
        paused=False,
    )


NAMES = [f"Spielerin{n:02d}Langname" for n in range(9)]


def shown_state() -> ClientState:
    state = ClientState(name=NAMES[0])
    state.accounts.accounts, state.accounts.account = True, NAMES[0]
    games = [
        Pairing(1, NAMES[0], NAMES[1], "77aa0b1e", None),
        Pairing(2, NAMES[2], NAMES[3], "77aa0b1f", "white_won"),
        Pairing(3, NAMES[4], NAMES[5], None, "black_won_by_forfeit"),
        Pairing(4, NAMES[6], NAMES[7], "77aa0b20", "draw"),
    ]
    standings = [
        StandingEntry(i + 1, name, 2.5 - i * 0.5 if i < 5 else 0, 3.5, 2.25, 0, 2, i == 8)
        for i, name in enumerate(NAMES)
    ]
    players = [TournamentPlayer(name, 1500, 1, name == NAMES[8]) for name in NAMES]
    rounds = [TournamentRound(1, NAMES[8], []), TournamentRound(2, NAMES[8], games)]
    tournament = TournamentState(summary(), TableOptions(), None, players, rounds, standings)
    state.handle(Tournaments([summary(), summary("open")], None))
    state.tournaments.view, state.tournaments.watching = "one", "5c0ffee1"
    state.handle(tournament)
    return state


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_screens_fit_80_by_24(lang: str) -> None:
    set_language(lang)
    state = shown_state()
    text = render_lobby(state, 80, 23).text()
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    # every game of the round, its result, and the standings' first places are on the screen
    for board in ("77aa0b1e", "77aa0b1f", "77aa0b20", "1-0", "½-½", "2½"):
        assert board in text, (lang, board, text)
    assert f"  1 {NAMES[0]}" in text and NAMES[3] in text
    # no word of the language cut: the results and the columns' titles whole
    # (the players' list, whose names go on past two lines, ends with one)
    assert not [line for line in lines if "…" in line and not line.endswith(", …")], text
    state.tournaments.view = "list"
    listing = render_lobby(state, 80, 23).text()
    assert all(len(line) <= 80 for line in listing.splitlines())
    assert "5+3" in listing and "2/4" in listing and "Donnerstag" in listing
    rows = [line for line in listing.splitlines() if "Donnerstag" in line]
    assert not [line for line in listing.splitlines() if "…" in line and line not in rows]
    assert all(row.count("…") == 1 for row in rows)  # only the long name, cut
    assert len(rows) == 2 and len({row.index("5+3") for row in rows}) == 1  # the columns align
    from client.language.i18n import _

    for keys in (LIST_KEYS, ONE_KEYS):
        assert len(" " + _(keys)) <= 80, (lang, _(keys))


def test_the_round_note_rings_and_says_the_way() -> None:
    state = ClientState(name="Ann")
    state.handle(PlayerNote("tournament_round", "77aa0b1e", "Bob"))
    assert state.accounts.attention is not None
    assert "77aa0b1e" in state.message and "Bob" in state.message and "resume" in state.message
    state.screen = "game"
    state.handle(PlayerNote("tournament_round", "77aa0b1f", "Cid"))
    assert "77aa0b1f" in state.log[-1].text and "'lobby'" in state.log[-1].text


def test_the_next_rounds_note_is_said_again_when_the_game_ends() -> None:
    """The note comes as the game at the table ends: the game's end would hide it."""
    state = known_state()
    state.handle(PlayerNote("tournament_round", "77aa0b1f", "Cid"))
    state.say("Game over: 'rematch' plays again.")
    state._round_waits()  # the game is not over: its own messages stand
    assert "rematch" in state.message
    assert state.public is not None
    state.public = attrs.evolve(state.public, result=Result(Seat.WHITE, "more points"))
    state._round_waits()
    assert "77aa0b1f" in state.message and "'lobby'" in state.message
    state.table_id = "77aa0b1f"  # at the new table, it is done with
    state._round_waits()
    assert state.tournaments.waiting is None
    state.handle(Error("bad_tournament", "no", reason="already_joined", refused="join_tournament"))
    assert "already" in state.message


async def test_two_clients_play_a_tournament(make_server: ServerFactory, tmp_path: Path) -> None:
    server = await make_server(db=str(tmp_path / "db.sqlite3"), password_cost="test")
    async with (
        account_player(server, "Ann", tmp_path, True) as ann,
        account_player(server, "Bob", tmp_path, True) as bob,
    ):
        ann.type(":")
        ann.line('tournament new "Club night" swiss 2 5+3')
        await until(lambda: ann.state.tournaments.current is not None, "Ann's tournament")
        assert ann.state.tournaments.view == "one"
        assert "Club night" in ann.state.message  # made: what to do next
        bob.type("T")
        await until(lambda: bob.state.tournaments.listing, "the list")
        assert bob.state.tournaments.listing[0].name == "Club night"
        bob.type("\r")
        await until(lambda: bob.state.tournaments.current is not None, "Bob's tournament")
        bob.type("j")
        ann.type("j")
        await until(
            lambda: (
                (shown := bob.state.tournaments.current) is not None and len(shown.players) == 2
            ),
            "two players",
        )
        await until(lambda: "You are in" in ann.state.message, "Ann told she is in")
        ann.type("s")
        for who in (ann, bob):
            await until(lambda who=who: "table" in who.state.message, "the round's note")  # type: ignore[misc]
            assert who.state.tournaments.shown_round() is not None
        current = bob.state.tournaments.current
        assert current is not None and current.summary.status == "started"
        (game,) = current.rounds[0].games
        # Bob goes from the screen: Enter on his game of the round
        bob.type("\r")
        await until(lambda: bob.state.table_id == game.table_id, "Bob at his table")
        # Ann on the tournament's screen is told Enter goes there (the cursor is on her game);
        # she takes the lobby's command line, which the note names elsewhere
        assert f"{game.table_id}: Enter goes there" in ann.state.message
        ann.type(":")
        ann.line(f"resume {game.table_id}")
        await until(lambda: ann.state.table_id == game.table_id, "Ann at her table")
        seats = {ann.state.role, bob.state.role}
        assert seats == {"white", "black"}
        white = ann if ann.state.role == "white" else bob
        assert white.state.accounts.account == game.white


def test_what_was_asked_is_said_when_the_state_shows_it() -> None:
    state = shown_state()
    tours = state.tournaments
    tournament = tours.current
    assert tournament is not None
    tours.asked = "withdraw"
    state.handle(tournament)  # not withdrawn yet: nothing said
    assert tours.asked == "withdraw"
    out = [TournamentPlayer(p.name, p.rating, p.joined, True) for p in tournament.players]
    state.handle(attrs.evolve(tournament, players=out))
    assert tours.asked is None
    assert state.message.startswith("You have left the tournament;")  # board 1: goes on
    # a refusal: nothing is waited for any more
    tours.asked, tours.creating = "join", True
    state.handle(Error("bad_tournament", "no", reason="started", refused="join_tournament"))
    assert tours.asked is None and tours.creating and "started" in state.message
    state.handle(Error("bad_tournament", "x", reason="bad_terms", refused="create_tournament"))
    assert not tours.creating


def test_a_start_time_is_read_as_the_next_such_time() -> None:
    from datetime import datetime

    now = datetime(2026, 11, 27, 19, 0).timestamp()
    made = read_tournament_line("tournament new Friday swiss 3 5+3 at 20:30", now)
    assert made is not None and made.refused is None
    (message,) = made.messages
    assert isinstance(message, CreateTournament)
    assert message.terms.start == datetime(2026, 11, 27, 20, 30).timestamp()
    assert message.terms.clock == TimeControl(initial=300, increment=3)
    # a time already past today: tomorrow's
    made = read_tournament_line("tournament new Late roundrobin at 18:15", now)
    assert made is not None and isinstance(made.messages[0], CreateTournament)
    assert made.messages[0].terms.start == datetime(2026, 11, 28, 18, 15).timestamp()
    # without it, its director starts it
    made = read_tournament_line("tournament new Plain swiss 2", now)
    assert made is not None and isinstance(made.messages[0], CreateTournament)
    assert made.messages[0].terms.start is None
    for bad in ("25:00", "20", "8:5", "noon"):
        refused = read_tournament_line(f"tournament new X swiss 2 at {bad}", now)
        assert refused is not None and refused.refused is not None and bad in refused.refused


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_directors_keys_are_the_directors_and_fit_80_by_24(lang: str) -> None:
    from client.screens.tournament_keys import answer, direct
    from client.screens.tournaments_screen import tournament_hints

    set_language(lang)
    state = shown_state()
    tours = state.tournaments
    # a player who is not its director: the players' keys
    assert "x " not in tournament_hints(state)
    sent: list[object] = []

    def send(message: object) -> bool:
        sent.append(message)
        return True

    direct(state, send, "end")  # not theirs: nothing asked, nothing sent
    assert tours.confirm is None and not sent
    current = tours.current
    assert current is not None
    director = attrs.evolve(current.summary, director=NAMES[0])
    state.handle(attrs.evolve(current, summary=director))
    hints = tournament_hints(state)
    assert "x " in hints and "E " in hints and len(" " + hints) <= 80, (lang, hints)
    # the selected player in brackets; → moves to the next one not withdrawn
    tours.move_player(1)
    text = render_lobby(state, 80, 23).text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert f"[{NAMES[1]}]" in text, text
    tours.move_player(5)  # one whose name is past the players' two lines
    text = render_lobby(state, 80, 23).text()
    assert f"[{NAMES[6]}]" in text and all(len(line) <= 80 for line in text.splitlines())
    tours.move_player(-5)
    for action in ("remove", "draw_round", "end"):
        direct(state, send, action)
        assert tours.confirm is not None and not sent
        question = state.message
        assert question.endswith("y/n") and len(question) <= 80, (lang, question)
        assert len(" " + tournament_hints(state)) <= 80
        if action == "remove":
            assert NAMES[1] in question
        answer(state, send, False)
        assert tours.confirm is None and not sent
    direct(state, send, "remove")
    answer(state, send, True)
    (message,) = sent
    assert message == DirectTournament("5c0ffee1", "remove", NAMES[1])
    # pause: at once, no question
    direct(state, send, "pause")
    assert sent[-1] == DirectTournament("5c0ffee1", "pause", None) and tours.confirm is None
    # the director's refusal said, and nothing left waiting
    state.handle(
        Error("bad_tournament", "x", reason="tournament_finished", refused="direct_tournament")
    )
    assert tours.asked is None


async def test_the_director_removes_a_player_and_ends_the_tournament(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = await make_server(db=str(tmp_path / "db.sqlite3"), password_cost="test")
    async with (
        account_player(server, "Ann", tmp_path, True) as ann,
        account_player(server, "Bob", tmp_path, True) as bob,
        account_player(server, "Cid", tmp_path, True) as cid,
    ):
        ann.type(":")
        ann.line('tournament new "Club night" swiss 3 5+3')
        await until(lambda: ann.state.tournaments.current is not None, "Ann's tournament")
        for who in (bob, cid):
            who.type("T")
            await until(lambda who=who: who.state.tournaments.listing, "the list")  # type: ignore[misc]
            who.type("\r")
            await until(lambda who=who: who.state.tournaments.current is not None, "shown")  # type: ignore[misc]
            who.type("j")
        ann.type("j")
        await until(
            lambda: (
                (shown := ann.state.tournaments.current) is not None and len(shown.players) == 3
            ),
            "three players",
        )
        ann.type("s")
        await until(lambda: ann.state.tournaments.shown_round() is not None, "round 1")
        assert ann.state.tournaments.active_players() == ["Bob", "Cid", "Ann"]
        # Ann removes Cid: → to him, x, and n first: nothing done
        ann.type("\x1b[C")
        await until(lambda: ann.state.tournaments.selected_player() == "Cid", "Cid selected")
        ann.type("x")
        await until(lambda: ann.state.message.endswith("y/n"), "asked")
        assert "Cid" in ann.state.message
        ann.type("n")
        await until(lambda: ann.state.message == "Nothing done.", "nothing done")
        ann.type("x")
        await until(lambda: ann.state.message.endswith("y/n"), "asked again")
        ann.type("y")
        await until(lambda: "Cid is out" in ann.state.message, "Cid removed")
        shown = cid.state.tournaments
        await until(
            lambda: shown.current is not None and any(p.withdrawn for p in shown.current.players),
            "Cid sees it",
        )
        # then she ends it: its games drawn, finished, the final standings kept
        ann.type("E")
        await until(lambda: ann.state.message.endswith("y/n"), "asked to end")
        ann.type("y")
        await until(lambda: "final standings" in ann.state.message, "ended")
        final = ann.state.tournaments.current
        assert final is not None and final.summary.status == "finished"
        assert all(game.result is not None for r in final.rounds for game in r.games)
        assert [entry.name for entry in final.standings if entry.withdrawn] == ["Cid"]
        await until(
            lambda: (
                (seen := bob.state.tournaments.current) is not None
                and seen.summary.status == "finished"
            ),
            "Bob sees it finished",
        )
        # the director's keys no more on the key bar
        from client.screens.tournaments_screen import tournament_hints

        assert "x " not in tournament_hints(ann.state)


def test_going_to_my_game_takes_the_seat_with_its_saved_token_else_resumes() -> None:
    """Enter on one's own game of the round, as the lobby's Enter (lobby_actions.join): the
    seat's token this client saved takes it back (`reclaim`); without one, or with a token of
    the other seat, the account does (`resume`). A game with no table says so."""
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    def replay(table_id: str) -> None:
        raise AssertionError(f"no replay of {table_id}: the game is played")

    state = shown_state()  # the cursor on board 1: NAMES[0] (this player) White, played
    go_to_game(state, send, replay)
    assert sent == [Resume("77aa0b1e"), LobbyUnsubscribe()]
    sent.clear()
    state.saved_seats["77aa0b1e"] = ("white", "seat-token")
    go_to_game(state, send, replay)
    assert sent == [Reclaim("77aa0b1e", "seat-token"), LobbyUnsubscribe()]
    assert "77aa0b1e" in state.message
    sent.clear()
    state.saved_seats["77aa0b1e"] = ("black", "not-mine")  # a token of the other seat
    go_to_game(state, send, replay)
    assert sent == [Resume("77aa0b1e"), LobbyUnsubscribe()]
    sent.clear()
    state.tournaments.game_cursor = 2  # board 3: a forfeit decided at the pairing, no table
    go_to_game(state, send, replay)
    assert sent == [] and state.message == "No game to go to here."


@pytest.mark.parametrize(
    ("lang", "first", "winners"),
    [
        ("en", "first move within 5 minutes", "winners "),
        ("de", "erster Zug binnen 5 Minuten", "geteilter Sieg "),
        ("it", "prima mossa entro 5 minuti", "vincono a pari merito "),
    ],
)
def test_the_screen_says_the_first_moves_time_and_at_the_end_the_winners(
    lang: str, first: str, winners: str
) -> None:
    """Under way, the time in force for a first move (what the forfeit is); once finished,
    who won, or who share the first place; at 80 columns."""
    set_language(lang)
    try:
        state = shown_state()
        tours = state.tournaments
        shown = tours.current
        assert shown is not None
        state.handle(attrs.evolve(shown, forfeit_after=300))
        text = render_lobby(state, 80, 23).text()
        assert first in text, text
        done = attrs.evolve(shown.summary, status="finished")
        tied = [attrs.evolve(s, place=1) if i < 2 else s for i, s in enumerate(shown.standings)]
        state.handle(attrs.evolve(shown, summary=done, standings=tied, forfeit_after=300))
        text = render_lobby(state, 80, 23).text()
    finally:
        set_language("en")
    assert first not in text
    assert f"{winners}{NAMES[0]}, {NAMES[1]}"[:60] in text.replace("\n   ", " "), text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_withdrawing_under_way_is_asked_first_and_says_what_becomes_of_the_game() -> None:
    """w in a tournament under way (no coming back) asks y/n first, saying the game of the
    round goes on; n does nothing; y sends the withdrawal, and when the state shows it done,
    the message says the game goes on. A new round with this player's bye says so."""
    sent: list[ClientMessage] = []

    def send(message: ClientMessage) -> bool:
        sent.append(message)
        return True

    state = shown_state()  # NAMES[0] plays board 1 of round 2, still played
    tours = state.tournaments
    act(state, send, "withdraw")
    assert sent == [] and tours.confirm == ("withdraw", None) and "y/n" in state.message
    answer(state, send, False)
    assert sent == [] and tours.confirm is None and state.message == "Nothing done."
    act(state, send, "withdraw")
    answer(state, send, True)
    assert sent == [WithdrawTournament("5c0ffee1")] and tours.asked == "withdraw"
    shown = tours.current
    assert shown is not None
    out = [attrs.evolve(p, withdrawn=p.name == NAMES[0]) for p in shown.players]
    state.handle(attrs.evolve(shown, players=out))
    assert "goes on" in state.message and tours.asked is None
    third = TournamentRound(3, NAMES[0], [])
    state.handle(attrs.evolve(shown, rounds=[*shown.rounds, third]))
    assert state.message == "Round 3: you have the bye, a point without a game."


def test_the_end_of_a_tournament_followed_is_said_with_its_winner() -> None:
    state = shown_state()
    shown = state.tournaments.current
    assert shown is not None
    done = attrs.evolve(shown, summary=attrs.evolve(shown.summary, status="finished"))
    state.handle(done)
    assert state.message.startswith(f"{shown.summary.name} is over, won by {NAMES[0]}:")
    state.say("")
    state.handle(done)  # once
    assert state.message == ""


@pytest.mark.parametrize(("lang", "one"), [("en", "1 round ·"), ("de", "1 Runde ·")])
def test_an_open_swiss_of_one_round_says_round(lang: str, one: str) -> None:
    set_language(lang)
    try:
        state = shown_state()
        shown = state.tournaments.current
        assert shown is not None
        opened = attrs.evolve(shown.summary, status="open", rounds=1, round=0)
        state.handle(attrs.evolve(shown, summary=opened, rounds=[], standings=[]))
        text = render_lobby(state, 80, 23).text()
    finally:
        set_language("en")
    assert one in text, text


def test_a_round_paired_on_the_tournaments_screen_says_enter_goes_there() -> None:
    """On the tournament's screen, the round's note (which comes before the round's state)
    and the state that puts the cursor on the player's game: the message says Enter."""
    state = shown_state()  # NAMES[0]'s game of round 2 is on board 1, still played
    shown = state.tournaments.current
    assert shown is not None
    state.handle(attrs.evolve(shown, rounds=shown.rounds[:1]))  # round 1 shown, then:
    state.handle(PlayerNote("tournament_round", "77aa0b1e", NAMES[1]))
    assert "in the lobby" in state.message  # not yet on the screen
    state.handle(shown)  # round 2 paired
    assert state.message == (
        f"Your tournament game against {NAMES[1]} is ready at table 77aa0b1e: Enter goes there."
    )
    assert state.tournaments.selected_game() == shown.rounds[1].games[0]


def test_points_and_tie_breaks_say_their_halves_and_quarters() -> None:
    """A Sonneborn-Berger against a virtual opponent may be a quarter: said as one, as the page
    says it, not as a decimal beside the halves."""
    said = [points(v) for v in (0, 0.25, 0.5, 0.75, 1, 1.25, 2.5, 3.75)]
    assert said == ["0", "¼", "½", "¾", "1", "1¼", "2½", "3¾"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_moderators_keys_open_the_line_with_the_tournaments_id(lang: str) -> None:
    """C and H on a tournament shown to a moderator open the lobby's line with the command
    and the tournament's id, in the player's words; the line then reads them into `moderate`.
    Nobody else has the keys, nor a moderator on a tournament over."""
    from client.model.lobby_commands import read_lobby_line
    from client.screens.tournament_keys import moderate
    from client.screens.tournaments_screen import tournament_hints
    from protocol.moderation_messages import Moderate, Moderation

    set_language(lang)
    state = shown_state()
    opened: list[str] = []
    moderate(state, opened.append, "closetournament")
    assert not opened  # no moderator: nothing
    assert "C " not in tournament_hints(state)
    state.handle(Moderation([], [], [], [], []))
    hints = tournament_hints(state)
    assert "C " in hints and "H " in hints and len(" " + hints) <= 80, (lang, hints)
    moderate(state, opened.append, "closetournament")
    moderate(state, opened.append, "handtournament")
    close, hand = opened
    assert close.endswith(" 5c0ffee1 ") and hand.endswith(" 5c0ffee1 ")
    assert read_lobby_line(close + "an abusive name").messages == (
        Moderate("close_tournament", "5c0ffee1", "an abusive name"),
    )
    assert read_lobby_line(hand + "Bob its director left").messages == (
        Moderate("hand_tournament", "5c0ffee1", "its director left", name="Bob"),
    )
    assert read_lobby_line(hand + "Bob").refused  # a reason is needed
    current = state.tournaments.current
    assert current is not None
    over = attrs.evolve(current.summary, status="finished", closed=True)
    state.handle(attrs.evolve(current, summary=over))
    moderate(state, opened.append, "closetournament")
    assert len(opened) == 2 and state.message  # over: said, the line not opened
    assert "C " not in tournament_hints(state)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_tournament_ended_by_a_moderator_says_so_and_names_no_winner(lang: str) -> None:
    set_language(lang)
    state = shown_state()
    current = state.tournaments.current
    assert current is not None
    state.handle(PlayerNote("tournament_closed", None, current.summary.name))
    assert current.summary.name in state.message and state.accounts.attention
    ended = attrs.evolve(current.summary, status="finished", closed=True)
    state.handle(attrs.evolve(current, summary=ended))
    text = render_lobby(state, 80, 23).text()
    assert all(len(line) <= 80 for line in text.splitlines())
    from client.language.i18n import _
    from client.screens.tournaments_screen import result_words

    assert "A moderator" in state.message or lang != "en"
    assert _("ended by a moderator") in text
    (row,) = [line for line in text.splitlines() if "77aa0b1e" in line]  # the game under way
    assert result_words(current.rounds[-1].games[0], closed=True) in row  # abandoned
    assert result_words(current.rounds[-1].games[0]) not in row  # not "playing"
    assert NAMES[0] not in text.split("\n")[3]  # no winner named
    state.handle(PlayerNote("tournament_director", None, "Cup"))
    assert "Cup" in state.message


async def test_a_moderator_ends_a_tournament_from_its_screen(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    """End to end against a real server: Mira, a moderator, opens Ann's tournament under way,
    presses C, types the reason on the line it opened and Enter; Ann's client shows it ended by
    a moderator, its game abandoned, and Mira's log says it was done."""
    from server.core.names import name_key
    from server.core.store import ModeratorOp
    from server.storage.storage_open import open_storage
    from tests.client.test_app import Player

    db = str(tmp_path / "db.sqlite3")
    storage = open_storage(db)
    storage.write([ModeratorOp(name_key("Mira"), True, 1.0)])
    storage.close()
    server = await make_server(db=db, password_cost="test")
    async with (
        account_player(server, "Ann", tmp_path, True) as ann,
        account_player(server, "Bob", tmp_path, True) as bob,
        account_player(server, "Mira", tmp_path, True) as mira,
    ):
        ann.type(":")
        ann.line("tournament new Cup swiss 2 5+3")
        await until(lambda: ann.state.tournaments.current is not None, "Ann's tournament")
        bob.type("T")
        await until(lambda: bob.state.tournaments.listing, "the list")
        bob.type("\r")
        await until(lambda: bob.state.tournaments.current is not None, "shown")
        bob.type("j")
        ann.type("j")
        await until(
            lambda: (
                (shown := ann.state.tournaments.current) is not None and len(shown.players) == 2
            ),
            "two players",
        )
        ann.type("s")
        await until(lambda: ann.state.tournaments.shown_round() is not None, "round 1")
        await until(lambda: mira.state.accounts.moderation is not None, "Mira's panel")
        mira.type("T")
        await until(lambda: mira.state.tournaments.listing, "Mira's list")
        mira.type("\r")
        await until(lambda: mira.state.tournaments.current is not None, "Mira sees it")
        mira.type("C")
        await until(lambda: mira.client.ui.lobby.typing, "the line open")
        typed = mira.client.ui.lobby.buffer.text
        assert typed == f"closetournament {mira.state.tournaments.watching} "
        mira.line("an abusive name")
        await until(lambda: "Done, and in the log" in mira.state.message, "done")
        assert "ended the tournament" in mira.state.message
        for who in (ann, bob):

            def ended(who: Player = who) -> bool:
                seen = who.state.tournaments.current
                return seen is not None and seen.summary.closed

            await until(ended, "seen ended")
        shown = ann.state.tournaments.current
        assert shown is not None and shown.summary.status == "finished"
        (game,) = shown.rounds[0].games
        assert game.result is None  # abandoned: no result
        text = render_lobby(ann.state, 80, 23).text()
        assert "ended by a moderator" in text and "abandoned" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_open_round_robin_without_a_clock_says_so_in_its_facts(lang: str) -> None:
    """Its facts read "round-robin · ? rounds · none · rated": the rounds are the players'
    number, unknown while it is open, and "none" stood alone for the clock."""
    set_language(lang)
    state = shown_state()
    open_rr = attrs.evolve(summary("open"), format="round_robin", rounds=0, clock=None)
    state.tournaments.watching = "5c0ffee2"
    state.handle(TournamentState(open_rr, TableOptions(), None, [], [], []))
    facts = render_lobby(state, 80, 23).text().splitlines()[3]
    assert "?" not in facts and "·  ·" not in facts
    assert f" · {_('no clock')} · " in facts and f"· {_('none')} ·" not in facts
    assert facts.strip().startswith(_("round-robin") + " · ")


@pytest.mark.parametrize(
    ("lang", "head"),
    [("en", "Bh    SB   DE   W"), ("de", "Bh    SB   DV   S"), ("it", "Bh    SB   SD   V")],
)
def test_the_standings_tie_breaks_are_named_in_the_language(lang: str, head: str) -> None:
    """The standings' heads were "BH SB DE W" in every language, where the page says the
    German "DV" (direkter Vergleich) and "S" (Siege), the Italian "SD" and "V"."""
    set_language(lang)
    text = render_lobby(shown_state(), 80, 23).text()
    assert any(line.rstrip().endswith(head) for line in text.splitlines()), text
