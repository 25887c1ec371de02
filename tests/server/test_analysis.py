"""Version 3's analyse: who may have a finished game's analysis (the core: as get_record), the
server's answer equal to shared.analysis run directly on the game's record, the refusals
(unknown, not over, not at the table, busy, and versions 1 and 2 as before), and the bounds of
the work (server/jobs/analysis_jobs.py: the cache, the limits, a run nobody waits for dropped); and
version 4's luck, which a version-3 peer never sees."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from collections.abc import Callable
from typing import Any

import attrs
import msgpack
import pytest

from protocol.analysis_messages import Analyse, Analysis, AnalysisProgress, PlayerAnalysis
from protocol.codec import encode
from protocol.messages import Error, GetRecord, Record, Resign, ServerMessage, Spectate
from server.core.effects import AnalysisJob, RecordRead
from server.core.table import Closing, MemberId
from server.jobs.analysis_jobs import SEED, AnalysisJobs, analysis_message, judge_turn, record_turns
from server.net.app import KahunaServer
from shared.analysis import analyse, turn_seed, turns
from shared.reasons import reason
from shared.record import read_record, write_record
from tests.conftest import Client, ServerFactory, create_table, play_random
from tests.server.test_archive import new_table, play_turns, rated_table
from tests.server.test_core import codes, the
from tests.server.test_logins import Accounts

PLAYOUTS = 4  # few: these tests check the plumbing, not the engine's judgement
SEARCH = 100  # the search's plan evaluations for a turn's best turn: few, likewise


# ----- the core: who may have it -------------------------------------------------------------


def test_a_player_of_a_finished_game_gets_its_record_analysed() -> None:
    h = Accounts()
    ann, bob = h.guest("Ann"), h.guest("Bob")
    table_id = new_table(h, ann, bob)
    play_turns(h, table_id, 2)
    assert codes(h.send(ann, Analyse(table_id)), ann) == ["game_not_over"]
    h.send(ann, Resign(table_id))
    record = write_record(h.table(table_id).game)
    effects = h.send(bob, Analyse(table_id))
    assert effects.analysis_jobs == [AnalysisJob(bob, table_id, record, 3)]
    assert effects.sends == []  # the I/O layer answers
    stranger = h.guest("Cy")
    assert codes(h.send(stranger, Analyse(table_id)), stranger) == ["not_at_table"]
    assert codes(h.send(stranger, Analyse("nothere")), stranger) == ["no_such_game"]


def test_an_archived_game_is_anyones_to_analyse_also_once_its_table_closed() -> None:
    h = Accounts()
    ann, _bob, table_id = rated_table(h)
    play_turns(h, table_id, 2)
    h.send(ann, Resign(table_id))
    record = write_record(h.table(table_id).game)
    stranger = h.guest("Cy")
    assert h.send(stranger, Analyse(table_id)).analysis_jobs == [
        AnalysisJob(stranger, table_id, record, 3)
    ]
    h.core._tables.close_table(h.table(table_id), Closing("over", "over"), h.now)
    effects = h.send(stranger, Analyse(table_id))
    assert effects.record_reads == [RecordRead(stranger, table_id, True)]
    answer = h.took(h.core.record_read(stranger, table_id, record, h.now, 0.0, True))
    assert answer.analysis_jobs == [AnalysisJob(stranger, table_id, record, 3)]
    assert answer.sends == []
    gone = h.took(h.core.record_read(stranger, table_id, None, h.now, 0.0, True))
    assert codes(gone, stranger) == ["no_such_game"]
    assert the(gone, stranger, Error).refused == "analyse"
    # get_record takes the same way, and still answers with the record
    assert h.send(stranger, GetRecord(table_id)).record_reads == [RecordRead(stranger, table_id)]
    answer = h.took(h.core.record_read(stranger, table_id, record, h.now, 0.0))
    assert the(answer, stranger, Record).text == record


# ----- the server: the answer ----------------------------------------------------------------


async def finished_game(server: KahunaServer, actions: int = 10) -> tuple[Client, str, str]:
    """A version-3 player's short game against the computer, resigned: the client, the table
    and the game's record."""
    player = await Client.connect(server.port, "Ann")
    joined, state = await create_table(player, vs_computer=True)
    await play_random(player, joined.table_id, random.Random(5), state, max_actions=actions)
    await player.send(Resign(joined.table_id))
    await player.send(GetRecord(joined.table_id))
    record = await player.expect(Record)
    return player, joined.table_id, record.text


