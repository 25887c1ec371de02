"""What the opponent's last turns say about its hand (shared.inference), and the greedy player's
own account of its choices (shared.greedy.greedy_would)."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

from shared.actions import TURN_ENDS, Discard, Handicap
from shared.ai import choose_action
from shared.game import FULL_DECK, Game
from shared.greedy import greedy_action, greedy_would
from shared.history import Move
from shared.inference import HandPosterior, OpponentTurn
from shared.randomness import SeededSource
from shared.sampling import Sampler
from shared.seen import Seen, seen_turns
from shared.types import GameOptions, Phase, Seat
from shared.views import SeatView, seat_view
from tests.options import OPTIONS
from tests.shared.test_search import redeal

ENDERS = (*TURN_ENDS, Handicap)


def greedy_game(seed: int) -> list[tuple[Game, dict[Seat, list[list[Seen]]]]]:
    """A game between two greedy players: at each of White's first decisions of a turn, the
    game and the turns both players made so far as the table saw them."""
    game = Game.new(SeededSource(seed), first=Seat(seed % 2))
    rng = random.Random(seed)
    turns: dict[Seat, list[list[Seen]]] = {Seat.WHITE: [], Seat.BLACK: []}
    this: list[Seen] = []
    out: list[tuple[Game, dict[Seat, list[list[Seen]]]]] = []
    while not game.is_over:
        seat = game.to_move
        view = seat_view(game, seat)
        if seat is Seat.WHITE and not this and view.public.phase is not Phase.HANDICAP:
            out.append((game.clone(), {s: [list(t) for t in ts] for s, ts in turns.items()}))
        action = greedy_action(view, rng)
        this.append((view.public, None if isinstance(action, Discard) else action))
        game.apply(action)
        if game.to_move is not seat or game.is_over:
            turns[seat].append(this)
            this = []
    return out


def hand_of(game: Game, seat: Seat) -> list[int]:
    return [card for card, n in enumerate(game.hand_counts(seat)) for _ in range(n)]


def test_the_greedy_player_would_make_its_own_choices() -> None:
    rng = random.Random(3)
    told_apart = 0
    for game, _ in greedy_game(11)[::3]:
        view = seat_view(game, Seat.WHITE)
        chosen = greedy_action(view, rng)
        assert greedy_would(view, chosen)
        others = [a for a in game.legal_actions() if a != chosen]
        told_apart += sum(not greedy_would(view, a) for a in others)
    assert told_apart > 20  # most other actions are not ones it would make


def test_the_true_hand_explains_a_greedy_opponents_turns() -> None:
    checked = informative = 0
    for seed in (5, 6):
        for game, turns in greedy_game(seed):
            if not turns[Seat.BLACK]:
                continue
            view = seat_view(game, Seat.WHITE)
            posterior = HandPosterior(Sampler(view, view.public.known), turns[Seat.BLACK])
            true = posterior.likelihood(hand_of(game, Seat.BLACK))
            assert true > 0
            posterior.build(random.Random(seed), hypotheses=24)
            if posterior.informative:
                informative += 1
                # The true hand explains the turns at least as well as a typical guess.
                assert true >= sorted(posterior.weights)[len(posterior.weights) // 4]
            checked += 1
    assert checked > 30 and informative > 5


def test_the_posterior_deals_only_hands_the_view_allows() -> None:
    for game, turns in greedy_game(7)[4:30:5]:
        view = seat_view(game, Seat.WHITE)
        sampler = Sampler(view, view.public.known)
        posterior = HandPosterior(sampler, turns[Seat.BLACK])
        posterior.build(random.Random(1), hypotheses=16)
        rng = random.Random(2)
        for _ in range(5):
            hidden = sampler.sample(rng, posterior.draw(rng))
            theirs = Counter(hidden.hands[Seat.BLACK])
            assert theirs.total() == view.public.hand_sizes[Seat.BLACK]
            assert not Counter(view.public.known[Seat.BLACK]) - theirs
            everywhere = theirs + Counter(hidden.pile) + Counter(hidden.face_down)
            everywhere += Counter(view.hand) + Counter(view.public.face_up)
            assert everywhere + Counter(view.public.played) == Counter(FULL_DECK)


def test_a_card_not_seen_ends_the_reading() -> None:
    games = greedy_game(8)
    game, turns = games[len(games) // 2]
    view = seat_view(game, Seat.WHITE)
    sampler = Sampler(view, view.public.known)
    last = turns[Seat.BLACK][-1]
    hidden_discard: OpponentTurn = [(last[0][0], None), *last]
    assert not HandPosterior(sampler, [*turns[Seat.BLACK], hidden_discard]).informative
    # A turn of the reading seat itself is not the opponent's to read.
    assert not HandPosterior(sampler, [turns[Seat.WHITE][-1]]).informative
    assert HandPosterior(sampler, turns[Seat.BLACK]).turns


def test_the_turns_seen_are_rebuilt_from_the_log() -> None:
    games = greedy_game(12)
    for game, turns in games[3::9]:
        for seat in Seat:
            rebuilt = seen_turns(game, seat, count=len(turns[seat]))
            assert rebuilt == turns[seat]
            assert seen_turns(game, seat, count=2) == turns[seat][-2:]
            # The public views only; the known cards too, which == leaves out.
            assert [[p.known for p, _ in t] for t in rebuilt] == [
                [p.known for p, _ in t] for t in turns[seat]
            ]
    assert seen_turns(games[0][0], Seat.BLACK) == []


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.to_dict()))
def test_a_card_discarded_face_down_is_not_seen(options: GameOptions) -> None:
    discards = 0
    for seed in range(6):
        game = Game.new(SeededSource(seed), first=Seat.WHITE, options=options)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        for seat in Seat:
            moves = [e.action for e in game.log if isinstance(e, Move) and e.seat is seat]
            while moves and not isinstance(moves[-1], ENDERS):
                moves.pop()  # a turn the game's end cut short is not a whole turn
            seen = [a for turn in seen_turns(game, seat, count=1000) for _, a in turn]
            played = moves[len(moves) - len(seen) :]
            assert seen == [None if isinstance(a, Discard) else a for a in played]
            discards += sum(isinstance(a, Discard) for a in played)
    assert discards > 3


def test_the_strong_levels_choice_depends_on_the_view_and_the_turns_seen_alone() -> None:
    """The same view and the same opponent's turns, the hidden cards dealt otherwise: the same
    choice at a fixed budget."""
    checked = 0
    for game, _ in greedy_game(13)[6:40:8]:
        seat = Seat.WHITE
        view = seat_view(game, seat)
        turns = seen_turns(game, seat.other)
        redealt = seat_view(redeal(game, seat, 3), seat)
        assert redealt.hand == view.hand and redealt.public == view.public
        same = SeatView(seat, attrs.evolve(redealt.public, known=view.public.known), view.hand)
        choices = {
            choose_action(v, random.Random(5), level="strong", iterations=80, opponent_turns=turns)
            for v in (view, same)
        }
        assert len(choices) == 1
        checked += 1
    assert checked >= 3
