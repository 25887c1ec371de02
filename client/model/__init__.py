"""What the client knows (the state each server message changes, the players, the table) and what
a typed line means. Pure: no I/O, no terminal, no sockets."""