async def analysis_of(
    client: Client, table_id: str, errors: list[Error] | None = None
) -> tuple[Analysis, list[AnalysisProgress]]:
    """The analysis, and the progress before it; the errors that came meanwhile go to
    `errors` (none may come without it)."""
    progress: list[AnalysisProgress] = []
    while True:
        message = await client.recv()
        if isinstance(message, AnalysisProgress) and message.table_id == table_id:
            progress.append(message)
        elif isinstance(message, Analysis) and message.table_id == table_id:
            return message, progress
        elif isinstance(message, Error):
            if errors is None:
                raise AssertionError(f"unexpected error {message}")
            errors.append(message)


async def test_the_analysis_is_shared_analysis_run_on_the_record(
    make_server: ServerFactory,
) -> None:
    server = await make_server(analysis_playouts=PLAYOUTS, analysis_search=SEARCH)
    player, table_id, text = await finished_game(server)
    await player.send(Analyse(table_id))
    await player.send(Analyse(table_id))  # one analysis under way per connection
    errors: list[Error] = []
    answer, progress = await analysis_of(player, table_id, errors)
    assert [(e.code, e.refused, e.table_id, e.reason, e.params) for e in errors] == [
        ("busy", "analyse", table_id, "your_analysis", {})
    ]
    direct = analyse(read_record(text), seed=SEED, playouts=PLAYOUTS, search=SEARCH)
    assert len(direct) > 4
    assert [(p.done, p.total) for p in progress] == [
        (i, len(direct)) for i in range(len(direct) + 1)
    ]
    assert [(t.number, t.seat, t.played) for t in answer.turns] == [
        (a.number, a.seat.name.lower(), list(a.actions)) for a in direct
    ]
    assert [(t.before, t.after, t.cost, t.mark) for t in answer.turns] == [
        (a.before, a.after, a.cost, a.mark) for a in direct
    ]
    assert [t.best for t in answer.turns] == [
        None if a.best is None else str(a.best) for a in direct
    ]
    for turn, a in zip(answer.turns, direct, strict=True):
        why = None if a.best is None else reason(a.view, a.best)
        assert (turn.reason, turn.params) == (
            (None, None) if why is None else (why.code, why.params)
        )
    assert answer == analysis_message(
        table_id, direct, [None if a.best is None else reason(a.view, a.best) for a in direct],
        PLAYOUTS,
    )  # fmt: skip
    # asked again: from the cache, at once, the same
    await player.send(Analyse(table_id))
    again, progress = await analysis_of(player, table_id)
    assert again == answer and progress == []
    await player.close()


async def test_refusals_name_the_table_and_the_message(make_server: ServerFactory) -> None:
    server = await make_server(analysis_playouts=PLAYOUTS, analysis_search=SEARCH)
    player = await Client.connect(server.port, "Ann")
    joined, _state = await create_table(player, vs_computer=True)
    await player.send(Analyse(joined.table_id))
    error = await player.expect_error("game_not_over")
    assert (error.table_id, error.refused, error.reason) == (joined.table_id, "analyse", None)
    await player.send(Analyse("nothere"))
    await player.expect_error("no_such_game")
    await player.close()


@pytest.mark.parametrize("version", [1, 2])
async def test_versions_1_and_2_get_the_unknown_type_error_as_before(
    make_server: ServerFactory, version: int
) -> None:
    server = await make_server()
    player, table_id, _text = await finished_game(server, actions=2)
    old = await Client.connect(server.port, "Old", version=version)
    old.frames.clear()
    await old.send(Analyse(table_id))
    error = await old.expect(Error)
    # the bytes a server that never heard of analyse sends for any message it does not know
    unknown = Error("unknown_type", "no message type 'analyse'", None, None, "analyse")
    assert old.frames[-1] == encode(unknown, version)
    assert error.code == "unknown_type"
    await old.close()
    await player.close()


# ----- the bounds of the work ----------------------------------------------------------------


