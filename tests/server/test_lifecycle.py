"""The life of a game around its moves, in the sans-I/O core (protocol version 2): resign, draw
offers, forfeit claims, clocks, undo, rematch, spectators' chat. Time is a number passed in."""

from __future__ import annotations

from typing import Any

import msgpack

from protocol.codec import encode
from protocol.fields import TableOptions, TimeControl
from protocol.messages import (
    Chat,
    ChatMessage,
    Claim,
    Command,
    CreateTable,
    DeclineDraw,
    Error,
    Hello,
    Join,
    Joined,
    Leave,
    OfferDraw,
    PlayersChanged,
    Reclaim,
    Rematch,
    Resign,
    Resync,
    Spectate,
    Spectating,
    State,
    TableNote,
    Update,
)
from protocol.player_messages import Watchers
from server.core.store import FinishOp, TableStateOp
from server.storage.sqlite_store import SqliteStorage
from shared.types import Seat
from tests.server.test_core import WALL, Duo, Harness, codes, of, the


def result_of(h: Harness, table_id: str) -> tuple[Seat | None, str] | None:
    result = h.table(table_id).game.result
    return None if result is None else (result.winner, result.kind.value)


def clocked(h: Harness, control: TimeControl) -> Duo:
    white, black = h.player("Ana"), h.player("Bo")
    create = CreateTable(TableOptions(), False, "white", "white", control)
    joined = the(h.send(white, create), white, Joined)
    joined_black = the(h.send(black, Join(joined.table_id, "black")), black, Joined)
    return Duo(white, black, joined.table_id, joined.token, joined_black.token)


# ----- resign and draws -------------------------------------------------------------------------


def test_a_player_resigns_at_any_moment_and_the_other_wins() -> None:
    h = Harness()
    duo = h.duo(white_version=2, black_version=1)
    h.act(duo.white, duo.table_id, "draw")  # black is to move; white resigns anyway
    effects = h.send(duo.white, Resign(duo.table_id))
    assert result_of(h, duo.table_id) == (Seat.BLACK, "resigned")
    assert writes_of_kind(effects, FinishOp)
    mine = the(effects, duo.white, Update)
    assert mine.events[-1]["kind"] == "resigned"
    assert mine.view["public"]["result"] == {"winner": "black", "kind": "resigned"}
    theirs = msgpack.unpackb(encode(the(effects, duo.black, Update), 1))
    assert theirs["view"]["public"]["result"] == {"winner": "black", "reason": "White resigned"}
    # a version-1 client has no resign (and reads the result as an English reason)
    refused = h.raw(duo.black, encode(Resign(duo.table_id), 2))
    assert codes(refused, duo.black) == ["unknown_type"]
    assert codes(h.send(duo.white, Resign(duo.table_id)), duo.white) == ["game_over"]


def writes_of_kind(effects: Any, kind: type[Any]) -> list[Any]:
    return [op for op in effects.writes if isinstance(op, kind)]


def test_a_draw_offered_and_declined_then_offered_and_accepted() -> None:
    h = Harness()
    duo = h.duo()
    offered = h.send(duo.white, OfferDraw(duo.table_id))
    for member in (duo.white, duo.black):
        assert the(offered, member, TableNote) == TableNote(
            duo.table_id, "draw_offered", "white", None
        )
    assert codes(h.send(duo.white, OfferDraw(duo.table_id)), duo.white) == ["no_offer"]
    declined = h.send(duo.black, DeclineDraw(duo.table_id))
    assert the(declined, duo.white, TableNote).note == "draw_declined"
    assert codes(h.send(duo.black, DeclineDraw(duo.table_id)), duo.black) == ["no_offer"]
    h.send(duo.black, OfferDraw(duo.table_id))
    agreed = h.send(duo.white, OfferDraw(duo.table_id))  # the other side's offer: accepted
    assert result_of(h, duo.table_id) == (None, "agreed")
    assert the(agreed, duo.black, Update).view["public"]["result"]["kind"] == "agreed"


