"""Sampling hidden states from a seat's view (shared.sampling) and the searches that decide from
them: the plan search of the levels (shared.search, with the opponent's replies of
shared.replies) and the information-set tree search (shared.ismcts)."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from shared.actions import Handicap, Place, Take
from shared.ai import choose_action
from shared.board import parse_island, parse_line
from shared.evaluation import DEFAULT_WEIGHTS, TUNED_WEIGHTS, WIN, Weights
from shared.game import FULL_DECK, Game
from shared.ismcts import Search, search_action
from shared.levels import LEVEL_WEIGHTS, LEVELS
from shared.playout import DISCARD_BASE, PHASES, RandomSource, Sim, from_action
from shared.randomness import RecordedSource, SeededSource
from shared.replies import GainMemo, board_total, reply_gain, reply_options, reply_turn
from shared.sample_value import LeafValue, hand_value, leaf_value
from shared.sampling import Sampler, SamplingError
from shared.search import PlanSearch, TurnPlans, plan_action
from shared.types import GameOptions, Phase, Seat
from shared.views import SeatView, seat_view
from tests.options import OPTIONS
from tests.positions import game as position_game


def views_along_a_random_game(seed: int, options: GameOptions, every: int = 7) -> list[SeatView]:
    """Both seats' views at every `every`-th position of a random game, to its end."""
    game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
    rng = random.Random(seed)
    out: list[SeatView] = []
    step = 0
    while not game.is_over:
        if step % every == 0:
            out += [seat_view(game, Seat.WHITE), seat_view(game, Seat.BLACK)]
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    return out


def game_of(sampler: Sampler, view: SeatView, rng: random.Random) -> Game:
    """A checked-engine game holding one sample of the hidden cards."""
    hidden = sampler.sample(rng)
    pub = view.public
    if pub.phase is not Phase.HANDICAP:
        return Game.from_position(sampler.position(hidden), SeededSource(0))
    # Before the first turn: the same deal, and the handicap bridges placed so far.
    deal = [*hidden.hands[0], *hidden.hands[1], *pub.face_up, *hidden.pile]
    game = Game.new(RecordedSource([deal]), options=pub.options)
    for line in range(27):
        if pub.bridges[pub.to_move] >> line & 1:
            game.apply(Handicap(line))
    return game


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_every_sample_shows_the_seat_its_view(options: GameOptions) -> None:
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for view in views_along_a_random_game(seed, options):
            if view.public.result is not None:
                continue
            sampler = Sampler(view)
            for _ in range(3):
                assert seat_view(game_of(sampler, view, rng), view.seat) == view
                sim = sampler.sim(rng, RandomSource(rng))
                assert sim.hand[view.seat] == [view.hand.count(i) for i in range(12)]
                assert sim.size == list(view.public.hand_sizes)
                assert PHASES[sim.phase] is view.public.phase
                assert len(sim.pile) == view.public.pile_size
                everywhere = Counter(sim.pile + sim.face_up + sim.played + sim.face_down)
                everywhere += Counter({i: sim.hand[0][i] + sim.hand[1][i] for i in range(12)})
                assert everywhere == Counter(FULL_DECK)
                checked += 1
    assert checked > 50


def test_samples_differ_and_cover_the_unseen_cards() -> None:
    game = Game.new(SeededSource(4))
    view = seat_view(game, Seat.WHITE)
    sampler = Sampler(view)
    rng = random.Random(0)
    hands = {sampler.sample(rng).hands[Seat.BLACK] for _ in range(200)}
    assert len(hands) > 50
    in_hands = Counter(card for hand in hands for card in hand)
    unseen = Counter(FULL_DECK) - Counter(view.hand) - Counter(view.public.face_up)
    assert set(in_hands) == set(unseen)


