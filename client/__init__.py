"""The terminal client (run it with `kahuna-client`, see --help): protocol version 3 over
WebSockets, a prompt-toolkit full-screen application, in English, German or Italian. Its
modules, each with its one job, are in docs/architecture.md's module map.
"""
