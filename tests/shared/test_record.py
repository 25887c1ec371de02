"""Game records: writing, replaying, set-up positions, and errors that name the line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.game import Game
from shared.randomness import SeededSource
from shared.record import (
    RecordError,
    game_to_json,
    read_record,
    record_from_log,
    replay,
    write_record,
)
from shared.types import GameOptions, Seat

ROOT = Path(__file__).parent.parent.parent


def random_game(seed: int, options: GameOptions, first: Seat) -> Game:
    g = Game.new(SeededSource(seed), first, options)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return g


OPTIONS = st.builds(
    GameOptions,
    variant1=st.booleans(),
    variant2=st.booleans(),
).flatmap(
    lambda o: st.one_of(
        st.just(o),
        st.builds(
            lambda seat, n: GameOptions(o.variant1, o.variant2, seat, n),
            st.sampled_from(Seat),
            st.integers(1, 3),
        ),
    )
)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS, first=st.sampled_from(Seat))
def test_a_record_replays_to_the_same_final_state(
    seed: int, options: GameOptions, first: Seat
) -> None:
    g = random_game(seed, options, first)
    text = write_record(g)
    again = replay(text)
    assert game_to_json(again) == game_to_json(g)
    assert again.result == g.result
    assert write_record(again) == text


def test_a_record_from_a_position_replays() -> None:
    text = (ROOT / "docs" / "examples" / "rulebook-example.kahuna").read_text()
    g = replay(text)
    assert "position" in write_record(g)
    assert game_to_json(replay(write_record(g))) == game_to_json(g)


def base_record() -> list[str]:
    g = random_game(5, GameOptions(), Seat.WHITE)
    return write_record(g).splitlines()


def break_line(lines: list[str], index: int, new: str) -> str:
    lines = list(lines)
    lines[index] = new
    return "\n".join(lines)


def first_action_index(lines: list[str]) -> int:
    return next(k for k, text in enumerate(lines) if text.startswith(("white ", "black ")))


def test_an_illegal_action_is_named_by_line() -> None:
    lines = base_record()
    k = first_action_index(lines)
    seat = lines[k].split()[0]
    with pytest.raises(RecordError) as info:
        replay(break_line(lines, k, f"{seat} place ALOA-LALE"))
    assert info.value.line == k + 1 and "not connected" in info.value.reason
    with pytest.raises(RecordError) as info:
        replay(break_line(lines, k, f"{seat} remove ALOA-BARI ALOA+BARI"))
    assert info.value.line == k + 1 and "illegal action" in info.value.reason


def test_wrong_seat_missing_and_stray_shuffles_are_named() -> None:
    lines = base_record()
    k = first_action_index(lines)
    seat, rest = lines[k].split(" ", 1)
    other = "black" if seat == "white" else "white"
    with pytest.raises(RecordError, match=rf"line {k + 1}: it is {seat}'s turn"):
        replay(break_line(lines, k, f"{other} {rest}"))
    s = next(j for j, text in enumerate(lines) if text.startswith("shuffle"))
    with pytest.raises(RecordError, match=rf"line {s}: .*'shuffle' line must follow"):
        replay("\n".join(lines[:s] + lines[s + 1 :]))
    with pytest.raises(RecordError, match=rf"line {k + 2}: no reshuffle happens here"):
        replay("\n".join([*lines[: k + 1], lines[s], *lines[k + 1 :]]))
    bad_order = [*lines[s].split()[:-1], "ALOA"]
    with pytest.raises(RecordError):
        replay(break_line(lines, s, " ".join(bad_order)))


def test_header_errors() -> None:
    lines = base_record()
    with pytest.raises(RecordError, match="line 1: a record starts with"):
        replay("\n".join(lines[1:]))
    deal = next(k for k, text in enumerate(lines) if text.startswith("deal"))
    with pytest.raises(RecordError, match=rf"line {deal + 1}: the deal is not the 24 cards"):
        replay(break_line(lines, deal, lines[deal] + " ALOA"))
    with pytest.raises(RecordError, match="line 4: handicap is"):
        replay(break_line(lines, 3, "handicap white 7"))


POSITION = """kahuna-record 1
position
  bridges white {white}
  bridges black
  hand white {hand}
  hand black KAHU
  face-up COCO JOJO LALE
  pile FAAA IFFI DUDA
  played {played}
  face-down
  round 1
  points
  to-move white
  opponent-abstained no
end
"""
PLAYED = "ALOA ALOA BARI BARI COCO DUDA ELAI ELAI FAAA GOLA GOLA HUNA HUNA IFFI JOJO KAHU LALE"


def test_a_valid_position_record() -> None:
    g = replay(POSITION.format(white="ALOA-BARI", hand="", played=PLAYED))
    assert g.to_move is Seat.WHITE and g.bridges[0] == 1


@pytest.mark.parametrize(
    ("white", "hand", "played", "message"),
    [
        ("", "ALOA", PLAYED, "ALOA appears on 3 cards"),
        ("", "", PLAYED.replace("ALOA ALOA ", "ALOA "), "ALOA appears on 1 cards"),
        ("", "ALOA BARI COCO DUDA ELAI FAAA", PLAYED, "holds 6 cards"),
        ("ALOA-BARI " * 2, "", PLAYED, "listed twice"),
    ],
)
def test_impossible_positions_are_refused(white: str, hand: str, played: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(POSITION.format(white=white, hand=hand, played=played))


def test_a_position_after_round_one_without_a_bridge_is_refused_r12() -> None:
    text = POSITION.format(white="ALOA-BARI", hand="", played=PLAYED)
    text = text.replace("round 1\n  points", "round 2\n  points 0:0")
    with pytest.raises(RecordError, match="line 2: impossible position: Black has no bridge"):
        replay(text)
    assert replay(text.replace("bridges black", "bridges black HUNA-LALE")).round == 2


def test_a_record_is_the_log_written_out() -> None:
    g = random_game(12, GameOptions(variant1=True), Seat.BLACK)
    parsed = read_record(write_record(g))
    assert list(parsed.log) == g.log and parsed.first is Seat.BLACK
    assert len(parsed.lines) == len(g.log)
    start = parsed.start()
    assert start.move_count == 0 and start.log == g.log[:1]
    text = record_from_log(g.options, g.first_player, g.log)
    assert text == write_record(g).rsplit("# result", 1)[0]


def test_more_than_25_bridges_are_refused() -> None:
    from shared.board import NUM_LINES, line_name

    all_lines = " ".join(line_name(k) for k in range(NUM_LINES - 1))
    with pytest.raises(RecordError, match="more than 25 bridges"):
        replay(POSITION.format(white=all_lines, hand="", played=PLAYED))
