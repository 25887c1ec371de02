"""The Kahuna wire protocol: message classes, error codes and the msgpack codec.

See docs/protocol.md for the full description, and docs/architecture.md's module map for the
modules.
"""

from protocol.codec import (
    CLIENT_MAX_FRAME,
    DEFAULT_MAX_FRAME,
    decode,
    decode_client,
    decode_server,
    encode,
    to_wire,
)
from protocol.errors import MEANINGS, ErrorCode, ProtocolError
from protocol.fields import DEFAULT_PORT, PROTOCOL_VERSION

__all__ = [
    "CLIENT_MAX_FRAME",
    "DEFAULT_MAX_FRAME",
    "DEFAULT_PORT",
    "MEANINGS",
    "PROTOCOL_VERSION",
    "ErrorCode",
    "ProtocolError",
    "decode",
    "decode_client",
    "decode_server",
    "encode",
    "to_wire",
]
