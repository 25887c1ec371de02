"""The rulebook's detailed example (Kosmos English, page 5), step by step from its record."""

from __future__ import annotations

from pathlib import Path

from shared.actions import parse_action
from shared.board import ISLAND_INDEX, parse_line
from shared.events import BridgePlaced, BridgeRemoved, TokenPlaced, TokenRemoved
from shared.game import Game
from shared.record import read_record, replay
from shared.types import Seat

EXAMPLE = Path(__file__).parent.parent.parent / "docs" / "examples" / "rulebook-example.kahuna"
W, B = Seat.WHITE, Seat.BLACK


def i(name: str) -> int:
    return ISLAND_INDEX[name]


def ln(name: str) -> int:
    return parse_line(name)


def start() -> Game:
    return read_record(EXAMPLE.read_text()).start()


def test_starting_position_tokens_follow_from_the_bridges() -> None:
    g = start()
    assert g.tokens[W] == 1 << i("DUDA")
    assert g.tokens[B] == (1 << i("ALOA")) | (1 << i("HUNA"))


def test_the_detailed_example_step_by_step() -> None:
    g = start()
    # White places BARI-DUDA, wins BARI; Black's ALOA-BARI goes and Black loses ALOA.
    assert g.apply(parse_action("place BARI-DUDA")) == [
        BridgePlaced(W, ln("BARI-DUDA"), i("BARI")),
        TokenPlaced(W, i("BARI")),
        BridgeRemoved(B, ln("ALOA-BARI"), None),
        TokenRemoved(B, i("ALOA")),
    ]
    # White places ALOA-BARI, wins ALOA; Black's ALOA-HUNA goes and Black loses HUNA.
    assert g.apply(parse_action("place ALOA-BARI")) == [
        BridgePlaced(W, ln("ALOA-BARI"), i("ALOA")),
        TokenPlaced(W, i("ALOA")),
        BridgeRemoved(B, ln("ALOA-HUNA"), None),
        TokenRemoved(B, i("HUNA")),
    ]
    g.apply(parse_action("draw"))
    assert g.to_move is B
    # Black plays HUNA+HUNA to remove White's HUNA-ELAI ...
    assert g.apply(parse_action("remove HUNA-ELAI HUNA+HUNA")) == [
        BridgeRemoved(W, ln("ELAI-HUNA"), (i("HUNA"), i("HUNA"))),
    ]
    # ... then ELAI on HUNA-ELAI: wins HUNA and ELAI; White's HUNA-DUDA, DUDA-ELAI and
    # ELAI-BARI go, and White loses DUDA.
    assert g.apply(parse_action("place ELAI-HUNA")) == [
        BridgePlaced(B, ln("ELAI-HUNA"), i("ELAI")),
        TokenPlaced(B, i("ELAI")),
        TokenPlaced(B, i("HUNA")),
        BridgeRemoved(W, ln("BARI-ELAI"), None),
        BridgeRemoved(W, ln("DUDA-ELAI"), None),
        BridgeRemoved(W, ln("DUDA-HUNA"), None),
        TokenRemoved(W, i("DUDA")),
    ]
    assert g.tokens[W] == (1 << i("ALOA")) | (1 << i("BARI"))
    assert g.tokens[B] == (1 << i("ELAI")) | (1 << i("HUNA"))


def test_the_example_record_replays_to_the_same_state() -> None:
    g = replay(EXAMPLE.read_text())
    assert g.tokens[B] == (1 << i("ELAI")) | (1 << i("HUNA"))
    assert g.to_move is B and len(g.history) == 5
