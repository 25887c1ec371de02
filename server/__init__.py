"""The authoritative Kahuna game server (run it with `kahuna-server`, see --help).

    config.py      every limit and default (ServerConfig)
    table.py       one table, sans-I/O: a Game, seats with tokens, spectators, chat
    lobby.py       the open tables and the watchers of the list
    connection.py  one client connection: its send queue, writer and rate limits
    computer.py    the computer opponent (shared.ai), seated like a player
    app.py         the WebSocket server: decodes frames, routes them, delivers outboxes
    __main__.py    the command line, logging, signals, TLS

The wire protocol is in protocol/ and docs/protocol.md.
"""
