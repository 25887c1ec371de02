"""The core is a function of its events: the same events at the same times, with the same seed,
give the same effects. That nothing it imports reads a clock, a socket or the system's
randomness is a contract of pyproject.toml's [tool.importlinter] (tests/test_layers.py)."""

from __future__ import annotations

from tests.server.test_golden_frames import run_session


def test_the_same_events_give_the_same_effects() -> None:
    first, second = run_session(), run_session()
    assert len(first.effects) == len(second.effects) > 100
    for index, (one, other) in enumerate(zip(first.effects, second.effects, strict=True)):
        assert one == other, f"effects {index} differ"
    assert first.recording == second.recording  # the bytes each connection is sent, too
