"""Are the analysis's chances honest? A script, not a test.

    .venv/bin/python bench/calibration_bench.py --games 100 --per-game 10   # a quick look

Plays games between the computer's levels (easy against normal, each side both ways, and each
level against itself), takes positions spread over each game (the start of a turn), and from each
estimates one seat's chance from that seat's own view as shared.analysis does (greedy playouts
from samples of what the view hides): the mover's view (a turn's start, the analysis's `before`
until issue 40) or the other seat's (the same state is the analysis's `after` of the turn
before, sampled afresh), by a coin. Compares with who won that game (a draw counts half).

With --turns, each position of the seat to move is also judged as the analysis judges the turn
then played (shared.judging, issue 40): the chance the turn left before the card it turned up
was seen (the analysis's `expected`, against which a turn's cost is measured), and the chance
once that card was seen (its `after`, the card put on top of each sample's pile), beside the
chance from the view after the turn sampled afresh (how `after` was estimated before); each
read through the calibration of the seat waiting, each with its own table.

For the raw share, for the chance shared.analysis gives (its calibration as committed) and, with
--fit FILE, for a calibration fitted on the positions saved in FILE: the positions grouped in
tenths of the estimate, each tenth with its count of positions and of games, the mean estimate,
the share won with a 95% interval (a bootstrap over games: the positions of one game share its
outcome, so they are resampled together; Wilson's interval, which takes the positions as
independent, beside it), the gap between the two, the largest gap over the tenths with enough
positions to judge (--min-count); the Brier score and the log loss; and the same apart for the
views of the seat to move and of the seat waiting (the analysis compares the two: a turn's cost).

The calibration (shared.analysis.calibrated) is a logistic on the logit of the raw share, held
within CLIP and 1 - CLIP, plus a constant for the seat to move (minus it for the other); --fit
finds its A and M by Newton's method for a given --clip. The honest figure is on positions the
fit has not seen: play and save sets, fit on some, judge on another (other seeds), or --cross:
each set judged by the calibration fitted on the others. The committed constants and the
README's table:

    .venv/bin/python bench/calibration_bench.py --games 600 --seed 100000 --save fit1.jsonl
    .venv/bin/python bench/calibration_bench.py --games 600 --seed 200000 --save fit2.jsonl
    .venv/bin/python bench/calibration_bench.py --load fit1.jsonl --load fit2.jsonl --cross
    .venv/bin/python bench/calibration_bench.py --load fit1.jsonl --fit fit1.jsonl --fit fit2.jsonl

(about 11 minutes for 600 games on one core). Game i of a run is played from seed SEED + i, so
runs whose seeds are further apart than their counts of games share no game. --load reads saved
positions instead of playing (repeatable, the files joined). The fitted constants are printed as
shared/analysis.py spells them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shared.actions import Action, Draw, Take, Undo  # noqa: E402
from shared.ai import choose_action  # noqa: E402
from shared.analysis import CALIBRATION_CLIP, PLAYOUTS, calibrated, raw_chance  # noqa: E402
from shared.events import CardDrawn, CardTaken, Reshuffled  # noqa: E402
from shared.game import Game  # noqa: E402
from shared.judging import judge  # noqa: E402
from shared.playout import from_action  # noqa: E402
from shared.randomness import SeededSource  # noqa: E402
from shared.types import GameOptions, Seat  # noqa: E402
from shared.views import SeatView, seat_view  # noqa: E402

LEVEL_BUDGET = {"easy": None, "normal": 60}  # plan evaluations a decision, for speed
PAIRINGS = [("easy", "normal"), ("normal", "easy"), ("normal", "normal"), ("easy", "easy")]

Position = dict[str, Any]  # one saved position: see `measure`


class Played:
    """One turn as played: its actions, and the card its end turned up (None: none, or the
    discards were reshuffled)."""

    def __init__(self) -> None:
        self.actions: list[Action] = []
        self.card: int | None = None
        self.reshuffled = False


def play_game(
    seed: int, white: str, black: str
) -> tuple[list[tuple[SeatView, SeatView]], Seat | None, list[Played]]:
    """A game between the levels: copies of the game at the start of each turn, the winner,
    and each turn as played."""
    rng = random.Random(seed)
    game = Game.new(SeededSource(seed), Seat.WHITE, GameOptions())
    levels = {Seat.WHITE: white, Seat.BLACK: black}
    starts: list[tuple[SeatView, SeatView]] = []
    played: list[Played] = []
    mover = None
    for _ in range(2000):
        if game.is_over:
            break
        if game.to_move is not mover:
            mover = game.to_move
            starts.append((seat_view(game, Seat.WHITE), seat_view(game, Seat.BLACK)))
            played.append(Played())
        level = levels[game.to_move]
        view = seat_view(game, game.to_move)
        action = choose_action(view, rng, level=level, iterations=LEVEL_BUDGET[level])
        turn = played[-1]
        turn.actions.append(action)  # (the levels never undo)
        for event in game.apply(action):
            if isinstance(event, CardDrawn) and event.card is not None:
                turn.card = event.card
            elif isinstance(event, CardTaken) and event.replacement is not None:
                turn.card = event.replacement
            elif isinstance(event, Reshuffled):
                turn.reshuffled = True
    result = game.result
    return starts, None if result is None else result.winner, played


def judge_turn(
    starts: Sequence[tuple[SeatView, SeatView]],
    played: Sequence[Played],
    index: int,
    seat: Seat,
    playouts: int,
    seed: int,
) -> dict[str, float]:
    """The turn played from start `index` (its seat to move), as the analysis judges it: the
    raw shares of `expected`, of `after` with the card revealed, and of the view after the turn
    sampled afresh (when the game went on)."""
    turn = played[index]
    if any(isinstance(a, Undo) for a in turn.actions):
        return {}
    ends = turn.actions[-1]
    card = turn.card if isinstance(ends, Draw | Take) and not turn.reshuffled else None
    rng = random.Random(seed)
    codes = [from_action(a) for a in turn.actions]
    shares = judge(starts[index][int(seat)], codes, None, card, rng, playouts)
    out = {"expected": shares.played}
    if shares.revealed is not None:
        out["revealed"] = shares.revealed
    elif card is None and not turn.reshuffled:
        out["revealed"] = shares.played  # nothing turned up: the analysis's after
    if index + 1 < len(starts):
        out["after_view"] = raw_chance(starts[index + 1][int(seat)], rng, playouts)
    return out


def measure(
    seed: int,
    games: int,
    per_game: int,
    playouts: int,
    save: TextIO | None = None,
    turns: bool = False,
) -> list[Position]:
    """Play `games` games from seeds seed, seed + 1, ... and estimate `per_game` positions of
    each, spread over it; each game's positions written to `save` as it ends (one JSON a line:
    a run cut short keeps what it did). With `turns`, a position of the seat to move also gets
    the turn played judged (judge_turn), from a generator of its own: the other estimates are
    those of a run without it."""
    out: list[Position] = []
    began = time.perf_counter()
    done = 0
    for number in range(games):
        game_seed = seed + number
        white, black = PAIRINGS[number % len(PAIRINGS)]
        starts, winner, played = play_game(game_seed, white, black)
        rng = random.Random(game_seed * 7919 + 1)
        spread = len(starts) / per_game
        picked = sorted({int(i * spread + rng.random() * spread) for i in range(per_game)})
        for index in picked:
            if index >= len(starts):
                continue
            views = starts[index]
            seat = Seat.WHITE if rng.random() < 0.5 else Seat.BLACK
            view = views[int(seat)]
            pub = view.public
            out.append(
                {
                    "game": game_seed,
                    "levels": [white, black],
                    "seat": int(seat),
                    "level": [white, black][int(seat)],
                    "to_move": pub.to_move is seat,
                    "turn": index,
                    "turns": len(starts),
                    "round": pub.round,
                    "pile": pub.pile_size,
                    "face_up": len(pub.face_up),
                    "played": len(pub.played),
                    "face_down": pub.face_down_count,
                    "hands": list(pub.hand_sizes),
                    "final_turns": pub.final_turns_left,
                    "scores": list(pub.scores),
                    "raw": raw_chance(view, rng, playouts),
                    "won": 0.5 if winner is None else float(winner is seat),
                }
            )
            if turns and pub.to_move is seat:
                out[-1].update(judge_turn(starts, played, index, seat, playouts, game_seed + index))
        if save is not None:
            for p in out[done:]:
                save.write(json.dumps(p) + "\n")
            save.flush()
        done = len(out)
        if (number + 1) % 50 == 0:
            print(
                f"  {number + 1} games, {len(out)} positions, {time.perf_counter() - began:.0f} s",
                file=sys.stderr,
            )
    return out


def logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def wilson(won: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def tenth_of(e: float) -> int:
    return min(9, int(e * 10))


def table(
    positions: Sequence[Position],
    estimates: Sequence[float],
    label: str,
    min_count: int,
    resamples: int = 1000,
) -> tuple[float, float]:
    """Print the table of the tenths; the Brier score and the largest gap over the tenths with
    at least `min_count` positions."""
    outcomes = [p["won"] for p in positions]
    games = sorted({p["game"] for p in positions})
    # Per game and tenth: (positions, estimates summed, wins summed), for the bootstrap.
    by_game: dict[int, list[tuple[int, float, float]]] = {g: [(0, 0.0, 0.0)] * 10 for g in games}
    for p, e in zip(positions, estimates, strict=True):
        t = tenth_of(e)
        n, s, w = by_game[p["game"]][t]
        by_game[p["game"]][t] = (n + 1, s + e, w + p["won"])
    rng = random.Random(1)
    shares: list[list[float]] = [[] for _ in range(10)]
    rows = list(by_game.values())
    for _ in range(resamples):
        counts = [0] * 10
        wins = [0.0] * 10
        for _g in range(len(rows)):
            row = rows[rng.randrange(len(rows))]
            for t in range(10):
                counts[t] += row[t][0]
                wins[t] += row[t][2]
        for t in range(10):
            if counts[t]:
                shares[t].append(wins[t] / counts[t])
    print(f"{label}:")
    print(
        "  tenth    positions  games  mean est.  share won  95% (games)    95% (Wilson)       gap"
    )
    largest = 0.0
    for t in range(10):
        n = sum(row[t][0] for row in rows)
        if not n:
            continue
        mean = sum(row[t][1] for row in rows) / n
        won = sum(row[t][2] for row in rows) / n
        in_games = sum(1 for row in rows if row[t][0])
        boot = sorted(shares[t])
        low, high = boot[int(0.025 * len(boot))], boot[min(len(boot) - 1, int(0.975 * len(boot)))]
        w_low, w_high = wilson(won * n, n)
        gap = won - mean
        judged = n >= min_count
        mark = "" if judged else " (few)"
        if judged:
            largest = max(largest, abs(gap))
        print(
            f"  {t / 10:.1f}-{(t + 1) / 10:.1f}  {n:>9}  {in_games:>5}  {mean:>9.3f}  {won:>9.3f}"
            f"  {low:.3f}-{high:.3f}  {w_low:.3f}-{w_high:.3f}  {gap:>+8.3f}{mark}"
        )
    brier = sum((e - o) ** 2 for e, o in zip(estimates, outcomes, strict=True)) / len(outcomes)
    loss = -sum(
        o * math.log(max(e, 1e-9)) + (1 - o) * math.log(max(1 - e, 1e-9))
        for e, o in zip(estimates, outcomes, strict=True)
    ) / len(outcomes)
    print(
        f"  Brier score {brier:.4f}, log loss {loss:.4f} over {len(outcomes)} positions of"
        f" {len(games)} games; largest gap {largest:.3f} over the tenths of at least"
        f" {min_count} positions"
    )
    # The analysis compares a turn's `before` (its seat to move) with its `after` (waiting):
    # each kind should be honest on its own.
    for to_move, kind in ((True, "the seat to move"), (False, "the seat waiting")):
        picked = [(e, o) for p, e, o in zip(positions, estimates, outcomes, strict=True)
                  if p["to_move"] is to_move]  # fmt: skip
        if not picked:
            continue
        worst = 0.0
        for t in range(10):
            cell = [(e, o) for e, o in picked if tenth_of(e) == t]
            if len(cell) >= min_count // 2:
                worst = max(worst, abs(sum(o - e for e, o in cell) / len(cell)))
        mean = sum(e for e, _ in picked) / len(picked)
        won = sum(o for _, o in picked) / len(picked)
        print(
            f"  {kind}: {len(picked)} positions, mean estimate {mean:.3f}, share won {won:.3f};"
            f" largest gap {worst:.3f} over the tenths of at least {min_count // 2}"
        )
    return brier, largest


def features(p: Position, clip: float) -> list[float]:
    """What the calibration reads of a position, as shared.analysis.calibrated does: the logit
    of the raw share held within clip and 1 - clip, and 1 for the seat to move, -1 for the
    other."""
    share = min(max(p["raw"], clip), 1 - clip)
    return [math.log(share / (1 - share)), 1.0 if p["to_move"] else -1.0]


def fit(positions: Sequence[Position], make: Callable[[Position], list[float]]) -> list[float]:
    """The weights of a logistic on the features, by Newton's method (log loss)."""
    rows = [(make(p), p["won"]) for p in positions]
    k = len(rows[0][0])
    w = [0.0] * k
    w[0] = 1.0  # the raw share as it is
    for _ in range(100):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for xs, y in rows:
            pr = sigmoid(sum(wi * xi for wi, xi in zip(w, xs, strict=True)))
            d = pr - y
            h = pr * (1 - pr)
            for i in range(k):
                grad[i] += d * xs[i]
                for j in range(k):
                    hess[i][j] += h * xs[i] * xs[j]
        for i in range(k):
            hess[i][i] += 1e-6 * len(rows)  # a touch of ridge: no singular step
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if sum(abs(s) for s in step) < 1e-10:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def load(paths: Sequence[str]) -> list[Position]:
    out: list[Position] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            out.extend(json.loads(line) for line in f if line.strip())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--per-game",
        type=int,
        default=10,
        help="positions taken from each game, spread over it (the positions of one game share"
        " its outcome: many games make the figures steadier than many positions)",
    )
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--seed", type=int, default=2026, help="game i is played from SEED + i")
    parser.add_argument("--save", metavar="FILE", help="write the positions, one JSON a line")
    parser.add_argument("--load", metavar="FILE", action="append", help="read saved positions")
    parser.add_argument(
        "--fit", metavar="FILE", action="append", help="fit the calibration on these positions"
    )
    parser.add_argument(
        "--turns",
        action="store_true",
        help="also judge the turn played from each position of the seat to move, as the"
        " analysis does: its expected chance, and its chance after the card it turned up",
    )
    parser.add_argument(
        "--cross",
        action="store_true",
        help="with two --load files or more: each judged by the calibration fitted on the others",
    )
    parser.add_argument(
        "--clip",
        type=float,
        default=CALIBRATION_CLIP,
        help="the fit holds the raw share within CLIP and 1 - CLIP",
    )
    parser.add_argument(
        "--min-count",
        type=int,
        default=150,
        help="the tenths with fewer positions are shown but not judged",
    )
    args = parser.parse_args()
    began = time.perf_counter()
    if args.load:
        positions = load(args.load)
        print(f"{len(positions)} positions read from {', '.join(args.load)}")
        if args.save:
            with open(args.save, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(p) + "\n" for p in positions)
    else:
        with contextlib.ExitStack() as stack:
            save = (
                stack.enter_context(open(args.save, "w", encoding="utf-8")) if args.save else None
            )
            positions = measure(
                args.seed, args.games, args.per_game, args.playouts, save, args.turns
            )
        print(
            f"{len(positions)} positions from {args.games} games (seeds {args.seed} to"
            f" {args.seed + args.games - 1}; easy and normal, both ways), {args.playouts}"
            f" playouts each, in {time.perf_counter() - began:.0f} s"
        )
    table(
        positions, [p["raw"] for p in positions], "raw share of greedy playouts won", args.min_count
    )
    table(
        positions,
        [calibrated(p["raw"], p["to_move"]) for p in positions],
        "calibrated (shared.analysis as it is)",
        args.min_count,
    )
    for key, label in (
        ("expected", "the turn played, before its card was seen (the analysis's expected)"),
        ("revealed", "the turn played, its card seen (the analysis's after)"),
        ("after_view", "the view after the turn, sampled afresh (the analysis's after until now)"),
    ):
        turned = [p for p in positions if key in p]
        if turned:  # each read as the seat waiting: the turn is over
            table(
                turned,
                [calibrated(p[key], False) for p in turned],
                f"calibrated: {label}",
                args.min_count // 2,
            )
    if args.cross:
        # each file's positions judged by the calibration fitted on the other files
        sets = [load([path]) for path in args.load]
        judged: list[Position] = []
        estimates: list[float] = []
        for i, held in enumerate(sets):
            a, m = fit(
                [p for j, s in enumerate(sets) if j != i for p in s],
                lambda p: features(p, args.clip),
            )
            print(
                f"fitted without {args.load[i]}: CALIBRATION_A = {a:.3f}, CALIBRATION_M = {m:.3f}"
            )
            judged += held
            estimates += [sigmoid(a * x + m * y) for x, y in (features(p, args.clip) for p in held)]
        table(
            judged,
            estimates,
            "each file judged by the calibration fitted on the others",
            args.min_count,
        )
    if args.fit:
        train = load(args.fit)
        a, m = fit(train, lambda p: features(p, args.clip))
        print(
            f"fitted on {len(train)} positions of {', '.join(args.fit)}:"
            f" CALIBRATION_CLIP = {args.clip}, CALIBRATION_A = {a:.3f}, CALIBRATION_M = {m:.3f}"
        )
        table(
            positions,
            [sigmoid(a * x + m * y) for x, y in (features(p, args.clip) for p in positions)],
            "with the calibration fitted on --fit",
            args.min_count,
        )


if __name__ == "__main__":
    main()
