"""The server's storage: the SQLite and PostgreSQL schemas, the stores behind the core's
`Storage` protocol (server/core/store.py), the writer thread, and which store a `--db` names."""
