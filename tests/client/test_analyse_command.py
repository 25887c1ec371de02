"""kahuna-client's commands that connect to no server: `--analyse A B` analyses both records in
turn (B was once taken for a server's address), an address beside --analyse, --replay,
--tutorial or --find is refused, and a reader that stops early (`| head`) ends the analysis
quietly."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.cli.pipes import CLOSED_PIPE
from client.cli.play import main
from tests.client.closed_pipe import run_into_a_closed_pipe
from tests.client.test_analysis import resigned_at_once, resigned_game


def test_several_records_are_analysed_each_in_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played, empty = tmp_path / "played.kahuna", tmp_path / "empty.kahuna.txt"
    played.write_text(resigned_game(11, 6), encoding="utf-8")
    empty.write_text(resigned_at_once(), encoding="utf-8")  # a record named as servers did
    assert main(["--analyse", str(played), str(empty), "--plain", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    first, second = out.split(f"\n\n==> {empty} <==\n")
    assert first.startswith(f"==> {played} <==\nAnalysis") and "White's chance" in first
    assert second == "The game ended before a turn was played: there is nothing to analyse.\n"


def test_a_record_that_cannot_be_read_leaves_the_others_analysed_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.kahuna"
    empty.write_text(resigned_at_once(), encoding="utf-8")
    missing = tmp_path / "missing.kahuna"
    assert main(["--analyse", str(missing), str(empty), "--plain", "--lang", "en"]) == 1
    said = capsys.readouterr()
    assert f"==> {missing} <==\n\n==> {empty} <==\nThe game ended" in said.out
    assert said.err == f"kahuna-client: {missing}: No such file or directory\n"


@pytest.mark.parametrize(
    ("argv", "refusal"),
    [
        (
            ["a.kahuna", "--analyse", "b.kahuna"],
            "--analyse connects to no server, so 'a.kahuna' is not an address: give every"
            " record right after --analyse",
        ),
        (
            ["--analyse", "a.kahuna", "--plain", "b.kahuna"],
            "so 'b.kahuna' is not an address",
        ),
        (["--replay", "a.kahuna", "b.kahuna"], "--replay connects to no server: 'b.kahuna' is"),
        (["--tutorial", "games.example.org"], "--tutorial connects to no server"),
        (["--find", "games.example.org"], "--find connects to no server"),
    ],
)
def test_an_address_beside_a_command_that_connects_to_none_is_refused(
    argv: list[str], refusal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main([*argv, "--lang", "en"])
    assert exit.value.code == 2
    assert refusal in capsys.readouterr().err


def test_a_reader_that_stops_early_ends_the_analysis_quietly(tmp_path: Path) -> None:
    """`kahuna-client --analyse FILE --plain | head`: head gone, no BrokenPipeError traceback."""
    empty = tmp_path / "empty.kahuna"
    empty.write_text(resigned_at_once(), encoding="utf-8")
    done = run_into_a_closed_pipe(
        "-m", "client", "--analyse", str(empty), "--plain", "--lang", "en"
    )
    assert (done.returncode, done.stderr) == (CLOSED_PIPE, "")
