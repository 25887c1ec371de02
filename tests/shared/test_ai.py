"""The computer opponent: always legal, decided from the seat's view, and it plays sensibly."""

from __future__ import annotations

import random
import time

import pytest

from shared.actions import Action, EndTurn, Place, Remove
from shared.ai import choose_action
from shared.board import parse_island, parse_line
from shared.game import Game
from shared.randomness import SeededSource
from shared.types import GameOptions, Phase, Seat
from shared.views import seat_view
from tests.options import OPTIONS
from tests.positions import game as position_game


def ai_move(game: Game, rng: random.Random) -> Action:
    action = choose_action(seat_view(game, game.to_move), rng)
    legal = game.legal_actions()
    assert action in legal, f"{action} is not legal; legal: {[str(a) for a in legal]}"
    assert game.why_illegal(action) is None
    return action


def play_game(
    seed: int,
    options: GameOptions,
    first: Seat,
    ai_seats: tuple[Seat, ...],
    max_actions: int = 3000,
) -> Game:
    """A whole game; the seats not in ai_seats play uniformly random legal actions."""
    game = Game.new(SeededSource(seed), first=first, options=options)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(max_actions):
        if game.is_over:
            return game
        if game.to_move in ai_seats:
            action = ai_move(game, rng)
        else:
            action = rng.choice(game.legal_actions())
        game.apply(action)
    raise AssertionError(f"seed {seed}: the game did not end in {max_actions} actions")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_always_legal_against_itself_and_random(options: GameOptions) -> None:
    for seed in range(6):
        first = Seat(seed % 2)
        both = play_game(seed, options, first, (Seat.WHITE, Seat.BLACK))
        assert both.result is not None
        alone = play_game(seed + 100, options, first, (Seat(seed // 2 % 2),))
        assert alone.result is not None


def test_final_turns_end_with_end() -> None:
    game = play_game(3, GameOptions(), Seat.WHITE, (Seat.WHITE, Seat.BLACK))
    ends = [a for a in game.history if isinstance(a, EndTurn)]
    # Unless someone lost all bridges early, the game ran into its two final turns.
    assert game.result is not None
    if "bridge" not in game.result.reason:
        assert len(ends) == 2


def test_wins_clearly_against_a_random_player() -> None:
    games, wins = 40, 0
    for seed in range(games):
        ai = Seat(seed % 2)
        game = play_game(1000 + seed, GameOptions(), Seat(seed // 2 % 2), (ai,))
        assert game.result is not None
        wins += game.result.winner == ai
    assert wins >= 36, f"the AI won only {wins} of {games} games against a random player"


@pytest.mark.parametrize(
    "options", [GameOptions(variant1=True), GameOptions(variant2=True)], ids=["v1", "v2"]
)
def test_wins_against_random_in_the_variants(options: GameOptions) -> None:
    games, wins = 20, 0
    for seed in range(games):
        ai = Seat(seed % 2)
        game = play_game(2000 + seed, options, Seat(seed // 2 % 2), (ai,))
        assert game.result is not None
        wins += game.result.winner == ai
    assert wins >= 17


def test_deterministic_for_a_seed() -> None:
    a = play_game(5, GameOptions(), Seat.BLACK, (Seat.WHITE, Seat.BLACK))
    b = play_game(5, GameOptions(), Seat.BLACK, (Seat.WHITE, Seat.BLACK))
    assert [str(x) for x in a.history] == [str(x) for x in b.history]


def test_refuses_to_move_out_of_turn() -> None:
    game = Game.new(SeededSource(1))
    with pytest.raises(ValueError):
        choose_action(seat_view(game, Seat.BLACK), random.Random(0))


def test_decides_from_the_view_only() -> None:
    """Hidden cards elsewhere (the opponent's hand, the pile order) do not change the decision."""
    common = {
        "white": "ALOA-BARI DUDA-ELAI",
        "black": "BARI-COCO FAAA-JOJO",
        "white_hand": "ALOA DUDA HUNA",
        "face_up": "KAHU LALE GOLA",
    }
    one = position_game(**common, black_hand="IFFI JOJO COCO", pile="ELAI FAAA KAHU")
    two = position_game(**common, black_hand="ELAI FAAA KAHU", pile="COCO JOJO IFFI")
    assert seat_view(one, Seat.WHITE) == seat_view(two, Seat.WHITE)
    for seed in range(5):
        a = choose_action(seat_view(one, Seat.WHITE), random.Random(seed))
        b = choose_action(seat_view(two, Seat.WHITE), random.Random(seed))
        assert a == b


def run_turn(game: Game, rng: random.Random) -> list[Action]:
    """Let the AI play until its turn ends."""
    seat = game.to_move
    taken: list[Action] = []
    while game.to_move == seat and not game.is_over:
        action = ai_move(game, rng)
        taken.append(action)
        game.apply(action)
        assert len(taken) < 20
    return taken


def test_takes_an_island_when_one_placement_wins_it() -> None:
    # White has ALOA-BARI; one more ALOA line wins ALOA (2 of 3).
    game = position_game(
        white="ALOA-BARI COCO-GOLA",
        black="BARI-DUDA JOJO-KAHU",
        white_hand="ALOA FAAA",
        black_hand="IFFI LALE",
    )
    action = choose_action(seat_view(game, Seat.WHITE), random.Random(0))
    assert isinstance(action, Place)
    game.apply(action)
    assert game.tokens[Seat.WHITE] >> parse_island("ALOA") & 1


def test_takes_the_island_with_the_card_of_the_other_end() -> None:
    # White has COCO-FAAA and COCO-GOLA: a KAHU card on COCO-KAHU wins COCO (3 of 4).
    game = position_game(
        white="COCO-FAAA COCO-GOLA",
        black="BARI-COCO ALOA-HUNA",
        white_hand="KAHU LALE",
        black_hand="IFFI DUDA",
    )
    run_turn(game, random.Random(0))
    assert game.tokens[Seat.WHITE] >> parse_island("COCO") & 1
    assert not game.bridges[Seat.BLACK] >> parse_line("BARI-COCO") & 1


@pytest.mark.parametrize("seed", range(5))
def test_breaks_two_majorities_with_one_removal(seed: int) -> None:
    # Black holds ALOA (2 of 3) and BARI (3 of 5), both through ALOA-BARI; ALOA+BARI removes it.
    game = position_game(
        white="COCO-GOLA ELAI-IFFI",
        black="ALOA-BARI ALOA-DUDA BARI-COCO BARI-DUDA JOJO-KAHU",
        white_hand="ALOA BARI",
        black_hand="IFFI LALE KAHU",
    )
    assert game.tokens[Seat.BLACK] & 0b11 == 0b11
    action = choose_action(seat_view(game, Seat.WHITE), random.Random(seed))
    assert isinstance(action, Remove)
    game.apply(action)
    assert not game.tokens[Seat.BLACK] & 0b11


@pytest.mark.parametrize("seed", range(5))
def test_breaks_an_opponents_majority(seed: int) -> None:
    # Black holds ALOA with ALOA-BARI and ALOA-DUDA; White holds both ALOA cards.
    game = position_game(
        white="ALOA-HUNA COCO-GOLA",
        black="ALOA-BARI ALOA-DUDA JOJO-KAHU",
        white_hand="ALOA ALOA",
        black_hand="IFFI LALE KAHU",
    )
    assert game.tokens[Seat.BLACK] >> parse_island("ALOA") & 1
    action = choose_action(seat_view(game, Seat.WHITE), random.Random(seed))
    assert isinstance(action, Remove)
    game.apply(action)
    assert not game.tokens[Seat.BLACK] >> parse_island("ALOA") & 1


def test_removes_and_rebuilds_to_win_the_island() -> None:
    # ALOA+ALOA removes Black's ALOA-BARI; BARI then rebuilds it: White wins ALOA
    # (with ALOA-HUNA) and Black's ALOA-DUDA goes too.
    game = position_game(
        white="ALOA-HUNA COCO-GOLA",
        black="ALOA-BARI ALOA-DUDA JOJO-KAHU",
        white_hand="ALOA ALOA BARI",
        black_hand="IFFI LALE KAHU",
    )
    taken = run_turn(game, random.Random(0))
    assert isinstance(taken[0], Remove)
    aloa = parse_island("ALOA")
    assert game.tokens[Seat.WHITE] >> aloa & 1
    assert not game.tokens[Seat.BLACK] >> aloa & 1
    assert not game.bridges[Seat.BLACK] >> parse_line("ALOA-DUDA") & 1


def test_variant1_rebuild_wins_the_island() -> None:
    game = position_game(
        white="ALOA-HUNA COCO-GOLA",
        black="ALOA-BARI ALOA-DUDA JOJO-KAHU",
        white_hand="ALOA BARI",
        black_hand="IFFI LALE KAHU",
        options=GameOptions(variant1=True),
    )
    action = choose_action(seat_view(game, Seat.WHITE), random.Random(0))
    assert isinstance(action, Remove) and action.rebuild
    game.apply(action)
    assert game.tokens[Seat.WHITE] >> parse_island("ALOA") & 1


def test_removes_the_last_bridge_of_the_opponent_in_round_two() -> None:
    # Black has one bridge left in the second round: removing it wins the game at once.
    game = position_game(
        white="COCO-GOLA ELAI-IFFI",
        black="HUNA-LALE",
        white_hand="HUNA LALE ALOA",
        black_hand="IFFI KAHU",
        round=2,
        round_points=((1, 0),),
    )
    run_turn(game, random.Random(0))
    assert game.is_over
    assert game.result is not None and game.result.winner is Seat.WHITE


def test_draws_when_it_can_and_respects_the_hand_limit() -> None:
    # Five cards and the opponent just abstained: it must play or discard before drawing.
    game = position_game(
        white="COCO-GOLA",
        black="JOJO-KAHU",
        white_hand="ALOA BARI DUDA HUNA LALE",
        black_hand="IFFI KAHU",
        opponent_abstained=True,
    )
    taken = run_turn(game, random.Random(0))
    assert str(taken[-1]).startswith(("take", "draw"))
    assert game.hand_size(Seat.WHITE) <= 5


def test_final_turn_plays_what_wins() -> None:
    game = position_game(
        white="ALOA-BARI COCO-GOLA",
        black="JOJO-KAHU IFFI-LALE",
        white_hand="ALOA",
        black_hand="KAHU",
        face_up="",
        pile="",
        round=3,
        round_points=((1, 0), (0, 2)),
        phase=Phase.FINAL,
        final_turns_left=1,
    )
    taken = run_turn(game, random.Random(0))
    assert isinstance(taken[0], Place)
    assert isinstance(taken[-1], EndTurn)
    assert game.is_over


def test_fast_enough() -> None:
    game = Game.new(SeededSource(42))
    rng = random.Random(42)
    spent, decisions = 0.0, 0
    while not game.is_over:
        view = seat_view(game, game.to_move)
        start = time.perf_counter()
        action = choose_action(view, rng)
        spent += time.perf_counter() - start
        decisions += 1
        game.apply(action)
    # Well under 5 ms on a developer machine; generous here for slow CI runners.
    assert spent / decisions < 0.02


# ----- levels ----------------------------------------------------------------------------------


def test_levels() -> None:
    from shared.levels import LEVELS

    assert LEVELS == ("easy", "normal", "strong")
    game = Game.new(SeededSource(8))
    view = seat_view(game, Seat.WHITE)
    with pytest.raises(ValueError):
        choose_action(view, random.Random(0), level="grandmaster")
    # The default is the greedy player: the same choice as level="easy".
    assert choose_action(view, random.Random(0)) == choose_action(
        view, random.Random(0), level="easy"
    )
    for level in ("normal", "strong"):
        a = choose_action(view, random.Random(1), level=level, iterations=40)
        b = choose_action(view, random.Random(1), level=level, iterations=40)
        assert a == b and a in game.legal_actions()


def test_strong_keeps_its_time_budget() -> None:
    game = Game.new(SeededSource(12))
    rng = random.Random(12)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    view = seat_view(game, game.to_move)
    start = time.monotonic()
    action = choose_action(view, rng, level="strong")
    assert time.monotonic() - start < 1.5
    assert action in game.legal_actions()


def test_weights_replace_a_searching_levels_evaluation() -> None:
    from shared.evaluation import Weights
    from shared.levels import LEVEL_WEIGHTS

    # Points and islands worth nothing, bridges on the board everything: a builder, not a player.
    builder = Weights(
        progress=(0.0,) * 5, opp_progress=(0.0,) * 5, blocked=0.0, safe=0.0, bridge=10.0,
        few_bridges=0.0, card_base=0.0, card_use=0.0, pair_use=0.0, trigger=0.0, point=0.0,
    )  # fmt: skip
    differ = 0
    for seed in range(4):
        game = Game.new(SeededSource(100 + seed))
        rng = random.Random(seed)
        for _ in range(25):
            game.apply(rng.choice(game.legal_actions()))
        view = seat_view(game, game.to_move)
        as_level = choose_action(view, random.Random(seed), level="strong", iterations=60)
        same = choose_action(
            view,
            random.Random(seed),
            level="strong",
            iterations=60,
            weights=LEVEL_WEIGHTS["strong"],
        )
        assert same == as_level
        other = choose_action(
            view, random.Random(seed), level="strong", iterations=60, weights=builder
        )
        assert other in game.legal_actions()
        differ += other != as_level
    assert differ > 0