def test_playing_on_declines_a_draw_offer() -> None:
    h = Harness()
    duo = h.duo()
    h.send(duo.black, OfferDraw(duo.table_id))
    assert h.table(duo.table_id).draw_offer is Seat.BLACK
    effects = h.act(duo.white, duo.table_id, "draw")
    assert the(effects, duo.black, TableNote).note == "draw_declined"
    assert h.table(duo.table_id).draw_offer is None
    assert the(effects, duo.black, Update).view["table"]["draw_offer"] is None


def test_the_computer_declines_a_draw() -> None:
    h = Harness()
    ana = h.player()
    _, table_id, _ = h.create(ana, vs_computer=True)
    effects = h.send(ana, OfferDraw(table_id))
    assert the(effects, ana, TableNote) == TableNote(table_id, "draw_declined", "black", None)
    assert h.table(table_id).draw_offer is None and not h.table(table_id).game.is_over


# ----- claims ------------------------------------------------------------------------------------


def test_a_gone_opponent_can_be_claimed_against_after_claim_after() -> None:
    h = Harness(claim_after=120.0, abandon_timeout=600.0)
    duo = h.duo()
    h.now = 10.0
    h.disconnect(duo.black)
    early = h.send(duo.white, Claim(duo.table_id))
    assert codes(early, duo.white) == ["cannot_claim"] and not early.writes
    refusal = of(early, duo.white, Error)[0]  # a code and its parameters, for any language
    assert (refusal.reason, refusal.params) == ("claim_wait", {"seconds": "120"})
    assert not of(h.advance(129.9), duo.white, TableNote)
    note = the(h.advance(130.0), duo.white, TableNote)
    assert note == TableNote(duo.table_id, "claim_available", "white", None)
    h.send(duo.white, Claim(duo.table_id))
    assert result_of(h, duo.table_id) == (Seat.WHITE, "forfeit")


def test_without_a_clock_an_idle_opponent_can_be_claimed_against() -> None:
    h = Harness(move_timeout=1800.0, sweep_interval=60.0)
    duo = h.duo()
    h.act(duo.white, duo.table_id, "draw")  # black to move, connected, and idle
    assert codes(h.send(duo.white, Claim(duo.table_id)), duo.white) == ["cannot_claim"]
    assert codes(h.send(duo.black, Claim(duo.table_id)), duo.black) == ["cannot_claim"]
    note = the(h.advance(1800.0), duo.white, TableNote)
    assert note.note == "claim_available" and note.seat == "white"
    assert codes(h.send(duo.black, Claim(duo.table_id)), duo.black) == ["cannot_claim"]
    h.send(duo.white, Claim(duo.table_id))
    assert result_of(h, duo.table_id) == (Seat.WHITE, "forfeit")


# ----- clocks ------------------------------------------------------------------------------------


def test_every_view_carries_both_clocks_and_a_turn_charges_its_player() -> None:
    h = Harness()
    duo = clocked(h, TimeControl(60, 5, 0))
    h.now = 12.0
    effects = h.act(duo.white, duo.table_id, "draw")
    clock = the(effects, duo.black, Update).view["table"]["clock"]
    assert clock == {
        "white": 53_000, "black": 60_000, "running": "black",
        "initial": 60, "increment": 5, "per_turn": 0,
    }  # fmt: skip
    h.now = 20.0
    state = the(h.send(duo.white, Resync(duo.table_id)), duo.white, State)
    assert state.view["table"]["clock"]["black"] == 52_000


def test_a_player_whose_time_runs_out_loses() -> None:
    h = Harness()
    duo = clocked(h, TimeControl(30, 0, 0))
    h.now = 5.0
    h.act(duo.white, duo.table_id, "draw")  # white has 25 s left; black's 30 s run from 5.0
    assert not h.advance(34.9).writes
    flagged = h.advance(35.0)
    assert result_of(h, duo.table_id) == (Seat.WHITE, "time")
    assert the(flagged, duo.white, Update).events[-1]["kind"] == "time"
    assert writes_of_kind(flagged, FinishOp)


def test_a_command_after_the_flag_fell_loses_instead_of_playing() -> None:
    h = Harness(sweep_interval=1000.0)
    duo = clocked(h, TimeControl(0, 0, 10))  # ten seconds a turn
    table = h.table(duo.table_id)
    h.now = 10.5  # the timer has not fired yet
    effects = h.send(duo.white, Command(duo.table_id, table.version, "draw"))
    assert codes(effects, duo.white) == ["game_over"]
    assert result_of(h, duo.table_id) == (Seat.BLACK, "time")