def test_known_cards_are_in_the_sampled_hand() -> None:
    # Black takes face-up cards everyone sees; a sample keeps them in Black's hand.
    game = Game.new(SeededSource(9), first=Seat.WHITE)
    taken: list[int] = []
    while game.hand_size(Seat.BLACK) < 5:
        take = next(a for a in game.legal_actions() if isinstance(a, Take))
        if game.to_move is Seat.BLACK:
            taken.append(take.card)
        game.apply(take)
    view = seat_view(game, Seat.WHITE)
    rng = random.Random(9)
    sampler = Sampler(view, (list(view.hand[:1]), taken))
    plain = Sampler(view)
    for _ in range(50):
        assert not Counter(taken) - Counter(sampler.sample(rng).hands[Seat.BLACK])
    # Without them, samples do put other cards there.
    assert any(Counter(taken) - Counter(plain.sample(rng).hands[Seat.BLACK]) for _ in range(50))
    with pytest.raises(SamplingError):
        Sampler(view, ((), taken * 3))  # more cards than the hand holds
    missing = next(c for c in range(12) if view.hand.count(c) == 0)
    with pytest.raises(SamplingError):
        Sampler(view, ([missing], ()))  # not in White's own hand


# ----- the search ------------------------------------------------------------------------------


def redeal(game: Game, seat: Seat, seed: int) -> Game:
    """The same position with everything `seat` cannot see dealt again."""
    view = seat_view(game, seat)
    return game_of(Sampler(view), view, random.Random(seed))


@pytest.mark.parametrize("options", OPTIONS[:4], ids=lambda o: str(o.to_dict()))
def test_the_choice_depends_on_the_view_alone(options: GameOptions) -> None:
    """Different hidden cards, same view, same seed and iteration budget: the same choice."""
    checked = 0
    for seed in range(2):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        rng = random.Random(seed)
        for _ in range(25 + 20 * seed):
            game.apply(rng.choice(game.legal_actions()))
            if game.is_over:
                break
        if game.is_over or game.phase is Phase.HANDICAP:
            continue
        seat = game.to_move
        other = redeal(game, seat, seed + 1)
        assert seat_view(other, seat) == seat_view(game, seat)
        assert (other.pile, other.hand) != (game.pile, game.hand)
        choices = {
            choose_action(seat_view(g, seat), random.Random(5), level="normal", iterations=60)
            for g in (game, other)
        }
        assert len(choices) == 1
        checked += 1
    assert checked


def test_the_search_returns_legal_actions_for_whole_games() -> None:
    for seed, options in enumerate(OPTIONS):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        rng = random.Random(seed)
        while not game.is_over:
            view = seat_view(game, game.to_move)
            if game.to_move is Seat.WHITE:
                action = search_action(view, rng, iterations=8)
            else:
                action = rng.choice(game.legal_actions())
            assert action in game.legal_actions()
            game.apply(action)


def test_search_wins_an_island_it_can_win() -> None:
    # White has ALOA-BARI; one more ALOA line wins ALOA (2 of 3).
    game = position_game(
        white="ALOA-BARI COCO-GOLA",
        black="BARI-DUDA JOJO-KAHU",
        white_hand="ALOA FAAA",
        black_hand="IFFI LALE",
    )
    rng = random.Random(0)
    while game.to_move is Seat.WHITE:
        game.apply(search_action(seat_view(game, Seat.WHITE), rng, iterations=200))
    assert game.tokens[Seat.WHITE] >> parse_island("ALOA") & 1


def huna_sweep_game() -> Game:
    """Black has two HUNA lines (3 of 5 win it) and, as White can tell from the cards it sees,
    both HUNA cards in hand: White's bridge on DUDA-HUNA would be swept away at once."""
    return position_game(
        white="COCO-GOLA JOJO-KAHU",
        black="HUNA-IFFI HUNA-LALE",
        white_hand="DUDA BARI",
        black_hand="HUNA HUNA",
        face_up="",
        pile="",
        round=3,
        round_points=((0, 0), (0, 0)),
        phase=Phase.FINAL,
        final_turns_left=2,
    )


def test_search_does_not_build_where_the_opponent_sweeps() -> None:
    game = huna_sweep_game()
    seen = seat_view(game, Seat.WHITE)
    assert Sampler(seen).sample(random.Random(0)).hands[Seat.BLACK] == (7, 7)
    chosen = search_action(seen, random.Random(0), iterations=300)
    assert chosen != Place(parse_island("DUDA"), parse_line("DUDA-HUNA"))


def test_a_time_budget_is_kept() -> None:
    game = Game.new(SeededSource(3))
    view = seat_view(game, Seat.WHITE)
    start = time.monotonic()
    action = search_action(view, random.Random(0), seconds=0.1)
    assert time.monotonic() - start < 0.6
    assert action in game.legal_actions()