class HeldPool(concurrent.futures.Executor):
    """Jobs wait until the test lets them run, one at a time, in this process."""

    def __init__(self) -> None:
        self.jobs: list[tuple[concurrent.futures.Future[Any], Callable[..., Any], tuple[Any, ...]]]
        self.jobs = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.jobs.append((future, fn, args))
        return future

    async def run_one(self) -> None:
        for _ in range(100):
            if self.jobs:
                break
            await asyncio.sleep(0)
        future, fn, args = self.jobs.pop(0)
        try:
            future.set_result(fn(*args))
        except Exception as exc:  # as a worker's failure reaches the server
            future.set_exception(exc)
        for _ in range(5):  # let the run take the result and hand out its next job
            await asyncio.sleep(0)


class Jobs:
    def __init__(self, limit: int = 1) -> None:
        self.pool = HeldPool()
        self.sent: list[tuple[MemberId, ServerMessage]] = []
        self.gone: set[MemberId] = set()
        self.jobs = AnalysisJobs(
            lambda: self.pool,
            lambda member, message, version: self.sent.append((member, message)),
            lambda member: member not in self.gone,
            playouts=2,
            search=SEARCH,
            limit=limit,
        )

    def to(self, member: MemberId) -> list[ServerMessage]:
        return [m for who, m in self.sent if who == member]


def short_record() -> str:
    """A few turns, then a resignation."""
    h = Accounts()
    ann, bob = h.guest("Ann"), h.guest("Bob")
    table_id = new_table(h, ann, bob)
    play_turns(h, table_id, 2)
    h.send(ann, Resign(table_id))
    return write_record(h.table(table_id).game)


async def test_the_server_runs_at_most_its_limit_and_a_game_under_way_is_joined() -> None:
    j = Jobs(limit=1)
    text = short_record()
    j.jobs.ask(AnalysisJob(1, "t1", text, 3))
    j.jobs.ask(AnalysisJob(2, "t2", text, 3))  # another game: over the limit
    assert [(m.code, m.table_id, m.reason) for m in j.to(2) if isinstance(m, Error)] == [
        ("busy", "t2", "too_many")
    ]
    await j.pool.run_one()  # the turns
    await j.pool.run_one()  # the first turn
    j.jobs.ask(AnalysisJob(3, "t1", text, 3))  # the same game: joins, and hears where it is
    assert j.to(3) == [AnalysisProgress("t1", 1, len(turns(read_record(text))))]
    while j.pool.jobs or j.jobs.running:
        await j.pool.run_one()
    first, third = j.to(1)[-1], j.to(3)[-1]
    assert isinstance(first, Analysis) and first == third
    assert j.jobs.running == 0
    j.jobs.ask(AnalysisJob(2, "t2", text, 3))  # room again
    running = j.jobs.running
    j.jobs.stop()
    await asyncio.sleep(0)
    assert (running, j.jobs.running) == (1, 0)


async def test_a_run_nobody_waits_for_is_dropped_and_kept_answers_at_once() -> None:
    j = Jobs(limit=2)
    text = short_record()
    j.jobs.ask(AnalysisJob(1, "t1", text, 3))
    await j.pool.run_one()
    j.gone.add(1)  # the connection went
    await j.pool.run_one()
    assert j.jobs.running == 0 and not j.pool.jobs  # no further turn was handed out
    j.jobs.ask(AnalysisJob(2, "t1", text, 3))  # not kept: a new run
    while j.pool.jobs or j.jobs.running:
        await j.pool.run_one()
    answer = j.to(2)[-1]
    assert isinstance(answer, Analysis)
    j.jobs.ask(AnalysisJob(4, "t1", text, 3))
    assert j.to(4) == [answer]  # kept: at once, no work
    assert not j.pool.jobs


def test_a_workers_jobs_are_the_analysis_of_the_record() -> None:
    text = short_record()
    found = record_turns(text)
    assert found == turns(read_record(text))
    one, why = judge_turn(found[0], turn_seed(SEED, found[0]), 2, SEARCH)
    assert one == analyse(read_record(text), seed=SEED, playouts=2, search=SEARCH)[0]
    assert one.best is not None and why == reason(one.view, one.best)


