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
    "abandoned": N_("abandoned: a moderator closed the table"),
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
    "abandoned": N_("A moderator closed the table: the game is abandoned, unrated."),
}
NEITHER_HAS_A_BRIDGE_ENDING = N_("Neither player has a bridge on the board.")

# A game of the player's ended while they were away from its table (protocol version 4's
# player_note game_over), in the lobby's status line: "line" holds "how", the ending for the
# player told, keyed "outcome/kind" for the endings a player made and by the outcome otherwise;
# "{name}" is the other player.
GAME_OVER_NOTES: dict[str, str] = {
    "line": N_("Your game against {name} at table {table} is over: {how}."),
    "won/forfeit": N_("{name} forfeited, you won"),
    "lost/forfeit": N_("you forfeited, {name} won"),
    "won/time": N_("{name} ran out of time, you won"),
    "lost/time": N_("you ran out of time, {name} won"),
    "won/resigned": N_("{name} resigned, you won"),
    "lost/resigned": N_("you resigned, {name} won"),
    "won": N_("you won"),
    "lost": N_("{name} won"),
    "drawn": N_("a draw"),
    "unknown": N_("its table shows the result"),  # an outcome this client does not know
}
