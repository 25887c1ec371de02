"""The board's 27 lines, as read off the printed board (../shared/board/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.board import (
    DEGREE,
    ISLANDS,
    LINES,
    NEEDED,
    NUM_LINES,
    POSITIONS,
    BoardNameError,
    line_name,
    parse_island,
    parse_line,
)

BOARD_README_LINES = """
    ALOA-BARI  ALOA-DUDA  ALOA-HUNA
    BARI-COCO  BARI-DUDA  BARI-ELAI  BARI-FAAA
    COCO-FAAA  COCO-GOLA  COCO-KAHU
    DUDA-ELAI  DUDA-HUNA
    ELAI-FAAA  ELAI-HUNA  ELAI-IFFI  ELAI-JOJO
    FAAA-GOLA  FAAA-JOJO
    GOLA-JOJO  GOLA-KAHU
    HUNA-IFFI  HUNA-LALE
    IFFI-JOJO  IFFI-KAHU  IFFI-LALE
    JOJO-KAHU
    KAHU-LALE
""".split()

README_TABLE = {  # island: (lines, needed for control)
    "ALOA": (3, 2), "BARI": (5, 3), "COCO": (4, 3), "DUDA": (4, 3), "ELAI": (6, 4),
    "FAAA": (5, 3), "GOLA": (4, 3), "HUNA": (5, 3), "IFFI": (5, 3), "JOJO": (5, 3),
    "KAHU": (5, 3), "LALE": (3, 2),
}  # fmt: skip


def test_the_27_lines_are_pinned() -> None:
    assert NUM_LINES == 27
    assert [line_name(k) for k in range(NUM_LINES)] == BOARD_README_LINES
    assert len(set(LINES)) == 27 and all(a < b for a, b in LINES)


def test_degrees_and_majorities_match_the_board() -> None:
    for island, (degree, needed) in README_TABLE.items():
        i = parse_island(island)
        assert (DEGREE[i], NEEDED[i]) == (degree, needed), island
    assert sum(DEGREE) == 54
    assert set(POSITIONS) == set(ISLANDS)


def test_names_parse_either_way_round_and_bad_names_are_refused() -> None:
    assert parse_line("elai-huna") == parse_line("HUNA-ELAI")
    with pytest.raises(BoardNameError, match="not connected"):
        parse_line("ALOA-LALE")
    with pytest.raises(BoardNameError, match="not an island"):
        parse_island("MAUI")


def test_the_protocol_document_lists_the_engines_lines() -> None:
    """docs/protocol.md gives the 27 lines to writers of clients; they are the engine's."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    block = doc.split("<!-- lines: generated from shared/board.py", 1)[1]
    block = block.split("-->", 1)[1].split("<!-- end of lines -->", 1)[0]
    listed = block.split()
    assert listed == [f"{ISLANDS[a]}-{ISLANDS[b]}" for a, b in LINES]
    assert len(listed) == 27
