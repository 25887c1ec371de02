"""The terminal client (run it with `kahuna-client`, see --help): protocol version 3 over
WebSockets, a prompt-toolkit full-screen application, in English, German or Italian. Its
subpackages, each importing only those below it (pyproject.toml's contracts):

- client.cli: the command lines (kahuna-client, kahuna-record) and the run that joins the rest;
- client.screens: the full-screen views, their keys and what the player does from them;
- client.net: the connection to a server, the servers on the LAN, the server inside the client;
- client.files: the user's small state files (seats, login tokens, the form, addresses);
- client.model: what the client knows and what a typed line means, pure;
- client.language: the words in the player's language, made from codes.

Each module, with its one job, is in docs/architecture.md's module map.
"""
