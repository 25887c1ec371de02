"""What the client says at a table (client/model/table_talk.py), from what it knows: the sentence of
each case, and whether it is said to this player."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from client.language.i18n import set_language
from client.model.table_talk import absence_words, duration_words, note_words, turn_words
from protocol.fields import PlayerInfo
from protocol.messages import TableNote
from shared.game import Game
from shared.randomness import SeededSource
from shared.types import Phase, Seat
from shared.views import PublicView, spectator_view


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def view(**changes: Any) -> PublicView:
    game = Game.new(SeededSource(7))
    return attrs.evolve(spectator_view(game), **changes)


PERSON = PlayerInfo("Bob", True, False)
COMPUTER = PlayerInfo("computer", True, True)


def test_a_player_on_turn_is_told_what_to_do_by_the_phase() -> None:
    first = view(to_move=Seat.WHITE)
    said = turn_words(first, Seat.WHITE, "playing", False, PERSON, "Ann")
    assert said is not None and said.to_me
    assert said.text.startswith("Your turn: play cards")
    said = turn_words(first, Seat.WHITE, "playing", True, PERSON, "Ann")
    assert said is not None and said.text == "Your turn."
    final = view(to_move=Seat.WHITE, phase=Phase.FINAL)
    said = turn_words(final, Seat.WHITE, "playing", True, PERSON, "Ann")
    assert said is not None and said.text.startswith("Your last turn")
    handicap = view(to_move=Seat.WHITE, phase=Phase.HANDICAP, handicap_left=2)
    said = turn_words(handicap, Seat.WHITE, "playing", False, PERSON, "Ann")
    assert said is not None and "place 2 handicap bridges" in said.text


def test_the_others_hear_whose_turn_it_is_and_a_spectator_nothing_while_it_runs() -> None:
    pub = view(to_move=Seat.BLACK)
    said = turn_words(pub, Seat.WHITE, "playing", True, COMPUTER, "computer")
    assert said is not None and not said.to_me
    assert said.text == "Black (computer) is thinking."
    said = turn_words(pub, Seat.WHITE, "playing", True, PERSON, "Bob")
    assert said is not None and said.text == "Black (Bob) is to move."
    assert turn_words(pub, None, "playing", True, PERSON, "Bob") is None
    said = turn_words(pub, None, "waiting", False, None, "")
    assert said is not None and said.text == "Waiting for an opponent to sit down."


def test_a_draw_offer_is_a_question_for_the_opponent_only() -> None:
    note = TableNote("t1", "draw_offered", "black", None)
    mine = note_words(note, Seat.BLACK, "Bob", "Ann", "")
    theirs = note_words(note, Seat.WHITE, "Bob", "Bob", "")
    watching = note_words(note, None, "Bob", "", "")
    assert mine is not None and not mine.to_me
    assert mine.text == "You offer a draw; Ann may accept or decline"
    assert theirs is not None and theirs.to_me
    assert theirs.text == "Bob offers a draw: accept or decline"
    assert watching is not None and not watching.to_me
    withdrawn = TableNote("t1", "claim_withdrawn", "white", None)  # nothing to say: a view follows
    assert note_words(withdrawn, Seat.WHITE, "", "", "") is None


def test_a_claim_names_the_claimer_for_the_others() -> None:
    absence = absence_words("Bob", False, PlayerInfo("Bob", False, False), 150)
    assert absence == "Bob has been away 2 minutes: {claimer} may claim the win"
    said = note_words(TableNote("t1", "claim_available", "white", None), None, "Ann", "", absence)
    assert said is not None
    assert said.text == "Bob has been away 2 minutes: Ann may claim the win"
    mine = absence_words("Bob", True, PlayerInfo("Bob", True, False), None)
    assert mine == "Bob has not moved for a long time: claim to win, or keep waiting"


def test_durations_in_words() -> None:
    assert duration_words(0.2) == "1 second"
    assert duration_words(45) == "45 seconds"
    assert duration_words(600) == "10 minutes"
