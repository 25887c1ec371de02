"""How a game ended, in English, keyed by the result's code (shared.types.Termination's values):
short, for the log and records ("{seat}" is the loser's colour), and as a sentence with the
players' names for the game-over screen ("{player}" is the loser).

The short sentences are also the engine's English (shared.results.english_reason): the ones it
sent before results had codes, which version-1 clients and records' comments read, so they do
not change.
"""

from __future__ import annotations

from catalogue import N_

REASONS: dict[str, str] = {
    "points": N_("more points"),
    "final": N_("tied on points, more in the final scoring"),
    "bridges": N_("tied on points, more bridges on the board"),
    "tie": N_("tied on points and bridges: no winner"),
    "no_bridges": N_("{seat} has no bridge on the board"),
    "agreed": N_("draw agreed"),
    "resigned": N_("{seat} resigned"),
    "time": N_("{seat} ran out of time"),
    "forfeit": N_("{seat} forfeited"),
}
# no_bridges with no loser: both players' bridges are gone
NEITHER_HAS_A_BRIDGE = N_("neither player has a bridge on the board")

ENDINGS: dict[str, str] = {
    "points": N_("More points after the final scoring."),
    "final": N_("Tied on points; more points in the final scoring."),
    "bridges": N_("Tied on points and in the final scoring; more bridges on the board."),
    "tie": N_("Tied on points and on bridges: a tie."),
    "no_bridges": N_("{player} has no bridge left on the board."),
    "agreed": N_("The players agreed a draw."),
    "resigned": N_("{player} resigned."),
    "time": N_("{player} ran out of time."),
    "forfeit": N_("{player} left the game and forfeited it."),
}
NEITHER_HAS_A_BRIDGE_ENDING = N_("Neither player has a bridge on the board.")