def test_the_tree_is_reused_within_a_turn() -> None:
    game = position_game(
        white="ALOA-BARI COCO-GOLA",
        black="BARI-DUDA JOJO-KAHU",
        white_hand="ALOA FAAA GOLA",
        black_hand="IFFI LALE",
    )
    view = seat_view(game, Seat.WHITE)
    search = Search(view)
    search.run(random.Random(0), iterations=200)
    action = search.best()
    child = search.root.children[from_action(action)]
    game.apply(action)
    assert search.advance(action, seat_view(game, Seat.WHITE))
    assert search.root is child and child.visits > 0
    # A view that does not follow from the action is refused.
    assert not Search(view).advance(action, view)


# ----- whole-turn plans (what the levels use) -----------------------------------------------


def test_plans_return_legal_actions_for_whole_games() -> None:
    for seed, options in enumerate(OPTIONS):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        rng = random.Random(seed)
        while not game.is_over:
            view = seat_view(game, game.to_move)
            if game.to_move is Seat.WHITE and game.phase is not Phase.HANDICAP:
                action = plan_action(view, rng, iterations=6, deep=seed % 2)
            else:
                action = rng.choice(game.legal_actions())
            assert action in game.legal_actions()
            game.apply(action)


def test_plans_include_the_greedy_players_first_play() -> None:
    for seed in range(4):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2))
        rng = random.Random(seed)
        for _ in range(10 * seed):
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        view = seat_view(game, game.to_move)
        firsts = {plan[0] for plan in PlanSearch(view).plans}
        assert from_action(choose_action(view, random.Random(0))) in firsts


def test_plans_win_an_island_they_can_win() -> None:
    # The last turn of the game: ALOA (2 of 3 with ALOA-BARI) is won now or never.
    game = position_game(
        white="ALOA-BARI COCO-GOLA",
        black="BARI-DUDA JOJO-KAHU",
        white_hand="ALOA FAAA",
        black_hand="IFFI LALE",
        face_up="",
        pile="",
        round=3,
        round_points=((0, 0), (0, 0)),
        phase=Phase.FINAL,
        final_turns_left=1,
    )
    rng = random.Random(0)
    while not game.is_over:
        game.apply(plan_action(seat_view(game, Seat.WHITE), rng, iterations=100))
    assert game.tokens[Seat.WHITE] >> parse_island("ALOA") & 1


def test_plans_do_not_build_where_the_opponent_sweeps() -> None:
    game = huna_sweep_game()
    chosen = plan_action(seat_view(game, Seat.WHITE), random.Random(0), iterations=100)
    assert chosen != Place(parse_island("DUDA"), parse_line("DUDA-HUNA"))


def test_the_replys_gains_match_a_full_recount() -> None:
    count = 0
    for seed in range(8):
        options = GameOptions(variant1=seed % 2 == 1)
        sim = Sim.from_game(
            Game.new(SeededSource(seed), first=Seat(seed % 2), options=options),
            RandomSource(random.Random(seed)),
        )
        rng = random.Random(seed)
        while not sim.over:
            s, o = sim.to_move, 1 - sim.to_move
            before = board_total(sim.bridges[s], sim.bridges[o], sim.tokens[s], sim.tokens[o])
            for code in sim.legal():
                if code >= DISCARD_BASE:
                    continue
                after = sim.copy()
                after.apply(code)
                full = board_total(
                    after.bridges[s], after.bridges[o], after.tokens[s], after.tokens[o]
                )
                if sim.round >= 2 and not after.bridges[o]:
                    full += WIN
                assert reply_gain(sim, code) == pytest.approx(full - before)
                count += 1
            sim.apply(rng.choice(sim.legal()))
    assert count > 500


# ----- the plan of a turn, followed -----------------------------------------------------------


