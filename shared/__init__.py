"""Kahuna's pure rules engine: board, game state, legal actions, views and records.

Nothing in this package does I/O: the server and the client are shells around it.
"""
