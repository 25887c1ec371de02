"""How strong and how fast the computer opponent is: a script, not a test.

    .venv/bin/python bench/ai_bench.py                 # 200 games against a random player
    .venv/bin/python bench/ai_bench.py -n 100 --opponent greedy --variant1
    .venv/bin/python bench/ai_bench.py --a strong --b easy -n 40     # level against level
    .venv/bin/python bench/ai_bench.py --a normal --b easy -n 20 --iterations 300
    .venv/bin/python bench/ai_bench.py --a strong --b normal -n 100 --iterations 1500 \
        --b-iterations 1850   # each level's own fixed budget
    .venv/bin/python bench/ai_bench.py --a strong --b normal -n 40 --jobs 2  # two processes
    .venv/bin/python bench/ai_bench.py --a strong --b normal -n 140 --start 60  # games 60-199
    .venv/bin/python bench/ai_bench.py --a strong --b strong -n 40 \
        --a-weights blocked=0.4,progress=0:6.9:3.1:1.9:0.2   # A's evaluation changed

Without --a, prints the AI's win rate (it plays each seat in half of the games, and each seat
moves first in half of them) and the time per decision. With --a LEVEL --b LEVEL, plays the
levels of shared.ai.choose_action against each other on deals in pairs, the seats swapped in
the second game of a pair, and prints A's wins, draws and losses, its score (a win 1, a draw
1/2) with a 95% interval, the points margin, and the time per decision of each level. With
--a-weights, A plays its level with those fields of the evaluation's weights changed
(shared.evaluation.Weights; a tuple's items separated by colons), so that new weights meet the
level as it is, or another level, before they are adopted.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.actions import Action, Place, Remove, Take
from shared.ai import choose_action
from shared.board import ISLANDS, NUM_ISLANDS
from shared.evaluation import Weights
from shared.game import Game
from shared.levels import LEVEL_INFER, LEVEL_WEIGHTS, LEVELS
from shared.randomness import SeededSource
from shared.search import TurnPlans
from shared.seen import seen_turns
from shared.types import GameOptions, Seat
from shared.views import seat_view

Player = Callable[[Game, random.Random], Action]


def random_player(game: Game, rng: random.Random) -> Action:
    """Uniformly random among the legal actions."""
    return rng.choice(game.legal_actions())


def greedy_player(game: Game, rng: random.Random) -> Action:
    """A simple baseline: take what wins tokens at once, else build a little, then draw."""
    seat = game.to_move
    actions = game.legal_actions()

    def diff(g: Game) -> int:
        return g.tokens[seat].bit_count() - g.tokens[1 - seat].bit_count()

    base = diff(game)
    best: Action | None = None
    best_gain = 0
    plays = [a for a in actions if isinstance(a, Place | Remove)]
    for action in plays:
        trial = game.clone()
        trial.apply(action)
        gain = diff(trial) - base
        if gain > best_gain:
            best, best_gain = action, gain
    if best is not None:
        return best
    places = [a for a in plays if isinstance(a, Place)]
    if places and game.hand_size(seat) >= 3:
        return rng.choice(places)
    enders = [a for a in actions if isinstance(a, Take) or str(a) in ("draw", "end")]
    if enders:
        return rng.choice(enders)
    return rng.choice(actions)


def ai_player(game: Game, rng: random.Random) -> Action:
    return choose_action(seat_view(game, game.to_move), rng)


OPPONENTS: dict[str, Player] = {"random": random_player, "greedy": greedy_player, "ai": ai_player}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _islands(mask: int) -> str:
    return " ".join(ISLANDS[i] for i in range(NUM_ISLANDS) if mask >> i & 1) or "-"


def _levels_game(
    a: str,
    b: str,
    n: int,
    options: GameOptions,
    seed: int,
    iterations: int | None,
    log: bool = False,
    replan: bool = False,
    b_iterations: int | None = None,
    a_weights: Weights | None = None,
) -> tuple[int, Seat, tuple[int, int], str, Seat | None, dict[str, list[float]], list[str]]:
    """Game `n` of a levels match: (deal, A's seat, scores, reason, winner, decision times by
    player name, and with `log` the game turn by turn)."""
    a_name = player_name(a, a_weights)
    times: dict[str, list[float]] = {a_name: [], b: []}
    deal = seed + n // 2
    a_seat = Seat(n % 2)
    first = Seat(deal % 2)
    game = Game.new(SeededSource(deal), first=first, options=options)
    rng = random.Random(seed * 1_000_003 + n)
    lines: list[str] = []
    turn: list[str] = []
    # One memory of turn plans per player, as the server's computer keeps (--replan: none).
    plans = {Seat.WHITE: TurnPlans(), Seat.BLACK: TurnPlans()}
    while not game.is_over:
        seat = game.to_move
        level = a if seat == a_seat else b
        name = a_name if seat == a_seat else b
        if log and not turn:
            hand = " ".join(ISLANDS[c] for c in seat_view(game, seat).hand)
            turn.append(f"r{game.round} {seat.label} ({name}) [{hand}]:")
        view = seat_view(game, seat)
        budget = iterations if seat == a_seat or b_iterations is None else b_iterations
        start = time.perf_counter()
        action = choose_action(
            view,
            rng,
            level=level,
            iterations=budget,
            plans=None if replan else plans[seat],
            weights=a_weights if seat == a_seat else None,
            # The opponent's last turns as the table saw them, as the server hands them over.
            opponent_turns=seen_turns(game, seat.other) if LEVEL_INFER.get(level) else None,
        )
        times[name].append(time.perf_counter() - start)
        game.apply(action)
        if log:
            turn.append(str(action))
            if game.to_move != seat or game.is_over:
                w, k = game.tokens
                lines.append(
                    f"{turn[0]} {'; '.join(turn[1:])} => White {_islands(w)}"
                    f" ({game.bridges[0].bit_count()} bridges), Black {_islands(k)}"
                    f" ({game.bridges[1].bit_count()}), points {game.scores}"
                )
                turn = []
    assert game.result is not None
    result = game.result
    return deal, a_seat, game.scores, result.reason, result.winner, times, lines


def player_name(level: str, weights: Weights | None) -> str:
    """How a match names a player: its level, marked when --a-weights changed it."""
    return level if weights is None else f"{level}*"


def parse_weights(spec: str, base: Weights) -> Weights:
    """`base` with the fields named in `spec` changed: "blocked=0.4,progress=0:6.9:3.1:1.9:0.2"
    (a tuple's items separated by colons, as many as the field has)."""
    changes: dict[str, object] = {}
    for item in spec.split(","):
        field, sep, value = item.partition("=")
        field = field.strip()
        if not sep or field not in Weights._fields:
            raise ValueError(f"{item!r} is not field=value with a field of {Weights._fields}")
        old = getattr(base, field)
        if isinstance(old, tuple):
            parts = tuple(float(v) for v in value.split(":"))
            if len(parts) != len(old):
                raise ValueError(f"{field} has {len(old)} items, not {len(parts)}")
            changes[field] = parts
        else:
            changes[field] = float(value)
    return base._replace(**changes)  # type: ignore[arg-type]


def levels_match(
    a: str,
    b: str,
    games: int,
    options: GameOptions,
    seed: int,
    iterations: int | None,
    jobs: int = 1,
    show_losses: bool = False,
    replan: bool = False,
    b_iterations: int | None = None,
    start: int = 0,
    a_weights: Weights | None = None,
) -> None:
    """Level `a` against level `b`: deals in pairs with the seats swapped. With `jobs` > 1 the
    games run in that many processes (each decision still runs on one core). With
    `show_losses`, the games `a` lost are printed turn by turn. `start`: the number of the
    first game (a match of N games from 0 can be played in parts: games 0-59, then from 60).
    `a_weights`: A's evaluation instead of its level's."""
    wins = draws = losses = 0
    margins: list[int] = []
    a_name = player_name(a, a_weights)
    times: dict[str, list[float]] = {a_name: [], b: []}
    play = functools.partial(
        _levels_game,
        a,
        b,
        options=options,
        seed=seed,
        iterations=iterations,
        log=show_losses,
        replan=replan,
        b_iterations=b_iterations,
        a_weights=a_weights,
    )
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    numbers = range(start, start + games)
    results = pool.imap(play, numbers) if pool is not None else map(play, numbers)
    for n, (deal, a_seat, scores, reason, winner, spent, log) in enumerate(results):
        for level, values in spent.items():
            times[level] += values
        margins.append(scores[a_seat] - scores[a_seat.other])
        if winner is None:
            draws += 1
        elif winner == a_seat:
            wins += 1
        else:
            losses += 1
        print(
            f"  game {start + n + 1}: deal {deal}, {a_name} plays {a_seat.label}:"
            f" {scores[0]}-{scores[1]}, {reason}",
            flush=True,
        )
        if winner is not None and winner != a_seat:
            for line in log:
                print(f"    {line}")
    if pool is not None:
        pool.close()
    score = (wins + 0.5 * draws) / games
    # 95% interval of the score (normal approximation; per-game outcomes 1, 1/2, 0).
    outcomes = [1.0] * wins + [0.5] * draws + [0.0] * losses
    var = sum((x - score) ** 2 for x in outcomes) / max(1, games - 1)
    half = 1.96 * math.sqrt(var / games)
    mean_margin = sum(margins) / games
    budget = "time budgets" if iterations is None else f"{iterations} iterations a decision"
    if b_iterations is not None:
        budget = f"{a} {'its time budget' if iterations is None else iterations},"
        budget += f" {b} {b_iterations} iterations a decision"
    print(f"{a_name} vs {b} ({options.to_dict()}, {budget}): {games} games, {jobs} job(s)")
    if a_weights is not None:
        print(f"  {a_name}: {a_weights}")
    print(f"  {a_name}: won {wins}, drew {draws}, lost {losses}")
    print(f"  score {100 * score:.1f}% (95% interval {100 * (score - half):.1f}-"
          f"{100 * (score + half):.1f}%), points margin {mean_margin:+.2f} a game")  # fmt: skip
    for level, spent_all in times.items():
        print(
            f"  {level}: {len(spent_all)} decisions,"
            f" mean {1000 * sum(spent_all) / len(spent_all):.1f} ms,"
            f" p99 {1000 * percentile(spent_all, 0.99):.1f} ms,"
            f" max {1000 * max(spent_all):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=200)
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--a", choices=LEVELS, help="a level to play against --b")
    parser.add_argument("--b", choices=LEVELS, default="easy")
    parser.add_argument(
        "--iterations", type=int, help="fixed search iterations a decision instead of time"
    )
    parser.add_argument(
        "--b-iterations",
        type=int,
        help="levels match: --b's fixed iterations a decision (default: as --iterations)",
    )
    parser.add_argument("--variant1", action="store_true")
    parser.add_argument("--variant2", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--jobs", type=int, default=1, help="levels match: games in this many processes"
    )
    parser.add_argument(
        "--start", type=int, default=0, help="levels match: the number of the first game"
    )
    parser.add_argument(
        "--show-losses", action="store_true", help="levels match: print A's lost games"
    )
    parser.add_argument(
        "--a-weights",
        metavar="FIELD=VALUE,...",
        help="levels match: A's evaluation weights changed (a searching level)",
    )
    parser.add_argument(
        "--replan",
        action="store_true",
        help="levels match: search at every decision of a turn (default: follow the turn's plan)",
    )
    args = parser.parse_args()
    options = GameOptions(variant1=args.variant1, variant2=args.variant2)
    a_weights: Weights | None = None
    if args.a_weights is not None:
        if args.a not in LEVEL_WEIGHTS:
            parser.error("--a-weights needs --a with a searching level")
        try:
            a_weights = parse_weights(args.a_weights, LEVEL_WEIGHTS[args.a])
        except ValueError as error:
            parser.error(f"--a-weights: {error}")
    if args.a is not None:
        levels_match(
            args.a,
            args.b,
            args.games,
            options,
            args.seed,
            args.iterations,
            args.jobs,
            args.show_losses,
            args.replan,
            args.b_iterations,
            args.start,
            a_weights,
        )
        return
    opponent = OPPONENTS[args.opponent]

    wins = losses = draws = 0
    reasons: Counter[str] = Counter()
    decisions = 0
    spent = 0.0
    worst = 0.0
    actions = 0
    for n in range(args.games):
        seed = args.seed + n
        ai_seat = Seat(n % 2)
        first = Seat(n // 2 % 2)
        game = Game.new(SeededSource(seed), first=first, options=options)
        rng = random.Random(seed)
        while not game.is_over:
            if game.to_move == ai_seat:
                view = seat_view(game, ai_seat)
                start = time.perf_counter()
                action = choose_action(view, rng)
                took = time.perf_counter() - start
                spent += took
                worst = max(worst, took)
                decisions += 1
            else:
                action = opponent(game, rng)
            game.apply(action)
            actions += 1
        assert game.result is not None
        winner = game.result.winner
        if winner is None:
            draws += 1
        elif winner == ai_seat:
            wins += 1
            reasons[game.result.reason] += 1
        else:
            losses += 1
    total = args.games
    print(
        f"AI vs {args.opponent} ({options.to_dict()}): {total} games,"
        f" won {wins} ({100 * wins / total:.1f}%), lost {losses}, drawn {draws}"
    )
    print("  wins by: " + ", ".join(f"{r} {c}" for r, c in reasons.most_common()))
    print(
        f"  {decisions} decisions, {1000 * spent / decisions:.3f} ms per decision on average,"
        f" worst {1000 * worst:.2f} ms; {actions / total:.0f} actions per game"
    )


if __name__ == "__main__":
    main()