def test_after_the_flag_fell_either_player_ends_the_game_and_a_spectator_changes_nothing() -> None:
    """The table checks who may act before the clock: a spectator is refused as one; a
    player's command, whoever's turn it is, ends the game on time first."""
    h = Harness(sweep_interval=1000.0)
    duo = clocked(h, TimeControl(0, 0, 10))
    table = h.table(duo.table_id)
    lou = h.player("Lou")
    h.send(lou, Spectate(duo.table_id))
    h.now = 10.5  # white's ten seconds are gone; the timer has not fired yet
    effects = h.send(lou, Command(duo.table_id, table.version, "draw"))
    assert codes(effects, lou) == ["spectator_cannot_act"] and not effects.writes
    effects = h.send(duo.black, Command(duo.table_id, table.version, "draw"))  # not its turn
    assert codes(effects, duo.black) == ["game_over"]
    assert result_of(h, duo.table_id) == (Seat.BLACK, "time")


def test_a_turn_limit_starts_afresh_every_turn() -> None:
    h = Harness()
    duo = clocked(h, TimeControl(0, 0, 10))
    h.now = 9.0
    h.act(duo.white, duo.table_id, "draw")
    h.now = 18.0
    h.act(duo.black, duo.table_id, "draw")
    assert h.table(duo.table_id).clock is not None
    assert not h.table(duo.table_id).game.is_over
    assert h.table(duo.table_id).clock.left_at(Seat.WHITE, 18.0) == 10.0  # type: ignore[union-attr]


def test_clocks_survive_a_restart_and_the_time_down_is_charged_to_nobody() -> None:
    old = Harness()
    duo = clocked(old, TimeControl(60, 0, 0))
    old.now = 10.0
    old.act(duo.white, duo.table_id, "draw")  # black's clock runs from 10.0 with 60 s
    old.now = 25.0
    old.send(duo.black, Chat(duo.table_id, "thinking"))
    stored_states = [op for batch in old.batches for op in batch if isinstance(op, TableStateOp)]
    assert stored_states[-1].state["clock"]["left"] == [50.0, 60.0]
    storage = SqliteStorage(":memory:")
    for batch in old.batches:
        storage.write(batch)
    new = Harness(now=5000.0)
    new.took(new.core.restore(storage.load_open_tables(50), storage.table_ids(), 5000.0, WALL))
    clock = new.table(duo.table_id).clock
    assert clock is not None and clock.running is Seat.BLACK
    assert clock.left_at(Seat.BLACK, 5030.0) == 30.0  # 60 s from the restart, not from 10.0
    new.advance(5059.0)
    assert not new.table(duo.table_id).game.is_over
    new.advance(5061.0)
    assert result_of(new, duo.table_id) == (Seat.WHITE, "time")


def test_a_bad_time_control_is_refused() -> None:
    h = Harness()
    ana = h.player()
    create = CreateTable(TableOptions(), False, "white", "white", TimeControl(5, 0, 0))
    assert codes(h.send(ana, create), ana) == ["bad_options"]


# ----- undo -------------------------------------------------------------------------------------


def test_undo_is_a_version_2_command() -> None:
    h = Harness()
    duo = h.duo(white_version=1, black_version=2)
    table = h.table(duo.table_id)
    hand = table.game.hand_counts(Seat.WHITE)
    card = next(i for i, n in enumerate(hand) if n)
    from shared.board import ISLANDS

    h.act(duo.white, duo.table_id, f"discard {ISLANDS[card]}")
    refused = h.send(duo.white, Command(duo.table_id, table.version, "undo"))
    assert codes(refused, duo.white) == ["bad_notation"]
    h.act(duo.white, duo.table_id, "draw")
    black_hand = table.game.hand_counts(Seat.BLACK)
    h.act(duo.black, duo.table_id, f"discard {ISLANDS[black_hand.index(max(black_hand))]}")
    before = table.game.hand_counts(Seat.BLACK)
    effects = h.act(duo.black, duo.table_id, "undo")
    assert table.game.hand_counts(Seat.BLACK) != before
    update = the(effects, duo.white, Update)  # to a version-1 player, whose codec...
    assert update.events[0]["type"] == "PlayUndone"
    wire = msgpack.unpackb(encode(update, 1))  # ...leaves out what version 1 does not know
    assert all(event["type"] != "PlayUndone" for event in wire["events"])
    assert "undoable" not in wire["view"]["public"]


