"""`Send`: how the screens hand a message to the server without knowing the connection that
carries it (client/net/connection.py's `Session.send` is the one the client runs with), so that
the screens import no sockets."""

from __future__ import annotations

from collections.abc import Callable

from protocol.messages import ClientMessage

# False when the message could not be sent (no connection at that moment).
Send = Callable[[ClientMessage], bool]