def test_a_turns_later_decisions_follow_the_plan_its_first_chose() -> None:
    # Whole games with a memory of turn plans: every action is legal, every decision that is
    # not a turn's first and finds a recorded step plays that step without searching, and each
    # step is the next action of the plan recorded at the turn's earlier decision.
    for seed, options in enumerate(OPTIONS[:4]):
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        rng = random.Random(seed)
        plans = TurnPlans()
        followed = searched = 0
        expected: list[int] = []  # the rest of the current plan of White's turn
        while not game.is_over:
            view = seat_view(game, game.to_move)
            if game.to_move is Seat.WHITE and game.phase is not Phase.HANDICAP:
                before = len(plans._next)
                action = plan_action(view, rng, iterations=12, plans=plans)
                if expected and from_action(action) == expected[0] and len(plans._next) < before:
                    followed += 1
                    expected = expected[1:]
                else:
                    searched += 1
                    search = PlanSearch(view)
                    chosen = [p for p in search.plans if p[0] == from_action(action)]
                    expected = list(chosen[0][1:]) if chosen else []
            else:
                action = rng.choice(game.legal_actions())
                expected = []
            assert action in game.legal_actions()
            game.apply(action)
        assert followed > 0 and searched > 0


def test_turn_plans_answer_only_the_point_of_the_turn_they_recorded() -> None:
    game = position_game(
        white="COCO-GOLA",
        black="HUNA-IFFI",
        white_hand="ALOA BARI DUDA",
        black_hand="HUNA HUNA",
    )
    view = seat_view(game, Seat.WHITE)
    first = Place(parse_island("ALOA"), parse_line("ALOA-BARI"))
    second = Place(parse_island("BARI"), parse_line("BARI-DUDA"))
    plans = TurnPlans()
    take = Take(view.public.face_up[0])
    plans.record(view, (from_action(first), from_action(second), from_action(take)))
    assert plans.follow(view) is None  # the first step was already played
    game.apply(first)
    after = seat_view(game, Seat.WHITE)
    assert plans.follow(seat_view(game, Seat.BLACK)) is None
    assert plans.follow(after) == second
    assert plans.follow(after) is None  # a step is given once
    game.apply(second)
    assert plans.follow(seat_view(game, Seat.WHITE)) == take
    assert not plans._next  # nothing is left of the turn


def test_the_opponents_reply_options_each_end_its_turn() -> None:
    # Every option of the paranoid reply is the opponent's whole turn (the game is over or the
    # searching seat is to move), and the greedy reply of the other levels is among them.
    checked = 0
    for seed in range(6):
        sim = Sim.from_game(
            Game.new(SeededSource(seed), first=Seat(seed % 2)), RandomSource(random.Random(seed))
        )
        rng = random.Random(seed)
        while not sim.over:
            mover = sim.to_move
            if sim.phase != PHASES.index(Phase.HANDICAP):
                options = reply_options(sim)
                assert options
                for out in options:
                    assert out.over or out.to_move != mover
                greedy = sim.copy()
                reply_turn(greedy)
                keys = {(*o.bridges, *o.tokens, o.phase) for o in options}
                assert (*greedy.bridges, *greedy.tokens, greedy.phase) in keys
                checked += len(options)
            sim.apply(rng.choice(sim.legal()))
    assert checked > 100


def test_the_strong_level_decides_legally_with_paranoid_replies() -> None:
    game = Game.new(SeededSource(3), first=Seat.WHITE)
    rng = random.Random(3)
    plans = TurnPlans()
    while not game.is_over:
        view = seat_view(game, game.to_move)
        if game.to_move is Seat.WHITE:
            action = choose_action(view, rng, level="strong", iterations=24, plans=plans)
        else:
            action = choose_action(view, rng)
        assert action in game.legal_actions()
        game.apply(action)


def _sweep_threat(black_hand: str) -> Game:
    # White holds ALOA (2 of its 3 lines); ALOA with BARI in Black's hand removes ALOA-BARI.
    return position_game(
        white="ALOA-BARI ALOA-HUNA COCO-GOLA",
        black="BARI-DUDA JOJO-KAHU",
        white_hand="",  # nothing to play before the evaluation: the board stays as it is
        black_hand=black_hand,
    )


def test_the_opponents_cards_count_against_the_searcher() -> None:
    def sim_of(game: Game) -> Sim:
        return Sim.from_game(game, RandomSource(random.Random(0)))

    values = {}
    for hand in ("", "ALOA", "ALOA BARI"):
        game = _sweep_threat(hand)
        assert game.tokens[Seat.WHITE] >> parse_island("ALOA") & 1
        ctx = game.turn_context()
        values[hand] = hand_value(ctx, sim_of(game), int(Seat.BLACK))
        view = seat_view(game, Seat.WHITE)
        counted = PlanSearch(view, opponent_hand=True)._score(sim_of(game))
        assert counted == PlanSearch(view)._score(sim_of(game)) - values[hand]
    assert values[""] == 0.0
    # The pair that breaks White's island is worth far more than its two cards alone.
    assert values["ALOA BARI"] > 2 * values["ALOA"] + 1.0


