"""One test or more for each rule and each ruling of docs/rules.md (R-numbers in the names)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.actions import (
    ABSTAIN,
    DRAW,
    END_TURN,
    Discard,
    Handicap,
    Place,
    Remove,
    Take,
    parse_action,
)
from shared.board import (
    BRIDGES_PER_PLAYER,
    ISLAND_INDEX,
    LINES,
    NEEDED,
    NUM_ISLANDS,
    NUM_LINES,
    TOKENS_PER_PLAYER,
    line_name,
    parse_line,
)
from shared.control import majority_mask
from shared.events import (
    BridgePlaced,
    BridgeRemoved,
    CardDiscarded,
    CardDrawn,
    CardTaken,
    FinalTurnsBegan,
    GameOver,
    Reshuffled,
    RoundScored,
    TokenPlaced,
    TokenRemoved,
)
from shared.game import Game
from shared.legality import IllegalAction
from shared.position import PositionError
from shared.randomness import SeededSource
from shared.types import GameOptions, OptionsError, Phase, Seat, Termination
from shared.views import seat_events, seat_view, spectator_events, spectator_view
from tests.positions import game, lines, position

W, B = Seat.WHITE, Seat.BLACK
LINE_NAMES = [line_name(k) for k in range(NUM_LINES)]


def isl(name: str) -> int:
    return ISLAND_INDEX[name]


def act(g: Game, text: str) -> list[object]:
    return list(g.apply(parse_action(text)))


def snapshot(g: Game) -> dict[str, object]:
    return {k: repr(v) for k, v in vars(g).items() if k != "source"}


# ----- setup ------------------------------------------------------------------------------


def test_new_game_deals_three_each_three_face_up_and_a_pile_r1() -> None:
    g = Game.new(SeededSource(7), first=B)
    assert g.hand_size(W) == g.hand_size(B) == 3
    assert len(g.face_up) == 3 and len(g.pile) == 15
    assert g.to_move is B and g.phase is Phase.PLAY
    deck = g.deal
    assert sorted(deck) == sorted(i for i in range(12) for _ in range(2))
    assert g.hand_counts(W) == tuple(deck[:3].count(i) for i in range(12))
    assert g.face_up == deck[6:9] and g.pile == deck[9:]
    assert g.bridges == [0, 0] and g.tokens == [0, 0]


def test_same_seed_same_game_and_first_player_is_a_parameter() -> None:
    a, b = Game.new(SeededSource(3), first=W), Game.new(SeededSource(3), first=W)
    assert a.deal == b.deal
    assert Game.new(SeededSource(3), first=B).to_move is B


# ----- placing ----------------------------------------------------------------------------


def test_place_needs_the_card_of_an_end_and_a_free_line_r4() -> None:
    g = game(white="ALOA-BARI", white_hand="BARI DUDA", black_hand="HUNA")
    assert "a BARI card places" not in (g.why_illegal(parse_action("place BARI-DUDA")) or "")
    assert g.why_illegal(parse_action("place HUNA-ALOA")) == "you have no HUNA card"
    assert "already has a bridge" in (g.why_illegal(parse_action("place BARI-ALOA")) or "")
    bad = Place(isl("BARI"), parse_line("HUNA-LALE"))
    assert "only on a line from BARI" in (g.why_illegal(bad) or "")
    events = act(g, "place DUDA-BARI")
    assert events == [BridgePlaced(W, parse_line("BARI-DUDA"), isl("DUDA"))]
    assert g.hand_counts(W)[isl("DUDA")] == 0 and g.played[-1] == isl("DUDA")
    assert g.to_move is W  # the play phase goes on


def test_illegal_action_raises_with_reason_and_changes_nothing() -> None:
    g = game(white="ALOA-BARI", white_hand="BARI", black_hand="HUNA")
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="already has a bridge"):
        g.apply(parse_action("place BARI-ALOA"))
    assert snapshot(g) == before


# ----- removing ---------------------------------------------------------------------------


@pytest.mark.parametrize("pair", ["HUNA+HUNA", "HUNA+ELAI", "ELAI+ELAI"])
def test_two_cards_naming_the_bridges_islands_remove_it(pair: str) -> None:
    g = game(black="ELAI-HUNA", white_hand=pair.replace("+", " "), black_hand="ALOA")
    events = act(g, f"remove HUNA-ELAI {pair}")
    first, second = sorted(isl(n) for n in pair.split("+"))
    assert events[0] == BridgeRemoved(B, parse_line("ELAI-HUNA"), (first, second))
    assert g.bridges[B] == 0 and g.hand_size(W) == 0 and len(g.played) >= 2


def test_remove_refuses_wrong_cards_own_bridges_and_free_lines() -> None:
    g = game(white="ALOA-BARI", black="ELAI-HUNA", white_hand="HUNA IFFI ALOA BARI")
    assert "both cards must show" in (g.why_illegal(parse_action("remove ELAI-HUNA HUNA+IFFI"))
                                      or "")  # fmt: skip
    assert "no opponent's bridge" in (g.why_illegal(parse_action("remove ALOA-BARI ALOA+BARI"))
                                      or "")  # fmt: skip
    assert "you do not hold" in (g.why_illegal(parse_action("remove ELAI-HUNA HUNA+HUNA")) or "")


def test_a_third_card_rebuilds_on_the_freed_line_and_can_win_islands() -> None:
    # Black holds HUNA with ALOA-HUNA, HUNA-IFFI, HUNA-LALE; White takes the line back.
    g = game(
        white="DUDA-HUNA ELAI-HUNA", black="ALOA-HUNA HUNA-IFFI HUNA-LALE",
        white_hand="ALOA ALOA HUNA", black_hand="KAHU",
    )  # fmt: skip
    assert g.tokens[B] == 1 << isl("HUNA")
    events = act(g, "remove ALOA-HUNA ALOA+ALOA")
    assert TokenRemoved(B, isl("HUNA")) in events
    events = act(g, "place HUNA-ALOA")
    assert TokenPlaced(W, isl("HUNA")) in events
    assert BridgeRemoved(B, parse_line("HUNA-IFFI"), None) in events


# ----- discarding and drawing -------------------------------------------------------------


def test_discard_any_time_hidden_from_the_opponent_r2() -> None:
    g = game(white_hand="ALOA BARI", black_hand="HUNA")
    act(g, "discard ALOA")
    act(g, "place BARI-DUDA")
    assert g.face_down == [isl("ALOA")]
    black = seat_view(g, B)
    assert black.public.face_down_count == 1
    assert isl("ALOA") not in black.public.played


def test_take_a_face_up_card_is_replaced_at_once_and_ends_the_turn() -> None:
    g = game(white_hand="ALOA", black_hand="HUNA", face_up="COCO DUDA ELAI", pile="FAAA GOLA")
    events = act(g, "take DUDA")
    assert events[0] == CardTaken(W, isl("DUDA"), isl("FAAA"))
    assert sorted(g.face_up) == sorted([isl("COCO"), isl("ELAI"), isl("FAAA")])
    assert g.pile == [isl("GOLA")] and g.to_move is B
    assert g.hand_counts(W)[isl("DUDA")] == 1


def test_draw_takes_the_top_of_the_pile() -> None:
    g = game(white_hand="ALOA", black_hand="HUNA", face_up="COCO DUDA ELAI", pile="FAAA GOLA")
    assert act(g, "draw")[0] == CardDrawn(W, isl("FAAA"))
    assert g.pile == [isl("GOLA")]


def test_no_abstaining_right_after_the_opponent_abstained_r3() -> None:
    g = game(white_hand="ALOA", black_hand="HUNA")
    act(g, "abstain")
    assert g.to_move is B and g.opponent_abstained
    assert ABSTAIN not in g.legal_actions()
    assert "right after your opponent abstained" in (g.why_illegal(ABSTAIN) or "")
    act(g, "draw")
    assert ABSTAIN in g.legal_actions()


def test_five_cards_cannot_draw_and_must_play_after_an_abstention_r3() -> None:
    g = game(white_hand="ALOA", black_hand="HUNA BARI COCO DUDA ELAI")
    act(g, "abstain")
    legal = g.legal_actions()
    assert (
        DRAW not in legal and ABSTAIN not in legal and not any(isinstance(a, Take) for a in legal)
    )
    assert "five cards in hand" in (g.why_illegal(DRAW) or "")
    act(g, "discard HUNA")
    assert DRAW in g.legal_actions()
    # Without the abstention, a full hand may abstain.
    g2 = game(white_hand="ALOA", black_hand="HUNA BARI COCO DUDA ELAI", to_move=B)
    assert ABSTAIN in g2.legal_actions() and DRAW not in g2.legal_actions()


# ----- control ----------------------------------------------------------------------------


def test_majority_places_a_token_and_removes_opponent_bridges_r5() -> None:
    g = game(white="ALOA-BARI", black="ALOA-HUNA", white_hand="ALOA", black_hand="KAHU")
    events = act(g, "place ALOA-DUDA")
    assert events == [
        BridgePlaced(W, parse_line("ALOA-DUDA"), isl("ALOA")),
        TokenPlaced(W, isl("ALOA")),
        BridgeRemoved(B, parse_line("ALOA-HUNA"), None),
    ]
    assert g.bridges[B] == 0


def test_control_is_a_majority_of_lines_not_of_bridges_r6() -> None:
    # Removing Black's only BARI bridge does not win BARI for White (1 of 5 lines).
    g = game(white="BARI-COCO", black="BARI-DUDA", white_hand="BARI BARI", black_hand="KAHU")
    act(g, "remove BARI-DUDA BARI+BARI")
    assert g.tokens[W] == 0


def test_opponent_may_build_on_a_controlled_island_in_the_standard_game_r6() -> None:
    g = game(black="ALOA-BARI ALOA-DUDA", white_hand="HUNA", black_hand="KAHU")
    assert g.tokens[B] == 1 << isl("ALOA")
    assert g.why_illegal(parse_action("place HUNA-ALOA")) is None


def test_no_bridge_left_in_supply_no_placement_r7() -> None:
    white = " ".join(n for n in LINE_NAMES if n not in ("KAHU-LALE", "IFFI-LALE"))
    g = game(white=white, white_hand="LALE IFFI IFFI", black_hand="KAHU")
    assert g.bridges[W].bit_count() == BRIDGES_PER_PLAYER
    assert not any(isinstance(a, Place) for a in g.legal_actions())
    assert "no bridges left" in (g.why_illegal(parse_action("place LALE-KAHU")) or "")
    # Black may still place, and White may still remove.
    g2 = game(white=white, black="KAHU-LALE", white_hand="LALE LALE", black_hand="KAHU")
    assert Remove(parse_line("KAHU-LALE"), (isl("LALE"), isl("LALE"))) in g2.legal_actions()


# Sixteen lines that hold a majority on every island but ELAI (found by a search of the board).
ELEVEN = (
    "ALOA-BARI ALOA-DUDA ALOA-HUNA BARI-COCO BARI-DUDA COCO-FAAA COCO-GOLA DUDA-HUNA FAAA-GOLA"
    " FAAA-JOJO GOLA-JOJO HUNA-IFFI IFFI-KAHU IFFI-LALE JOJO-KAHU KAHU-LALE"
)


def test_sixteen_lines_are_the_fewest_that_control_eleven_islands_r8() -> None:
    assert len(ELEVEN.split()) == 16
    assert majority_mask(lines(ELEVEN)).bit_count() == 11
    # A line counts towards at most two islands, so eleven islands need at least half the sum
    # of their NEEDED: 31/2 rounded up (leaving out ELAI, which needs the most) is 16.
    for left_out in range(NUM_ISLANDS):
        need = sum(NEEDED) - NEEDED[left_out]
        assert (need + 1) // 2 >= 16


def test_an_eleventh_island_removes_bridges_but_scores_as_ten_r8() -> None:
    # White's sixteen lines without ALOA-BARI: ten islands. ALOA-BARI wins BARI as the eleventh.
    white = ELEVEN.replace("ALOA-BARI ", "")
    g = game(white=white, black="BARI-ELAI ELAI-HUNA", white_hand="ALOA", black_hand="KAHU")
    assert g.tokens[W].bit_count() == TOKENS_PER_PLAYER
    events = act(g, "place ALOA-BARI")
    assert BridgeRemoved(B, parse_line("BARI-ELAI"), None) in events
    assert g.tokens[W].bit_count() == 11
    assert spectator_view(g).tokens[W].bit_count() == 11
    # The final scoring counts ten tokens on the board, not eleven islands.
    g = final_turn(ELEVEN, "ELAI-HUNA", ((0, 0), (0, 0)))
    events = act(g, "end")
    assert RoundScored(3, (10, 0), (10, 0), True) in events
    assert g.scores == (10, 0)


# ----- rounds -----------------------------------------------------------------------------


def deplete(**kwargs: Any) -> Game:
    """A position one draw away from depletion: the pile is empty, one face-up card is left."""
    return game(face_up="COCO", pile="", **kwargs)


def test_first_interim_scoring_reshuffles_and_passes_the_turn_r9() -> None:
    g = deplete(white="ALOA-BARI ALOA-DUDA", black="HUNA-LALE", white_hand="DUDA",
                black_hand="KAHU", face_down="GOLA")  # fmt: skip
    events = act(g, "take COCO")
    scored = [e for e in events if isinstance(e, RoundScored)]
    assert scored == [RoundScored(1, (1, 0), (1, 0), False)]
    assert any(isinstance(e, Reshuffled) for e in events)
    assert g.round == 2 and g.to_move is B and g.scores == (1, 0)
    assert len(g.face_up) == 3 and g.played == [] and g.face_down == []
    assert g.hand_size(W) + g.hand_size(B) + len(g.face_up) + len(g.pile) == 24
    assert g.hand_counts(W)[isl("COCO")] == 1  # hands are kept


def test_second_scoring_gives_two_points_and_a_tie_gives_nothing_r9() -> None:
    g = deplete(white="ALOA-BARI ALOA-DUDA", black="HUNA-LALE", white_hand="DUDA",
                black_hand="KAHU", round=2, round_points=((0, 0),), to_move=B)  # fmt: skip
    events = act(g, "take COCO")
    assert RoundScored(2, (1, 0), (2, 0), False) in events
    assert g.round == 3 and g.scores == (2, 0)
    tie = deplete(white="ALOA-BARI", black="HUNA-LALE", white_hand="DUDA", black_hand="KAHU")
    assert RoundScored(1, (0, 0), (0, 0), False) in act(tie, "take COCO")


def test_third_depletion_gives_one_last_turn_each_without_drawing_r10() -> None:
    g = deplete(white="ALOA-BARI ALOA-DUDA", black="HUNA-LALE KAHU-LALE", white_hand="DUDA",
                black_hand="KAHU", round=3, round_points=((1, 0), (0, 2)))  # fmt: skip
    events = act(g, "take COCO")
    assert FinalTurnsBegan(B) in events and g.phase is Phase.FINAL and g.to_move is B
    legal = g.legal_actions()
    assert END_TURN in legal and DRAW not in legal and ABSTAIN not in legal
    assert "no drawing in the final turn" in (g.why_illegal(ABSTAIN) or "")
    act(g, "end")
    assert g.to_move is W and g.phase is Phase.FINAL
    act(g, "place DUDA-BARI")
    events = act(g, "end")
    # White: ALOA; Black: LALE. Tokens 1:1, the final scoring gives nothing.
    assert RoundScored(3, (1, 1), (0, 0), True) in events
    assert g.is_over and g.scores == (1, 2)
    assert g.result is not None and g.result.winner is B


def final_turn(white: str, black: str, points: tuple[tuple[int, int], ...]) -> Game:
    return game(white=white, black=black, white_hand="KAHU", black_hand="GOLA", face_up="",
                pile="", round=3, round_points=points, phase=Phase.FINAL,
                final_turns_left=1)  # fmt: skip


def test_final_scoring_gives_the_difference_r10() -> None:
    g = final_turn("ALOA-BARI ALOA-DUDA HUNA-LALE IFFI-LALE", "GOLA-JOJO", ((0, 0), (0, 0)))
    events = act(g, "end")
    assert RoundScored(3, (2, 0), (2, 0), True) in events
    assert events[-1] == GameOver(W, Termination.POINTS, (2, 0))


def test_tie_on_points_goes_to_the_better_final_scoring_r11() -> None:
    # White 3 from the interims, Black scores 3 in the final: Black wins.
    black = "ALOA-BARI ALOA-DUDA HUNA-LALE IFFI-LALE COCO-GOLA GOLA-JOJO GOLA-KAHU"
    g = final_turn("BARI-FAAA", black, ((1, 0), (2, 0)))
    act(g, "end")
    assert g.scores == (3, 3) and g.result is not None
    assert g.result.winner is B and g.result.kind is Termination.FINAL


def test_tie_at_zero_goes_to_more_bridges_then_no_winner_r11() -> None:
    g = final_turn("BARI-FAAA BARI-COCO", "GOLA-JOJO", ((0, 0), (0, 0)))
    act(g, "end")
    assert g.result is not None and g.result.winner is W and g.result.kind is Termination.BRIDGES
    g = final_turn("BARI-FAAA", "GOLA-JOJO", ((0, 0), (0, 0)))
    act(g, "end")
    assert g.result is not None and g.result.winner is None and g.result.kind is Termination.TIE


# ----- premature end ----------------------------------------------------------------------


def test_losing_the_last_bridge_in_round_two_ends_the_game_r12() -> None:
    g = game(white="HUNA-LALE", black="ALOA-BARI", white_hand="ALOA BARI", black_hand="KAHU",
             round=2, round_points=((0, 0),))  # fmt: skip
    events = act(g, "remove ALOA-BARI ALOA+BARI")
    assert events[-1] == GameOver(W, Termination.NO_BRIDGES, (0, 0))
    assert g.result is not None and g.result.reason == "Black has no bridge on the board"
    assert g.is_over and g.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        g.apply(DRAW)


def test_no_premature_end_in_round_one_r12() -> None:
    g = game(white="HUNA-LALE", black="ALOA-BARI", white_hand="ALOA BARI", black_hand="KAHU")
    act(g, "remove ALOA-BARI ALOA+BARI")
    assert not g.is_over


def test_no_bridge_when_round_two_begins_loses_at_once_r12() -> None:
    g = deplete(white="ALOA-BARI", white_hand="DUDA", black_hand="KAHU")
    events = act(g, "take COCO")
    assert isinstance(events[-1], GameOver) and events[-1].winner is W
    assert g.round == 2


@pytest.mark.parametrize("round_", [2, 3])
def test_a_position_without_a_bridge_after_round_one_is_refused_r12(round_: int) -> None:
    points = ((0, 0), (0, 0))[: round_ - 1]
    for white, black, loser in (("", "ALOA-BARI", "White"), ("ALOA-BARI", "", "Black")):
        setup = position(white=white, black=black, white_hand="DUDA", black_hand="KAHU",
                         round=round_, round_points=points)  # fmt: skip
        with pytest.raises(PositionError, match=f"{loser} has no bridge on the board"):
            Game.from_position(setup, SeededSource(0))
    # In round one nobody needs a bridge yet.
    Game.from_position(position(white_hand="DUDA", black_hand="KAHU"), SeededSource(0))


def test_neither_player_with_a_bridge_in_round_two_is_a_draw_r13() -> None:
    g = deplete(white_hand="DUDA", black_hand="KAHU")
    events = act(g, "take COCO")
    assert isinstance(events[-1], GameOver) and events[-1].winner is None
    assert events[-1].kind is Termination.NO_BRIDGES


# ----- variant 1 --------------------------------------------------------------------------

V1 = GameOptions(variant1=True)


def test_variant1_no_bridge_next_to_an_opponent_token_r14() -> None:
    g = game(black="ALOA-BARI ALOA-DUDA", white_hand="HUNA BARI", black_hand="KAHU", options=V1)
    assert "Variant 1" in (g.why_illegal(parse_action("place HUNA-ALOA")) or "")
    assert g.why_illegal(parse_action("place HUNA-LALE")) is None
    legal = g.legal_actions()
    assert Place(isl("HUNA"), parse_line("ALOA-HUNA")) not in legal
    # Without the variant the same placement is legal.
    g2 = game(black="ALOA-BARI ALOA-DUDA", white_hand="HUNA", black_hand="KAHU")
    assert g2.why_illegal(parse_action("place HUNA-ALOA")) is None


def test_variant1_rebuild_without_a_card_when_no_opponent_token_remains_r14() -> None:
    # Removing ALOA-BARI costs Black ALOA, so White may rebuild there.
    g = game(black="ALOA-BARI ALOA-DUDA", white_hand="ALOA BARI", black_hand="KAHU", options=V1)
    rebuild = Remove(parse_line("ALOA-BARI"), (isl("ALOA"), isl("BARI")), True)
    assert rebuild in g.legal_actions()
    events = g.apply(rebuild)
    assert TokenRemoved(B, isl("ALOA")) in events
    assert BridgePlaced(W, parse_line("ALOA-BARI"), None) in events
    assert g.hand_size(W) == 0


def test_variant1_no_rebuild_next_to_a_token_the_opponent_keeps_r14() -> None:
    # Black holds ALOA with all three lines; after losing ALOA-BARI Black still holds it.
    g = game(black="ALOA-BARI ALOA-DUDA ALOA-HUNA", white_hand="ALOA BARI", black_hand="KAHU",
             options=V1)  # fmt: skip
    rebuild = Remove(parse_line("ALOA-BARI"), (isl("ALOA"), isl("BARI")), True)
    assert rebuild not in g.legal_actions()
    assert "stays under your opponent's control" in (g.why_illegal(rebuild) or "")
    plain = game(black="ALOA-BARI", white_hand="ALOA BARI", black_hand="KAHU")
    assert "Variant 1 only" in (plain.why_illegal(
        Remove(parse_line("ALOA-BARI"), (isl("ALOA"), isl("BARI")), True)) or "")  # fmt: skip


# ----- variant 2 --------------------------------------------------------------------------

V2 = GameOptions(variant2=True)


def test_variant2_face_up_draws_lie_open_and_are_seen_r15() -> None:
    g = game(white_hand="ALOA", black_hand="KAHU", face_up="COCO DUDA ELAI", options=V2)
    act(g, "take COCO")
    assert g.open[W][isl("COCO")] == 1 and g.hidden[W][isl("COCO")] == 0
    assert seat_view(g, B).public.open_cards[W] == (isl("COCO"),)
    assert spectator_view(g).open_cards[W] == (isl("COCO"),)
    assert g.hand_size(W) == 2
    act(g, "draw")
    assert g.open[B] == [0] * 12


def test_variant2_open_card_is_played_first_and_its_discard_is_public_r15() -> None:
    g = game(white_hand="COCO", white_open="COCO", black_hand="KAHU", options=V2)
    events = g.apply(parse_action("discard COCO"))
    assert g.open[W][isl("COCO")] == 0 and g.hidden[W][isl("COCO")] == 1
    assert seat_events(events, B) == [CardDiscarded(W, isl("COCO"), True)]
    # The hidden one stays hidden from Black and from spectators.
    events = g.apply(parse_action("discard COCO"))
    assert seat_events(events, B) == [CardDiscarded(W, None, False)]
    assert spectator_events(events) == [CardDiscarded(W, None, False)]
    assert seat_events(events, W) == [CardDiscarded(W, isl("COCO"), False)]


def test_no_open_cards_without_variant2() -> None:
    g = game(white_hand="ALOA", black_hand="KAHU", face_up="COCO DUDA ELAI")
    act(g, "take COCO")
    assert g.open[W] == [0] * 12


# ----- handicap ---------------------------------------------------------------------------


def test_handicap_bridges_before_the_first_turn_r16() -> None:
    options = GameOptions(handicap_seat=B, handicap_bridges=2)
    g = Game.new(SeededSource(1), first=W, options=options)
    assert g.phase is Phase.HANDICAP and g.to_move is B
    assert all(isinstance(a, Handicap) for a in g.legal_actions())
    assert len(g.legal_actions()) == NUM_LINES
    assert "handicap bridge" in (g.why_illegal(DRAW) or "")
    act(g, "handicap ALOA-BARI")
    assert g.to_move is B and g.handicap_left == 1
    events = act(g, "handicap ALOA-DUDA")
    assert TokenPlaced(B, isl("ALOA")) in events
    assert (g.phase, g.to_move) == (Phase.PLAY, W)
    assert g.hand_size(B) == 3  # no card was used
    assert "only before the first turn" in (g.why_illegal(Handicap(parse_line("HUNA-LALE")))
                                             or "")  # fmt: skip


def test_handicap_options_are_checked() -> None:
    with pytest.raises(OptionsError):
        GameOptions(handicap_seat=W, handicap_bridges=4)
    with pytest.raises(OptionsError):
        GameOptions(handicap_seat=None, handicap_bridges=2)


def test_discard_of_unknown_card_is_refused() -> None:
    g = game(white_hand="ALOA", black_hand="KAHU")
    assert g.why_illegal(Discard(isl("LALE"))) == "you have no LALE card"


def test_lines_helper_matches_board() -> None:
    assert lines("ALOA-BARI") == 1 << 0 and LINES[0] == (0, 1)


def test_actions_off_the_board_cannot_be_made() -> None:
    for make in (
        lambda: Discard(-1),
        lambda: Discard(True),
        lambda: Take(12),
        lambda: Place(0, 27),
        lambda: Remove(27, (0, 0)),
        lambda: Remove(0, (0, 12)),
        lambda: Handicap(27),
    ):
        with pytest.raises(ValueError):
            make()


def test_the_two_cards_of_a_removal_are_one_action_in_either_order() -> None:
    g = game(black="ALOA-BARI", white_hand="ALOA BARI", black_hand="KAHU")
    backwards = Remove(parse_line("ALOA-BARI"), (isl("BARI"), isl("ALOA")))
    assert backwards.cards == (isl("ALOA"), isl("BARI"))
    assert backwards in g.legal_actions()
    events = g.apply(backwards)
    assert events[0] == BridgeRemoved(B, parse_line("ALOA-BARI"), (isl("ALOA"), isl("BARI")))


# ----- undo and endings (online play, not in the rulebook) --------------------------------


def test_undo_takes_back_plays_of_this_turn_only_r17() -> None:
    from shared.actions import UNDO, UNDO_TURN

    g = game(white="ALOA-BARI", black="KAHU-LALE", white_hand="BARI DUDA", black_hand="KAHU")
    before = g.hand_counts(W), g.bridges[:], g.played[:], g.face_down[:]
    act(g, "place BARI-DUDA")
    act(g, "discard DUDA")
    act(g, "undo")
    assert g.face_down == before[3] and g.undoable == 1
    g.apply(UNDO_TURN)
    assert (g.hand_counts(W), g.bridges, g.played, g.face_down) == before
    assert UNDO not in g.legal_actions()
    act(g, "discard BARI")
    act(g, "draw")
    assert "nothing to take back" in (g.why_illegal(UNDO) or "")


def test_resigning_and_the_other_endings_keep_the_scores_r18() -> None:
    g = game(white="ALOA-BARI", black="KAHU-LALE", white_hand="BARI", black_hand="KAHU",
             round=2, round_points=((1, 0),))  # fmt: skip
    act(g, "place BARI-DUDA")
    events = g.end(Termination.RESIGNED, W)  # White resigns in White's own turn
    assert events == [GameOver(B, Termination.RESIGNED, (1, 0))]
    assert g.round_points == [(1, 0)] and g.result is not None and g.result.winner is B
    with pytest.raises(IllegalAction, match="over"):
        g.end(Termination.AGREED, None)
