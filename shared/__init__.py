"""Kahuna's pure rules engine: board, game state, legal actions, views and records, and the
computer player.

Nothing in this package does I/O: the server and the client are shells around it. It imports
nothing of protocol/, server/ or client/. The one clock it reads is the searches' time budget
(shared.search, shared.ismcts, shared.inference), and only when no iteration budget is given.
Its modules, each with its one job, are in docs/architecture.md's module map.
"""
