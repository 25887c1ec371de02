"""The client makes its sentences from the server's codes, in the player's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalogue.codes import ACCOUNT_ERRORS, ACCOUNT_REASONS
from client.language.i18n import _, set_language
from client.language.words import error_sentence, refusal_words
from protocol.messages import Error
from shared.legality import TurnContext, refusal
from shared.types import GameOptions, Phase, Seat


@pytest.fixture
def german() -> Iterator[None]:
    set_language("de")
    yield
    set_language("en")


def test_a_refusal_is_worded_from_its_code_not_from_the_english(german: None) -> None:
    error = Error("illegal_action", "some English the client never reads", "t1", None,
                  "command", "no_such_card", {"card": "ALOA"})  # fmt: skip
    said = error_sentence(error)
    assert said == _("you have no {card} card").format(card="ALOA")
    assert "ALOA" in said and said != "you have no ALOA card"  # German, from the code


def test_every_refusal_of_the_rules_has_a_sentence_in_every_language() -> None:
    ctx = TurnContext(
        GameOptions(), Phase.PLAY, Seat.WHITE, (0, 0), (0, 0), [0] * 12, [1, 2, 3], 0, True, 0
    )
    from shared.actions import Abstain, Discard, Draw, EndTurn, Take

    found = [refusal(ctx, a) for a in (Discard(0), Take(5), Draw(), Abstain(), EndTurn())]
    codes = [r.code for r in found if r is not None]
    assert codes == ["no_such_card", "not_face_up", "pile_empty", "abstain_twice", "end_not_final"]
    for language in ("en", "de", "it"):
        set_language(language)
        try:
            for r in found:
                assert r is not None
                worded = refusal_words(r.code, r.params, "never used")
                assert worded != "never used" and "{" not in worded, (language, r)
        finally:
            set_language("en")
    assert refusal_words("a_code_from_the_future", {}, "you have no ALOA card") == (
        "you have no ALOA card"
    )


def test_closings_and_leavings_are_worded_from_their_codes(german: None) -> None:
    from client.language.words import closing_words, left_words
    from protocol.messages import Left, TableClosed

    closed = TableClosed("t1", "English the client never reads", "abandoned", {"player": "Bo"})
    assert closing_words(closed) == _("{player} did not come back").replace("{player}", "Bo")
    assert "Bo" in closing_words(closed) and "did not" not in closing_words(closed)
    assert left_words(Left("t1", "x", "stopped_watching")) == _("you stopped watching")
    # a version-1 server, or a code from the future: its English reason as it is
    assert closing_words(TableClosed("t1", "the moon fell", "meteor", None)) == "the moon fell"
    assert left_words(Left("t1", "you left")) == "you left"


def test_the_unknown_command_lists_the_clients_commands_too() -> None:
    from client.language.i18n import set_language
    from client.model.commands import interpret

    set_language("en")
    outcome = interpret("frobnicate", None, None)
    assert outcome.kind == "refused"
    for word in ("place", "draw", "resign", "rematch", "save", "lobby", "analyse", "quit"):
        assert word in outcome.text


def test_a_play_taken_back_is_told_in_the_players_words() -> None:
    from client.language.i18n import set_language
    from client.language.words import describe
    from shared.actions import parse_action
    from shared.events import PlayUndone
    from shared.types import Seat

    set_language("de")
    try:
        said = describe(PlayUndone(Seat.WHITE, parse_action("place BARI-DUDA"), False))
        assert "setze BARI-DUDA" in said and "place" not in said
    finally:
        set_language("en")


def test_an_account_refusal_fills_in_its_parameters_from_the_code(german: None) -> None:
    english = "too many failed logins: try again in 30 s"
    throttled = Error("login_throttled", english, params={"seconds": "30"})
    said = error_sentence(throttled)
    assert said == _("too many failed logins: try again in {seconds} s").format(seconds="30")
    assert "30" in said and said != english  # German, from the code
    # Without the parameter its sentence needs: the server's English, not a "{seconds}".
    assert error_sentence(Error("login_throttled", english)) == english


def test_every_tournament_refusal_has_the_catalogues_sentence() -> None:
    """bad_tournament's reasons (docs/protocol.md lists them) and no_such_tournament are worded
    from catalogue/codes.py, the table the page gets too (web/code-words.mjs); bad_terms keeps
    the server's sentence, which says which term."""
    docs = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    listed = re.search(r"`bad_tournament` with `reason`:(.*?)\n\n", docs, re.DOTALL)
    assert listed is not None
    said = re.sub(r"\([^)]*\)", "", listed.group(1))  # without the asides' words
    reasons = set(re.findall(r"`([a-z_]+)`", said))
    assert {"started", "not_director", "tournament_finished"} <= reasons
    for reason in reasons - {"bad_terms"}:
        english = ACCOUNT_REASONS[f"bad_tournament/{reason}"]
        error = Error("bad_tournament", "the server's English", reason=reason)
        assert error_sentence(error) == english
        set_language("de")
        try:
            assert error_sentence(error) not in (english, "the server's English"), reason
        finally:
            set_language("en")
    terms = Error("bad_tournament", "rounds must be 1 to 30", reason="bad_terms")
    assert error_sentence(terms) == "rounds must be 1 to 30"
    missing = Error("no_such_tournament", "no tournament has this id")
    set_language("it")
    try:
        assert (
            error_sentence(missing)
            == _(ACCOUNT_ERRORS["no_such_tournament"])
            != ("no tournament has this id")
        )
    finally:
        set_language("en")
