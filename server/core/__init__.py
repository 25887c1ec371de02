"""The server's core, sans-I/O: the session rules, the tables, the accounts and what is stored,
fed events with the time and randomness and returning effects (the `Storage` protocol is here,
its databases are not). It imports nothing of the rest of the server, nor any I/O, clock or
randomness of the system; the import contracts in pyproject.toml check it."""
