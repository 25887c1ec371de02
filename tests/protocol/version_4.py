"""What holds for every family of messages that version 4 brought (accounts, moderation,
tournaments): none of them exists for an older peer, either way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from protocol.codec import decode_client, encode
from protocol.errors import ErrorCode, ProtocolError


def assert_unknown_before_version_4(
    client: Sequence[Any], server: Sequence[Any], version: int
) -> None:
    """A client's message, as a version-4 peer sends it, is an unknown type to a server
    speaking `version`; and no message of either side can be encoded for such a peer."""
    for message in client:
        with pytest.raises(ProtocolError) as info:
            decode_client(encode(message, 4), version=version)
        assert info.value.code is ErrorCode.UNKNOWN_TYPE
    for message in [*server, *client]:
        with pytest.raises(ValueError):
            encode(message, version)