# ----- rematch ----------------------------------------------------------------------------------


def test_a_rematch_swaps_colours_with_new_tokens_and_takes_the_spectators_along() -> None:
    h = Harness()
    duo = h.duo()
    watcher = h.player("Cy")
    h.send(watcher, Spectate(duo.table_id))
    assert codes(h.send(duo.white, Rematch(duo.table_id)), duo.white) == ["game_not_over"]
    h.send(duo.white, Resign(duo.table_id))
    offered = h.send(duo.black, Rematch(duo.table_id))
    assert the(offered, duo.white, TableNote).note == "rematch_offered"
    started = h.send(duo.white, Rematch(duo.table_id))
    note = the(started, watcher, TableNote)
    assert note.note == "rematch_started" and note.detail is not None
    new_id = note.detail
    white_joined = the(started, duo.white, Joined)
    black_joined = the(started, duo.black, Joined)
    assert (white_joined.table_id, white_joined.seat) == (new_id, "black")
    assert (black_joined.table_id, black_joined.seat) == (new_id, "white")
    assert white_joined.token not in (duo.white_token, duo.black_token)
    assert the(started, watcher, Spectating).table_id == new_id
    new = h.table(new_id)
    assert new.status == "playing" and new.game.first_player is Seat.WHITE
    assert the(started, duo.white, State).view["table"]["rematch_table"] is None
    assert codes(h.send(duo.white, Rematch(duo.table_id)), duo.white) == ["no_offer"]
    # the spectator watches the new game alone: counted there, not at the old table too
    assert list(new.spectators.values()) == ["Cy"] and h.table(duo.table_id).spectators == {}
    listed = {t.table_id: t.spectators for t in h.core.lobby.listing().tables}
    assert listed[new_id] == 1 and listed[duo.table_id] == 0


def test_a_rematch_against_the_computer_starts_at_once() -> None:
    h = Harness()
    ana = h.player()
    _, table_id, _ = h.create(ana, vs_computer=True)
    h.send(ana, Resign(table_id))
    started = h.send(ana, Rematch(table_id))
    joined = the(started, ana, Joined)
    assert joined.seat == "black" and h.table(joined.table_id).vs_computer


def test_version_3_members_hear_who_watches() -> None:
    """Players and spectators of version 3 are told who watches, as at a real table; a version-2
    player is not (the message came with version 3)."""
    h = Harness()
    duo = h.duo(white_version=3, black_version=2)
    cy, dee = h.player("Cy", 3), h.player("Dee", 2)
    came = h.send(cy, Spectate(duo.table_id))
    assert the(came, duo.white, Watchers) == Watchers(duo.table_id, ["Cy"])
    assert the(came, cy, Watchers).names == ["Cy"]
    assert of(came, duo.black, Watchers) == []
    second = h.send(dee, Spectate(duo.table_id))
    assert the(second, duo.white, Watchers).names == ["Cy", "Dee"]
    assert of(second, dee, Watchers) == []
    gone = h.send(cy, Leave(duo.table_id))
    assert the(gone, duo.white, Watchers).names == ["Dee"]
    # one who comes back to the table hears who watches, even though nothing changed
    h.disconnect(duo.white)
    ana = h.player("Ana", 3)
    back = h.send(ana, Reclaim(duo.table_id, duo.white_token))
    assert the(back, ana, Watchers).names == ["Dee"]


# ----- chat -------------------------------------------------------------------------------------


def test_spectators_chat_among_themselves_until_the_game_is_over() -> None:
    h = Harness()
    duo = h.duo()
    watcher = h.player("Cy")
    h.send(watcher, Spectate(duo.table_id))
    said = h.send(watcher, Chat(duo.table_id, "white should resign"))
    assert of(said, watcher, ChatMessage) == [
        ChatMessage(duo.table_id, "Cy", "white should resign", "spectator")
    ]
    assert not of(said, duo.white, ChatMessage) and not of(said, duo.black, ChatMessage)
    h.send(duo.white, Resign(duo.table_id))
    state = the(h.send(duo.white, Resync(duo.table_id)), duo.white, State)
    assert [entry.text for entry in state.chat] == ["white should resign"]


