"""Tournaments without I/O: the model of a Swiss or round-robin tournament (entrants, rounds,
games, results, late joins and withdrawals), its pairings (`swiss.py` under networkx's weighted
matching, `round_robin.py` Berger's tables) and its standings with their tie-breaks. Plain data
in, plain data out; docs/tournaments.md states the rules and docs/architecture.md maps the
modules."""
