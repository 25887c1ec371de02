"""The authoritative Kahuna game server (run it with `kahuna-server`, see --help): a sans-I/O
core, fed events with the time and returning effects, inside an asyncio shell that does the
I/O. Its modules, core and shell, each with its one job, are in docs/architecture.md's module
map.
"""
