"""The client's pure parts: the command line (checking and completion), the event log in words,
and how server messages change the client's state."""

from __future__ import annotations

import attrs
import pytest

from client.cli.options import build_parser
from client.cli.play import local_table, main, server_url
from client.language.eventlog import describe_events
from client.model.commands import CLIENT_WORDS, Candidate, complete, interpret
from client.model.state import ClientState
from client.screens.command_line import highlighted_lines
from protocol.fields import ChatEntry, PlayerInfo, Players
from protocol.messages import (
    ChatMessage,
    Error,
    Joined,
    PlayersChanged,
    Spectating,
    State,
    Update,
)
from shared.board import ISLAND_LINES, parse_island, parse_line
from shared.events import (
    BridgePlaced,
    BridgeRemoved,
    CardDrawn,
    Event,
    GameOver,
    TokenRemoved,
    TurnEnded,
)
from shared.game import Game
from shared.types import Seat
from shared.views import (
    SeatView,
    events_to_dicts,
    public_to_dict,
    seat_events,
    seat_view,
    seat_view_to_dict,
    spectator_view,
)
from tests.positions import game


def position() -> Game:
    return game(
        white="ALOA-BARI",
        black="ELAI-HUNA",
        white_hand="BARI ELAI HUNA",
        black_hand="COCO",
        face_up="COCO DUDA FAAA",
    )


def white_view() -> SeatView:
    return seat_view(position(), Seat.WHITE)


def test_a_legal_command_is_sent_in_notation() -> None:
    view = white_view()
    out = interpret("  Place bari-duda ", view, view.public)
    assert out.kind == "action" and out.text == "place BARI-DUDA"
    out = interpret("remove ELAI-HUNA HUNA+ELAI", view, view.public)
    assert out.kind == "action" and out.text == "remove ELAI-HUNA ELAI+HUNA"
    assert interpret("take DUDA", view, view.public).text == "take DUDA"


def test_an_illegal_command_says_why() -> None:
    view = white_view()
    out = interpret("place COCO-BARI", view, view.public)
    assert out.kind == "refused" and out.text == "you have no COCO card"
    out = interpret("place BARI-ALOA", view, view.public)
    assert out.kind == "refused" and "already has a bridge" in out.text
    out = interpret("take GOLA", view, view.public)
    assert out.kind == "refused" and "no face-up GOLA" in out.text
    out = interpret("end", view, view.public)
    assert out.kind == "refused" and "a turn ends by drawing" in out.text
    out = interpret("plase BARI-DUDA", view, view.public)
    assert out.kind == "refused" and "unknown command" in out.text
    out = interpret("place BARI-LALE", view, view.public)
    assert out.kind == "refused" and "not connected" in out.text


def test_not_your_turn_and_spectators() -> None:
    g = position()
    black = seat_view(g, Seat.BLACK)
    out = interpret("discard COCO", black, black.public)
    assert out.kind == "refused" and out.text == "it is not your turn: White is to move"
    public = spectator_view(g)
    out = interpret("draw", None, public)
    assert out.kind == "refused" and "watching" in out.text


def test_client_words() -> None:
    view = white_view()
    assert interpret("say hello there", view, view.public).text == "hello there"
    assert interpret("'hi", view, view.public).kind == "chat"
    assert interpret("help", view, view.public).kind == "help"
    assert interpret("save game.txt", view, view.public).text == "game.txt"
    assert interpret("lobby", view, view.public).kind == "lobby"
    assert interpret("quit", view, view.public).kind == "quit"
    assert interpret("", view, view.public).kind == "none"


def words(candidates: list[Candidate]) -> list[str]:
    return [c.text for c in candidates]