def test_the_leaf_weighs_the_opponents_cards_by_the_weights_given() -> None:
    game = _sweep_threat("ALOA BARI")
    ctx = game.turn_context()
    view = seat_view(game, Seat.WHITE)

    def score(weights: Weights) -> float:
        sim = Sim.from_game(game, RandomSource(random.Random(0)))
        return PlanSearch(view, opponent_hand=True, weights=weights)._score(sim)

    held = hand_value(ctx, Sim.from_game(game, RandomSource(random.Random(0))), 1)
    assert held > 0.0
    doubled = DEFAULT_WEIGHTS._replace(opp_hand=2.0)
    assert score(doubled) == pytest.approx(score(DEFAULT_WEIGHTS) - held)


@pytest.mark.parametrize("level", [level for level in LEVELS if level != "easy"])
def test_each_searching_level_decides_with_its_own_weights(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shared.ai

    seen: list[Weights] = []
    real = plan_action  # what shared.ai calls

    def spy(*args: object, **kwargs: object) -> object:
        weights = kwargs["weights"]
        assert isinstance(weights, Weights)
        seen.append(weights)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(shared.ai, "plan_action", spy)
    game = _sweep_threat("ALOA BARI")
    choose_action(seat_view(game, Seat.WHITE), random.Random(1), level=level, iterations=50)
    assert seen == [LEVEL_WEIGHTS[level]]


def test_the_fast_leaf_value_is_leaf_value_to_the_last_bit() -> None:
    """shared.sample_value.LeafValue (the strong level's) gives exactly leaf_value's numbers."""
    count = 0
    for seed in range(12):
        options = OPTIONS[seed % len(OPTIONS)]
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        ctx = seat_view(game, game.to_move).turn_context()
        assert ctx is not None
        sim = Sim.from_game(game, RandomSource(random.Random(seed)))
        rng = random.Random(seed)
        while not sim.over:
            for me in (0, 1):
                for weights in (DEFAULT_WEIGHTS, TUNED_WEIGHTS):
                    for opponent_hand in (False, True):
                        base = seed % 3 - 1
                        fast = LeafValue(ctx, me, weights, opponent_hand, base)
                        assert fast(sim) == leaf_value(ctx, sim, me, weights, opponent_hand, base)
                        count += 1
            # Greedy turns reach the boards of real games; random plays the odd ones.
            if rng.random() < 0.5:
                reply_turn(sim)
            else:
                sim.apply(rng.choice(sim.legal()))
    assert count > 5000


def test_the_replies_with_a_memo_of_gains_play_as_without() -> None:
    """The strong level's replies remember the gains of plays by board (GainMemo): the same
    turns as the replies that compute them every time."""

    def state(sim: Sim) -> tuple[object, ...]:
        return (sim.bridges, sim.tokens, sim.hand, sim.face_up, sim.phase, sim.to_move)

    memo: GainMemo = {}
    count = 0
    for seed in range(10):
        options = OPTIONS[seed % len(OPTIONS)]
        game = Game.new(SeededSource(seed), first=Seat(seed % 2), options=options)
        sim = Sim.from_game(game, RandomSource(random.Random(seed)))
        rng = random.Random(seed)
        while not sim.over:
            for plays_only in (False, True):
                plain, memoed = sim.copy(), sim.copy()
                # The same reshuffles for both, should a draw empty the pile.
                plain.source = RandomSource(random.Random(count))
                memoed.source = RandomSource(random.Random(count))
                reply_turn(plain, plays_only)
                reply_turn(memoed, plays_only, memo)
                assert state(plain) == state(memoed)
            sim.source = RandomSource(random.Random(count))
            plain_outs = [state(out) for out in reply_options(sim)]
            sim.source = RandomSource(random.Random(count))
            assert plain_outs == [state(out) for out in reply_options(sim, memo)]
            count += 1
            sim.apply(rng.choice(sim.legal()))
    assert count > 300 and memo
