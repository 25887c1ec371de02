"""kahuna-record (client/cli/record_tool.py): replays a record and prints the final state as JSON;
a broken record is named by FILE:LINE with exit status 1; a reader that stops early ends it
quietly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from client.cli.pipes import CLOSED_PIPE
from shared.record import write_record
from shared.types import GameOptions, Seat
from tests.client.closed_pipe import run_into_a_closed_pipe
from tests.shared.test_record import break_line, first_action_index, random_game

ROOT = Path(__file__).parent.parent.parent


def test_the_replay_command_prints_json_and_names_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "game.kahuna"
    good.write_text(write_record(random_game(9, GameOptions(), Seat.BLACK)))
    run = [sys.executable, "-m", "client.cli.record_tool", "replay"]
    done = subprocess.run([*run, str(good)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["phase"] == "over" and state["result"]["reason"]
    assert state["result"]["kind"] in {"points", "final", "bridges", "tie", "no_bridges"}
    bad = tmp_path / "bad.kahuna"
    lines = good.read_text().splitlines()
    k = first_action_index(lines)
    bad.write_text(break_line(lines, k, lines[k].split()[0] + " fly away"))
    done = subprocess.run([*run, str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr.startswith(f"{bad}:{k + 1}: unknown command")


def test_a_reader_that_stops_early_ends_the_replay_quietly(tmp_path: Path) -> None:
    """`kahuna-record replay FILE | head`: head gone, no BrokenPipeError traceback, and a
    record named as servers named them before (.kahuna.txt) still reads."""
    old = tmp_path / "kahuna-53c4f1a6-20261125-160317.kahuna.txt"
    old.write_text(write_record(random_game(9, GameOptions(), Seat.BLACK)))
    done = run_into_a_closed_pipe("-m", "client.cli.record_tool", "replay", str(old))
    assert (done.returncode, done.stderr) == (CLOSED_PIPE, "")
    done = subprocess.run(
        [sys.executable, "-m", "client.cli.record_tool", "replay", str(old)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["phase"] == "over"


def test_a_file_of_many_records_replays_each_and_names_the_file_s_line(tmp_path: Path) -> None:
    """A player's downloaded games (docs/records.md, "A file of many records"): a JSON array,
    one game each; a broken record's line is the file's, not the record's."""
    games = [write_record(random_game(seed, GameOptions(), Seat.WHITE)) for seed in (3, 4, 5)]
    many = tmp_path / "kahuna-Ann-games.kahuna"
    many.write_text("".join(f"# game t{i}: Ann (white) against Bob (black)\n{g}\n"
                            for i, g in enumerate(games)))  # fmt: skip
    run = [sys.executable, "-m", "client.cli.record_tool", "replay"]
    done = subprocess.run([*run, str(many)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    states = json.loads(done.stdout)
    assert [s["phase"] for s in states] == ["over"] * 3
    lines = many.read_text().splitlines()
    second = [i for i, line in enumerate(lines) if line == "kahuna-record 1"][1]
    k = second + first_action_index(lines[second:])
    many.write_text(break_line(lines, k, lines[k].split()[0] + " fly away") + "\n")
    done = subprocess.run([*run, str(many)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr.startswith(f"{many}:{k + 1}: unknown command"), done.stderr