def test_completion_offers_only_legal_commands_on_your_turn() -> None:
    view = white_view()
    verbs = words(complete("", view))
    assert set(verbs) == {"place", "remove", "discard", "take", "draw", "abstain"} | set(
        CLIENT_WORDS
    )
    assert "end" not in verbs and "handicap" not in verbs
    assert words(complete("t", view)) == ["take"]
    assert sorted(words(complete("take ", view))) == ["COCO", "DUDA", "FAAA"]
    placed = words(complete("place ", view))
    assert "BARI-DUDA" in placed and "ELAI-IFFI" in placed
    assert "BARI-ALOA" not in placed  # White's own bridge is there
    assert "COCO-BARI" not in placed  # no COCO card
    assert words(complete("place HU", view)) == ["HUNA-ALOA", "HUNA-DUDA", "HUNA-IFFI", "HUNA-LALE"]
    assert words(complete("remove ", view)) == ["ELAI-HUNA"]
    assert words(complete("remove ELAI-HUNA ", view)) == ["ELAI+HUNA"]
    cand = complete("place HUNA-L", view)[0]
    assert cand.text == "HUNA-LALE" and cand.start == -len("HUNA-L")


def test_completion_when_it_is_not_your_turn() -> None:
    black = seat_view(position(), Seat.BLACK)
    # out of turn Tab offers no game command (none can be played), only the client's words
    assert words(complete("p", black)) == []
    assert words(complete("", black)) == list(CLIENT_WORDS)
    assert words(complete("discard C", black)) == ["COCO"]
    assert "KAHU-LALE" in words(complete("place KAHU-", black))
    assert "say" in words(complete("s", None))


def test_events_are_told_with_their_consequences() -> None:
    events: list[Event] = [
        BridgeRemoved(Seat.WHITE, 13, (3, 7)),
        TokenRemoved(Seat.WHITE, 3),
        CardDrawn(Seat.BLACK, None),
        TurnEnded(Seat.BLACK, Seat.WHITE),
    ]
    lines = describe_events(events_to_dicts(events))
    assert lines == [
        "Black removed White's bridge ELAI-HUNA with DUDA+HUNA; White lost DUDA;"
        " Black drew a card from the pile; White to move"
    ]
    over = describe_events(
        events_to_dicts(
            [BridgePlaced(Seat.WHITE, 0, 0), GameOver(Seat.WHITE, "more points", (4, 2))]
        )
    )
    assert over == [
        "White placed a bridge on ALOA-BARI with ALOA",
        "Game over, White wins (more points); White 4, Black 2",
    ]


def test_hidden_cards_stay_hidden_in_the_log() -> None:
    events = seat_events([CardDrawn(Seat.BLACK, 4)], Seat.WHITE)
    assert describe_events(events_to_dicts(events)) == ["Black drew a card from the pile"]
    mine = seat_events([CardDrawn(Seat.WHITE, 4)], Seat.WHITE)
    assert describe_events(events_to_dicts(mine)) == ["White drew ELAI from the pile"]


def players(connected: bool = True) -> Players:
    return Players(PlayerInfo("Ann", connected, False), PlayerInfo("Bob", True, False))


def test_state_follows_the_server() -> None:
    g = position()
    state = ClientState(name="Ann")
    state.handle(Joined("t1", "white", "secret"))
    assert state.screen == "game" and state.table_id == "t1" and state.token == "secret"
    view = seat_view_to_dict(seat_view(g, Seat.WHITE))
    state.handle(State("t1", 3, "white", "playing", view, players(), [ChatEntry("Bob", "hi")]))
    assert state.version == 3 and state.seat is Seat.WHITE
    assert state.seat_view is not None and len(state.seat_view.hand) == 3
    assert state.message.startswith("Your turn: play cards (Tab lists them)")
    assert any(line.text == "<Bob> hi" for line in state.log)
    events = g.apply(g.legal_actions()[0])
    state.pending = "x"
    update = Update(
        "t1",
        4,
        events_to_dicts(seat_events(events, Seat.WHITE)),
        seat_view_to_dict(seat_view(g, Seat.WHITE)),
    )
    state.handle(update)
    assert state.version == 4 and state.pending is None
    assert state.log[-1].text.startswith("White placed a bridge")
    state.handle(PlayersChanged("t1", "playing", players(connected=True)))
    state.handle(
        PlayersChanged(
            "t1",
            "playing",
            Players(PlayerInfo("Ann", True, False), PlayerInfo("Bob", False, False)),
        )
    )
    assert state.log[-1].text == "Bob (Black) is away; the game waits for them"
    state.handle(ChatMessage("t1", "Bob", "brb"))
    assert state.log[-1].text == "<Bob> brb" and state.log[-1].kind == "chat"
    state.handle(Error("illegal_action", "no", "t1", None, "command"))
    assert state.message_kind == "error" and "no" in state.message