def test_nobody_else_writes_in_a_players_name() -> None:
    h = Harness()
    duo = h.duo()
    impostor = h.connect()
    h.send(impostor, Hello(2, "Ana"))
    h.send(impostor, Spectate(duo.table_id))
    said = h.send(impostor, Chat(duo.table_id, "I resign"))
    message = the(said, impostor, ChatMessage)
    assert message.sender == "Ana (2)" and message.role == "spectator"


def test_against_the_computer_the_first_turn_has_its_clock() -> None:
    h = Harness()
    ana = h.player()
    create = CreateTable(TableOptions(), True, "white", "white", TimeControl(0, 0, 10), "easy")
    effects = h.send(ana, create)
    clock = the(effects, ana, State).view["table"]["clock"]
    assert clock["running"] == "white" and clock["white"] == 10_000
    table_id = the(effects, ana, Joined).table_id
    h.advance(10.0)
    assert result_of(h, table_id) == (Seat.BLACK, "time")


def test_the_clocks_start_when_the_opponent_sits_down() -> None:
    h = Harness()
    white, black = h.player("Ana"), h.player("Bo")
    create = CreateTable(TableOptions(), False, "white", "white", TimeControl(60, 0, 0))
    created = h.send(white, create)
    assert the(created, white, State).view["table"]["clock"]["running"] is None
    table_id = the(created, white, Joined).table_id
    h.now = 3.0
    joined = h.send(black, Join(table_id, "black"))
    assert the(joined, white, PlayersChanged).status == "playing"  # the creator's cue
    assert the(joined, black, State).view["table"]["clock"]["running"] == "white"
    h.now = 10.0
    state = the(h.send(white, Resync(table_id)), white, State)
    assert state.view["table"]["clock"]["white"] == 53_000


def test_an_illegal_action_is_refused_with_a_code_and_its_parameters() -> None:
    """Version 2 gets why as a code (clients make the sentence in their language); version 1
    keeps the English message alone."""
    from protocol.messages import Error
    from shared.board import ISLANDS

    h = Harness()
    duo = h.duo(white_version=2, black_version=1)
    table = h.table(duo.table_id)
    missing = next(i for i, n in enumerate(table.game.hand_counts(Seat.WHITE)) if not n)
    name = ISLANDS[missing]
    effects = h.send(duo.white, Command(duo.table_id, 0, f"discard {name}"))
    error = the(effects, duo.white, Error)
    assert (error.code, error.reason, error.params) == (
        "illegal_action",
        "no_such_card",
        {"card": name},
    )
    assert error.message == f"you have no {name} card"
    h.act(duo.white, duo.table_id, "draw")
    black_missing = next(i for i, n in enumerate(table.game.hand_counts(Seat.BLACK)) if not n)
    refused = h.send(duo.black, Command(duo.table_id, 1, f"discard {ISLANDS[black_missing]}"))
    wire = msgpack.unpackb(encode(the(refused, duo.black, Error), 1))
    assert "reason" not in wire and "params" not in wire
    assert wire["message"] == f"you have no {ISLANDS[black_missing]} card"


def test_the_sweep_passes_over_only_tables_where_nothing_can_be_due() -> None:
    """Table.settled: both players present and the game on, the sweep's one quick look."""
    h = Harness()
    ana = h.player("Ana")
    _, waiting_id, _ = h.create(ana)
    assert not h.table(waiting_id).settled()  # a seat nobody holds: its grace may run out
    duo = h.duo()
    table = h.table(duo.table_id)
    assert table.settled()
    h.disconnect(duo.black)
    assert not table.settled()  # gone: its abandonment clock runs
    computer = h.player("Cy")
    _, solo_id, _ = h.create(computer, vs_computer=True)
    assert h.table(solo_id).settled()
    finished = h.duo()
    h.play_out(finished)
    assert not h.table(finished.table_id).settled()  # over: it lingers, then closes
