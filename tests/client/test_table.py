"""The client's half of a game's whole life (protocol version 2), headless against a real server
on 127.0.0.1: resigning, draws, undo, clocks, claims, rematches, spectators' chat, hints."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from client.model.state import ClientState
from client.screens.render import render_game
from protocol.fields import TimeControl
from server.net.app import KahunaServer
from shared.types import Seat, Termination
from tests.client.test_app import Player, a_place, new_table, player, until
from tests.conftest import ServerFactory


def log_texts(p: Player | ClientState) -> list[str]:
    state = p.state if isinstance(p, Player) else p
    return [entry.text for entry in state.log]


def screen(p: Player) -> str:
    return render_game(p.state, 100, 30).text()


@contextlib.asynccontextmanager
async def two_players(
    server: KahunaServer, clock: TimeControl | None = None, hints: bool = True
) -> AsyncIterator[tuple[Player, Player]]:
    """Ann (White, first to move) and Bob (Black) at a table for two people."""
    async with player(server, "Ann") as ann, player(server, "Bob") as bob:
        ann.state.form.vs_computer = False
        ann.state.form.clock = clock
        ann.state.form.hints = hints
        await new_table(ann, "\r")
        await until(lambda: len(bob.state.tables) == 1, "the table in Bob's lobby")
        bob.type("b")
        await until(lambda: ann.state.message.startswith("Your turn"), "Ann's turn")
        await until(lambda: bob.state.table_status == "playing", "Bob's game")
        yield ann, bob


def ended(p: Player) -> Termination | None:
    pub = p.state.public
    return None if pub is None or pub.result is None else pub.result.kind


async def test_resign_asks_first(server: KahunaServer) -> None:
    async with two_players(server) as (ann, bob):
        ann.line("resign")
        await until(lambda: ann.state.resign_armed, "the question")
        assert "Resign and lose this game?" in ann.state.message
        ann.line("no")  # plays on
        await until(lambda: not ann.state.resign_armed, "the answer")
        assert "not resigned" in ann.state.message
        await asyncio.sleep(0.1)
        assert ended(ann) is None
        ann.line("resign")
        await until(lambda: ann.state.resign_armed, "the question again")
        ann.line("yes")
        await until(lambda: ended(bob) is Termination.RESIGNED, "the resignation")
        assert "Ann (White) resigned." in screen(bob) and "Black (Bob) wins" in screen(bob)
        assert any("Game over, Black wins (White resigned)" in t for t in log_texts(ann))
        # the game over: resigning again is refused here, not sent
        ann.line("resign")
        await until(lambda: "Not sent: the game is over" in ann.state.message, "the refusal")


async def test_a_draw_offered_declined_then_accepted(server: KahunaServer) -> None:
    async with two_players(server) as (ann, bob):
        bob.line("accept")  # nothing offered: refused before sending
        await until(lambda: "offered nothing" in bob.state.message, "the refusal")
        bob.type("\x03")
        ann.line("offer draw")
        await until(lambda: "Ann offers a draw: accept or decline" in log_texts(bob), "the offer")
        assert bob.state.message == "Ann offers a draw: accept or decline."
        ann.line("offer draw")  # one's own offer stands already
        await until(lambda: "offer stands already" in ann.state.message, "the refusal")
        ann.type("\x03")
        bob.line("decline")
        await until(lambda: "Bob declined the draw" in log_texts(ann), "the decline")
        assert ann.state.table is not None and ann.state.table.draw_offer is None
        # 'draw' alone is still the draw from the pile
        ann.line("draw")
        await until(lambda: bob.state.message.startswith("Your turn"), "Bob's turn")
        bob.line("offer draw")
        await until(lambda: "Bob offers a draw: accept or decline" in log_texts(ann), "offer 2")
        ann.line("accept")
        await until(lambda: ended(bob) is Termination.AGREED, "the agreed draw")
        assert "The players agreed a draw." in screen(ann)


async def test_undo_a_play_and_a_whole_turn(server: KahunaServer) -> None:
    async with two_players(server) as (ann, bob):
        bob.line("undo")  # not his turn
        await until(lambda: "not your turn" in bob.state.message, "Bob's refusal")
        ann.line("undo")  # nothing played yet
        await until(lambda: "nothing to take back" in ann.state.message, "Ann's refusal")
        ann.type("\x03")
        first = a_place(ann)
        ann.line(first)
        await until(lambda: ann.state.public is not None and ann.state.public.undoable == 1, "1")
        ann.pipe.send_bytes(b"\x1b[19~")  # F8: undo
        await until(lambda: f"White took back {first}" in log_texts(bob), "the undo")
        assert ann.state.public is not None and ann.state.public.undoable == 0
        ann.line(first)
        await until(lambda: ann.state.public is not None and ann.state.public.undoable == 1, "p1")
        second = a_place(ann)
        ann.line(second)
        await until(lambda: ann.state.public is not None and ann.state.public.undoable == 2, "p2")
        bridges = ann.state.public.bridges[Seat.WHITE]
        ann.line("undo turn")
        await until(lambda: ann.state.public is not None and ann.state.public.undoable == 0, "u")
        assert ann.state.public.bridges[Seat.WHITE] != bridges
        assert ann.state.public.bridges[Seat.WHITE] == 0
        told = log_texts(bob)
        assert f"White took back {second}; White took back {first}" in told


async def test_the_clocks_count_down_and_a_game_is_lost_on_time(server: KahunaServer) -> None:
    async with two_players(server, clock=TimeControl(0, 0, 5)) as (ann, bob):
        # the clocks count down on the screen from the time the view came, by the client's clock
        now = [0.0]
        ann.state.clock_source = lambda: now[0]
        ann.state.table_at = 0.0
        assert ann.state.table is not None and ann.state.table.clock is not None
        assert ann.state.table.clock.running is Seat.WHITE
        text = screen(ann)
        assert "Clock ○▶0:05! (5 s per turn)" in text  # under 30 s: the warning mark
        now[0] = 2.2
        assert "Clock ○▶0:03! (5 s per turn)" in screen(ann)
        now[0] = 9.0
        assert "○▶0:00!" in screen(ann)  # the client never ends the game: the server does
        assert ended(ann) is None
        # the server's time runs on past the end of White's turn: it ends the game
        loop = asyncio.get_running_loop()
        server._now = lambda: loop.time() + 6.0  # type: ignore[method-assign]
        server._on_timer()
        await until(lambda: ended(bob) is Termination.TIME, "the flag")
        assert "Ann (White) ran out of time." in screen(bob)


async def test_claim_against_an_opponent_who_went_away(make_server: ServerFactory) -> None:
    server = await make_server(claim_after=0.3)
    async with two_players(server) as (ann, bob):
        ann.line("claim")  # Bob is here
        await until(lambda: "cannot claim" in ann.state.message, "the refusal")
        ann.type("\x03")
        bob.client.session.backoff = (30.0,)  # Bob's client does not come back soon
        for conn in list(server.connections.values()):
            if server.core.sessions[conn.member].name == "Bob":
                await conn.ws.close(1011, "dropped for the test")
        await until(lambda: ann.state.message.endswith("claim to win, or keep waiting."), "note")
        assert any(
            t.startswith("Bob has been away") and t.endswith("claim to win, or keep waiting")
            for t in log_texts(ann)
        ), log_texts(ann)
        await until(lambda: ann.state.table is not None and ann.state.table.claim is Seat.WHITE, "")
        ann.line("claim")
        await until(lambda: ended(ann) is Termination.FORFEIT, "the forfeit")
        assert "Bob (Black) left the game and" in screen(ann)


async def test_rematch_moves_both_players_to_the_new_table(server: KahunaServer) -> None:
    async with two_players(server) as (ann, bob):
        old = ann.state.table_id
        ann.line("rematch")  # not yet
        await until(lambda: "after the game" in ann.state.message, "the refusal")
        ann.type("\x03")
        bob.line("resign")
        bob.line("yes")
        await until(lambda: ended(ann) is Termination.RESIGNED, "the end")
        ann.line("rematch")
        await until(lambda: any("Ann offers a rematch" in t for t in log_texts(bob)), "the offer")
        assert "Ann offers a rematch:" in screen(bob)
        bob.line("accept")
        await until(lambda: bob.state.table_id not in (None, old), "Bob at the new table")
        await until(lambda: ann.state.table_id == bob.state.table_id, "Ann there too")
        # colours swapped, new tokens, a new game
        await until(lambda: bob.state.message.startswith("Your turn"), "Bob (White) to move")
        assert ann.state.seat is Seat.BLACK and bob.state.seat is Seat.WHITE
        assert ann.state.token is not None and ann.state.public is not None
        assert ann.state.public.result is None and ann.state.table_status == "playing"
        bob.line(a_place(bob))
        await until(lambda: ann.state.version == 1, "a play at the new table")


async def test_spectators_chat_shows_the_role(server: KahunaServer) -> None:
    async with two_players(server) as (ann, bob), player(server, "Eve") as eve:
        # "s" watches the table the lobby lists: pressed before the list arrives, it does nothing
        await until(lambda: len(eve.state.tables) == 1, "the table in Eve's lobby")
        eve.type("s")
        await until(lambda: eve.state.public is not None, "Eve watching")
        eve.line("say nice move")
        ann.line("say thanks")
        await until(lambda: "<Ann (white)> thanks" in log_texts(eve), "Ann's chat")
        assert "<Eve (spectator)> nice move" in log_texts(eve)
        await asyncio.sleep(0.2)
        # while the game runs the server keeps spectators' chat from the players
        assert not any("nice move" in t for t in log_texts(bob))
        assert "<Ann (white)> thanks" in log_texts(bob)


async def test_known_cards_are_shown(server: KahunaServer) -> None:
    async with two_players(server) as (ann, bob):
        pub = ann.state.public
        assert pub is not None
        card = pub.face_up[0]
        from shared.board import ISLANDS

        ann.pipe.send_bytes(b"\x1bOR")  # F3: take face-up card 1
        await until(lambda: bob.state.message.startswith("Your turn"), "Bob's turn")
        assert bob.state.public is not None and card in bob.state.public.known[Seat.WHITE]
        assert f"holds {ISLANDS[card]}" in screen(bob)
        assert "(from the row)" in screen(bob)
        assert f"Black knows you hold {ISLANDS[card]}" in screen(ann)


async def test_hint_refused_without_hints_and_given_with_them(server: KahunaServer) -> None:
    async with two_players(server, hints=False) as (ann, _bob):
        ann.line("hint")
        await until(lambda: "hints are off at this table" in ann.state.message, "the refusal")
        assert "no hints" in screen(ann)
    async with player(server, "Cyd") as cyd:
        cyd.client.ui.hint_iterations = 30
        cyd.state.form.level = "easy"
        await new_table(cyd, "\r")
        await until(lambda: cyd.state.message.startswith("Your turn"), "Cyd's turn")
        assert "computer: easy" in screen(cyd)
        version = cyd.state.version
        cyd.line("hint")
        await until(lambda: cyd.state.message.startswith("Hint: "), "the hint")
        assert cyd.state.version == version  # nothing was played or sent
        assert any(t.startswith("Hint: ") for t in log_texts(cyd))