def test_a_skipped_version_asks_for_a_resync_and_the_opponents_lines_are_marked() -> None:
    g = position()
    state = ClientState(name="Ann")
    state.handle(Joined("t1", "black", "secret"))
    view = seat_view_to_dict(seat_view(g, Seat.BLACK))
    state.handle(State("t1", 0, "black", "playing", view, players(), []))
    action = next(a for a in g.legal_actions() if str(a).startswith("place"))
    events = g.apply(action)
    update = Update(
        "t1",
        1,
        events_to_dicts(seat_events(events, Seat.BLACK)),
        seat_view_to_dict(seat_view(g, Seat.BLACK)),
    )
    state.handle(update)
    assert not state.needs_resync
    assert state.recent_lines == {action.line}  # type: ignore[union-attr]
    state.handle(attrs.evolve(update, version=3))
    assert state.needs_resync


def test_the_lines_a_command_names_are_highlighted() -> None:
    assert highlighted_lines("place BARI-DUDA") == [parse_line("BARI-DUDA")]
    assert sorted(highlighted_lines("place COCO")) == sorted(ISLAND_LINES[parse_island("COCO")])
    assert sorted(highlighted_lines("place COCO-")) == sorted(ISLAND_LINES[parse_island("COCO")])
    assert highlighted_lines("draw") == [] and highlighted_lines("place XY") == []


def test_server_addresses_and_options() -> None:
    assert server_url(None) == "ws://127.0.0.1:8765"
    assert server_url("example.org") == "ws://example.org:8765"
    assert server_url("example.org:9000") == "ws://example.org:9000"
    assert server_url("wss://example.org/k") == "wss://example.org/k"
    assert server_url("[::1]:9000") == "ws://[::1]:9000"
    args = build_parser().parse_args(["--local", "--handicap", "black:2", "--variant1"])
    table = local_table(args)
    assert table.vs_computer and table.seat == "white"
    assert table.options.handicap_seat == "black" and table.options.handicap_bridges == 2
    assert table.options.variant1 and not table.options.variant2


def test_help_explains_the_client(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for part in ("--local", "--spectate", "--name", "SERVER", "F2 draws"):
        assert part in out


def test_a_player_who_comes_to_a_fresh_game_sits_down_and_is_not_back() -> None:
    """Bob accepts Ann's challenge: the table is made with both seats, Bob's client there
    first, Ann's a moment later. Bob's log said "Ann (White) is back", of a player who had not
    been there; she sits down. Away and back later, she is back; and one seen away in a game
    under way (a spectator's arrival) may have been there before: back, as before."""
    g = position()
    state = ClientState(name="Bob")
    state.handle(Joined("t1", "black", "secret"))
    view = seat_view_to_dict(seat_view(g, Seat.BLACK))
    state.handle(State("t1", 0, "black", "playing", view, players(connected=False), []))
    state.handle(PlayersChanged("t1", "playing", players(connected=True)))
    assert state.log[-1].text == "Ann sat down as White"
    state.handle(PlayersChanged("t1", "playing", players(connected=False)))
    state.handle(PlayersChanged("t1", "playing", players(connected=True)))
    assert state.log[-1].text == "Ann (White) is back"
    watcher = ClientState(name="Cid")
    watcher.handle(Spectating("t1"))
    public = public_to_dict(spectator_view(g))
    watcher.handle(State("t1", 5, "spectator", "playing", public, players(connected=False), []))
    watcher.handle(PlayersChanged("t1", "playing", players(connected=True)))
    assert watcher.log[-1].text == "Ann (White) is back"
