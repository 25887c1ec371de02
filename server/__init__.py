"""The authoritative Kahuna game server (run it with `kahuna-server`, see --help).

The core, sans-I/O (fed events with the time; returns Effects; docs/architecture.md):
    core.py         ServerCore: the events, and the dispatch of each client message
    context.py      what the parts share: sessions, tables, the rng, and the effects plumbing
    effects.py      what the shell is to do: writes, sends, closes, computer turns, records
    sessions.py     hello and names, connection limits, rates;  session.py  one connection
    play.py         a game around its moves: commands, clocks, offers, claims, chat
    lifecycle.py    tables made, rematched, closed, abandoned and restored from storage
    timers.py       wake-ups: the lobby's flush, sweeps, clock flags and claims
    table.py        one table: a Game, seats with tokens, spectators, chat
    lobby.py        the open tables and the watchers of the list
    clock.py        a table's chess clock;  ratelimit.py  token buckets
    store.py        the storage operations and the Storage interface (no I/O)
    config.py       ServerConfig: every setting, each declared once
    settings.py     how a setting is declared: its flag, help and parsing

The shell (I/O):
    app.py          the WebSocket server: feeds the core, carries out its effects
    connection.py   one client connection: its send queue and writer
    sqlite_store.py the Storage in SQLite;  sqlite_schema.py  its schema and migrations
    computer.py     the computer's decision (shared.ai), as a worker process runs it
    discovery.py    the LAN announcement (DNS-SD)
    command_line.py the parser, --help and --config, from the settings' declarations
    __main__.py     the command line, logging, signals, TLS

The wire protocol is in protocol/ and docs/protocol.md.
"""