async def test_a_version_3_client_may_analyse_a_watched_game(make_server: ServerFactory) -> None:
    server = await make_server(analysis_playouts=PLAYOUTS, analysis_search=SEARCH)
    player, table_id, _text = await finished_game(server, actions=4)
    watcher = await Client.connect(server.port, "Cy")
    await watcher.send(Analyse(table_id))
    await watcher.expect_error("not_at_table")
    await watcher.send(Spectate(table_id))
    await watcher.send(Analyse(table_id))
    answer, _progress = await analysis_of(watcher, table_id)
    assert answer.turns and answer.turns[-1].seat in ("white", "black")
    await player.close()
    await watcher.close()


async def test_a_game_resigned_before_any_turn_has_an_empty_analysis() -> None:
    h = Accounts()
    ann, bob = h.guest("Ann"), h.guest("Bob")
    table_id = new_table(h, ann, bob)
    h.send(ann, Resign(table_id))
    (job,) = h.send(ann, Analyse(table_id)).analysis_jobs
    j = Jobs()
    j.jobs.ask(job)
    await j.pool.run_one()
    assert j.to(ann) == [
        AnalysisProgress(table_id, 0, 0),
        Analysis(
            table_id,
            [],
            [PlayerAnalysis("white", 0.0, 0, 0, 0), PlayerAnalysis("black", 0.0, 0, 0, 0)],
            [],
            2,
        ),
    ]


async def test_a_failed_analysis_is_an_internal_error_and_frees_its_place() -> None:
    j = Jobs(limit=1)
    j.jobs.ask(AnalysisJob(1, "t1", "not a record", 3))
    await j.pool.run_one()
    (error,) = j.to(1)
    assert isinstance(error, Error)
    assert (error.code, error.table_id, error.refused) == ("internal_error", "t1", "analyse")
    assert j.jobs.running == 0
    j.jobs.ask(AnalysisJob(1, "t2", short_record(), 3))  # the connection may ask again
    assert j.jobs.running == 1
    j.jobs.stop()


# ----- version 4: the luck, apart; version 3 as before ----------------------------------------

V3_TURN = ("number", "seat", "played", "before", "after", "white", "cost", "mark", "best",
           "reason", "params")  # fmt: skip
V3_PLAYER = ("seat", "average_cost", "inaccuracies", "mistakes", "blunders")


async def test_version_3_gets_the_analysis_without_the_luck_byte_for_byte(
    make_server: ServerFactory,
) -> None:
    server = await make_server(analysis_playouts=PLAYOUTS, analysis_search=SEARCH)
    player, table_id, text = await finished_game(server, actions=8)
    old = await Client.connect(server.port, "Cy", version=3)
    await old.send(Spectate(table_id))
    await player.send(Analyse(table_id))
    answer, _progress = await analysis_of(player, table_id)
    await old.send(Analyse(table_id))  # kept: the same analysis, for a version-3 peer
    seen, _progress = await analysis_of(old, table_id)
    assert player.frames[-1] == encode(answer, 4)
    assert old.frames[-1] == encode(answer, 3)
    # what a version-3 server sent: the version-3 fields, in their order, and nothing else
    v3 = {
        "type": "analysis",
        "table_id": table_id,
        "turns": [{k: getattr(t, k) for k in V3_TURN} for t in answer.turns],
        "players": [{k: getattr(p, k) for k in V3_PLAYER} for p in answer.players],
        "turning_points": answer.turning_points,
        "playouts": answer.playouts,
    }
    assert old.frames[-1] == msgpack.packb(v3, use_bin_type=True)
    assert seen == attrs.evolve(
        answer,
        turns=[attrs.evolve(t, expected=0.0, luck=0.0, noise=0.0) for t in answer.turns],
        players=[attrs.evolve(p, luck=0.0) for p in answer.players],
    )
    # version 4: the luck of each turn and each player's in all, as shared.analysis gives them
    direct = analyse(read_record(text), seed=SEED, playouts=PLAYOUTS, search=SEARCH)
    assert [(t.expected, t.luck, t.noise) for t in answer.turns] == [
        (a.expected, a.luck, a.noise) for a in direct
    ]
    for p in answer.players:
        mine = [t.luck for t in answer.turns if t.seat == p.seat]
        assert p.luck == pytest.approx(sum(mine))
    assert any(t.luck for t in answer.turns)
    await old.close()
    await player.close()
